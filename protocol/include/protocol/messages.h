#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "protocol/settings.h"

// Every message of the WebSocket protocol /ws/v1, each defined once. protocol/README.md shows
// each with a JSON example. Client messages arrive in an envelope {"v":1,"type":...,"cid":...};
// server messages carry "v" and "type", acknowledgements and errors the "cid" they answer, and
// room events their game id and per-game sequence number "seq".
namespace tengen::protocol {

inline constexpr int kVersion = 1;

using GameId = std::int64_t;
using ChallengeId = std::int64_t;
using Seq = std::uint64_t;

// ---- client to server ----

struct CreateChallenge {
  GameSettings settings;
  std::optional<std::string> opponent;  // a direct challenge to this user; open if absent
};
struct CancelChallenge { ChallengeId challenge = 0; };
struct AcceptChallenge { ChallengeId challenge = 0; };
struct DeclineChallenge { ChallengeId challenge = 0; };
// Enter a game room as player or spectator. With `since`, only the events after that sequence
// number are sent (or a snapshot if they are no longer kept); without, a snapshot.
struct JoinGame {
  GameId game = 0;
  std::optional<Seq> since;
};
struct LeaveGame { GameId game = 0; };
struct PlayMove {
  GameId game = 0;
  std::string vertex;  // GTP form, "D4"
};
struct PassMove { GameId game = 0; };
struct Resign { GameId game = 0; };
struct RequestUndo { GameId game = 0; };
struct AnswerUndo {
  GameId game = 0;
  bool accept = false;
};
// Players write to the players' chat, everyone else to the spectators' chat.
struct SendChat {
  GameId game = 0;
  std::string text;
};
struct Ping { std::int64_t t = 0; };

using ClientMessage = std::variant<CreateChallenge, CancelChallenge, AcceptChallenge,
                                   DeclineChallenge, JoinGame, LeaveGame, PlayMove, PassMove,
                                   Resign, RequestUndo, AnswerUndo, SendChat, Ping>;

struct ClientEnvelope {
  std::string cid;  // the client's command id: every command is acknowledged once under it
  ClientMessage message;
};

// ---- server to client ----

enum class ErrorCode : std::uint8_t {
  BadJson,             // not JSON, or not an object
  BadEnvelope,         // missing or malformed v, type or cid
  UnsupportedVersion,  // v other than 1
  UnknownType,         // a type this server does not know
  BadField,            // a field missing or of the wrong type or range
  BadSettings,         // game settings that cannot start a game
  NotAuthenticated,    // guests may watch but not do this
  NotFound,            // no such game, challenge or user
  Forbidden,           // not yours to do (not a player, not your challenge, ...)
  IllegalMove,         // the engine refused the move; the message says why
  NotYourTurn,
  GameOver,
  Conflict,            // e.g. an undo request already outstanding
  RateLimited,
  TooLarge,
  Internal,
};

struct Error {
  std::optional<std::string> cid;
  ErrorCode code = ErrorCode::Internal;
  std::string message;
  std::optional<GameId> game;
};
struct Ack {
  std::string cid;
  std::optional<GameId> game;
  std::optional<Seq> seq;  // the room event the command produced
  std::optional<ChallengeId> challenge;
};
// The answer to a ping, in place of an ack.
struct Pong {
  std::string cid;
  std::int64_t t = 0;
};

struct UserRef {
  std::int64_t id = 0;
  std::string name;
};
struct Welcome {
  std::optional<UserRef> user;  // absent for a guest
  std::string server_version;
};

struct Challenge {
  ChallengeId id = 0;
  UserRef challenger;
  std::optional<UserRef> opponent;  // direct challenges only
  GameSettings settings;
};
struct LobbySnapshot {
  std::vector<Challenge> challenges;
  std::vector<UserRef> online;
};
struct ChallengeOpened { Challenge challenge; };
struct ChallengeClosed {
  ChallengeId challenge = 0;
  std::string reason;  // "accepted", "declined", "cancelled", "expired"
  std::optional<GameId> game;  // for "accepted"
};
struct UserOnline { UserRef user; };
struct UserOffline { UserRef user; };

// ---- game rooms ----

enum class Phase : std::uint8_t { Playing, Scoring, Finished };

struct MoveRecord {
  std::string color;   // "black" or "white"
  std::string vertex;  // GTP form, or "pass"
};
struct ChatLine {
  Seq seq = 0;
  UserRef from;
  std::string channel;  // "players" or "spectators"
  std::string text;
};
struct GameSnapshot {
  GameId game = 0;
  Seq seq = 0;  // the last event included
  GameSettings settings;
  UserRef black;
  UserRef white;
  std::vector<std::string> handicap_stones;  // GTP vertices
  std::vector<MoveRecord> moves;
  std::string to_move;
  Phase phase = Phase::Playing;
  std::optional<std::string> result;  // SGF form
  int black_captures = 0;
  int white_captures = 0;
  bool undo_requested = false;
  std::vector<ChatLine> chat;  // the channels this viewer may read
  std::string role;            // "black", "white" or "spectator"
};

// One thing that happened in a room, with its place in the room's order.
struct MovePlayed {
  std::string color;
  std::string vertex;                  // "pass" for a pass
  std::vector<std::string> captured;   // vertices of every stone that left the board (suicide too)
};
struct UndoRequested { std::string by; };
struct UndoAnswered {
  bool accepted = false;
  int moves_taken_back = 0;
};
struct ChatPosted { ChatLine line; };
struct GameEnded {
  std::string result;  // SGF form: "B+R", "W+3.5", "Void", ...
  std::string reason;  // "resignation", "passes", "repetition", ...
};
using RoomEventBody = std::variant<MovePlayed, UndoRequested, UndoAnswered, ChatPosted, GameEnded>;
struct RoomEvent {
  GameId game = 0;
  Seq seq = 0;
  RoomEventBody body;
};
struct GameStarted {
  GameId game = 0;
  UserRef black;
  UserRef white;
  GameSettings settings;
};

using ServerMessage =
    std::variant<Error, Ack, Pong, Welcome, LobbySnapshot, ChallengeOpened, ChallengeClosed,
                 UserOnline, UserOffline, GameStarted, GameSnapshot, RoomEvent>;

}  // namespace tengen::protocol
