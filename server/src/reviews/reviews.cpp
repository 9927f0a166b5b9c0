#include "reviews/reviews.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace tengen {
namespace {

using protocol::ErrorCode;

protocol::Error error(const std::string& cid, ErrorCode code, std::string message) {
  return protocol::Error{cid, code, std::move(message), {}};
}

std::optional<protocol::ReviewId> review_of(const protocol::ClientMessage& m) {
  return std::visit(
      [](const auto& c) -> std::optional<protocol::ReviewId> {
        if constexpr (requires { c.review; }) {
          return c.review;
        } else {
          return std::nullopt;
        }
      },
      m);
}

protocol::http::Viewer viewer_of(const Recipient& who) {
  if (!who.user()) return {};
  return {who.user()->id, who.user()->is_admin};
}

}  // namespace

bool Reviews::is_review_command(const protocol::ClientMessage& m) {
  return review_of(m).has_value();
}

std::size_t Reviews::recover(store::GameStore& store, const FindUserById& find_user) {
  last_id_ = store.last_review_id();
  std::size_t rebuilt = 0;
  for (const auto& stored : store.open_reviews()) {
    const auto owner = find_user(stored.created.owner_id);
    if (!owner) {
      spdlog::error("review {}: its owner {} is not an account; left closed in memory",
                    stored.created.id, stored.created.owner_id);
      continue;
    }
    // A review that cannot be rebuilt stays in the store, untouched, and the others come back.
    try {
      auto room = ReviewRoom::recover(stored, *owner, limits_,
                                      private_players(store, stored.created.game_id));
      room->set_blocks(blocks_);
      open_[stored.created.id] = std::move(room);
      ++rebuilt;
    } catch (const std::exception& e) {
      spdlog::error("review {} not rebuilt: {}", stored.created.id, e.what());
    }
  }
  return rebuilt;
}

std::variant<protocol::ReviewId, Reviews::Refusal> Reviews::create(
    const protocol::http::ReviewRequest& request, std::int64_t at_ms,
    std::chrono::steady_clock::time_point now, Outbox& out) {
  const auto owned =
      static_cast<std::size_t>(std::count_if(open_.begin(), open_.end(), [&](const auto& r) {
        return r.second->owner().id == request.owner.id;
      }));
  if (owned >= limits_.max_open_per_owner) {
    return Refusal{409, "too_many_reviews",
                   "you have " + std::to_string(owned) +
                       " open reviews, the most one account may have: close one first"};
  }
  if (open_.size() >= limits_.max_open) {
    return Refusal{503, "server_full",
                   "this server holds " + std::to_string(open_.size()) +
                       " open reviews, all it may: try again once some are closed"};
  }
  if (!created_.try_take(std::to_string(request.owner.id), now)) {
    return Refusal{429, "rate_limited",
                   "you have opened many reviews in a short time: try again in a few minutes"};
  }
  const store::ReviewCreated row{last_id_ + 1, request.owner.id, request.title,
                                 request.game, request.sgf,      at_ms};
  std::unique_ptr<ReviewRoom> room;
  try {
    room = std::make_unique<ReviewRoom>(row, request.owner, limits_, request.players);
  } catch (const std::exception& e) {
    return Refusal{422, "bad_sgf", e.what()};
  }
  ++last_id_;
  out.writes.push_back(row);
  room->set_blocks(blocks_);
  open_[row.id] = std::move(room);
  return row.id;
}

Reviews::Reply Reviews::command(const std::shared_ptr<Recipient>& who, const std::string& cid,
                                const protocol::ClientMessage& m, std::int64_t now_ms,
                                Outbox& out) {
  const protocol::ReviewId id = review_of(m).value_or(0);
  const auto it = open_.find(id);
  // A private game's review does not exist for those who may not see it.
  if (it == open_.end() || !it->second->audience().may_see(viewer_of(*who))) {
    return error(cid, ErrorCode::NotFound,
                 "no open review " + std::to_string(id) + " (closed reviews stay downloadable)");
  }
  ReviewRoom& room = *it->second;
  Reply reply;
  if (std::holds_alternative<protocol::JoinReview>(m)) {
    reply = room.join(who, cid);
    auto& mine = joined_[who->id()];
    if (std::find(mine.begin(), mine.end(), id) == mine.end()) mine.push_back(id);
  } else if (std::holds_alternative<protocol::LeaveReview>(m)) {
    room.leave(who);
    std::erase(joined_[who->id()], id);
    reply = protocol::Ack{cid, {}, {}, {}, {}};
  } else if (!who->user()) {
    reply = error(cid, ErrorCode::NotAuthenticated,
                  std::holds_alternative<protocol::ReviewChat>(m) ? "sign in to chat"
                                                                  : "sign in to edit a review");
  } else if (std::holds_alternative<protocol::ReviewChat>(m) && !room.follows(who)) {
    reply = error(cid, ErrorCode::Forbidden, "follow the review (review_join) to chat in it");
  } else if (const auto* invite = std::get_if<protocol::ReviewInvite>(&m)) {
    const protocol::UserRef me{who->user()->id, who->user()->username};
    const auto user = find_user_ ? find_user_(invite->user) : std::nullopt;
    reply = user ? room.invite(me, cid, *user, invite->remove)
                 : error(cid, ErrorCode::NotFound, "no user named '" + invite->user + "'");
  } else {
    const protocol::UserRef me{who->user()->id, who->user()->username};
    reply = std::holds_alternative<protocol::CloseReview>(m) ? room.close(me, cid, now_ms)
                                                             : room.command(me, cid, m);
  }
  const bool changed = !std::holds_alternative<protocol::JoinReview>(m) &&
                       !std::holds_alternative<protocol::LeaveReview>(m) &&
                       std::holds_alternative<protocol::Ack>(reply);
  if (changed) room.touched(now_ms);
  room.drain_into(out);
  if (room.closed()) open_.erase(it);
  return reply;
}

void Reviews::disconnected(const std::shared_ptr<Recipient>& who, Outbox& out) {
  const auto it = joined_.find(who->id());
  if (it == joined_.end()) return;
  for (const protocol::ReviewId id : it->second) {
    if (const auto r = open_.find(id); r != open_.end()) {
      r->second->leave(who);
      r->second->drain_into(out);
    }
  }
  joined_.erase(it);
}

std::vector<protocol::http::ReviewSummary> Reviews::list(
    const protocol::http::Viewer& viewer) const {
  std::vector<protocol::http::ReviewSummary> out;
  out.reserve(open_.size());
  for (const auto& [id, room] : open_) {
    if (!room->audience().may_see(viewer)) continue;
    protocol::http::ReviewSummary s;
    s.id = id;
    s.title = room->title();
    s.owner = room->owner();
    s.controller = room->controller();
    s.game = room->game();
    s.width = room->width();
    s.height = room->height();
    s.nodes = static_cast<int>(room->nodes());
    s.followers = static_cast<int>(room->followers());
    s.created_at_ms = room->created_at_ms();
    s.is_private = room->audience().is_private();
    s.active_at_ms = room->active_at_ms();
    out.push_back(std::move(s));
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a.followers != b.followers ? a.followers > b.followers : a.id > b.id;
  });
  return out;
}

std::optional<std::string> Reviews::sgf(protocol::ReviewId id,
                                        const protocol::http::Viewer& viewer) const {
  const auto it = open_.find(id);
  if (it == open_.end() || !it->second->audience().may_see(viewer)) return std::nullopt;
  return it->second->sgf();
}

}  // namespace tengen
