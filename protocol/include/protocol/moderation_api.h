#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "protocol/messages.h"

// The JSON bodies of moderation (docs/moderation.md; protocol/README.md, "Moderation"): what
// administrators see and send under /api/v1/admin/, and a player's report and blocks.
namespace tengen::protocol::http {

inline constexpr std::size_t kMaxModerationReasonBytes = 500;  // shown to the user
inline constexpr std::size_t kMaxModerationNoteBytes = 1000;   // a report's resolution
inline constexpr std::size_t kMaxReportTextBytes = 1000;
inline constexpr std::size_t kMaxInviteNoteBytes = 100;
inline constexpr int kMaxOpenReportsPerPlayer = 10;
inline constexpr int kMaxSuspensionHours = 24 * 366;
inline constexpr int kMaxInviteUses = 1000;
inline constexpr int kMaxInviteDays = 366;

// The reasons a player may give (the web client names each in the page's language).
inline constexpr std::string_view kReportCategories[] = {
    "harassment", "cheating", "stalling", "sandbagging", "spam", "offensive_name", "other"};

// A user as administrators see them.
struct AccountView {
  UserRef user{};
  bool bot = false;
  bool admin = false;
  bool banned = false;
  std::optional<std::int64_t> suspended_until_ms{};  // only while it lasts
  std::string reason{};                              // of the ban or suspension
  std::int64_t created_at_ms = 0;
};
// {"users": [{"id", "name", "bot", "admin", "banned", "suspended_until_ms", "reason",
//   "created_at_ms"}, ...]}
std::string encode_accounts(const std::vector<AccountView>& users);
// {"user": {...}} and, after a reset, "password": the new one, shown once.
std::string encode_account(const AccountView& user,
                           const std::optional<std::string>& password = std::nullopt);

enum class AccountAction : std::uint8_t {
  Suspend,
  Ban,
  Reinstate,
  ResetPassword,
  MarkBot,
  UnmarkBot
};
struct AccountChange {
  AccountAction action = AccountAction::Suspend;
  std::string reason;  // required for suspend and ban (the user is shown it)
  int hours = 0;       // suspend: 1 to kMaxSuspensionHours
};
// {"action": "suspend"|"ban"|"reinstate"|"reset_password"|"mark_bot"|"unmark_bot", "reason",
//  "hours"}; the error names the problem.
std::variant<AccountChange, std::string> decode_account_change(std::string_view body);

// POST /api/v1/admin/games/{id}: {"action": "delete_chat", "line": seq, "reason"},
// {"action": "annul", "reason"} or {"action": "adjudicate", "result": "B+R", "reason"}.
struct GameAction {
  enum class Kind : std::uint8_t { DeleteChat, Annul, Adjudicate };
  Kind kind = Kind::DeleteChat;
  std::int64_t line = 0;  // delete_chat: the chat line's event
  std::string result;     // adjudicate: in SGF terms (B+R, W+T, B+F, 0, Void), not a score
  std::string reason;
};
std::variant<GameAction, std::string> decode_game_action(std::string_view body);

struct AuditLine {
  std::int64_t id = 0;
  std::int64_t at_ms = 0;
  std::optional<UserRef> actor{};  // none: the command line
  std::string action{};
  std::optional<UserRef> user{};
  std::optional<std::int64_t> game{};
  std::string reason{}, detail{};
};
// {"entries": [...], "next_before": id or null}
std::string encode_audit(const std::vector<AuditLine>& lines, std::optional<std::int64_t> next);

// POST /api/v1/reports: {"user": name, "category", "text", "game": id, "chat_seq": n, "group": id,
// "group_line": n}.
struct ReportFiling {
  std::string user{};
  std::string category{};
  std::string text{};
  std::optional<std::int64_t> game{};
  std::optional<std::int64_t> chat_seq{};    // a chat line of `game`
  std::optional<std::int64_t> group{};       // a group (docs/groups.md)
  std::optional<std::int64_t> group_line{};  // a line of `group`'s chat
};
std::variant<ReportFiling, std::string> decode_report_filing(std::string_view body);

struct ReportView {
  std::int64_t id = 0;
  std::int64_t at_ms = 0;
  UserRef reporter{}, user{};
  std::string category{}, text{};
  std::optional<std::int64_t> game{}, chat_seq{};
  std::optional<std::string> chat_text{};
  std::string status{};
  std::optional<UserRef> handled_by{};
  std::optional<std::int64_t> handled_at_ms{};
  std::string note{};
  std::optional<std::int64_t> group{};
};
std::string encode_reports(const std::vector<ReportView>& reports,
                           std::optional<std::int64_t> next);
std::string encode_report_filed(std::int64_t id);

// POST /api/v1/admin/reports/{id}: {"action": "resolve"|"dismiss", "note"}.
struct ReportDecision {
  bool resolve = true;
  std::string note{};
};
std::variant<ReportDecision, std::string> decode_report_decision(std::string_view body);

struct InviteView {
  std::int64_t id = 0;
  std::string code{};
  std::string note{};
  int max_uses = 1, uses = 0;
  std::int64_t created_at_ms = 0;
  std::optional<std::int64_t> expires_at_ms{};
  bool revoked = false;
};
// POST /api/v1/admin/invites: {"note", "max_uses", "days"} (days: it expires; omitted: never).
struct InviteRequest {
  std::string note{};
  int max_uses = 1;
  std::optional<int> days{};
};
std::variant<InviteRequest, std::string> decode_invite_request(std::string_view body);
std::string encode_invites(const std::vector<InviteView>& invites);
std::string encode_invite(const InviteView& invite);

// Blocks (docs/moderation.md): GET /api/v1/blocks {"users": [{"id", "name"}, ...]}; POST
// {"user": name}. A player blocks at most kMaxBlocks others.
inline constexpr int kMaxBlocks = 500;
std::string encode_blocks(const std::vector<UserRef>& users);
// The name to block, or the problem (the second alternative).
std::variant<UserRef, std::string> decode_block(std::string_view body);

// A login refused because the account is suspended or banned: the error with the
// administrators' reason and, for a suspension, its end.
std::string encode_restricted(std::string_view code, std::string_view message,
                              std::string_view reason, std::optional<std::int64_t> until_ms);

}  // namespace tengen::protocol::http
