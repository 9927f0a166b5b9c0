#include "protocol/server_reader.h"

#include <nlohmann/json.hpp>

#include "protocol/codec.h"

namespace tengen::protocol {

namespace {

using json = nlohmann::json;

template <class T>
T get(const json& j, const char* key, T fallback = T{}) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return fallback;
  return it->get<T>();
}

template <class T>
std::optional<T> maybe(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  return it->get<T>();
}

UserRef user(const json& j) {
  return j.is_object() ? UserRef{get<std::int64_t>(j, "id"), get<std::string>(j, "name")}
                       : UserRef{};
}

GameSettings settings(const json& j) {
  auto s = decode_settings(j.dump());
  if (auto* settings = std::get_if<GameSettings>(&s)) return *settings;
  throw std::invalid_argument(std::get<std::string>(s));
}

std::optional<ClockState> clock(const json& j) {
  const auto it = j.find("clock");
  if (it == j.end() || !it->is_object()) return std::nullopt;
  auto player = [](const json& p) {
    return PlayerClock{get<std::int64_t>(p, "main_ms"), get<int>(p, "periods"),
                       get<std::int64_t>(p, "period_ms"), get<int>(p, "stones")};
  };
  return ClockState{player(it->value("black", json::object())),
                    player(it->value("white", json::object())), maybe<std::string>(*it, "running")};
}

NigiriState nigiri(const json& j) {
  NigiriState n;
  n.commitment = get<std::string>(j, "commitment");
  n.holder = user(j.value("holder", json()));
  n.guesser = user(j.value("guesser", json()));
  n.holder_chose = get<bool>(j, "holder_chose");
  n.guesser_chose = get<bool>(j, "guesser_chose");
  n.secret = maybe<std::string>(j, "secret");
  n.stones = maybe<int>(j, "stones");
  return n;
}

Marking marking(const json& j) {
  Marking m;
  m.version = get<std::uint64_t>(j, "version");
  m.dead = get<std::vector<std::string>>(j, "dead");
  const json accepted = j.value("accepted", json::object());
  m.accepted.black = maybe<std::uint64_t>(accepted, "black");
  m.accepted.white = maybe<std::uint64_t>(accepted, "white");
  m.resumptions = get<int>(j, "resumptions");
  if (const auto s = j.find("score"); s != j.end() && s->is_object()) {
    m.score.result = get<std::string>(*s, "result");
  }
  return m;
}

Challenge challenge(const json& j) {
  Challenge c;
  c.id = get<ChallengeId>(j, "id");
  c.challenger = user(j.value("challenger", json()));
  if (j.contains("opponent") && j["opponent"].is_object()) c.opponent = user(j["opponent"]);
  c.settings = settings(j.value("settings", json::object()));
  return c;
}

GameSnapshot snapshot(const json& j) {
  GameSnapshot s;
  s.game = get<GameId>(j, "game");
  s.seq = get<Seq>(j, "seq");
  s.settings = settings(j.value("settings", json::object()));
  s.black = user(j.value("black", json()));
  s.white = user(j.value("white", json()));
  s.handicap_stones = get<std::vector<std::string>>(j, "handicap_stones");
  for (const auto& m : j.value("moves", json::array())) {
    s.moves.push_back({get<std::string>(m, "color"), get<std::string>(m, "vertex")});
  }
  s.to_move = get<std::string>(j, "to_move", "black");
  const auto phase = get<std::string>(j, "phase", "playing");
  s.phase = phase == "nigiri"     ? Phase::Nigiri
            : phase == "scoring"  ? Phase::Scoring
            : phase == "finished" ? Phase::Finished
                                  : Phase::Playing;
  s.result = maybe<std::string>(j, "result");
  s.undo_requested = get<bool>(j, "undo_requested");
  s.role = get<std::string>(j, "role");
  s.clock = clock(j);
  if (j.contains("nigiri") && j["nigiri"].is_object()) s.nigiri = nigiri(j["nigiri"]);
  if (j.contains("marking") && j["marking"].is_object()) s.marking = marking(j["marking"]);
  return s;
}

std::optional<RoomEventBody> room_event(const std::string& type, const json& j) {
  if (type == "move") {
    return MovePlayed{get<std::string>(j, "color"), get<std::string>(j, "vertex"),
                      get<std::vector<std::string>>(j, "captured"), clock(j),
                      get<std::int64_t>(j, "lag_credit_ms")};
  }
  if (type == "undo_requested") return UndoRequested{get<std::string>(j, "by")};
  if (type == "undo_answered")
    return UndoAnswered{get<bool>(j, "accepted"), get<int>(j, "moves_taken_back")};
  if (type == "chat") return ChatPosted{};
  if (type == "game_ended")
    return GameEnded{get<std::string>(j, "result"), get<std::string>(j, "reason"), {}, clock(j)};
  if (type == "nigiri_started") return NigiriStarted{nigiri(j.value("nigiri", json::object()))};
  if (type == "nigiri_done") {
    return NigiriDone{nigiri(j.value("nigiri", json::object())), user(j.value("black", json())),
                      user(j.value("white", json()))};
  }
  if (type == "scoring_started") return ScoringStarted{marking(j.value("marking", json::object()))};
  if (type == "marking")
    return MarkingChanged{marking(j.value("marking", json::object())), get<std::string>(j, "by")};
  if (type == "score_accepted")
    return ScoreAccepted{get<std::string>(j, "by"), get<std::uint64_t>(j, "version")};
  if (type == "play_resumed") {
    return PlayResumed{get<std::string>(j, "by"), get<std::string>(j, "to_move"),
                       get<int>(j, "resumptions"), clock(j)};
  }
  if (type == "player_left") return PlayerLeft{};
  if (type == "player_returned") return PlayerReturned{get<std::string>(j, "color")};
  return std::nullopt;
}

ErrorCode error_code(const std::string& name) {
  for (int i = 0; i <= static_cast<int>(ErrorCode::Internal); ++i) {
    if (to_string(static_cast<ErrorCode>(i)) == name) return static_cast<ErrorCode>(i);
  }
  return ErrorCode::Internal;
}

std::optional<ServerMessage> read(const json& j) {
  const std::string type = get<std::string>(j, "type");
  if (type == "error") {
    return Error{maybe<std::string>(j, "cid"), error_code(get<std::string>(j, "code")),
                 get<std::string>(j, "message"), maybe<GameId>(j, "game")};
  }
  if (type == "ack")
    return Ack{get<std::string>(j, "cid"), maybe<GameId>(j, "game"), maybe<Seq>(j, "seq"),
               maybe<ChallengeId>(j, "challenge"), maybe<TournamentId>(j, "tournament")};
  if (type == "welcome") {
    Welcome w;
    if (j.contains("user") && j["user"].is_object()) w.user = user(j["user"]);
    w.server_version = get<std::string>(j, "server_version");
    return w;
  }
  if (type == "lobby") {
    LobbySnapshot l;
    for (const auto& c : j.value("challenges", json::array())) l.challenges.push_back(challenge(c));
    return l;
  }
  if (type == "challenge_opened")
    return ChallengeOpened{challenge(j.value("challenge", json::object()))};
  if (type == "challenge_closed") {
    return ChallengeClosed{get<ChallengeId>(j, "challenge"), get<std::string>(j, "reason"),
                           maybe<GameId>(j, "game")};
  }
  if (type == "game_started") {
    return GameStarted{get<GameId>(j, "game"), user(j.value("black", json())),
                       user(j.value("white", json())),
                       settings(j.value("settings", json::object())), get<bool>(j, "nigiri")};
  }
  if (type == "snapshot") return snapshot(j);
  if (auto body = room_event(type, j))
    return RoomEvent{get<GameId>(j, "game"), get<Seq>(j, "seq"), std::move(*body)};
  return std::nullopt;
}

}  // namespace

std::optional<ServerMessage> read_server_message(std::string_view text) {
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  try {
    return read(j);
  } catch (const std::exception&) {  // a field of an unexpected type
    return std::nullopt;
  }
}

}  // namespace tengen::protocol
