#include "http/api.h"

#include <charconv>

#include "protocol/http_api.h"

namespace tengen {
namespace {

namespace wire = protocol::http;

constexpr int kCookieMaxAgeSeconds = 30 * 24 * 3600;

ApiResponse error(int status, std::string_view code, std::string_view message) {
  return {status, wire::encode_error(code, message), {}};
}

std::string session_cookie(const std::string& token, int max_age) {
  return std::string(kSessionCookie) + "=" + token + "; Path=/; HttpOnly; SameSite=Lax; Max-Age=" +
         std::to_string(max_age);
}

}  // namespace

std::string token_from_cookie(std::string_view header) {
  while (!header.empty()) {
    const auto end = header.find(';');
    std::string_view part = header.substr(0, end);
    while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
    if (part.starts_with(kSessionCookie) && part.size() > kSessionCookie.size() && part[kSessionCookie.size()] == '=') {
      return std::string(part.substr(kSessionCookie.size() + 1));
    }
    if (end == std::string_view::npos) break;
    header.remove_prefix(end + 1);
  }
  return {};
}

ApiResponse Api::logged_in(const Accounts::Outcome& outcome, int status) {
  if (const auto* f = std::get_if<Accounts::Failure>(&outcome)) {
    switch (f->problem) {
      case Accounts::Problem::BadUsername: return error(400, "bad_username", f->message);
      case Accounts::Problem::WeakPassword: return error(400, "weak_password", f->message);
      case Accounts::Problem::NameTaken: return error(409, "name_taken", f->message);
      case Accounts::Problem::BadCredentials: return error(401, "bad_credentials", f->message);
      case Accounts::Problem::RateLimited: return error(429, "rate_limited", f->message);
    }
  }
  const auto& in = std::get<Accounts::LoggedIn>(outcome);
  return {status, wire::encode_logged_in({in.user.id, in.user.username}, in.token),
          {session_cookie(in.token, kCookieMaxAgeSeconds)}};
}

std::optional<ApiResponse> Api::handle(const ApiRequest& r) {
  std::string_view path = r.target;
  path = path.substr(0, path.find('?'));
  if (!path.starts_with("/api/")) return std::nullopt;
  const bool post = r.method == "POST";

  if (path == "/api/v1/register" || path == "/api/v1/login") {
    if (!post) return error(405, "method_not_allowed", "use POST");
    auto credentials = wire::decode_credentials(r.body);
    if (auto* problem = std::get_if<std::string>(&credentials)) return error(400, "bad_request", *problem);
    const auto& c = std::get<wire::Credentials>(credentials);
    return path == "/api/v1/register"
               ? logged_in(accounts_.register_user(c.username, c.password, r.user_agent, r.address), 201)
               : logged_in(accounts_.login(c.username, c.password, r.user_agent, r.address), 200);
  }
  if (path == "/api/v1/logout") {
    if (!post) return error(405, "method_not_allowed", "use POST");
    accounts_.logout(r.token);
    return ApiResponse{204, "", {session_cookie("", 0)}};
  }

  const auto user = accounts_.authenticate(r.token);
  if (path == "/api/v1/me" || path == "/api/v1/sessions" || path.starts_with("/api/v1/sessions/")) {
    if (!user) return error(401, "not_authenticated", "log in first");
  }
  if (path == "/api/v1/me") {
    if (r.method != "GET") return error(405, "method_not_allowed", "use GET");
    return ApiResponse{200, wire::encode_me({user->id, user->username}), {}};
  }
  if (path == "/api/v1/sessions") {
    if (r.method != "GET") return error(405, "method_not_allowed", "use GET");
    const auto current = accounts_.current_session(r.token);
    std::vector<wire::SessionInfo> list;
    for (const auto& s : accounts_.sessions(user->id)) {
      list.push_back({s.id, s.user_agent, s.created_at_ms, s.last_seen_at_ms, current && *current == s.id});
    }
    return ApiResponse{200, wire::encode_sessions(list), {}};
  }
  if (path.starts_with("/api/v1/sessions/")) {
    if (r.method != "DELETE") return error(405, "method_not_allowed", "use DELETE");
    const auto id_text = path.substr(std::string_view("/api/v1/sessions/").size());
    std::int64_t id = 0;
    const auto [end, ec] = std::from_chars(id_text.data(), id_text.data() + id_text.size(), id);
    if (ec != std::errc{} || end != id_text.data() + id_text.size()) {
      return error(400, "bad_request", "the session id must be a number");
    }
    if (!accounts_.revoke(user->id, id)) return error(404, "not_found", "no such session of yours");
    return ApiResponse{204, "", {}};
  }
  return error(404, "not_found", "no such API endpoint: " + std::string(path));
}

}  // namespace tengen
