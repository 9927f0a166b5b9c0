#include "config.h"

#include <nlohmann/json.hpp>

#include "engine/rules.h"
#include "protocol/codec.h"

namespace tengen::bridge {

namespace {

using json = nlohmann::json;
using System = protocol::TimeControl::System;

std::optional<System> system_named(std::string_view name) {
  if (name == "none") return System::None;
  if (name == "absolute") return System::Absolute;
  if (name == "simple") return System::Simple;
  if (name == "fischer") return System::Fischer;
  if (name == "byoyomi") return System::ByoYomi;
  if (name == "canadian") return System::Canadian;
  if (name == "correspondence") return System::Correspondence;
  return std::nullopt;
}

std::string system_name(System s) {
  switch (s) {
    case System::None:
      return "none";
    case System::Absolute:
      return "absolute";
    case System::Simple:
      return "simple";
    case System::Fischer:
      return "fischer";
    case System::ByoYomi:
      return "byoyomi";
    case System::Canadian:
      return "canadian";
    case System::Correspondence:
      return "correspondence";
  }
  return "?";
}

// Reads fields one by one, so that every mistake is named; unknown fields are refused.
class Reader {
 public:
  Reader(const json& object, std::string prefix) : j_(object), prefix_(std::move(prefix)) {}

  template <class T>
  void get(const char* key, T& out, bool (json::*is)() const noexcept, const char* what) {
    if (!j_.contains(key)) return;
    seen_.insert(key);
    if (!(j_[key].*is)()) throw std::invalid_argument("'" + prefix_ + key + "' must be " + what);
    out = j_[key].get<T>();
  }
  void boolean(const char* key, bool& out) { get(key, out, &json::is_boolean, "true or false"); }
  void string(const char* key, std::string& out) { get(key, out, &json::is_string, "a string"); }
  void integer(const char* key, int lo, int hi, int& out) {
    get(key, out, &json::is_number_integer, "an integer");
    if (j_.contains(key) && (out < lo || out > hi)) {
      throw std::invalid_argument("'" + prefix_ + key + "' must be from " + std::to_string(lo) +
                                  " to " + std::to_string(hi));
    }
  }
  std::vector<std::string> strings(const char* key) {
    std::vector<std::string> out;
    if (!j_.contains(key)) return out;
    seen_.insert(key);
    const auto& v = j_[key];
    bool ok = v.is_array();
    for (const auto& item : ok ? v : json::array()) ok = ok && item.is_string();
    if (!ok) throw std::invalid_argument("'" + prefix_ + key + "' must be a list of strings");
    for (const auto& item : v) out.push_back(item.get<std::string>());
    return out;
  }
  const json* object(const char* key) {
    if (!j_.contains(key)) return nullptr;
    seen_.insert(key);
    if (!j_[key].is_object())
      throw std::invalid_argument("'" + prefix_ + key + "' must be an object");
    return &j_[key];
  }
  bool has(const char* key) const { return j_.contains(key); }
  void finish() const {
    for (const auto& [key, value] : j_.items()) {
      if (!seen_.contains(key))
        throw std::invalid_argument("unknown field '" + prefix_ + key + "'");
    }
  }

 private:
  const json& j_;
  std::string prefix_;
  std::set<std::string> seen_;
};

void parse_server(const std::string& url, Config& c) {
  std::string_view rest = url;
  for (std::string_view scheme : {"http://", "ws://"}) {
    if (rest.starts_with(scheme)) rest.remove_prefix(scheme.size());
  }
  if (rest.size() == url.size() || rest.empty()) {
    throw std::invalid_argument(
        "'server' must be http://HOST[:PORT] or ws://HOST[:PORT] (TLS is not supported: run the "
        "bridge next to the server)");
  }
  if (rest.ends_with('/')) rest.remove_suffix(1);
  const auto colon = rest.rfind(':');
  c.host = std::string(rest.substr(0, colon));
  c.port = colon == std::string_view::npos ? "80" : std::string(rest.substr(colon + 1));
  if (c.host.empty() || c.port.empty() ||
      c.port.find_first_not_of("0123456789") != std::string::npos) {
    throw std::invalid_argument("'server' must be http://HOST[:PORT]: cannot read '" + url + "'");
  }
}

void parse_accept(const json& object, AcceptPolicy& a) {
  Reader r(object, "accept.");
  r.boolean("direct", a.direct);
  r.boolean("open", a.open);
  if (r.has("board_sizes")) {
    std::vector<int> sizes;
    r.get("board_sizes", sizes, &json::is_array, "a list of board sizes");
    if (sizes.empty()) throw std::invalid_argument("'accept.board_sizes' must not be empty");
    a.board_sizes.clear();
    for (int s : sizes) {
      if (s < 2 || s > 25)
        throw std::invalid_argument("'accept.board_sizes' must hold sizes from 2 to 25");
      a.board_sizes.insert(s);
    }
  }
  for (const auto& name : r.strings("rulesets")) {
    const auto ruleset = parse_ruleset(name);
    if (!ruleset) throw std::invalid_argument("'accept.rulesets': unknown ruleset '" + name + "'");
    a.rulesets.insert(*ruleset);
  }
  for (const auto& name : r.strings("time_systems")) {
    const auto s = system_named(name);
    if (!s)
      throw std::invalid_argument(
          "'accept.time_systems': '" + name +
          "' is not none, absolute, simple, fischer, byoyomi, canadian or correspondence");
    a.time_systems.insert(*s);
  }
  r.boolean("rated", a.rated);
  r.boolean("unrated", a.unrated);
  r.integer("max_handicap", 0, 9, a.max_handicap);
  int min_main_seconds = 0;
  r.integer("min_main_seconds", 0, 1'000'000, min_main_seconds);
  a.min_main_ms = std::int64_t{min_main_seconds} * 1000;
  r.integer("max_games", 1, 1000, a.max_games);
  r.finish();
}

Config parse(const json& j, const Getenv& getenv) {
  if (!j.is_object()) throw std::invalid_argument("the configuration must be a JSON object");
  Config c;
  Reader r(j, "");
  std::string server;
  r.string("server", server);
  if (!server.empty()) parse_server(server, c);
  r.string("username", c.username);
  if (c.username.empty())
    throw std::invalid_argument("'username' is missing: the bot account's name");
  std::string password_env = "TENGEN_BOT_PASSWORD";
  r.string("password", c.password);
  r.string("password_env", password_env);
  if (c.password.empty()) {
    const char* from_env = getenv(password_env.c_str());
    if (from_env == nullptr || *from_env == '\0') {
      throw std::invalid_argument("no password: set 'password', or the environment variable " +
                                  password_env);
    }
    c.password = from_env;
  }
  c.engine = r.strings("engine");
  if (c.engine.empty())
    throw std::invalid_argument(
        "'engine' is missing: the engine's command line, e.g. [\"/usr/games/gnugo\", \"--mode\", "
        "\"gtp\"]");
  if (const json* a = r.object("accept")) parse_accept(*a, c.accept);
  if (const json* ch = r.object("challenge")) {
    auto settings = protocol::decode_settings(ch->dump());
    if (auto* problem = std::get_if<std::string>(&settings))
      throw std::invalid_argument("'challenge': " + *problem);
    c.challenge = std::get<protocol::GameSettings>(settings);
    if (auto problem = protocol::validate(*c.challenge))
      throw std::invalid_argument("'challenge': " + *problem);
  }
  r.boolean("accept_undo", c.accept_undo);
  r.string("greeting", c.greeting);
  r.integer("max_think_seconds", 1, 86'400, c.max_think_seconds);
  r.boolean("log_gtp", c.log_gtp);
  r.finish();
  return c;
}

}  // namespace

std::variant<Config, std::string> parse_config(std::string_view text, const Getenv& getenv) {
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) return std::string("the configuration is not valid JSON");
  try {
    return parse(j, getenv);
  } catch (const std::invalid_argument& e) {
    return std::string(e.what());
  } catch (const json::exception&) {
    return std::string("a field has the wrong type");
  }
}

std::optional<std::string> refusal(const AcceptPolicy& a, const protocol::GameSettings& s) {
  if (s.width != s.height) return "the board is not square (GTP engines play square boards only)";
  if (!a.board_sizes.contains(s.width))
    return "board size " + std::to_string(s.width) + " is not one this bot plays";
  if (!a.rulesets.empty() && !a.rulesets.contains(s.ruleset))
    return "this bot does not play " + std::string(to_string(s.ruleset)) + " rules";
  if (!a.time_systems.empty() && !a.time_systems.contains(s.time.system)) {
    // Told to the challenger as the reason (docs/bots.md): in players' words.
    if (s.time.system == System::Correspondence)
      return "this bot does not play correspondence games";
    if (s.time.system == System::None) return "this bot does not play untimed games";
    return "this bot does not play with " + system_name(s.time.system) + " time";
  }
  if (s.rated ? !a.rated : !a.unrated)
    return s.rated ? "this bot plays unrated games only" : "this bot plays rated games only";
  if (s.automatic_handicap ? a.max_handicap < 9 : s.handicap > a.max_handicap) {
    return s.automatic_handicap
               ? "an automatic handicap could exceed this bot's maximum of " +
                     std::to_string(a.max_handicap)
               : "handicap " + std::to_string(s.handicap) + " is more than this bot's maximum of " +
                     std::to_string(a.max_handicap);
  }
  if (a.min_main_ms > 0 && s.time.system != System::None && s.time.system != System::Simple &&
      s.time.main_ms < a.min_main_ms) {
    return "main time under " + std::to_string(a.min_main_ms / 1000) +
           " s is too fast for this bot";
  }
  return std::nullopt;
}

}  // namespace tengen::bridge
