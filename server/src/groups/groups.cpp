#include "groups/groups.h"

#include <sodium.h>

#include <algorithm>

#include "accounts/tokens.h"
#include "protocol/codec.h"

namespace tengen {
namespace {

namespace wire = protocol::http;
using Refusal = Groups::Refusal;

std::string hex_hash(const std::string& secret) {
  const auto h = hash_token(secret);
  std::string hex(h.size() * 2 + 1, '\0');
  sodium_bin2hex(hex.data(), hex.size(), h.data(), h.size());
  hex.pop_back();
  return hex;
}

bool runs(const std::optional<std::string>& role) {
  return role == "owner" || role == "admin";
}
bool belongs(const std::optional<std::string>& role) {
  return runs(role) || role == "member";
}

Refusal not_found(std::int64_t id) {
  return {404, "not_found", "no group " + std::to_string(id)};
}
Refusal not_yours(const std::string& what) {
  return {403, "not_group_admin", "only the group's owner and administrators " + what};
}
Refusal closed_group() {
  return {409, "group_closed", "the group is closed: it can be read, not changed"};
}

protocol::GroupLine line_of(const store::GroupChatRow& row) {
  protocol::GroupLine l{row.id, {row.user_id, row.user_name}, row.at_ms, row.text};
  if (row.deleted) l.deleted = true;
  return l;
}

bool is_private(const std::string& settings) {
  const auto decoded = protocol::decode_settings(settings);
  return !std::holds_alternative<protocol::GameSettings>(decoded) ||
         std::get<protocol::GameSettings>(decoded).is_private;
}

}  // namespace

wire::GroupSummary Groups::summary(const store::GroupRow& g, std::optional<std::string> role) {
  return {g.id,
          g.name,
          g.description,
          g.joining,
          {g.owner_id, g.owner_name},
          g.created_at_ms,
          g.closed_at_ms,
          g.members,
          std::move(role),
          g.is_class};
}

Refusal Groups::class_refusal() {
  return {403, "class_by_teacher", "a class's students are added by its teacher"};
}

std::optional<Refusal> Groups::student_stays(const store::UserRecord& me) {
  if (!s_.protected_student || !s_.protected_student(me.id)) return std::nullopt;
  return Refusal{403, "protected_student",
                 "you are a student of a class: you belong to your class, not to other groups"};
}

std::optional<Refusal> Groups::too_fast(const store::UserRecord& me) {
  std::lock_guard lock(chat_mutex_);
  if (change_rate_.try_take(std::to_string(me.id), s_.clock.steady_now())) return std::nullopt;
  return Refusal{429, "rate_limited",
                 "you are changing groups too fast: wait a few seconds and try again"};
}

Groups::Answer<std::pair<store::GroupRow, std::optional<std::string>>> Groups::find(
    std::int64_t id, std::optional<std::int64_t> viewer) {
  auto group = s_.store.group(id);
  if (!group) return not_found(id);
  std::optional<std::string> role;
  if (viewer) role = s_.store.role(id, *viewer);
  return std::pair{std::move(*group), std::move(role)};
}

std::vector<std::int64_t> Groups::member_ids(std::int64_t group, bool with_pending) {
  std::vector<std::int64_t> ids;
  for (const auto& m : s_.store.members(group))
    if (belongs(m.role) || (with_pending && m.role == "pending")) ids.push_back(m.user_id);
  return ids;
}

void Groups::tell(const store::GroupRow& group, protocol::GroupChange change,
                  std::optional<protocol::GroupLine> line, std::optional<std::int64_t> from,
                  std::vector<std::int64_t> also) {
  if (!s_.tell) return;
  auto users = member_ids(group.id, change == protocol::GroupChange::Members);
  users.insert(users.end(), also.begin(), also.end());
  const auto text = protocol::encode(
      protocol::ServerMessage{protocol::GroupEvent{group.id, group.name, change, std::move(line)}});
  s_.tell(users, from, text);
}

Groups::Answer<wire::GroupSummary> Groups::create(const store::UserRecord& me,
                                                  const wire::GroupForm& form) {
  if (me.is_bot) return Refusal{403, "bots_cannot", "a bot's account creates no groups"};
  if (auto no = student_stays(me)) return *no;
  if (auto no = too_fast(me)) return *no;
  if (s_.store.owned_by(me.id) >= limits_.owned_per_account)
    return Refusal{409, "too_many_groups",
                   "an account owns at most " + std::to_string(limits_.owned_per_account) +
                       " groups (closed ones count): delete one first"};
  if (s_.store.count() >= limits_.groups)
    return Refusal{409, "groups_full",
                   "this server has " + std::to_string(limits_.groups) +
                       " groups, as many as it keeps: ask its administrators"};
  if (static_cast<int>(s_.store.of_user(me.id).size()) >= limits_.memberships)
    return Refusal{409, "too_many_memberships",
                   "an account belongs to at most " + std::to_string(limits_.memberships) +
                       " groups: leave one first"};
  const auto id = s_.store.create(
      {*form.name, form.description.value_or(""), form.joining.value_or("open"), me.id}, now());
  if (!id) return Refusal{409, "group_name_taken", "a group is named '" + *form.name + "' already"};
  if (s_.changed) s_.changed(*id);
  return summary(*s_.store.group(*id), "owner");
}

std::vector<wire::GroupSummary> Groups::list(const store::Page& page) {
  std::vector<wire::GroupSummary> out;
  for (const auto& g : s_.store.list(page)) out.push_back(summary(g, std::nullopt));
  return out;
}

std::vector<wire::GroupSummary> Groups::of_user(std::int64_t user) {
  std::vector<wire::GroupSummary> out;
  for (const auto& [g, role] : s_.store.of_user(user)) out.push_back(summary(g, role));
  return out;
}

Groups::Answer<wire::GroupPage> Groups::page(std::int64_t id,
                                             const std::optional<store::UserRecord>& viewer) {
  auto found = find(id, viewer ? std::optional(viewer->id) : std::nullopt);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  auto& [group, role] = std::get<0>(found);
  const bool admin = runs(role) || (viewer && viewer->is_admin);
  // A class (docs/classes.md) is its teacher's and students' business.
  if (group.is_class && !belongs(role) && !admin) return not_found(id);
  wire::GroupPage page{summary(group, role), {}, {}, std::nullopt};
  for (const auto& m : s_.store.members(id)) {
    if (!belongs(m.role) && !admin) continue;  // requests and bans: the group's business
    page.members.push_back({{m.user_id, m.name}, m.bot, m.role, m.since_ms, ""});
  }
  for (const auto& g : s_.store.games(id, limits_.games_listed * 2)) {
    if (is_private(g.settings)) continue;
    page.games.push_back(
        {g.id, {g.black_id, g.black_name}, {g.white_id, g.white_name}, g.result, g.ended_at_ms});
    if (static_cast<int>(page.games.size()) == limits_.games_listed) break;
  }
  if (admin) page.has_invite = group.has_invite;
  return page;
}

Groups::Maybe Groups::update(std::int64_t id, const store::UserRecord& me,
                             const wire::GroupForm& form) {
  if (auto no = too_fast(me)) return *no;
  auto found = find(id, me.id);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  const auto& [group, role] = std::get<0>(found);
  if (!runs(role) && !me.is_admin) return not_yours("change its settings");
  if (group.closed_at_ms) return closed_group();
  s_.store.update(id, form.description.value_or(group.description),
                  form.joining.value_or(group.joining));
  tell(*s_.store.group(id), protocol::GroupChange::Settings);
  return std::nullopt;
}

Groups::Answer<std::string> Groups::join(std::int64_t id, const store::UserRecord& me,
                                         const std::optional<std::string>& invite) {
  if (auto no = too_fast(me)) return *no;
  auto found = find(id, me.id);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  const auto& [group, role] = std::get<0>(found);
  if (group.closed_at_ms) return closed_group();
  if (belongs(role)) return Refusal{409, "already_member", "you belong to this group already"};
  if (group.is_class) return class_refusal();
  if (auto no = student_stays(me)) return *no;
  if (role == "banned")
    return Refusal{403, "banned_from_group", "the group's administrators turned you out"};
  if (role == "pending")
    return Refusal{409, "already_asked", "you asked to join already: an administrator answers"};
  const bool invited = invite && s_.store.group_with_invite(hex_hash(*invite)) == id;
  if (invite && !invited)
    return Refusal{403, "bad_invitation",
                   "this invitation link does not work (any more): ask for a new one"};
  if (group.joining == "invite" && !invited)
    return Refusal{403, "invitation_required",
                   "this group takes members by invitation: ask one of its administrators for "
                   "the link"};
  if (static_cast<int>(s_.store.of_user(me.id).size()) >= limits_.memberships)
    return Refusal{409, "too_many_memberships",
                   "an account belongs to at most " + std::to_string(limits_.memberships) +
                       " groups: leave one first"};
  const bool asks = group.joining == "request" && !invited;
  if (asks && s_.store.count_role(id, "pending") >= limits_.pending)
    return Refusal{409, "too_many_requests",
                   "the group has " + std::to_string(limits_.pending) +
                       " requests waiting already: try again once they are answered"};
  if (!asks && group.members >= limits_.members)
    return Refusal{409, "group_full",
                   "the group has " + std::to_string(limits_.members) +
                       " members, as many as a group may have"};
  const std::string now_role = asks ? "pending" : "member";
  s_.store.set_role(id, me.id, now_role, now());
  if (s_.changed) s_.changed(id);
  tell(group, protocol::GroupChange::Members);
  return now_role;
}

Groups::Maybe Groups::leave(std::int64_t id, const store::UserRecord& me) {
  if (auto no = too_fast(me)) return *no;
  auto found = find(id, me.id);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  const auto& [group, role] = std::get<0>(found);
  if (!role || role == "banned") return Refusal{409, "not_member", "you do not belong to it"};
  if (group.is_class && role == "member")
    return Refusal{409, "student_stays",
                   "a student stays in the class until the teacher archives it"};
  if (role == "owner")
    return Refusal{409, "owner_stays",
                   "the owner cannot leave: hand the group to another member first, or close "
                   "or delete it"};
  s_.store.remove_member(id, me.id);
  if (s_.changed) s_.changed(id);
  tell(group, protocol::GroupChange::Members, std::nullopt, std::nullopt, {me.id});
  return std::nullopt;
}

Groups::Maybe Groups::set_role(std::int64_t id, const store::UserRecord& me, std::int64_t target,
                               const std::string& role) {
  if (auto no = too_fast(me)) return *no;
  auto found = find(id, me.id);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  const auto& [group, mine] = std::get<0>(found);
  if (!runs(mine) && !me.is_admin) return not_yours("change members' roles");
  if (group.closed_at_ms) return closed_group();
  const auto theirs = s_.store.role(id, target);
  if (!theirs) return Refusal{404, "not_member", "that account does not belong to the group"};
  if (*theirs == role) return std::nullopt;
  const bool owner = mine == "owner" || me.is_admin;
  if (*theirs == "owner")
    return Refusal{403, "owner_stays", "the owner's role changes only when they hand it over"};
  if (role == "owner") {
    if (mine != "owner") return Refusal{403, "not_owner", "only the owner hands the group over"};
    if (!belongs(theirs))
      return Refusal{409, "not_member", "the group goes to one of its members only"};
  } else if ((role == "admin" || *theirs == "admin") && !owner) {
    return Refusal{403, "not_owner", "only the owner makes and unmakes administrators"};
  } else if (role != "banned" && *theirs == "banned" && role != "member") {
    return Refusal{409, "banned", "let them back as a member first"};
  }
  if (role == "admin" && *theirs != "member")
    return Refusal{409, "not_member", "administrators are chosen among the members"};
  if (role == "member" && *theirs == "pending" && group.members >= limits_.members)
    return Refusal{409, "group_full",
                   "the group has " + std::to_string(limits_.members) +
                       " members, as many as a group may have"};
  if (role == "owner")
    s_.store.set_owner(id, target, now());
  else if (role == "member" && *theirs == "banned")
    s_.store.remove_member(id, target);  // let back: they may join again
  else
    s_.store.set_role(id, target, role, now());
  if (s_.changed) s_.changed(id);
  tell(group, protocol::GroupChange::Members, std::nullopt, std::nullopt, {target});
  return std::nullopt;
}

Groups::Maybe Groups::remove_member(std::int64_t id, const store::UserRecord& me,
                                    std::int64_t target) {
  if (target == me.id) return leave(id, me);
  if (auto no = too_fast(me)) return *no;
  auto found = find(id, me.id);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  const auto& [group, mine] = std::get<0>(found);
  if (!runs(mine) && !me.is_admin) return not_yours("turn members out");
  const auto theirs = s_.store.role(id, target);
  if (!theirs) return Refusal{404, "not_member", "that account does not belong to the group"};
  if (*theirs == "owner") return Refusal{403, "owner_stays", "the owner cannot be turned out"};
  if (*theirs == "admin" && mine != "owner" && !me.is_admin)
    return Refusal{403, "not_owner", "only the owner turns out administrators"};
  s_.store.remove_member(id, target);
  if (s_.changed) s_.changed(id);
  tell(group, protocol::GroupChange::Members, std::nullopt, std::nullopt, {target});
  return std::nullopt;
}

Groups::Answer<std::string> Groups::make_invite(std::int64_t id, const store::UserRecord& me) {
  if (auto no = too_fast(me)) return *no;
  auto found = find(id, me.id);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  const auto& [group, role] = std::get<0>(found);
  if (!runs(role) && !me.is_admin) return not_yours("make invitation links");
  if (group.closed_at_ms) return closed_group();
  auto secret = random_token(18);
  s_.store.set_invite(id, hex_hash(secret));
  return secret;
}

Groups::Maybe Groups::drop_invite(std::int64_t id, const store::UserRecord& me) {
  auto found = find(id, me.id);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  if (!runs(std::get<0>(found).second) && !me.is_admin) return not_yours("end invitation links");
  s_.store.set_invite(id, std::nullopt);
  return std::nullopt;
}

Groups::Maybe Groups::close(std::int64_t id, const store::UserRecord& me) {
  auto found = find(id, me.id);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  const auto& [group, role] = std::get<0>(found);
  if (role != "owner" && !me.is_admin)
    return Refusal{403, "not_owner", "only the owner closes the group"};
  if (!s_.store.close(id, now())) return closed_group();
  if (s_.changed) s_.changed(id);
  tell(group, protocol::GroupChange::Closed);
  return std::nullopt;
}

Groups::Maybe Groups::remove(std::int64_t id, const store::UserRecord& me) {
  auto found = find(id, me.id);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  const auto& [group, role] = std::get<0>(found);
  if (role != "owner" && !me.is_admin)
    return Refusal{403, "not_owner", "only the owner deletes the group"};
  if (group.is_class)
    return Refusal{409, "class_archived_not_deleted",
                   "a class is archived at the end of the year, not deleted: its students' "
                   "accounts stay"};
  const auto told = member_ids(id, true);
  if (!s_.store.remove(id)) return not_found(id);
  if (s_.changed) s_.changed(id);
  if (s_.tell)
    s_.tell(told, std::nullopt,
            protocol::encode(protocol::ServerMessage{
                protocol::GroupEvent{id, group.name, protocol::GroupChange::Deleted}}));
  return std::nullopt;
}

Groups::Answer<std::vector<protocol::GroupLine>> Groups::chat(std::int64_t id,
                                                              const store::UserRecord& viewer,
                                                              std::optional<std::int64_t> before) {
  auto found = find(id, viewer.id);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  if (!belongs(std::get<0>(found).second) && !viewer.is_admin)
    return Refusal{403, "members_only", "the group's chat is for its members"};
  std::vector<protocol::GroupLine> lines;
  const auto blocked = s_.blocked_by ? s_.blocked_by(viewer.id) : std::vector<std::int64_t>{};
  for (const auto& row : s_.store.chat(id, before, 100)) {
    if (std::find(blocked.begin(), blocked.end(), row.user_id) != blocked.end()) continue;
    lines.push_back(line_of(row));
  }
  return lines;
}

Groups::Answer<protocol::GroupLine> Groups::say(std::int64_t id, const store::UserRecord& me,
                                                const std::string& text) {
  auto found = find(id, me.id);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  const auto& [group, role] = std::get<0>(found);
  if (!belongs(role)) return Refusal{403, "members_only", "the group's chat is for its members"};
  if (group.closed_at_ms) return closed_group();
  {
    std::lock_guard lock(chat_mutex_);
    if (!chat_rate_.try_take(std::to_string(me.id), s_.clock.steady_now()))
      return Refusal{429, "rate_limited", "you are chatting too fast: wait a moment"};
  }
  const auto row = s_.store.add_chat(id, me.id, text, now(), limits_.chat_kept);
  auto line = line_of(row);
  tell(group, protocol::GroupChange::Chat, line, me.id);
  return line;
}

Groups::Maybe Groups::delete_line(std::int64_t id, std::int64_t line, const store::UserRecord& me) {
  auto found = find(id, me.id);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  const auto& [group, role] = std::get<0>(found);
  const auto row = s_.store.chat_line(id, line);
  if (!row) return Refusal{404, "not_found", "no line " + std::to_string(line) + " in the chat"};
  if (!runs(role) && !me.is_admin && row->user_id != me.id)
    return not_yours("delete others' lines");
  if (!s_.store.delete_chat(id, line, me.id)) return std::nullopt;  // deleted already
  auto gone = line_of(*s_.store.chat_line(id, line));
  tell(group, protocol::GroupChange::ChatDeleted, gone);
  return std::nullopt;
}

Groups::Answer<protocol::GroupLine> Groups::line_for_report(std::int64_t id, std::int64_t line,
                                                            const store::UserRecord& reporter) {
  auto found = find(id, reporter.id);
  if (auto* no = std::get_if<Refusal>(&found)) return *no;
  const auto row = s_.store.chat_line(id, line);
  if (!row || (!belongs(std::get<0>(found).second) && !reporter.is_admin))
    return Refusal{404, "not_found",
                   "group " + std::to_string(id) + " has no chat line " + std::to_string(line)};
  return line_of(*row);
}

}  // namespace tengen
