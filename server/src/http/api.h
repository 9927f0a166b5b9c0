#pragma once

#include <optional>
#include <string>
#include <vector>

#include "accounts/accounts.h"

namespace tengen {

// What the HTTP layer hands the API, and what it gets back: no Beast types here.
struct ApiRequest {
  std::string method;  // "GET", "POST", "DELETE"
  std::string target;
  std::string body;
  std::string token;  // from the session cookie or an "Authorization: Bearer" header
  std::string user_agent;
  std::string address;  // the peer's IP address
};

struct ApiResponse {
  int status = 200;
  std::string body;  // JSON, or empty for 204
  std::vector<std::string> set_cookies;
};

inline constexpr std::string_view kSessionCookie = "tengen_session";

// The account endpoints under /api/v1 (protocol/README.md, "HTTP API").
class Api {
 public:
  explicit Api(Accounts& accounts) : accounts_(accounts) {}
  // nullopt when the target is not under /api/.
  std::optional<ApiResponse> handle(const ApiRequest& request);

 private:
  ApiResponse logged_in(const Accounts::Outcome& outcome, int status);
  Accounts& accounts_;
};

// The session token from a Cookie header value, or empty.
std::string token_from_cookie(std::string_view cookie_header);

}  // namespace tengen
