#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "accounts/accounts.h"
#include "accounts/rate_limiter.h"
#include "clock.h"
#include "groups/groups.h"
#include "protocol/group_api.h"
#include "protocol/tournament.h"
#include "store/class_store.h"
#include "store/group_store.h"

namespace tengen {

// Classes for schools (docs/classes.md): a teacher makes a class — a group the teacher owns —
// and an account for each student in one step, with no e-mail and passwords the server makes;
// the students of a protected class meet only their class and the bots (rooms/blocks.h); the
// teacher sees each student's course progress, games and last visit, gives a student a new
// password, starts a round robin for the class, and archives it at the end of the year. Called
// by the HTTP API on its own threads; the stores keep everything.
class Classes {
 public:
  struct Limits {
    int students = 60;             // in one class (and made at once)
    int classes_per_teacher = 20;  // owned, archived ones too
    int lessons = 64;              // the course's lessons kept per account
    // A teacher's changes (a class or students made, a new password, protection, a round robin,
    // archiving; each can cost seconds of password hashing): this many at once, then one every
    // `refill`, so that one teacher cannot keep the API's workers from everyone else.
    int changes_burst = 10;
    std::chrono::milliseconds changes_refill{6000};
  };
  struct Services {
    store::ClassStore& store;
    store::GroupStore& groups;
    Accounts& accounts;
    Clock& clock;
    // Whether anyone may teach (tengen-server --anyone-may-teach), not only those an
    // administrator made teachers.
    bool anyone_may_teach = false;
    // The class changed (made, students added, protection, archived): the centre reads its
    // members and protection again.
    std::function<void(std::int64_t group)> changed;
    // A round robin made by `director`, `players` registered and started: its id, or why not.
    std::function<std::variant<std::int64_t, std::string>(const protocol::TournamentSettings&,
                                                          std::int64_t director,
                                                          const std::vector<std::int64_t>& players)>
        round_robin;
    // A number below `bound`, at random (libsodium in the server; seeded in tests).
    std::function<std::uint32_t(std::uint32_t bound)> random;
  };
  using Refusal = Groups::Refusal;
  template <class T>
  using Answer = std::variant<T, Refusal>;
  struct Made {
    std::int64_t id = 0;
    std::vector<protocol::http::StudentCard> cards;
    std::vector<std::pair<std::string, std::string>> skipped;  // (name, why)
  };

  Classes(Services services, Limits limits)
      : s_(std::move(services)),
        limits_(limits),
        change_rate_(limits_.changes_burst, limits_.changes_refill) {}

  bool may_teach(const store::UserRecord& me);
  Answer<Made> create(const store::UserRecord& me, const protocol::http::ClassForm& form,
                      const Groups::Limits& group_limits);
  Answer<Made> add_students(std::int64_t id, const store::UserRecord& me,
                            const std::vector<std::string>& names);
  // The classes `me` teaches (owns), newest first.
  std::vector<protocol::http::ClassView> of_teacher(const store::UserRecord& me);
  // The class and its students, for its teacher (and co-teachers, and server administrators);
  // the students' ranks left to the caller.
  Answer<std::pair<protocol::http::ClassView, std::vector<protocol::http::StudentView>>> page(
      std::int64_t id, const store::UserRecord& me);
  std::optional<Refusal> set_protected(std::int64_t id, const store::UserRecord& me, bool on);
  // A new password for a student of the class (every session of theirs ends).
  Answer<protocol::http::StudentCard> reset_password(std::int64_t id, const store::UserRecord& me,
                                                     std::int64_t student);
  // A new password for every student of the class at once (the cards lost before they were
  // printed): one change of the teacher's, as many hashes as students.
  Answer<Made> reset_passwords(std::int64_t id, const store::UserRecord& me);
  // A round robin of the class's students with these games' settings: the tournament's id.
  Answer<std::int64_t> round_robin(std::int64_t id, const store::UserRecord& me,
                                   protocol::GameSettings settings);
  std::optional<Refusal> archive(std::int64_t id, const store::UserRecord& me);

  // The course (docs/classes.md, "Course progress"): the lessons the account finished.
  std::vector<std::string> lessons(std::int64_t user) { return s_.store.lessons(user); }
  std::optional<Refusal> finish_lesson(const store::UserRecord& me, const std::string& lesson);

  // A password a child types: two made-up words of four letters and a number ("bado-kemu-47"),
  // from letters and digits that cannot be taken for one another (no l, 1, o, 0, i).
  std::string password();
  // An account name for a student called `name` that no one has (and that `taken` lacks).
  std::optional<std::string> username_for(const std::string& name,
                                          const std::vector<std::string>& taken);

  // The class the account is a student of, if any (GET /api/v1/me/class).
  std::optional<protocol::http::MyClass> my_class(std::int64_t user);
  // Teachers (an administrator's doing, audited by the caller): false when nothing changed.
  bool set_teacher(const store::UserRecord& user, bool teacher, const store::UserRecord& by) {
    return s_.store.set_teacher(user.id, teacher, by.id, now());
  }
  std::vector<protocol::UserRef> teachers() {
    std::vector<protocol::UserRef> out;
    for (const auto& [id, name] : s_.store.teachers()) out.push_back({id, name});
    return out;
  }

  const Limits& limits() const { return limits_; }

 private:
  // The class, if `me` runs it (its owner or one of its administrators, or a server
  // administrator).
  Answer<std::pair<store::GroupRow, store::ClassRow>> mine(std::int64_t id,
                                                           const store::UserRecord& me);
  protocol::http::ClassView view(const store::GroupRow& g, const store::ClassRow& c,
                                 std::optional<std::string> role);
  Made make_students(std::int64_t group, const std::vector<std::string>& names);
  std::int64_t now() const { return s_.clock.unix_ms(); }

  // nullopt, or 429 when the teacher changes classes too fast (Limits::changes_burst).
  std::optional<Refusal> too_fast(const store::UserRecord& me);

  Services s_;
  Limits limits_;
  std::mutex rate_mutex_;
  RateLimiter change_rate_;
};

}  // namespace tengen
