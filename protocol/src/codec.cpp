#include "protocol/codec.h"

#include <array>
#include <charconv>
#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>

namespace tengen::protocol {
namespace {

using json = nlohmann::json;

constexpr std::size_t kMaxCidLength = 64;
constexpr std::size_t kMaxVertexLength = 4;  // "T19", "pass"
constexpr std::int64_t kMaxThinkMs = std::int64_t{1} << 40;
constexpr std::size_t kMaxChatLength = 1000;
constexpr std::size_t kMaxNameLength = 40;

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

template <typename E, std::size_t N>
E enum_value(const std::array<std::pair<const char*, E>, N>& table, const std::string& text,
             const std::string& field) {
  for (const auto& [name, value] : table) {
    if (text == name) return value;
  }
  std::string names;
  for (const auto& [name, value] : table) names += (names.empty() ? "" : ", ") + std::string(name);
  throw FieldError{ErrorCode::BadField,
                   "field '" + field + "' must be one of " + names + ", not '" + text + "'"};
}

template <typename E, std::size_t N>
const char* enum_name(const std::array<std::pair<const char*, E>, N>& table, E value) {
  for (const auto& [name, v] : table) {
    if (v == value) return name;
  }
  return "?";
}

using System = TimeControl::System;
constexpr std::array<std::pair<const char*, System>, 6> kSystems{{{"none", System::None},
                                                                  {"absolute", System::Absolute},
                                                                  {"simple", System::Simple},
                                                                  {"fischer", System::Fischer},
                                                                  {"byoyomi", System::ByoYomi},
                                                                  {"canadian", System::Canadian}}};
using Placement = GameSettings::Placement;
constexpr std::array<std::pair<const char*, Placement>, 3> kPlacements{
    {{"ruleset", Placement::Ruleset}, {"fixed", Placement::Fixed}, {"free", Placement::Free}}};
using ColorChoice = GameSettings::ColorChoice;
constexpr std::array<std::pair<const char*, ColorChoice>, 4> kColors{
    {{"nigiri", ColorChoice::Nigiri},
     {"black", ColorChoice::Black},
     {"white", ColorChoice::White},
     {"automatic", ColorChoice::Automatic}}};
constexpr std::array<std::pair<const char*, Phase>, 4> kPhases{{{"nigiri", Phase::Nigiri},
                                                                {"playing", Phase::Playing},
                                                                {"scoring", Phase::Scoring},
                                                                {"finished", Phase::Finished}}};
constexpr std::array<std::pair<const char*, ErrorCode>, 16> kErrorCodes{{
    {"bad_json", ErrorCode::BadJson},
    {"bad_envelope", ErrorCode::BadEnvelope},
    {"unsupported_version", ErrorCode::UnsupportedVersion},
    {"unknown_type", ErrorCode::UnknownType},
    {"bad_field", ErrorCode::BadField},
    {"bad_settings", ErrorCode::BadSettings},
    {"not_authenticated", ErrorCode::NotAuthenticated},
    {"not_found", ErrorCode::NotFound},
    {"forbidden", ErrorCode::Forbidden},
    {"illegal_move", ErrorCode::IllegalMove},
    {"not_your_turn", ErrorCode::NotYourTurn},
    {"game_over", ErrorCode::GameOver},
    {"conflict", ErrorCode::Conflict},
    {"rate_limited", ErrorCode::RateLimited},
    {"too_large", ErrorCode::TooLarge},
    {"internal", ErrorCode::Internal},
}};

TimeControl read_time(const json& object) {
  Fields f(object, "settings.time");
  TimeControl t;
  t.system = enum_value(kSystems, f.required<std::string>("system"), f.name_of("system"));
  t.main_ms = f.optional<std::int64_t>("main_ms", 0);
  t.per_move_ms = f.optional<std::int64_t>("per_move_ms", 0);
  t.increment_ms = f.optional<std::int64_t>("increment_ms", 0);
  t.max_ms = f.optional<std::int64_t>("max_ms", 0);
  t.periods = f.optional<int>("periods", 0);
  t.period_ms = f.optional<std::int64_t>("period_ms", 0);
  t.stones = f.optional<int>("stones", 0);
  f.no_others();
  return t;
}

GameSettings read_settings(const json& object) {
  Fields f(object, "settings");
  GameSettings s;
  s.width = f.optional<int>("width", 19);
  s.height = f.optional<int>("height", s.width);
  s.ruleset = f.optional<std::string>("ruleset", "japanese");
  s.komi = f.optional<double>("komi");
  if (f.has("handicap") &&
      object.at("handicap") == "automatic") {  // by the players' ranks, when accepted
    f.consumed("handicap");
    s.automatic_handicap = true;
  } else {
    s.handicap = f.optional<int>("handicap", 0);
  }
  if (auto p = f.optional<std::string>("placement"))
    s.placement = enum_value(kPlacements, *p, f.name_of("placement"));
  if (auto c = f.optional<std::string>("color"))
    s.color = enum_value(kColors, *c, f.name_of("color"));
  if (f.has("time")) s.time = read_time(f.object("time"));
  s.rated = f.optional<bool>("rated", false);
  s.is_private = f.optional<bool>("private", false);
  f.no_others();
  return s;
}

json write_time(const TimeControl& t) {
  json j{{"system", enum_name(kSystems, t.system)}};
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
  }
  return j;
}

json write_settings(const GameSettings& s) {
  json j{{"width", s.width},
         {"height", s.height},
         {"ruleset", s.ruleset},
         {"handicap", s.automatic_handicap ? json("automatic") : json(s.handicap)},
         {"placement", enum_name(kPlacements, s.placement)},
         {"color", enum_name(kColors, s.color)},
         {"time", write_time(s.time)},
         {"rated", s.rated},
         {"private", s.is_private}};
  if (s.komi) j["komi"] = *s.komi;
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
  j["tie_breaks"] = json::array();
  for (const auto t : s.tie_breaks) j["tie_breaks"].push_back(tournament::to_string(t));
  if (s.registration_closes_ms) j["registration_closes_ms"] = *s.registration_closes_ms;
  if (s.starts_at_ms) j["starts_at_ms"] = *s.starts_at_ms;
  return j;
}

json write_user(const UserRef& u) {
  return {{"id", u.id}, {"name", u.name}};
}
json write_users(const std::vector<UserRef>& users) {
  json list = json::array();
  for (const auto& u : users) list.push_back(write_user(u));
  return list;
}

json write_challenge(const Challenge& c) {
  json j{{"id", c.id},
         {"challenger", write_user(c.challenger)},
         {"settings", write_settings(c.settings)}};
  if (c.opponent) j["opponent"] = write_user(*c.opponent);
  return j;
}

json write_chat(const ChatLine& c) {
  return {{"seq", c.seq}, {"from", write_user(c.from)}, {"channel", c.channel}, {"text", c.text}};
}

std::string bounded_text(Fields& f, const char* name, std::size_t max, bool allow_empty = false) {
  std::string s = f.required<std::string>(name);
  if (s.size() > max)
    throw FieldError{ErrorCode::BadField, "field '" + f.name_of(name) + "' is longer than " +
                                              std::to_string(max) + " bytes"};
  if (!allow_empty && s.empty())
    throw FieldError{ErrorCode::BadField, "field '" + f.name_of(name) + "' must not be empty"};
  return s;
}

json write_clock(const ClockState& c) {
  auto player = [](const PlayerClock& p) {
    return json{{"main_ms", p.main_ms},
                {"periods", p.periods},
                {"period_ms", p.period_ms},
                {"stones", p.stones}};
  };
  return {{"black", player(c.black)},
          {"white", player(c.white)},
          {"running", c.running ? json(*c.running) : json(nullptr)}};
}

json write_nigiri(const NigiriState& n) {
  json j{{"commitment", n.commitment},
         {"holder", write_user(n.holder)},
         {"guesser", write_user(n.guesser)},
         {"holder_chose", n.holder_chose},
         {"guesser_chose", n.guesser_chose}};
  if (n.secret) {
    j["secret"] = *n.secret;
    j["nonce"] = n.nonce.value_or("");
    j["holder_seed"] = n.holder_seed.value_or("");
    j["guesser_seed"] = n.guesser_seed.value_or("");
    j["guess"] = n.guess.value_or("");
    j["stones"] = n.stones.value_or(0);
  }
  return j;
}

json write_score(const ScoreView& s) {
  return {{"black", s.black}, {"white", s.white}, {"result", s.result}, {"ownership", s.ownership}};
}

json write_marking(const Marking& m) {
  return {{"version", m.version},
          {"dead", m.dead},
          {"score", write_score(m.score)},
          {"accepted",
           {{"black", m.accepted.black ? json(*m.accepted.black) : json(nullptr)},
            {"white", m.accepted.white ? json(*m.accepted.white) : json(nullptr)}}},
          {"resumptions", m.resumptions}};
}

json write_absence(const Absence& a) {
  return {{"color", a.color},
          {"claim_in_ms", a.claim_in_ms ? json(*a.claim_in_ms) : json(nullptr)}};
}

std::optional<std::int64_t> think_time(Fields& f) {
  auto t = f.optional<std::int64_t>("think_ms");
  if (t && (*t < 0 || *t > kMaxThinkMs))
    throw FieldError{ErrorCode::BadField, "field 'think_ms' must be a duration in milliseconds"};
  return t;
}

GameId positive_id(Fields& f, const char* name) {
  const auto id = f.required<std::int64_t>(name);
  if (id <= 0)
    throw FieldError{ErrorCode::BadField, "field '" + f.name_of(name) + "' must be a positive id"};
  return id;
}

ClientMessage read_message(const std::string& type, Fields& f) {
  if (type == "create_challenge") {
    CreateChallenge m{read_settings(f.object("settings")), {}};
    if (auto o = f.optional<std::string>("opponent")) {
      if (o->empty() || o->size() > kMaxNameLength)
        throw FieldError{ErrorCode::BadField, "field 'opponent' must be a user name"};
      m.opponent = *o;
    }
    return m;
  }
  if (type == "cancel_challenge") return CancelChallenge{positive_id(f, "challenge")};
  if (type == "accept_challenge") return AcceptChallenge{positive_id(f, "challenge")};
  if (type == "decline_challenge") return DeclineChallenge{positive_id(f, "challenge")};
  if (type == "join") {
    JoinGame m{positive_id(f, "game"), f.optional<Seq>("since")};
    return m;
  }
  if (type == "leave") return LeaveGame{positive_id(f, "game")};
  if (type == "play") {
    const GameId game = positive_id(f, "game");
    std::string vertex = bounded_text(f, "vertex", kMaxVertexLength);
    return PlayMove{game, std::move(vertex), think_time(f)};
  }
  if (type == "pass") {
    const GameId game = positive_id(f, "game");
    return PassMove{game, think_time(f)};
  }
  if (type == "resign") return Resign{positive_id(f, "game")};
  if (type == "undo_request") return RequestUndo{positive_id(f, "game")};
  if (type == "undo_answer") {
    const GameId game = positive_id(f, "game");
    return AnswerUndo{game, f.required<bool>("accept")};
  }
  if (type == "chat") {
    const GameId game = positive_id(f, "game");
    return SendChat{game, bounded_text(f, "text", kMaxChatLength)};
  }
  if (type == "ping") return Ping{f.optional<std::int64_t>("t", 0)};
  if (type == "nigiri") {
    const GameId game = positive_id(f, "game");
    std::string seed = bounded_text(f, "seed", 64);
    auto guess = f.optional<std::string>("guess");
    if (guess && *guess != "odd" && *guess != "even")
      throw FieldError{ErrorCode::BadField, "field 'guess' must be \"odd\" or \"even\""};
    return NigiriChoice{game, std::move(seed), std::move(guess)};
  }
  if (type == "abort") return AbortGame{positive_id(f, "game")};
  if (type == "claim_win") return ClaimWin{positive_id(f, "game")};
  if (type == "mark") {
    const GameId game = positive_id(f, "game");
    std::string vertex = bounded_text(f, "vertex", kMaxVertexLength);
    return MarkDead{game, std::move(vertex), f.required<bool>("dead")};
  }
  if (type == "accept_score") {
    const GameId game = positive_id(f, "game");
    return AcceptScore{game, f.required<std::uint64_t>("version")};
  }
  if (type == "resume") return ResumePlay{positive_id(f, "game")};
  if (type == "create_tournament")
    return CreateTournament{read_tournament_settings(f.object("settings"))};
  if (type == "tournament_register") {
    const TournamentId t = positive_id(f, "tournament");
    auto rank = f.optional<std::string>("rank");
    if (rank && !parse_rank(*rank))
      throw FieldError{ErrorCode::BadField, "field 'rank' must be a rank like \"20k\" or \"3d\""};
    return RegisterTournament{t, std::move(rank)};
  }
  if (type == "tournament_leave") return LeaveTournament{positive_id(f, "tournament")};
  if (type == "watch_tournaments") {
    const auto id = f.optional<TournamentId>("tournament");
    if (id && *id < 1)
      throw FieldError{ErrorCode::BadField, "field 'tournament' must be a positive integer"};
    return WatchTournaments{id};
  }
  if (type == "unwatch_tournaments") return UnwatchTournaments{};
  if (type == "tournament_start") return StartTournament{positive_id(f, "tournament")};
  if (type == "tournament_withdraw") {
    const TournamentId t = positive_id(f, "tournament");
    return WithdrawPlayer{t, bounded_text(f, "player", kMaxNameLength)};
  }
  if (type == "tournament_set_result") {
    const TournamentId t = positive_id(f, "tournament");
    const int round = static_cast<int>(positive_id(f, "round"));
    const int board = static_cast<int>(positive_id(f, "board"));
    std::string result = f.required<std::string>("result");
    if (result != "black" && result != "white" && result != "jigo" && result != "both_lose") {
      throw FieldError{ErrorCode::BadField,
                       "field 'result' must be black, white, jigo or both_lose"};
    }
    return SetTournamentResult{t, round, board, std::move(result)};
  }
  if (type == "tournament_repair") return RepairRound{positive_id(f, "tournament")};
  throw FieldError{ErrorCode::UnknownType, "unknown message type '" + type + "'"};
}

json envelope(const char* type) {
  return {{"v", kVersion}, {"type", type}};
}

struct ServerWriter {
  json operator()(const Error& e) const {
    json j = envelope("error");
    if (e.cid) j["cid"] = *e.cid;
    j["code"] = enum_name(kErrorCodes, e.code);
    j["message"] = e.message;
    if (e.game) j["game"] = *e.game;
    return j;
  }
  json operator()(const Ack& a) const {
    json j = envelope("ack");
    j["cid"] = a.cid;
    if (a.game) j["game"] = *a.game;
    if (a.seq) j["seq"] = *a.seq;
    if (a.challenge) j["challenge"] = *a.challenge;
    if (a.tournament) j["tournament"] = *a.tournament;
    return j;
  }
  json operator()(const TournamentChanged& t) const {
    json j = envelope("tournament_changed");
    j["tournament"] = t.tournament;
    j["status"] = t.status;
    j["round"] = t.round;
    return j;
  }
  json operator()(const Pong& p) const {
    json j = envelope("pong");
    j["cid"] = p.cid;
    j["t"] = p.t;
    return j;
  }
  json operator()(const Welcome& w) const {
    json j = envelope("welcome");
    j["user"] = w.user ? write_user(*w.user) : json(nullptr);
    j["server_version"] = w.server_version;
    return j;
  }
  json operator()(const LobbySnapshot& l) const {
    json j = envelope("lobby");
    j["challenges"] = json::array();
    for (const auto& c : l.challenges) j["challenges"].push_back(write_challenge(c));
    j["online"] = write_users(l.online);
    j["online_count"] = l.online_count;
    return j;
  }
  json operator()(const ChallengeOpened& c) const {
    json j = envelope("challenge_opened");
    j["challenge"] = write_challenge(c.challenge);
    return j;
  }
  json operator()(const ChallengeClosed& c) const {
    json j = envelope("challenge_closed");
    j["challenge"] = c.challenge;
    j["reason"] = c.reason;
    if (c.game) j["game"] = *c.game;
    return j;
  }
  json operator()(const Presence& p) const {
    json j = envelope("presence");
    j["online"] = write_users(p.online);
    j["offline"] = write_users(p.offline);
    j["online_count"] = p.online_count;
    return j;
  }
  json operator()(const GameStarted& g) const {
    json j = envelope("game_started");
    j["game"] = g.game;
    j["black"] = write_user(g.black);
    j["white"] = write_user(g.white);
    j["settings"] = write_settings(g.settings);
    j["nigiri"] = g.nigiri;
    return j;
  }
  json operator()(const GameSnapshot& s) const {
    json j = envelope("snapshot");
    j["game"] = s.game;
    j["seq"] = s.seq;
    j["settings"] = write_settings(s.settings);
    j["black"] = write_user(s.black);
    j["white"] = write_user(s.white);
    j["handicap_stones"] = s.handicap_stones;
    j["moves"] = json::array();
    for (const auto& m : s.moves) j["moves"].push_back({{"color", m.color}, {"vertex", m.vertex}});
    j["to_move"] = s.to_move;
    j["phase"] = enum_name(kPhases, s.phase);
    j["result"] = s.result ? json(*s.result) : json(nullptr);
    j["captures"] = {{"black", s.captures.black}, {"white", s.captures.white}};
    j["undo_requested"] = s.undo_requested;
    j["chat"] = json::array();
    for (const auto& c : s.chat) j["chat"].push_back(write_chat(c));
    j["chat_omitted"] = s.chat_omitted;
    j["role"] = s.role;
    j["clock"] = s.clock ? write_clock(*s.clock) : json(nullptr);
    j["nigiri"] = s.nigiri ? write_nigiri(*s.nigiri) : json(nullptr);
    j["marking"] = s.marking ? write_marking(*s.marking) : json(nullptr);
    j["absent"] = json::array();
    for (const auto& a : s.absent) j["absent"].push_back(write_absence(a));
    j["final_score"] = s.final_score ? write_score(*s.final_score) : json(nullptr);
    j["abortable"] = s.abortable;
    return j;
  }
  json operator()(const RoomEvent& e) const {
    json j = std::visit(*this, e.body);
    j["game"] = e.game;
    j["seq"] = e.seq;
    return j;
  }
  json operator()(const MovePlayed& m) const {
    json j = envelope("move");
    j["color"] = m.color;
    j["vertex"] = m.vertex;
    j["captured"] = m.captured;
    j["clock"] = m.clock ? write_clock(*m.clock) : json(nullptr);
    j["lag_credit_ms"] = m.lag_credit_ms;
    return j;
  }
  json operator()(const NigiriStarted& n) const {
    json j = envelope("nigiri_started");
    j["nigiri"] = write_nigiri(n.nigiri);
    return j;
  }
  json operator()(const NigiriDone& n) const {
    json j = envelope("nigiri_done");
    j["nigiri"] = write_nigiri(n.nigiri);
    j["black"] = write_user(n.black);
    j["white"] = write_user(n.white);
    return j;
  }
  json operator()(const ScoringStarted& s) const {
    json j = envelope("scoring_started");
    j["marking"] = write_marking(s.marking);
    return j;
  }
  json operator()(const MarkingChanged& m) const {
    json j = envelope("marking");
    j["marking"] = write_marking(m.marking);
    j["by"] = m.by;
    return j;
  }
  json operator()(const ScoreAccepted& a) const {
    json j = envelope("score_accepted");
    j["by"] = a.by;
    j["version"] = a.version;
    return j;
  }
  json operator()(const PlayResumed& r) const {
    json j = envelope("play_resumed");
    j["by"] = r.by;
    j["to_move"] = r.to_move;
    j["resumptions"] = r.resumptions;
    j["clock"] = r.clock ? write_clock(*r.clock) : json(nullptr);
    return j;
  }
  json operator()(const PlayerLeft& p) const {
    json j = envelope("player_left");
    j["absence"] = write_absence(p.absence);
    return j;
  }
  json operator()(const PlayerReturned& p) const {
    json j = envelope("player_returned");
    j["color"] = p.color;
    return j;
  }
  json operator()(const UndoRequested& u) const {
    json j = envelope("undo_requested");
    j["by"] = u.by;
    return j;
  }
  json operator()(const UndoAnswered& u) const {
    json j = envelope("undo_answered");
    j["accepted"] = u.accepted;
    j["moves_taken_back"] = u.moves_taken_back;
    return j;
  }
  json operator()(const ChatPosted& c) const {
    json j = envelope("chat");
    j["line"] = write_chat(c.line);
    return j;
  }
  json operator()(const GameEnded& g) const {
    json j = envelope("game_ended");
    j["result"] = g.result;
    j["reason"] = g.reason;
    j["score"] = g.score ? write_score(*g.score) : json(nullptr);
    j["clock"] = g.clock ? write_clock(*g.clock) : json(nullptr);
    return j;
  }
};

struct ClientWriter {
  json operator()(const CreateChallenge& m) const {
    json j{{"type", "create_challenge"}, {"settings", write_settings(m.settings)}};
    if (m.opponent) j["opponent"] = *m.opponent;
    return j;
  }
  json operator()(const CancelChallenge& m) const {
    return {{"type", "cancel_challenge"}, {"challenge", m.challenge}};
  }
  json operator()(const AcceptChallenge& m) const {
    return {{"type", "accept_challenge"}, {"challenge", m.challenge}};
  }
  json operator()(const DeclineChallenge& m) const {
    return {{"type", "decline_challenge"}, {"challenge", m.challenge}};
  }
  json operator()(const JoinGame& m) const {
    json j{{"type", "join"}, {"game", m.game}};
    if (m.since) j["since"] = *m.since;
    return j;
  }
  json operator()(const LeaveGame& m) const { return {{"type", "leave"}, {"game", m.game}}; }
  json operator()(const PlayMove& m) const {
    json j{{"type", "play"}, {"game", m.game}, {"vertex", m.vertex}};
    if (m.think_ms) j["think_ms"] = *m.think_ms;
    return j;
  }
  json operator()(const PassMove& m) const {
    json j{{"type", "pass"}, {"game", m.game}};
    if (m.think_ms) j["think_ms"] = *m.think_ms;
    return j;
  }
  json operator()(const Resign& m) const { return {{"type", "resign"}, {"game", m.game}}; }
  json operator()(const RequestUndo& m) const {
    return {{"type", "undo_request"}, {"game", m.game}};
  }
  json operator()(const AnswerUndo& m) const {
    return {{"type", "undo_answer"}, {"game", m.game}, {"accept", m.accept}};
  }
  json operator()(const SendChat& m) const {
    return {{"type", "chat"}, {"game", m.game}, {"text", m.text}};
  }
  json operator()(const Ping& m) const { return {{"type", "ping"}, {"t", m.t}}; }
  json operator()(const NigiriChoice& m) const {
    json j{{"type", "nigiri"}, {"game", m.game}, {"seed", m.seed}};
    if (m.guess) j["guess"] = *m.guess;
    return j;
  }
  json operator()(const AbortGame& m) const { return {{"type", "abort"}, {"game", m.game}}; }
  json operator()(const ClaimWin& m) const { return {{"type", "claim_win"}, {"game", m.game}}; }
  json operator()(const MarkDead& m) const {
    return {{"type", "mark"}, {"game", m.game}, {"vertex", m.vertex}, {"dead", m.dead}};
  }
  json operator()(const AcceptScore& m) const {
    return {{"type", "accept_score"}, {"game", m.game}, {"version", m.version}};
  }
  json operator()(const ResumePlay& m) const { return {{"type", "resume"}, {"game", m.game}}; }
  json operator()(const WatchTournaments& m) const {
    json j{{"type", "watch_tournaments"}};
    if (m.tournament) j["tournament"] = *m.tournament;
    return j;
  }
  json operator()(const UnwatchTournaments&) const { return {{"type", "unwatch_tournaments"}}; }
  json operator()(const CreateTournament& m) const {
    return {{"type", "create_tournament"}, {"settings", write_tournament_settings(m.settings)}};
  }
  json operator()(const RegisterTournament& m) const {
    json j{{"type", "tournament_register"}, {"tournament", m.tournament}};
    if (m.rank) j["rank"] = *m.rank;
    return j;
  }
  json operator()(const LeaveTournament& m) const {
    return {{"type", "tournament_leave"}, {"tournament", m.tournament}};
  }
  json operator()(const StartTournament& m) const {
    return {{"type", "tournament_start"}, {"tournament", m.tournament}};
  }
  json operator()(const WithdrawPlayer& m) const {
    return {{"type", "tournament_withdraw"}, {"tournament", m.tournament}, {"player", m.player}};
  }
  json operator()(const SetTournamentResult& m) const {
    return {{"type", "tournament_set_result"},
            {"tournament", m.tournament},
            {"round", m.round},
            {"board", m.board},
            {"result", m.result}};
  }
  json operator()(const RepairRound& m) const {
    return {{"type", "tournament_repair"}, {"tournament", m.tournament}};
  }
};

}  // namespace

std::string_view to_string(ErrorCode code) noexcept {
  return enum_name(kErrorCodes, code);
}

std::string encode_settings(const GameSettings& settings) {
  return write_settings(settings).dump();
}

std::variant<GameSettings, std::string> decode_settings(std::string_view text) {
  const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return std::string("the settings are not valid JSON");
  try {
    return read_settings(j);
  } catch (const FieldError& e) {
    return e.message;
  }
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
  if (*type == "play") {
    if (!vertex || vertex->empty() || vertex->size() > kMaxVertexLength) return std::nullopt;
    return ClientEnvelope{std::string(*cid), PlayMove{*game, std::string(*vertex), think}};
  }
  if (*type == "pass" && !vertex) return ClientEnvelope{std::string(*cid), PassMove{*game, think}};
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
  w.key("type").string("ack");
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
      c.string(*m.clock->running);
    } else {
      c.raw("null");
    }
    c.key("white");
    write_player_clock(out, m.clock->white);
    c.close();
  } else {
    w.raw("null");
  }
  w.key("color").string(m.color);
  w.key("game").number(e.game);
  w.key("lag_credit_ms").number(m.lag_credit_ms);
  w.key("seq").number(static_cast<std::int64_t>(e.seq));
  w.key("type").string("move");
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
  json j = std::visit(ClientWriter{}, envelope.message);
  j["v"] = kVersion;
  j["cid"] = envelope.cid;
  return j.dump();
}

}  // namespace tengen::protocol
