#include <set>

#include "engine/scoring.h"
#include "rooms/room.h"
#include "rooms/room_records.h"
#include "rooms/wording.h"

namespace tengen {

// Room's scoring phase (docs/scoring.md): the dead-stone suggestion, marking, acceptance and
// resumption.

using protocol::EndReason;

void Room::start_scoring(Steady now) {
  clock_.stop();
  scoring_start_ = now;
  suggestion_pending_ = true;
  suggestion_dispatched_ = false;
}

std::optional<SuggestionJob> Room::take_suggestion_job() {
  if (stage() != Stage::Scoring || !suggestion_pending_ || suggestion_dispatched_)
    return std::nullopt;
  suggestion_dispatched_ = true;
  return SuggestionJob{
      id_, game_->board(),
      DeadStoneOptions{options_.dead_stone_playouts, static_cast<std::uint64_t>(id_) * 1000 +
                                                         static_cast<std::uint64_t>(resumptions_)},
      resumptions_};
}

void Room::suggested(const SuggestionJob& job, const std::vector<Point>& dead) {
  if (stage() != Stage::Scoring || !suggestion_pending_ || job.resumptions != resumptions_) return;
  const std::set<Point> sorted(dead.begin(), dead.end());
  records::Marked first{{}, marking_version_ + 1};
  for (Point p : sorted) first.dead.push_back(gtp(p));
  apply(first);
  publish("", protocol::ScoringStarted{marking()}, first);
}

Room::Reply Room::mark(std::int64_t user, const std::string& cid, const std::string& vertex,
                       bool dead) {
  if (auto e = check_player(user, cid)) return *e;
  if (stage() != Stage::Scoring) return refuse(Refused::MarkOutsideScoring, cid);
  if (suggestion_pending_) return refuse(Refused::StillSuggesting, cid);
  const Geometry& g = game_->board().geometry();
  const auto point = g.parse_gtp(vertex);
  if (!point || *point == kPass) return refuse(Refused::MarkNotAPoint, cid, {vertex});
  if (!is_stone(game_->board().at(*point))) return refuse(Refused::MarkNoStone, cid, {vertex});
  const auto chain = game_->board().chain_stones(*point);
  const bool already = dead_.contains(*point) == dead;
  if (already) {
    return refuse(Refused::MarkedAlready, cid, {vertex, dead ? "dead" : "alive"});
  }
  std::set<Point> now_dead = dead_;
  for (Point p : chain) {
    if (dead) {
      now_dead.insert(p);
    } else {
      now_dead.erase(p);
    }
  }
  records::Marked marked{{}, marking_version_ + 1};
  for (Point p : now_dead) marked.dead.push_back(gtp(p));
  apply(marked);
  return publish(cid, protocol::MarkingChanged{marking(), *color_of(user)}, marked);
}

Room::Reply Room::accept_score(std::int64_t user, const std::string& cid, std::uint64_t version,
                               Steady now) {
  if (auto e = check_player(user, cid)) return *e;
  if (stage() != Stage::Scoring) return refuse(Refused::AcceptOutsideScoring, cid);
  if (suggestion_pending_) return refuse(Refused::StillSuggesting, cid);
  if (version != marking_version_) {
    return refuse(Refused::StaleMarking, cid,
                  {std::to_string(version), std::to_string(marking_version_)});
  }
  const Color color = *color_of(user);
  const records::ScoreAccepted accepted{color, version};
  apply(accepted);
  const auto ack = publish(cid, protocol::ScoreAccepted{color, version}, accepted);
  if (accepted_[index_of(opponent(color))] == version) {
    const auto m = marking();
    finish("", m.score.result, EndReason::Score, now, m.score);
  }
  return ack;
}

Room::Reply Room::resume(std::int64_t user, const std::string& cid, Steady now) {
  if (auto e = check_player(user, cid)) return *e;
  if (stage() != Stage::Scoring) return refuse(Refused::ResumeOutsideScoring, cid);
  if (resumptions_ >= options_.max_resumptions) {
    return finish_tromp_taylor(cid, EndReason::ResumptionLimit, now);
  }
  const Color requester = *color_of(user);
  const Color last_passer = game_->moves().back().color;
  const Color first = rules_.resume == ResumeRule::OpponentOfLastPasser ? opponent(last_passer)
                                                                        : opponent(requester);
  const records::Resumed resumed{first};
  apply(resumed);
  start_turn(now);
  const auto ack = publish(
      cid, protocol::PlayResumed{requester, first, resumptions_, clock_state(now)}, resumed);
  announce_countdown();
  drop_conditionals();
  return ack;
}

}  // namespace tengen
