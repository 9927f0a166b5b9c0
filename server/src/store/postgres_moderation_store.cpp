#include "store/postgres_moderation_store.h"

#include "store/postgres.h"
#include "store/postgres_account_store.h"

namespace tengen::store {
namespace {

// The audit line's insert, its values $1..$7, from the rows of `changed` (a WITH above it).
constexpr const char* kLogChanged =
    " INSERT INTO audit_log(at, actor_id, action, target_user_id, target_game_id, reason, detail)"
    " SELECT $1::bigint, $2::bigint, $3::text, $4::bigint, $5::bigint, $6::text, $7::text"
    " FROM changed";

std::vector<pg::Param> audit_params(const AuditEntry& a) {
  return {a.at_ms, a.actor_id, a.action, a.target_user_id, a.target_game_id, a.reason, a.detail};
}

// `update` (its own parameters from $8 on, RETURNING a column) and its audit line, in one
// statement: the line is written when, and only when, the update changed a row.
bool change_and_log(pg::Connection& db, const std::string& update,
                    std::initializer_list<pg::Param> params, const AuditEntry& audit) {
  auto all = audit_params(audit);
  all.insert(all.end(), params.begin(), params.end());
  return db.query("WITH changed AS (" + update + ")" + kLogChanged, all).affected() > 0;
}

Invite invite_at(const pg::Result& r, int row) {
  return Invite{r.int64(row, 0),
                r.text(row, 1),
                r.optional_int64(row, 2),
                r.int64(row, 3),
                r.text(row, 4),
                static_cast<int>(r.int64(row, 5)),
                static_cast<int>(r.int64(row, 6)),
                r.optional_int64(row, 7),
                r.boolean(row, 8)};
}

Report report_at(const pg::Result& q, int row) {
  Report r;
  r.id = q.int64(row, 0);
  r.at_ms = q.int64(row, 1);
  r.reporter_id = q.int64(row, 2);
  r.target_id = q.int64(row, 3);
  r.category = q.text(row, 4);
  r.text = q.text(row, 5);
  r.game_id = q.optional_int64(row, 6);
  r.chat_seq = q.optional_int64(row, 7);
  r.chat_text = q.optional_text(row, 8);
  r.status = q.text(row, 9);
  r.handled_by = q.optional_int64(row, 10);
  r.handled_at_ms = q.optional_int64(row, 11);
  r.note = q.text(row, 12);
  r.reporter_name = q.text(row, 13);
  r.target_name = q.text(row, 14);
  r.handler_name = q.text(row, 15);
  r.group_id = q.optional_int64(row, 16);
  return r;
}

pg::Param hash(const TokenHash& h) {
  return pg::Param::bytes(h);
}

}  // namespace

PostgresModerationStore::PostgresModerationStore(const std::string& conninfo)
    : db_(std::make_unique<pg::Connection>(conninfo)) {}

PostgresModerationStore::~PostgresModerationStore() = default;

std::vector<UserRecord> PostgresModerationStore::search_users(const std::string& prefix,
                                                              int limit) {
  std::lock_guard lock(mutex_);
  const std::string pattern = like_prefix(prefix);
  const auto r = db_->query(std::string("SELECT ") + kUserColumns +
                                " FROM users WHERE lower(username) LIKE lower($1)"
                                " ORDER BY lower(username) LIMIT $2",
                            {pattern, limit});
  std::vector<UserRecord> out;
  for (int i = 0; i < r.rows(); ++i) out.push_back(user_at(r, i));
  return out;
}

bool PostgresModerationStore::set_admin(std::int64_t user_id, bool admin, const AuditEntry& audit) {
  std::lock_guard lock(mutex_);
  return change_and_log(*db_, "UPDATE users SET is_admin = $9 WHERE id = $8 RETURNING id",
                        {user_id, admin}, audit);
}

bool PostgresModerationStore::set_bot(std::int64_t user_id, bool bot, const AuditEntry& audit) {
  std::lock_guard lock(mutex_);
  return change_and_log(*db_, "UPDATE users SET is_bot = $9 WHERE id = $8 RETURNING id",
                        {user_id, bot}, audit);
}

bool PostgresModerationStore::set_restriction(std::int64_t user_id, const Restriction& r,
                                              const AuditEntry& audit) {
  std::lock_guard lock(mutex_);
  return change_and_log(*db_,
                        "UPDATE users SET banned = $9, suspended_until = $10,"
                        " moderation_reason = $11 WHERE id = $8 RETURNING id",
                        {user_id, r.banned, r.until_ms, r.reason}, audit);
}

bool PostgresModerationStore::set_password_hash(std::int64_t user_id, const std::string& hash,
                                                const AuditEntry& audit) {
  std::lock_guard lock(mutex_);
  return change_and_log(*db_, "UPDATE users SET password_hash = $9 WHERE id = $8 RETURNING id",
                        {user_id, hash}, audit);
}

void PostgresModerationStore::log(const AuditEntry& audit) {
  std::lock_guard lock(mutex_);
  db_->query(
      "INSERT INTO audit_log(at, actor_id, action, target_user_id, target_game_id, reason,"
      " detail) VALUES ($1, $2, $3, $4, $5, $6, $7)",
      audit_params(audit));
}

std::vector<AuditEntry> PostgresModerationStore::audit_log(Page page,
                                                           std::optional<std::int64_t> about) {
  std::lock_guard lock(mutex_);
  const auto r = db_->query(std::string(kAuditSelect) +
                                " WHERE a.id < $1 AND ($3::bigint IS NULL OR a.target_user_id = $3)"
                                " ORDER BY a.id DESC LIMIT $2",
                            {page.before_or_max(), page.limit, about});
  std::vector<AuditEntry> out;
  for (int i = 0; i < r.rows(); ++i) {
    out.push_back(AuditEntry{r.int64(i, 0), r.int64(i, 1), r.optional_int64(i, 2), r.text(i, 3),
                             r.optional_int64(i, 4), r.optional_int64(i, 5), r.text(i, 6),
                             r.text(i, 7), r.text(i, 8), r.text(i, 9)});
  }
  return out;
}

Invite PostgresModerationStore::create_invite(Invite invite, const AuditEntry& audit) {
  std::lock_guard lock(mutex_);
  auto params = audit_params(audit);
  for (pg::Param p :
       {pg::Param(invite.code), pg::Param(invite.created_by), pg::Param(invite.created_at_ms),
        pg::Param(invite.note), pg::Param(invite.max_uses), pg::Param(invite.expires_at_ms)}) {
    params.push_back(std::move(p));
  }
  const auto r = db_->query(
      "WITH changed AS (INSERT INTO invites(code, created_by, created_at, note, max_uses,"
      " expires_at) VALUES ($8, $9, $10, $11, $12, $13) RETURNING id),"
      " logged AS (INSERT INTO audit_log(at, actor_id, action, target_user_id, target_game_id,"
      " reason, detail) SELECT $1::bigint, $2::bigint, $3::text, $4::bigint, $5::bigint,"
      " $6::text, $7::text FROM changed)"
      " SELECT id FROM changed",
      params);
  invite.id = r.int64(0, 0);
  return invite;
}

std::vector<Invite> PostgresModerationStore::invites(int limit) {
  std::lock_guard lock(mutex_);
  const auto r = db_->query(
      std::string("SELECT ") + kInviteColumns + " FROM invites ORDER BY id DESC LIMIT $1", {limit});
  std::vector<Invite> out;
  for (int i = 0; i < r.rows(); ++i) out.push_back(invite_at(r, i));
  return out;
}

bool PostgresModerationStore::revoke_invite(std::int64_t id, const AuditEntry& audit) {
  std::lock_guard lock(mutex_);
  return change_and_log(
      *db_, "UPDATE invites SET revoked = true WHERE id = $8 AND NOT revoked RETURNING id", {id},
      audit);
}

std::optional<std::int64_t> PostgresModerationStore::take_invite(const std::string& code,
                                                                 std::int64_t now_ms) {
  std::lock_guard lock(mutex_);
  const auto r = db_->query(
      "UPDATE invites SET uses = uses + 1 WHERE code = $1 AND NOT revoked AND uses < max_uses"
      " AND (expires_at IS NULL OR expires_at > $2) RETURNING id",
      {code, now_ms});
  if (r.rows() == 0) return std::nullopt;
  return r.int64(0, 0);
}

void PostgresModerationStore::give_back_invite(std::int64_t id) {
  std::lock_guard lock(mutex_);
  db_->query("UPDATE invites SET uses = uses - 1 WHERE id = $1 AND uses > 0", {id});
}

void PostgresModerationStore::set_user_invite(std::int64_t user_id, std::int64_t invite_id) {
  std::lock_guard lock(mutex_);
  db_->query("UPDATE users SET invite_id = $1 WHERE id = $2", {invite_id, user_id});
}

int PostgresModerationStore::registrations_since(const TokenHash& address, std::int64_t since_ms) {
  std::lock_guard lock(mutex_);
  db_->query("DELETE FROM registrations WHERE at <= $1", {since_ms});
  const auto r =
      db_->query("SELECT count(*) FROM registrations WHERE address_hash = $1 AND at > $2",
                 {hash(address), since_ms});
  return static_cast<int>(r.int64(0, 0));
}

void PostgresModerationStore::add_registration(const TokenHash& address, std::int64_t at_ms) {
  std::lock_guard lock(mutex_);
  db_->query("INSERT INTO registrations(address_hash, at) VALUES ($1, $2)", {hash(address), at_ms});
}

std::int64_t PostgresModerationStore::add_report(const Report& r) {
  std::lock_guard lock(mutex_);
  return db_
      ->query(
          "INSERT INTO reports(at, reporter_id, target_id, category, text, game_id, chat_seq,"
          " chat_text, group_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
          {r.at_ms, r.reporter_id, r.target_id, r.category, r.text, r.game_id, r.chat_seq,
           r.chat_text, r.group_id})
      .int64(0, 0);
}

int PostgresModerationStore::open_reports_by(std::int64_t reporter_id) {
  std::lock_guard lock(mutex_);
  return static_cast<int>(
      db_->query("SELECT count(*) FROM reports WHERE reporter_id = $1 AND status = 'open'",
                 {reporter_id})
          .int64(0, 0));
}

std::vector<Report> PostgresModerationStore::reports(const std::string& status, Page page) {
  std::lock_guard lock(mutex_);
  const auto r = db_->query(std::string(kReportSelect) +
                                " WHERE ($1 = '' OR r.status = $1) AND r.id < $2"
                                " ORDER BY r.id DESC LIMIT $3",
                            {status, page.before_or_max(), page.limit});
  std::vector<Report> out;
  for (int i = 0; i < r.rows(); ++i) out.push_back(report_at(r, i));
  return out;
}

std::optional<Report> PostgresModerationStore::report(std::int64_t id) {
  std::lock_guard lock(mutex_);
  const auto r = db_->query(std::string(kReportSelect) + " WHERE r.id = $1", {id});
  if (r.rows() == 0) return std::nullopt;
  return report_at(r, 0);
}

bool PostgresModerationStore::close_report(std::int64_t id, const std::string& status,
                                           const std::string& note, const AuditEntry& audit) {
  std::lock_guard lock(mutex_);
  return change_and_log(*db_,
                        "UPDATE reports SET status = $9, note = $10, handled_by = $2,"
                        " handled_at = $1 WHERE id = $8 AND status = 'open' RETURNING id",
                        {id, status, note}, audit);
}

bool PostgresModerationStore::add_block(std::int64_t user_id, std::int64_t blocked_id,
                                        std::int64_t at_ms) {
  std::lock_guard lock(mutex_);
  return db_->query(
                "INSERT INTO blocks(user_id, blocked_id, at) VALUES ($1, $2, $3)"
                " ON CONFLICT DO NOTHING",
                {user_id, blocked_id, at_ms})
             .affected() > 0;
}

bool PostgresModerationStore::remove_block(std::int64_t user_id, std::int64_t blocked_id) {
  std::lock_guard lock(mutex_);
  return db_->query("DELETE FROM blocks WHERE user_id = $1 AND blocked_id = $2",
                    {user_id, blocked_id})
             .affected() > 0;
}

std::vector<UserRecord> PostgresModerationStore::blocked_by(std::int64_t user_id) {
  std::lock_guard lock(mutex_);
  const auto r = db_->query(std::string("SELECT ") + kUserColumns +
                                " FROM users WHERE id IN (SELECT blocked_id FROM blocks"
                                " WHERE user_id = $1) ORDER BY lower(username)",
                            {user_id});
  std::vector<UserRecord> out;
  for (int i = 0; i < r.rows(); ++i) out.push_back(user_at(r, i));
  return out;
}

std::vector<std::pair<std::int64_t, std::int64_t>> PostgresModerationStore::all_blocks() {
  std::lock_guard lock(mutex_);
  const auto r = db_->query("SELECT user_id, blocked_id FROM blocks");
  std::vector<std::pair<std::int64_t, std::int64_t>> out;
  for (int i = 0; i < r.rows(); ++i) out.emplace_back(r.int64(i, 0), r.int64(i, 1));
  return out;
}

}  // namespace tengen::store
