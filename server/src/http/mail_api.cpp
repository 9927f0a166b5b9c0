// E-mail over HTTP (docs/mail.md): a player's address and what is sent to it, the links that
// mails carry (an address's confirmation, a password reset), and the one-click unsubscribe of
// RFC 8058. Nothing here waits for the relay: mails go to the queue, which the mailer sends.
#include "protocol/mail_api.h"

#include "http/api.h"
#include "http/api_util.h"
#include "mail/mailer.h"

namespace tengen {
namespace {

namespace wire = protocol::http;
using api::error;

wire::MailView view(const Mailer& mailer, const std::optional<store::MailSettings>& s) {
  wire::MailView v{mailer.enabled()};
  v.your_move_minutes = mailer.your_move_interval().count() / 60000;
  if (!s) return v;
  v.address = s->address;
  v.verified = s->verified_at_ms.has_value();
  v.your_move = s->your_move;
  v.game_over = s->game_over;
  v.digest = s->digest;
  return v;
}

ApiResponse refused(const Mailer::Refusal& r) {
  using Why = Mailer::Refusal::Why;
  switch (r.why) {
    case Why::Disabled:
      return error(503, "mail_disabled", r.message);
    case Why::BadAddress:
      return error(400, "bad_address", r.message);
    case Why::NoAddress:
      return error(409, "no_address", r.message);
    case Why::TooMany: {
      auto response = error(429, "rate_limited", r.message);
      response.retry_after_s = r.retry_after_s;
      return response;
    }
    case Why::BadLink:
      return error(400, "bad_link", r.message);
    case Why::BadPassword:
      return error(400, "weak_password", r.message);
  }
  return error(400, "bad_request", r.message);
}

}  // namespace

std::optional<ApiResponse> Api::mail(const ApiRequest& r, std::string_view path) {
  const bool mine = path == "/api/v1/me/mail";
  if (!(mine || path.starts_with("/api/v1/mail/") || path == "/api/v1/password-reset" ||
        path == "/api/v1/password-reset/confirm"))
    return std::nullopt;
  if (!mailer_) return error(503, "mail_disabled", "this server sends no e-mail");

  // RFC 8058: a mail reader posts "List-Unsubscribe=One-Click" as a form, without a session; the
  // link's key is what authorises it.
  if (path == "/api/v1/mail/unsubscribe") {
    if (r.method != "POST") return error(405, "method_not_allowed", "use POST");
    const auto user = api::parse_int(api::query_param(r.target, "user").value_or(""));
    const auto key = api::query_param(r.target, "key").value_or("");
    const auto what = api::query_param(r.target, "what").value_or("all");
    if (!user || key.empty() || key.size() > 64)
      return error(400, "bad_link", "the link must name the user and carry its key");
    const auto done = mailer_->unsubscribe(*user, std::string(key), std::string(what));
    if (const auto* no = std::get_if<Mailer::Refusal>(&done)) return refused(*no);
    return ApiResponse{
        200, wire::encode_mail(view(*mailer_, std::get<store::MailSettings>(done))), {}};
  }

  if (r.method != "POST" && !mine) return error(405, "method_not_allowed", "use POST");
  if (r.method != "GET" && !api::is_json(r)) return api::not_json();

  if (path == "/api/v1/mail/verify") {
    const auto token = wire::decode_mail_token(r.body);
    if (token.index() == 1) return error(400, "bad_request", std::get<1>(token));
    const auto done = mailer_->verify(std::get<0>(token));
    if (const auto* no = std::get_if<Mailer::Refusal>(&done)) return refused(*no);
    return ApiResponse{
        200, wire::encode_mail(view(*mailer_, std::get<store::MailSettings>(done))), {}};
  }
  if (path == "/api/v1/password-reset") {
    const auto who = wire::decode_reset_request(r.body);
    if (who.index() == 1) return error(400, "bad_request", std::get<1>(who));
    if (auto no = mailer_->request_reset(std::get<0>(who), r.address)) return refused(*no);
    // The same answer whether or not such an account (with a verified address) exists.
    return ApiResponse{202, "{}", {}};
  }
  if (path == "/api/v1/password-reset/confirm") {
    const auto decoded = wire::decode_reset_confirm(r.body);
    if (const auto* problem = std::get_if<std::string>(&decoded))
      return error(400, "bad_request", *problem);
    const auto& c = std::get<wire::ResetConfirm>(decoded);
    const auto done = mailer_->reset_password(c.token, c.password);
    if (const auto* no = std::get_if<Mailer::Refusal>(&done)) return refused(*no);
    return ApiResponse{200, wire::encode_reset_done(std::get<std::string>(done)), {}};
  }
  if (!mine) return error(404, "not_found", "no such API endpoint: " + std::string(path));

  const auto user = accounts_.authenticate(r.token);
  if (!user) return error(401, "not_authenticated", "log in first");
  if (user->is_bot) return error(403, "forbidden", "a bot's account has no e-mail");
  if (r.method == "GET")
    return ApiResponse{200, wire::encode_mail(view(*mailer_, mailer_->settings(user->id))), {}};
  if (r.method != "PATCH") return error(405, "method_not_allowed", "use GET or PATCH");
  const auto decoded = wire::decode_mail_update(r.body);
  if (const auto* problem = std::get_if<std::string>(&decoded))
    return error(400, "bad_request", *problem);
  const auto& u = std::get<wire::MailUpdate>(decoded);
  const auto done = mailer_->change(user->id, {u.address, u.your_move, u.game_over, u.digest});
  if (const auto* no = std::get_if<Mailer::Refusal>(&done)) return refused(*no);
  return ApiResponse{
      200,
      wire::encode_mail(view(*mailer_, std::get<std::optional<store::MailSettings>>(done))),
      {}};
}

}  // namespace tengen
