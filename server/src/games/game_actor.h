#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <variant>
#include <vector>

#include "games/actor_pool.h"
#include "lobby/player_notice.h"
#include "moderation/game_actions.h"
#include "rooms/outbox.h"
#include "rooms/room.h"

namespace tengen::games {

using Reply = std::variant<protocol::Ack, protocol::Error>;

// What a game's actor is told (docs/architecture.md, "Owners"). Each is handled on the actor's
// mailbox, one at a time, and ends with what it produced submitted to the journal.

// A client's command to the game: join, leave, or one of the room's (a move, chat, an undo…).
// `answered` is called once, after the reply is in `out` and before the submission, with the
// reply (it stamps the events with the command's author and counts it); `submitted` after the
// submission (the command's claim ends, its connection's next command may run).
struct Command {
  std::shared_ptr<Recipient> who;
  std::optional<std::int64_t> rtt_ms;  // the connection's last round trip, for lag compensation
  std::string cid;
  protocol::ClientMessage message;
  std::function<void(Outbox& out, const Reply& reply)> answered;
  std::function<void(const Reply& reply)> submitted;
};
// A deadline the timer delivered, or a player's calendar that changed (the flags move).
struct Tick {};
// The dead stones the worker suggested, off the actor's thread.
struct Suggested {
  SuggestionJob job;
  std::vector<Point> dead;
};
// The game's tournament ended it (a withdrawal, an adjudicated round).
struct Adjudicate {
  Result result;
  protocol::EndReason reason = protocol::EndReason::Adjudication;
};
// A connection that had joined went away.
struct Leave {
  std::shared_ptr<Recipient> who;
};
// An administrator's action (docs/moderation.md); `done` has the outcome once it is submitted.
struct Moderate {
  protocol::http::GameAction action;
  std::function<void(moderation::GameActionOutcome)> done;
};
// A look at the room without changing it (its record, a player's list of games); the room is
// null when the game does not exist (or is no longer in memory, for `in_memory_only` posts).
struct Read {
  std::function<void(const Room* room)> look;
};
using Input = std::variant<Command, Tick, Suggested, Adjudicate, Leave, Moderate, Read>;

class GameActor;

// What a game needs from the server around it; called from the actor's mailbox.
class GameHost {
 public:
  virtual ~GameHost() = default;
  virtual Steady steady_now() = 0;
  virtual std::int64_t unix_ms() = 0;
  // The journal takes what an input produced.
  virtual void commit(Outbox& out) = 0;
  // The same for an input that ended the game: "game over" goes to the ratings' owner (a rated
  // game's ratings) and the lobby (a tournament game's result), and what they add is submitted
  // with the game's end, in one submission; then `then` is called (from another thread). The
  // room is read now, on the actor's thread.
  virtual void commit_ended(Outbox out, const Room& room, std::function<void()> then) = 0;
  virtual void notify(const PlayerNotice& notice) = 0;
  virtual void arm(protocol::GameId game, std::optional<Steady> when) = 0;
  // Hands a dead-stone suggestion to the worker, whose answer comes back as Suggested; without a
  // worker, computes it at once.
  virtual void suggest(SuggestionJob job) = 0;
  // One rate for each account's chat in games and reviews alike: the refusal, or nothing.
  virtual std::optional<protocol::Error> too_much_chat(std::int64_t user, const std::string& cid,
                                                       Steady now) = 0;
  // The game is over and nobody watches: it may leave memory (GameDirectory).
  virtual void done_with(GameActor& actor) = 0;
  // An input that reached the actor after it left memory: delivered again through the
  // directory, which brings the game back.
  virtual void redeliver(protocol::GameId game, Input input) = 0;
};

// One game's owner: its room, the epoch it is owned under, what its players were last told, and
// the mailbox everything done to it goes through (docs/architecture.md, "Owners"). Nothing else
// touches the room. A game read back from the store starts Loading: its inputs wait until the
// room arrives (loaded) or the store says there is no such game (missing).
class GameActor : public std::enable_shared_from_this<GameActor> {
 public:
  GameActor(protocol::GameId id, GameHost& host, std::unique_ptr<Mailbox> mailbox);
  GameActor(const GameActor&) = delete;
  GameActor& operator=(const GameActor&) = delete;

  protocol::GameId id() const { return id_; }
  // Whether the game is over, as of the last input handled (read from any thread: the gauges).
  bool finished() const { return finished_.load(); }
  // Whether its room has arrived (read back, or new): what it was rebuilt from is known.
  bool started() const { return started_.load(); }

  // Hands the actor an input; safe from any thread (run at once on it if the actor is idle).
  void post(Input input);
  // The room has arrived (a new game's, a stored one's): queued inputs are handled now.
  // `told_moves` is what its players were told (-1 for a new game: its first move is news);
  void start(std::unique_ptr<Room> room, std::int64_t epoch, int told_moves);
  // No such game (or another node's): every queued input is answered so.
  void missing();

 private:
  // Loading: its room is being read back. Ending: the input that ended the game is with the
  // ratings' owner and the lobby, to be submitted with what they add. Inputs wait in both.
  enum class State : std::uint8_t { Loading, Running, Ending, Missing, Gone };

  void receive(Input input);
  std::function<void()> handle(Input& input, Outbox& out);
  Reply command(Command& c);
  Reply room_command(const protocol::UserRef& user, Command& c, Steady now);
  // Every input ends here: the suggestion dispatched, the deadline armed again, the players of a
  // correspondence game told, the rows fenced, the lot submitted; then (settle) `after` run, and
  // the game may leave memory.
  void finish(Outbox& out, std::function<void()> after = {});
  void settle(const std::function<void()>& after);
  void handle_waiting();  // the inputs that waited while it was Loading or Ending
  void notify_players(const Outbox& out);
  void fence(Outbox& out) const;
  void refuse(Input& input);
  // Answers an input whose handling threw (a command is told why; others are dropped).
  void fail(Input& input, bool unreachable);

  const protocol::GameId id_;
  GameHost& host_;
  std::unique_ptr<Mailbox> mailbox_;
  // On the mailbox only:
  State state_ = State::Loading;
  std::unique_ptr<Room> room_;
  std::int64_t epoch_ = 0;
  int told_moves_ = 0;
  std::vector<Input> waiting_;        // while Loading
  std::atomic<bool> finished_{true};  // until its room arrives
  std::atomic<bool> started_{false};
};

}  // namespace tengen::games
