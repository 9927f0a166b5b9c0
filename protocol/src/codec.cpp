#include "protocol/codec.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>
#include <type_traits>
#include <vector>

#include "protocol/server_reader.h"

namespace tengen::protocol {

// The settings' enums by their names on the wire (only this file reads and writes them).
template <>
struct WireNames<TimeControl::System> {
  using S = TimeControl::System;
  static constexpr std::array names{
      std::pair{std::string_view("none"), S::None},
      std::pair{std::string_view("absolute"), S::Absolute},
      std::pair{std::string_view("simple"), S::Simple},
      std::pair{std::string_view("fischer"), S::Fischer},
      std::pair{std::string_view("byoyomi"), S::ByoYomi},
      std::pair{std::string_view("canadian"), S::Canadian},
      std::pair{std::string_view("correspondence"), S::Correspondence}};
};
template <>
struct WireNames<GameSettings::Placement> {
  using P = GameSettings::Placement;
  static constexpr std::array names{std::pair{std::string_view("ruleset"), P::Ruleset},
                                    std::pair{std::string_view("fixed"), P::Fixed},
                                    std::pair{std::string_view("free"), P::Free}};
};
template <>
struct WireNames<GameSettings::ColorChoice> {
  using C = GameSettings::ColorChoice;
  static constexpr std::array names{std::pair{std::string_view("nigiri"), C::Nigiri},
                                    std::pair{std::string_view("black"), C::Black},
                                    std::pair{std::string_view("white"), C::White},
                                    std::pair{std::string_view("automatic"), C::Automatic}};
};

namespace {

using json = nlohmann::json;

constexpr std::size_t kMaxCidLength = 64;
constexpr std::size_t kMaxVertexLength = 4;  // "T19", "pass"
constexpr std::int64_t kMaxThinkMs = std::int64_t{1} << 40;
constexpr std::size_t kMaxChatLength = 1000;
constexpr std::size_t kMaxNameLength = 40;
constexpr std::size_t kMaxSeedLength = 64;
constexpr std::size_t kMaxCommentLength = 4000;  // a review node's comment
constexpr std::size_t kMaxLabelLength = 8;       // a review mark's label

// A field problem found while decoding; becomes an Error naming the field.
struct FieldError {
  ErrorCode code;
  std::string message;
};

// Reads the fields of one JSON object, refusing missing, mistyped and unknown ones.
class Fields {
 public:
  Fields(const json& object, std::string path) : object_(object), path_(std::move(path)) {
    if (!object_.is_object()) throw FieldError{ErrorCode::BadField, where() + " must be an object"};
  }

  template <typename T>
  T required(const char* name) {
    const auto it = object_.find(name);
    if (it == object_.end())
      throw FieldError{ErrorCode::BadField, "missing field '" + name_of(name) + "'"};
    return read<T>(*it, name);
  }
  template <typename T>
  std::optional<T> optional(const char* name) {
    const auto it = object_.find(name);
    if (it == object_.end() || it->is_null()) {
      used_.insert(name);
      return std::nullopt;
    }
    return read<T>(*it, name);
  }
  template <typename T>
  T optional(const char* name, T fallback) {
    return optional<T>(name).value_or(std::move(fallback));
  }
  const json& object(const char* name) {
    used_.insert(name);
    const auto it = object_.find(name);
    if (it == object_.end())
      throw FieldError{ErrorCode::BadField, "missing field '" + name_of(name) + "'"};
    return *it;
  }
  bool has(const char* name) const { return object_.contains(name); }
  // There and not null.
  bool present(const char* name) const {
    const auto it = object_.find(name);
    return it != object_.end() && !it->is_null();
  }
  void consumed(const char* name) { used_.insert(name); }
  std::string name_of(const char* name) const { return path_.empty() ? name : path_ + "." + name; }

  // Every field must have been read: a typo is an error, not silently ignored.
  void no_others() const {
    for (const auto& [key, value] : object_.items()) {
      if (!used_.count(key))
        throw FieldError{ErrorCode::BadField, "unknown field '" + name_of(key.c_str()) + "'"};
    }
  }

 private:
  std::string where() const { return path_.empty() ? "the message" : "field '" + path_ + "'"; }

  template <typename T>
  T read(const json& v, const char* name) {
    used_.insert(name);
    const std::string field = name_of(name);
    if constexpr (std::is_same_v<T, bool>) {
      if (!v.is_boolean())
        throw FieldError{ErrorCode::BadField, "field '" + field + "' must be true or false"};
      return v.get<bool>();
    } else if constexpr (std::is_same_v<T, std::string>) {
      if (!v.is_string())
        throw FieldError{ErrorCode::BadField, "field '" + field + "' must be a string"};
      return v.get<std::string>();
    } else if constexpr (std::is_same_v<T, double>) {
      if (!v.is_number())
        throw FieldError{ErrorCode::BadField, "field '" + field + "' must be a number"};
      return v.get<double>();
    } else {
      static_assert(std::is_integral_v<T>);
      if (!v.is_number_integer() && !v.is_number_unsigned()) {
        throw FieldError{ErrorCode::BadField, "field '" + field + "' must be an integer"};
      }
      if (v.is_number_unsigned()
              ? v.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<T>::max())
              : (v.get<std::int64_t>() < static_cast<std::int64_t>(std::numeric_limits<T>::min()) ||
                 (std::is_signed_v<T> &&
                  v.get<std::int64_t>() >
                      static_cast<std::int64_t>(std::numeric_limits<T>::max())))) {
        throw FieldError{ErrorCode::BadField, "field '" + field + "' is out of range"};
      }
      return v.get<T>();
    }
  }

  const json& object_;
  std::string path_;
  std::set<std::string> used_;
};

// An enum read by its name on the wire (WireNames), or an error listing the names it may take.
template <wire::Enum E>
E enum_value(const std::string& text, const std::string& field) {
  if (const auto value = wire::parse<E>(text)) return *value;
  std::string names;
  for (const auto& [name, value] : WireNames<E>::names)
    names += (names.empty() ? "" : ", ") + std::string(name);
  throw FieldError{ErrorCode::BadField,
                   "field '" + field + "' must be one of " + names + ", not '" + text + "'"};
}

using System = TimeControl::System;

TimeControl read_time(const json& object) {
  Fields f(object, "settings.time");
  TimeControl t;
  t.system =
      enum_value<TimeControl::System>(f.required<std::string>("system"), f.name_of("system"));
  t.main_ms = f.optional<std::int64_t>("main_ms", 0);
  t.per_move_ms = f.optional<std::int64_t>("per_move_ms", 0);
  t.increment_ms = f.optional<std::int64_t>("increment_ms", 0);
  t.max_ms = f.optional<std::int64_t>("max_ms", 0);
  t.periods = f.optional<int>("periods", 0);
  t.period_ms = f.optional<std::int64_t>("period_ms", 0);
  t.stones = f.optional<int>("stones", 0);
  t.weekends_off = f.optional<bool>("weekends_off", false);
  f.no_others();
  return t;
}

std::vector<TeamMember> read_team(const json& list, const std::string& name) {
  if (!list.is_array() || list.empty())
    throw FieldError{ErrorCode::BadField, "field '" + name + "' must be a list of players"};
  std::vector<TeamMember> team;
  for (const auto& m : list) {
    Fields f(m, name);
    team.push_back({f.required<std::int64_t>("id"), f.required<std::string>("name")});
    f.no_others();
  }
  return team;
}

// `teams`: whether the settings may name a pair Go game's teams (the stored settings, the
// server's own messages); what clients send may not.
GameSettings read_settings(const json& object, bool teams = false) {
  Fields f(object, "settings");
  GameSettings s;
  s.width = f.optional<int>("width", 19);
  s.height = f.optional<int>("height", s.width);
  const auto ruleset = f.optional<std::string>("ruleset", "japanese");
  if (const auto named = parse_ruleset(ruleset)) {
    s.ruleset = *named;
  } else {
    std::string names;
    for (auto n : Rules::preset_names()) names += (names.empty() ? "" : ", ") + std::string(n);
    throw FieldError{ErrorCode::BadSettings,
                     "unknown ruleset '" + ruleset + "' (one of " + names + ")"};
  }
  s.komi = f.optional<double>("komi");
  if (f.has("handicap") &&
      object.at("handicap") == "automatic") {  // by the players' ranks, when accepted
    f.consumed("handicap");
    s.automatic_handicap = true;
  } else {
    s.handicap = f.optional<int>("handicap", 0);
  }
  if (auto p = f.optional<std::string>("placement"))
    s.placement = enum_value<GameSettings::Placement>(*p, f.name_of("placement"));
  if (auto c = f.optional<std::string>("color"))
    s.color = enum_value<GameSettings::ColorChoice>(*c, f.name_of("color"));
  if (f.has("time")) s.time = read_time(f.object("time"));
  s.rated = f.optional<bool>("rated", false);
  s.is_private = f.optional<bool>("private", false);
  s.group = f.optional<std::int64_t>("group");
  if (s.group && *s.group < 1)
    throw FieldError{ErrorCode::BadField, "field 'settings.group' must be a group's id"};
  if (teams && f.has("teams")) {
    Fields t(f.object("teams"), "settings.teams");
    s.teams = Teams{read_team(t.object("black"), "settings.teams.black"),
                    read_team(t.object("white"), "settings.teams.white")};
    t.no_others();
  }
  f.no_others();
  return s;
}

json write_time(const TimeControl& t) {
  json j{{"system", wire::name(t.system)}};
  switch (t.system) {
    case System::None:
      break;
    case System::Absolute:
      j["main_ms"] = t.main_ms;
      break;
    case System::Simple:
      j["per_move_ms"] = t.per_move_ms;
      break;
    case System::Fischer:
      j["main_ms"] = t.main_ms;
      j["increment_ms"] = t.increment_ms;
      j["max_ms"] = t.max_ms;
      break;
    case System::ByoYomi:
      j["main_ms"] = t.main_ms;
      j["periods"] = t.periods;
      j["period_ms"] = t.period_ms;
      break;
    case System::Canadian:
      j["main_ms"] = t.main_ms;
      j["stones"] = t.stones;
      j["period_ms"] = t.period_ms;
      break;
    case System::Correspondence:
      j["per_move_ms"] = t.per_move_ms;
      j["max_ms"] = t.max_ms;
      j["weekends_off"] = t.weekends_off;
      break;
  }
  return j;
}

json write_settings(const GameSettings& s) {
  json j{{"width", s.width},
         {"height", s.height},
         {"ruleset", to_string(s.ruleset)},
         {"handicap", s.automatic_handicap ? json("automatic") : json(s.handicap)},
         {"placement", wire::name(s.placement)},
         {"color", wire::name(s.color)},
         {"time", write_time(s.time)},
         {"rated", s.rated},
         {"private", s.is_private}};
  if (s.komi) j["komi"] = *s.komi;
  if (s.group) j["group"] = *s.group;
  if (s.teams) {
    const auto team = [](const std::vector<TeamMember>& members) {
      json list = json::array();
      for (const auto& m : members) list.push_back({{"id", m.id}, {"name", m.name}});
      return list;
    };
    j["teams"] = {{"black", team(s.teams->black)}, {"white", team(s.teams->white)}};
  }
  return j;
}

int read_rank(Fields& f, const char* name, int fallback) {
  const auto text = f.optional<std::string>(name);
  if (!text) return fallback;
  const auto rank = parse_rank(*text);
  if (!rank)
    throw FieldError{ErrorCode::BadField,
                     "field '" + f.name_of(name) + "' must be a rank like \"20k\" or \"3d\""};
  return *rank;
}

TournamentSettings read_tournament_settings(const json& object) {
  Fields f(object, "settings");
  TournamentSettings s;
  s.name = f.required<std::string>("name");
  const auto system = f.required<std::string>("system");
  const auto parsed = tournament::parse_system(system);
  if (!parsed) {
    throw FieldError{
        ErrorCode::BadField,
        "field 'settings.system' must be one of round_robin, double_round_robin, swiss, "
        "mcmahon, single_elimination, double_elimination, not '" +
            system + "'"};
  }
  s.system = *parsed;
  s.rounds = f.optional<int>("rounds", 0);
  if (f.has("game")) s.game = read_settings(f.object("game"));
  if (f.has("mcmahon")) {
    Fields m(f.object("mcmahon"), "settings.mcmahon");
    s.bar = read_rank(m, "bar", s.bar);
    s.floor = read_rank(m, "floor", s.floor);
    m.no_others();
  }
  if (f.has("handicap")) {
    Fields h(f.object("handicap"), "settings.handicap");
    s.handicap.by_score_gap = h.optional<bool>("by_score_gap", false);
    s.handicap.correction = h.optional<int>("correction", 1);
    s.handicap.ceiling = h.optional<int>("ceiling", 9);
    h.no_others();
  }
  s.registration_closes_ms = f.optional<std::int64_t>("registration_closes_ms");
  s.starts_at_ms = f.optional<std::int64_t>("starts_at_ms");
  s.min_players = f.optional<int>("min_players", 2);
  s.max_players = f.optional<int>("max_players", 0);
  s.start_when_full = f.optional<bool>("start_when_full", false);
  if (f.has("round_start")) {
    Fields r(f.object("round_start"), "settings.round_start");
    const auto mode = r.required<std::string>("mode");
    if (mode == "scheduled") {
      s.round_start = TournamentSettings::RoundStart::Scheduled;
    } else if (mode != "after_previous") {
      throw FieldError{ErrorCode::BadField,
                       "field 'settings.round_start.mode' must be after_previous or scheduled"};
    }
    s.round_gap_ms = r.optional<std::int64_t>("gap_ms", 0);
    if (r.has("times_ms")) {
      const json& times = r.object("times_ms");
      if (!times.is_array() || times.size() > 64)
        throw FieldError{
            ErrorCode::BadField,
            "field 'settings.round_start.times_ms' must be a list of at most 64 times"};
      for (const auto& t : times) {
        if (!t.is_number_integer())
          throw FieldError{ErrorCode::BadField,
                           "field 'settings.round_start.times_ms' must hold Unix milliseconds"};
        s.round_times_ms.push_back(t.get<std::int64_t>());
      }
    }
    r.no_others();
  }
  if (f.has("tie_breaks")) {
    const json& list = f.object("tie_breaks");
    if (!list.is_array())
      throw FieldError{ErrorCode::BadField, "field 'settings.tie_breaks' must be a list"};
    for (const auto& t : list) {
      const auto tb =
          t.is_string() ? tournament::parse_tie_break(t.get<std::string>()) : std::nullopt;
      if (!tb)
        throw FieldError{ErrorCode::BadField,
                         "field 'settings.tie_breaks' holds score, wins, sos, sosos or sodos"};
      s.tie_breaks.push_back(*tb);
    }
  }
  s.no_show_ms = f.optional<std::int64_t>("no_show_ms", s.no_show_ms);
  s.vacations = f.optional<bool>("vacations", true);
  s.all_rounds_at_once = f.optional<bool>("all_rounds_at_once", false);
  s.over_the_board = f.optional<bool>("over_the_board", false);
  s.country = f.optional<std::string>("country", "");
  s.city = f.optional<std::string>("city", "");
  f.no_others();
  return s;
}

json write_tournament_settings(const TournamentSettings& s) {
  json j{{"name", s.name},
         {"system", tournament::to_string(s.system)},
         {"rounds", s.rounds},
         {"game", write_settings(s.game)},
         {"mcmahon", {{"bar", rank_text(s.bar)}, {"floor", rank_text(s.floor)}}},
         {"handicap",
          {{"by_score_gap", s.handicap.by_score_gap},
           {"correction", s.handicap.correction},
           {"ceiling", s.handicap.ceiling}}},
         {"min_players", s.min_players},
         {"max_players", s.max_players},
         {"start_when_full", s.start_when_full},
         {"round_start",
          {{"mode", s.round_start == TournamentSettings::RoundStart::Scheduled ? "scheduled"
                                                                               : "after_previous"},
           {"gap_ms", s.round_gap_ms},
           {"times_ms", s.round_times_ms}}},
         {"no_show_ms", s.no_show_ms}};
  // Written when not the default (older records lack them).
  if (!s.vacations) j["vacations"] = false;
  if (s.all_rounds_at_once) j["all_rounds_at_once"] = true;
  if (s.over_the_board) j["over_the_board"] = true;
  if (!s.country.empty()) j["country"] = s.country;
  if (!s.city.empty()) j["city"] = s.city;
  j["tie_breaks"] = json::array();
  for (const auto t : s.tie_breaks) j["tie_breaks"].push_back(tournament::to_string(t));
  if (s.registration_closes_ms) j["registration_closes_ms"] = *s.registration_closes_ms;
  if (s.starts_at_ms) j["starts_at_ms"] = *s.starts_at_ms;
  return j;
}

// ---- every message through its description (wire.h, messages.h) ----

template <class T>
concept Described = requires {
  Wire<T>::fields;
};
template <class T>
concept Message = requires {
  Wire<T>::type;
};

template <class T>
inline constexpr bool kVector = false;
template <class T>
inline constexpr bool kVector<std::vector<T>> = true;
template <class T>
inline constexpr bool kDescribedList = false;
template <Described T>
inline constexpr bool kDescribedList<std::vector<T>> = true;

// Writing.

template <class T>
json to_json(const T& value);

template <class S, class M>
void write_field(json& j, const S& s, const wire::Field<S, M>& field) {
  const M& value = s.*field.member;
  const std::string key(field.name);
  if constexpr (wire::kOptional<M>) {
    if (value) {
      j[key] = to_json(*value);
    } else if (field.empty == wire::Empty::Null) {
      j[key] = nullptr;
    }
  } else {
    j[key] = to_json(value);
  }
}

template <class T>
void write_fields(json& j, const T& value) {
  std::apply([&](const auto&... field) { (write_field(j, value, field), ...); }, Wire<T>::fields);
}

template <class T>
json to_json(const T& value) {
  if constexpr (Described<T>) {
    json j = json::object();
    write_fields(j, value);
    return j;
  } else if constexpr (kVector<T>) {
    json list = json::array();
    for (const auto& item : value) list.push_back(to_json(item));
    return list;
  } else if constexpr (std::is_same_v<T, GameSettings>) {
    return write_settings(value);
  } else if constexpr (std::is_same_v<T, TournamentSettings>) {
    return write_tournament_settings(value);
  } else if constexpr (wire::Enum<T>) {
    return std::string(wire::name(value));
  } else if constexpr (std::is_same_v<T, Result>) {
    return value.to_sgf();
  } else {
    return json(value);
  }
}

// A message's type and fields, without the envelope's "v" (and a client's "cid").
template <Message T>
json message_json(const T& message) {
  json j = json::object();
  j["type"] = std::string(Wire<T>::type);
  write_fields(j, message);
  return j;
}

struct ServerWriter {
  json operator()(const RoomEvent& e) const {
    json j = std::visit([](const auto& body) { return message_json(body); }, e.body);
    write_fields(j, e);
    j["v"] = kVersion;
    return j;
  }
  template <Message T>
  json operator()(const T& message) const {
    json j = message_json(message);
    j["v"] = kVersion;
    return j;
  }
};

// Strict reading, of what clients send: every field of the right type and checked, none unknown.
// Client messages hold plain values, enums, lists of strings or numbers and settings; no nested
// described structs.

template <class T>
T read_fields(Fields& f);

template <class T>
T read_value(Fields& f, const char* name) {
  if constexpr (std::is_same_v<T, GameSettings>) {
    return read_settings(f.object(name));
  } else if constexpr (std::is_same_v<T, TournamentSettings>) {
    return read_tournament_settings(f.object(name));
  } else if constexpr (wire::Enum<T>) {
    return enum_value<T>(f.required<std::string>(name), f.name_of(name));
  } else if constexpr (std::is_same_v<T, std::vector<int>> ||
                       std::is_same_v<T, std::vector<std::int64_t>>) {
    using Number = typename T::value_type;
    const json& list = f.object(name);
    const std::string field = f.name_of(name);
    if (!list.is_array())
      throw FieldError{ErrorCode::BadField, "field '" + field + "' must be a list of numbers"};
    if (list.size() > 1000)  // bounded before it is copied; the field's check says the limit
      throw FieldError{ErrorCode::BadField, "field '" + field + "' is too long"};
    T out;
    for (const json& item : list) {
      if (!item.is_number_integer() ||
          (item.is_number_unsigned() &&
           item.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) ||
          item.get<std::int64_t>() < std::numeric_limits<Number>::min() ||
          item.get<std::int64_t>() > std::numeric_limits<Number>::max())
        throw FieldError{ErrorCode::BadField, "field '" + field + "' must be a list of numbers"};
      out.push_back(item.get<Number>());
    }
    return out;
  } else if constexpr (kDescribedList<T>) {
    // A list of objects (a round's tables): each read as strictly as a message, named by its
    // place ("tables[2].black").
    const json& list = f.object(name);
    const std::string field = f.name_of(name);
    if (!list.is_array())
      throw FieldError{ErrorCode::BadField, "field '" + field + "' must be a list"};
    if (list.size() > 1000)
      throw FieldError{ErrorCode::BadField, "field '" + field + "' is too long"};
    T out;
    for (std::size_t i = 0; i < list.size(); ++i) {
      Fields item(list[i], field + "[" + std::to_string(i) + "]");
      out.push_back(read_fields<typename T::value_type>(item));
      item.no_others();
    }
    return out;
  } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
    const json& list = f.object(name);
    const std::string field = f.name_of(name);
    if (!list.is_array())
      throw FieldError{ErrorCode::BadField, "field '" + field + "' must be a list of strings"};
    // Bounded before it is copied; the field's check says the exact limit.
    if (list.size() > 1000)
      throw FieldError{ErrorCode::BadField, "field '" + field + "' is too long"};
    std::vector<std::string> out;
    for (const json& item : list) {
      if (!item.is_string())
        throw FieldError{ErrorCode::BadField, "field '" + field + "' must be a list of strings"};
      out.push_back(item.get<std::string>());
    }
    return out;
  } else {
    return f.required<T>(name);
  }
}

template <class V>
void check(Fields& f, const char* name, const V& value, wire::Check<V> check) {
  if (!check) return;
  if (std::string problem = check(value); !problem.empty())
    throw FieldError{ErrorCode::BadField, "field '" + f.name_of(name) + "' " + problem};
}

template <class S, class M>
void read_field(Fields& f, S& s, const wire::Field<S, M>& field) {
  const std::string key(field.name);
  const char* name = key.c_str();
  M& slot = s.*field.member;
  if constexpr (wire::kOptional<M>) {
    if (!f.present(name)) {
      f.consumed(name);
      slot.reset();
      return;
    }
    slot = read_value<typename M::value_type>(f, name);
    check<typename M::value_type>(f, name, *slot, field.check);
  } else {
    if (field.empty == wire::Empty::Defaulted && !f.present(name)) {
      f.consumed(name);
      return;
    }
    slot = read_value<M>(f, name);
    check<M>(f, name, slot, field.check);
  }
}

template <class T>
T read_fields(Fields& f) {
  T value{};
  std::apply([&](const auto&... field) { (read_field(f, value, field), ...); }, Wire<T>::fields);
  return value;
}

template <std::size_t I = 0>
ClientMessage read_message(const std::string& type, Fields& f) {
  if constexpr (I == std::variant_size_v<ClientMessage>) {
    throw FieldError{ErrorCode::UnknownType, "unknown message type '" + type + "'"};
  } else {
    using T = std::variant_alternative_t<I, ClientMessage>;
    if (type == Wire<T>::type) return read_fields<T>(f);
    return read_message<I + 1>(type, f);
  }
}

// Lenient reading, of what servers send: unknown fields skipped, missing or null ones left at
// their defaults; a field of the wrong type throws.

template <class T>
T lenient(const json& j);

template <class S, class M>
void lenient_field(const json& object, S& s, const wire::Field<S, M>& field) {
  const auto it = object.find(std::string(field.name));
  if (it == object.end() || it->is_null()) return;
  if constexpr (wire::kOptional<M>) {
    s.*field.member = lenient<typename M::value_type>(*it);
  } else {
    s.*field.member = lenient<M>(*it);
  }
}

template <wire::Enum E>
E lenient_enum(const json& j) {
  if (const auto value = wire::parse<E>(j.get<std::string>())) return *value;
  if constexpr (requires { WireNames<E>::fallback; }) {
    return WireNames<E>::fallback;  // a value added by a newer server
  } else {
    throw FieldError{ErrorCode::BadField, "an unknown name"};
  }
}

template <class T>
T lenient(const json& j) {
  if constexpr (Described<T>) {
    if (!j.is_object()) throw FieldError{ErrorCode::BadField, "an object was expected"};
    T value{};
    std::apply([&](const auto&... field) { (lenient_field(j, value, field), ...); },
               Wire<T>::fields);
    return value;
  } else if constexpr (kVector<T>) {
    if (!j.is_array()) throw FieldError{ErrorCode::BadField, "a list was expected"};
    T list;
    for (const auto& item : j) list.push_back(lenient<typename T::value_type>(item));
    return list;
  } else if constexpr (std::is_same_v<T, GameSettings>) {
    return read_settings(j, true);
  } else if constexpr (std::is_same_v<T, TournamentSettings>) {
    return read_tournament_settings(j);
  } else if constexpr (wire::Enum<T>) {
    return lenient_enum<T>(j);
  } else if constexpr (std::is_same_v<T, Result>) {
    if (auto result = Result::parse_sgf(j.get<std::string>())) return *result;
    throw FieldError{ErrorCode::BadField, "not a game result"};
  } else {
    return j.get<T>();
  }
}

template <class Variant, std::size_t I = 0>
std::optional<Variant> lenient_message(const std::string& type, const json& j) {
  if constexpr (I == std::variant_size_v<Variant>) {
    return std::nullopt;
  } else {
    using T = std::variant_alternative_t<I, Variant>;
    if constexpr (Message<T>) {
      if (type == Wire<T>::type) return Variant{lenient<T>(j)};
    }
    return lenient_message<Variant, I + 1>(type, j);
  }
}

// Every message has a description, and no two messages one way share a type name.
template <class... T>
struct TypeList {};
template <class T>
constexpr std::string_view type_of() {
  if constexpr (Message<T>) {
    return Wire<T>::type;
  } else {
    return {};
  }
}
template <class... T>
constexpr bool distinct_names(TypeList<T...>) {
  const std::array<std::string_view, sizeof...(T)> names{type_of<T>()...};
  for (std::size_t i = 0; i < names.size(); ++i) {
    for (std::size_t k = i + 1; k < names.size(); ++k) {
      if (!names[i].empty() && names[i] == names[k]) return false;
    }
  }
  return true;
}
template <class... C>
constexpr bool all_messages(std::variant<C...>*) {
  return (Message<C> && ...);
}
template <class... S, class... E>
constexpr auto server_types(std::variant<S...>*, std::variant<E...>*) {
  return TypeList<S..., E...>{};
}
template <class... C>
constexpr auto client_types(std::variant<C...>*) {
  return TypeList<C...>{};
}
static_assert(all_messages(static_cast<ClientMessage*>(nullptr)));
static_assert(all_messages(static_cast<RoomEventBody*>(nullptr)));
static_assert(distinct_names(client_types(static_cast<ClientMessage*>(nullptr))));
static_assert(distinct_names(server_types(static_cast<ServerMessage*>(nullptr),
                                          static_cast<RoomEventBody*>(nullptr))));

}  // namespace

std::string_view to_string(ErrorCode code) noexcept {
  return wire::name(code);
}

std::string encode_settings(const GameSettings& settings) {
  return write_settings(settings).dump();
}

namespace {
std::variant<GameSettings, std::string> settings_from(std::string_view text, bool teams) {
  const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return std::string("the settings are not valid JSON");
  try {
    return read_settings(j, teams);
  } catch (const FieldError& e) {
    return e.message;
  }
}
}  // namespace

std::variant<GameSettings, std::string> decode_settings(std::string_view text) {
  return settings_from(text, false);
}

std::variant<GameSettings, std::string> decode_stored_settings(std::string_view text) {
  return settings_from(text, true);
}

std::string encode_tournament_settings(const TournamentSettings& settings) {
  return write_tournament_settings(settings).dump();
}

std::variant<TournamentSettings, std::string> decode_tournament_settings(std::string_view text) {
  const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return std::string("the tournament settings are not valid JSON");
  try {
    return read_tournament_settings(j);
  } catch (const FieldError& e) {
    return e.message;
  }
}

namespace {

// Moves and passes, the commands of every move, read without a JSON document when they are in
// the plain shape clients send: one object of printable-ASCII strings without escapes and
// non-negative integers, no whitespace, no repeated key. Anything else — and anything the full
// decoder would refuse or read differently — is left to it (nullopt), so that both always agree
// (the protocol fuzz target holds them to it).
std::optional<ClientEnvelope> decode_move_fast(std::string_view t) {
  if (t.size() < 2 || t.front() != '{' || t.back() != '}') return std::nullopt;
  std::optional<std::string_view> type, cid, vertex;
  std::optional<std::int64_t> version, game, think;
  std::size_t i = 1;
  auto read_string = [&]() -> std::optional<std::string_view> {
    if (i >= t.size() || t[i] != '"') return std::nullopt;
    const std::size_t start = ++i;
    while (i < t.size() && t[i] != '"') {
      const auto c = static_cast<unsigned char>(t[i]);
      if (c < 0x20 || c > 0x7E || c == '\\') return std::nullopt;
      ++i;
    }
    if (i >= t.size()) return std::nullopt;
    return t.substr(start, i++ - start);
  };
  auto read_integer = [&]() -> std::optional<std::int64_t> {
    const std::size_t start = i;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
    const std::size_t digits = i - start;
    if (digits == 0 || digits > 18 || (digits > 1 && t[start] == '0')) return std::nullopt;
    std::int64_t value = 0;
    std::from_chars(t.data() + start, t.data() + i, value);
    return value;
  };
  for (;;) {
    const auto key = read_string();
    if (!key || i >= t.size() || t[i++] != ':') return std::nullopt;
    auto take_string = [&](std::optional<std::string_view>& slot) {
      if (slot) return false;  // a repeated key
      slot = read_string();
      return slot.has_value();
    };
    auto take_integer = [&](std::optional<std::int64_t>& slot) {
      if (slot) return false;
      slot = read_integer();
      return slot.has_value();
    };
    bool ok = false;
    if (*key == "type") {
      ok = take_string(type);
    } else if (*key == "cid") {
      ok = take_string(cid);
    } else if (*key == "vertex") {
      ok = take_string(vertex);
    } else if (*key == "v") {
      ok = take_integer(version);
    } else if (*key == "game") {
      ok = take_integer(game);
    } else if (*key == "think_ms") {
      ok = take_integer(think);
    }
    if (!ok || i >= t.size()) return std::nullopt;
    if (i == t.size() - 1) break;  // the closing brace
    if (t[i++] != ',') return std::nullopt;
  }
  if (!type || !cid || cid->empty() || cid->size() > kMaxCidLength || !game || *game <= 0) {
    return std::nullopt;
  }
  if (version && *version != kVersion) return std::nullopt;
  if (think && *think > kMaxThinkMs) return std::nullopt;
  if (*type == Wire<PlayMove>::type) {
    if (!vertex || vertex->empty() || vertex->size() > kMaxVertexLength) return std::nullopt;
    return ClientEnvelope{std::string(*cid), PlayMove{*game, std::string(*vertex), think}};
  }
  if (*type == Wire<PassMove>::type && !vertex)
    return ClientEnvelope{std::string(*cid), PassMove{*game, think}};
  return std::nullopt;
}

}  // namespace

std::variant<ClientEnvelope, Error> decode_client(std::string_view text) {
  if (auto move = decode_move_fast(text)) return std::move(*move);
  return decode_client_with_json(text);
}

std::variant<ClientEnvelope, Error> decode_client_with_json(std::string_view text) {
  const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Error{{}, ErrorCode::BadJson, "the message is not valid JSON", {}};
  if (!j.is_object()) return Error{{}, ErrorCode::BadJson, "the message must be a JSON object", {}};
  std::optional<std::string> cid;
  try {
    Fields f(j, "");
    const auto cid_field = j.find("cid");
    if (cid_field == j.end())
      throw FieldError{ErrorCode::BadEnvelope, "missing field 'cid' (the command id)"};
    // A string only: an integer cid once came back as a string, which a client matching
    // replies by value never recognised. Refused instead, with the fix in the message.
    if (cid_field->is_number()) {
      throw FieldError{ErrorCode::BadEnvelope, "field 'cid' must be a string: send " +
                                                   cid_field->dump() + " as \"" +
                                                   cid_field->dump() + "\""};
    }
    if (!cid_field->is_string())
      throw FieldError{ErrorCode::BadEnvelope, "field 'cid' must be a string"};
    cid = cid_field->get<std::string>();
    if (cid->empty() || cid->size() > kMaxCidLength) {
      cid.reset();
      throw FieldError{ErrorCode::BadEnvelope, "field 'cid' must be 1 to 64 characters"};
    }
    const auto v = f.optional<std::int64_t>("v");
    if (v && *v != kVersion) {
      throw FieldError{
          ErrorCode::UnsupportedVersion,
          "protocol version " + std::to_string(*v) + " is not supported; this server speaks 1"};
    }
    f.consumed("cid");
    const auto type_field = j.find("type");
    if (type_field == j.end() || !type_field->is_string()) {
      throw FieldError{ErrorCode::BadEnvelope, "missing field 'type' (a string)"};
    }
    const std::string type = f.required<std::string>("type");
    ClientEnvelope envelope{*cid, read_message(type, f)};
    f.no_others();
    return envelope;
  } catch (const FieldError& e) {
    return Error{cid, e.code, e.message, {}};
  } catch (const json::exception& e) {
    return Error{cid, ErrorCode::BadField, e.what(), {}};
  }
}

// The two messages of every move, written directly: building a JSON document per message and
// dumping it was a tenth of the server's CPU at saturation (docs/performance.md). The text is the
// generic writer's to the byte (keys in order, the same escapes; ServerWriteFast.* tests check it).
namespace {

class TextWriter {
 public:
  explicit TextWriter(std::string& out) : out_(out) {}
  // The separator, then "key":
  TextWriter& key(std::string_view k) {
    out_ += first_ ? '{' : ',';
    first_ = false;
    out_ += '"';
    out_ += k;
    out_ += "\":";
    return *this;
  }
  void number(std::int64_t n) {
    char buf[24];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, n);
    out_.append(buf, end);
  }
  void string(std::string_view text) {  // nlohmann's escapes; text is UTF-8 already
    out_ += '"';
    for (const char c : text) {
      const auto u = static_cast<unsigned char>(c);
      switch (c) {
        case '"':
          out_ += "\\\"";
          break;
        case '\\':
          out_ += "\\\\";
          break;
        case '\b':
          out_ += "\\b";
          break;
        case '\f':
          out_ += "\\f";
          break;
        case '\n':
          out_ += "\\n";
          break;
        case '\r':
          out_ += "\\r";
          break;
        case '\t':
          out_ += "\\t";
          break;
        default:
          if (u < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", u);
            out_ += buf;
          } else {
            out_ += c;
          }
      }
    }
    out_ += '"';
  }
  void raw(std::string_view text) { out_ += text; }
  void close() { out_ += first_ ? "{}" : "}"; }

 private:
  std::string& out_;
  bool first_ = true;
};

void write_player_clock(std::string& out, const PlayerClock& p) {
  TextWriter w(out);
  w.key("main_ms").number(p.main_ms);
  w.key("period_ms").number(p.period_ms);
  w.key("periods").number(p.periods);
  w.key("stones").number(p.stones);
  w.close();
}

std::string write_ack(const Ack& a) {
  std::string out;
  out.reserve(96);
  TextWriter w(out);
  if (a.challenge) w.key("challenge").number(*a.challenge);
  w.key("cid").string(a.cid);
  if (a.game) w.key("game").number(*a.game);
  if (a.seq) w.key("seq").number(static_cast<std::int64_t>(*a.seq));
  if (a.tournament) w.key("tournament").number(*a.tournament);
  w.key("type").string(Wire<Ack>::type);
  w.key("v").number(kVersion);
  w.close();
  return out;
}

std::string write_move(const RoomEvent& e, const MovePlayed& m) {
  std::string out;
  out.reserve(m.clock ? 320 : 160);
  TextWriter w(out);
  w.key("captured").raw("[");
  for (std::size_t i = 0; i < m.captured.size(); ++i) {
    if (i > 0) w.raw(",");
    w.string(m.captured[i]);
  }
  w.raw("]");
  w.key("clock");
  if (m.clock) {
    TextWriter c(out);
    c.key("black");
    write_player_clock(out, m.clock->black);
    c.key("running");
    if (m.clock->running) {
      c.string(wire::name(*m.clock->running));
    } else {
      c.raw("null");
    }
    if (m.clock->time_off_ms) c.key("time_off_ms").number(*m.clock->time_off_ms);
    if (m.clock->vacation) c.key("vacation").raw(*m.clock->vacation ? "true" : "false");
    c.key("white");
    write_player_clock(out, m.clock->white);
    c.close();
  } else {
    w.raw("null");
  }
  w.key("color").string(wire::name(m.color));
  w.key("game").number(e.game);
  w.key("lag_credit_ms").number(m.lag_credit_ms);
  w.key("seq").number(static_cast<std::int64_t>(e.seq));
  w.key("type").string(Wire<MovePlayed>::type);
  w.key("v").number(kVersion);
  w.key("vertex").string(m.vertex);
  w.close();
  return out;
}

}  // namespace

std::string encode(const ServerMessage& message) {
  if (const auto* ack = std::get_if<Ack>(&message)) return write_ack(*ack);
  if (const auto* event = std::get_if<RoomEvent>(&message)) {
    if (const auto* move = std::get_if<MovePlayed>(&event->body)) return write_move(*event, *move);
  }
  return encode_with_json(message);
}

std::string encode_with_json(const ServerMessage& message) {
  return std::visit(ServerWriter{}, message).dump();
}

std::string encode(const ClientEnvelope& envelope) {
  json j = std::visit([](const auto& m) { return message_json(m); }, envelope.message);
  j["v"] = kVersion;
  j["cid"] = envelope.cid;
  return j.dump();
}

}  // namespace tengen::protocol

namespace tengen::protocol {

std::optional<ServerMessage> read_server_message(std::string_view text) {
  const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  try {
    const auto type = j.find("type");
    if (type == j.end() || !type->is_string()) return std::nullopt;
    const std::string name = type->get<std::string>();
    if (auto message = lenient_message<ServerMessage>(name, j)) return message;
    if (auto body = lenient_message<RoomEventBody>(name, j)) {
      RoomEvent event = lenient<RoomEvent>(j);
      event.body = std::move(*body);
      return event;
    }
    return std::nullopt;         // a message a newer server sends
  } catch (const FieldError&) {  // settings a client cannot read
    return std::nullopt;
  } catch (const json::exception&) {  // a field of the wrong type
    return std::nullopt;
  }
}

namespace wire {
namespace {

std::string bounded(const std::string& text, std::size_t max) {
  if (text.empty()) return "must not be empty";
  if (text.size() > max) return "is longer than " + std::to_string(max) + " bytes";
  return {};
}

}  // namespace

std::string positive_id(const std::int64_t& id) {
  return id > 0 ? "" : "must be a positive id";
}
std::string positive_number(const int& n) {
  return n > 0 ? "" : "must be a positive number";
}
std::string vertex(const std::string& text) {
  return bounded(text, kMaxVertexLength);
}
std::string chat_text(const std::string& text) {
  return bounded(text, kMaxChatLength);
}
std::string conditional_lines(const std::vector<std::string>& lines) {
  if (lines.size() > 50) return "must be at most 50 lines";
  for (const auto& line : lines) {
    if (line.empty() || line.size() > 400) return "must be lines of 1 to 400 bytes";
  }
  return "";
}
std::string table_numbers(const std::vector<int>& tables) {
  if (tables.size() > 1000) return "must be at most 1,000 tables";
  for (std::size_t i = 0; i < tables.size(); ++i) {
    if (tables[i] <= 0) return "must be table numbers from 1";
    if (std::find(tables.begin(), tables.begin() + static_cast<std::ptrdiff_t>(i), tables[i]) !=
        tables.begin() + static_cast<std::ptrdiff_t>(i))
      return "names table " + std::to_string(tables[i]) + " twice";
  }
  return "";
}
std::string player_id(const std::int64_t& id) {
  return id == 0 ? "must be a player's id (not 0)" : "";
}
std::string player_ids(const std::vector<std::int64_t>& ids) {
  if (ids.size() > 1000) return "must be at most 1,000 players";
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] == 0) return "must be players' ids (not 0)";
    if (std::find(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(i), ids[i]) !=
        ids.begin() + static_cast<std::ptrdiff_t>(i))
      return "names player " + std::to_string(ids[i]) + " twice";
  }
  return "";
}
std::string handicap(const int& stones) {
  return stones < 0 || stones > 9 ? "must be 0 to 9 stones" : "";
}
std::string tables_by_hand(const std::vector<TableByHand>& tables) {
  return tables.size() > 500 ? "must be at most 500 tables" : "";
}
std::string nigiri_seed(const std::string& text) {
  return bounded(text, kMaxSeedLength);
}
std::string user_name(const std::string& text) {
  return text.empty() || text.size() > kMaxNameLength ? "must be a user name" : "";
}
std::string odd_or_even(const std::string& text) {
  return text == "odd" || text == "even" ? "" : "must be \"odd\" or \"even\"";
}
std::string quick_match_size(const int& size) {
  return size == 9 || size == 13 || size == 19 ? "" : "must be 9, 13 or 19";
}
std::string think_time(const std::int64_t& ms) {
  return ms >= 0 && ms <= kMaxThinkMs ? "" : "must be a duration in milliseconds";
}
std::string rank(const std::string& text) {
  return parse_rank(text) ? "" : "must be a rank like \"20k\" or \"3d\"";
}

std::string node_id(const std::int64_t& id) {
  return id >= 0 ? "" : "must be a node number (0 or more)";
}
std::string comment_text(const std::string& text) {
  return text.size() > kMaxCommentLength
             ? "is longer than " + std::to_string(kMaxCommentLength) + " bytes"
             : "";
}
std::string decline_reason(const std::string& text) {
  return text.size() > 200 ? "is longer than 200 bytes" : "";
}
std::string mark_label(const std::string& text) {
  return bounded(text, kMaxLabelLength);
}
std::string printable_text(const std::string& text) {
  for (const unsigned char c : text) {
    if (c < 0x20 || c == 0x7f) return "must not hold control characters";
  }
  return "";
}
std::string person_name(const std::string& text) {
  if (auto problem = bounded(text, 40); !problem.empty()) return problem;
  return printable_text(text);
}
std::string club_name(const std::string& text) {
  if (auto problem = bounded(text, 10); !problem.empty()) return problem;
  return printable_text(text);
}
std::string country_code(const std::string& text) {
  const auto letter = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); };
  return text.size() == 2 && letter(text[0]) && letter(text[1])
             ? ""
             : "must be a two-letter country code like \"NL\"";
}
namespace {
bool digits(const std::string& text, std::size_t min, std::size_t max) {
  return text.size() >= min && text.size() <= max &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}
}  // namespace
std::string egd_pin(const std::string& text) {
  return digits(text, 8, 8) ? "" : "must be an EGD PIN: 8 digits";
}
std::string aga_id(const std::string& text) {
  return digits(text, 1, 8) ? "" : "must be an AGA member number: 1 to 8 digits";
}

}  // namespace wire
}  // namespace tengen::protocol
