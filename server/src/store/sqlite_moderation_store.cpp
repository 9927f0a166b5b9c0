#include "store/sqlite_moderation_store.h"

#include "store/sqlite_account_store.h"

namespace tengen::store {
namespace {

Invite invite_at(const Statement& q) {
  return Invite{q.column_int(0),
                q.column_text(1),
                q.column_optional_int(2),
                q.column_int(3),
                q.column_text(4),
                static_cast<int>(q.column_int(5)),
                static_cast<int>(q.column_int(6)),
                q.column_optional_int(7),
                q.column_int(8) != 0};
}

Report report_at(const Statement& q) {
  Report r;
  r.id = q.column_int(0);
  r.at_ms = q.column_int(1);
  r.reporter_id = q.column_int(2);
  r.target_id = q.column_int(3);
  r.category = q.column_text(4);
  r.text = q.column_text(5);
  r.game_id = q.column_optional_int(6);
  r.chat_seq = q.column_optional_int(7);
  r.chat_text = q.column_optional_text(8);
  r.status = q.column_text(9);
  r.handled_by = q.column_optional_int(10);
  r.handled_at_ms = q.column_optional_int(11);
  r.note = q.column_text(12);
  r.reporter_name = q.column_text(13);
  r.target_name = q.column_text(14);
  r.handler_name = q.column_text(15);
  r.group_id = q.column_optional_int(16);
  return r;
}

}  // namespace

void SqliteModerationStore::insert_audit(const AuditEntry& a) {
  Statement q(db_,
              "INSERT INTO audit_log(at, actor_id, action, target_user_id, target_game_id, reason,"
              " detail) VALUES (?, ?, ?, ?, ?, ?, ?)");
  q.bind(1, a.at_ms)
      .bind(2, a.actor_id)
      .bind(3, a.action)
      .bind(4, a.target_user_id)
      .bind(5, a.target_game_id)
      .bind(6, a.reason)
      .bind(7, a.detail)
      .run();
}

bool SqliteModerationStore::change_and_log(Statement& change, const AuditEntry& audit) {
  Transaction t(db_);
  change.run();
  if (change.changes() == 0) return false;
  insert_audit(audit);
  t.commit();
  return true;
}

std::vector<UserRecord> SqliteModerationStore::search_users(const std::string& prefix, int limit) {
  std::lock_guard lock(mutex_);
  const std::string pattern = like_prefix(prefix);  // LIKE is without case for ASCII names
  Statement q(db_, std::string("SELECT ") + kUserColumns +
                       " FROM users WHERE username LIKE ? ESCAPE '\\' ORDER BY username LIMIT ?");
  q.bind(1, pattern).bind(2, static_cast<std::int64_t>(limit));
  std::vector<UserRecord> out;
  while (q.step()) out.push_back(user_at(q, 0));
  return out;
}

bool SqliteModerationStore::set_admin(std::int64_t user_id, bool admin, const AuditEntry& audit) {
  std::lock_guard lock(mutex_);
  Statement q(db_, "UPDATE users SET is_admin = ?2 WHERE id = ?1");
  q.bind(1, user_id).bind(2, std::int64_t{admin});
  return change_and_log(q, audit);
}

bool SqliteModerationStore::set_bot(std::int64_t user_id, bool bot, const AuditEntry& audit) {
  std::lock_guard lock(mutex_);
  Statement q(db_, "UPDATE users SET is_bot = ?2 WHERE id = ?1");
  q.bind(1, user_id).bind(2, std::int64_t{bot});
  return change_and_log(q, audit);
}

bool SqliteModerationStore::set_restriction(std::int64_t user_id, const Restriction& r,
                                            const AuditEntry& audit) {
  std::lock_guard lock(mutex_);
  Statement q(db_,
              "UPDATE users SET banned = ?2, suspended_until = ?3, moderation_reason = ?4"
              " WHERE id = ?1");
  q.bind(1, user_id).bind(2, std::int64_t{r.banned}).bind(3, r.until_ms).bind(4, r.reason);
  return change_and_log(q, audit);
}

bool SqliteModerationStore::set_password_hash(std::int64_t user_id, const std::string& hash,
                                              const AuditEntry& audit) {
  std::lock_guard lock(mutex_);
  Statement q(db_, "UPDATE users SET password_hash = ?2 WHERE id = ?1");
  q.bind(1, user_id).bind(2, hash);
  return change_and_log(q, audit);
}

void SqliteModerationStore::log(const AuditEntry& audit) {
  std::lock_guard lock(mutex_);
  insert_audit(audit);
}

std::vector<AuditEntry> SqliteModerationStore::audit_log(Page page,
                                                         std::optional<std::int64_t> about) {
  std::lock_guard lock(mutex_);
  Statement q(db_, std::string(kAuditSelect) +
                       " WHERE a.id < ? AND (? IS NULL OR a.target_user_id = ?)"
                       " ORDER BY a.id DESC LIMIT ?");
  q.bind(1, page.before_or_max()).bind(2, about).bind(3, about);
  q.bind(4, static_cast<std::int64_t>(page.limit));
  std::vector<AuditEntry> out;
  while (q.step()) {
    out.push_back(AuditEntry{q.column_int(0), q.column_int(1), q.column_optional_int(2),
                             q.column_text(3), q.column_optional_int(4), q.column_optional_int(5),
                             q.column_text(6), q.column_text(7), q.column_text(8),
                             q.column_text(9)});
  }
  return out;
}

Invite SqliteModerationStore::create_invite(Invite invite, const AuditEntry& audit) {
  std::lock_guard lock(mutex_);
  Transaction t(db_);
  Statement q(db_,
              "INSERT INTO invites(code, created_by, created_at, note, max_uses, expires_at)"
              " VALUES (?, ?, ?, ?, ?, ?)");
  q.bind(1, invite.code)
      .bind(2, invite.created_by)
      .bind(3, invite.created_at_ms)
      .bind(4, invite.note)
      .bind(5, static_cast<std::int64_t>(invite.max_uses))
      .bind(6, invite.expires_at_ms)
      .run();
  invite.id = q.last_insert_rowid();
  insert_audit(audit);
  t.commit();
  return invite;
}

std::vector<Invite> SqliteModerationStore::invites(int limit) {
  std::lock_guard lock(mutex_);
  Statement q(db_,
              std::string("SELECT ") + kInviteColumns + " FROM invites ORDER BY id DESC LIMIT ?");
  q.bind(1, static_cast<std::int64_t>(limit));
  std::vector<Invite> out;
  while (q.step()) out.push_back(invite_at(q));
  return out;
}

bool SqliteModerationStore::revoke_invite(std::int64_t id, const AuditEntry& audit) {
  std::lock_guard lock(mutex_);
  Statement q(db_, "UPDATE invites SET revoked = 1 WHERE id = ?1 AND revoked = 0");
  q.bind(1, id);
  return change_and_log(q, audit);
}

std::optional<std::int64_t> SqliteModerationStore::take_invite(const std::string& code,
                                                               std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  Statement q(db_,
              "UPDATE invites SET uses = uses + 1 WHERE code = ? AND revoked = 0"
              " AND uses < max_uses AND (expires_at IS NULL OR expires_at > ?) RETURNING id");
  q.bind(1, code).bind(2, now_ms);
  std::optional<std::int64_t> id;
  if (q.step()) id = q.column_int(0);
  q.reset();
  return id;
}

void SqliteModerationStore::give_back_invite(std::int64_t id) {
  std::lock_guard lock(mutex_);
  Statement q(db_, "UPDATE invites SET uses = uses - 1 WHERE id = ? AND uses > 0");
  q.bind(1, id).run();
}

void SqliteModerationStore::set_user_invite(std::int64_t user_id, std::int64_t invite_id) {
  std::lock_guard lock(mutex_);
  Statement q(db_, "UPDATE users SET invite_id = ? WHERE id = ?");
  q.bind(1, invite_id).bind(2, user_id).run();
}

int SqliteModerationStore::registrations_since(const TokenHash& address, std::int64_t since_ms) {
  std::lock_guard lock(mutex_);
  Statement old(db_, "DELETE FROM registrations WHERE at <= ?");
  old.bind(1, since_ms).run();
  Statement q(db_, "SELECT count(*) FROM registrations WHERE address_hash = ? AND at > ?");
  q.bind(1, address).bind(2, since_ms);
  q.step();
  const int n = static_cast<int>(q.column_int(0));
  q.reset();
  return n;
}

void SqliteModerationStore::add_registration(const TokenHash& address, std::int64_t at_ms) {
  std::lock_guard lock(mutex_);
  Statement q(db_, "INSERT INTO registrations(address_hash, at) VALUES (?, ?)");
  q.bind(1, address).bind(2, at_ms).run();
}

std::int64_t SqliteModerationStore::add_report(const Report& r) {
  std::lock_guard lock(mutex_);
  Statement q(db_,
              "INSERT INTO reports(at, reporter_id, target_id, category, text, game_id, chat_seq,"
              " chat_text, group_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
  q.bind(1, r.at_ms)
      .bind(2, r.reporter_id)
      .bind(3, r.target_id)
      .bind(4, r.category)
      .bind(5, r.text)
      .bind(6, r.game_id)
      .bind(7, r.chat_seq)
      .bind(8, r.chat_text)
      .bind(9, r.group_id)
      .run();
  return q.last_insert_rowid();
}

int SqliteModerationStore::open_reports_by(std::int64_t reporter_id) {
  std::lock_guard lock(mutex_);
  Statement q(db_, "SELECT count(*) FROM reports WHERE reporter_id = ? AND status = 'open'");
  q.bind(1, reporter_id);
  q.step();
  const int n = static_cast<int>(q.column_int(0));
  q.reset();
  return n;
}

std::vector<Report> SqliteModerationStore::reports(const std::string& status, Page page) {
  std::lock_guard lock(mutex_);
  Statement q(db_, std::string(kReportSelect) +
                       " WHERE (?1 = '' OR r.status = ?1) AND r.id < ?2 ORDER BY r.id DESC"
                       " LIMIT ?3");
  q.bind(1, status).bind(2, page.before_or_max()).bind(3, static_cast<std::int64_t>(page.limit));
  std::vector<Report> out;
  while (q.step()) out.push_back(report_at(q));
  return out;
}

std::optional<Report> SqliteModerationStore::report(std::int64_t id) {
  std::lock_guard lock(mutex_);
  Statement q(db_, std::string(kReportSelect) + " WHERE r.id = ?");
  q.bind(1, id);
  std::optional<Report> out;
  if (q.step()) out = report_at(q);
  q.reset();
  return out;
}

bool SqliteModerationStore::close_report(std::int64_t id, const std::string& status,
                                         const std::string& note, const AuditEntry& audit) {
  std::lock_guard lock(mutex_);
  Statement q(db_,
              "UPDATE reports SET status = ?2, note = ?3, handled_by = ?4, handled_at = ?5"
              " WHERE id = ?1 AND status = 'open'");
  q.bind(1, id).bind(2, status).bind(3, note).bind(4, audit.actor_id).bind(5, audit.at_ms);
  return change_and_log(q, audit);
}

bool SqliteModerationStore::add_block(std::int64_t user_id, std::int64_t blocked_id,
                                      std::int64_t at_ms) {
  std::lock_guard lock(mutex_);
  Statement q(db_, "INSERT OR IGNORE INTO blocks(user_id, blocked_id, at) VALUES (?, ?, ?)");
  q.bind(1, user_id).bind(2, blocked_id).bind(3, at_ms).run();
  return q.changes() > 0;
}

bool SqliteModerationStore::remove_block(std::int64_t user_id, std::int64_t blocked_id) {
  std::lock_guard lock(mutex_);
  Statement q(db_, "DELETE FROM blocks WHERE user_id = ? AND blocked_id = ?");
  q.bind(1, user_id).bind(2, blocked_id).run();
  return q.changes() > 0;
}

std::vector<UserRecord> SqliteModerationStore::blocked_by(std::int64_t user_id) {
  std::lock_guard lock(mutex_);
  Statement q(db_, std::string("SELECT ") + kUserColumns +
                       " FROM users WHERE id IN (SELECT blocked_id FROM blocks WHERE user_id = ?)"
                       " ORDER BY username");
  q.bind(1, user_id);
  std::vector<UserRecord> out;
  while (q.step()) out.push_back(user_at(q, 0));
  return out;
}

std::vector<std::pair<std::int64_t, std::int64_t>> SqliteModerationStore::all_blocks() {
  std::lock_guard lock(mutex_);
  Statement q(db_, "SELECT user_id, blocked_id FROM blocks");
  std::vector<std::pair<std::int64_t, std::int64_t>> out;
  while (q.step()) out.emplace_back(q.column_int(0), q.column_int(1));
  return out;
}

}  // namespace tengen::store
