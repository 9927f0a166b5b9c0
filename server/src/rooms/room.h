#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/game.h"
#include "protocol/messages.h"
#include "ws/connection.h"

namespace tengen {

// One game: the engine judges every move, the room is the only authority on state. Each event
// gets the next sequence number and is kept (the last kKeptEvents) so that a reconnecting
// client receives exactly what it missed. Not thread-safe: its owner serialises calls.
class Room {
 public:
  static constexpr std::size_t kKeptEvents = 1000;

  Room(protocol::GameId id, protocol::GameSettings settings, protocol::UserRef black, protocol::UserRef white);

  protocol::GameId id() const noexcept { return id_; }
  const protocol::UserRef& black() const noexcept { return black_; }
  const protocol::UserRef& white() const noexcept { return white_; }
  const protocol::GameSettings& settings() const noexcept { return settings_; }
  bool finished() const noexcept { return result_.has_value(); }

  // Every command answers with an ack (and the seq of the event it made) or an error.
  using Reply = std::variant<protocol::Ack, protocol::Error>;

  Reply join(const std::shared_ptr<Connection>& who, const std::string& cid, std::optional<protocol::Seq> since);
  void leave(const std::shared_ptr<Connection>& who);
  Reply play(std::int64_t user, const std::string& cid, const std::string& vertex);
  Reply pass(std::int64_t user, const std::string& cid);
  Reply resign(std::int64_t user, const std::string& cid);
  Reply request_undo(std::int64_t user, const std::string& cid);
  Reply answer_undo(std::int64_t user, const std::string& cid, bool accept);
  Reply chat(const protocol::UserRef& from, const std::string& cid, const std::string& text);

  protocol::GameSnapshot snapshot_for(const std::optional<store::UserRecord>& viewer) const;

 private:
  struct Event {
    protocol::Seq seq;
    bool spectators_only;  // spectators' chat: players see it once the game is over
    std::shared_ptr<const std::string> text;
  };

  std::optional<Color> color_of(std::int64_t user) const;
  protocol::Error error(const std::string& cid, protocol::ErrorCode code, std::string message) const;
  protocol::Ack publish(const std::string& cid, protocol::RoomEventBody body, bool spectators_only = false);
  std::optional<protocol::Error> check_turn(std::int64_t user, const std::string& cid) const;
  Reply apply(std::int64_t user, const std::string& cid, Point point);
  protocol::Ack finish(const std::string& cid, const std::string& result, const std::string& reason);
  bool sees(const std::shared_ptr<Connection>& who, const Event& e) const;
  std::string gtp(Point p) const { return game_ ? game_->board().geometry().to_gtp(p) : ""; }

  protocol::GameId id_;
  protocol::GameSettings settings_;
  protocol::UserRef black_;
  protocol::UserRef white_;
  Rules rules_;
  std::optional<Game> game_;             // absent while Black places free handicap stones
  std::vector<Point> free_stones_;       // placed so far
  std::optional<Color> undo_requested_by_;
  std::optional<std::string> result_;  // SGF form, once the game is over
  protocol::Seq seq_ = 0;
  std::deque<Event> events_;
  std::vector<protocol::ChatLine> chat_;
  std::set<std::shared_ptr<Connection>> members_;
};

}  // namespace tengen
