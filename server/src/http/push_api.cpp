// Web Push over HTTP (docs/web-client.md, "Push"): the server's public key, a device's
// subscription and its choices, a test message. Nothing here sends: messages go to the queue,
// which the pusher sends.
#include "protocol/push_api.h"

#include "http/api.h"
#include "http/api_util.h"
#include "push/pusher.h"

namespace tengen {
namespace {

namespace wire = protocol::http;
using api::error;

wire::PushDeviceView view(const std::optional<store::PushSubscription>& s) {
  if (!s) return {};
  return {true, s->choices.your_move, s->choices.game_start, s->choices.round_start,
          s->choices.opponent_back};
}

ApiResponse refused(const Pusher::Refusal& r) {
  switch (r.why) {
    case Pusher::Refusal::Why::BadEndpoint:
      return error(400, "bad_endpoint", r.message);
    case Pusher::Refusal::Why::BadKeys:
      return error(400, "bad_keys", r.message);
    case Pusher::Refusal::Why::NotSubscribed:
      return error(409, "not_subscribed", r.message);
  }
  return error(400, "bad_request", r.message);
}

}  // namespace

std::optional<ApiResponse> Api::push(const ApiRequest& r, std::string_view path) {
  if (path != "/api/v1/push" && !path.starts_with("/api/v1/me/push/")) return std::nullopt;
  if (path == "/api/v1/push") {
    if (r.method != "GET") return error(405, "method_not_allowed", "use GET");
    return ApiResponse{
        200, wire::encode_push_key(pusher_ != nullptr, pusher_ ? pusher_->public_key() : ""), {}};
  }
  if (!pusher_) return error(503, "push_disabled", "this server sends no push messages");
  if (r.method != "POST") return error(405, "method_not_allowed", "use POST");
  if (!api::is_json(r)) return api::not_json();
  const auto user = accounts_.authenticate(r.token);
  if (!user) return error(401, "not_authenticated", "log in first");
  if (user->is_bot) return error(403, "forbidden", "a bot's account has no devices");

  if (path == "/api/v1/me/push/subscribe") {
    const auto decoded = wire::decode_push_subscribe(r.body);
    if (const auto* problem = std::get_if<std::string>(&decoded))
      return error(400, "bad_request", *problem);
    const auto& s = std::get<wire::PushSubscribe>(decoded);
    const store::PushChoices choices{s.your_move.value_or(true), s.game_start.value_or(true),
                                     s.round_start.value_or(true), s.opponent_back.value_or(true)};
    const auto done = pusher_->subscribe(user->id, s.endpoint, s.p256dh, s.auth, choices);
    if (const auto* no = std::get_if<Pusher::Refusal>(&done)) return refused(*no);
    return ApiResponse{
        200, wire::encode_push_device(view(std::get<store::PushSubscription>(done))), {}};
  }
  const auto endpoint = wire::decode_push_endpoint(r.body);
  if (endpoint.index() == 1) return error(400, "bad_request", std::get<1>(endpoint));
  const std::string& device = std::get<0>(endpoint);
  if (path == "/api/v1/me/push/device")
    return ApiResponse{
        200, wire::encode_push_device(view(pusher_->subscription(user->id, device))), {}};
  if (path == "/api/v1/me/push/unsubscribe") {
    pusher_->unsubscribe(user->id, device);
    return ApiResponse{200, wire::encode_push_device({}), {}};
  }
  if (path == "/api/v1/me/push/test") {
    if (const auto no = pusher_->test(user->id, device)) return refused(*no);
    return ApiResponse{202, "{}", {}};
  }
  return error(404, "not_found", "no such API endpoint: " + std::string(path));
}

}  // namespace tengen
