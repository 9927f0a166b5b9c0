// Classes for schools over HTTP (docs/classes.md): a teacher's classes, making one with its
// students' accounts, the dashboard, a student's new password, the round robin, protection and
// archiving; each account's course progress; and the administrators' list of teachers.
#include "groups/classes.h"
#include "http/api.h"
#include "http/api_util.h"
#include "http/refusal_replies.h"

namespace tengen {
namespace {

namespace wire = protocol::http;
using api::error;

ApiResponse refused(const Classes::Refusal& no) {
  return api::refused(no, 6);
}

ApiResponse done(const std::optional<Classes::Refusal>& no) {
  return api::done(no, 6);
}

ApiResponse made(const std::variant<Classes::Made, Classes::Refusal>& outcome, int status) {
  if (const auto* no = std::get_if<Classes::Refusal>(&outcome)) return refused(*no);
  const auto& m = std::get<Classes::Made>(outcome);
  // The passwords are shown this once (the cards): never stored in a cache.
  return ApiResponse{status, wire::encode_students_made(m.id, m.cards, m.skipped), {}};
}

}  // namespace

std::optional<ApiResponse> Api::classes(const ApiRequest& r, std::string_view path) {
  constexpr std::string_view kClasses = "/api/v1/classes";
  constexpr std::string_view kCourse = "/api/v1/me/course";
  constexpr std::string_view kTeachers = "/api/v1/admin/teachers";
  const bool course = path == kCourse || path.starts_with(std::string(kCourse) + "/");
  const bool teachers = path == kTeachers || path.starts_with(std::string(kTeachers) + "/");
  const bool my_class = path == "/api/v1/me/class";
  if (!course && !teachers && !my_class && path != kClasses &&
      !path.starts_with(std::string(kClasses) + "/"))
    return std::nullopt;
  if (!archive_.classes) return error(503, "classes_disabled", "this server has no classes");
  auto& classes = *archive_.classes;
  const auto viewer = r.token.empty() ? std::nullopt : accounts_.authenticate(r.token);
  if (!viewer) return error(401, "not_authenticated", "log in first");
  const auto& me = *viewer;

  if (course) {
    if (path == kCourse) {
      if (r.method != "GET") return error(405, "method_not_allowed", "use GET");
      return ApiResponse{200, wire::encode_lessons(classes.lessons(me.id)), {}};
    }
    if (r.method != "PUT") return error(405, "method_not_allowed", "use PUT");
    return done(classes.finish_lesson(me, std::string(path.substr(kCourse.size() + 1))));
  }
  if (my_class) {
    if (r.method != "GET") return error(405, "method_not_allowed", "use GET");
    return ApiResponse{
        200, wire::encode_my_class(classes.may_teach(me), classes.my_class(me.id)), {}};
  }
  if (r.method != "GET" && r.method != "DELETE" && !api::is_json(r)) return api::not_json();
  if (teachers) {
    if (!moderation_) return error(503, "unavailable", "moderation is not served here");
    if (!me.is_admin)
      return error(403, "not_admin", "only the server's administrators may do this");
    const auto audit = [&](const std::string& action, std::int64_t target) {
      moderation_->log({.at_ms = archive_.clock->unix_ms(),
                        .actor_id = me.id,
                        .action = action,
                        .target_user_id = target});
    };
    if (path == kTeachers && r.method == "GET")
      return ApiResponse{200, wire::encode_teachers(classes.teachers()), {}};
    std::string name;
    if (path == kTeachers && r.method == "POST") {
      auto decoded = wire::decode_teacher(r.body);
      if (const auto* why = std::get_if<1>(&decoded)) return error(400, "bad_request", *why);
      name = std::get<0>(decoded);
    } else if (path != kTeachers && r.method == "DELETE") {
      name = std::string(path.substr(kTeachers.size() + 1));
    } else {
      return error(405, "method_not_allowed", path == kTeachers ? "use GET or POST" : "use DELETE");
    }
    const auto target = accounts_.find_user(name);
    if (!target) return error(404, "not_found", "no user named '" + name + "'");
    if (target->is_bot) return error(400, "bad_request", "a bot cannot teach");
    const bool teach = r.method == "POST";
    if (classes.set_teacher(*target, teach, me))
      audit(teach ? "make_teacher" : "unmake_teacher", target->id);
    return ApiResponse{204, "", {}};
  }

  if (path == kClasses) {
    if (r.method == "GET")
      return ApiResponse{
          200, wire::encode_classes(classes.of_teacher(me), classes.may_teach(me)), {}};
    if (r.method != "POST") return error(405, "method_not_allowed", "use GET or POST");
    const auto form = wire::decode_class_form(r.body, true);
    if (const auto* why = std::get_if<std::string>(&form)) return error(400, "bad_request", *why);
    const Groups::Limits group_limits =
        archive_.groups ? archive_.groups->limits() : Groups::Limits{};
    return made(classes.create(me, std::get<wire::ClassForm>(form), group_limits), 201);
  }

  // /api/v1/classes/{id}[/what[/{n}/password]]
  std::string_view rest = path.substr(kClasses.size() + 1);
  const auto slash = rest.find('/');
  const auto id = api::parse_int(rest.substr(0, slash));
  if (!id || *id < 1) return error(400, "bad_request", "a class's id is a positive integer");
  const std::string_view what = slash == std::string_view::npos ? "" : rest.substr(slash + 1);
  const auto post_only = [&]() -> std::optional<ApiResponse> {
    if (r.method != "POST") return error(405, "method_not_allowed", "use POST");
    return std::nullopt;
  };
  if (what.empty()) {
    if (r.method != "GET") return error(405, "method_not_allowed", "use GET");
    auto page = classes.page(*id, me);
    if (const auto* no = std::get_if<Classes::Refusal>(&page)) return refused(*no);
    auto& [view, students] = std::get<0>(page);
    for (auto& s : students)
      s.rank = player(store::UserRecord{s.user.id, s.user.name, "", false}).rank;
    return ApiResponse{200, wire::encode_class(view, students), {}};
  }
  if (what == "students") {
    if (auto no = post_only()) return *no;
    const auto form = wire::decode_class_form(r.body, false);
    if (const auto* why = std::get_if<std::string>(&form)) return error(400, "bad_request", *why);
    return made(classes.add_students(*id, me, std::get<wire::ClassForm>(form).students), 201);
  }
  if (what.starts_with("students/") && what.ends_with("/password")) {
    if (auto no = post_only()) return *no;
    const auto middle = what.substr(9, what.size() - 9 - 9);
    const auto student = api::parse_int(middle);
    if (!student || *student < 1)
      return error(400, "bad_request", "a student's id is a positive integer");
    const auto card = classes.reset_password(*id, me, *student);
    if (const auto* no = std::get_if<Classes::Refusal>(&card)) return refused(*no);
    return ApiResponse{
        200, wire::encode_students_made(*id, {std::get<wire::StudentCard>(card)}, {}), {}};
  }
  if (what == "passwords") {
    if (auto no = post_only()) return *no;
    return made(classes.reset_passwords(*id, me), 200);
  }
  if (what == "settings") {
    if (auto no = post_only()) return *no;
    const auto on = wire::decode_class_protection(r.body);
    if (const auto* why = std::get_if<std::string>(&on)) return error(400, "bad_request", *why);
    return done(classes.set_protected(*id, me, std::get<bool>(on)));
  }
  if (what == "round-robin") {
    if (auto no = post_only()) return *no;
    const auto settings = wire::decode_class_round_robin(r.body);
    if (const auto* why = std::get_if<std::string>(&settings))
      return error(400, "bad_request", *why);
    const auto started = classes.round_robin(*id, me, std::get<protocol::GameSettings>(settings));
    if (const auto* no = std::get_if<Classes::Refusal>(&started)) return refused(*no);
    return ApiResponse{201, wire::encode_id(std::get<std::int64_t>(started)), {}};
  }
  if (what == "archive") {
    if (auto no = post_only()) return *no;
    return done(classes.archive(*id, me));
  }
  return error(404, "not_found", "no such API endpoint: " + std::string(path));
}

}  // namespace tengen
