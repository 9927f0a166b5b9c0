#include "protocol/bus.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace tengen::protocol::bus {
namespace {

using json = nlohmann::json;

constexpr const char* kOps[] = {"connected", "received",  "disconnected", "answer",
                                "barrier",   "roll_call", "roll_end"};
constexpr const char* kReads[] = {"live_sgf",
                                  "tournaments",
                                  "tournament",
                                  "reviews",
                                  "review_sgf",
                                  "create_review",
                                  "reload_player",
                                  "game_action",
                                  "account_restricted",
                                  "group_changed",
                                  "tell",
                                  "start_game",
                                  "class_tournament",
                                  "import_tournament",
                                  "add_tournament_players",
                                  "relay",
                                  "my_games",
                                  "rebuild_ratings"};

}  // namespace

std::string encode(const ToHub& m) {
  json j{
      {"op", kOps[static_cast<std::size_t>(m.op)]}, {"node", m.node}, {"connection", m.connection}};
  if (m.user) {
    j["user"] = {{"id", m.user->id},
                 {"name", m.user->name},
                 {"bot", m.user->bot},
                 {"created_at_ms", m.user->created_at_ms}};
    if (m.user->admin) j["user"]["admin"] = true;
  }
  if (m.rtt_ms) j["rtt_ms"] = *m.rtt_ms;
  if (!m.text.empty()) j["text"] = m.text;
  return j.dump();
}

std::string encode(const ToNode& m) {
  json j{{"connection", m.connection}, {"texts", m.texts}};
  if (m.barrier) j["barrier"] = *m.barrier;
  if (m.unknown) j["unknown"] = true;
  if (m.moved) j["moved"] = *m.moved;
  return j.dump();
}

std::optional<ToHub> decode_to_hub(std::string_view text) {
  const json j = json::parse(text, nullptr, false);
  if (!j.is_object() || !j.contains("op") || !j["op"].is_string() || !j.contains("node") ||
      !j["node"].is_number_integer() || !j.contains("connection") ||
      !j["connection"].is_number_unsigned())
    return std::nullopt;
  ToHub m;
  const auto op = j["op"].get<std::string>();
  bool known = false;
  for (std::size_t i = 0; i < std::size(kOps); ++i) {
    if (op == kOps[i]) {
      m.op = static_cast<ToHub::Op>(i);
      known = true;
    }
  }
  if (!known) return std::nullopt;
  m.node = j["node"].get<std::int64_t>();
  m.connection = j["connection"].get<std::uint64_t>();
  try {
    if (j.contains("user")) {
      const auto& u = j["user"];
      m.user = User{u.at("id").get<std::int64_t>(), u.at("name").get<std::string>(),
                    u.at("bot").get<bool>(), u.at("created_at_ms").get<std::int64_t>(),
                    u.value("admin", false)};
    }
    if (j.contains("rtt_ms")) m.rtt_ms = j["rtt_ms"].get<std::int64_t>();
    if (j.contains("text")) m.text = j["text"].get<std::string>();
  } catch (const json::exception&) {
    return std::nullopt;
  }
  return m;
}

std::optional<ToNode> decode_to_node(std::string_view text) {
  const json j = json::parse(text, nullptr, false);
  if (!j.is_object()) return std::nullopt;
  try {
    ToNode m;
    m.connection = j.at("connection").get<std::uint64_t>();
    m.texts = j.at("texts").get<std::vector<std::string>>();
    if (j.contains("barrier")) m.barrier = j["barrier"].get<std::uint64_t>();
    m.unknown = j.value("unknown", false);
    if (j.contains("moved")) m.moved = j["moved"].get<std::int64_t>();
    return m;
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

std::string encode(const HubRead& m) {
  json j{{"read", kReads[static_cast<std::size_t>(m.what)]}, {"id", m.id}, {"limit", m.limit}};
  if (m.before) j["before"] = *m.before;
  if (!m.text.empty()) j["text"] = m.text;
  if (m.viewer) j["viewer"] = *m.viewer;
  if (m.admin) j["admin"] = true;
  return j.dump();
}

std::string encode(const HubReadAnswer& m) {
  json j = json::object();
  if (m.body) j["body"] = *m.body;
  return j.dump();
}

std::optional<HubRead> decode_hub_read(std::string_view text) {
  const json j = json::parse(text, nullptr, false);
  if (!j.is_object()) return std::nullopt;
  try {
    HubRead m;
    const auto what = j.at("read").get<std::string>();
    const auto* known = std::find(std::begin(kReads), std::end(kReads), what);
    if (known == std::end(kReads)) return std::nullopt;
    m.what = static_cast<HubRead::What>(known - std::begin(kReads));
    m.id = j.at("id").get<std::int64_t>();
    if (j.contains("before")) m.before = j["before"].get<std::int64_t>();
    m.limit = j.at("limit").get<int>();
    if (j.contains("text")) m.text = j["text"].get<std::string>();
    if (j.contains("viewer")) m.viewer = j["viewer"].get<std::int64_t>();
    if (j.contains("admin")) m.admin = j["admin"].get<bool>();
    return m;
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

std::optional<HubReadAnswer> decode_hub_read_answer(std::string_view text) {
  const json j = json::parse(text, nullptr, false);
  if (!j.is_object()) return std::nullopt;
  HubReadAnswer m;
  if (j.contains("body")) {
    if (!j["body"].is_string()) return std::nullopt;
    m.body = j["body"].get<std::string>();
  }
  return m;
}

std::string encode(const SessionEnded& m) {
  json j{{"node", m.node}, {"session_ended", m.session}};
  if (!m.why.empty()) j["why"] = m.why;
  return j.dump();
}

std::optional<SessionEnded> decode_session_ended(std::string_view text) {
  const json j = json::parse(text, nullptr, false);
  if (!j.is_object() || !j.contains("node") || !j["node"].is_number_integer() ||
      !j.contains("session_ended") || !j["session_ended"].is_number_integer())
    return std::nullopt;
  SessionEnded m{j["node"].get<std::int64_t>(), j["session_ended"].get<std::int64_t>()};
  if (j.contains("why") && j["why"].is_string()) m.why = j["why"].get<std::string>();
  return m;
}

std::string encode(const ChatPosted& m) {
  return json{{"chat_by", m.user}, {"counter", m.counter}}.dump();
}

std::optional<ChatPosted> decode_chat_posted(std::string_view text) {
  const json j = json::parse(text, nullptr, false);
  if (!j.is_object() || !j.contains("chat_by") || !j["chat_by"].is_number_integer() ||
      !j.contains("counter") || !j["counter"].is_number_integer())
    return std::nullopt;
  return ChatPosted{j["chat_by"].get<std::int64_t>(), j["counter"].get<std::int64_t>()};
}

std::string encode_hub(std::int64_t node) {
  return json{{"hub", node}}.dump();
}

namespace {

std::optional<std::int64_t> integer_field(std::string_view text, const char* name) {
  const json j = json::parse(text, nullptr, false);
  if (!j.is_object() || !j.contains(name) || !j[name].is_number_integer()) return std::nullopt;
  return j[name].get<std::int64_t>();
}

}  // namespace

std::optional<std::int64_t> decode_hub(std::string_view text) {
  return integer_field(text, "hub");
}

std::string encode(const GameOwner& m) {
  return json{{"game", m.game}, {"owner", m.node}}.dump();
}

std::optional<GameOwner> decode_game_owner(std::string_view text) {
  const auto game = integer_field(text, "game");
  const auto node = integer_field(text, "owner");
  if (!game || !node) return std::nullopt;
  return GameOwner{*game, *node};
}

std::string encode_node_left(std::int64_t node) {
  return json{{"node_left", node}}.dump();
}

std::optional<std::int64_t> decode_node_left(std::string_view text) {
  return integer_field(text, "node_left");
}

std::string encode_rating_due(std::int64_t game) {
  return json{{"rating_due", game}}.dump();
}

std::optional<std::int64_t> decode_rating_due(std::string_view text) {
  return integer_field(text, "rating_due");
}

std::string encode_hub_leaving(std::int64_t node) {
  return json{{"hub_leaving", node}}.dump();
}

std::optional<std::int64_t> decode_hub_leaving(std::string_view text) {
  return integer_field(text, "hub_leaving");
}

}  // namespace tengen::protocol::bus
