// Relays over HTTP (docs/events.md, "Relays"): the list and a new relay, one relay and its record,
// its director's moves, take-backs, result and closing, and the spectators' delayed analysis.
// Following the boards goes over the WebSocket, as any review board's (docs/reviews.md).
#include "engine/sgf.h"
#include "events/relays.h"
#include "http/api.h"
#include "http/api_util.h"
#include "http/refusal_replies.h"

namespace tengen {
namespace {

namespace wire = protocol::http;
using api::done;
using api::error;
using api::refused;

}  // namespace

std::optional<ApiResponse> Api::relays(const ApiRequest& r, std::string_view path) {
  constexpr std::string_view kRelays = "/api/v1/relays";
  if (path != kRelays && !path.starts_with("/api/v1/relays/")) return std::nullopt;
  if (!archive_.relays) return error(503, "relays_disabled", "this server relays no games");
  auto& relays = *archive_.relays;
  const auto viewer = r.token.empty() ? std::nullopt : accounts_.authenticate(r.token);
  const auto login = error(401, "not_authenticated", "log in first");
  if (r.method != "GET" && !api::is_json(r)) return api::not_json();

  if (path == kRelays) {
    if (r.method == "GET") return ApiResponse{200, wire::encode_relays(relays.list()), {}};
    if (r.method != "POST") return error(405, "method_not_allowed", "use GET or POST");
    if (!viewer) return login;
    const auto form = wire::decode_relay_form(r.body);
    if (const auto* why = std::get_if<std::string>(&form)) return error(400, "bad_request", *why);
    const auto made = relays.create(*viewer, std::get<wire::RelayForm>(form));
    if (const auto* no = std::get_if<ActionRefusal>(&made)) return refused(*no, 1);
    return ApiResponse{201, wire::encode_relay(std::get<wire::RelaySummary>(made)), {}};
  }

  // /api/v1/relays/{id}[.sgf | /what]
  auto rest = path.substr(kRelays.size() + 1);
  const auto slash = rest.find('/');
  auto id_text = rest.substr(0, slash);
  const bool record = slash == std::string_view::npos && id_text.ends_with(".sgf");
  if (record) id_text.remove_suffix(4);
  const auto id = api::parse_int(id_text);
  if (!id || *id < 1) return error(400, "bad_request", "a relay's id is a positive integer");
  const auto what = slash == std::string_view::npos ? std::string_view{} : rest.substr(slash + 1);
  if (what.empty() || what == "analysis") {
    if (r.method != "GET") return error(405, "method_not_allowed", "use GET");
    if (what == "analysis") {
      const auto view = relays.analysis(*id);
      if (const auto* no = std::get_if<ActionRefusal>(&view)) return refused(*no);
      return ApiResponse{200, std::get<std::string>(view), {}};
    }
    const auto found = relays.relay(*id);
    if (const auto* no = std::get_if<ActionRefusal>(&found)) return refused(*no);
    const auto& relay = std::get<wire::RelaySummary>(found);
    if (!record) return ApiResponse{200, wire::encode_relay(relay), {}};
    // The game's record: its board's, with the result once it is in.
    auto sgf = review_record(relay.board, {});
    if (!sgf) return error(404, "not_found", "relay " + std::to_string(*id) + " has no record");
    if (!relay.result.empty()) {
      auto tree = read_sgf_tree(*sgf);
      tree.record.result = relay.result;
      sgf = write_sgf(tree);
    }
    ApiResponse response{200, std::move(*sgf), {}};
    response.content_type = "application/x-go-sgf";
    response.content_disposition =
        "attachment; filename=\"tengen-relay-" + std::to_string(*id) + ".sgf\"";
    return response;
  }
  if (r.method != "POST") return error(405, "method_not_allowed", "use POST");
  if (!viewer) return login;
  const auto& me = *viewer;
  const auto moves = [](const ActionAnswer<int>& a) {
    if (const auto* no = std::get_if<ActionRefusal>(&a)) return refused(*no, 1);
    return ApiResponse{200, "{\"moves\":" + std::to_string(std::get<int>(a)) + "}", {}};
  };
  if (what == "moves") {
    const auto form = wire::decode_relay_move(r.body);
    if (const auto* why = std::get_if<std::string>(&form)) return error(400, "bad_request", *why);
    return moves(relays.move(*id, me, std::get<wire::RelayMoveForm>(form)));
  }
  if (what == "takeback") return moves(relays.take_back(*id, me));
  if (what == "result") {
    const auto result = wire::decode_relay_result(r.body);
    if (result.index() == 1) return error(400, "bad_request", std::get<1>(result));
    return done(relays.finish(*id, me, std::get<0>(result)), 1);
  }
  if (what == "close") return done(relays.close(*id, me), 1);
  return error(404, "not_found", "no such endpoint: see docs/events.md");
}

}  // namespace tengen
