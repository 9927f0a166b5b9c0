#include "lobby/challenges.h"

#include <algorithm>

#include "protocol/codec.h"

namespace tengen {
namespace {

using protocol::ErrorCode;

protocol::Error error(const std::string& cid, ErrorCode code, std::string message) {
  return protocol::Error{cid, code, std::move(message), {}};
}

}  // namespace

Challenges::Outcome Challenges::open(const protocol::UserRef& me, const std::string& cid,
                                     const protocol::CreateChallenge& m, const FindUser& find_user,
                                     std::vector<store::Write>& writes) {
  if (auto problem = protocol::validate(m.settings))
    return error(cid, ErrorCode::BadSettings, *problem);
  const auto mine = std::count_if(open_.begin(), open_.end(), [&](const auto& open) {
    return open.second.challenger.id == me.id;
  });
  if (static_cast<std::size_t>(mine) >= kMaxOpenPerUser) {
    return error(cid, ErrorCode::Conflict,
                 "you have " + std::to_string(mine) +
                     " open challenges, the most one player may have: cancel one first");
  }
  if (open_.size() >= kMaxOpen) {
    return error(cid, ErrorCode::Conflict,
                 "the lobby holds " + std::to_string(open_.size()) +
                     " open challenges, the most it may: accept one, or try again later");
  }
  protocol::Challenge c{last_id_ + 1, me, std::nullopt, m.settings};
  if (m.opponent) {
    const auto opponent = find_user(*m.opponent);
    if (!opponent) return error(cid, ErrorCode::NotFound, "no user named '" + *m.opponent + "'");
    if (opponent->id == me.id)
      return error(cid, ErrorCode::Forbidden, "you cannot challenge yourself");
    c.opponent = opponent;
  }
  last_id_ = c.id;
  open_[c.id] = c;
  writes.push_back(store::ChallengeOpened{
      c.id, me.id, c.opponent ? std::optional<std::int64_t>(c.opponent->id) : std::nullopt,
      protocol::encode_settings(c.settings), 0, cid});
  return c;
}

Challenges::Outcome Challenges::close(const protocol::UserRef& me, const std::string& cid,
                                      protocol::ChallengeId id, bool decline,
                                      std::vector<store::Write>& writes) {
  const auto it = open_.find(id);
  if (it == open_.end())
    return error(cid, ErrorCode::NotFound, "no open challenge " + std::to_string(id));
  const protocol::Challenge c = it->second;
  if (decline && !(c.opponent && c.opponent->id == me.id)) {
    return error(cid, ErrorCode::Forbidden,
                 "only the challenged player can decline a direct challenge");
  }
  if (!decline && c.challenger.id != me.id)
    return error(cid, ErrorCode::Forbidden, "only its author can cancel a challenge");
  open_.erase(it);
  writes.push_back(store::ChallengeClosed{id, std::string(protocol::wire::name(end_of(decline))),
                                          std::nullopt, 0});
  return c;
}

Challenges::Outcome Challenges::take_to_accept(const protocol::UserRef& me, const std::string& cid,
                                               protocol::ChallengeId id) {
  const auto it = open_.find(id);
  if (it == open_.end())
    return error(cid, ErrorCode::NotFound, "no open challenge " + std::to_string(id));
  const protocol::Challenge c = it->second;
  if (c.challenger.id == me.id)
    return error(cid, ErrorCode::Forbidden, "you cannot accept your own challenge");
  if (c.opponent && c.opponent->id != me.id)
    return error(cid, ErrorCode::Forbidden, "this challenge is for another player");
  open_.erase(it);
  return c;
}

std::vector<protocol::Challenge> Challenges::visible_to(
    const std::optional<store::UserRecord>& user) const {
  std::vector<protocol::Challenge> out;
  for (const auto& [id, c] : open_) {
    if (!c.opponent || (user && (user->id == c.challenger.id || user->id == c.opponent->id)))
      out.push_back(c);
  }
  return out;
}

}  // namespace tengen
