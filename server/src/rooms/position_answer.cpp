#include "rooms/position_answer.h"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <vector>

#include "engine/dead_stones.h"
#include "engine/game.h"
#include "engine/scoring.h"
#include "engine/variation.h"
#include "protocol/http_api.h"
#include "rooms/position_view.h"
#include "rooms/wording.h"

namespace tengen {
namespace {

namespace wire = protocol::http;

PositionAnswer error(int status, std::string_view code, std::string_view message) {
  return {status, wire::encode_error(code, message)};
}

PositionAnswer refused(MoveError e, std::size_t index, const protocol::MoveRecord& m) {
  const std::string why = why_illegal(e, m.vertex) + " (move " + std::to_string(index + 1) + ", " +
                          color_name(m.color) + ")";
  const auto reason = refusal_of(e);
  return {422, reason ? wire::encode_error("illegal_move", why, *reason)
                      : wire::encode_error("illegal_move", why)};
}

// The stones a query names dead, each on a stone of `board`, sorted and once each; or the answer
// that refuses them.
std::variant<std::vector<Point>, PositionAnswer> dead_stones(const std::vector<std::string>& named,
                                                             const Board& board) {
  const Geometry& g = board.geometry();
  std::vector<Point> dead;
  for (const std::string& v : named) {
    const auto p = g.parse_gtp(v);
    if (!p || *p == kPass) return error(400, "bad_request", "no point " + v + " on this board");
    if (board.at(*p) == Color::Empty)
      return error(400, "bad_request", "no stone on " + v + " to be dead");
    dead.push_back(*p);
  }
  std::sort(dead.begin(), dead.end());
  dead.erase(std::unique(dead.begin(), dead.end()), dead.end());
  return dead;
}

}  // namespace

PositionAnswer answer_position(std::string_view body) {
  auto decoded = wire::decode_position_query(body);
  if (auto* problem = std::get_if<std::string>(&decoded))
    return error(400, "bad_request", *problem);
  const auto& q = std::get<wire::PositionQuery>(decoded);
  const Geometry g{q.width, q.height};
  Board start(g);
  for (const auto* list : {&q.black, &q.white}) {
    for (const std::string& v : *list) {
      const auto p = g.parse_gtp(v);
      if (!p || *p == kPass) return error(400, "bad_request", "no point " + v + " on this board");
      // One point in both lists (also written "d4" and "D4"): refused, not silently White's.
      if (list == &q.white && start.at(*p) == Color::Black)
        return error(400, "bad_request", "point " + v + " is in both 'black' and 'white'");
      start.set_stone(*p, list == &q.black ? Color::Black : Color::White);
    }
  }
  Rules rules = Rules::preset(q.ruleset);
  if (q.komi) rules.komi = *q.komi;
  Variation line(start, rules);
  std::vector<Point> removed;
  for (std::size_t i = 0; i < q.moves.size(); ++i) {
    const auto& m = q.moves[i];
    const auto p = g.parse_gtp(m.vertex);
    if (!p) return error(400, "bad_request", "no point " + m.vertex + " on this board");
    const MoveError e = line.play({m.color, *p}, i + 1 == q.moves.size() ? &removed : nullptr);
    if (e != MoveError::Ok) return refused(e, i, m);
  }
  auto view = position_view(line, removed);
  if (q.dead) {  // the position counted, with these stones dead
    const Board& b = line.board();
    auto dead = dead_stones(*q.dead, b);
    if (auto* answer = std::get_if<PositionAnswer>(&dead)) return std::move(*answer);
    const Score score =
        score_position(b, rules, std::get<std::vector<Point>>(dead),
                       {0, b.captures(Color::Black), b.captures(Color::White)}, q.handicap);
    view.score = score_view(score, g, rules);
  }
  return {200, wire::encode_position(view)};
}

PositionAnswer answer_local_game(std::string_view body) {
  auto decoded = wire::decode_local_game(body);
  if (auto* problem = std::get_if<std::string>(&decoded))
    return error(400, "bad_request", *problem);
  const auto& local = std::get<wire::LocalGameQuery>(decoded);
  const auto& q = local.position;
  const Geometry g{q.width, q.height};
  Rules rules = Rules::preset(q.ruleset);
  if (q.komi) rules.komi = *q.komi;
  std::optional<Game> game;
  try {
    game.emplace(Game::with_fixed_handicap(g, rules, q.handicap));
  } catch (const std::invalid_argument&) {
    return error(400, "bad_request",
                 "a " + std::to_string(g.width) + "×" + std::to_string(g.height) +
                     " board cannot take " + std::to_string(q.handicap) + " handicap stones");
  }
  std::vector<Point> removed;
  for (std::size_t i = 0; i < q.moves.size(); ++i) {
    const auto& m = q.moves[i];
    const auto p = g.parse_gtp(m.vertex);
    if (!p) return error(400, "bad_request", "no point " + m.vertex + " on this board");
    const MoveError e = game->play({m.color, *p}, removed);
    if (e != MoveError::Ok) return refused(e, i, m);
  }
  if (local.resigned) game->resign(*local.resigned);
  wire::LocalGameView view;
  view.position = position_view(game->board(), game->to_move(), removed);
  switch (game->phase()) {
    case Game::Phase::Playing:
      view.phase = "playing";
      break;
    case Game::Phase::Scoring:
      view.phase = "scoring";
      break;
    case Game::Phase::Over:
      view.phase = "over";
      break;
  }
  if (game->result()) view.result = game->result()->to_sgf();
  const bool scoring = game->phase() == Game::Phase::Scoring;
  if ((q.dead || local.suggest_dead) && !scoring)
    return error(409, "not_scoring", "the count waits for the end of play: both players pass");
  const Board& b = game->board();
  if (local.suggest_dead) {
    auto& names = view.suggested_dead.emplace();
    for (Point p : suggest_dead_stones(b)) names.push_back(g.to_gtp(p));
  }
  if (q.dead) {
    auto dead = dead_stones(*q.dead, b);
    if (auto* answer = std::get_if<PositionAnswer>(&dead)) return std::move(*answer);
    const Score score = score_position(
        b, rules, std::get<std::vector<Point>>(dead),
        {0, game->prisoners(Color::Black), game->prisoners(Color::White)}, game->handicap_stones());
    view.position.score = score_view(score, g, rules);
  }
  return {200, wire::encode_local_game(view)};
}

}  // namespace tengen
