#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/http_api.h"
#include "protocol/messages.h"

namespace tengen {

namespace store {
class GameStore;
struct ClosedReview;
}  // namespace store

// Who may see a review (docs/reviews.md, "Private reviews"). A review of a private game is seen by
// that game's two players, by administrators and by whomever a player invites; every other review
// by anyone. What decides it is the game the review was made from (read from the store, so
// nothing new is stored for it) and the review's "invite" events, replayed like its other changes.
class ReviewAudience {
 public:
  static constexpr std::size_t kMaxInvited = 50;

  ReviewAudience() = default;  // public
  explicit ReviewAudience(std::vector<protocol::UserRef> players) : players_(std::move(players)) {}

  bool is_private() const noexcept { return !players_.empty(); }
  bool may_see(const protocol::http::Viewer& viewer) const;
  bool is_player(std::int64_t user) const;
  bool is_invited(std::int64_t user) const;
  const std::vector<protocol::UserRef>& players() const noexcept { return players_; }
  const std::vector<protocol::UserRef>& invited() const noexcept { return invited_; }

  // An "invite" event's record: {"user": {"id", "name"}, "remove": bool}.
  static std::string invite_record(const protocol::UserRef& user, bool remove);
  // Makes the invitation (or takes it back) that `record` describes: why not if it is unreadable.
  std::optional<std::string> apply_invite(const std::string& record);

 private:
  std::vector<protocol::UserRef> players_;
  std::vector<protocol::UserRef> invited_;
};

// The two players of `game` if it is a private game; none if it is public, or not a game.
std::vector<protocol::UserRef> private_players(store::GameStore& store,
                                               std::optional<std::int64_t> game);

// A closed review's audience, from what the store keeps of it.
ReviewAudience closed_review_audience(store::GameStore& store, const store::ClosedReview& review);

}  // namespace tengen
