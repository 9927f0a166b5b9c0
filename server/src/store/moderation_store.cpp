#include "store/moderation_store.h"

namespace tengen::store {
namespace {

using sql::value;

Invite invite_at(const sql::Rows& r, std::size_t i) {
  return Invite{r.integer(i, 0),
                r.text(i, 1),
                r.optional_integer(i, 2),
                r.integer(i, 3),
                r.text(i, 4),
                static_cast<int>(r.integer(i, 5)),
                static_cast<int>(r.integer(i, 6)),
                r.optional_integer(i, 7),
                r.boolean(i, 8)};
}

Report report_at(const sql::Rows& q, std::size_t i) {
  Report r;
  r.id = q.integer(i, 0);
  r.at_ms = q.integer(i, 1);
  r.reporter_id = q.integer(i, 2);
  r.target_id = q.integer(i, 3);
  r.category = q.text(i, 4);
  r.text = q.text(i, 5);
  r.game_id = q.optional_integer(i, 6);
  r.chat_seq = q.optional_integer(i, 7);
  if (!q.is_null(i, 8)) r.chat_text = q.text(i, 8);
  r.status = q.text(i, 9);
  r.handled_by = q.optional_integer(i, 10);
  r.handled_at_ms = q.optional_integer(i, 11);
  r.note = q.text(i, 12);
  r.reporter_name = q.text(i, 13);
  r.target_name = q.text(i, 14);
  r.handler_name = q.text(i, 15);
  r.group_id = q.optional_integer(i, 16);
  return r;
}

std::vector<UserRecord> users_of(const sql::Rows& r) {
  std::vector<UserRecord> out;
  for (std::size_t i = 0; i < r.size(); ++i) out.push_back(user_at(r, i));
  return out;
}

}  // namespace

void ModerationStore::insert_audit(const AuditEntry& a) {
  db_->run(
      "INSERT INTO audit_log(at, actor_id, action, target_user_id, target_game_id, reason,"
      " detail) VALUES (?, ?, ?, ?, ?, ?, ?)",
      {a.at_ms, value(a.actor_id), a.action, value(a.target_user_id), value(a.target_game_id),
       a.reason, a.detail});
}

bool ModerationStore::change_and_log(std::string_view change, const std::vector<sql::Value>& params,
                                     const AuditEntry& audit) {
  bool changed = false;
  db_->transaction([&] {
    if (db_->run(change, params).changed == 0) return;
    insert_audit(audit);
    changed = true;
  });
  return changed;
}

std::vector<UserRecord> ModerationStore::search_users(const std::string& prefix, int limit) {
  std::lock_guard lock(mutex_);
  return users_of(db_->run(std::string("SELECT ") + kUserColumns +
                               " FROM users WHERE lower(username) LIKE lower(?) ESCAPE '\\'"
                               " ORDER BY lower(username) LIMIT ?",
                           {like_prefix(prefix), std::int64_t{limit}}));
}

bool ModerationStore::set_admin(std::int64_t user_id, bool admin, const AuditEntry& audit) {
  std::lock_guard lock(mutex_);
  return change_and_log("UPDATE users SET is_admin = ? WHERE id = ?", {value(admin), user_id},
                        audit);
}

bool ModerationStore::set_bot(std::int64_t user_id, bool bot, const AuditEntry& audit) {
  std::lock_guard lock(mutex_);
  return change_and_log("UPDATE users SET is_bot = ? WHERE id = ?", {value(bot), user_id}, audit);
}

bool ModerationStore::set_restriction(std::int64_t user_id, const Restriction& r,
                                      const AuditEntry& audit) {
  std::lock_guard lock(mutex_);
  return change_and_log(
      "UPDATE users SET banned = ?, suspended_until = ?, moderation_reason = ? WHERE id = ?",
      {value(r.banned), value(r.until_ms), r.reason, user_id}, audit);
}

bool ModerationStore::set_password_hash(std::int64_t user_id, const std::string& hash,
                                        const AuditEntry& audit) {
  std::lock_guard lock(mutex_);
  return change_and_log("UPDATE users SET password_hash = ? WHERE id = ?", {hash, user_id}, audit);
}

void ModerationStore::log(const AuditEntry& audit) {
  std::lock_guard lock(mutex_);
  insert_audit(audit);
}

std::vector<AuditEntry> ModerationStore::audit_log(Page page, std::optional<std::int64_t> about) {
  std::lock_guard lock(mutex_);
  const auto r =
      db_->run(std::string(kAuditSelect) +
                   " WHERE a.id < ? AND (CAST(? AS BIGINT) IS NULL"
                   " OR a.target_user_id = ?) ORDER BY a.id DESC LIMIT ?",
               {page.before_or_max(), value(about), value(about), std::int64_t{page.limit}});
  std::vector<AuditEntry> out;
  for (std::size_t i = 0; i < r.size(); ++i) {
    out.push_back(AuditEntry{r.integer(i, 0), r.integer(i, 1), r.optional_integer(i, 2),
                             r.text(i, 3), r.optional_integer(i, 4), r.optional_integer(i, 5),
                             r.text(i, 6), r.text(i, 7), r.text(i, 8), r.text(i, 9)});
  }
  return out;
}

Invite ModerationStore::create_invite(Invite invite, const AuditEntry& audit) {
  std::lock_guard lock(mutex_);
  db_->transaction([&] {
    invite.id = db_->run(
                       "INSERT INTO invites(code, created_by, created_at, note, max_uses,"
                       " expires_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                       {invite.code, value(invite.created_by), invite.created_at_ms, invite.note,
                        std::int64_t{invite.max_uses}, value(invite.expires_at_ms)})
                    .integer(0, 0);
    insert_audit(audit);
  });
  return invite;
}

std::vector<Invite> ModerationStore::invites(int limit) {
  std::lock_guard lock(mutex_);
  const auto r =
      db_->run(std::string("SELECT ") + kInviteColumns + " FROM invites ORDER BY id DESC LIMIT ?",
               {std::int64_t{limit}});
  std::vector<Invite> out;
  for (std::size_t i = 0; i < r.size(); ++i) out.push_back(invite_at(r, i));
  return out;
}

bool ModerationStore::revoke_invite(std::int64_t id, const AuditEntry& audit) {
  std::lock_guard lock(mutex_);
  return change_and_log("UPDATE invites SET revoked = ? WHERE id = ? AND revoked = ?",
                        {value(true), id, value(false)}, audit);
}

std::optional<std::int64_t> ModerationStore::take_invite(const std::string& code,
                                                         std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run(
      "UPDATE invites SET uses = uses + 1 WHERE code = ? AND revoked = ? AND uses < max_uses"
      " AND (expires_at IS NULL OR expires_at > ?) RETURNING id",
      {code, value(false), now_ms});
  if (r.empty()) return std::nullopt;
  return r.integer(0, 0);
}

void ModerationStore::give_back_invite(std::int64_t id) {
  std::lock_guard lock(mutex_);
  db_->run("UPDATE invites SET uses = uses - 1 WHERE id = ? AND uses > 0", {id});
}

void ModerationStore::set_user_invite(std::int64_t user_id, std::int64_t invite_id) {
  std::lock_guard lock(mutex_);
  db_->run("UPDATE users SET invite_id = ? WHERE id = ?", {invite_id, user_id});
}

int ModerationStore::registrations_since(const TokenHash& address, std::int64_t since_ms) {
  std::lock_guard lock(mutex_);
  db_->run("DELETE FROM registrations WHERE at <= ?", {since_ms});
  return static_cast<int>(
      db_->run("SELECT count(*) FROM registrations WHERE address_hash = ? AND at > ?",
               {value(address), since_ms})
          .integer(0, 0));
}

void ModerationStore::add_registration(const TokenHash& address, std::int64_t at_ms) {
  std::lock_guard lock(mutex_);
  db_->run("INSERT INTO registrations(address_hash, at) VALUES (?, ?)", {value(address), at_ms});
}

std::int64_t ModerationStore::add_report(const Report& r) {
  std::lock_guard lock(mutex_);
  return db_
      ->run(
          "INSERT INTO reports(at, reporter_id, target_id, category, text, game_id, chat_seq,"
          " chat_text, group_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
          {r.at_ms, r.reporter_id, r.target_id, r.category, r.text, value(r.game_id),
           value(r.chat_seq), value(r.chat_text), value(r.group_id)})
      .integer(0, 0);
}

int ModerationStore::open_reports_by(std::int64_t reporter_id) {
  std::lock_guard lock(mutex_);
  return static_cast<int>(
      db_->run("SELECT count(*) FROM reports WHERE reporter_id = ? AND status = 'open'",
               {reporter_id})
          .integer(0, 0));
}

std::vector<Report> ModerationStore::reports(const std::string& status, Page page) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run(std::string(kReportSelect) +
                              " WHERE (? = '' OR r.status = ?) AND r.id < ?"
                              " ORDER BY r.id DESC LIMIT ?",
                          {status, status, page.before_or_max(), std::int64_t{page.limit}});
  std::vector<Report> out;
  for (std::size_t i = 0; i < r.size(); ++i) out.push_back(report_at(r, i));
  return out;
}

std::optional<Report> ModerationStore::report(std::int64_t id) {
  std::lock_guard lock(mutex_);
  const auto r = db_->run(std::string(kReportSelect) + " WHERE r.id = ?", {id});
  if (r.empty()) return std::nullopt;
  return report_at(r, 0);
}

bool ModerationStore::close_report(std::int64_t id, const std::string& status,
                                   const std::string& note, const AuditEntry& audit) {
  std::lock_guard lock(mutex_);
  return change_and_log(
      "UPDATE reports SET status = ?, note = ?, handled_by = ?, handled_at = ?"
      " WHERE id = ? AND status = 'open'",
      {status, note, value(audit.actor_id), audit.at_ms, id}, audit);
}

bool ModerationStore::add_block(std::int64_t user_id, std::int64_t blocked_id, std::int64_t at_ms) {
  std::lock_guard lock(mutex_);
  return db_->run(
                "INSERT INTO blocks(user_id, blocked_id, at) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                {user_id, blocked_id, at_ms})
             .changed > 0;
}

bool ModerationStore::remove_block(std::int64_t user_id, std::int64_t blocked_id) {
  std::lock_guard lock(mutex_);
  return db_->run("DELETE FROM blocks WHERE user_id = ? AND blocked_id = ?", {user_id, blocked_id})
             .changed > 0;
}

std::vector<UserRecord> ModerationStore::blocked_by(std::int64_t user_id) {
  std::lock_guard lock(mutex_);
  return users_of(db_->run(std::string("SELECT ") + kUserColumns +
                               " FROM users WHERE id IN (SELECT blocked_id FROM blocks"
                               " WHERE user_id = ?) ORDER BY lower(username)",
                           {user_id}));
}

std::vector<std::pair<std::int64_t, std::int64_t>> ModerationStore::all_blocks() {
  std::lock_guard lock(mutex_);
  const auto r = db_->run("SELECT user_id, blocked_id FROM blocks");
  std::vector<std::pair<std::int64_t, std::int64_t>> out;
  for (std::size_t i = 0; i < r.size(); ++i) out.emplace_back(r.integer(i, 0), r.integer(i, 1));
  return out;
}

}  // namespace tengen::store
