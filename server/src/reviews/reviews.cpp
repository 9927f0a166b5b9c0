#include "reviews/reviews.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <nlohmann/json.hpp>

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
  // A relay's boards count among the server's, not among their director's (relays have their own
  // bound: docs/events.md).
  const auto owned =
      static_cast<std::size_t>(std::count_if(open_.begin(), open_.end(), [&](const auto& r) {
        return r.second->owner().id == request.owner.id &&
               r.second->relay_role() == ReviewRoom::RelayRole::None;
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
  } else if (room.relay_role() == ReviewRoom::RelayRole::Board) {
    reply = error(cid, ErrorCode::Forbidden, ReviewRoom::kRelayBoardWords);
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
    // A relay's boards are listed with the relays (GET /api/v1/relays).
    if (!room->audience().may_see(viewer) || room->relay_role() != ReviewRoom::RelayRole::None)
      continue;
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

ReviewRoom* Reviews::relay_room(protocol::ReviewId id, ReviewRoom::RelayRole role,
                                std::int64_t director) {
  const auto it = open_.find(id);
  if (it == open_.end() || it->second->relay_role() != role || it->second->owner().id != director)
    return nullptr;
  return it->second.get();
}

std::pair<int, std::string> Reviews::relay(protocol::http::RelayOp op, std::int64_t at_ms,
                                           Outbox& out) {
  using Kind = protocol::http::RelayOp::Kind;
  using Role = ReviewRoom::RelayRole;
  using nlohmann::json;
  const auto refused = [](int status, const std::string& code, const std::string& message) {
    return std::pair{status, protocol::http::encode_error(code, message)};
  };
  const auto words = [](const Reply& reply) {
    const auto* e = std::get_if<protocol::Error>(&reply);
    return e ? std::optional(e->message) : std::nullopt;
  };
  if (op.kind == Kind::Create) {
    if (open_.size() + 2 > limits_.max_open) {
      return refused(503, "server_full",
                     "this server holds " + std::to_string(open_.size()) +
                         " open review boards, all it may: try again once some are closed");
    }
    protocol::ReviewId ids[2] = {last_id_ + 1, last_id_ + 2};
    std::unique_ptr<ReviewRoom> rooms[2];
    for (int i = 0; i < 2; ++i) {
      const store::ReviewCreated row{
          ids[i],       op.director.id, i == 0 ? op.title : op.title + " (commentary)",
          std::nullopt, op.sgf,         at_ms};
      try {
        rooms[i] = std::make_unique<ReviewRoom>(row, op.director, limits_);
      } catch (const std::exception& e) {
        return refused(422, "bad_sgf", e.what());
      }
      out.writes.push_back(row);
    }
    last_id_ += 2;
    for (int i = 0; i < 2; ++i) {
      rooms[i]->set_blocks(blocks_);
      rooms[i]->set_relay_role(i == 0 ? Role::Board : Role::Commentary);
      rooms[i]->drain_into(out);
      open_[ids[i]] = std::move(rooms[i]);
    }
    return {201, json{{"board", ids[0]}, {"commentary", ids[1]}}.dump()};
  }
  ReviewRoom* board = relay_room(op.board, Role::Board, op.director.id);
  ReviewRoom* commentary = relay_room(op.commentary, Role::Commentary, op.director.id);
  if (!board && op.kind != Kind::Close)
    return refused(409, "relay_closed", "the relay's board is closed: its game is over");
  const auto follow = [&](const Reply& reply) {
    if (const auto why = words(reply))
      spdlog::warn("relay commentary {}: the game's change not followed: {}", op.commentary, *why);
  };
  std::pair<int, std::string> answer{200, "{}"};
  if (op.kind == Kind::Move) {
    const int moves = board->relay_moves();
    if (op.number == 0) op.number = moves + 1;  // the next, whichever it is
    if (op.number <= moves) {
      // Sent again (a relay program that did not hear the answer): done, if it is the same.
      if (board->relay_vertex(op.number) == op.vertex)
        return {200, json{{"moves", moves},
                          {"node", board->relay_node(op.number)},
                          {"sgf", board->sgf()},
                          {"again", true}}
                         .dump()};
      return refused(409, "move_entered",
                     "move " + std::to_string(op.number) + " is " + board->relay_vertex(op.number) +
                         " already: take the moves back to " + std::to_string(op.number - 1) +
                         " first to change it");
    }
    if (op.number > protocol::http::kMaxRelayMoves) {
      return refused(
          413, "too_many_moves",
          "a relay has at most " + std::to_string(protocol::http::kMaxRelayMoves) + " moves");
    }
    if (op.number != moves + 1) {
      return refused(409, "not_next",
                     "the relay has " + std::to_string(moves) + " moves: the next is move " +
                         std::to_string(moves + 1) + ", not " + std::to_string(op.number));
    }
    const auto played = board->relay_play(op.director, op.number, op.vertex);
    if (const auto why = words(played)) {
      board->drain_into(out);
      const auto code = std::get<protocol::Error>(played).code;
      return refused(code == protocol::ErrorCode::TooLarge ? 413 : 409,
                     code == protocol::ErrorCode::IllegalMove ? "illegal_move" : "refused", *why);
    }
    if (commentary) follow(commentary->relay_play(op.director, op.number, op.vertex));
    answer.second = json{
        {"moves", board->relay_moves()},
        {"node", board->relay_node(op.number)},
        {"sgf",
         board->sgf()}}.dump();
  } else if (op.kind == Kind::TakeBack) {
    const int moves = board->relay_moves();
    if (moves == 0) return refused(409, "no_moves", "the relay has no moves to take back");
    if (op.number == 0) op.number = moves;  // the last, whichever it is
    if (op.number != moves) {
      return refused(409, "not_last",
                     "only the last move (" + std::to_string(moves) + ") can be taken back, not " +
                         std::to_string(op.number));
    }
    board->relay_take_back(op.director, op.number);
    if (commentary) follow(commentary->relay_take_back(op.director, op.number));
    answer.second = json{{"moves", board->relay_moves()}}.dump();
  } else {
    if (board) board->close_relay(op.director, at_ms);
    if (commentary && op.commentary_too) commentary->close_relay(op.director, at_ms);
  }
  for (ReviewRoom* room : {board, commentary}) {
    if (!room) continue;
    room->touched(at_ms);
    room->drain_into(out);
    if (room->closed()) open_.erase(room->id());
  }
  return answer;
}

std::optional<std::string> Reviews::sgf(protocol::ReviewId id,
                                        const protocol::http::Viewer& viewer) const {
  const auto it = open_.find(id);
  if (it == open_.end() || !it->second->audience().may_see(viewer)) return std::nullopt;
  return it->second->sgf();
}

}  // namespace tengen
