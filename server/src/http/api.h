#pragma once

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "accounts/accounts.h"
#include "centre/reads.h"
#include "clock.h"
#include "protocol/http_api.h"
#include "store/game_store.h"
#include "store/moderation_store.h"

namespace tengen {

class Mailer;     // mail/mailer.h
class Pusher;     // push/pusher.h
class Analysis;   // analysis/analysis.h
class Groups;     // groups/groups.h
class Ladders;    // groups/ladders.h
class Classes;    // groups/classes.h
class Simuls;     // events/simuls.h
class PairGames;  // events/pair_games.h
class Relays;     // events/relays.h

// What the HTTP layer hands the API, and what it gets back: no Beast types here.
struct ApiRequest {
  std::string method;  // "GET", "POST", "DELETE"
  std::string target;
  std::string body;
  std::string token;  // from the session cookie or an "Authorization: Bearer" header
  std::string user_agent;
  std::string address;       // the peer's IP address
  std::string content_type;  // of the body, as sent
};

struct ApiResponse {
  ApiResponse() = default;
  ApiResponse(int status_code, std::string json_body, std::vector<std::string> cookies = {})
      : status(status_code), body(std::move(json_body)), set_cookies(std::move(cookies)) {}

  int status = 200;
  std::string body;  // JSON, or empty for 204, or what content_type says
  std::vector<std::string> set_cookies;
  std::string content_type = "application/json";
  std::string content_disposition;  // for downloads
  int retry_after_s = 0;            // 429: sent as Retry-After
};

// Where the games endpoints read: finished games from the store, the rest from the hub.
struct GameArchive {
  store::GameStore* store = nullptr;
  Clock* clock = nullptr;  // required: a rating's deviation grows with the time since its last game
  HubReads hub;
  Analysis* analysis = nullptr;  // analysis after the game; none: its endpoints answer 503
  Groups* groups = nullptr;      // groups (clubs); none: their endpoints answer 503
  Ladders* ladders = nullptr;    // groups' ladders; likewise
  Classes* classes = nullptr;    // classes for schools, and course progress; likewise
  Simuls* simuls = nullptr;      // simuls (docs/events.md); likewise
  PairGames* pairs = nullptr;    // pair Go and rengo (docs/events.md); likewise
  Relays* relays = nullptr;      // relays of games played over the board; likewise
};

inline constexpr std::string_view kSessionCookie = "tengen_session";
// Readable by the page: that it has a session (not which).
inline constexpr std::string_view kSignedInCookie = "tengen_signed_in";

// The endpoints under /api/v1 (protocol/README.md, "HTTP API"): accounts, sessions, games.
class Api {
 public:
  // `secure_cookies`: the session cookie is marked Secure (players come over https).
  // `moderation`: administrators and reports (docs/moderation.md); without it their endpoints
  // answer 503.
  // `mailer`: e-mail (docs/mail.md); without it its endpoints answer 503. `pusher`: Web Push
  // (docs/web-client.md, "Push"); likewise.
  Api(Accounts& accounts, GameArchive archive, bool secure_cookies = false,
      store::ModerationStore* moderation = nullptr, Mailer* mailer = nullptr,
      Pusher* pusher = nullptr)
      : accounts_(accounts),
        archive_(std::move(archive)),
        secure_cookies_(secure_cookies),
        moderation_(moderation),
        mailer_(mailer),
        pusher_(pusher) {}
  // nullopt when the target is not under /api/.
  std::optional<ApiResponse> handle(const ApiRequest& request);  // 503 while the database is away

 private:
  std::optional<ApiResponse> route(const ApiRequest& request);
  ApiResponse logged_in(const Accounts::Outcome& outcome, int status);
  ApiResponse me(const store::UserRecord& user);  // GET /api/v1/me's answer
  std::optional<ApiResponse> games(const ApiRequest& request, std::string_view path);
  std::optional<ApiResponse> ratings(const ApiRequest& request, std::string_view path);
  std::optional<ApiResponse> tournaments(const ApiRequest& request, std::string_view path);
  std::optional<ApiResponse> reviews(const ApiRequest& request, std::string_view path);
  ApiResponse new_review(const ApiRequest& request);
  ApiResponse import_tournament(const ApiRequest& request);
  ApiResponse add_tournament_players(const ApiRequest& request, std::string_view id);
  // A review board's SGF as `who` may see it (open or closed); nullopt if not theirs to see.
  std::optional<std::string> review_record(std::int64_t id, const protocol::http::Viewer& who);
  // POST /api/v1/reviews/{id}/analysis, GET /api/v1/reviews/{id}/analysis/{job}
  // (docs/analysis.md, "In a review board"); `rest` what follows "/analysis".
  ApiResponse review_analysis(const ApiRequest& request, std::int64_t review,
                              std::string_view rest);
  // http/moderation_api.cpp: POST /api/v1/reports and everything under /api/v1/admin/.
  std::optional<ApiResponse> moderation(const ApiRequest& request, std::string_view path);
  ApiResponse report(const ApiRequest& request, const store::UserRecord& reporter);
  // http/mail_api.cpp: /api/v1/me/mail, /api/v1/mail/..., /api/v1/password-reset[/confirm].
  std::optional<ApiResponse> mail(const ApiRequest& request, std::string_view path);
  // http/push_api.cpp: /api/v1/push, /api/v1/me/push/....
  std::optional<ApiResponse> push(const ApiRequest& request, std::string_view path);
  std::optional<ApiResponse> analysis(const ApiRequest& request, std::string_view path);
  // http/group_api.cpp: /api/v1/groups/... and /api/v1/me/groups.
  std::optional<ApiResponse> groups(const ApiRequest& request, std::string_view path);
  // /api/v1/groups/{id}/ladders and /api/v1/ladders/...
  std::optional<ApiResponse> ladders(const ApiRequest& request, std::string_view path);
  // http/simul_api.cpp: /api/v1/simuls and /api/v1/simuls/{id}[/join|leave|start|cancel].
  std::optional<ApiResponse> simuls(const ApiRequest& request, std::string_view path);
  // http/pair_api.cpp: /api/v1/pairgo and /api/v1/pairgo/{id}[/join|leave|start|cancel].
  std::optional<ApiResponse> pair_games(const ApiRequest& request, std::string_view path);
  // http/relay_api.cpp: /api/v1/relays, /api/v1/relays/{id}[.sgf|/moves|takeback|result|close|
  // analysis].
  std::optional<ApiResponse> relays(const ApiRequest& request, std::string_view path);
  // http/class_api.cpp: /api/v1/classes/..., /api/v1/me/class, /api/v1/me/course/... and
  // /api/v1/admin/teachers/....
  std::optional<ApiResponse> classes(const ApiRequest& request, std::string_view path);
  ApiResponse admin_workers(const ApiRequest& request, std::string_view rest,
                            const store::UserRecord& admin);
  ApiResponse blocks(const ApiRequest& request, std::string_view rest, const store::UserRecord& me);
  ApiResponse admin_users(const ApiRequest& request, std::string_view rest,
                          const store::UserRecord& admin);
  ApiResponse admin_reports(const ApiRequest& request, std::string_view rest,
                            const store::UserRecord& admin);
  ApiResponse admin_invites(const ApiRequest& request, std::string_view rest,
                            const store::UserRecord& admin);
  ApiResponse admin_game(const ApiRequest& request, std::string_view rest,
                         const store::UserRecord& admin);
  protocol::http::PlayerRating player(const store::UserRecord& user);
  Accounts& accounts_;
  GameArchive archive_;
  bool secure_cookies_ = false;
  store::ModerationStore* moderation_ = nullptr;
  Mailer* mailer_ = nullptr;
  Pusher* pusher_ = nullptr;
};

// The session token from a Cookie header value, or empty.
std::string token_from_cookie(std::string_view cookie_header);

}  // namespace tengen
