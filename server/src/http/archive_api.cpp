#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "analysis/analysis.h"
#include "engine/review.h"
#include "engine/sgf.h"
#include "http/api.h"
#include "http/api_util.h"
#include "protocol/codec.h"
#include "protocol/http_api.h"
#include "ratings/glicko2.h"
#include "reviews/review_audience.h"
#include "store/unreachable.h"
#include "tournaments/federation.h"
#include "tournaments/opengotha.h"
#include "tournaments/player_list.h"

namespace tengen {

// The API's reads of the archive and of what the hub serves (docs/api.md): ratings, games,
// review boards and tournaments. Accounts, sessions and positions are in api.cpp.

namespace {

using namespace api;  // the API's helpers (http/api_util.h)

namespace wire = protocol::http;

std::optional<wire::GameInfo> game_info(const store::GameSummary& g) {
  auto settings = protocol::decode_stored_settings(g.settings);
  if (!std::holds_alternative<protocol::GameSettings>(settings)) return std::nullopt;
  return wire::GameInfo{g.id,
                        {g.black_id, g.black_name},
                        {g.white_id, g.white_name},
                        std::get<protocol::GameSettings>(settings),
                        g.created_at_ms,
                        g.ended_at_ms,
                        g.result,
                        g.end_reason,
                        g.move_count};
}

// The page's games; private ones only if `show_private` (the page itself is counted before that
// filter, so paging goes on past them).
ApiResponse game_list(const std::vector<store::GameSummary>& rows, const store::Page& page,
                      bool show_private) {
  std::vector<wire::GameInfo> list;
  for (const auto& row : rows) {
    auto info = game_info(row);
    if (info && (show_private || !info->settings.is_private)) list.push_back(std::move(*info));
  }
  std::optional<std::int64_t> next;
  if (static_cast<int>(rows.size()) == page.limit && !rows.empty()) next = rows.back().id;
  return {200, wire::encode_games(list, next), {}};
}

}  // namespace

protocol::http::PlayerRating Api::player(const store::UserRecord& user) {
  const auto stored = archive_.store->rating(user.id).value_or(store::StoredRating{user.id});
  const auto now = ratings::decayed(
      {stored.rating, stored.deviation, stored.volatility},
      stored.games ? static_cast<double>(archive_.clock->unix_ms() - stored.updated_at_ms) : 0);
  return {{user.id, user.username},
          user.is_bot,
          now.rating,
          now.deviation,
          now.volatility,
          ratings::rank_name(now.rating, now.deviation),
          now.deviation > ratings::kProvisionalDeviation,
          stored.games};
}

// GET /api/v1/users/{name}, /api/v1/users/{name}/ratings?limit= and /api/v1/ratings?ids=1,2;
// nullopt for other paths.
std::optional<ApiResponse> Api::ratings(const ApiRequest& r, std::string_view path) {
  constexpr std::string_view kUsers = "/api/v1/users/";
  constexpr std::string_view kHistory = "/ratings";
  const bool history = path.starts_with(kUsers) && path.ends_with(kHistory) &&
                       path.size() > kUsers.size() + kHistory.size();
  const bool profile = path.starts_with(kUsers) && path.size() > kUsers.size() &&
                       path.find('/', kUsers.size()) == std::string_view::npos;
  if (!(history || profile || path == "/api/v1/ratings")) return std::nullopt;
  if (r.method != "GET") return error(405, "method_not_allowed", "use GET");
  if (path == "/api/v1/ratings") {
    const auto ids = query_param(r.target, "ids").value_or("");
    std::vector<protocol::http::PlayerRating> players;
    std::string_view rest = ids;
    while (!rest.empty()) {
      const auto comma = rest.find(',');
      const auto id = parse_int(rest.substr(0, comma));
      if (!id || *id < 1)
        return error(400, "bad_request", "'ids' must be user ids separated by commas");
      if (players.size() == api::kMaxPage)
        return error(400, "bad_request", "at most 100 ids at once");
      if (const auto user = accounts_.find_user(*id)) players.push_back(player(*user));
      rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    }
    if (ids.empty()) return error(400, "bad_request", "'ids' must list at least one user id");
    return ApiResponse{200, wire::encode_ratings(players), {}};
  }
  const auto name_end = history ? path.size() - kHistory.size() : path.size();
  const std::string name(path.substr(kUsers.size(), name_end - kUsers.size()));
  const auto user = accounts_.find_user(name);
  if (!user) return error(404, "not_found", "no user named '" + name + "'");
  if (profile) return ApiResponse{200, wire::encode_player(player(*user)), {}};
  int limit = 100;
  if (const auto text = query_param(r.target, "limit")) {
    const auto value = parse_int(*text);
    if (!value || *value < 1 || *value > 1000)
      return error(400, "bad_request", "'limit' must be an integer from 1 to 1000");
    limit = static_cast<int>(*value);
  }
  std::vector<protocol::http::RatingPoint> points;
  for (const auto& p : archive_.store->rating_history(user->id, limit)) {
    points.push_back(
        {p.game_id, p.at_ms, p.rating, p.deviation, ratings::rank_name(p.rating, p.deviation)});
  }
  return ApiResponse{200, wire::encode_rating_history(player(*user), points), {}};
}

// GET /api/v1/games, /api/v1/games/{id}, /api/v1/games/{id}.sgf (also as /api/games/{id}.sgf)
// and /api/v1/users/{name}/games; nullopt for other paths.
std::optional<ApiResponse> Api::games(const ApiRequest& r, std::string_view path) {
  if (path.starts_with("/api/games"))
    path.remove_prefix(std::string_view("/api").size());
  else if (path.starts_with("/api/v1/games") || path.starts_with("/api/v1/users/"))
    path.remove_prefix(std::string_view("/api/v1").size());
  else
    return std::nullopt;
  constexpr std::string_view kUsers = "/users/";
  const bool user_games = path.starts_with(kUsers) && path.ends_with("/games");
  if (!(path == "/games" || path.starts_with("/games/") || user_games)) return std::nullopt;
  if (r.method != "GET") return error(405, "method_not_allowed", "use GET");
  if (path == "/games" || user_games) {
    auto page = page_of(r.target);
    if (auto* bad = std::get_if<ApiResponse>(&page)) return *bad;
    const auto& p = std::get<store::Page>(page);
    if (path == "/games") {
      const auto status = query_param(r.target, "status").value_or("finished");
      if (status == "finished") return game_list(archive_.store->finished_games(p), p, false);
      if (status == "live") return game_list(archive_.store->live_games(p), p, false);
      return error(400, "bad_request", "'status' must be 'finished' or 'live'");
    }
    const std::string name(path.substr(
        kUsers.size(), path.size() - kUsers.size() - std::string_view("/games").size()));
    const auto user = accounts_.find_user(name);
    if (!user) return error(404, "not_found", "no user named '" + name + "'");
    // A player's private games are listed to that player only.
    const auto viewer = r.token.empty() ? std::nullopt : accounts_.authenticate(r.token);
    return game_list(archive_.store->games_of(user->id, p), p, viewer && viewer->id == user->id);
  }
  std::string_view id_text = path.substr(std::string_view("/games/").size());
  const bool sgf = id_text.ends_with(".sgf");
  if (sgf) id_text.remove_suffix(4);
  const auto id = parse_int(id_text);
  if (!id || *id < 1) return error(400, "bad_request", "the game id must be a positive integer");
  const auto not_found = error(404, "not_found", "no game " + std::to_string(*id));
  const auto row = archive_.store->game(*id);
  const auto info = row ? game_info(*row) : std::nullopt;
  if (!info) return not_found;
  // A private game's details and record go to its two players only; to anyone else it does not
  // exist (numbers are sequential: a 403 would confirm it does).
  if (info->settings.is_private) {
    const auto viewer = r.token.empty() ? std::nullopt : accounts_.authenticate(r.token);
    if (!viewer || (viewer->id != info->black.id && viewer->id != info->white.id)) return not_found;
  }
  if (!sgf) return ApiResponse{200, wire::encode_game(*info), {}};
  auto record = archive_.store->finished_sgf(*id);
  if (record && archive_.analysis)  // its analysis written in, once there is one
    record = archive_.analysis->with_analysis(*id, std::move(*record));
  if (!record) record = archive_.hub.live_sgf(*id);
  if (!record) return not_found;
  ApiResponse response{200, std::move(*record), {}};
  response.content_type = "application/x-go-sgf";
  response.content_disposition = "attachment; filename=\"tengen-" + std::to_string(*id) + ".sgf\"";
  return response;
}

// GET /api/v1/reviews (the open ones), POST /api/v1/reviews (a new one, from a finished game, an
// SGF file or an empty board) and GET /api/v1/reviews/{id}.sgf; nullopt for other paths. Following
// and editing a review go over the WebSocket (docs/reviews.md).
std::optional<ApiResponse> Api::reviews(const ApiRequest& r, std::string_view path) {
  constexpr std::string_view kPrefix = "/api/v1/reviews";
  if (!path.starts_with(kPrefix)) return std::nullopt;
  // A private game's review is seen by its players, administrators and those invited only.
  const auto viewer = [&]() -> wire::Viewer {
    const auto user = r.token.empty() ? std::nullopt : accounts_.authenticate(r.token);
    if (!user) return {};
    return {user->id, user->is_admin};
  };
  if (path == kPrefix && r.method == "GET")
    return ApiResponse{200, archive_.hub.reviews(viewer()), {}};
  if (path == kPrefix && r.method == "POST") return new_review(r);
  if (path == kPrefix) return error(405, "method_not_allowed", "use GET or POST");
  std::string_view id_text = path.substr(kPrefix.size());
  // /api/v1/reviews/{id}/analysis[/{job}]: the engine asked about a position of the board.
  if (const auto at = id_text.find("/analysis"); id_text.starts_with("/") && at != id_text.npos) {
    const auto id = parse_int(id_text.substr(1, at - 1));
    if (!id || *id < 1)
      return error(400, "bad_request", "the review id must be a positive integer");
    return review_analysis(r, *id, id_text.substr(at + std::string_view("/analysis").size()));
  }
  if (!id_text.starts_with("/") || !id_text.ends_with(".sgf"))
    return error(404, "not_found", "reviews are at /api/v1/reviews/{id}.sgf");
  if (r.method != "GET") return error(405, "method_not_allowed", "use GET");
  id_text = id_text.substr(1, id_text.size() - 5);
  const auto id = parse_int(id_text);
  if (!id || *id < 1) return error(400, "bad_request", "the review id must be a positive integer");
  auto record = review_record(*id, viewer());
  if (!record) return error(404, "not_found", "no review " + std::to_string(*id));
  ApiResponse response{200, std::move(*record), {}};
  response.content_type = "application/x-go-sgf";
  response.content_disposition =
      "attachment; filename=\"tengen-review-" + std::to_string(*id) + ".sgf\"";
  return response;
}

std::optional<std::string> Api::review_record(std::int64_t id, const wire::Viewer& who) {
  auto record = archive_.hub.review_sgf(id, who);
  if (!record) {
    // Closed (or not there, or not theirs to see: all three look the same).
    const auto closed = archive_.store->closed_review(id);
    if (closed && closed_review_audience(*archive_.store, *closed).may_see(who))
      record = closed->sgf;
  }
  return record;
}

ApiResponse Api::new_review(const ApiRequest& r) {
  const auto owner = accounts_.authenticate(r.token);
  if (!owner) return error(401, "not_authenticated", "sign in to open a review");
  if (!is_json(r)) return not_json();
  auto decoded = wire::decode_review_source(r.body);
  if (auto* problem = std::get_if<std::string>(&decoded))
    return error(400, "bad_request", *problem);
  const auto& source = std::get<wire::ReviewSource>(decoded);
  wire::ReviewRequest request{{owner->id, owner->username}, source.title, source.game, {}, {}};
  GameTree tree;
  if (source.game) {
    const auto not_found = error(404, "not_found", "no game " + std::to_string(*source.game));
    const auto row = archive_.store->game(*source.game);
    const auto info = row ? game_info(*row) : std::nullopt;
    if (!info) return not_found;
    if (info->settings.is_private && owner->id != info->black.id && owner->id != info->white.id)
      return not_found;  // as GET /api/v1/games/{id} answers
    // Its review is as private as the game: its players, administrators and whom they invite.
    if (info->settings.is_private) request.players = {info->black, info->white};
    auto sgf = archive_.store->finished_sgf(*source.game);
    // Its analysis comes along (comments, the engine's lines beside the mistakes).
    if (sgf && archive_.analysis)
      sgf = archive_.analysis->with_analysis(*source.game, std::move(*sgf));
    if (!sgf) {
      return error(409, "game_in_play",
                   "game " + std::to_string(*source.game) +
                       " is still being played: it can be reviewed once it ends");
    }
    tree = read_sgf_tree(*sgf);
    if (request.title.empty()) request.title = info->black.name + " vs " + info->white.name;
  } else if (source.sgf) {
    try {
      tree = read_sgf_tree(*source.sgf, wire::kMaxReviewSgfNodes);
      ReviewTree{tree};  // every line playable under its own rules, or refused here
    } catch (const SgfError& e) {
      return error(422, "bad_sgf", e.what());
    }
    if (request.title.empty()) {
      for (const auto& [key, values] : tree.record.extra) {
        if (key == "GN" && !values.empty()) request.title = values.front();
      }
    }
    if (request.title.empty() && !tree.record.black_name.empty())
      request.title = tree.record.black_name + " vs " + tree.record.white_name;
    if (request.title.empty()) request.title = "Uploaded game";
    if (request.title.size() > wire::kMaxReviewTitleBytes)
      request.title.resize(wire::kMaxReviewTitleBytes);  // a name from the file, cut
  } else {
    tree.record.width = tree.record.height = source.size;
    tree.record.komi = source.komi;
    tree.record.rules = std::string(to_string(source.ruleset));
    if (request.title.empty()) request.title = "Demo board";
  }
  request.sgf = write_sgf(tree);
  const auto [status, body] = archive_.hub.create_review(request);
  ApiResponse response{status, body, {}};
  // Too many open reviews (the account's, or the server's): once some are closed.
  if (status == 429) response.retry_after_s = 60;
  return response;
}

// GET /api/v1/tournaments and /api/v1/tournaments/{id}; nullopt for other paths. Changes go
// over the WebSocket (create_tournament, tournament_register, ...).
std::optional<ApiResponse> Api::tournaments(const ApiRequest& r, std::string_view path) {
  constexpr std::string_view kPrefix = "/api/v1/tournaments";
  if (!path.starts_with(kPrefix)) return std::nullopt;
  if (path == std::string(kPrefix) + "/import") return import_tournament(r);
  if (path.starts_with(std::string(kPrefix) + "/") && path.ends_with("/players"))
    return add_tournament_players(
        r, path.substr(kPrefix.size() + 1, path.size() - kPrefix.size() - 1 - 8));
  if (r.method != "GET")
    return error(405, "method_not_allowed", "use GET; tournaments change over the WebSocket");
  if (!archive_.hub.tournaments || !archive_.hub.tournament)
    return error(503, "unavailable", "tournaments are not served here");
  if (path == kPrefix) {
    auto page = page_of(r.target);
    if (auto* bad = std::get_if<ApiResponse>(&page)) return *bad;
    return ApiResponse{200, archive_.hub.tournaments(std::get<store::Page>(page)), {}};
  }
  if (!path.starts_with(std::string(kPrefix) + "/")) return std::nullopt;
  // /{id}, or /{id}/egd.h9, /{id}/aga.txt, /{id}/opengotha.xml: its results for a federation,
  // or for OpenGotha.
  auto rest = path.substr(kPrefix.size() + 1);
  std::string_view file;
  if (const auto slash = rest.find('/'); slash != std::string_view::npos) {
    file = rest.substr(slash + 1);
    rest = rest.substr(0, slash);
    if (file != "egd.h9" && file != "aga.txt" && file != "opengotha.xml")
      return error(404, "not_found", "a tournament's files are egd.h9, aga.txt and opengotha.xml");
  }
  const auto id = parse_int(rest);
  if (!id || *id < 1)
    return error(400, "bad_request", "the tournament id must be a positive integer");
  auto view = archive_.hub.tournament(*id);
  if (!view) return error(404, "not_found", "no tournament " + std::to_string(*id));
  if (file.empty()) return ApiResponse{200, std::move(*view), {}};
  // The federations' files (docs/tournaments.md, "Federation files").
  const auto page = nlohmann::json::parse(*view);
  const std::string name = "tengen-tournament-" + std::to_string(*id);
  if (file == "opengotha.xml") {  // at any stage: while registering, the players
    ApiResponse response{200, federation::opengotha_xml(page), {}};
    response.content_type = "application/xml; charset=utf-8";
    response.content_disposition = "attachment; filename=\"" + name + "-opengotha.xml\"";
    return response;
  }
  const bool egd = file == "egd.h9";
  auto text = egd ? federation::egd_h9(page) : federation::aga_results(page);
  if (!text)
    return error(409, "not_started",
                 "the tournament has not started: it has no results to send yet");
  ApiResponse response{200, std::move(*text), {}};
  response.content_type = "text/plain; charset=utf-8";
  response.content_disposition = "attachment; filename=\"" + name + (egd ? ".h9\"" : "-aga.txt\"");
  return response;
}

// POST /api/v1/tournaments/import (docs/tournaments.md, "OpenGotha"): an OpenGotha file, as its
// body, made into an over-the-board tournament directed by whoever sends it: 201 and its id.
ApiResponse Api::import_tournament(const ApiRequest& r) {
  if (r.method != "POST") return error(405, "method_not_allowed", "send the file with POST");
  const auto director = accounts_.authenticate(r.token);
  if (!director) return error(401, "not_authenticated", "sign in to import a tournament");
  // XML by its type: a form on another site cannot send that without the browser asking first,
  // so a signed-in director's cookie alone does not import anything.
  const std::string type = media_type(r);
  if (type != "application/xml" && type != "text/xml")
    return error(415, "unsupported_media_type",
                 "send OpenGotha's file as XML, with Content-Type: application/xml");
  if (!archive_.hub.import_tournament)
    return error(503, "unavailable", "tournaments are not served here");
  // Read here first, so that a file that is not OpenGotha's is refused before the lobby is asked;
  // then sent on in UTF-8 (over the bus as JSON, on a cluster).
  if (auto read = federation::read_opengotha(r.body); auto* why = std::get_if<std::string>(&read))
    return error(422, "bad_file", *why);
  const auto made =
      archive_.hub.import_tournament(federation::opengotha_as_utf8(r.body), director->id);
  if (const auto* why = std::get_if<std::string>(&made)) return error(409, "refused", *why);
  return ApiResponse{201, nlohmann::json{{"tournament", std::get<std::int64_t>(made)}}.dump(), {}};
}

// POST /api/v1/tournaments/{id}/players (docs/tournaments.md, "A list of players from a
// spreadsheet"): a CSV list registered by the tournament's director: 201 and how many.
ApiResponse Api::add_tournament_players(const ApiRequest& r, std::string_view id_text) {
  if (r.method != "POST") return error(405, "method_not_allowed", "send the list with POST");
  const auto id = parse_int(id_text);
  if (!id || *id < 1)
    return error(400, "bad_request", "the tournament id must be a positive integer");
  const auto director = accounts_.authenticate(r.token);
  if (!director) return error(401, "not_authenticated", "sign in to register players");
  if (media_type(r) != "text/csv")  // as for the import: not what a form elsewhere can send
    return error(415, "unsupported_media_type",
                 "send the list as CSV, with Content-Type: text/csv");
  if (!archive_.hub.add_tournament_players)
    return error(503, "unavailable", "tournaments are not served here");
  if (auto read = federation::read_player_list(r.body, *id);
      auto* why = std::get_if<std::string>(&read))
    return error(422, "bad_list", *why);
  const auto added = archive_.hub.add_tournament_players(*id, director->id, r.body);
  if (const auto* why = std::get_if<std::string>(&added)) return error(409, "refused", *why);
  return ApiResponse{201, nlohmann::json{{"added", std::get<int>(added)}}.dump(), {}};
}

}  // namespace tengen
