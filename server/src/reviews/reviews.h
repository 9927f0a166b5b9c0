#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "accounts/rate_limiter.h"
#include "protocol/http_api.h"
#include "protocol/relay_api.h"
#include "reviews/review_room.h"

namespace tengen {

// Every open review of this server (docs/reviews.md): made over HTTP (create), followed and edited
// over the WebSocket (command), all kept in memory until their owners close them, and rebuilt
// from the store at start (recover). Not thread-safe: its owner (review_owner.h) touches it on one
// mailbox (a review's change is a replay of one line of play, microseconds: docs/performance.md).
class Reviews {
 public:
  // `find_user`: an account by name (whom a player invites to a private review).
  using FindUserByName = std::function<std::optional<protocol::UserRef>(const std::string& name)>;
  // `blocks`: who is kept from whose chat lines (rooms/blocks.h); none: nobody.
  explicit Reviews(ReviewLimits limits = {}, FindUserByName find_user = {},
                   const Blocks* blocks = nullptr)
      : limits_(limits), find_user_(std::move(find_user)), blocks_(blocks) {}

  const ReviewLimits& limits() const noexcept { return limits_; }

  // At start: the open reviews and the ids given so far. Returns how many it rebuilt.
  using FindUserById = std::function<std::optional<protocol::UserRef>(std::int64_t id)>;
  std::size_t recover(store::GameStore& store, const FindUserById& find_user);

  // A new review of `request.owner` from `request.sgf` (already read and judged playable by the
  // caller): its row in `out`, or why not (a status and the message for the HTTP answer).
  struct Refusal {
    int status = 409;
    std::string code;
    std::string message;
  };
  std::variant<protocol::ReviewId, Refusal> create(const protocol::http::ReviewRequest& request,
                                                   std::int64_t at_ms,
                                                   std::chrono::steady_clock::time_point now,
                                                   Outbox& out);

  using Reply = ReviewRoom::Reply;
  // A review command (JoinReview ... CloseReview) from `who`; what it produced in `out`.
  Reply command(const std::shared_ptr<Recipient>& who, const std::string& cid,
                const protocol::ClientMessage& m, std::int64_t now_ms, Outbox& out);
  void disconnected(const std::shared_ptr<Recipient>& who, Outbox& out);

  // GET /api/v1/reviews: the open reviews `viewer` may see, most followed first.
  std::vector<protocol::http::ReviewSummary> list(const protocol::http::Viewer& viewer) const;
  // An open review's whole tree; nullopt if no such review is open, or `viewer` may not see it
  // (a private game's review does not exist for them).
  std::optional<std::string> sgf(protocol::ReviewId id, const protocol::http::Viewer& viewer) const;

  // A relay's two boards (docs/events.md, "Relays"): made, a move added or taken back on both,
  // closed. A status and the body of the HTTP answer (protocol/relay_api.h, RelayOp).
  std::pair<int, std::string> relay(protocol::http::RelayOp op, std::int64_t at_ms, Outbox& out);

  static bool is_review_command(const protocol::ClientMessage& m);

 private:
  ReviewLimits limits_;
  FindUserByName find_user_;
  const Blocks* blocks_ = nullptr;
  RateLimiter created_{limits_.create_burst, limits_.create_refill};  // by owner id
  protocol::ReviewId last_id_ = 0;
  // An open relay board of `director` with this role; nullptr if there is none.
  ReviewRoom* relay_room(protocol::ReviewId id, ReviewRoom::RelayRole role, std::int64_t director);
  std::map<protocol::ReviewId, std::unique_ptr<ReviewRoom>> open_;
  std::map<std::uint64_t, std::vector<protocol::ReviewId>> joined_;  // by connection id
};

}  // namespace tengen
