#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "engine/review.h"
#include "protocol/messages.h"
#include "reviews/review_audience.h"
#include "rooms/blocks.h"
#include "rooms/event_channel.h"
#include "rooms/outbox.h"
#include "rooms/recipient.h"
#include "store/game_store.h"

namespace tengen {

// What one review may hold (docs/limits.md): its snapshot must fit well within the 1 MiB a
// connection may have queued, and its replay at start stay short.
struct ReviewLimits {
  std::size_t max_nodes = 5000;                     // in its tree, cut-off lines included
  std::size_t max_bytes = std::size_t{512} * 1024;  // its snapshot's size, roughly
  std::size_t max_events = 20000;
  int chat_lines_per_person = 300;  // in one review's chat
  int chat_lines = 2000;  // in one review's chat, everyone's                   // changes stored
                          // (each replayed at start)
  std::size_t max_open_per_owner = 5;  // open reviews of one account
  std::size_t max_open = 2000;         // open reviews on the server
  // Reviews one account may open: this many at once, then one more each create_refill.
  int create_burst = 10;
  std::chrono::milliseconds create_refill{std::chrono::minutes(10)};
};

// One review or demonstration board (docs/reviews.md): a ReviewTree that its controller (the
// owner, or whoever the owner handed control to) edits and everyone in it follows. Each change
// gets the next sequence number, is stored as a small JSON record (replayed by recover()) and
// sent to every follower once stored, like a game room's events. Not thread-safe: its owner
// (Reviews) serialises calls.
class ReviewRoom {
 public:
  using Reply = std::variant<protocol::Ack, protocol::Error>;

  // `sgf`: the tree it starts from, as stored (ReviewCreated::sgf). Throws SgfError if that
  // cannot be read or played. `players`: a private game's two players (none: a public review).
  ReviewRoom(const store::ReviewCreated& created, protocol::UserRef owner, ReviewLimits limits,
             std::vector<protocol::UserRef> players = {});
  // Replays the stored events onto the tree (std::runtime_error naming a bad event).
  static std::unique_ptr<ReviewRoom> recover(const store::StoredReview& stored,
                                             protocol::UserRef owner, ReviewLimits limits,
                                             std::vector<protocol::UserRef> players = {});

  protocol::ReviewId id() const noexcept { return id_; }
  const protocol::UserRef& owner() const noexcept { return owner_; }
  // Who blocks whom (and the protected students of classes, docs/classes.md): a follower is not
  // sent the chat lines of those they are kept apart from. None: everyone reads every line.
  void set_blocks(const Blocks* blocks) noexcept { blocks_ = blocks; }
  const protocol::UserRef& controller() const noexcept { return controller_; }
  const std::string& title() const noexcept { return title_; }
  std::optional<std::int64_t> game() const noexcept { return game_; }
  std::int64_t created_at_ms() const noexcept { return created_at_ms_; }
  // When it last changed (made, or a move, mark, comment, chat line...): a quiet one is not news.
  std::int64_t active_at_ms() const noexcept { return active_at_ms_; }
  void touched(std::int64_t at_ms) noexcept { active_at_ms_ = std::max(active_at_ms_, at_ms); }
  bool closed() const noexcept { return closed_; }
  const ReviewAudience& audience() const noexcept { return audience_; }
  std::size_t followers() const noexcept { return channel_.size(); }
  bool follows(const std::shared_ptr<Recipient>& who) const { return channel_.contains(who); }
  std::size_t nodes() const { return review_.tree().reachable(); }
  int width() const noexcept { return review_.tree().record.width; }
  int height() const noexcept { return review_.tree().record.height; }
  std::string sgf() const { return write_sgf(review_.tree()); }

  // A relay of a game played over the board (docs/events.md, "Relays") has two boards: the game
  // itself, which only its director's moves change (Board), and a commentary room, an ordinary
  // review that follows the game's line as it grows (Commentary).
  enum class RelayRole : std::uint8_t { None, Board, Commentary };
  static constexpr const char* kRelayBoardWords =
      "this board relays a game played over the board: only its director's moves change it; talk "
      "and try variations in its commentary room";
  RelayRole relay_role() const noexcept { return relay_role_; }
  // A new room becomes a relay's board or commentary room (its first stored change).
  Reply set_relay_role(RelayRole role);
  // The relay's moves so far, and move `number`'s node (1 for the first; -1 if none).
  int relay_moves() const noexcept { return static_cast<int>(relay_line_.size()); }
  int relay_node(int number) const {
    return number >= 1 && number <= relay_moves()
               ? relay_line_[static_cast<std::size_t>(number - 1)]
               : -1;
  }
  // The relay's move `number` (relay_moves() + 1) is `vertex` ("D4", "pass"), for whoever is to
  // move after the relay's line: on
  // the board, added at the end of the line; in the commentary room, added to the relay's line
  // (or found there among the variations), the current node following it if it stood at the
  // line's end (a commentator looking at a variation stays there).
  Reply relay_play(const protocol::UserRef& by, int number, const std::string& vertex);
  // Move `number` as entered ("D4", "pass"); empty if there is none.
  std::string relay_vertex(int number) const {
    const int node = relay_node(number);
    return node < 0 ? std::string() : node_view(node).vertex;
  }
  // The relay's last move (`number` == relay_moves()) was entered by mistake: the board loses
  // it; the commentary room too, unless someone commented, marked or played on from it (then it
  // stays as a variation).
  Reply relay_take_back(const protocol::UserRef& by, int number);
  // The relay closes its board (and, when it ends, its commentary room): by its director.
  Reply close_relay(const protocol::UserRef& by, std::int64_t at_ms);

  Reply join(const std::shared_ptr<Recipient>& who, const std::string& cid);
  // Without a reply: also when the connection goes.
  void leave(const std::shared_ptr<Recipient>& who);
  Reply command(const protocol::UserRef& by, const std::string& cid,
                const protocol::ClientMessage& m);
  // A player of a private review's game invites `user` (or takes it back: `remove`); one taken
  // back stops following it.
  Reply invite(const protocol::UserRef& by, const std::string& cid, const protocol::UserRef& user,
               bool remove);
  // The owner ends it; `at_ms` stamps the stored row.
  Reply close(const protocol::UserRef& by, const std::string& cid, std::int64_t at_ms);

  void drain_into(Outbox& into) { pending_.drain_into(into); }

 private:
  // A change is stored as its kind (play, goto, mark, comment, delete, control) and a JSON record
  // of its arguments; the live command and the replay at start both go through apply().
  Reply apply_and_publish(const protocol::UserRef& by, const std::string& cid,
                          const std::string& kind, const std::string& record);
  // Makes the change the record describes: an error message if it cannot (nothing changed).
  std::optional<std::pair<protocol::ErrorCode, std::string>> apply(const std::string& kind,
                                                                   const std::string& record,
                                                                   protocol::ReviewUpdate& update);
  protocol::Error error(const std::string& cid, protocol::ErrorCode code, std::string text) const;
  Reply close_now(const protocol::UserRef& by, const std::string& cid, std::int64_t at_ms);
  std::optional<std::pair<protocol::ErrorCode, std::string>> apply_relay(
      const nlohmann::json& record, protocol::ReviewUpdate& update);
  protocol::ReviewNode node_view(int node) const;
  protocol::PositionView current_position() const;
  // As `viewer` sees it (the chat without lines of those they are kept apart from).
  protocol::ReviewSnapshot snapshot(std::optional<std::int64_t> viewer) const;
  // Whether `viewer` is kept from `author`'s chat lines (rooms/blocks.h).
  bool apart(std::optional<std::int64_t> viewer, std::int64_t author) const {
    return blocks_ && viewer && *viewer != author && blocks_->blocks(*viewer, author);
  }
  protocol::ReviewFollowers followers_view() const;
  void broadcast(const protocol::ServerMessage& m) { channel_.broadcast(m, pending_); }
  std::size_t bytes_of(int node) const;  // its share of the snapshot, roughly
  std::size_t tree_bytes() const;
  std::string gtp(Point p) const { return review_.tree().record.geometry().to_gtp(p); }

  protocol::ReviewId id_;
  protocol::UserRef owner_;
  protocol::UserRef controller_;
  std::string title_;
  std::optional<std::int64_t> game_;
  ReviewAudience audience_;
  std::int64_t created_at_ms_;
  std::int64_t active_at_ms_;
  ReviewLimits limits_;
  ReviewTree review_;
  std::size_t bytes_ = 0;
  bool closed_ = false;
  RelayRole relay_role_ = RelayRole::None;
  std::vector<int> relay_line_;  // a relay's moves, as nodes of the tree
  // Followers and change numbers; a follower who comes back gets a snapshot (nothing is kept).
  EventChannel channel_{0, 0};
  // Chat: the newest kKeptChatLines for snapshots; how many lines in all and by each person.
  static constexpr std::size_t kKeptChatLines = 100;
  static constexpr std::size_t kSnapshotChatBytes = std::size_t{128} * 1024;
  std::deque<protocol::ReviewChatLine> chat_;
  int chat_lines_ = 0;
  std::map<std::int64_t, int> chat_by_;
  Outbox pending_;
  const Blocks* blocks_ = nullptr;
};

}  // namespace tengen
