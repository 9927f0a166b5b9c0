#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "protocol/messages.h"
#include "store/account_store.h"
#include "store/game_store.h"

namespace tengen {

// The open challenges (docs/games.md): who may open, cancel, decline and accept which, within
// the bounds that keep one account from filling the lobby (docs/limits.md). Each change is a
// row for the store; whom it is told to is the caller's (the lobby's) affair. Every challenge is
// stored, comes back after a restart and is in every lobby message: at most, a full lobby message
// is ~0.3 MiB of challenges (tests/server/abuse_test.cpp), well within the 1 MiB a connection may
// have queued.
class Challenges {
 public:
  static constexpr std::size_t kMaxOpenPerUser = 10;
  static constexpr std::size_t kMaxOpen = 1000;

  using FindUser = std::function<std::optional<protocol::UserRef>(const std::string& name)>;
  using Outcome = std::variant<protocol::Challenge, protocol::Error>;

  // Ids continue after the last one the store has seen.
  void continue_after(protocol::ChallengeId last) { last_id_ = last; }
  void restore(protocol::Challenge challenge) { open_[challenge.id] = std::move(challenge); }

  // A new challenge by `me`, and the row that stores it; or why not.
  Outcome open(const protocol::UserRef& me, const std::string& cid,
               const protocol::CreateChallenge& m, const FindUser& find_user,
               std::vector<store::Write>& writes);
  // `me` cancels their own challenge or, with `decline`, declines one made to them.
  Outcome close(const protocol::UserRef& me, const std::string& cid, protocol::ChallengeId id,
                bool decline, std::vector<store::Write>& writes);
  // `me` accepts: the challenge leaves the lobby, its row is written once the game it makes
  // is known (closed_by_game).
  Outcome take_to_accept(const protocol::UserRef& me, const std::string& cid,
                         protocol::ChallengeId id);
  static store::Write closed_by_game(protocol::ChallengeId id, protocol::GameId game) {
    return store::ChallengeClosed{
        id, std::string(protocol::wire::name(protocol::ChallengeEnd::Accepted)), game, 0};
  }
  static protocol::ChallengeEnd end_of(bool decline) {
    return decline ? protocol::ChallengeEnd::Declined : protocol::ChallengeEnd::Cancelled;
  }

  // The challenges a connection may see: open ones, and direct ones it is a party to.
  std::vector<protocol::Challenge> visible_to(const std::optional<store::UserRecord>& user) const;
  std::size_t size() const { return open_.size(); }
  // The ids of the user's own open challenges.
  std::vector<protocol::ChallengeId> by(std::int64_t user) const {
    std::vector<protocol::ChallengeId> ids;
    for (const auto& [id, c] : open_) {
      if (c.challenger.id == user) ids.push_back(id);
    }
    return ids;
  }
  // The open challenges for the members of `group` (docs/groups.md).
  std::vector<protocol::ChallengeId> of_group(std::int64_t group) const {
    std::vector<protocol::ChallengeId> ids;
    for (const auto& [id, c] : open_) {
      if (c.settings.group == group) ids.push_back(id);
    }
    return ids;
  }
  // An open challenge, or null.
  const protocol::Challenge* find(protocol::ChallengeId id) const {
    const auto it = open_.find(id);
    return it == open_.end() ? nullptr : &it->second;
  }

 private:
  std::map<protocol::ChallengeId, protocol::Challenge> open_;
  protocol::ChallengeId last_id_ = 0;
};

}  // namespace tengen
