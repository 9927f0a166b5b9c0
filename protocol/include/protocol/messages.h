#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "protocol/settings.h"
#include "protocol/tournament.h"

// Every message of the WebSocket protocol /ws/v1, each defined once. protocol/README.md shows
// each with a JSON example. Client messages arrive in an envelope {"v":1,"type":...,"cid":...};
// server messages carry "v" and "type", acknowledgements and errors the "cid" they answer, and
// room events their game id and per-game sequence number "seq".
namespace tengen::protocol {

inline constexpr int kVersion = 1;

using GameId = std::int64_t;
using ChallengeId = std::int64_t;
using TournamentId = std::int64_t;
using Seq = std::uint64_t;

// ---- client to server ----

struct CreateChallenge {
  GameSettings settings;
  std::optional<std::string> opponent;  // a direct challenge to this user; open if absent
};
struct CancelChallenge {
  ChallengeId challenge = 0;
};
struct AcceptChallenge {
  ChallengeId challenge = 0;
};
struct DeclineChallenge {
  ChallengeId challenge = 0;
};
// Enter a game room as player or spectator. With `since`, only the events after that sequence
// number are sent (or a snapshot if they are no longer kept); without, a snapshot.
struct JoinGame {
  GameId game = 0;
  std::optional<Seq> since;
};
struct LeaveGame {
  GameId game = 0;
};
// `think_ms`, optional: how long the player thought, by the client's own clock, from seeing the
// opponent's move to sending this one. The server credits the difference as lag (docs/clocks.md).
struct PlayMove {
  GameId game = 0;
  std::string vertex;  // GTP form, "D4"
  std::optional<std::int64_t> think_ms;
};
struct PassMove {
  GameId game = 0;
  std::optional<std::int64_t> think_ms;
};
struct Resign {
  GameId game = 0;
};
struct RequestUndo {
  GameId game = 0;
};
struct AnswerUndo {
  GameId game = 0;
  bool accept = false;
};
// Players write to the players' chat, everyone else to the spectators' chat.
struct SendChat {
  GameId game = 0;
  std::string text;
};
struct Ping {
  std::int64_t t = 0;
};
// A player's part of the nigiri: a random seed, and for the guesser "odd" or "even".
struct NigiriChoice {
  GameId game = 0;
  std::string seed;
  std::optional<std::string> guess;
};
struct AbortGame {
  GameId game = 0;
};  // before both players have moved: no result
struct ClaimWin {
  GameId game = 0;
};  // the opponent left and their countdown ran out
// Scoring phase (docs/scoring.md).
struct MarkDead {
  GameId game = 0;
  std::string vertex;  // any stone of the chain
  bool dead = true;
};
struct AcceptScore {
  GameId game = 0;
  std::uint64_t version = 0;
};
struct ResumePlay {
  GameId game = 0;
};
// Tournaments (docs/tournaments.md). Anyone logged in may create one and directs it.
struct CreateTournament {
  TournamentSettings settings;
};
// Asks for tournament_changed about one tournament, or, without `tournament`, about every one
// (a list page). A connection watches one thing at a time: a new watch replaces the last. Guests
// may watch.
struct WatchTournaments {
  std::optional<TournamentId> tournament;
};
struct UnwatchTournaments {};
struct RegisterTournament {
  TournamentId tournament = 0;
  std::optional<std::string> rank;  // declared ("5k", "2d"); default: from the rating
};
// Before the start: unregisters; once it runs: withdraws from the rounds not yet played.
struct LeaveTournament {
  TournamentId tournament = 0;
};
// The director's actions, each audited.
struct StartTournament {
  TournamentId tournament = 0;
};
struct WithdrawPlayer {
  TournamentId tournament = 0;
  std::string player;  // user name
};
struct SetTournamentResult {
  TournamentId tournament = 0;
  int round = 0;       // 1-based
  int board = 0;       // 1-based
  std::string result;  // "black", "white" (the winner), "jigo" or "both_lose"
};
// Pairs the announced round again (after withdrawals), before it starts.
struct RepairRound {
  TournamentId tournament = 0;
};

using ClientMessage =
    std::variant<CreateChallenge, CancelChallenge, AcceptChallenge, DeclineChallenge, JoinGame,
                 LeaveGame, PlayMove, PassMove, Resign, RequestUndo, AnswerUndo, SendChat, Ping,
                 NigiriChoice, AbortGame, ClaimWin, MarkDead, AcceptScore, ResumePlay,
                 CreateTournament, RegisterTournament, LeaveTournament, StartTournament,
                 WithdrawPlayer, SetTournamentResult, RepairRound, WatchTournaments,
                 UnwatchTournaments>;

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
  Conflict,  // e.g. an undo request already outstanding
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
  std::optional<TournamentId> tournament;
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
  std::vector<UserRef> online;    // at most 500 of those online (the first by id)
  std::int64_t online_count = 0;  // everyone online
};
struct ChallengeOpened {
  Challenge challenge;
};
struct ChallengeClosed {
  ChallengeId challenge = 0;
  std::string reason;          // "accepted", "declined", "cancelled", "expired"
  std::optional<GameId> game;  // for "accepted"
};
// Who came online (a first connection) and who went offline (a last one) since the previous
// presence message; the server sends them at most a few times a second, so that a crowd
// arriving at once costs each connection a few messages, not one per arrival.
struct Presence {
  std::vector<UserRef> online;  // arrivals and departures, at most 500 in all per message
  std::vector<UserRef> offline;
  std::int64_t online_count = 0;  // everyone online now
};

// ---- game rooms ----

enum class Phase : std::uint8_t { Nigiri, Playing, Scoring, Finished };

// One player's clock, as of the instant of the message that carries it.
struct PlayerClock {
  std::int64_t main_ms = 0;    // main time (simple: the allowance for this move)
  int periods = 0;             // byo-yomi periods left
  std::int64_t period_ms = 0;  // byo-yomi: left in the current period; canadian: in the block
  int stones = 0;              // canadian: stones to play in the block
  friend bool operator==(const PlayerClock&, const PlayerClock&) = default;
};
struct ClockState {
  PlayerClock black;
  PlayerClock white;
  std::optional<std::string> running;  // whose clock runs: "black", "white", or none
};

// The nigiri's public commitment, and once both players chose, everything needed to verify it.
struct NigiriState {
  std::string commitment;
  UserRef holder;   // the challenger: the server's secret stands for their handful
  UserRef guesser;  // the accepter: guesses odd or even
  bool holder_chose = false;
  bool guesser_chose = false;
  // Once both chose, everything needed to verify the draw.
  std::optional<std::string> secret, nonce, holder_seed, guesser_seed, guess;
  std::optional<int> stones;
};

// A scored position: totals and who owns each point, rows from the top, one character per
// point: 'b' or 'w' (territory or live stone), '.' neutral (dame, seki).
struct ScoreView {
  double black = 0;
  double white = 0;
  std::string result;     // SGF form
  std::string ownership;  // width*height characters
};
// The version of the marking each player accepted, if any.
struct Accepted {
  std::optional<std::uint64_t> black;
  std::optional<std::uint64_t> white;
};
// The scoring phase's current marking.
struct Marking {
  std::uint64_t version = 0;
  std::vector<std::string> dead;  // GTP vertices of every dead stone
  ScoreView score;
  Accepted accepted;
  int resumptions = 0;
};
// A player who left the room while the game goes on; `claim_in_ms` counts down only while it
// is their move, and the opponent may claim the win when it reaches zero.
struct Absence {
  std::string color;
  std::optional<std::int64_t> claim_in_ms;
};

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
// Stones each player has taken (prisoners).
struct Captures {
  int black = 0;
  int white = 0;
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
  Captures captures;
  bool undo_requested = false;
  std::vector<ChatLine> chat;     // the newest lines of the channels this viewer may read
  std::int64_t chat_omitted = 0;  // earlier lines this viewer may read that `chat` leaves out
  std::string role;               // "black", "white" or "spectator" (before the nigiri: "player")
  std::optional<ClockState> clock;
  std::optional<NigiriState> nigiri;
  std::optional<Marking> marking;  // in the scoring phase
  std::vector<Absence> absent;
  std::optional<ScoreView> final_score;  // games ended by scoring
  bool abortable = false;                // neither or only one player has moved
};

// One thing that happened in a room, with its place in the room's order.
struct MovePlayed {
  std::string color;
  std::string vertex;                 // "pass" for a pass
  std::vector<std::string> captured;  // vertices of every stone that left the board (suicide too)
  std::optional<ClockState> clock;    // after the move; absent in untimed games
  std::int64_t lag_credit_ms = 0;     // network lag not charged to the mover
};
// The players made their choices; colours are now fixed.
struct NigiriDone {
  NigiriState nigiri;
  UserRef black;
  UserRef white;
};
struct ScoringStarted {
  Marking marking;
};                       // play stopped: the server's proposal
struct MarkingChanged {  // a player toggled a chain: a new version
  Marking marking;
  std::string by;
};
struct ScoreAccepted {
  std::string by;
  std::uint64_t version = 0;
};
struct PlayResumed {
  std::string by;  // who rejected the marking
  std::string to_move;
  int resumptions = 0;
  std::optional<ClockState> clock;
};
struct PlayerLeft {
  Absence absence;
};  // also sent when a countdown starts or stops
struct PlayerReturned {
  std::string color;
};
struct UndoRequested {
  std::string by;
};
struct UndoAnswered {
  bool accepted = false;
  int moves_taken_back = 0;
};
struct ChatPosted {
  ChatLine line;
};
struct GameEnded {
  std::string result;  // SGF form: "B+R", "W+3.5", "0", "Void", "B+T", "W+F", ...
  std::string reason;  // "resignation", "score", "passes", "repetition", "time", "abandoned",
                       // "aborted", "no_first_move", "scoring_timeout", "resumption_limit"
  std::optional<ScoreView> score;  // games decided by counting
  std::optional<ClockState> clock;
};
struct NigiriStarted {
  NigiriState nigiri;
};
using RoomEventBody = std::variant<MovePlayed, UndoRequested, UndoAnswered, ChatPosted, GameEnded,
                                   NigiriStarted, NigiriDone, ScoringStarted, MarkingChanged,
                                   ScoreAccepted, PlayResumed, PlayerLeft, PlayerReturned>;
struct RoomEvent {
  GameId game = 0;
  Seq seq = 0;
  RoomEventBody body;
};
// Before a nigiri, `black` is the holder and `white` the guesser, and `nigiri` is true.
struct GameStarted {
  GameId game = 0;
  UserRef black;
  UserRef white;
  GameSettings settings;
  bool nigiri = false;
};

// Something changed in a tournament (registration, a round, a result): its page fetches
// /api/v1/tournaments/{id} again. Sent to the connections watching it (WatchTournaments).
struct TournamentChanged {
  TournamentId tournament = 0;
  std::string status;  // registering, running, finished, cancelled
  int round = 0;       // the latest round paired (0 before the first)
};

using ServerMessage =
    std::variant<Error, Ack, Pong, Welcome, LobbySnapshot, ChallengeOpened, ChallengeClosed,
                 Presence, GameStarted, GameSnapshot, RoomEvent, TournamentChanged>;

}  // namespace tengen::protocol
