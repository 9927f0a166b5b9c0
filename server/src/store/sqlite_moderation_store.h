#pragma once

#include <mutex>

#include "store/moderation_store.h"
#include "store/sqlite.h"

namespace tengen::store {

// ModerationStore on a migrated SQLite file, over a connection of its own under a mutex. Its
// statements are prepared per call: administrators act rarely, and a registration's two lookups
// cost little next to hashing its password.
class SqliteModerationStore final : public ModerationStore {
 public:
  explicit SqliteModerationStore(const std::string& path) : db_(path) {}

  std::vector<UserRecord> search_users(const std::string& prefix, int limit) override;
  bool set_admin(std::int64_t user_id, bool admin, const AuditEntry& audit) override;
  bool set_bot(std::int64_t user_id, bool bot, const AuditEntry& audit) override;
  bool set_restriction(std::int64_t user_id, const Restriction& r,
                       const AuditEntry& audit) override;
  bool set_password_hash(std::int64_t user_id, const std::string& hash,
                         const AuditEntry& audit) override;
  void log(const AuditEntry& audit) override;
  std::vector<AuditEntry> audit_log(Page page,
                                    std::optional<std::int64_t> about = std::nullopt) override;
  Invite create_invite(Invite invite, const AuditEntry& audit) override;
  std::vector<Invite> invites(int limit) override;
  bool revoke_invite(std::int64_t id, const AuditEntry& audit) override;
  std::optional<std::int64_t> take_invite(const std::string& code, std::int64_t now_ms) override;
  void give_back_invite(std::int64_t id) override;
  void set_user_invite(std::int64_t user_id, std::int64_t invite_id) override;
  int registrations_since(const TokenHash& address, std::int64_t since_ms) override;
  void add_registration(const TokenHash& address, std::int64_t at_ms) override;
  std::int64_t add_report(const Report& report) override;
  int open_reports_by(std::int64_t reporter_id) override;
  std::vector<Report> reports(const std::string& status, Page page) override;
  std::optional<Report> report(std::int64_t id) override;
  bool close_report(std::int64_t id, const std::string& status, const std::string& note,
                    const AuditEntry& audit) override;
  bool add_block(std::int64_t user_id, std::int64_t blocked_id, std::int64_t at_ms) override;
  bool remove_block(std::int64_t user_id, std::int64_t blocked_id) override;
  std::vector<UserRecord> blocked_by(std::int64_t user_id) override;
  std::vector<std::pair<std::int64_t, std::int64_t>> all_blocks() override;

 private:
  // Runs `change` (an UPDATE binding ?1 = the user) and, if it changed a row, the audit line,
  // in one transaction.
  bool change_and_log(Statement& change, const AuditEntry& audit);
  void insert_audit(const AuditEntry& audit);

  std::mutex mutex_;
  Database db_;
};

}  // namespace tengen::store
