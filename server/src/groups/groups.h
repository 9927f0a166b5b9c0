#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "accounts/rate_limiter.h"
#include "action_refusal.h"
#include "clock.h"
#include "protocol/group_api.h"
#include "store/account_store.h"
#include "store/group_store.h"

namespace tengen {

// Groups (clubs; docs/groups.md): who may create, join, run and leave a group, its chat, and
// what members are told. Called by the HTTP API on its own threads; the store keeps everything
// (store::GroupStore) and the centre is told of each change to a group's members (the lobby's
// group challenges follow) and carries what members are told to their connections.
class Groups {
 public:
  struct Limits {
    int owned_per_account = 5;  // groups an account may own (closed ones count)
    int groups = 1000;          // groups on the server
    int members = 500;          // members of one group
    int pending = 100;          // requests to join one group waiting
    int memberships = 50;       // groups one account may belong to (or ask to)
    int chat_kept = 500;        // lines of a group's chat kept
    int chat_burst = 5;         // lines an account may say at once, in every group together
    std::chrono::milliseconds chat_refill{2000};  // then one more every this
    int games_listed = 20;                        // on the group's page
    // Joining, leaving, asking, roles, settings, links: each tells the members, so an account's
    // changes are paced (in every group together): this many at once, then one every `refill`.
    int changes_burst = 10;
    std::chrono::milliseconds changes_refill{6000};
  };
  struct Services {
    store::GroupStore& store;
    Clock& clock;
    // The group's members changed in the store: the centre reloads them (may be empty).
    std::function<void(std::int64_t group)> changed;
    // Sends a message to the connections of these users, but not to those who block `from`.
    std::function<void(const std::vector<std::int64_t>& users, std::optional<std::int64_t> from,
                       const std::string& text)>
        tell;
    // Those `user` blocks (their chat lines are not shown to them).
    std::function<std::vector<std::int64_t>(std::int64_t user)> blocked_by;
    // Whether the account is a protected class's student (docs/classes.md): they join or make
    // no group. None: no one is.
    std::function<bool(std::int64_t user)> protected_student = {};
  };
  using Refusal = ActionRefusal;
  template <class T>
  using Answer = ActionAnswer<T>;
  using Maybe = ActionMaybe;  // nullopt: done

  Groups(Services services, Limits limits) : s_(std::move(services)), limits_(limits) {}

  Answer<protocol::http::GroupSummary> create(const store::UserRecord& me,
                                              const protocol::http::GroupForm& form);
  std::vector<protocol::http::GroupSummary> list(const store::Page& page);
  std::vector<protocol::http::GroupSummary> of_user(std::int64_t user);
  // The page as `viewer` sees it (nullopt: a guest), the members' ranks left to the caller.
  Answer<protocol::http::GroupPage> page(std::int64_t id,
                                         const std::optional<store::UserRecord>& viewer);
  Maybe update(std::int64_t id, const store::UserRecord& me, const protocol::http::GroupForm& form);
  // The role the user has now (member, or pending when the group approves its members).
  Answer<std::string> join(std::int64_t id, const store::UserRecord& me,
                           const std::optional<std::string>& invite);
  Maybe leave(std::int64_t id, const store::UserRecord& me);
  // admin, member (approving one who asked), banned, owner (the owner hands the group over).
  Maybe set_role(std::int64_t id, const store::UserRecord& me, std::int64_t target,
                 const std::string& role);
  // A request to join declined, or a member (an administrator, by the owner) turned out.
  Maybe remove_member(std::int64_t id, const store::UserRecord& me, std::int64_t target);
  // A new invitation link's secret (the previous one stops working), shown once.
  Answer<std::string> make_invite(std::int64_t id, const store::UserRecord& me);
  Maybe drop_invite(std::int64_t id, const store::UserRecord& me);
  Maybe close(std::int64_t id, const store::UserRecord& me);
  Maybe remove(std::int64_t id, const store::UserRecord& me);

  Answer<std::vector<protocol::GroupLine>> chat(std::int64_t id, const store::UserRecord& viewer,
                                                std::optional<std::int64_t> before);
  Answer<protocol::GroupLine> say(std::int64_t id, const store::UserRecord& me,
                                  const std::string& text);
  Maybe delete_line(std::int64_t id, std::int64_t line, const store::UserRecord& me);
  // A line of the group's chat as it is now, for a report by one who could read it (a member or a
  // server administrator); 404 otherwise.
  Answer<protocol::GroupLine> line_for_report(std::int64_t id, std::int64_t line,
                                              const store::UserRecord& reporter);

  // One of the group's ladders changed: its members are told.
  void ladder_changed(const store::GroupRow& group) { tell(group, protocol::GroupChange::Ladder); }

  const Limits& limits() const { return limits_; }
  // A group's summary as a viewer with `role` (none: not a member) is shown it.
  static protocol::http::GroupSummary summary(const store::GroupRow& g,
                                              std::optional<std::string> role);

 private:
  // The group and the viewer's role in it, or 404.
  Answer<std::pair<store::GroupRow, std::optional<std::string>>> find(
      std::int64_t id, std::optional<std::int64_t> viewer);
  // Tells the group's members (and, for "members", those who asked) what changed.
  void tell(const store::GroupRow& group, protocol::GroupChange change,
            std::optional<protocol::GroupLine> line = std::nullopt,
            std::optional<std::int64_t> from = std::nullopt, std::vector<std::int64_t> also = {});
  std::vector<std::int64_t> member_ids(std::int64_t group, bool with_pending);

  std::int64_t now() const { return s_.clock.unix_ms(); }
  // nullopt, or 429 when the account changes groups too fast (Limits::changes_burst).
  std::optional<Refusal> too_fast(const store::UserRecord& me);
  static Refusal class_refusal();
  // 403 for a protected class's student, who joins or makes no group.
  std::optional<Refusal> student_stays(const store::UserRecord& me);

  Services s_;
  Limits limits_;
  std::mutex chat_mutex_;  // both limiters
  RateLimiter chat_rate_{limits_.chat_burst, limits_.chat_refill};
  RateLimiter change_rate_{limits_.changes_burst, limits_.changes_refill};
};

}  // namespace tengen
