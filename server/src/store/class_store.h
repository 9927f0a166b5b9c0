#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "store/sql.h"

namespace tengen::store {

// A class (docs/classes.md): a group (store::GroupStore) that a teacher runs for a school.
struct ClassRow {
  std::int64_t group_id = 0;
  bool is_protected = true;
  std::int64_t created_at_ms = 0;
  std::optional<std::int64_t> archived_at_ms;
};

// A student account made for a class, with what the teacher's dashboard shows of it.
struct StudentRow {
  std::int64_t user_id = 0;
  std::string username;
  std::string name;                          // as the teacher typed it
  std::optional<std::int64_t> last_seen_ms;  // the latest of its sessions' last requests
  int games_finished = 0;
  int games_playing = 0;
  std::vector<std::string> lessons;  // the course's lessons finished, in the order finished
};

// Who is kept inside their class (docs/classes.md, "Protected students"): the students of the
// protected classes, the classes' members (teachers and classmates) and the bots, whom students
// may play. What rooms/blocks.h keeps in memory.
struct Protection {
  std::vector<std::pair<std::int64_t, std::int64_t>> students;  // (class, user)
  std::vector<std::pair<std::int64_t, std::int64_t>> members;   // (class, user)
  std::vector<std::int64_t> bots;
};

// The classes' tables (migrations 0013_classes.sql) and each account's course progress, written
// once for SQLite and PostgreSQL over sql::Connection. Safe from any thread.
class ClassStore {
 public:
  explicit ClassStore(std::unique_ptr<sql::Connection> db) : db_(std::move(db)) {}

  bool is_teacher(std::int64_t user);
  // False when nothing changed (already so).
  bool set_teacher(std::int64_t user, bool teacher, std::optional<std::int64_t> by,
                   std::int64_t now_ms);
  // (id, name) of every teacher, by name.
  std::vector<std::pair<std::int64_t, std::string>> teachers();

  // The group becomes a class (its owner the teacher).
  void add_class(std::int64_t group, std::int64_t now_ms);
  std::optional<ClassRow> class_row(std::int64_t group);
  // The classes of the groups `owner` owns, newest first.
  std::vector<ClassRow> owned_by(std::int64_t owner);
  bool set_protected(std::int64_t group, bool is_protected);
  bool archive(std::int64_t group, std::int64_t now_ms);

  // A new student of the class: the account's place in the class and a member of its group.
  void add_student(std::int64_t group, std::int64_t user, const std::string& name,
                   std::int64_t now_ms);
  // The class the account was made for, if any.
  std::optional<std::int64_t> class_of_student(std::int64_t user);
  // Whether the account is a student of a protected class.
  bool protected_student(std::int64_t user);
  int count_students(std::int64_t group);
  std::vector<StudentRow> students(std::int64_t group);

  Protection protection();
  // Every bot's account.
  std::vector<std::int64_t> bots();
  // One class's part of it (none: not a class, or not protected).
  Protection protection_of(std::int64_t group);

  // The course's lessons the account finished, in the order finished.
  std::vector<std::string> lessons(std::int64_t user);
  // False, nothing stored, when the account has `max` lessons already; true if it was stored
  // now or before.
  bool finish_lesson(std::int64_t user, const std::string& lesson, std::int64_t now_ms, int max);

 private:
  std::vector<std::pair<std::int64_t, std::int64_t>> pairs(const std::string& sql,
                                                           const std::vector<sql::Value>& p);
  std::mutex mutex_;
  std::unique_ptr<sql::Connection> db_;
};

}  // namespace tengen::store
