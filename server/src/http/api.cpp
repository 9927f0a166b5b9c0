#include "http/api.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "engine/review.h"
#include "engine/sgf.h"
#include "http/api_util.h"
#include "protocol/codec.h"
#include "protocol/http_api.h"
#include "protocol/moderation_api.h"
#include "ratings/glicko2.h"
#include "reviews/review_audience.h"
#include "rooms/position_answer.h"
#include "rooms/time_off.h"
#include "store/unreachable.h"

namespace tengen {

namespace api {

ApiResponse error(int status, std::string_view code, std::string_view message) {
  return {status, protocol::http::encode_error(code, message), {}};
}

std::string media_type(const ApiRequest& r) {
  std::string type = r.content_type.substr(0, r.content_type.find(';'));
  while (type.ends_with(' ')) type.pop_back();
  for (auto& c : type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return type;
}

bool is_json(const ApiRequest& r) {
  return media_type(r) == "application/json";
}

ApiResponse not_json() {
  return error(415, "unsupported_media_type",
               "send the body as JSON, with Content-Type: application/json");
}

std::optional<std::int64_t> parse_int(std::string_view text) {
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<std::string_view> query_param(std::string_view target, std::string_view name) {
  const auto q = target.find('?');
  if (q == std::string_view::npos) return std::nullopt;
  std::string_view rest = target.substr(q + 1);
  while (!rest.empty()) {
    const auto amp = rest.find('&');
    const std::string_view pair = rest.substr(0, amp);
    const auto eq = pair.find('=');
    if (pair.substr(0, eq) == name)
      return eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1);
    if (amp == std::string_view::npos) break;
    rest.remove_prefix(amp + 1);
  }
  return std::nullopt;
}

std::variant<store::Page, ApiResponse> page_of(std::string_view target) {
  store::Page page{std::nullopt, api::kDefaultPage};
  if (const auto before = query_param(target, "before")) {
    const auto value = parse_int(*before);
    if (!value || *value < 1)
      return error(400, "bad_request", "'before' must be an id (a positive integer)");
    page.before = *value;
  }
  if (const auto limit = query_param(target, "limit")) {
    const auto value = parse_int(*limit);
    if (!value || *value < 1 || *value > kMaxPage) {
      return error(400, "bad_request",
                   "'limit' must be an integer from 1 to " + std::to_string(kMaxPage));
    }
    page.limit = static_cast<int>(*value);
  }
  return page;
}

}  // namespace api

namespace {

using namespace api;  // the API's helpers (http/api_util.h)

namespace wire = protocol::http;

constexpr int kCookieMaxAgeSeconds = 30 * 24 * 3600;

std::string session_cookie(const std::string& token, int max_age, bool secure) {
  return std::string(kSessionCookie) + "=" + token +
         "; Path=/; HttpOnly; SameSite=Lax; Max-Age=" + std::to_string(max_age) +
         (secure ? "; Secure" : "");
}

// Beside the session's (which scripts cannot read): that there is one, so that a guest's page
// does not ask GET /api/v1/me only to be told 401 (a console error on every visit). No secret.
std::string signed_in_cookie(bool in, bool secure) {
  return std::string(kSignedInCookie) + (in ? "=1" : "=") +
         "; Path=/; SameSite=Lax; Max-Age=" + std::to_string(in ? kCookieMaxAgeSeconds : 0) +
         (secure ? "; Secure" : "");
}

}  // namespace

std::string token_from_cookie(std::string_view header) {
  while (!header.empty()) {
    const auto end = header.find(';');
    std::string_view part = header.substr(0, end);
    while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
    if (part.starts_with(kSessionCookie) && part.size() > kSessionCookie.size() &&
        part[kSessionCookie.size()] == '=') {
      return std::string(part.substr(kSessionCookie.size() + 1));
    }
    if (end == std::string_view::npos) break;
    header.remove_prefix(end + 1);
  }
  return {};
}

ApiResponse Api::me(const store::UserRecord& user) {
  const auto vacation = accounts_.vacation(user.id);
  return ApiResponse{200,
                     wire::encode_me({user.id, user.username}, user.is_admin, user.time_zone,
                                     {vacation.left_ms, vacation.until_ms}),
                     {}};
}

ApiResponse Api::logged_in(const Accounts::Outcome& outcome, int status) {
  if (const auto* f = std::get_if<Accounts::Failure>(&outcome)) {
    switch (f->problem) {
      case Accounts::Problem::BadUsername:
        return error(400, "bad_username", f->message);
      case Accounts::Problem::WeakPassword:
        return error(400, "weak_password", f->message);
      case Accounts::Problem::NameTaken:
        return error(409, "name_taken", f->message);
      case Accounts::Problem::BadCredentials:
        return error(401, "bad_credentials", f->message);
      case Accounts::Problem::RateLimited: {
        auto refused = error(429, "rate_limited", f->message);
        refused.retry_after_s = f->retry_after_s;
        return refused;
      }
      case Accounts::Problem::InviteRequired:
        return error(403, "invite_required", f->message);
      case Accounts::Problem::BadInvite:
        return error(403, "bad_invite", f->message);
      case Accounts::Problem::TooManyRegistrations: {
        auto refused = error(429, "too_many_registrations", f->message);
        refused.retry_after_s = f->retry_after_s;
        return refused;
      }
      case Accounts::Problem::Suspended:
        return {403, wire::encode_restricted("suspended", f->message, f->reason, f->until_ms), {}};
      case Accounts::Problem::Banned:
        return {403, wire::encode_restricted("banned", f->message, f->reason, std::nullopt), {}};
    }
  }
  const auto& in = std::get<Accounts::LoggedIn>(outcome);
  return {status,
          wire::encode_logged_in({in.user.id, in.user.username}, in.token, in.user.is_admin,
                                 in.user.time_zone),
          {session_cookie(in.token, kCookieMaxAgeSeconds, secure_cookies_),
           signed_in_cookie(true, secure_cookies_)}};
}

std::optional<ApiResponse> Api::handle(const ApiRequest& r) {
  try {
    return route(r);
  } catch (const store::Unreachable& e) {  // PostgreSQL restarting or away: nothing was done
    auto response = error(503, "database_unavailable",
                          "the server cannot reach its database right now: try again in a moment");
    response.retry_after_s = 2;
    return response;
  }
}

std::optional<ApiResponse> Api::route(const ApiRequest& r) {
  std::string_view path = r.target;
  path = path.substr(0, path.find('?'));
  if (!path.starts_with("/api/")) return std::nullopt;
  const bool post = r.method == "POST";
  try {
    if (auto response = analysis(r, path)) return response;
    if (auto response = ladders(r, path)) return response;
    if (auto response = simuls(r, path)) return response;
    if (auto response = pair_games(r, path)) return response;
    if (auto response = relays(r, path)) return response;
    if (auto response = classes(r, path)) return response;
    if (auto response = groups(r, path)) return response;
    if (auto response = games(r, path)) return response;
    if (auto response = ratings(r, path)) return response;
    if (auto response = tournaments(r, path)) return response;
    if (auto response = reviews(r, path)) return response;
    if (auto response = moderation(r, path)) return response;
    if (auto response = mail(r, path)) return response;
    if (auto response = push(r, path)) return response;
  } catch (const Unavailable& e) {  // the hub, asked from a front node, did not answer
    auto response = error(503, "unavailable", e.what());
    response.retry_after_s = 2;
    return response;
  }

  if (path == "/api/v1/positions") {
    if (!post) return error(405, "method_not_allowed", "use POST");
    if (!is_json(r)) return not_json();
    auto answer = answer_position(r.body);
    return ApiResponse{answer.status, std::move(answer.body), {}};
  }
  if (path == "/api/v1/register" || path == "/api/v1/login") {
    if (!post) return error(405, "method_not_allowed", "use POST");
    // JSON only: a cross-site HTML form can post text/plain or form data without a preflight,
    // never application/json.
    if (!is_json(r)) return not_json();
    const bool registration = path == "/api/v1/register";
    auto credentials = wire::decode_credentials(
        r.body, registration ? wire::CredentialsFor::Registration : wire::CredentialsFor::Login);
    if (auto* problem = std::get_if<std::string>(&credentials))
      return error(400, "bad_request", *problem);
    const auto& c = std::get<wire::Credentials>(credentials);
    const auto kind = c.bot ? Accounts::Kind::Bot : Accounts::Kind::Human;
    if (!registration)
      return logged_in(accounts_.login(c.username, c.password, r.user_agent, r.address), 200);
    auto outcome =
        accounts_.register_user(c.username, c.password, r.user_agent, r.address, kind, c.invite);
    // A new bot: the hub learns it is one (a class's protected students may play bots,
    // docs/classes.md). Not worth refusing the registration over if the hub is away.
    if (const auto* in = std::get_if<Accounts::LoggedIn>(&outcome); in && c.bot) {
      try {
        if (archive_.hub.reload_player) archive_.hub.reload_player(in->user.id);
      } catch (const std::exception&) {
      }
    }
    return logged_in(outcome, 201);
  }
  if (path == "/api/v1/logout") {
    if (!post) return error(405, "method_not_allowed", "use POST");
    accounts_.logout(r.token);
    return ApiResponse{
        204,
        "",
        {session_cookie("", 0, secure_cookies_), signed_in_cookie(false, secure_cookies_)}};
  }

  const auto user = accounts_.authenticate(r.token);
  if (path == "/api/v1/me" || path == "/api/v1/sessions" || path.starts_with("/api/v1/sessions/")) {
    if (!user) {
      auto refused = error(401, "not_authenticated", "log in first");
      refused.set_cookies.push_back(signed_in_cookie(false, secure_cookies_));  // none: forget it
      return refused;
    }
  }
  if (path == "/api/v1/me") {
    if (r.method == "PATCH") {
      if (!is_json(r)) return not_json();
      auto decoded = wire::decode_me_update(r.body);
      if (auto* problem = std::get_if<std::string>(&decoded))
        return error(400, "bad_request", *problem);
      const auto& update = std::get<wire::MeUpdate>(decoded);
      // Each part checked before anything changes: a refusal leaves everything as it was.
      if (update.time_zone && !known_time_zone(*update.time_zone)) {
        return error(400, "bad_time_zone",
                     "'" + *update.time_zone +
                         "' is not a time zone this server knows (an IANA name such as "
                         "Europe/Amsterdam or America/New_York)");
      }
      if (update.vacation == true) {
        const auto started = accounts_.start_vacation(user->id);
        if (const auto* refused = std::get_if<Accounts::VacationRefusal>(&started)) {
          if (*refused == Accounts::VacationRefusal::TooMany) {
            auto refusal =
                error(429, "too_many_vacations",
                      "at most 5 vacations may begin in a day; end this one later instead");
            refusal.retry_after_s = 3600;  // the day is a sliding one: an hour frees some
            return refusal;
          }
          return error(409, "no_vacation_left",
                       "you have less than an hour of vacation left (a day accrues every 12 "
                       "days)");
        }
      } else if (update.vacation == false) {
        accounts_.end_vacation(user->id);
      }
      if (update.time_zone) accounts_.set_time_zone(user->id, *update.time_zone);
      // The player's correspondence games follow their weekends and vacations at once.
      if ((update.time_zone || update.vacation) && archive_.hub.reload_player)
        archive_.hub.reload_player(user->id);
      return me(accounts_.find_user(user->id).value_or(*user));
    }
    if (r.method != "GET") return error(405, "method_not_allowed", "use GET or PATCH");
    auto answer = me(*user);
    // A login from before the marker existed gets it here.
    answer.set_cookies.push_back(signed_in_cookie(true, secure_cookies_));
    return answer;
  }
  if (path == "/api/v1/sessions") {
    if (r.method != "GET") return error(405, "method_not_allowed", "use GET");
    const auto current = accounts_.current_session(r.token);
    std::vector<wire::SessionInfo> list;
    for (const auto& s : accounts_.sessions(user->id)) {
      list.push_back(
          {s.id, s.user_agent, s.created_at_ms, s.last_seen_at_ms, current && *current == s.id});
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
