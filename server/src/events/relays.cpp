#include "events/relays.h"

#include <spdlog/spdlog.h>

#include <cctype>
#include <nlohmann/json.hpp>

#include "analysis/analysis.h"
#include "engine/handicap.h"
#include "engine/sgf.h"
#include "protocol/http_api.h"

namespace tengen {
namespace {

using json = nlohmann::json;
using protocol::http::RelayOp;

protocol::http::RelaySummary summary_of(const store::RelayRow& r) {
  protocol::http::RelaySummary s;
  s.id = r.id;
  s.director = {r.director_id, r.director_name};
  s.event = r.event;
  s.round = r.round;
  s.table = r.table;
  s.black = r.black;
  s.black_rank = r.black_rank;
  s.white = r.white;
  s.white_rank = r.white_rank;
  s.size = r.size;
  s.komi = r.komi;
  s.ruleset = r.ruleset;
  s.handicap = r.handicap;
  s.delay = r.delay;
  s.board = r.board_review;
  s.commentary = r.commentary_review;
  s.moves = r.moves;
  s.last_move = r.last_move;
  s.state = r.state;
  s.result = r.result;
  s.created_at_ms = r.created_at_ms;
  s.finished_at_ms = r.finished_at_ms;
  return s;
}

// At most `most` bytes, not cutting a character in two.
std::string cut(std::string text, std::size_t most) {
  if (text.size() <= most) return text;
  std::size_t end = most;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  text.resize(end);
  return text;
}

// "Ilya Shikshin – Mateusz Surma (European Championship, round 3, table 1)": what the boards and
// the SGF's GN say.
std::string title_of(const protocol::http::RelayForm& f) {
  std::string where = f.event;
  if (f.round > 0) where += ", round " + std::to_string(f.round);
  if (f.table > 0) where += ", table " + std::to_string(f.table);
  return f.black + " – " + f.white + " (" + where + ")";
}

// What the boards' owner answered: the body as JSON, or the refusal it says.
ActionAnswer<json> answered(const std::pair<int, std::string>& a) {
  auto body = json::parse(a.second, nullptr, false);
  if (a.first < 300 && body.is_object()) return body;
  if (body.is_object() && body.contains("error"))
    return ActionRefusal{a.first, body["error"].value("code", "refused"),
                         body["error"].value("message", "refused")};
  return ActionRefusal{a.first >= 300 ? a.first : 500, "refused", "the boards did not answer"};
}

}  // namespace

Relays::Maybe Relays::too_fast(const store::UserRecord& me) {
  std::lock_guard lock(rate_mutex_);
  if (action_rate_.try_take(std::to_string(me.id), s_.clock.steady_now())) return std::nullopt;
  return Refusal{429, "rate_limited", "too many relay actions at once: wait a second"};
}

Relays::Answer<protocol::http::RelaySummary> Relays::create(const store::UserRecord& me,
                                                            const protocol::http::RelayForm& form) {
  if (auto no = too_fast(me)) return *no;
  if (s_.store.live_of(me.id) >= limits_.live_per_director)
    return Refusal{409, "too_many_relays",
                   "you relay " + std::to_string(limits_.live_per_director) +
                       " live games, the most one director may: finish one first"};
  if (s_.store.live_count() >= limits_.live)
    return Refusal{503, "server_full",
                   "this server relays " + std::to_string(limits_.live) +
                       " live games, all it may: try again once some have finished"};
  GameRecord record;
  record.width = record.height = form.size;
  record.komi = form.komi;
  record.rules = std::string(to_string(form.ruleset));
  if (form.handicap > 0) {
    const auto stones = fixed_handicap(record.geometry(), form.handicap);
    if (!stones)
      return Refusal{400, "bad_request",
                     "a " + std::to_string(form.size) + "×" + std::to_string(form.size) +
                         " board takes at most " +
                         std::to_string(max_fixed_handicap(record.geometry())) +
                         " handicap stones"};
    record.handicap = form.handicap;
    record.setup_black = *stones;
  }
  record.black_name = form.black;
  record.white_name = form.white;
  record.black_rank = form.black_rank;
  record.white_rank = form.white_rank;
  record.event = form.event;
  if (form.round > 0) record.round = std::to_string(form.round);
  const auto title = cut(title_of(form), protocol::http::kMaxReviewTitleBytes);
  record.extra.emplace_back("GN", std::vector<std::string>{title});
  GameTree tree;
  tree.record = std::move(record);
  RelayOp op;
  op.kind = RelayOp::Kind::Create;
  op.director = {me.id, me.username};
  op.title = title;
  op.sgf = write_sgf(tree);
  const auto made = answered(s_.boards(op));
  if (const auto* no = std::get_if<Refusal>(&made)) return *no;
  const auto& boards = std::get<json>(made);
  store::RelayRow row;
  row.director_id = me.id;
  row.director_name = me.username;
  row.event = form.event;
  row.round = form.round;
  row.table = form.table;
  row.black = form.black;
  row.black_rank = form.black_rank;
  row.white = form.white;
  row.white_rank = form.white_rank;
  row.size = form.size;
  row.komi = form.komi;
  row.ruleset = std::string(to_string(form.ruleset));
  row.handicap = form.handicap;
  row.delay = form.delay;
  row.board_review = boards.at("board").get<std::int64_t>();
  row.commentary_review = boards.at("commentary").get<std::int64_t>();
  row.created_at_ms = now();
  try {
    row.id = s_.store.create(row);
  } catch (...) {
    // Not kept: its boards close again rather than stay open with nothing naming them.
    close_boards(row, true);
    throw;
  }
  row.state = "live";
  return summary_of(row);
}

std::vector<protocol::http::RelaySummary> Relays::list() {
  std::vector<protocol::http::RelaySummary> out;
  for (const auto& r : s_.store.list(limits_.list)) out.push_back(summary_of(r));
  return out;
}

Relays::Answer<protocol::http::RelaySummary> Relays::relay(std::int64_t id) {
  const auto row = s_.store.relay(id);
  if (!row) return Refusal{404, "not_found", "no relay " + std::to_string(id)};
  return summary_of(*row);
}

Relays::Answer<store::RelayRow> Relays::directed(std::int64_t id, const store::UserRecord& me) {
  auto row = s_.store.relay(id);
  if (!row) return Refusal{404, "not_found", "no relay " + std::to_string(id)};
  if (row->director_id != me.id)
    return Refusal{403, "not_director",
                   "only " + row->director_name + " (its director) enters this relay's moves"};
  if (row->state != "live")
    return Refusal{409, "relay_over",
                   "this relay is " + row->state +
                       (row->result.empty() ? "" : " (" + row->result + ")") +
                       ": its moves no longer change"};
  if (auto no = too_fast(me)) return *no;
  return std::move(*row);
}

Relays::Answer<int> Relays::move(std::int64_t id, const store::UserRecord& me,
                                 const protocol::http::RelayMoveForm& form) {
  auto found = directed(id, me);
  if (const auto* no = std::get_if<Refusal>(&found)) return *no;
  const auto& row = std::get<store::RelayRow>(found);
  std::string vertex = form.move;
  for (char& c : vertex) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (vertex == "PASS") vertex = "pass";
  RelayOp op;
  op.kind = RelayOp::Kind::Move;
  op.director = {me.id, me.username};
  op.board = row.board_review;
  op.commentary = row.commentary_review;
  op.number = form.number.value_or(0);  // 0: the board's next (the store's count may lag)
  op.vertex = vertex;
  const auto made = answered(s_.boards(op));
  if (const auto* no = std::get_if<Refusal>(&made)) return *no;
  const auto& body = std::get<json>(made);
  const int number = op.number > 0 ? op.number : body.at("moves").get<int>();
  const auto node = body.at("node").get<std::int64_t>();
  s_.store.add_move(id, number, vertex, node, now());
  // The spectators' analysis of this position, asked for now: shown `delay` moves from now.
  if (row.delay > 0 && s_.analysis && !body.value("again", false)) {
    try {
      const auto line = read_sgf(body.at("sgf").get<std::string>());
      const auto asked =
          s_.analysis->request_relay_position(row.board_review, node, line, row.director_id);
      if (const auto* no = std::get_if<Analysis::Refusal>(&asked))
        spdlog::warn("relay {}: move {} not analysed: {}", id, number, no->message);
    } catch (const std::exception& e) {
      spdlog::warn("relay {}: move {} not analysed: {}", id, number, e.what());
    }
  }
  return body.at("moves").get<int>();
}

Relays::Answer<int> Relays::take_back(std::int64_t id, const store::UserRecord& me) {
  auto found = directed(id, me);
  if (const auto* no = std::get_if<Refusal>(&found)) return *no;
  const auto& row = std::get<store::RelayRow>(found);
  RelayOp op;
  op.kind = RelayOp::Kind::TakeBack;
  op.director = {me.id, me.username};
  op.board = row.board_review;
  op.commentary = row.commentary_review;
  op.number = 0;  // the board's last (the store's count may lag)
  const auto made = answered(s_.boards(op));
  if (const auto* no = std::get_if<Refusal>(&made)) return *no;
  const int moves = std::get<json>(made).at("moves").get<int>();
  s_.store.remove_move(id, moves + 1);
  return moves;
}

Relays::Maybe Relays::finish(std::int64_t id, const store::UserRecord& me,
                             const std::string& result) {
  auto found = directed(id, me);
  if (const auto* no = std::get_if<Refusal>(&found)) return *no;
  const auto& row = std::get<store::RelayRow>(found);
  if (!s_.store.finish(id, result, now()))
    return Refusal{409, "relay_over", "this relay has finished already"};
  // The game's board closes (its record stays: GET /api/v1/relays/{id}.sgf); the commentary
  // room goes on until its director closes the relay.
  close_boards(row, false);
  return std::nullopt;
}

Relays::Maybe Relays::close(std::int64_t id, const store::UserRecord& me) {
  const auto row = s_.store.relay(id);
  if (!row) return Refusal{404, "not_found", "no relay " + std::to_string(id)};
  if (row->director_id != me.id && !me.is_admin)
    return Refusal{403, "not_director",
                   "only " + row->director_name + " (its director) or an administrator closes it"};
  if (auto no = too_fast(me)) return *no;
  if (!s_.store.close(id, now())) return Refusal{409, "relay_over", "this relay is closed already"};
  close_boards(*row, true);
  return std::nullopt;
}

void Relays::close_boards(const store::RelayRow& row, bool commentary_too) {
  RelayOp op;
  op.kind = RelayOp::Kind::Close;
  op.director = {row.director_id, row.director_name};
  op.board = row.board_review;
  op.commentary = row.commentary_review;
  op.commentary_too = commentary_too;
  const auto closed = answered(s_.boards(op));
  if (const auto* no = std::get_if<Refusal>(&closed))
    spdlog::warn("relay {}: its boards not closed: {}", row.id, no->message);
}

Relays::Answer<std::string> Relays::analysis(std::int64_t id) {
  const auto row = s_.store.relay(id);
  if (!row) return Refusal{404, "not_found", "no relay " + std::to_string(id)};
  if (row->delay == 0)
    return Refusal{404, "no_analysis", "this relay's director chose to show no analysis"};
  if (!s_.analysis) return Refusal{503, "analysis_disabled", "this server analyses no games"};
  // While the game goes on, `delay` moves behind; once it is over, the last position too.
  const int shown = row->state == "live" ? row->moves - row->delay : row->moves;
  json out{{"delay", row->delay}, {"moves", row->moves}, {"move", std::max(shown, 0)}};
  if (shown < 1) {
    out["state"] = "waiting";
    return out.dump();
  }
  const auto node = s_.store.move_node(id, shown);
  const auto view = node ? s_.analysis->position_at(row->board_review, *node) : std::nullopt;
  if (!view) {
    out["state"] = "none";
    return out.dump();
  }
  out["state"] = view->state;
  out["analysis"] = json::parse(protocol::http::encode_position_view(*view));
  return out.dump();
}

}  // namespace tengen
