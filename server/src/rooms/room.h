#pragma once

#include <array>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/dead_stones.h"
#include "engine/game.h"
#include "engine/scoring.h"
#include "protocol/messages.h"
#include "rooms/blocks.h"
#include "rooms/conditional.h"
#include "rooms/event_channel.h"
#include "rooms/game_clock.h"
#include "rooms/nigiri.h"
#include "rooms/outbox.h"
#include "rooms/recipient.h"
#include "rooms/refusals.h"
#include "rooms/room_options.h"
#include "rooms/room_records.h"
#include "store/game_store.h"

namespace tengen {

// The dead-stone suggestion a room needs when its scoring phase begins: the position and how to
// judge it. It takes 40–230 ms on 19×19 (docs/performance.md), so the room's owner runs it off
// its lock and brings the answer back with Room::suggested().
struct SuggestionJob {
  protocol::GameId game = 0;
  Board board;
  DeadStoneOptions options;
  int resumptions = 0;  // which scoring phase of the game it is for
};

// How the server saw a move arrive, for lag compensation.
struct MoveTiming {
  Steady now;
  std::optional<std::int64_t> think_ms;  // the client's own report
  std::optional<std::int64_t> rtt_ms;    // the connection's last measured round trip
};

// One game: the engine judges every move, the room is the only authority on state, and its
// clock the only authority on time. Each event gets the next sequence number and is kept (the
// last kKeptEvents) so that a reconnecting client receives exactly what it missed. Not
// thread-safe: its owner serialises calls, and calls tick() at next_deadline().
//
// The room sends nothing itself: every event becomes a row to store (with a record from which
// recover() rebuilds the state) and messages to send, collected until the owner takes them with
// drain_into() and hands them to the journal, which sends once the rows are durable.
//
// Its parts: room.cpp decides (each command checked, judged once, turned into a record), then
// room_apply.cpp makes the change (apply(), the same for live play and recovery, returning what
// it did); its EventChannel numbers, keeps and fans out the events; room_view.cpp and
// room_sgf.cpp show it; room_scoring.cpp, room_chat.cpp and room_conditional.cpp are its
// scoring phase, chat and conditional moves.
class Room {
 public:
  // What a room keeps and sends is bounded so that a snapshot and a resumption fit well within
  // the 1 MiB a connection may have queued, whatever players and spectators did
  // (tests/server/abuse_test.cpp): the events kept for resumption (by count and by size), the
  // chat lines kept for snapshots, the part of a snapshot given to chat (and the moves of a game:
  // RoomOptions::max_moves).
  static constexpr std::size_t kKeptEvents = 1000;
  static constexpr std::size_t kKeptEventBytes = std::size_t{512} * 1024;
  static constexpr std::size_t kKeptChatLines = 200;  // each channel's newest
  static constexpr std::size_t kSnapshotChatBytes = std::size_t{256} * 1024;

  // With a nigiri, `first` holds and `second` guesses, and colours are drawn; without,
  // `first` is Black and `second` White.
  Room(protocol::GameId id, protocol::GameSettings settings, protocol::UserRef first,
       protocol::UserRef second, std::optional<Nigiri> nigiri, Steady now,
       RoomOptions options = {});

  // Rebuilds a room from its stored events, as of `now`: the clocks resume with what each player
  // had when the last turn began (the downtime, and the part of the interrupted turn before it,
  // are not charged), the start and scoring timeouts start again, and both players count as
  // absent until they rejoin.
  static std::unique_ptr<Room> recover(const store::StoredGame& stored,
                                       protocol::GameSettings settings, protocol::UserRef first,
                                       protocol::UserRef second, Steady now,
                                       RoomOptions options = {});

  // What the calls since the last drain produced, appended to `into`.
  void drain_into(Outbox& into) { pending_.drain_into(into); }

  protocol::GameId id() const noexcept { return id_; }
  const protocol::UserRef& black() const noexcept { return black_; }
  const protocol::UserRef& white() const noexcept { return white_; }
  // Whether `user` plays in this game (either colour, any member of a pair Go team), and every
  // one who does: the two players, or the teams' members (docs/events.md, "Pair Go").
  bool plays(std::int64_t user) const { return is_player(user); }
  std::vector<std::int64_t> players() const;
  const protocol::GameSettings& settings() const noexcept { return settings_; }
  const Rules& rules() const noexcept { return rules_; }  // with the game's komi
  bool finished() const noexcept { return result_.has_value(); }
  // Moves played so far (passes included), for noticing that one was made.
  int moves_played() const noexcept;
  bool watched() const noexcept { return !channel_.empty(); }
  const std::optional<Result>& result() const noexcept { return result_; }
  const std::optional<NigiriProof>& nigiri_proof() const noexcept { return proof_; }

  // Every command answers with an ack (and the seq of the event it made) or an error.
  using Reply = std::variant<protocol::Ack, protocol::Error>;

  Reply join(const std::shared_ptr<Recipient>& who, const std::string& cid,
             std::optional<protocol::Seq> since, Steady now);
  void leave(const std::shared_ptr<Recipient>& who, Steady now);
  Reply play(std::int64_t user, const std::string& cid, const std::string& vertex,
             const MoveTiming& timing);
  Reply pass(std::int64_t user, const std::string& cid, const MoveTiming& timing);
  Reply resign(std::int64_t user, const std::string& cid, Steady now);
  Reply request_undo(std::int64_t user, const std::string& cid);
  Reply answer_undo(std::int64_t user, const std::string& cid, bool accept, Steady now);
  // `at_ms`: when (Unix ms), shown with the line and kept with it.
  // `team`: a pair Go game's player writes to their own team only.
  Reply chat(const protocol::UserRef& from, const std::string& cid, const std::string& text,
             std::int64_t at_ms = 0, bool team = false);
  Reply choose_nigiri(std::int64_t user, const std::string& cid, const std::string& seed,
                      const std::optional<std::string>& guess, Steady now);
  Reply abort(std::int64_t user, const std::string& cid, Steady now);
  Reply claim_win(std::int64_t user, const std::string& cid, Steady now);
  Reply mark(std::int64_t user, const std::string& cid, const std::string& vertex, bool dead);
  Reply accept_score(std::int64_t user, const std::string& cid, std::uint64_t version, Steady now);
  Reply resume(std::int64_t user, const std::string& cid, Steady now);
  // Conditional moves (docs/correspondence.md): the player's replies to their opponent's expected
  // moves, in a correspondence game during the opponent's turn; none clears them.
  Reply set_conditional_moves(std::int64_t user, const std::string& cid,
                              const std::vector<std::string>& lines);

  // When play stops, the scoring phase waits for its dead-stone suggestion: this hands it out
  // once (nullopt otherwise), and suggested() brings the answer back, which starts the phase
  // (scoring_started), unless the phase it was for is over. Meanwhile the snapshot's marking is
  // null and mark and accept_score are refused.
  // The players who came back to a live game since the last call, after their absence was told
  // to the other (player_left): the other, away from the board, may want to be told
  // (lobby/player_notice.h). Not after a restart, when both count as absent until they rejoin.
  std::vector<Color> take_returned() { return std::exchange(returned_, {}); }
  std::optional<SuggestionJob> take_suggestion_job();
  void suggested(const SuggestionJob& job, const std::vector<Point>& dead);

  // Ends the game if a deadline has passed: a flag, a first move never made, the scoring phase
  // timing out. Call it before any command and when next_deadline() comes.
  void tick(Steady now);
  std::optional<Steady> next_deadline() const;

  // Ends the game from outside with this result (a director's adjudication, a withdrawal);
  // nothing if it is over already.
  void adjudicate(const Result& result, protocol::EndReason reason, Steady now);

  protocol::GameSnapshot snapshot_for(const std::optional<store::UserRecord>& viewer,
                                      Steady now) const;
  // The game in the list of a player's games (my_games), as of `now`.
  protocol::MyGame my_game(std::int64_t user, Steady now) const;

  // An administrator annuls the game (docs/moderation.md): void from now on, in play or finished
  // (a finished game keeps when it ended; its rating change is undone by the ratings' recompute).
  // The error if it is void already.
  std::optional<protocol::Error> annul(Steady now);

  // An administrator deletes a chat line (docs/moderation.md): its words go from the snapshots
  // and the kept events, and everyone in the room is told; stored, so a restart keeps it deleted.
  // The line's author, or the error if the room shows no such line.
  std::variant<protocol::UserRef, protocol::Error> delete_chat(protocol::Seq line);

  // Who blocks whom (the centre's): a blocked player's chat lines are not sent to those who block
  // them, nor in their snapshots. None: every line goes to everyone who may read it.
  void set_blocks(const Blocks* blocks) { blocks_ = blocks; }

  // A correspondence game's time off (the players' weekends; docs/correspondence.md), which its
  // clock does not count; the room keeps it. Give it before the first tick.
  const RoomOptions& options() const { return options_; }
  void set_time_off(std::unique_ptr<TimeOffSource> source) {
    time_off_ = std::move(source);
    clock_.set_time_off(time_off_.get());
  }
  bool correspondence() const noexcept {
    return settings_.time.system == protocol::TimeControl::System::Correspondence;
  }

  // The game as an SGF record: players, rules, result, and the nigiri's proof in GC[].
  std::string sgf() const;

 private:
  enum class Stage : std::uint8_t { Nigiri, Playing, Scoring, Over };

  bool is_player(std::int64_t user) const;
  std::optional<Color> color_of(std::int64_t user) const;
  // A pair Go game's team of colour `c` (none in an ordinary game), and the member whose move
  // it is when it is that colour's turn: members play in the order listed, the colour's moves
  // (passes included) counted so far choosing which.
  const std::vector<protocol::TeamMember>* team(Color c) const;
  std::optional<protocol::TeamMember> member_to_move(Color c) const;
  // Whether someone of colour `c` (its player, or any member of its team) is in the room.
  bool colour_present(Color c) const;
  Stage stage() const;
  // Refusal `why` of command `cid` (rooms/refusals.h has every code and its words).
  protocol::Error refuse(Refused why, const std::string& cid,
                         std::initializer_list<std::string_view> parts = {}) const {
    return refusal(why, cid, id_, parts);
  }
  // `record` is what recover() needs to redo the event (rooms/room_records.h); none when it
  // changes no state.
  protocol::Ack publish(const std::string& cid, protocol::RoomEventBody body,
                        const std::optional<records::Record>& record = std::nullopt,
                        bool spectators_only = false);
  // What applying a record did that its event tells: the stones a move removed, the moves an
  // undo took back.
  struct Applied {
    std::vector<Point> removed;
    int taken_back = 0;
  };
  // Makes the change the record describes, judged already: live, by the command that made it,
  // before its event is published; on recovery by judge_stored() first, event by event (`seq`:
  // the event's number, `kind` its stored kind, for errors).
  Applied apply(const records::Record& record, protocol::Seq seq = 0, const char* kind = nullptr);
  // A stored record's move judged by the rules before it is applied: a corrupt file (a move that
  // is not legal there) throws, and recovery stops rather than invent a game.
  void judge_stored(const records::Record& record, protocol::Seq seq, const char* kind) const;
  void place_free_stone(Point p);
  int take_back(Color requester);
  void draw_colours();
  std::optional<protocol::Error> check_player(std::int64_t user, const std::string& cid) const;
  std::optional<protocol::Error> check_turn(std::int64_t user, const std::string& cid) const;
  Reply play_move(std::int64_t user, const std::string& cid, Point point, const MoveTiming& timing);
  protocol::Ack finish(const std::string& cid, const Result& result, protocol::EndReason reason,
                       Steady now, std::optional<protocol::ScoreView> score = std::nullopt);
  protocol::Ack finish_tromp_taylor(const std::string& cid, protocol::EndReason reason, Steady now);
  void start_turn(Steady now);
  void announce_countdown();
  void start_scoring(Steady now);
  protocol::Marking marking() const;
  protocol::ScoreView score_view(const Score& score) const;
  std::optional<protocol::ClockState> clock_state(Steady now) const;
  std::optional<Steady> claim_at(Color leaver) const;
  std::optional<Steady> first_move_deadline() const;
  bool both_moved() const { return moved_[1] && moved_[2]; }
  // Whether `who` may receive an event meant for `audience` (the channel's fan-out).
  bool sees(const std::shared_ptr<Recipient>& who, const EventAudience& audience) const;
  void keep_chat(const protocol::ChatLine& line);
  // The line's author; none if no such line is kept (or it is gone already).
  std::optional<protocol::UserRef> erase_chat(protocol::Seq line);
  // The newest chat lines this viewer may read that fit kSnapshotChatBytes, oldest first, and how
  // many earlier ones it may read but does not get.
  std::pair<std::vector<protocol::ChatLine>, std::int64_t> chat_for(
      bool all_channels, std::optional<std::int64_t> viewer) const;
  protocol::NigiriState nigiri_state() const;
  std::string gtp(Point p) const { return game_ ? game_->board().geometry().to_gtp(p) : ""; }
  // After `mover` played `point`: the opponent's conditional moves answer it (the reply played
  // at once, the rest kept) or, not expecting it, are dropped.
  void follow_conditional(Color mover, Point point, Steady now);
  // Keeps `tree` as `owner`'s conditional moves and tells them (stored, for them only).
  void keep_conditional(Color owner, const ConditionalTree& tree, const std::string& cid = "");
  void drop_conditionals();  // both players', when an undo or a resumption changes the course

  protocol::GameId id_;
  const Blocks* blocks_ = nullptr;
  protocol::GameSettings settings_;
  protocol::UserRef black_;
  protocol::UserRef white_;
  RoomOptions options_;
  Rules rules_;
  std::unique_ptr<TimeOffSource> time_off_;  // before the clock, which points to it
  GameClock clock_;
  std::optional<Game> game_;  // absent while Black places free handicap stones
  std::vector<PlayerTime>
      clock_after_;                 // the mover's clock after each of game_'s moves (timed games)
  std::vector<Point> free_stones_;  // placed so far
  std::optional<Color> undo_requested_by_;
  std::array<ConditionalTree, 3> conditional_{};  // indexed by index_of(Color)
  std::optional<Result> result_;                  // once the game is over
  std::optional<protocol::ScoreView> final_score_;

  // Nigiri: the commitment until both players chose, then the proof.
  std::optional<Nigiri> nigiri_;
  std::optional<std::string> holder_seed_, guesser_seed_, guess_;
  std::optional<NigiriProof> proof_;

  // Timing: when the current turn (or phase) began, and whether each colour has moved.
  Steady turn_start_;
  std::array<bool, 3> moved_{};

  // Scoring phase.
  Steady scoring_start_{};
  std::set<Point> dead_;
  std::uint64_t marking_version_ = 0;
  std::array<std::optional<std::uint64_t>, 3> accepted_{};
  int resumptions_ = 0;
  bool suggestion_pending_ = false;     // play stopped; scoring_started waits for the suggestion
  bool suggestion_dispatched_ = false;  // take_suggestion_job() handed it out

  // Players who left the room while the game went on, and since when.
  std::array<std::optional<Steady>, 3> absent_since_{};
  std::array<bool, 3> left_told_{};  // their leaving was told (a live game, not a restart)
  std::vector<Color> returned_;      // take_returned()

  // Members, event numbers, the events kept for resumption, the fan-out.
  EventChannel channel_{kKeptEvents, kKeptEventBytes};

  // Chat: each channel's newest lines (players', spectators'), with their encoded size; how many
  // lines each channel and each person ever posted in this game.
  struct KeptLine {
    protocol::ChatLine line;
    std::size_t bytes;
  };
  // Indexed by chat_index(): players', spectators', then Black's and White's team chat.
  std::array<std::deque<KeptLine>, 4> chat_;
  std::array<int, 4> chat_lines_{};
  std::size_t chat_index(const protocol::ChatLine& line) const;
  std::map<std::int64_t, int> chat_by_;
  // Spectators: signed-in users (once each, however many pages) and guests' pages.
  std::int64_t watching() const;
  void tell_watching();  // to the players, when the count changed
  std::int64_t watching_told_ = 0;
  Outbox pending_;
};

}  // namespace tengen
