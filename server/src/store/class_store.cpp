#include "store/class_store.h"

#include <unordered_map>

namespace tengen::store {
namespace {

using sql::Value;

constexpr const char* kClassColumns = "k.group_id, k.protected, k.created_at, k.archived_at";

ClassRow class_at(const sql::Rows& r, std::size_t i) {
  return {r.integer(i, 0), r.integer(i, 1) != 0, r.integer(i, 2), r.optional_integer(i, 3)};
}

}  // namespace

bool ClassStore::is_teacher(std::int64_t user) {
  std::lock_guard lock(mutex_);
  return !db_->run("SELECT 1 FROM teachers WHERE user_id = ?", {user}).empty();
}

bool ClassStore::set_teacher(std::int64_t user, bool teacher, std::optional<std::int64_t> by,
                             std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  if (!teacher) return db_->run("DELETE FROM teachers WHERE user_id = ?", {user}).changed > 0;
  return db_->run(
                "INSERT INTO teachers(user_id, granted_by, at) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                {user, by ? Value{*by} : Value{}, now_ms})
             .changed > 0;
}

std::vector<std::pair<std::int64_t, std::string>> ClassStore::teachers() {
  std::lock_guard lock(mutex_);
  const auto r = db_->run(
      "SELECT u.id, u.username FROM teachers t JOIN users u ON u.id = t.user_id"
      " ORDER BY lower(u.username)");
  std::vector<std::pair<std::int64_t, std::string>> out;
  for (std::size_t i = 0; i < r.size(); ++i) out.emplace_back(r.integer(i, 0), r.text(i, 1));
  return out;
}

void ClassStore::add_class(std::int64_t group, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  db_->run("INSERT INTO classes(group_id, protected, created_at) VALUES (?, 1, ?)",
           {group, now_ms});
}

std::optional<ClassRow> ClassStore::class_row(std::int64_t group) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run(
      std::string("SELECT ") + kClassColumns + " FROM classes k WHERE k.group_id = ?", {group});
  if (r.empty()) return std::nullopt;
  return class_at(r, 0);
}

std::vector<ClassRow> ClassStore::owned_by(std::int64_t owner) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run(std::string("SELECT ") + kClassColumns +
                              " FROM classes k JOIN player_groups g ON g.id = k.group_id"
                              " WHERE g.owner_id = ? ORDER BY k.group_id DESC",
                          {owner});
  std::vector<ClassRow> out;
  for (std::size_t i = 0; i < r.size(); ++i) out.push_back(class_at(r, i));
  return out;
}

bool ClassStore::set_protected(std::int64_t group, bool is_protected) {
  std::lock_guard lock(mutex_);
  return db_->run("UPDATE classes SET protected = ? WHERE group_id = ?",
                  {std::int64_t{is_protected ? 1 : 0}, group})
             .changed > 0;
}

bool ClassStore::archive(std::int64_t group, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  return db_->run("UPDATE classes SET archived_at = ? WHERE group_id = ? AND archived_at IS NULL",
                  {now_ms, group})
             .changed > 0;
}

void ClassStore::add_student(std::int64_t group, std::int64_t user, const std::string& name,
                             std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  db_->transaction([&] {
    db_->run("INSERT INTO class_students(user_id, class_id, name) VALUES (?, ?, ?)",
             {user, group, name});
    db_->run(
        "INSERT INTO group_members(group_id, user_id, role, since) VALUES (?, ?, 'member', ?)"
        " ON CONFLICT (group_id, user_id) DO UPDATE SET role = 'member'",
        {group, user, now_ms});
  });
}

std::optional<std::int64_t> ClassStore::class_of_student(std::int64_t user) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run("SELECT class_id FROM class_students WHERE user_id = ?", {user});
  if (r.empty()) return std::nullopt;
  return r.integer(0, 0);
}

bool ClassStore::protected_student(std::int64_t user) {
  std::lock_guard lock(mutex_);
  return !db_->run(
                 "SELECT 1 FROM class_students s JOIN classes k ON k.group_id = s.class_id"
                 " WHERE s.user_id = ? AND k.protected = 1",
                 {user})
              .empty();
}

int ClassStore::count_students(std::int64_t group) {
  std::lock_guard lock(mutex_);
  return static_cast<int>(
      db_->run("SELECT count(*) FROM class_students WHERE class_id = ?", {group}).integer(0, 0));
}

std::vector<StudentRow> ClassStore::students(std::int64_t group) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run(
      "SELECT s.user_id, u.username, s.name,"
      " (SELECT max(x.last_seen_at) FROM sessions x WHERE x.user_id = s.user_id),"
      " (SELECT count(*) FROM games g WHERE (g.black_id = s.user_id OR g.white_id = s.user_id)"
      "  AND g.ended_at IS NOT NULL),"
      " (SELECT count(*) FROM games g WHERE (g.black_id = s.user_id OR g.white_id = s.user_id)"
      "  AND g.ended_at IS NULL)"
      " FROM class_students s JOIN users u ON u.id = s.user_id WHERE s.class_id = ?"
      " ORDER BY lower(s.name), s.user_id",
      {group});
  std::vector<StudentRow> out;
  std::unordered_map<std::int64_t, std::size_t> at;
  for (std::size_t i = 0; i < r.size(); ++i) {
    at[r.integer(i, 0)] = out.size();
    out.push_back({r.integer(i, 0),
                   r.text(i, 1),
                   r.text(i, 2),
                   r.optional_integer(i, 3),
                   static_cast<int>(r.integer(i, 4)),
                   static_cast<int>(r.integer(i, 5)),
                   {}});
  }
  const auto l = db_->run(
      "SELECT p.user_id, p.lesson FROM course_progress p JOIN class_students s ON"
      " s.user_id = p.user_id WHERE s.class_id = ? ORDER BY p.done_at, p.lesson",
      {group});
  for (std::size_t i = 0; i < l.size(); ++i) {
    const auto found = at.find(l.integer(i, 0));
    if (found != at.end()) out[found->second].lessons.push_back(l.text(i, 1));
  }
  return out;
}

std::vector<std::pair<std::int64_t, std::int64_t>> ClassStore::pairs(const std::string& sql,
                                                                     const std::vector<Value>& p) {
  const auto r = db_->run(sql, p);
  std::vector<std::pair<std::int64_t, std::int64_t>> out;
  out.reserve(r.size());
  for (std::size_t i = 0; i < r.size(); ++i) out.emplace_back(r.integer(i, 0), r.integer(i, 1));
  return out;
}

namespace {
// The protected classes' students and members, of every class or of one (`one` appended).
constexpr const char* kStudents =
    "SELECT s.class_id, s.user_id FROM class_students s JOIN classes k ON k.group_id = s.class_id"
    " WHERE k.protected = 1";
constexpr const char* kMembers =
    "SELECT m.group_id, m.user_id FROM group_members m JOIN classes k ON k.group_id = m.group_id"
    " WHERE k.protected = 1 AND m.role IN ('owner', 'admin', 'member')";
}  // namespace

Protection ClassStore::protection() {
  std::lock_guard lock(mutex_);
  Protection p{pairs(kStudents, {}), pairs(kMembers, {}), {}};
  const auto bots = db_->run("SELECT id FROM users WHERE is_bot");
  for (std::size_t i = 0; i < bots.size(); ++i) p.bots.push_back(bots.integer(i, 0));
  return p;
}

Protection ClassStore::protection_of(std::int64_t group) {
  std::lock_guard lock(mutex_);
  Protection p{pairs(std::string(kStudents) + " AND s.class_id = ?", {group}),
               pairs(std::string(kMembers) + " AND m.group_id = ?", {group}),
               {}};
  const auto bots = db_->run("SELECT id FROM users WHERE is_bot");
  for (std::size_t i = 0; i < bots.size(); ++i) p.bots.push_back(bots.integer(i, 0));
  return p;
}

std::vector<std::int64_t> ClassStore::bots() {
  std::lock_guard lock(mutex_);
  const auto r = db_->run("SELECT id FROM users WHERE is_bot");
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < r.size(); ++i) out.push_back(r.integer(i, 0));
  return out;
}

std::vector<std::string> ClassStore::lessons(std::int64_t user) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run(
      "SELECT lesson FROM course_progress WHERE user_id = ? ORDER BY done_at, lesson", {user});
  std::vector<std::string> out;
  for (std::size_t i = 0; i < r.size(); ++i) out.push_back(r.text(i, 0));
  return out;
}

bool ClassStore::finish_lesson(std::int64_t user, const std::string& lesson, std::int64_t now_ms,
                               int max) {
  std::lock_guard lock(mutex_);
  bool stored = false;
  db_->transaction([&] {
    if (!db_->run("SELECT 1 FROM course_progress WHERE user_id = ? AND lesson = ?", {user, lesson})
             .empty()) {
      stored = true;
      return;
    }
    if (db_->run("SELECT count(*) FROM course_progress WHERE user_id = ?", {user}).integer(0, 0) >=
        max)
      return;
    db_->run("INSERT INTO course_progress(user_id, lesson, done_at) VALUES (?, ?, ?)",
             {user, lesson, now_ms});
    stored = true;
  });
  return stored;
}

}  // namespace tengen::store
