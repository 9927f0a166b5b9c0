#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "store/account_store.h"
#include "store/game_store.h"

namespace tengen::store {

// The SQL these are read with (the same in either dialect): an audit line with its
// actor's and target's names, an invite's columns, a report with its people's names.
inline constexpr const char* kAuditSelect =
    "SELECT a.id, a.at, a.actor_id, a.action, a.target_user_id, a.target_game_id, a.reason,"
    " a.detail, coalesce(actor.username, ''), coalesce(target.username, '') FROM audit_log a"
    " LEFT JOIN users actor ON actor.id = a.actor_id"
    " LEFT JOIN users target ON target.id = a.target_user_id";
inline constexpr const char* kInviteColumns =
    "id, code, created_by, created_at, note, max_uses, uses, expires_at, revoked";
inline constexpr const char* kReportSelect =
    "SELECT r.id, r.at, r.reporter_id, r.target_id, r.category, r.text, r.game_id, r.chat_seq,"
    " r.chat_text, r.status, r.handled_by, r.handled_at, r.note, reporter.username,"
    " target.username, coalesce(handler.username, ''), r.group_id FROM reports r"
    " JOIN users reporter ON reporter.id = r.reporter_id"
    " JOIN users target ON target.id = r.target_id"
    " LEFT JOIN users handler ON handler.id = r.handled_by";

// A LIKE pattern for names beginning with `prefix` ('%', '_' and '\\' in it taken literally,
// with ESCAPE '\\').
inline std::string like_prefix(const std::string& prefix) {
  std::string pattern;
  for (char c : prefix) {
    if (c == '%' || c == '_' || c == '\\') pattern += '\\';
    pattern += c;
  }
  return pattern + '%';
}

// One administrative action (docs/moderation.md), written in the same transaction as the change it
// records. Names are filled in when read.
struct AuditEntry {
  std::int64_t id = 0;
  std::int64_t at_ms = 0;
  std::optional<std::int64_t> actor_id{};  // none: the command line
  std::string action{};                    // suspend, ban, reinstate, reset_password, ...
  std::optional<std::int64_t> target_user_id{};
  std::optional<std::int64_t> target_game_id{};
  std::string reason{};
  std::string detail{};
  std::string actor_name{}, target_name{};  // when read
};

struct Invite {
  std::int64_t id = 0;
  std::string code{};
  std::optional<std::int64_t> created_by{};
  std::int64_t created_at_ms = 0;
  std::string note{};
  int max_uses = 1;
  int uses = 0;
  std::optional<std::int64_t> expires_at_ms{};
  bool revoked = false;
};

struct Report {
  std::int64_t id = 0;
  std::int64_t at_ms = 0;
  std::int64_t reporter_id = 0;
  std::int64_t target_id = 0;
  std::string category{};  // harassment, cheating, ...
  std::string text{};
  std::optional<std::int64_t> game_id{};
  std::optional<std::int64_t> chat_seq{};
  std::optional<std::string> chat_text{};  // the line as it was when reported
  std::optional<std::int64_t> group_id{};  // a line of this group's chat (chat_seq: none)
  std::string status = "open";             // open, resolved, dismissed
  std::optional<std::int64_t> handled_by{};
  std::optional<std::int64_t> handled_at_ms{};
  std::string note{};
  std::string reporter_name{}, target_name{}, handler_name{};  // when read
};

// A user's restriction as an administrator sets it: none, suspended until a time, or banned.
struct Restriction {
  bool banned = false;
  std::optional<std::int64_t> until_ms{};
  std::string reason{};
};

// What moderation keeps (docs/moderation.md): administrators, restrictions, invites, reports,
// blocks, the audit log and the day's registrations per address; written once for SQLite and
// PostgreSQL over a sql::Connection of its own (under a mutex: safe from any thread). Every
// change an administrator makes takes the AuditEntry that records it, written in the same
// transaction: there is no change without its line in the log.
class ModerationStore {
 public:
  explicit ModerationStore(std::unique_ptr<sql::Connection> db) : db_(std::move(db)) {}

  // Users whose name starts with `prefix` (without case), by name; all of them for an empty one.
  std::vector<UserRecord> search_users(const std::string& prefix, int limit);
  // False if there is no such user (and nothing is logged).
  bool set_admin(std::int64_t user_id, bool admin, const AuditEntry& audit);
  bool set_bot(std::int64_t user_id, bool bot, const AuditEntry& audit);
  bool set_restriction(std::int64_t user_id, const Restriction& r, const AuditEntry& audit);
  bool set_password_hash(std::int64_t user_id, const std::string& hash, const AuditEntry& audit);
  // For actions whose change is elsewhere (a game annulled through the hub).
  void log(const AuditEntry& audit);
  // Newest first; `about`: only the lines whose target is that user (their history).
  std::vector<AuditEntry> audit_log(Page page, std::optional<std::int64_t> about = std::nullopt);

  // The new invite, with its id.
  Invite create_invite(Invite invite, const AuditEntry& audit);
  std::vector<Invite> invites(int limit);
  bool revoke_invite(std::int64_t id, const AuditEntry& audit);
  // Takes one use of the invite with this code if it can be used at `now_ms`: its id.
  std::optional<std::int64_t> take_invite(const std::string& code, std::int64_t now_ms);
  // Gives back the use taken when the registration then failed (the name was taken meanwhile).
  void give_back_invite(std::int64_t id);
  void set_user_invite(std::int64_t user_id, std::int64_t invite_id);

  // Registrations from an address (its SHA-256) since `since_ms`; older rows are deleted.
  int registrations_since(const TokenHash& address, std::int64_t since_ms);
  void add_registration(const TokenHash& address, std::int64_t at_ms);

  // Reports from players: the new one's id; how many of a player's are still open; a page of
  // those with a status ("" for all), newest first; one; and closing an open one (false if it
  // is not open).
  std::int64_t add_report(const Report& report);
  int open_reports_by(std::int64_t reporter_id);
  std::vector<Report> reports(const std::string& status, Page page);
  std::optional<Report> report(std::int64_t id);
  bool close_report(std::int64_t id, const std::string& status, const std::string& note,
                    const AuditEntry& audit);

  // Blocks between players: false when there was nothing to change.
  bool add_block(std::int64_t user_id, std::int64_t blocked_id, std::int64_t at_ms);
  bool remove_block(std::int64_t user_id, std::int64_t blocked_id);
  // The users a player blocks, by name.
  std::vector<UserRecord> blocked_by(std::int64_t user_id);
  // Every block (user, blocked), for the hub's memory at start.
  std::vector<std::pair<std::int64_t, std::int64_t>> all_blocks();

 private:
  void insert_audit(const AuditEntry& audit);
  // Runs `change` (an UPDATE) and, when it changed a row, the audit line, in one transaction:
  // whether it changed one.
  bool change_and_log(std::string_view change, const std::vector<sql::Value>& params,
                      const AuditEntry& audit);

  std::mutex mutex_;
  std::unique_ptr<sql::Connection> db_;
};

}  // namespace tengen::store
