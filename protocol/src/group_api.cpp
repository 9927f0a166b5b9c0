#include "protocol/group_api.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

#include "forms.h"
#include "protocol/codec.h"

namespace tengen::protocol::http {
namespace {

using json = nlohmann::json;

using forms::characters;
using forms::control_in;
using forms::fail;
using forms::object_of;
using forms::trimmed;

std::optional<std::string> name_problem(const std::string& name) {
  const auto n = characters(name);
  if (n < kMinGroupName || n > kMaxGroupName)
    return "a group's name has 3 to 40 characters, not " + std::to_string(n);
  if (name.front() == ' ' || name.back() == ' ' || name.find("  ") != std::string::npos)
    return "a group's name has no spaces at its ends and never two together";
  for (const unsigned char c : name) {
    if (c >= 0x80) continue;  // letters of other alphabets
    if (std::isalnum(c) || c == ' ' || c == '-' || c == '_' || c == '.' || c == '\'' || c == '&')
      continue;
    return std::string("a group's name has letters, digits, spaces and - _ . ' & only, not '") +
           static_cast<char>(c) + "'";
  }
  if (control_in(name, false)) return "a group's name has no control characters";
  return std::nullopt;
}

json user(const UserRef& u) {
  return json{{"id", u.id}, {"name", u.name}};
}

json summary(const GroupSummary& g) {
  json j{{"id", g.id},           {"name", g.name},         {"description", g.description},
         {"joining", g.joining}, {"owner", user(g.owner)}, {"created_at_ms", g.created_at_ms},
         {"members", g.members}};
  if (g.closed_at_ms) j["closed_at_ms"] = *g.closed_at_ms;
  if (g.my_role) j["my_role"] = *g.my_role;
  if (g.is_class) j["class"] = true;
  return j;
}

json line(const GroupLine& l) {
  json j{{"id", l.id}, {"from", user(l.from)}, {"at_ms", l.at_ms}, {"text", l.text}};
  if (l.deleted && *l.deleted) j["deleted"] = true;
  return j;
}

}  // namespace

std::variant<GroupForm, std::string> decode_group_form(std::string_view body, bool creating) {
  const auto j = object_of(body);
  if (!j) return fail<GroupForm>("the body must be a JSON object");
  GroupForm form;
  for (const auto& [key, value] : j->items()) {
    if (key != "name" && key != "description" && key != "joining")
      return fail<GroupForm>("unknown field '" + key + "'");
    if (!value.is_string()) return fail<GroupForm>("field '" + key + "' must be a string");
  }
  if (j->contains("name")) {
    if (!creating) return fail<GroupForm>("a group's name cannot be changed");
    form.name = (*j)["name"].get<std::string>();
    if (auto no = name_problem(*form.name)) return fail<GroupForm>(*no);
  } else if (creating) {
    return fail<GroupForm>("missing field 'name'");
  }
  if (j->contains("description")) {
    form.description = trimmed((*j)["description"].get<std::string>());
    const auto n = characters(*form.description);
    if (n > kMaxGroupDescription)
      return fail<GroupForm>("a description has at most 2000 characters, not " + std::to_string(n));
    if (control_in(*form.description, true))
      return fail<GroupForm>("a description has no control characters but newlines");
  }
  if (j->contains("joining")) {
    form.joining = (*j)["joining"].get<std::string>();
    if (*form.joining != "open" && *form.joining != "request" && *form.joining != "invite")
      return fail<GroupForm>("field 'joining' must be one of open, request, invite, not '" +
                             *form.joining + "'");
  } else if (creating) {
    form.joining = "open";
  }
  return form;
}

std::variant<std::optional<std::string>, std::string> decode_group_join(std::string_view body) {
  using Out = std::variant<std::optional<std::string>, std::string>;
  if (body.empty()) return Out(std::in_place_index<0>, std::nullopt);
  const auto j = object_of(body);
  if (!j) return Out(std::in_place_index<1>, "the body must be a JSON object");
  for (const auto& [key, value] : j->items()) {
    if (key != "invite") return Out(std::in_place_index<1>, "unknown field '" + key + "'");
    if (!value.is_string() || value.get<std::string>().size() > 100)
      return Out(std::in_place_index<1>, "field 'invite' must be an invitation's secret");
  }
  if (!j->contains("invite")) return Out(std::in_place_index<0>, std::nullopt);
  return Out(std::in_place_index<0>, (*j)["invite"].get<std::string>());
}

std::variant<std::string, std::string> decode_group_role(std::string_view body) {
  using Out = std::variant<std::string, std::string>;
  const auto j = object_of(body);
  if (!j) return Out(std::in_place_index<1>, "the body must be a JSON object");
  for (const auto& [key, value] : j->items())
    if (key != "role") return Out(std::in_place_index<1>, "unknown field '" + key + "'");
  if (!j->contains("role") || !(*j)["role"].is_string())
    return Out(std::in_place_index<1>, "missing field 'role'");
  auto role = (*j)["role"].get<std::string>();
  if (role != "owner" && role != "admin" && role != "member" && role != "banned")
    return Out(std::in_place_index<1>,
               "field 'role' must be one of owner, admin, member, banned, not '" + role + "'");
  return Out(std::in_place_index<0>, std::move(role));
}

std::variant<std::string, std::string> decode_group_line(std::string_view body) {
  using Out = std::variant<std::string, std::string>;
  const auto j = object_of(body);
  if (!j) return Out(std::in_place_index<1>, "the body must be a JSON object");
  for (const auto& [key, value] : j->items())
    if (key != "text") return Out(std::in_place_index<1>, "unknown field '" + key + "'");
  if (!j->contains("text") || !(*j)["text"].is_string())
    return Out(std::in_place_index<1>, "missing field 'text'");
  auto text = trimmed((*j)["text"].get<std::string>());
  const auto n = characters(text);
  if (n == 0) return Out(std::in_place_index<1>, "a chat line cannot be empty");
  if (n > kMaxGroupLine)
    return Out(std::in_place_index<1>,
               "a chat line has at most 500 characters, not " + std::to_string(n));
  if (control_in(text, false))
    return Out(std::in_place_index<1>, "a chat line has no control characters");
  return Out(std::in_place_index<0>, std::move(text));
}

std::string encode_groups(const std::vector<GroupSummary>& groups,
                          std::optional<std::int64_t> next_before) {
  json list = json::array();
  for (const auto& g : groups) list.push_back(summary(g));
  json j{{"groups", std::move(list)}};
  if (next_before) j["next_before"] = *next_before;
  return j.dump();
}

std::string encode_group_page(const GroupPage& page) {
  json members = json::array();
  for (const auto& m : page.members)
    members.push_back({{"id", m.user.id},
                       {"name", m.user.name},
                       {"bot", m.bot},
                       {"role", m.role},
                       {"since_ms", m.since_ms},
                       {"rank", m.rank}});
  json games = json::array();
  for (const auto& g : page.games)
    games.push_back({{"id", g.id},
                     {"black", user(g.black)},
                     {"white", user(g.white)},
                     {"result", g.result},
                     {"ended_at_ms", g.ended_at_ms}});
  json j{{"group", summary(page.group)}, {"members", std::move(members)}, {"games", games}};
  if (page.has_invite) j["has_invite"] = *page.has_invite;
  return j.dump();
}

std::string encode_group_chat(const std::vector<GroupLine>& lines) {
  json list = json::array();
  for (const auto& l : lines) list.push_back(line(l));
  return json{{"lines", std::move(list)}}.dump();
}

std::string encode_group_line(const GroupLine& l) {
  return line(l).dump();
}

std::string encode_group_role(std::string_view role) {
  return json{{"role", role}}.dump();
}

std::string encode_group_invite(std::string_view secret) {
  return json{{"invite", secret}}.dump();
}

std::variant<LadderForm, std::string> decode_ladder_form(std::string_view body) {
  const auto j = object_of(body);
  if (!j) return fail<LadderForm>("the body must be a JSON object");
  LadderForm form;
  for (const auto& [key, value] : j->items())
    if (key != "name" && key != "settings" && key != "reach" && key != "accept_days" &&
        key != "on_win")
      return fail<LadderForm>("unknown field '" + key + "'");
  if (!j->contains("name") || !(*j)["name"].is_string())
    return fail<LadderForm>("missing field 'name'");
  form.name = trimmed((*j)["name"].get<std::string>());
  const auto n = characters(form.name);
  if (n < 1 || n > kMaxLadderName || control_in(form.name, false))
    return fail<LadderForm>("a ladder's name has 1 to 60 characters, no control characters");
  if (!j->contains("settings") || !(*j)["settings"].is_object())
    return fail<LadderForm>("missing field 'settings': its games' settings");
  const auto& given = (*j)["settings"];
  for (const char* no : {"color", "handicap", "private", "group"})
    if (given.contains(no))
      return fail<LadderForm>(std::string("field 'settings.") + no +
                              "' is not for a ladder: its games are even and public, the "
                              "challenger with Black");
  auto decoded = decode_settings(given.dump());
  if (const auto* why = std::get_if<std::string>(&decoded)) return fail<LadderForm>(*why);
  form.settings = std::get<GameSettings>(decoded);
  const auto number = [&](const char* key, int low, int high,
                          int& out) -> std::optional<std::string> {
    if (!j->contains(key)) return std::nullopt;
    const auto& v = (*j)[key];
    if (!v.is_number_integer() || v.get<std::int64_t>() < low || v.get<std::int64_t>() > high)
      return "field '" + std::string(key) + "' must be a whole number from " + std::to_string(low) +
             " to " + std::to_string(high);
    out = v.get<int>();
    return std::nullopt;
  };
  if (auto no = number("reach", 1, 10, form.reach)) return fail<LadderForm>(*no);
  if (auto no = number("accept_days", 1, 30, form.accept_days)) return fail<LadderForm>(*no);
  if (j->contains("on_win")) {
    if (!(*j)["on_win"].is_string() || ((*j)["on_win"] != "swap" && (*j)["on_win"] != "move_up"))
      return fail<LadderForm>("field 'on_win' must be swap or move_up");
    form.on_win = (*j)["on_win"].get<std::string>();
  }
  return form;
}

std::variant<std::int64_t, std::string> decode_ladder_challenge(std::string_view body) {
  using Out = std::variant<std::int64_t, std::string>;
  const auto j = object_of(body);
  if (!j) return Out(std::in_place_index<1>, "the body must be a JSON object");
  for (const auto& [key, value] : j->items())
    if (key != "defender") return Out(std::in_place_index<1>, "unknown field '" + key + "'");
  if (!j->contains("defender") || !(*j)["defender"].is_number_integer() ||
      (*j)["defender"].get<std::int64_t>() < 1)
    return Out(std::in_place_index<1>, "field 'defender' must be the id of the player challenged");
  return Out(std::in_place_index<0>, (*j)["defender"].get<std::int64_t>());
}

std::variant<bool, std::string> decode_ladder_away(std::string_view body) {
  using Out = std::variant<bool, std::string>;
  const auto j = object_of(body);
  if (!j) return Out(std::in_place_index<1>, "the body must be a JSON object");
  for (const auto& [key, value] : j->items())
    if (key != "away") return Out(std::in_place_index<1>, "unknown field '" + key + "'");
  if (!j->contains("away") || !(*j)["away"].is_boolean())
    return Out(std::in_place_index<1>, "field 'away' must be true or false");
  return Out(std::in_place_index<0>, (*j)["away"].get<bool>());
}

namespace {

json ladder_summary(const LadderSummary& l) {
  json j{{"id", l.id},
         {"group", l.group},
         {"name", l.name},
         {"settings", json::parse(encode_settings(l.settings))},
         {"reach", l.reach},
         {"accept_days", l.accept_days},
         {"on_win", l.on_win},
         {"players", l.players},
         {"created_at_ms", l.created_at_ms}};
  if (l.closed_at_ms) j["closed_at_ms"] = *l.closed_at_ms;
  return j;
}

}  // namespace

std::string encode_ladders(const std::vector<LadderSummary>& ladders) {
  json list = json::array();
  for (const auto& l : ladders) list.push_back(ladder_summary(l));
  return json{{"ladders", std::move(list)}}.dump();
}

std::string encode_ladder_page(const LadderPage& page) {
  json players = json::array();
  for (const auto& p : page.players)
    players.push_back({{"id", p.user.id},
                       {"name", p.user.name},
                       {"rung", p.rung},
                       {"away", p.away},
                       {"joined_at_ms", p.joined_at_ms}});
  json challenges = json::array();
  for (const auto& c : page.challenges) {
    json one{{"id", c.id},
             {"challenger", user(c.challenger)},
             {"defender", user(c.defender)},
             {"created_at_ms", c.created_at_ms},
             {"deadline_ms", c.deadline_ms},
             {"state", c.state},
             {"result", c.result}};
    if (c.game) one["game"] = *c.game;
    challenges.push_back(std::move(one));
  }
  json history = json::array();
  for (const auto& [at, text] : page.history) {
    auto e = json::parse(text, nullptr, false);
    if (!e.is_object()) continue;
    e["at_ms"] = at;
    history.push_back(std::move(e));
  }
  json group{{"id", page.ladder.group}, {"name", page.group_name}};
  if (page.my_role) group["my_role"] = *page.my_role;
  return json{{"ladder", ladder_summary(page.ladder)},
              {"group", std::move(group)},
              {"players", std::move(players)},
              {"challenges", std::move(challenges)},
              {"history", std::move(history)}}
      .dump();
}

std::string encode_id(std::int64_t id) {
  return json{{"id", id}}.dump();
}

// ---- classes ----

std::variant<ClassForm, std::string> decode_class_form(std::string_view body, bool creating) {
  const auto j = object_of(body);
  if (!j) return fail<ClassForm>("the body must be a JSON object");
  ClassForm form;
  for (const auto& [key, value] : j->items()) {
    if (key != "name" && key != "description" && key != "students")
      return fail<ClassForm>("unknown field '" + key + "'");
    if (!creating && key != "students")
      return fail<ClassForm>("field '" + key + "' is set when the class is made");
  }
  if (creating) {
    json group = json::object();
    if (j->contains("name")) group["name"] = (*j)["name"];
    if (j->contains("description")) group["description"] = (*j)["description"];
    auto decoded = decode_group_form(group.dump(), true);
    if (auto* no = std::get_if<std::string>(&decoded)) return fail<ClassForm>(*no);
    auto& g = std::get<GroupForm>(decoded);
    form.name = std::move(g.name);
    form.description = g.description.value_or("");
  }
  if (!j->contains("students") || !(*j)["students"].is_array())
    return fail<ClassForm>("field 'students' must be a list of the students' names");
  const auto& names = (*j)["students"];
  if (names.empty() || names.size() > kMaxClassStudents)
    return fail<ClassForm>("a class is made with 1 to " + std::to_string(kMaxClassStudents) +
                           " students at once, not " + std::to_string(names.size()));
  std::vector<std::string> keys;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto at = "student " + std::to_string(i + 1) + ": ";
    if (!names[i].is_string()) return fail<ClassForm>(at + "a name must be a string");
    auto name = trimmed(names[i].get<std::string>());
    const auto n = characters(name);
    if (n < 1 || n > kMaxStudentName)
      return fail<ClassForm>(at + "a name has 1 to " + std::to_string(kMaxStudentName) +
                             " characters, not " + std::to_string(n));
    if (control_in(name, false)) return fail<ClassForm>(at + "a name has no control characters");
    std::string key;
    for (const unsigned char c : name) key += static_cast<char>(std::tolower(c));
    if (std::find(keys.begin(), keys.end(), key) != keys.end())
      return fail<ClassForm>(at + "'" + name + "' is in the list twice");
    keys.push_back(key);
    form.students.push_back(std::move(name));
  }
  return form;
}

std::variant<bool, std::string> decode_class_protection(std::string_view body) {
  const auto j = object_of(body);
  if (!j) return fail<bool>("the body must be a JSON object");
  for (const auto& [key, value] : j->items())
    if (key != "protected") return fail<bool>("unknown field '" + key + "'");
  if (!j->contains("protected") || !(*j)["protected"].is_boolean())
    return fail<bool>("field 'protected' must be true or false");
  return (*j)["protected"].get<bool>();
}

std::variant<GameSettings, std::string> decode_class_round_robin(std::string_view body) {
  const auto j = object_of(body);
  if (!j) return fail<GameSettings>("the body must be a JSON object");
  for (const auto& [key, value] : j->items())
    if (key != "settings") return fail<GameSettings>("unknown field '" + key + "'");
  if (!j->contains("settings") || !(*j)["settings"].is_object())
    return fail<GameSettings>("field 'settings' must be the games' settings");
  auto decoded = decode_settings((*j)["settings"].dump());
  if (auto* no = std::get_if<std::string>(&decoded)) return fail<GameSettings>("settings: " + *no);
  return std::get<GameSettings>(decoded);
}

std::optional<std::string> lesson_problem(std::string_view lesson) {
  if (lesson.empty() || lesson.size() > kMaxLessonId)
    return "a lesson's name has 1 to " + std::to_string(kMaxLessonId) + " characters";
  for (const unsigned char c : lesson)
    if (!(std::islower(c) || std::isdigit(c) || c == '-' || c == '_'))
      return "a lesson's name has a-z, 0-9, - and _ only";
  return std::nullopt;
}

namespace {
json class_json(const ClassView& c) {
  auto j = summary(c.group);
  j["protected"] = c.is_protected;
  if (c.archived_at_ms) j["archived_at_ms"] = *c.archived_at_ms;
  j["students"] = c.students;
  return j;
}
}  // namespace

std::string encode_class(const ClassView& view, const std::vector<StudentView>& students) {
  json list = json::array();
  for (const auto& s : students) {
    json j{{"user", user(s.user)},
           {"name", s.name},
           {"games_finished", s.games_finished},
           {"games_playing", s.games_playing},
           {"lessons", s.lessons},
           {"rank", s.rank}};
    if (s.last_seen_ms) j["last_seen_ms"] = *s.last_seen_ms;
    list.push_back(std::move(j));
  }
  return json{{"class", class_json(view)}, {"students", std::move(list)}}.dump();
}

std::string encode_classes(const std::vector<ClassView>& classes, bool teacher) {
  json list = json::array();
  for (const auto& c : classes) list.push_back(class_json(c));
  return json{{"classes", std::move(list)}, {"teacher", teacher}}.dump();
}

std::string encode_students_made(std::int64_t id, const std::vector<StudentCard>& cards,
                                 const std::vector<std::pair<std::string, std::string>>& skipped) {
  json made = json::array();
  for (const auto& c : cards)
    made.push_back({{"user", user(c.user)}, {"name", c.name}, {"password", c.password}});
  json left = json::array();
  for (const auto& [name, why] : skipped) left.push_back({{"name", name}, {"why", why}});
  return json{{"id", id}, {"students", std::move(made)}, {"skipped", std::move(left)}}.dump();
}

std::string encode_lessons(const std::vector<std::string>& lessons) {
  return json{{"lessons", lessons}}.dump();
}

std::string encode_teachers(const std::vector<UserRef>& teachers) {
  json list = json::array();
  for (const auto& t : teachers) list.push_back(user(t));
  return json{{"teachers", std::move(list)}}.dump();
}

std::variant<std::string, std::string> decode_teacher(std::string_view body) {
  const auto j = object_of(body);
  if (!j) return fail<std::string>("the body must be a JSON object");
  for (const auto& [key, value] : j->items())
    if (key != "user") return fail<std::string>("unknown field '" + key + "'");
  if (!j->contains("user") || !(*j)["user"].is_string())
    return fail<std::string>("field 'user' must be a user's name");
  return std::variant<std::string, std::string>(std::in_place_index<0>,
                                                (*j)["user"].get<std::string>());
}

std::string encode_my_class(bool teacher, const std::optional<MyClass>& student) {
  json j{{"teacher", teacher}};
  if (student)
    j["student"] = {
        {"class", student->id}, {"name", student->name}, {"protected", student->is_protected}};
  return j.dump();
}

}  // namespace tengen::protocol::http
