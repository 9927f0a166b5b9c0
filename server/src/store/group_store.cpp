#include "store/group_store.h"

#include <algorithm>
#include <cctype>

namespace tengen::store {
namespace {

using sql::Value;

// The columns groups_where reads, and what they become.
constexpr const char* kGroupColumns =
    "g.id, g.name, g.description, g.joining, g.owner_id, u.username, g.created_at, g.closed_at,"
    " (SELECT count(*) FROM group_members m WHERE m.group_id = g.id"
    " AND m.role IN ('owner', 'admin', 'member')), g.invite_hash IS NOT NULL,"
    " (SELECT count(*) FROM classes k WHERE k.group_id = g.id)";

GroupRow group_at(const sql::Rows& r, std::size_t i) {
  return GroupRow{r.integer(i, 0),
                  r.text(i, 1),
                  r.text(i, 2),
                  r.text(i, 3),
                  r.integer(i, 4),
                  r.text(i, 5),
                  r.integer(i, 6),
                  r.optional_integer(i, 7),
                  static_cast<int>(r.integer(i, 8)),
                  r.integer(i, 9) != 0,
                  r.integer(i, 10) != 0};
}

constexpr const char* kChatColumns =
    "c.id, c.group_id, c.user_id, u.username, c.at, c.text, c.deleted_by IS NOT NULL";

GroupChatRow chat_at(const sql::Rows& r, std::size_t i) {
  const bool deleted = r.integer(i, 6) != 0;
  return GroupChatRow{r.integer(i, 0), r.integer(i, 1), r.integer(i, 2),
                      r.text(i, 3),    r.integer(i, 4), deleted ? "" : r.text(i, 5),
                      deleted};
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

}  // namespace

std::vector<GroupRow> GroupStore::groups_where(const std::string& where,
                                               const std::vector<Value>& p) {
  const auto r = db_->run(std::string("SELECT ") + kGroupColumns +
                              " FROM player_groups g JOIN users u ON u.id = g.owner_id " + where,
                          p);
  std::vector<GroupRow> out;
  for (std::size_t i = 0; i < r.size(); ++i) out.push_back(group_at(r, i));
  return out;
}

std::optional<std::int64_t> GroupStore::create(const NewGroup& group, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  std::optional<std::int64_t> id;
  db_->transaction([&] {
    const auto r = db_->run(
        "INSERT INTO player_groups(name, name_key, description, joining, owner_id, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id",
        {group.name, lower(group.name), group.description, group.joining, group.owner_id, now_ms});
    if (r.empty()) return;
    id = r.integer(0, 0);
    db_->run("INSERT INTO group_members(group_id, user_id, role, since) VALUES (?, ?, 'owner', ?)",
             {*id, group.owner_id, now_ms});
  });
  return id;
}

std::optional<GroupRow> GroupStore::group(std::int64_t id) {
  std::lock_guard lock(mutex_);
  auto rows = groups_where("WHERE g.id = ?", {id});
  if (rows.empty()) return std::nullopt;
  return std::move(rows.front());
}

std::vector<GroupRow> GroupStore::list(const Page& page) {
  std::lock_guard lock(mutex_);
  // A class (docs/classes.md) is its teacher's and students' business: not listed.
  return groups_where(
      "WHERE g.id < ? AND NOT EXISTS (SELECT 1 FROM classes k WHERE k.group_id = g.id)"
      " ORDER BY g.id DESC LIMIT ?",
      {page.before_or_max(), std::int64_t{page.limit}});
}

std::vector<std::pair<GroupRow, std::string>> GroupStore::of_user(std::int64_t user) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run(std::string("SELECT ") + kGroupColumns +
                              ", m.role FROM player_groups g JOIN users u ON u.id = g.owner_id"
                              " JOIN group_members m ON m.group_id = g.id AND m.user_id = ?"
                              " ORDER BY g.id DESC",
                          {user});
  std::vector<std::pair<GroupRow, std::string>> out;
  for (std::size_t i = 0; i < r.size(); ++i) out.emplace_back(group_at(r, i), r.text(i, 11));
  return out;
}

int GroupStore::owned_by(std::int64_t user) {
  std::lock_guard lock(mutex_);
  return static_cast<int>(
      db_->run("SELECT count(*) FROM player_groups WHERE owner_id = ?", {user}).integer(0, 0));
}

int GroupStore::count() {
  std::lock_guard lock(mutex_);
  return static_cast<int>(db_->run("SELECT count(*) FROM player_groups").integer(0, 0));
}

bool GroupStore::update(std::int64_t id, const std::string& description,
                        const std::string& joining) {
  std::lock_guard lock(mutex_);
  return db_->run("UPDATE player_groups SET description = ?, joining = ? WHERE id = ?",
                  {description, joining, id})
             .changed > 0;
}

void GroupStore::set_invite(std::int64_t id, const std::optional<std::string>& hash) {
  std::lock_guard lock(mutex_);
  db_->run("UPDATE player_groups SET invite_hash = ? WHERE id = ?",
           {hash ? Value(*hash) : Value(), id});
}

std::optional<std::int64_t> GroupStore::group_with_invite(const std::string& hash) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run("SELECT id FROM player_groups WHERE invite_hash = ?", {hash});
  if (r.empty()) return std::nullopt;
  return r.integer(0, 0);
}

bool GroupStore::close(std::int64_t id, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  return db_->run(
                "UPDATE player_groups SET closed_at = ?, invite_hash = NULL"
                " WHERE id = ? AND closed_at IS NULL",
                {now_ms, id})
             .changed > 0;
}

bool GroupStore::remove(std::int64_t id) {
  std::lock_guard lock(mutex_);
  bool removed = false;
  // The members and chat go with it (ON DELETE CASCADE needs SQLite's foreign keys on, as the
  // store opens them; said again here so that nothing depends on it).
  db_->transaction([&] {
    db_->run("DELETE FROM group_chat WHERE group_id = ?", {id});
    db_->run("DELETE FROM ladders WHERE group_id = ?", {id});  // their rungs and games' records
    db_->run("DELETE FROM group_members WHERE group_id = ?", {id});
    removed = db_->run("DELETE FROM player_groups WHERE id = ?", {id}).changed > 0;
  });
  return removed;
}

std::optional<std::string> GroupStore::role(std::int64_t group, std::int64_t user) {
  std::lock_guard lock(mutex_);
  const auto r =
      db_->run("SELECT role FROM group_members WHERE group_id = ? AND user_id = ?", {group, user});
  if (r.empty()) return std::nullopt;
  return r.text(0, 0);
}

void GroupStore::set_role(std::int64_t group, std::int64_t user, const std::string& role,
                          std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  // A member keeps the day they joined; one who was pending joins now.
  db_->run(
      "INSERT INTO group_members(group_id, user_id, role, since) VALUES (?, ?, ?, ?)"
      " ON CONFLICT (group_id, user_id) DO UPDATE SET role = excluded.role,"
      " since = CASE WHEN group_members.role IN ('pending', 'banned')"
      " THEN excluded.since ELSE group_members.since END",
      {group, user, role, now_ms});
}

bool GroupStore::remove_member(std::int64_t group, std::int64_t user) {
  std::lock_guard lock(mutex_);
  return db_->run("DELETE FROM group_members WHERE group_id = ? AND user_id = ?", {group, user})
             .changed > 0;
}

void GroupStore::set_owner(std::int64_t group, std::int64_t user, std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  db_->transaction([&] {
    db_->run("UPDATE group_members SET role = 'admin' WHERE group_id = ? AND role = 'owner'",
             {group});
    db_->run(
        "INSERT INTO group_members(group_id, user_id, role, since) VALUES (?, ?, 'owner', ?)"
        " ON CONFLICT (group_id, user_id) DO UPDATE SET role = 'owner'",
        {group, user, now_ms});
    db_->run("UPDATE player_groups SET owner_id = ? WHERE id = ?", {user, group});
  });
}

std::vector<GroupMember> GroupStore::members(std::int64_t group) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run(
      "SELECT m.user_id, u.username, u.is_bot, m.role, m.since FROM group_members m"
      " JOIN users u ON u.id = m.user_id WHERE m.group_id = ?"
      " ORDER BY CASE m.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 WHEN 'member' THEN 2"
      " WHEN 'pending' THEN 3 ELSE 4 END, lower(u.username)",
      {group});
  std::vector<GroupMember> out;
  for (std::size_t i = 0; i < r.size(); ++i)
    out.push_back(
        {r.integer(i, 0), r.text(i, 1), r.integer(i, 2) != 0, r.text(i, 3), r.integer(i, 4)});
  return out;
}

int GroupStore::count_role(std::int64_t group, const std::string& role) {
  std::lock_guard lock(mutex_);
  return static_cast<int>(
      db_->run("SELECT count(*) FROM group_members WHERE group_id = ? AND role = ?", {group, role})
          .integer(0, 0));
}

std::vector<std::pair<std::int64_t, std::int64_t>> GroupStore::memberships() {
  std::lock_guard lock(mutex_);
  const auto r = db_->run(
      "SELECT m.group_id, m.user_id FROM group_members m JOIN player_groups g ON g.id ="
      " m.group_id WHERE g.closed_at IS NULL AND m.role IN ('owner', 'admin', 'member')");
  std::vector<std::pair<std::int64_t, std::int64_t>> out;
  out.reserve(r.size());
  for (std::size_t i = 0; i < r.size(); ++i) out.emplace_back(r.integer(i, 0), r.integer(i, 1));
  return out;
}

GroupChatRow GroupStore::add_chat(std::int64_t group, std::int64_t user, const std::string& text,
                                  std::int64_t now_ms, int keep) {
  std::lock_guard lock(mutex_);
  GroupChatRow line;
  db_->transaction([&] {
    const auto id = db_->run(
                           "INSERT INTO group_chat(group_id, user_id, at, text) VALUES (?, ?, ?, ?)"
                           " RETURNING id",
                           {group, user, now_ms, text})
                        .integer(0, 0);
    db_->run(
        "DELETE FROM group_chat WHERE group_id = ? AND id <= (SELECT id FROM group_chat WHERE"
        " group_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)",
        {group, group, std::int64_t{keep}});
    const auto r = db_->run(std::string("SELECT ") + kChatColumns +
                                " FROM group_chat c JOIN users u ON u.id = c.user_id"
                                " WHERE c.id = ?",
                            {id});
    line = chat_at(r, 0);
  });
  return line;
}

std::vector<GroupChatRow> GroupStore::chat(std::int64_t group, std::optional<std::int64_t> before,
                                           int limit) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run(std::string("SELECT ") + kChatColumns +
                              " FROM group_chat c JOIN users u ON u.id = c.user_id"
                              " WHERE c.group_id = ? AND c.id < ? ORDER BY c.id DESC LIMIT ?",
                          {group, Page{before}.before_or_max(), std::int64_t{limit}});
  std::vector<GroupChatRow> out;
  for (std::size_t i = r.size(); i-- > 0;) out.push_back(chat_at(r, i));
  return out;
}

std::optional<GroupChatRow> GroupStore::chat_line(std::int64_t group, std::int64_t line) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run(std::string("SELECT ") + kChatColumns +
                              " FROM group_chat c JOIN users u ON u.id = c.user_id"
                              " WHERE c.group_id = ? AND c.id = ?",
                          {group, line});
  if (r.empty()) return std::nullopt;
  return chat_at(r, 0);
}

bool GroupStore::delete_chat(std::int64_t group, std::int64_t line, std::int64_t by) {
  std::lock_guard lock(mutex_);
  return db_->run(
                "UPDATE group_chat SET deleted_by = ?, text = '' WHERE group_id = ? AND id = ?"
                " AND deleted_by IS NULL",
                {by, group, line})
             .changed > 0;
}

std::vector<GroupGame> GroupStore::games(std::int64_t group, int limit) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run(
      "SELECT g.id, g.black_id, b.username, g.white_id, w.username, g.result, g.ended_at,"
      " g.settings FROM games g"
      " JOIN group_members mb ON mb.group_id = ? AND mb.user_id = g.black_id"
      " AND mb.role IN ('owner', 'admin', 'member')"
      " JOIN group_members mw ON mw.group_id = ? AND mw.user_id = g.white_id"
      " AND mw.role IN ('owner', 'admin', 'member')"
      " JOIN users b ON b.id = g.black_id JOIN users w ON w.id = g.white_id"
      " WHERE g.ended_at IS NOT NULL ORDER BY g.ended_at DESC, g.id DESC LIMIT ?",
      {group, group, std::int64_t{limit}});
  std::vector<GroupGame> out;
  for (std::size_t i = 0; i < r.size(); ++i)
    out.push_back({r.integer(i, 0), r.integer(i, 1), r.text(i, 2), r.integer(i, 3), r.text(i, 4),
                   r.text(i, 5), r.integer(i, 6), r.text(i, 7)});
  return out;
}

}  // namespace tengen::store
