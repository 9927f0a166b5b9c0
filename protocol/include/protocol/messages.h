#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <variant>
#include <vector>

#include "engine/color.h"
#include "engine/result.h"
#include "engine/tournament/tournament.h"
#include "protocol/settings.h"
#include "protocol/tournament.h"
#include "protocol/wire.h"

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
template <>
struct Wire<CreateChallenge> {
  static constexpr std::string_view type = "create_challenge";
  static constexpr std::tuple fields{
      wire::field("settings", &CreateChallenge::settings),
      wire::field("opponent", &CreateChallenge::opponent, wire::user_name)};
};
struct CancelChallenge {
  ChallengeId challenge = 0;
};
template <>
struct Wire<CancelChallenge> {
  static constexpr std::string_view type = "cancel_challenge";
  static constexpr std::tuple fields{
      wire::field("challenge", &CancelChallenge::challenge, wire::positive_id)};
};
struct AcceptChallenge {
  ChallengeId challenge = 0;
};
template <>
struct Wire<AcceptChallenge> {
  static constexpr std::string_view type = "accept_challenge";
  static constexpr std::tuple fields{
      wire::field("challenge", &AcceptChallenge::challenge, wire::positive_id)};
};
// The challenged player says no to a direct challenge, optionally saying why (a bot: "this bot
// does not play correspondence"); the challenger is told both.
struct DeclineChallenge {
  ChallengeId challenge = 0;
  std::optional<std::string> why{};
};
template <>
struct Wire<DeclineChallenge> {
  static constexpr std::string_view type = "decline_challenge";
  static constexpr std::tuple fields{
      wire::field("challenge", &DeclineChallenge::challenge, wire::positive_id),
      wire::field("why", &DeclineChallenge::why, wire::decline_reason)};
};
// Enter a game room as player or spectator. With `since`, only the events after that sequence
// number are sent (or a snapshot if they are no longer kept); without, a snapshot.
struct JoinGame {
  GameId game = 0;
  std::optional<Seq> since;
};
template <>
struct Wire<JoinGame> {
  static constexpr std::string_view type = "join";
  static constexpr std::tuple fields{wire::field("game", &JoinGame::game, wire::positive_id),
                                     wire::field("since", &JoinGame::since)};
};
struct LeaveGame {
  GameId game = 0;
};
template <>
struct Wire<LeaveGame> {
  static constexpr std::string_view type = "leave";
  static constexpr std::tuple fields{wire::field("game", &LeaveGame::game, wire::positive_id)};
};
// `think_ms`, optional: how long the player thought, by the client's own clock, from seeing the
// opponent's move to sending this one. The server credits the difference as lag (docs/clocks.md).
struct PlayMove {
  GameId game = 0;
  std::string vertex;  // GTP form, "D4"
  std::optional<std::int64_t> think_ms;
};
template <>
struct Wire<PlayMove> {
  static constexpr std::string_view type = "play";
  static constexpr std::tuple fields{
      wire::field("game", &PlayMove::game, wire::positive_id),
      wire::field("vertex", &PlayMove::vertex, wire::vertex),
      wire::field("think_ms", &PlayMove::think_ms, wire::think_time)};
};
struct PassMove {
  GameId game = 0;
  std::optional<std::int64_t> think_ms;
};
template <>
struct Wire<PassMove> {
  static constexpr std::string_view type = "pass";
  static constexpr std::tuple fields{
      wire::field("game", &PassMove::game, wire::positive_id),
      wire::field("think_ms", &PassMove::think_ms, wire::think_time)};
};
struct Resign {
  GameId game = 0;
};
template <>
struct Wire<Resign> {
  static constexpr std::string_view type = "resign";
  static constexpr std::tuple fields{wire::field("game", &Resign::game, wire::positive_id)};
};
struct RequestUndo {
  GameId game = 0;
};
template <>
struct Wire<RequestUndo> {
  static constexpr std::string_view type = "undo_request";
  static constexpr std::tuple fields{wire::field("game", &RequestUndo::game, wire::positive_id)};
};
struct AnswerUndo {
  GameId game = 0;
  bool accept = false;
};
template <>
struct Wire<AnswerUndo> {
  static constexpr std::string_view type = "undo_answer";
  static constexpr std::tuple fields{wire::field("game", &AnswerUndo::game, wire::positive_id),
                                     wire::field("accept", &AnswerUndo::accept)};
};
// Players write to the players' chat, everyone else to the spectators' chat; `team`: a pair Go
// game's player to their own team only.
struct SendChat {
  GameId game = 0;
  std::string text;
  std::optional<bool> team{};
};
template <>
struct Wire<SendChat> {
  static constexpr std::string_view type = "chat";
  static constexpr std::tuple fields{wire::field("game", &SendChat::game, wire::positive_id),
                                     wire::field("text", &SendChat::text, wire::chat_text),
                                     wire::field("team", &SendChat::team, wire::Empty::Omitted)};
};
struct Ping {
  std::int64_t t = 0;
};
template <>
struct Wire<Ping> {
  static constexpr std::string_view type = "ping";
  static constexpr std::tuple fields{wire::field("t", &Ping::t, wire::Empty::Defaulted)};
};
// A player's part of the nigiri: a random seed, and for the guesser "odd" or "even".
struct NigiriChoice {
  GameId game = 0;
  std::string seed;
  std::optional<std::string> guess;
};
template <>
struct Wire<NigiriChoice> {
  static constexpr std::string_view type = "nigiri";
  static constexpr std::tuple fields{wire::field("game", &NigiriChoice::game, wire::positive_id),
                                     wire::field("seed", &NigiriChoice::seed, wire::nigiri_seed),
                                     wire::field("guess", &NigiriChoice::guess, wire::odd_or_even)};
};
struct AbortGame {
  GameId game = 0;
};  // before both players have moved: no result
template <>
struct Wire<AbortGame> {
  static constexpr std::string_view type = "abort";
  static constexpr std::tuple fields{wire::field("game", &AbortGame::game, wire::positive_id)};
};
struct ClaimWin {
  GameId game = 0;
};  // the opponent left and their countdown ran out
template <>
struct Wire<ClaimWin> {
  static constexpr std::string_view type = "claim_win";
  static constexpr std::tuple fields{wire::field("game", &ClaimWin::game, wire::positive_id)};
};
// Scoring phase (docs/scoring.md).
struct MarkDead {
  GameId game = 0;
  std::string vertex;  // any stone of the chain
  bool dead = true;
};
template <>
struct Wire<MarkDead> {
  static constexpr std::string_view type = "mark";
  static constexpr std::tuple fields{wire::field("game", &MarkDead::game, wire::positive_id),
                                     wire::field("vertex", &MarkDead::vertex, wire::vertex),
                                     wire::field("dead", &MarkDead::dead)};
};
struct AcceptScore {
  GameId game = 0;
  std::uint64_t version = 0;
};
template <>
struct Wire<AcceptScore> {
  static constexpr std::string_view type = "accept_score";
  static constexpr std::tuple fields{wire::field("game", &AcceptScore::game, wire::positive_id),
                                     wire::field("version", &AcceptScore::version)};
};
struct ResumePlay {
  GameId game = 0;
};
template <>
struct Wire<ResumePlay> {
  static constexpr std::string_view type = "resume";
  static constexpr std::tuple fields{wire::field("game", &ResumePlay::game, wire::positive_id)};
};
// Tournaments (docs/tournaments.md). Anyone logged in may create one and directs it.
struct CreateTournament {
  TournamentSettings settings;
};
template <>
struct Wire<CreateTournament> {
  static constexpr std::string_view type = "create_tournament";
  static constexpr std::tuple fields{wire::field("settings", &CreateTournament::settings)};
};
// Asks for tournament_changed about one tournament, or, without `tournament`, about every one
// (a list page). A connection watches one thing at a time: a new watch replaces the last. Guests
// may watch.
struct WatchTournaments {
  std::optional<TournamentId> tournament;
};
template <>
struct Wire<WatchTournaments> {
  static constexpr std::string_view type = "watch_tournaments";
  static constexpr std::tuple fields{
      wire::field("tournament", &WatchTournaments::tournament, wire::positive_id)};
};
// Quick match (docs/games.md): a board size and a speed; the server pairs the player with another
// of similar rating (the range widening while they wait) and starts a rated game.
enum class Speed : std::uint8_t { Blitz, Live };
template <>
struct WireNames<Speed> {
  static constexpr std::array names{std::pair{std::string_view("blitz"), Speed::Blitz},
                                    std::pair{std::string_view("live"), Speed::Live}};
};
struct Seek {
  int size = 19;  // 9, 13 or 19
  Speed speed = Speed::Live;
};
template <>
struct Wire<Seek> {
  static constexpr std::string_view type = "seek";
  static constexpr std::tuple fields{wire::field("size", &Seek::size, wire::quick_match_size),
                                     wire::field("speed", &Seek::speed)};
};
struct CancelSeek {};
template <>
struct Wire<CancelSeek> {
  static constexpr std::string_view type = "cancel_seek";
  static constexpr std::tuple<> fields{};
};
// Conditional moves in a correspondence game (docs/correspondence.md): replies to the opponent's
// expected moves, set while it is the opponent's turn. Each line is the opponent's move, your
// reply, their next, yours... as GTP vertices separated by spaces ("D4 C3 E5 F5"); lines that
// begin alike share their start. No lines: none kept.
struct SetConditionalMoves {
  GameId game = 0;
  std::vector<std::string> lines;
};
template <>
struct Wire<SetConditionalMoves> {
  static constexpr std::string_view type = "set_conditional_moves";
  static constexpr std::tuple fields{
      wire::field("game", &SetConditionalMoves::game, wire::positive_id),
      wire::field("lines", &SetConditionalMoves::lines, wire::conditional_lines)};
};
// The games the player is playing, answered with my_games before the ack: the list of "games
// waiting for my move" (docs/correspondence.md).
struct ListMyGames {};
template <>
struct Wire<ListMyGames> {
  static constexpr std::string_view type = "my_games";
  static constexpr std::tuple<> fields{};
};
struct UnwatchTournaments {};
template <>
struct Wire<UnwatchTournaments> {
  static constexpr std::string_view type = "unwatch_tournaments";
  static constexpr std::tuple<> fields{};
};
struct RegisterTournament {
  TournamentId tournament = 0;
  std::optional<std::string> rank;  // declared ("5k", "2d"); default: from the rating
};
template <>
struct Wire<RegisterTournament> {
  static constexpr std::string_view type = "tournament_register";
  static constexpr std::tuple fields{
      wire::field("tournament", &RegisterTournament::tournament, wire::positive_id),
      wire::field("rank", &RegisterTournament::rank, wire::rank)};
};
// Before the start: unregisters; once it runs: withdraws from the rounds not yet played.
struct LeaveTournament {
  TournamentId tournament = 0;
};
template <>
struct Wire<LeaveTournament> {
  static constexpr std::string_view type = "tournament_leave";
  static constexpr std::tuple fields{
      wire::field("tournament", &LeaveTournament::tournament, wire::positive_id)};
};
// The director's actions, each audited.
struct StartTournament {
  TournamentId tournament = 0;
};
template <>
struct Wire<StartTournament> {
  static constexpr std::string_view type = "tournament_start";
  static constexpr std::tuple fields{
      wire::field("tournament", &StartTournament::tournament, wire::positive_id)};
};
struct WithdrawPlayer {
  TournamentId tournament = 0;
  std::string player;  // user name
};
template <>
struct Wire<WithdrawPlayer> {
  static constexpr std::string_view type = "tournament_withdraw";
  static constexpr std::tuple fields{
      wire::field("tournament", &WithdrawPlayer::tournament, wire::positive_id),
      wire::field("player", &WithdrawPlayer::player, wire::user_name)};
};
// A tournament game's outcome: the winner's colour, jigo or both lose.
template <>
struct WireNames<tournament::Outcome> {
  static constexpr std::array names{
      std::pair{std::string_view("black"), tournament::Outcome::BlackWins},
      std::pair{std::string_view("white"), tournament::Outcome::WhiteWins},
      std::pair{std::string_view("jigo"), tournament::Outcome::Jigo},
      std::pair{std::string_view("both_lose"), tournament::Outcome::BothLose}};
};
struct SetTournamentResult {
  TournamentId tournament = 0;
  int round = 0;  // 1-based
  int board = 0;  // 1-based
  tournament::Outcome result = tournament::Outcome::BlackWins;
  bool forfeit = false;  // decided without play (a no-show at a board): the federation files say so
};
template <>
struct Wire<SetTournamentResult> {
  static constexpr std::string_view type = "tournament_set_result";
  static constexpr std::tuple fields{
      wire::field("tournament", &SetTournamentResult::tournament, wire::positive_id),
      wire::field("round", &SetTournamentResult::round, wire::positive_number),
      wire::field("board", &SetTournamentResult::board, wire::positive_number),
      wire::field("result", &SetTournamentResult::result),
      wire::field("forfeit", &SetTournamentResult::forfeit, wire::Empty::Defaulted)};
};
// Pairs the announced round again (after withdrawals), before it starts.
struct RepairRound {
  TournamentId tournament = 0;
};
template <>
struct Wire<RepairRound> {
  static constexpr std::string_view type = "tournament_repair";
  static constexpr std::tuple fields{
      wire::field("tournament", &RepairRound::tournament, wire::positive_id)};
};

// Over the board (docs/tournaments.md): the director registers a player without an account
// (name, rank, club, country, federation numbers), before the start.
struct AddTournamentPlayer {
  TournamentId tournament = 0;
  std::string family_name;
  std::string given_name;  // may be empty
  std::string rank;        // "5k", "2d"
  std::optional<std::string> club;
  std::optional<std::string> country;  // two letters (ISO 3166)
  std::optional<std::string> egd_pin;  // the European Go Database's PIN
  std::optional<std::string> aga_id;   // the American Go Association's member number
};
template <>
struct Wire<AddTournamentPlayer> {
  static constexpr std::string_view type = "tournament_add_player";
  static constexpr std::tuple fields{
      wire::field("tournament", &AddTournamentPlayer::tournament, wire::positive_id),
      wire::field("family_name", &AddTournamentPlayer::family_name, wire::person_name),
      wire::field("given_name", &AddTournamentPlayer::given_name, wire::Empty::Defaulted,
                  wire::printable_text),
      wire::field("rank", &AddTournamentPlayer::rank, wire::rank),
      wire::field("club", &AddTournamentPlayer::club, wire::club_name),
      wire::field("country", &AddTournamentPlayer::country, wire::country_code),
      wire::field("egd_pin", &AddTournamentPlayer::egd_pin, wire::egd_pin),
      wire::field("aga_id", &AddTournamentPlayer::aga_id, wire::aga_id)};
};
// Over the board: the director publishes the paired round (its tables are announced; results
// may be entered from then on). A hybrid round: the tables listed are played on the server
// instead (their games are created; both players need accounts).
struct PublishRound {
  TournamentId tournament = 0;
  int round = 0;                   // 1-based: the round paired last
  std::vector<int> online_tables;  // may be empty: every table over the board
};
template <>
struct Wire<PublishRound> {
  static constexpr std::string_view type = "tournament_publish_round";
  static constexpr std::tuple fields{
      wire::field("tournament", &PublishRound::tournament, wire::positive_id),
      wire::field("round", &PublishRound::round, wire::positive_number),
      wire::field("online_tables", &PublishRound::online_tables, wire::Empty::Defaulted,
                  wire::table_numbers)};
};
// Over the board: the director pairs the round paired last by hand, before publishing it. Each
// table is Black, White (player ids: a player without an account has a negative one) and the
// handicap; the byes are player ids. Every player still playing is at one table or has a bye,
// unless `pair_rest`: then the players left out are paired among themselves as the system pairs
// (Swiss and McMahon), at the tables after the director's.
struct TableByHand {
  std::int64_t black = 0;
  std::int64_t white = 0;
  int handicap = 0;  // 0 even, 1 no komi, 2 to 9 stones
};
template <>
struct Wire<TableByHand> {
  static constexpr std::tuple fields{
      wire::field("black", &TableByHand::black, wire::player_id),
      wire::field("white", &TableByHand::white, wire::player_id),
      wire::field("handicap", &TableByHand::handicap, wire::Empty::Defaulted, wire::handicap)};
};
struct PairRound {
  TournamentId tournament = 0;
  int round = 0;  // 1-based: the round paired last, not yet published
  std::vector<TableByHand> tables;
  std::vector<std::int64_t> byes;
  bool pair_rest = false;
};
template <>
struct Wire<PairRound> {
  static constexpr std::string_view type = "tournament_pair_round";
  static constexpr std::tuple fields{
      wire::field("tournament", &PairRound::tournament, wire::positive_id),
      wire::field("round", &PairRound::round, wire::positive_number),
      wire::field("tables", &PairRound::tables, wire::Empty::Defaulted, wire::tables_by_hand),
      wire::field("byes", &PairRound::byes, wire::Empty::Defaulted, wire::player_ids),
      wire::field("pair_rest", &PairRound::pair_rest, wire::Empty::Defaulted)};
};
// The director corrects what is registered of a player (a misspelt name, a club, a federation
// number), at any time before the tournament is cancelled; for a player with an account, the
// real names and the rest the federation files write (their account name stays what the pages
// show). The fields replace the registration's: one left out is cleared. `rank` changes the
// seeding, so only before the start.
struct EditTournamentPlayer {
  TournamentId tournament = 0;
  std::string player;  // user name, or a player without an account's "Family Given"
  std::string family_name;
  std::string given_name;           // may be empty
  std::optional<std::string> rank;  // "5k", "2d": before the start only
  std::optional<std::string> club;
  std::optional<std::string> country;
  std::optional<std::string> egd_pin;
  std::optional<std::string> aga_id;
};
template <>
struct Wire<EditTournamentPlayer> {
  static constexpr std::string_view type = "tournament_edit_player";
  static constexpr std::tuple fields{
      wire::field("tournament", &EditTournamentPlayer::tournament, wire::positive_id),
      wire::field("player", &EditTournamentPlayer::player, wire::user_name),
      wire::field("family_name", &EditTournamentPlayer::family_name, wire::person_name),
      wire::field("given_name", &EditTournamentPlayer::given_name, wire::Empty::Defaulted,
                  wire::printable_text),
      wire::field("rank", &EditTournamentPlayer::rank, wire::rank),
      wire::field("club", &EditTournamentPlayer::club, wire::club_name),
      wire::field("country", &EditTournamentPlayer::country, wire::country_code),
      wire::field("egd_pin", &EditTournamentPlayer::egd_pin, wire::egd_pin),
      wire::field("aga_id", &EditTournamentPlayer::aga_id, wire::aga_id)};
};
// A Swiss or McMahon: the director marks a registered player as not playing one round (they
// stay in the tournament; the round scores nothing for them and they are not paired in it), or
// as playing it after all. The round is one not yet published (or started, online).
struct SetAbsent {
  TournamentId tournament = 0;
  std::string player;  // user name, or a player without an account's "Family Given"
  int round = 0;       // 1-based
  bool absent = true;
};
template <>
struct Wire<SetAbsent> {
  static constexpr std::string_view type = "tournament_set_absent";
  static constexpr std::tuple fields{
      wire::field("tournament", &SetAbsent::tournament, wire::positive_id),
      wire::field("player", &SetAbsent::player, wire::user_name),
      wire::field("round", &SetAbsent::round, wire::positive_number),
      wire::field("absent", &SetAbsent::absent)};
};
// Over the board: a player of a published table says how their game ended. The result counts
// once both players said the same; when they disagree, the director decides.
struct ReportTournamentResult {
  TournamentId tournament = 0;
  int round = 0;  // 1-based
  int board = 0;  // 1-based: the table
  tournament::Outcome result = tournament::Outcome::BlackWins;
};
template <>
struct Wire<ReportTournamentResult> {
  static constexpr std::string_view type = "tournament_report_result";
  static constexpr std::tuple fields{
      wire::field("tournament", &ReportTournamentResult::tournament, wire::positive_id),
      wire::field("round", &ReportTournamentResult::round, wire::positive_number),
      wire::field("board", &ReportTournamentResult::board, wire::positive_number),
      wire::field("result", &ReportTournamentResult::result)};
};

// ---- review rooms (docs/reviews.md) ----
// A shared board with a tree of variations, made over HTTP (POST /api/v1/reviews) and followed
// here: its owner, or whoever the owner handed control to, edits it; everyone in it sees each
// change. Nodes are numbered by the server and keep their number for the review's life.
using ReviewId = std::int64_t;
enum class MarkKind : std::uint8_t { Triangle, Square, Circle, Cross, Label };
template <>
struct WireNames<MarkKind> {
  static constexpr std::array names{std::pair{std::string_view("triangle"), MarkKind::Triangle},
                                    std::pair{std::string_view("square"), MarkKind::Square},
                                    std::pair{std::string_view("circle"), MarkKind::Circle},
                                    std::pair{std::string_view("cross"), MarkKind::Cross},
                                    std::pair{std::string_view("label"), MarkKind::Label}};
};
// Follow a review: answered with its snapshot (review_snapshot), then its changes.
struct JoinReview {
  ReviewId review = 0;
};
template <>
struct Wire<JoinReview> {
  static constexpr std::string_view type = "review_join";
  static constexpr std::tuple fields{wire::field("review", &JoinReview::review, wire::positive_id)};
};
struct LeaveReview {
  ReviewId review = 0;
};
template <>
struct Wire<LeaveReview> {
  static constexpr std::string_view type = "review_leave";
  static constexpr std::tuple fields{
      wire::field("review", &LeaveReview::review, wire::positive_id)};
};
// A move after the current node, by `color` (default: the side to move there); "pass" passes.
// A child with the same move becomes the current node instead of a second copy.
struct ReviewPlay {
  ReviewId review = 0;
  std::string vertex;
  std::optional<Color> color;
};
template <>
struct Wire<ReviewPlay> {
  static constexpr std::string_view type = "review_play";
  static constexpr std::tuple fields{wire::field("review", &ReviewPlay::review, wire::positive_id),
                                     wire::field("vertex", &ReviewPlay::vertex, wire::vertex),
                                     wire::field("color", &ReviewPlay::color)};
};
struct ReviewGoTo {
  ReviewId review = 0;
  std::int64_t node = 0;
};
template <>
struct Wire<ReviewGoTo> {
  static constexpr std::string_view type = "review_goto";
  static constexpr std::tuple fields{wire::field("review", &ReviewGoTo::review, wire::positive_id),
                                     wire::field("node", &ReviewGoTo::node, wire::node_id)};
};
// Puts a mark on a point of the current node (replacing the one there); without `mark`, clears
// it. A label needs `label` (1 to 8 bytes: "A", "1", "12").
struct ReviewMark {
  ReviewId review = 0;
  std::string vertex;
  std::optional<MarkKind> mark;
  std::optional<std::string> label;
};
template <>
struct Wire<ReviewMark> {
  static constexpr std::string_view type = "review_mark";
  static constexpr std::tuple fields{wire::field("review", &ReviewMark::review, wire::positive_id),
                                     wire::field("vertex", &ReviewMark::vertex, wire::vertex),
                                     wire::field("mark", &ReviewMark::mark),
                                     wire::field("label", &ReviewMark::label, wire::mark_label)};
};
// The current node's comment, replaced (empty: none).
struct ReviewComment {
  ReviewId review = 0;
  std::string text;
};
template <>
struct Wire<ReviewComment> {
  static constexpr std::string_view type = "review_comment";
  static constexpr std::tuple fields{
      wire::field("review", &ReviewComment::review, wire::positive_id),
      wire::field("text", &ReviewComment::text, wire::Empty::Defaulted, wire::comment_text)};
};
// Cuts a node and the lines below it off (not the root).
struct ReviewDelete {
  ReviewId review = 0;
  std::int64_t node = 0;
};
template <>
struct Wire<ReviewDelete> {
  static constexpr std::string_view type = "review_delete";
  static constexpr std::tuple fields{
      wire::field("review", &ReviewDelete::review, wire::positive_id),
      wire::field("node", &ReviewDelete::node, wire::positive_id)};
};
// Hands control to `to`, who must be following the review; the owner may always take it back.
struct ReviewHandOver {
  ReviewId review = 0;
  std::string to;
};
template <>
struct Wire<ReviewHandOver> {
  static constexpr std::string_view type = "review_control";
  static constexpr std::tuple fields{
      wire::field("review", &ReviewHandOver::review, wire::positive_id),
      wire::field("to", &ReviewHandOver::to, wire::user_name)};
};
// A line in the review's chat, from anyone signed in and following it.
struct ReviewChat {
  ReviewId review = 0;
  std::string text;
};
template <>
struct Wire<ReviewChat> {
  static constexpr std::string_view type = "review_chat";
  static constexpr std::tuple fields{wire::field("review", &ReviewChat::review, wire::positive_id),
                                     wire::field("text", &ReviewChat::text, wire::chat_text)};
};
// The owner ends the review: it stays downloadable, no longer listed or editable.
struct CloseReview {
  ReviewId review = 0;
};
template <>
struct Wire<CloseReview> {
  static constexpr std::string_view type = "review_close";
  static constexpr std::tuple fields{
      wire::field("review", &CloseReview::review, wire::positive_id)};
};
// A review of a private game is seen by the game's players, administrators and those they invite:
// the owner or a player invites `user` (an account), or with `remove` takes the invitation back.
struct ReviewInvite {
  ReviewId review = 0;
  std::string user;
  bool remove = false;
};
template <>
struct Wire<ReviewInvite> {
  static constexpr std::string_view type = "review_invite";
  static constexpr std::tuple fields{
      wire::field("review", &ReviewInvite::review, wire::positive_id),
      wire::field("user", &ReviewInvite::user, wire::user_name),
      wire::field("remove", &ReviewInvite::remove, wire::Empty::Defaulted)};
};

using ClientMessage =
    std::variant<CreateChallenge, CancelChallenge, AcceptChallenge, DeclineChallenge, JoinGame,
                 LeaveGame, PlayMove, PassMove, Resign, RequestUndo, AnswerUndo, SendChat, Ping,
                 NigiriChoice, AbortGame, ClaimWin, MarkDead, AcceptScore, ResumePlay,
                 CreateTournament, RegisterTournament, LeaveTournament, StartTournament,
                 WithdrawPlayer, SetTournamentResult, RepairRound, WatchTournaments,
                 UnwatchTournaments, JoinReview, LeaveReview, ReviewPlay, ReviewGoTo, ReviewMark,
                 ReviewComment, ReviewDelete, ReviewHandOver, ReviewChat, CloseReview, Seek,
                 CancelSeek, ListMyGames, SetConditionalMoves, ReviewInvite, AddTournamentPlayer,
                 PublishRound, ReportTournamentResult, PairRound, SetAbsent, EditTournamentPlayer>;

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
  Unavailable,  // the server cannot reach its database now: nothing was done; try again shortly
};

template <>
struct WireNames<ErrorCode> {
  static constexpr std::array names{
      std::pair{std::string_view("bad_json"), ErrorCode::BadJson},
      std::pair{std::string_view("bad_envelope"), ErrorCode::BadEnvelope},
      std::pair{std::string_view("unsupported_version"), ErrorCode::UnsupportedVersion},
      std::pair{std::string_view("unknown_type"), ErrorCode::UnknownType},
      std::pair{std::string_view("bad_field"), ErrorCode::BadField},
      std::pair{std::string_view("bad_settings"), ErrorCode::BadSettings},
      std::pair{std::string_view("not_authenticated"), ErrorCode::NotAuthenticated},
      std::pair{std::string_view("not_found"), ErrorCode::NotFound},
      std::pair{std::string_view("forbidden"), ErrorCode::Forbidden},
      std::pair{std::string_view("illegal_move"), ErrorCode::IllegalMove},
      std::pair{std::string_view("not_your_turn"), ErrorCode::NotYourTurn},
      std::pair{std::string_view("game_over"), ErrorCode::GameOver},
      std::pair{std::string_view("conflict"), ErrorCode::Conflict},
      std::pair{std::string_view("rate_limited"), ErrorCode::RateLimited},
      std::pair{std::string_view("too_large"), ErrorCode::TooLarge},
      std::pair{std::string_view("internal"), ErrorCode::Internal},
      std::pair{std::string_view("unavailable"), ErrorCode::Unavailable}};
  static constexpr ErrorCode fallback = ErrorCode::Internal;
};

// Why the rules refused a move (with `illegal_move`), for a client that says it in its own
// language; the message says it in English.
enum class Refusal : std::uint8_t {
  Occupied,
  Suicide,
  Ko,
  PositionalSuperko,
  SituationalSuperko,
};
template <>
struct WireNames<Refusal> {
  static constexpr std::array names{
      std::pair{std::string_view("occupied"), Refusal::Occupied},
      std::pair{std::string_view("suicide"), Refusal::Suicide},
      std::pair{std::string_view("ko"), Refusal::Ko},
      std::pair{std::string_view("positional_superko"), Refusal::PositionalSuperko},
      std::pair{std::string_view("situational_superko"), Refusal::SituationalSuperko}};
  static constexpr Refusal fallback = Refusal::Occupied;
};

struct Error {
  std::optional<std::string> cid;
  ErrorCode code = ErrorCode::Internal;
  std::string message;
  std::optional<GameId> game;
  std::optional<Refusal> reason{};  // with illegal_move, when the rules refused it
};
template <>
struct Wire<Error> {
  static constexpr std::string_view type = "error";
  static constexpr std::tuple fields{
      wire::field("cid", &Error::cid), wire::field("code", &Error::code),
      wire::field("message", &Error::message), wire::field("game", &Error::game),
      wire::field("reason", &Error::reason)};
};
struct Ack {
  std::string cid;
  std::optional<GameId> game;
  std::optional<Seq> seq;  // the room event the command produced
  std::optional<ChallengeId> challenge;
  std::optional<TournamentId> tournament;
};
template <>
struct Wire<Ack> {
  static constexpr std::string_view type = "ack";
  static constexpr std::tuple fields{
      wire::field("cid", &Ack::cid), wire::field("game", &Ack::game), wire::field("seq", &Ack::seq),
      wire::field("challenge", &Ack::challenge), wire::field("tournament", &Ack::tournament)};
};
// The answer to a ping, in place of an ack.
struct Pong {
  std::string cid;
  std::int64_t t = 0;
};
template <>
struct Wire<Pong> {
  static constexpr std::string_view type = "pong";
  static constexpr std::tuple fields{wire::field("cid", &Pong::cid), wire::field("t", &Pong::t)};
};

struct UserRef {
  std::int64_t id = 0;
  std::string name;
};
template <>
struct Wire<UserRef> {
  static constexpr std::tuple fields{wire::field("id", &UserRef::id),
                                     wire::field("name", &UserRef::name)};
};
struct Welcome {
  std::optional<UserRef> user;  // absent for a guest
  std::string server_version;
};
template <>
struct Wire<Welcome> {
  static constexpr std::string_view type = "welcome";
  static constexpr std::tuple fields{wire::field("user", &Welcome::user, wire::Empty::Null),
                                     wire::field("server_version", &Welcome::server_version)};
};

struct Challenge {
  ChallengeId id = 0;
  UserRef challenger;
  std::optional<UserRef> opponent;  // direct challenges only
  GameSettings settings;
};
template <>
struct Wire<Challenge> {
  static constexpr std::tuple fields{
      wire::field("id", &Challenge::id), wire::field("challenger", &Challenge::challenger),
      wire::field("opponent", &Challenge::opponent), wire::field("settings", &Challenge::settings)};
};
struct LobbySnapshot {
  std::vector<Challenge> challenges;
  std::vector<UserRef> online;    // at most 500 of those online (the first by id)
  std::int64_t online_count = 0;  // everyone online
};
template <>
struct Wire<LobbySnapshot> {
  static constexpr std::string_view type = "lobby";
  static constexpr std::tuple fields{wire::field("challenges", &LobbySnapshot::challenges),
                                     wire::field("online", &LobbySnapshot::online),
                                     wire::field("online_count", &LobbySnapshot::online_count)};
};
struct ChallengeOpened {
  Challenge challenge;
};
template <>
struct Wire<ChallengeOpened> {
  static constexpr std::string_view type = "challenge_opened";
  static constexpr std::tuple fields{wire::field("challenge", &ChallengeOpened::challenge)};
};
// Why a challenge left the lobby.
enum class ChallengeEnd : std::uint8_t { Accepted, Declined, Cancelled, Expired };
template <>
struct WireNames<ChallengeEnd> {
  static constexpr std::array names{
      std::pair{std::string_view("accepted"), ChallengeEnd::Accepted},
      std::pair{std::string_view("declined"), ChallengeEnd::Declined},
      std::pair{std::string_view("cancelled"), ChallengeEnd::Cancelled},
      std::pair{std::string_view("expired"), ChallengeEnd::Expired}};
  static constexpr ChallengeEnd fallback = ChallengeEnd::Cancelled;
};
struct ChallengeClosed {
  ChallengeId challenge = 0;
  ChallengeEnd reason = ChallengeEnd::Cancelled;
  std::optional<GameId> game;        // when accepted
  std::optional<UserRef> by{};       // declined: who
  std::optional<std::string> why{};  // declined: why, if they said
};
template <>
struct Wire<ChallengeClosed> {
  static constexpr std::string_view type = "challenge_closed";
  static constexpr std::tuple fields{
      wire::field("challenge", &ChallengeClosed::challenge),
      wire::field("reason", &ChallengeClosed::reason), wire::field("game", &ChallengeClosed::game),
      wire::field("by", &ChallengeClosed::by), wire::field("why", &ChallengeClosed::why)};
};
// Who came online (a first connection) and who went offline (a last one) since the previous
// presence message; the server sends them at most a few times a second, so that a crowd
// arriving at once costs each connection a few messages, not one per arrival.
struct Presence {
  std::vector<UserRef> online;  // arrivals and departures, at most 500 in all per message
  std::vector<UserRef> offline;
  std::int64_t online_count = 0;  // everyone online now
};
template <>
struct Wire<Presence> {
  static constexpr std::string_view type = "presence";
  static constexpr std::tuple fields{wire::field("online", &Presence::online),
                                     wire::field("offline", &Presence::offline),
                                     wire::field("online_count", &Presence::online_count)};
};

// ---- game rooms ----

enum class Phase : std::uint8_t { Nigiri, Playing, Scoring, Finished };
template <>
struct WireNames<Phase> {
  static constexpr std::array names{std::pair{std::string_view("nigiri"), Phase::Nigiri},
                                    std::pair{std::string_view("playing"), Phase::Playing},
                                    std::pair{std::string_view("scoring"), Phase::Scoring},
                                    std::pair{std::string_view("finished"), Phase::Finished}};
  static constexpr Phase fallback = Phase::Playing;
};
// A player's colour, the engine's own type: "black" or "white".
template <>
struct WireNames<Color> {
  static constexpr std::array names{std::pair{std::string_view("black"), Color::Black},
                                    std::pair{std::string_view("white"), Color::White}};
};
// A game's chats: players write to theirs, everyone else to the spectators'; in a pair Go game
// a team's members may also write to their team's, which only they read.
enum class Channel : std::uint8_t { Players, Spectators, Team };
template <>
struct WireNames<Channel> {
  static constexpr std::array names{std::pair{std::string_view("players"), Channel::Players},
                                    std::pair{std::string_view("spectators"), Channel::Spectators},
                                    std::pair{std::string_view("team"), Channel::Team}};
};

// One player's clock, as of the instant of the message that carries it.
struct PlayerClock {
  std::int64_t main_ms = 0;    // main time (simple: the allowance for this move)
  int periods = 0;             // byo-yomi periods left
  std::int64_t period_ms = 0;  // byo-yomi: left in the current period; canadian: in the block
  int stones = 0;              // canadian: stones to play in the block
  friend bool operator==(const PlayerClock&, const PlayerClock&) = default;
};
template <>
struct Wire<PlayerClock> {
  static constexpr std::tuple fields{wire::field("main_ms", &PlayerClock::main_ms),
                                     wire::field("periods", &PlayerClock::periods),
                                     wire::field("period_ms", &PlayerClock::period_ms),
                                     wire::field("stones", &PlayerClock::stones)};
};
struct ClockState {
  PlayerClock black;
  PlayerClock white;
  std::optional<Color> running;  // whose clock runs, if any
  // Correspondence (docs/correspondence.md): the running player is in their time off (their
  // weekend or vacation), and their clock stands still for this long from the message's instant.
  // Omitted otherwise.
  std::optional<std::int64_t> time_off_ms{};
  // With time_off_ms: true when the running player is on vacation (rather than in a weekend).
  std::optional<bool> vacation{};
};
template <>
struct Wire<ClockState> {
  static constexpr std::tuple fields{
      wire::field("black", &ClockState::black), wire::field("white", &ClockState::white),
      wire::field("running", &ClockState::running, wire::Empty::Null),
      wire::field("time_off_ms", &ClockState::time_off_ms, wire::Empty::Omitted),
      wire::field("vacation", &ClockState::vacation, wire::Empty::Omitted)};
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
template <>
struct Wire<NigiriState> {
  static constexpr std::tuple fields{wire::field("commitment", &NigiriState::commitment),
                                     wire::field("holder", &NigiriState::holder),
                                     wire::field("guesser", &NigiriState::guesser),
                                     wire::field("holder_chose", &NigiriState::holder_chose),
                                     wire::field("guesser_chose", &NigiriState::guesser_chose),
                                     wire::field("secret", &NigiriState::secret),
                                     wire::field("nonce", &NigiriState::nonce),
                                     wire::field("holder_seed", &NigiriState::holder_seed),
                                     wire::field("guesser_seed", &NigiriState::guesser_seed),
                                     wire::field("guess", &NigiriState::guess),
                                     wire::field("stones", &NigiriState::stones)};
};

// One colour's points in a count.
struct ScoreParts {
  int stones = 0;     // live stones on the board (counted by area)
  int territory = 0;  // empty points, and dead stones' points, surrounded by this colour
  int prisoners = 0;  // captures and dead stones taken (counted by territory)
};
template <>
struct Wire<ScoreParts> {
  static constexpr std::tuple fields{wire::field("stones", &ScoreParts::stones),
                                     wire::field("territory", &ScoreParts::territory),
                                     wire::field("prisoners", &ScoreParts::prisoners)};
};
// How the totals are made: by area (stones + territory) or by territory (territory +
// prisoners), and White's komi and handicap compensation.
struct ScoreBreakdown {
  bool area = false;
  ScoreParts black;
  ScoreParts white;
  double komi = 0;
  double handicap_compensation = 0;  // area scoring: points for Black's handicap stones
};
template <>
struct Wire<ScoreBreakdown> {
  static constexpr std::tuple fields{
      wire::field("area", &ScoreBreakdown::area), wire::field("black", &ScoreBreakdown::black),
      wire::field("white", &ScoreBreakdown::white), wire::field("komi", &ScoreBreakdown::komi),
      wire::field("handicap_compensation", &ScoreBreakdown::handicap_compensation)};
};
// A scored position: totals and who owns each point, rows from the top, one character per
// point: 'b' or 'w' (territory or live stone), '.' neutral (dame, seki).
struct ScoreView {
  double black = 0;
  double white = 0;
  Result result;                              // SGF form on the wire
  std::string ownership;                      // width*height characters
  std::optional<ScoreBreakdown> breakdown{};  // absent in games stored before it existed
};
template <>
struct Wire<ScoreView> {
  static constexpr std::tuple fields{
      wire::field("black", &ScoreView::black), wire::field("white", &ScoreView::white),
      wire::field("result", &ScoreView::result), wire::field("ownership", &ScoreView::ownership),
      wire::field("breakdown", &ScoreView::breakdown)};
};
// The version of the marking each player accepted, if any.
struct Accepted {
  std::optional<std::uint64_t> black;
  std::optional<std::uint64_t> white;
};
template <>
struct Wire<Accepted> {
  static constexpr std::tuple fields{wire::field("black", &Accepted::black, wire::Empty::Null),
                                     wire::field("white", &Accepted::white, wire::Empty::Null)};
};
// The scoring phase's current marking.
struct Marking {
  std::uint64_t version = 0;
  std::vector<std::string> dead;  // GTP vertices of every dead stone
  ScoreView score;
  Accepted accepted;
  int resumptions = 0;
};
template <>
struct Wire<Marking> {
  static constexpr std::tuple fields{
      wire::field("version", &Marking::version), wire::field("dead", &Marking::dead),
      wire::field("score", &Marking::score), wire::field("accepted", &Marking::accepted),
      wire::field("resumptions", &Marking::resumptions)};
};
// A player who left the room while the game goes on; `claim_in_ms` counts down only while it
// is their move, and the opponent may claim the win when it reaches zero.
struct Absence {
  Color color = Color::Black;
  std::optional<std::int64_t> claim_in_ms;
};
template <>
struct Wire<Absence> {
  static constexpr std::tuple fields{
      wire::field("color", &Absence::color),
      wire::field("claim_in_ms", &Absence::claim_in_ms, wire::Empty::Null)};
};

// The viewer of a snapshot: a player by colour (before the nigiri draws colours, "player"), or
// anyone else.
enum class Role : std::uint8_t { Black, White, Player, Spectator };
template <>
struct WireNames<Role> {
  static constexpr std::array names{std::pair{std::string_view("black"), Role::Black},
                                    std::pair{std::string_view("white"), Role::White},
                                    std::pair{std::string_view("player"), Role::Player},
                                    std::pair{std::string_view("spectator"), Role::Spectator}};
  static constexpr Role fallback = Role::Spectator;
};
struct MoveRecord {
  Color color = Color::Black;
  std::string vertex;                 // GTP form, or "pass"
  std::optional<PlayerClock> left{};  // the mover's clock just after the move (timed games)
};
template <>
struct Wire<MoveRecord> {
  static constexpr std::tuple fields{wire::field("color", &MoveRecord::color),
                                     wire::field("vertex", &MoveRecord::vertex),
                                     wire::field("left", &MoveRecord::left, wire::Empty::Omitted)};
};
struct ChatLine {
  Seq seq = 0;
  UserRef from;
  Channel channel = Channel::Players;
  std::string text;
  std::int64_t at_ms{};  // when it was said (Unix ms); 0 for lines stored before times were
  // Deleted by an administrator (docs/moderation.md): the text is gone, the line's place stays.
  std::optional<bool> deleted{};
};
template <>
struct Wire<ChatLine> {
  static constexpr std::tuple fields{
      wire::field("seq", &ChatLine::seq),
      wire::field("from", &ChatLine::from),
      wire::field("channel", &ChatLine::channel),
      wire::field("text", &ChatLine::text),
      wire::field("at_ms", &ChatLine::at_ms),
      wire::field("deleted", &ChatLine::deleted, wire::Empty::Omitted)};
};
// Stones each player has taken (prisoners).
struct Captures {
  int black = 0;
  int white = 0;
};
template <>
struct Wire<Captures> {
  static constexpr std::tuple fields{wire::field("black", &Captures::black),
                                     wire::field("white", &Captures::white)};
};
// A tournament's game: which tournament, round and board (docs/tournaments.md).
struct TournamentGameRef {
  TournamentId tournament = 0;
  std::string name;
  int round = 0;  // from 1
  int board = 0;  // from 1
};
template <>
struct Wire<TournamentGameRef> {
  static constexpr std::tuple fields{wire::field("tournament", &TournamentGameRef::tournament),
                                     wire::field("name", &TournamentGameRef::name),
                                     wire::field("round", &TournamentGameRef::round),
                                     wire::field("board", &TournamentGameRef::board)};
};

struct GameSnapshot {
  GameId game = 0;
  Seq seq = 0;  // the last event included
  GameSettings settings;
  UserRef black;
  UserRef white;
  std::vector<std::string> handicap_stones;  // GTP vertices
  std::vector<MoveRecord> moves;
  Color to_move = Color::Black;
  Phase phase = Phase::Playing;
  std::optional<Result> result;  // SGF form on the wire
  Captures captures;
  bool undo_requested = false;
  std::vector<ChatLine> chat;     // the newest lines of the channels this viewer may read
  std::int64_t chat_omitted = 0;  // earlier lines this viewer may read that `chat` leaves out
  Role role = Role::Spectator;
  std::optional<ClockState> clock;
  std::optional<NigiriState> nigiri;
  std::optional<Marking> marking;  // in the scoring phase
  std::vector<Absence> absent;
  std::optional<ScoreView> final_score;  // games ended by scoring
  std::vector<std::string> final_dead;   // and the stones agreed dead (a stone of each chain)
  bool abortable = false;                // neither or only one player has moved
  // Before both players have moved: how long the player to move (or the nigiri) has left before
  // the game is void (a forfeit in tournaments), and the whole start timeout, which restarts for
  // the other player after the first move.
  std::optional<std::int64_t> first_move_in_ms;
  std::int64_t first_move_ms = 0;
  std::int64_t watching = 0;  // spectators in the room: people signed in, and guests' pages
  // A correspondence game's player's own conditional moves (SetConditionalMoves' lines, as kept:
  // what is left of them); omitted for everyone else and when there are none.
  std::optional<std::vector<std::string>> conditional_moves{};
  std::optional<TournamentGameRef> tournament{};  // a tournament's game
  // Play was resumed from the count and nobody has moved since: the last move is a pass, but
  // not one in a row (the page says play resumed, not "if you pass too, the game ends").
  // Left out otherwise.
  std::optional<bool> resumed{};
};
template <>
struct Wire<GameSnapshot> {
  static constexpr std::string_view type = "snapshot";
  static constexpr std::tuple fields{
      wire::field("game", &GameSnapshot::game),
      wire::field("seq", &GameSnapshot::seq),
      wire::field("settings", &GameSnapshot::settings),
      wire::field("black", &GameSnapshot::black),
      wire::field("white", &GameSnapshot::white),
      wire::field("handicap_stones", &GameSnapshot::handicap_stones),
      wire::field("moves", &GameSnapshot::moves),
      wire::field("to_move", &GameSnapshot::to_move),
      wire::field("phase", &GameSnapshot::phase),
      wire::field("result", &GameSnapshot::result, wire::Empty::Null),
      wire::field("captures", &GameSnapshot::captures),
      wire::field("undo_requested", &GameSnapshot::undo_requested),
      wire::field("chat", &GameSnapshot::chat),
      wire::field("chat_omitted", &GameSnapshot::chat_omitted),
      wire::field("role", &GameSnapshot::role),
      wire::field("clock", &GameSnapshot::clock, wire::Empty::Null),
      wire::field("nigiri", &GameSnapshot::nigiri, wire::Empty::Null),
      wire::field("marking", &GameSnapshot::marking, wire::Empty::Null),
      wire::field("absent", &GameSnapshot::absent),
      wire::field("final_score", &GameSnapshot::final_score, wire::Empty::Null),
      wire::field("final_dead", &GameSnapshot::final_dead),
      wire::field("abortable", &GameSnapshot::abortable),
      wire::field("first_move_in_ms", &GameSnapshot::first_move_in_ms, wire::Empty::Null),
      wire::field("first_move_ms", &GameSnapshot::first_move_ms),
      wire::field("watching", &GameSnapshot::watching),
      wire::field("conditional_moves", &GameSnapshot::conditional_moves, wire::Empty::Omitted),
      wire::field("tournament", &GameSnapshot::tournament, wire::Empty::Omitted),
      wire::field("resumed", &GameSnapshot::resumed, wire::Empty::Omitted)};
};

// One thing that happened in a room, with its place in the room's order.
struct MovePlayed {
  Color color = Color::Black;
  std::string vertex;                 // "pass" for a pass
  std::vector<std::string> captured;  // vertices of every stone that left the board (suicide too)
  std::optional<ClockState> clock;    // after the move; absent in untimed games
  std::int64_t lag_credit_ms = 0;     // network lag not charged to the mover
};
template <>
struct Wire<MovePlayed> {
  static constexpr std::string_view type = "move";
  static constexpr std::tuple fields{wire::field("color", &MovePlayed::color),
                                     wire::field("vertex", &MovePlayed::vertex),
                                     wire::field("captured", &MovePlayed::captured),
                                     wire::field("clock", &MovePlayed::clock, wire::Empty::Null),
                                     wire::field("lag_credit_ms", &MovePlayed::lag_credit_ms)};
};
// The players made their choices; colours are now fixed.
struct NigiriDone {
  NigiriState nigiri;
  UserRef black;
  UserRef white;
};
template <>
struct Wire<NigiriDone> {
  static constexpr std::string_view type = "nigiri_done";
  static constexpr std::tuple fields{wire::field("nigiri", &NigiriDone::nigiri),
                                     wire::field("black", &NigiriDone::black),
                                     wire::field("white", &NigiriDone::white)};
};
struct ScoringStarted {
  Marking marking;
};  // play stopped: the server's proposal
template <>
struct Wire<ScoringStarted> {
  static constexpr std::string_view type = "scoring_started";
  static constexpr std::tuple fields{wire::field("marking", &ScoringStarted::marking)};
};
struct MarkingChanged {  // a player toggled a chain: a new version
  Marking marking;
  Color by = Color::Black;
};
template <>
struct Wire<MarkingChanged> {
  static constexpr std::string_view type = "marking";
  static constexpr std::tuple fields{wire::field("marking", &MarkingChanged::marking),
                                     wire::field("by", &MarkingChanged::by)};
};
struct ScoreAccepted {
  Color by = Color::Black;
  std::uint64_t version = 0;
};
template <>
struct Wire<ScoreAccepted> {
  static constexpr std::string_view type = "score_accepted";
  static constexpr std::tuple fields{wire::field("by", &ScoreAccepted::by),
                                     wire::field("version", &ScoreAccepted::version)};
};
struct PlayResumed {
  Color by = Color::Black;  // who rejected the marking
  Color to_move = Color::Black;
  int resumptions = 0;
  std::optional<ClockState> clock;
};
template <>
struct Wire<PlayResumed> {
  static constexpr std::string_view type = "play_resumed";
  static constexpr std::tuple fields{wire::field("by", &PlayResumed::by),
                                     wire::field("to_move", &PlayResumed::to_move),
                                     wire::field("resumptions", &PlayResumed::resumptions),
                                     wire::field("clock", &PlayResumed::clock, wire::Empty::Null)};
};
struct PlayerLeft {
  Absence absence;
};  // also sent when a countdown starts or stops
template <>
struct Wire<PlayerLeft> {
  static constexpr std::string_view type = "player_left";
  static constexpr std::tuple fields{wire::field("absence", &PlayerLeft::absence)};
};
struct PlayerReturned {
  Color color = Color::Black;
};
template <>
struct Wire<PlayerReturned> {
  static constexpr std::string_view type = "player_returned";
  static constexpr std::tuple fields{wire::field("color", &PlayerReturned::color)};
};
struct UndoRequested {
  Color by = Color::Black;
};
template <>
struct Wire<UndoRequested> {
  static constexpr std::string_view type = "undo_requested";
  static constexpr std::tuple fields{wire::field("by", &UndoRequested::by)};
};
struct UndoAnswered {
  bool accepted = false;
  int moves_taken_back = 0;
};
template <>
struct Wire<UndoAnswered> {
  static constexpr std::string_view type = "undo_answered";
  static constexpr std::tuple fields{
      wire::field("accepted", &UndoAnswered::accepted),
      wire::field("moves_taken_back", &UndoAnswered::moves_taken_back)};
};
struct ChatPosted {
  ChatLine line;
};
template <>
struct Wire<ChatPosted> {
  static constexpr std::string_view type = "chat";
  static constexpr std::tuple fields{wire::field("line", &ChatPosted::line)};
};
// An administrator deleted the chat line made by event `line` (docs/moderation.md): shown as
// deleted from now on, for everyone.
struct ChatDeleted {
  Seq line = 0;
};
template <>
struct Wire<ChatDeleted> {
  static constexpr std::string_view type = "chat_deleted";
  static constexpr std::tuple fields{wire::field("line", &ChatDeleted::line)};
};
// A player's conditional moves changed: set by them, shortened as the game followed a line (the
// reply was played), or dropped when it did not. Sent only to that player.
struct ConditionalMoves {
  Color color = Color::Black;
  std::vector<std::string> lines;
};
template <>
struct Wire<ConditionalMoves> {
  static constexpr std::string_view type = "conditional_moves";
  static constexpr std::tuple fields{wire::field("color", &ConditionalMoves::color),
                                     wire::field("lines", &ConditionalMoves::lines)};
};
// Why a game ended.
enum class EndReason : std::uint8_t {
  Resignation,
  Score,            // both players accepted the marking
  Passes,           // play stopped and there were no stones to mark (scored as played)
  Repetition,       // a repeated position under simple ko: void
  Time,             // a flag
  Abandoned,        // the opponent claimed the win after the leaver's countdown
  Aborted,          // before both players moved
  NoFirstMove,      // a player did not move within the start timeout: void
  NoShow,           // the same in a tournament game: a loss by forfeit
  ScoringTimeout,   // the scoring phase ran out: scored as played
  ResumptionLimit,  // a rejection beyond the resumptions allowed: scored as played
  Adjudication,     // a tournament director decided
  Withdrawal,       // a tournament player withdrew
  Annulled,         // an administrator made the game void (docs/moderation.md)
  Other,            // what a client reads for a reason a newer server added
};
template <>
struct WireNames<EndReason> {
  static constexpr std::array names{
      std::pair{std::string_view("resignation"), EndReason::Resignation},
      std::pair{std::string_view("score"), EndReason::Score},
      std::pair{std::string_view("passes"), EndReason::Passes},
      std::pair{std::string_view("repetition"), EndReason::Repetition},
      std::pair{std::string_view("time"), EndReason::Time},
      std::pair{std::string_view("abandoned"), EndReason::Abandoned},
      std::pair{std::string_view("aborted"), EndReason::Aborted},
      std::pair{std::string_view("no_first_move"), EndReason::NoFirstMove},
      std::pair{std::string_view("no_show"), EndReason::NoShow},
      std::pair{std::string_view("scoring_timeout"), EndReason::ScoringTimeout},
      std::pair{std::string_view("resumption_limit"), EndReason::ResumptionLimit},
      std::pair{std::string_view("adjudication"), EndReason::Adjudication},
      std::pair{std::string_view("annulled"), EndReason::Annulled},
      std::pair{std::string_view("withdrawal"), EndReason::Withdrawal},
      std::pair{std::string_view("other"), EndReason::Other}};
  static constexpr EndReason fallback = EndReason::Other;
};
struct GameEnded {
  Result result;  // SGF form on the wire: "B+R", "W+3.5", "0", "Void", "B+T", "W+F", ...
  EndReason reason = EndReason::Other;
  std::optional<ScoreView> score;  // games decided by counting
  std::optional<ClockState> clock;
};
template <>
struct Wire<GameEnded> {
  static constexpr std::string_view type = "game_ended";
  static constexpr std::tuple fields{wire::field("result", &GameEnded::result),
                                     wire::field("reason", &GameEnded::reason),
                                     wire::field("score", &GameEnded::score, wire::Empty::Null),
                                     wire::field("clock", &GameEnded::clock, wire::Empty::Null)};
};
struct NigiriStarted {
  NigiriState nigiri;
};
template <>
struct Wire<NigiriStarted> {
  static constexpr std::string_view type = "nigiri_started";
  static constexpr std::tuple fields{wire::field("nigiri", &NigiriStarted::nigiri)};
};
using RoomEventBody =
    std::variant<MovePlayed, UndoRequested, UndoAnswered, ChatPosted, GameEnded, NigiriStarted,
                 NigiriDone, ScoringStarted, MarkingChanged, ScoreAccepted, PlayResumed, PlayerLeft,
                 PlayerReturned, ChatDeleted, ConditionalMoves>;
struct RoomEvent {
  GameId game = 0;
  Seq seq = 0;
  RoomEventBody body;
};
template <>
struct Wire<RoomEvent> {
  // A room event is its body's message with these added.
  static constexpr std::tuple fields{wire::field("game", &RoomEvent::game),
                                     wire::field("seq", &RoomEvent::seq)};
};
// Before a nigiri, `black` is the holder and `white` the guesser, and `nigiri` is true.
struct GameStarted {
  GameId game = 0;
  UserRef black;
  UserRef white;
  GameSettings settings;
  bool nigiri = false;
  std::optional<TournamentGameRef> tournament{};  // a tournament's game
};
template <>
struct Wire<GameStarted> {
  static constexpr std::string_view type = "game_started";
  static constexpr std::tuple fields{
      wire::field("game", &GameStarted::game),
      wire::field("black", &GameStarted::black),
      wire::field("white", &GameStarted::white),
      wire::field("settings", &GameStarted::settings),
      wire::field("nigiri", &GameStarted::nigiri),
      wire::field("tournament", &GameStarted::tournament, wire::Empty::Omitted)};
};

// Where a tournament stands.
enum class TournamentStatus : std::uint8_t { Registering, Running, Finished, Cancelled };
template <>
struct WireNames<TournamentStatus> {
  static constexpr std::array names{
      std::pair{std::string_view("registering"), TournamentStatus::Registering},
      std::pair{std::string_view("running"), TournamentStatus::Running},
      std::pair{std::string_view("finished"), TournamentStatus::Finished},
      std::pair{std::string_view("cancelled"), TournamentStatus::Cancelled}};
};
// Something changed in a tournament (registration, a round, a result): its page fetches
// /api/v1/tournaments/{id} again. Sent to the connections watching it (WatchTournaments).
struct TournamentChanged {
  TournamentId tournament = 0;
  TournamentStatus status = TournamentStatus::Registering;
  int round = 0;  // the latest round paired (0 before the first)
};
template <>
struct Wire<TournamentChanged> {
  static constexpr std::string_view type = "tournament_changed";
  static constexpr std::tuple fields{wire::field("tournament", &TournamentChanged::tournament),
                                     wire::field("status", &TournamentChanged::status),
                                     wire::field("round", &TournamentChanged::round)};
};

// A review as its followers see it (docs/reviews.md).
struct MarkView {
  std::string vertex;
  MarkKind mark = MarkKind::Triangle;
  std::string label;  // a label's text; empty otherwise
};
template <>
struct Wire<MarkView> {
  static constexpr std::tuple fields{
      wire::field("vertex", &MarkView::vertex), wire::field("mark", &MarkView::mark),
      wire::field("label", &MarkView::label, wire::Empty::Defaulted)};
};
// One node of a review's tree: its move (none for the root or a setup node), setup stones, marks
// and comment. `parent` is -1 for the root (node 0).
struct ReviewNode {
  std::int64_t id = 0;
  std::int64_t parent = -1;
  std::optional<Color> color;  // the move's colour; absent: no move
  std::string vertex;          // the move: "D4" or "pass"; empty without one
  std::vector<std::string> add_black, add_white, add_empty;
  std::vector<MarkView> marks;
  std::string comment;
};
template <>
struct Wire<ReviewNode> {
  static constexpr std::tuple fields{
      wire::field("id", &ReviewNode::id),
      wire::field("parent", &ReviewNode::parent),
      wire::field("color", &ReviewNode::color),
      wire::field("vertex", &ReviewNode::vertex, wire::Empty::Defaulted),
      wire::field("add_black", &ReviewNode::add_black, wire::Empty::Defaulted),
      wire::field("add_white", &ReviewNode::add_white, wire::Empty::Defaulted),
      wire::field("add_empty", &ReviewNode::add_empty, wire::Empty::Defaulted),
      wire::field("marks", &ReviewNode::marks, wire::Empty::Defaulted),
      wire::field("comment", &ReviewNode::comment, wire::Empty::Defaulted)};
};
// A line of a review's chat; `seq` is the change that posted it.
struct ReviewChatLine {
  Seq seq = 0;
  UserRef from;
  std::string text;
};
template <>
struct Wire<ReviewChatLine> {
  static constexpr std::tuple fields{wire::field("seq", &ReviewChatLine::seq),
                                     wire::field("from", &ReviewChatLine::from),
                                     wire::field("text", &ReviewChatLine::text)};
};
// The position a line of play reaches (a review's node; POST /api/v1/positions answers the same):
// the board (width*height characters, rows from the top: 'b', 'w', '.'), who moves next, the
// stones each side has taken along the line, what its last move took, and where the player to
// move may not play at once because of a ko (the engine's simple-ko point; left out when none).
struct PositionView {
  std::string board;
  Color to_move = Color::Black;
  Captures captures;
  std::vector<std::string> captured;
  std::optional<std::string> ko{};
  std::optional<ScoreView> score{};  // when the query named dead stones (POST /api/v1/positions)
};
template <>
struct Wire<PositionView> {
  static constexpr std::tuple fields{wire::field("board", &PositionView::board),
                                     wire::field("to_move", &PositionView::to_move),
                                     wire::field("captures", &PositionView::captures),
                                     wire::field("captured", &PositionView::captured),
                                     wire::field("ko", &PositionView::ko),
                                     wire::field("score", &PositionView::score)};
};
struct ReviewSnapshot {
  ReviewId review = 0;
  Seq seq = 0;  // the last change included
  std::string title;
  UserRef owner;
  UserRef controller;
  std::optional<GameId> game;  // the game it reviews, if made from one
  int width = 19;
  int height = 19;
  double komi = 0;
  std::string rules;              // the ruleset's name
  std::vector<ReviewNode> nodes;  // every node in the tree, parents before children
  std::int64_t current = 0;
  PositionView position;  // at the current node
  std::vector<UserRef> followers;
  int guests = 0;  // followers without an account
  bool closed = false;
  std::vector<ReviewChatLine> chat;  // the newest lines (at most 100), oldest first
  // A review of a private game: seen by its `players` (who may invite), administrators and
  // `invited` only.
  bool is_private = false;
  std::vector<UserRef> players{};
  std::vector<UserRef> invited{};
};
template <>
struct Wire<ReviewSnapshot> {
  static constexpr std::string_view type = "review_snapshot";
  static constexpr std::tuple fields{wire::field("review", &ReviewSnapshot::review),
                                     wire::field("seq", &ReviewSnapshot::seq),
                                     wire::field("title", &ReviewSnapshot::title),
                                     wire::field("owner", &ReviewSnapshot::owner),
                                     wire::field("controller", &ReviewSnapshot::controller),
                                     wire::field("game", &ReviewSnapshot::game, wire::Empty::Null),
                                     wire::field("width", &ReviewSnapshot::width),
                                     wire::field("height", &ReviewSnapshot::height),
                                     wire::field("komi", &ReviewSnapshot::komi),
                                     wire::field("rules", &ReviewSnapshot::rules),
                                     wire::field("nodes", &ReviewSnapshot::nodes),
                                     wire::field("current", &ReviewSnapshot::current),
                                     wire::field("position", &ReviewSnapshot::position),
                                     wire::field("followers", &ReviewSnapshot::followers),
                                     wire::field("guests", &ReviewSnapshot::guests),
                                     wire::field("closed", &ReviewSnapshot::closed),
                                     wire::field("chat", &ReviewSnapshot::chat),
                                     wire::field("private", &ReviewSnapshot::is_private),
                                     wire::field("players", &ReviewSnapshot::players),
                                     wire::field("invited", &ReviewSnapshot::invited)};
};
enum class ReviewChange : std::uint8_t {
  NodeAdded,  // `node` is new; it is the current node
  Moved,      // the current node changed
  Marked,     // `node`'s marks changed (it is the current node)
  Commented,  // `node`'s comment changed
  Deleted,    // `deleted` and the lines below it are gone; `current` may have moved up
  Control,    // `controller` now drives the review
  Closed,     // the owner ended it
  Chat,       // `line` was posted to the review's chat (`current` as it was)
  Invited,    // who is invited to a private review changed: `invited`
  Removed,    // to one follower only: no longer invited, they follow it no more (no seq of its own)
  Other,      // a change a newer server made
};
template <>
struct WireNames<ReviewChange> {
  static constexpr std::array names{
      std::pair{std::string_view("node_added"), ReviewChange::NodeAdded},
      std::pair{std::string_view("moved"), ReviewChange::Moved},
      std::pair{std::string_view("marked"), ReviewChange::Marked},
      std::pair{std::string_view("commented"), ReviewChange::Commented},
      std::pair{std::string_view("deleted"), ReviewChange::Deleted},
      std::pair{std::string_view("control"), ReviewChange::Control},
      std::pair{std::string_view("closed"), ReviewChange::Closed},
      std::pair{std::string_view("chat"), ReviewChange::Chat},
      std::pair{std::string_view("invited"), ReviewChange::Invited},
      std::pair{std::string_view("removed"), ReviewChange::Removed},
      std::pair{std::string_view("other"), ReviewChange::Other}};
  static constexpr ReviewChange fallback = ReviewChange::Other;
};
// One change to a review, numbered: a follower who sees a gap in `seq` joins again.
struct ReviewUpdate {
  ReviewId review = 0;
  Seq seq = 0;
  ReviewChange change = ReviewChange::Other;
  std::int64_t current = 0;
  std::optional<ReviewNode> node;
  std::optional<std::int64_t> deleted;
  std::optional<PositionView> position;  // when the current node changed
  std::optional<UserRef> controller;
  std::optional<UserRef> by;  // who made it
  std::optional<ReviewChatLine> line;
  std::optional<std::vector<UserRef>> invited{};  // Invited: everyone invited now
};
template <>
struct Wire<ReviewUpdate> {
  static constexpr std::string_view type = "review_update";
  static constexpr std::tuple fields{wire::field("review", &ReviewUpdate::review),
                                     wire::field("seq", &ReviewUpdate::seq),
                                     wire::field("change", &ReviewUpdate::change),
                                     wire::field("current", &ReviewUpdate::current),
                                     wire::field("node", &ReviewUpdate::node),
                                     wire::field("deleted", &ReviewUpdate::deleted),
                                     wire::field("position", &ReviewUpdate::position),
                                     wire::field("controller", &ReviewUpdate::controller),
                                     wire::field("by", &ReviewUpdate::by),
                                     wire::field("line", &ReviewUpdate::line),
                                     wire::field("invited", &ReviewUpdate::invited)};
};
// Who follows a review now (not numbered: sent as people come and go).
struct ReviewFollowers {
  ReviewId review = 0;
  std::vector<UserRef> followers;
  int guests = 0;
};
template <>
struct Wire<ReviewFollowers> {
  static constexpr std::string_view type = "review_followers";
  static constexpr std::tuple fields{wire::field("review", &ReviewFollowers::review),
                                     wire::field("followers", &ReviewFollowers::followers),
                                     wire::field("guests", &ReviewFollowers::guests)};
};

// How many watch a game, told to its players whenever it changes (spectators see it in their
// snapshot): not a room event, no seq.
struct Watching {
  GameId game = 0;
  std::int64_t count = 0;
};
template <>
struct Wire<Watching> {
  static constexpr std::string_view type = "watching";
  static constexpr std::tuple fields{wire::field("game", &Watching::game),
                                     wire::field("count", &Watching::count)};
};

// New ratings are stored for these accounts (docs/ratings.md): in a cluster, a rated game played
// on another node than the hub is rated by the hub a moment after its end, and its two players'
// connections are told so once the ratings are durable, to ask for them again
// (GET /api/v1/ratings). Not a room event, no seq.
struct RatingsChanged {
  std::vector<std::int64_t> users;
};
template <>
struct Wire<RatingsChanged> {
  static constexpr std::string_view type = "ratings_changed";
  static constexpr std::tuple fields{wire::field("users", &RatingsChanged::users)};
};

// Whether the server can store what players do (docs/operations.md, "When the database goes
// away"), told to every connection of a node when it changes: "degraded" when it cannot (its
// database is away: moves wait, unacknowledged, and are saved as soon as it can), "ok" when it
// can again. Not a room event, no seq.
struct Service {
  std::string state;   // "degraded" or "ok"
  std::string reason;  // "database" when degraded; empty when ok
};
template <>
struct Wire<Service> {
  static constexpr std::string_view type = "service";
  static constexpr std::tuple fields{wire::field("state", &Service::state),
                                     wire::field("reason", &Service::reason)};
};

// The server lost what this connection had joined, and the commands it had not yet answered, but
// kept the connection (docs/cluster.md, "Failover"): another node took over the lobby, or the
// bus between the nodes was cut for a moment. The client does what it does after reconnecting,
// on the same socket: joins its rooms again from the last `seq` it saw and sends again, under
// the same cids, every command not yet answered (each applied once). A fresh lobby snapshot
// follows. Not a room event, no seq.
struct Resync {
  // "hub" (another node took over), "bus" (the bus came back), "lost" (the hub had lost this
  // connection's announcement)
  std::string reason;
};
template <>
struct Wire<Resync> {
  static constexpr std::string_view type = "resync";
  static constexpr std::tuple fields{wire::field("reason", &Resync::reason)};
};

// A player's quick match, to each of their connections: when it starts (and on connecting while
// it waits), and when it ends: `seek` null, with the `game` it became, if it did.
struct Seeking {
  std::optional<Seek> seek;
  std::optional<GameId> game;
  std::int64_t waiting = 0;  // players waiting for a game of this size and speed, this one too
};
template <>
struct Wire<Seeking> {
  static constexpr std::string_view type = "seeking";
  static constexpr std::tuple fields{wire::field("seek", &Seeking::seek, wire::Empty::Null),
                                     wire::field("game", &Seeking::game, wire::Empty::Null),
                                     wire::field("waiting", &Seeking::waiting)};
};

// One game the player is playing (unfinished), as of the answer's instant: whose move it is
// (none during the nigiri and the counting), how many moves were played and the clocks.
struct MyGame {
  GameId game = 0;
  UserRef black;
  UserRef white;
  GameSettings settings;
  std::optional<Color> to_move{};
  bool your_move = false;  // to move, or to count (mark and accept) in the scoring phase
  int moves = 0;
  std::optional<ClockState> clock{};
};
template <>
struct Wire<MyGame> {
  static constexpr std::tuple fields{wire::field("game", &MyGame::game),
                                     wire::field("black", &MyGame::black),
                                     wire::field("white", &MyGame::white),
                                     wire::field("settings", &MyGame::settings),
                                     wire::field("to_move", &MyGame::to_move, wire::Empty::Null),
                                     wire::field("your_move", &MyGame::your_move),
                                     wire::field("moves", &MyGame::moves),
                                     wire::field("clock", &MyGame::clock, wire::Empty::Null)};
};
// The answer to my_games: the games waiting for the player's move first, the least time left
// first; then the others.
struct MyGames {
  std::vector<MyGame> games;
};
template <>
struct Wire<MyGames> {
  static constexpr std::string_view type = "my_games";
  static constexpr std::tuple fields{wire::field("games", &MyGames::games)};
};

// A line of a group's chat (docs/groups.md), as GET /api/v1/groups/{id}/chat lists it too.
struct GroupLine {
  std::int64_t id = 0;
  UserRef from;
  std::int64_t at_ms = 0;
  std::string text;                  // empty once deleted
  std::optional<bool> deleted = {};  // deleted by a group administrator or a moderator
};
template <>
struct Wire<GroupLine> {
  static constexpr std::tuple fields{
      wire::field("id", &GroupLine::id), wire::field("from", &GroupLine::from),
      wire::field("at_ms", &GroupLine::at_ms), wire::field("text", &GroupLine::text),
      wire::field("deleted", &GroupLine::deleted, wire::Empty::Omitted)};
};
// What changed in a group.
enum class GroupChange : std::uint8_t {
  Chat,
  ChatDeleted,
  Members,
  Settings,
  Closed,
  Deleted,
  Ladder
};
template <>
struct WireNames<GroupChange> {
  static constexpr std::array names{
      std::pair{std::string_view("chat"), GroupChange::Chat},
      std::pair{std::string_view("chat_deleted"), GroupChange::ChatDeleted},
      std::pair{std::string_view("members"), GroupChange::Members},
      std::pair{std::string_view("settings"), GroupChange::Settings},
      std::pair{std::string_view("closed"), GroupChange::Closed},
      std::pair{std::string_view("deleted"), GroupChange::Deleted},
      std::pair{std::string_view("ladder"), GroupChange::Ladder}};
  static constexpr GroupChange fallback = GroupChange::Settings;
};
// Told to the connections of a group's members (and of those who asked to join, for "members")
// when something changes there: a chat line said or deleted, someone joined, left, asked to join
// or changed role, the group's settings, one of its ladders (docs/groups.md, "Ladders"), the group
// closed or deleted by its owner. Not a room
// event, no seq: a page that missed one reads the group again.
struct GroupEvent {
  std::int64_t group = 0;
  std::string name;  // the group's name, for a notice
  GroupChange change = GroupChange::Settings;
  std::optional<GroupLine> line = {};  // chat, chat_deleted
};
template <>
struct Wire<GroupEvent> {
  static constexpr std::string_view type = "group";
  static constexpr std::tuple fields{
      wire::field("group", &GroupEvent::group), wire::field("name", &GroupEvent::name),
      wire::field("change", &GroupEvent::change), wire::field("line", &GroupEvent::line)};
};

using ServerMessage =
    std::variant<Error, Ack, Pong, Welcome, LobbySnapshot, ChallengeOpened, ChallengeClosed,
                 Presence, GameStarted, GameSnapshot, RoomEvent, TournamentChanged, ReviewSnapshot,
                 ReviewUpdate, ReviewFollowers, Seeking, Watching, MyGames, Service, Resync,
                 GroupEvent, RatingsChanged>;

}  // namespace tengen::protocol
