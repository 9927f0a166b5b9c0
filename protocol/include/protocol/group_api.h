#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "protocol/messages.h"

// Groups (clubs) over HTTP (docs/groups.md; protocol/README.md, "Groups"): what a page sends and
// what it is shown. Shapes and bounds are checked here; who may do what is the server's
// (groups/groups.h).
namespace tengen::protocol::http {

inline constexpr std::size_t kMinGroupName = 3;            // characters
inline constexpr std::size_t kMaxGroupName = 40;           // characters
inline constexpr std::size_t kMaxGroupDescription = 2000;  // characters
inline constexpr std::size_t kMaxGroupLine = 500;          // characters of a chat line

// POST /api/v1/groups {"name", "description", "joining"}; POST /api/v1/groups/{id}/settings
// {"description", "joining"} (each optional there). `joining`: "open" (anyone joins), "request"
// (an administrator approves), "invite" (only with the invitation link).
struct GroupForm {
  std::optional<std::string> name;
  std::optional<std::string> description;
  std::optional<std::string> joining;
};
// Refuses, saying why: unknown fields, a name of fewer than 3 or more than 40 characters or with
// anything but letters, digits, spaces and - _ . ' &, spaces at its ends or two together; a
// description over 2,000 characters or with control characters other than newlines; a joining
// rule other than the three. `creating`: the name is required.
std::variant<GroupForm, std::string> decode_group_form(std::string_view body, bool creating);

// POST /api/v1/groups/{id}/join {"invite": "..."} (the invitation link's secret, optional).
std::variant<std::optional<std::string>, std::string> decode_group_join(std::string_view body);
// POST /api/v1/groups/{id}/members/{user} {"role": "owner" | "admin" | "member" | "banned"}.
std::variant<std::string, std::string> decode_group_role(std::string_view body);
// POST /api/v1/groups/{id}/chat {"text"}: 1 to 500 characters, no control characters; spaces at
// the ends dropped.
std::variant<std::string, std::string> decode_group_line(std::string_view body);

struct GroupSummary {
  std::int64_t id = 0;
  std::string name;
  std::string description;
  std::string joining;
  UserRef owner;
  std::int64_t created_at_ms = 0;
  std::optional<std::int64_t> closed_at_ms;
  int members = 0;
  std::optional<std::string> my_role;  // the viewer's: owner, admin, member, pending, banned
  bool is_class = false;               // a school's class (docs/classes.md): "class": true
};
struct GroupMemberView {
  UserRef user;
  bool bot = false;
  std::string role;
  std::int64_t since_ms = 0;
  std::string rank;  // "5k", "1d?"
};
struct GroupGameView {
  std::int64_t id = 0;
  UserRef black, white;
  std::string result;
  std::int64_t ended_at_ms = 0;
};
struct GroupPage {
  GroupSummary group;
  std::vector<GroupMemberView> members;  // pending and banned ones only to administrators
  std::vector<GroupGameView> games;
  std::optional<bool> has_invite;  // administrators: whether an invitation link works
};
// {"groups": [summary...], "next_before"}
std::string encode_groups(const std::vector<GroupSummary>& groups,
                          std::optional<std::int64_t> next_before);
// {"group": summary, "members": [...], "games": [...], "has_invite"?}
std::string encode_group_page(const GroupPage& page);
// {"lines": [GroupLine...]} oldest first
std::string encode_group_chat(const std::vector<GroupLine>& lines);
std::string encode_group_line(const GroupLine& line);
// {"role": "member" | "pending"}: POST .../join's answer
std::string encode_group_role(std::string_view role);
// {"invite": "secret"}: shown once
std::string encode_group_invite(std::string_view secret);

// ---- ladders (docs/groups.md, "Ladders") ----

inline constexpr std::size_t kMaxLadderName = 60;  // characters

// POST /api/v1/groups/{id}/ladders {"name", "settings": {game settings}, "reach", "accept_days",
// "on_win": "swap" | "move_up"}. The games are even (no handicap; the challenger takes Black) and
// public; `color`, `handicap` and `private` are not for a ladder.
struct LadderForm {
  std::string name;
  GameSettings settings;
  int reach = 3;        // 1 to 10
  int accept_days = 7;  // 1 to 30
  std::string on_win = "swap";
};
std::variant<LadderForm, std::string> decode_ladder_form(std::string_view body);
// POST /api/v1/ladders/{id}/challenges {"defender": user id}
std::variant<std::int64_t, std::string> decode_ladder_challenge(std::string_view body);
// POST /api/v1/ladders/{id}/away {"away": true | false}
std::variant<bool, std::string> decode_ladder_away(std::string_view body);

struct LadderSummary {
  std::int64_t id = 0;
  std::int64_t group = 0;
  std::string name;
  GameSettings settings;
  int reach = 3;
  int accept_days = 7;
  std::string on_win;
  int players = 0;
  std::int64_t created_at_ms = 0;
  std::optional<std::int64_t> closed_at_ms;
};
struct LadderRung {
  UserRef user;
  int rung = 0;
  bool away = false;
  std::int64_t joined_at_ms = 0;
};
struct LadderChallengeView {
  std::int64_t id = 0;
  UserRef challenger, defender;
  std::int64_t created_at_ms = 0;
  std::int64_t deadline_ms = 0;
  std::string state;
  std::optional<std::int64_t> game;
  std::string result;
};
struct LadderPage {
  LadderSummary ladder;
  std::string group_name;
  std::optional<std::string> my_role;  // in the group
  std::vector<LadderRung> players;
  std::vector<LadderChallengeView> challenges;  // unresolved first, then the latest resolved
  std::vector<std::pair<std::int64_t, std::string>> history;  // (at, event JSON), newest first
};
// {"ladders": [summary...]}
std::string encode_ladders(const std::vector<LadderSummary>& ladders);
// {"ladder": summary, "group": {"id", "name", "my_role"?}, "players": [...], "challenges": [...],
// "history": [{"at_ms", ...event}]}
std::string encode_ladder_page(const LadderPage& page);
// {"id": n}: what POST answers with
std::string encode_id(std::int64_t id);

// ---- classes (docs/classes.md) ----

inline constexpr std::size_t kMaxClassStudents = 60;  // made at once, and in one class
inline constexpr std::size_t kMaxStudentName = 40;    // characters, as the teacher types it
inline constexpr std::size_t kMaxLessonId = 40;       // bytes: a-z, 0-9, - and _

// POST /api/v1/classes {"name", "description"?, "students": ["Ann", ...]}: a class and an account
// for each student; POST /api/v1/classes/{id}/students {"students": [...]}: more students.
// A student's name: 1 to 40 characters, no control characters, spaces at the ends dropped;
// 1 to 60 of them, none twice (whatever the case). The class's name as a group's.
struct ClassForm {
  std::optional<std::string> name;
  std::string description;
  std::vector<std::string> students;
};
std::variant<ClassForm, std::string> decode_class_form(std::string_view body, bool creating);
// POST /api/v1/classes/{id}/settings {"protected": true | false}
std::variant<bool, std::string> decode_class_protection(std::string_view body);
// POST /api/v1/classes/{id}/round-robin {"settings": {game settings, as create_challenge}}
std::variant<GameSettings, std::string> decode_class_round_robin(std::string_view body);
// Why this is no lesson of the course's (PUT /api/v1/me/course/{lesson}), if it is not one.
std::optional<std::string> lesson_problem(std::string_view lesson);

// A student's account as made or given a new password: shown once, for the login cards.
struct StudentCard {
  UserRef user;
  std::string name;
  std::string password;
};
struct StudentView {
  UserRef user;
  std::string name;
  std::optional<std::int64_t> last_seen_ms;
  int games_finished = 0;
  int games_playing = 0;
  std::vector<std::string> lessons;  // the course's lessons finished
  std::string rank;
};
struct ClassView {
  GroupSummary group;
  bool is_protected = true;
  std::optional<std::int64_t> archived_at_ms;
  int students = 0;
};
// {"class": {...group, "protected", "archived_at_ms"?, "students"}, "students": [...]}
std::string encode_class(const ClassView& view, const std::vector<StudentView>& students);
// {"classes": [{...group, "protected", "archived_at_ms"?, "students"}], "teacher": bool}
std::string encode_classes(const std::vector<ClassView>& classes, bool teacher);
// {"id", "students": [{"user", "name", "password"}], "skipped": [{"name", "why"}]}
std::string encode_students_made(std::int64_t id, const std::vector<StudentCard>& cards,
                                 const std::vector<std::pair<std::string, std::string>>& skipped);
// {"lessons": ["liberties", ...]}
std::string encode_lessons(const std::vector<std::string>& lessons);
// {"teachers": [{"id", "name"}]}
std::string encode_teachers(const std::vector<UserRef>& teachers);
// POST /api/v1/admin/teachers {"user": "name"}: the user's name.
std::variant<std::string, std::string> decode_teacher(std::string_view body);
// GET /api/v1/me/class: {"teacher": bool, "student"?: {"class", "name", "protected"}}
struct MyClass {
  std::int64_t id = 0;
  std::string name;
  bool is_protected = true;
};
std::string encode_my_class(bool teacher, const std::optional<MyClass>& student);

}  // namespace tengen::protocol::http
