#include "tournaments/director.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <stdexcept>
#include <utility>

#include "ratings/glicko2.h"
#include "rooms/timers.h"

namespace tengen {
namespace {

using json = nlohmann::json;
using protocol::ErrorCode;
using Status = TournamentState::Status;
using tournament::Outcome;
using tournament::System;

protocol::Error error(const std::string& cid, ErrorCode code, std::string message) {
  return protocol::Error{cid, code, std::move(message), {}};
}

protocol::Ack ack(const std::string& cid, protocol::TournamentId id) {
  return protocol::Ack{cid, {}, {}, {}, id};
}

json user_json(const protocol::UserRef& u) {
  return {{"id", u.id}, {"name", u.name}};
}

// No one more may register: its own limit, or kMaxPlayers when it sets none.
bool full(const TournamentState& t) {
  const int limit = t.settings().max_players;
  return static_cast<int>(t.players().size()) >=
         (limit != 0 ? limit : TournamentDirector::kMaxPlayers);
}

// What the director registers of a player (TournamentState::Entry), as the event records it:
// the names, and the club, country (in capitals) and numbers when given.
json entry_json(const std::string& family_name, const std::string& given_name,
                const std::optional<std::string>& club, const std::optional<std::string>& country,
                const std::optional<std::string>& egd_pin,
                const std::optional<std::string>& aga_id) {
  json entry{{"family_name", family_name}};
  if (!given_name.empty()) entry["given_name"] = given_name;
  if (club) entry["club"] = *club;
  if (country) {
    std::string code = *country;
    for (auto& c : code) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    entry["country"] = code;
  }
  if (egd_pin) entry["egd_pin"] = *egd_pin;
  if (aga_id) entry["aga_id"] = *aga_id;
  return entry;
}

// A player without an account is named "Family Given" on the pages.
std::variant<std::string, protocol::Error> guest_name(const std::string& cid,
                                                      const std::string& family_name,
                                                      const std::string& given_name) {
  std::string name = family_name;
  if (!given_name.empty()) name += " " + given_name;
  if (name.size() > 40)
    return error(cid, ErrorCode::BadField,
                 "the family and given names are longer than 40 bytes together");
  return name;
}

// The middle of the rank on the ratings' scale (ratings/glicko2.h): a player without an
// account's seeding within their rank.
double rating_of_rank(int rank) {
  return 1500 + (rank - 20) * ratings::kRatingPerRank + ratings::kRatingPerRank / 2;
}

// The events one tournament keeps (its audit log, sent with its page): room for its largest event
// (1,000 players, their results, reports and corrections). Past it, no command changes the
// tournament (a flood of corrections); its games' results still count. The players' own
// registrations and withdrawals stop at half of it, so that a player registering and leaving
// without end leaves the director the room to correct and finish the tournament.
constexpr std::int64_t kMaxEvents = 20'000;
constexpr std::int64_t kMaxEventsForPlayers = kMaxEvents / 2;

std::optional<protocol::Error> log_full(const TournamentState& t, const std::string& cid,
                                        std::int64_t limit = kMaxEvents) {
  if (t.next_seq() <= limit) return std::nullopt;
  return error(
      cid, ErrorCode::TooLarge,
      "this tournament has recorded " + std::to_string(t.next_seq() - 1) +
          (limit == kMaxEvents ? " changes, as many as it keeps: nothing more can be changed"
                               : " changes, as many as its players may make: ask the director"));
}

}  // namespace

TournamentState* TournamentDirector::find(protocol::TournamentId id) {
  const auto it = tournaments_.find(id);
  return it == tournaments_.end() ? nullptr : it->second.get();
}

void TournamentDirector::recover(const std::vector<store::StoredTournament>& stored) {
  for (const auto& s : stored) {
    auto settings = protocol::decode_tournament_settings(s.created.settings);
    if (auto* problem = std::get_if<std::string>(&settings)) {
      throw std::runtime_error("the stored settings of tournament " + std::to_string(s.created.id) +
                               " are unreadable: " + *problem);
    }
    const auto director = host_.user_by_id(s.created.director_id);
    if (!director)
      throw std::runtime_error("tournament " + std::to_string(s.created.id) + " has no director");
    auto t = std::make_unique<TournamentState>(
        s.created.id, *director, std::get<protocol::TournamentSettings>(settings), s.created.at_ms);
    for (const auto& e : s.events) {
      std::optional<protocol::UserRef> by;
      if (e.by_user) by = host_.user_by_id(*e.by_user).value_or(protocol::UserRef{*e.by_user, "?"});
      try {
        t->apply(e.kind, json::parse(e.record), by, e.at_ms);
      } catch (const std::exception& problem) {
        throw std::runtime_error("tournament " + std::to_string(s.created.id) + " event " +
                                 std::to_string(e.seq) + ": " + problem.what());
      }
    }
    index_games(*t);
    next_id_ = std::max(next_id_, s.created.id);
    tournaments_[s.created.id] = std::move(t);
  }
}

std::vector<TournamentDirector::RememberedCommand> TournamentDirector::commands_of(
    const std::vector<store::StoredTournament>& stored) {
  std::vector<RememberedCommand> out;
  for (const auto& t : stored) {
    if (!t.created.cid.empty()) out.push_back({t.created.director_id, t.created.cid, t.created.id});
    for (const auto& e : t.events) {
      if (e.by_user && e.cid) out.push_back({*e.by_user, *e.cid, t.created.id});
    }
  }
  return out;
}

void TournamentDirector::resume() {
  for (auto& [id, t] : tournaments_) advance_safely(*t);
}

void TournamentDirector::advance_safely(TournamentState& t) {
  try {
    advance(t);
  } catch (const std::exception& e) {  // this tournament stalls (logged); the server goes on
    spdlog::error("tournament {} cannot go on: {}", t.id(), e.what());
  }
}

void TournamentDirector::index_games(const TournamentState& t) {
  for (std::size_t r = 0; r < t.rounds().size(); ++r) {
    const auto& games = t.rounds()[r].games;
    for (std::size_t b = 0; b < games.size(); ++b) {
      if (games[b]) boards_[*games[b]] = {t.id(), static_cast<int>(r + 1), static_cast<int>(b + 1)};
    }
  }
}

void TournamentDirector::record(TournamentState& t, const std::string& kind, json r,
                                const std::optional<protocol::UserRef>& by) {
  const std::int64_t at = host_.unix_now_ms();
  const std::int64_t seq = t.next_seq();
  t.apply(kind, r, by, at);
  std::optional<std::string> cid;  // the command's first event carries its cid
  if (by && !command_cid_.empty()) cid = std::exchange(command_cid_, {});
  host_.write(store::TournamentEvent{t.id(), seq, kind, r.dump(),
                                     by ? std::optional(by->id) : std::nullopt, at, cid});
  host_.tournament_changed(
      protocol::TournamentChanged{t.id(), t.status(), static_cast<int>(t.rounds().size())});
}

void TournamentDirector::set_status(TournamentState& t, const char* status) {
  host_.write(store::TournamentStatus{t.id(), status});
}

// ---- commands ----

TournamentDirector::Reply TournamentDirector::create(const protocol::UserRef& me,
                                                     const std::string& cid,
                                                     const protocol::TournamentSettings& settings) {
  if (auto problem = protocol::validate(settings))
    return error(cid, ErrorCode::BadSettings, *problem);
  const std::int64_t now = host_.unix_now_ms();
  if (settings.starts_at_ms && *settings.starts_at_ms < now) {
    return error(cid, ErrorCode::BadSettings, "starts_at_ms is in the past");
  }
  // Every time a client sends is at most a year ahead (kFarthestDeadline).
  const std::int64_t farthest = now + kFarthestDeadline.count();
  if (settings.starts_at_ms && *settings.starts_at_ms > farthest)
    return error(cid, ErrorCode::BadSettings, "starts_at_ms is more than a year ahead");
  if (settings.registration_closes_ms && *settings.registration_closes_ms > farthest)
    return error(cid, ErrorCode::BadSettings, "registration_closes_ms is more than a year ahead");
  for (const auto at : settings.round_times_ms) {
    if (at > farthest)
      return error(cid, ErrorCode::BadSettings,
                   "round_start.times_ms reach more than a year ahead");
  }
  int open = 0, mine_open = 0, mine_today = 0;
  for (const auto& [id, t] : tournaments_) {
    const bool over = t->status() == TournamentState::Status::Finished ||
                      t->status() == TournamentState::Status::Cancelled;
    const bool mine = t->director().id == me.id;
    open += over ? 0 : 1;
    mine_open += mine && !over ? 1 : 0;
    mine_today += mine && t->created_at_ms() > now - 24 * 3600 * 1000 ? 1 : 0;
  }
  if (mine_open >= kMaxOpenPerDirector) {
    return error(cid, ErrorCode::Conflict,
                 "you direct " + std::to_string(mine_open) +
                     " tournaments that are not over, the most one player may");
  }
  if (mine_today >= kMaxCreatedPerDay) {
    return error(cid, ErrorCode::RateLimited,
                 "you created " + std::to_string(mine_today) +
                     " tournaments in the last 24 hours, the most one player may");
  }
  if (open >= kMaxOpen) {
    return error(cid, ErrorCode::Conflict,
                 "the server holds " + std::to_string(open) +
                     " tournaments that are not over, the most it may: try again later");
  }
  const protocol::TournamentId id = ++next_id_;
  auto t = std::make_unique<TournamentState>(id, me, settings, now);
  host_.write(store::TournamentCreated{id, settings.name, me.id,
                                       protocol::encode_tournament_settings(settings), now, cid});
  host_.tournament_changed(
      protocol::TournamentChanged{id, protocol::TournamentStatus::Registering, 0});
  auto& state = *(tournaments_[id] = std::move(t));
  advance(state);
  return ack(cid, id);
}

TournamentDirector::Reply TournamentDirector::register_player(
    const protocol::UserRef& me, const std::string& cid, const protocol::RegisterTournament& m) {
  TournamentState* t = find(m.tournament);
  if (!t) return error(cid, ErrorCode::NotFound, "no tournament " + std::to_string(m.tournament));
  if (auto e = log_full(*t, cid, kMaxEventsForPlayers)) return *e;
  const auto& s = t->settings();
  if (t->status() != Status::Registering)
    return error(cid, ErrorCode::Conflict, "registration is over: the tournament has started");
  if (s.registration_closes_ms && host_.unix_now_ms() >= *s.registration_closes_ms) {
    return error(cid, ErrorCode::Conflict, "registration for this tournament has closed");
  }
  if (t->player(me.id)) return error(cid, ErrorCode::Conflict, "you are registered already");
  if (t->player_named(me.name))
    return error(cid, ErrorCode::Conflict,
                 "a player named '" + me.name + "' is registered already: ask the director");
  if (full(*t)) return error(cid, ErrorCode::Conflict, "the tournament is full");
  const double rating = host_.rating_of_user(me.id);
  const int rank = m.rank ? *protocol::parse_rank(*m.rank) : ratings::rank_index(rating);
  record(*t, "registered", {{"user", user_json(me)}, {"rank", rank}, {"rating", rating}}, me);
  if (s.start_when_full && static_cast<int>(t->players().size()) == s.max_players)
    begin(*t, std::nullopt);
  advance(*t);
  return ack(cid, t->id());
}

TournamentDirector::Reply TournamentDirector::leave(const protocol::UserRef& me,
                                                    const std::string& cid,
                                                    protocol::TournamentId id) {
  TournamentState* t = find(id);
  if (!t) return error(cid, ErrorCode::NotFound, "no tournament " + std::to_string(id));
  const auto* p = t->player(me.id);
  if (!p) return error(cid, ErrorCode::NotFound, "you are not registered in this tournament");
  if (auto e = log_full(*t, cid, kMaxEventsForPlayers)) return *e;
  if (t->status() == Status::Registering) {
    record(*t, "unregistered", {{"user", user_json(me)}}, me);
    return ack(cid, id);
  }
  if (t->status() != Status::Running)
    return error(cid, ErrorCode::Conflict, "the tournament is over");
  if (p->withdrawn) return error(cid, ErrorCode::Conflict, "you have withdrawn already");
  withdraw_player(*t, me, me);
  advance(*t);
  return ack(cid, id);
}

std::optional<protocol::Error> TournamentDirector::director_only(const TournamentState& t,
                                                                 const protocol::UserRef& me,
                                                                 const std::string& cid) const {
  if (t.director().id != me.id)
    return error(cid, ErrorCode::Forbidden, "only the tournament's director may do this");
  return log_full(t, cid);
}

TournamentDirector::Reply TournamentDirector::start(const protocol::UserRef& me,
                                                    const std::string& cid,
                                                    protocol::TournamentId id) {
  TournamentState* t = find(id);
  if (!t) return error(cid, ErrorCode::NotFound, "no tournament " + std::to_string(id));
  if (auto e = director_only(*t, me, cid)) return *e;
  if (t->status() != Status::Registering)
    return error(cid, ErrorCode::Conflict, "the tournament has started already");
  if (static_cast<int>(t->players().size()) < t->settings().min_players) {
    return error(cid, ErrorCode::Conflict,
                 "it needs at least " + std::to_string(t->settings().min_players) + " players");
  }
  begin(*t, me);
  advance(*t);
  return ack(cid, id);
}

TournamentDirector::Reply TournamentDirector::withdraw(const protocol::UserRef& me,
                                                       const std::string& cid,
                                                       const protocol::WithdrawPlayer& m) {
  TournamentState* t = find(m.tournament);
  if (!t) return error(cid, ErrorCode::NotFound, "no tournament " + std::to_string(m.tournament));
  if (auto e = director_only(*t, me, cid)) return *e;
  // A player of this tournament by name (one without an account too), else an account's.
  const auto* p = t->player_named(m.player);
  auto user = p ? std::optional(p->user) : host_.user_named(m.player);
  if (!p && user) p = t->player(user->id);
  if (!p)
    return error(cid, ErrorCode::NotFound,
                 "'" + m.player + "' is not registered in this tournament");
  if (t->status() == Status::Registering) {
    record(*t, "unregistered", {{"user", user_json(*user)}}, me);
    return ack(cid, m.tournament);
  }
  if (t->status() != Status::Running)
    return error(cid, ErrorCode::Conflict, "the tournament is over");
  if (p->withdrawn)
    return error(cid, ErrorCode::Conflict, "'" + m.player + "' has withdrawn already");
  withdraw_player(*t, *user, me);
  advance(*t);
  return ack(cid, m.tournament);
}

// The player plays no further round; a game of theirs under way is lost by forfeit.
void TournamentDirector::withdraw_player(TournamentState& t, const protocol::UserRef& player,
                                         const std::optional<protocol::UserRef>& by) {
  record(t, "withdrawn", {{"user", user_json(player)}}, by);
  // The rounds under way: the last, or in a league playing all at once, every one begun.
  for (std::size_t r = 0; r < t.rounds().size(); ++r) {
    const auto& round = t.rounds()[r];
    if (!round.started) continue;
    const int number = static_cast<int>(r + 1);
    for (std::size_t b = 0; b < round.pairing.games.size(); ++b) {
      const auto& g = round.pairing.games[b];
      if (g.outcome || (g.black != player.id && g.white != player.id)) continue;
      const Color winner = g.black == player.id ? Color::White : Color::Black;
      if (b < round.games.size() && round.games[b]) {
        host_.end_tournament_game(*round.games[b], Result::forfeit(winner),
                                  protocol::EndReason::Withdrawal);  // its result comes back
      } else {
        record_result(t, number, static_cast<int>(b + 1),
                      winner == Color::Black ? Outcome::BlackWins : Outcome::WhiteWins, true, by);
      }
    }
  }
}

TournamentDirector::Reply TournamentDirector::set_result(const protocol::UserRef& me,
                                                         const std::string& cid,
                                                         const protocol::SetTournamentResult& m) {
  TournamentState* t = find(m.tournament);
  if (!t) return error(cid, ErrorCode::NotFound, "no tournament " + std::to_string(m.tournament));
  if (auto e = director_only(*t, me, cid)) return *e;
  const auto found = published_table(*t, cid, m.round, m.board);
  if (const auto* e = std::get_if<protocol::Error>(&found)) return *e;
  const auto& round = *std::get<const TournamentState::RoundState*>(found);
  if (t->elimination() && m.round != static_cast<int>(t->rounds().size())) {
    return error(cid, ErrorCode::Conflict,
                 "in an elimination, a result is final once the next round is paired");
  }
  const Outcome outcome = m.result;
  Result result = Result::void_game();  // both lose
  if (outcome == Outcome::BlackWins) result = Result::forfeit(Color::Black);
  if (outcome == Outcome::WhiteWins) result = Result::forfeit(Color::White);
  if (outcome == Outcome::Jigo) result = Result::score(0);
  const bool in_play = !round.pairing.games[m.board - 1].outcome;
  protocol::GameId game = 0;  // none
  if (static_cast<std::size_t>(m.board - 1) < round.games.size())
    game = round.games[m.board - 1].value_or(0);
  if (m.forfeit && outcome == Outcome::Jigo)
    return error(cid, ErrorCode::BadField, "a forfeit has a winner, or both players lose");
  record_result(*t, m.round, m.board, outcome, m.forfeit, me);
  if (in_play && game != 0)
    host_.end_tournament_game(
        game, result, protocol::EndReason::Adjudication);  // already counted: ignored on return
  advance(*t);
  return ack(cid, m.tournament);
}

std::variant<const TournamentState::RoundState*, protocol::Error>
TournamentDirector::published_table(const TournamentState& t, const std::string& cid, int round,
                                    int board) const {
  const bool on_boards = t.settings().over_the_board;
  if (round > static_cast<int>(t.rounds().size()))
    return error(cid, ErrorCode::NotFound, "no round " + std::to_string(round));
  const auto& r = t.rounds()[round - 1];
  if (board > static_cast<int>(r.pairing.games.size())) {
    return error(cid, ErrorCode::NotFound,
                 "round " + std::to_string(round) + " has no " + (on_boards ? "table " : "board ") +
                     std::to_string(board));
  }
  if (!r.started)
    return error(cid, ErrorCode::Conflict,
                 "round " + std::to_string(round) +
                     (on_boards ? " is not published yet" : " has not started"));
  return &r;
}

TournamentDirector::Reply TournamentDirector::report_result(
    const protocol::UserRef& me, const std::string& cid,
    const protocol::ReportTournamentResult& m) {
  TournamentState* t = find(m.tournament);
  if (!t) return error(cid, ErrorCode::NotFound, "no tournament " + std::to_string(m.tournament));
  if (!t->settings().over_the_board)
    return error(cid, ErrorCode::Conflict,
                 "an online tournament's results come from its games: there is nothing to report");
  const auto found = published_table(*t, cid, m.round, m.board);
  if (const auto* e = std::get_if<protocol::Error>(&found)) return *e;
  const auto& round = *std::get<const TournamentState::RoundState*>(found);
  const auto& g = round.pairing.games[m.board - 1];
  const std::string table = "table " + std::to_string(m.board);
  if (g.black != me.id && g.white != me.id) {
    return error(cid, ErrorCode::Forbidden,
                 "you do not play at " + table + " in round " + std::to_string(m.round));
  }
  if (static_cast<std::size_t>(m.board - 1) < round.games.size() && round.games[m.board - 1])
    return error(cid, ErrorCode::Conflict,
                 table + " is played on the server: its result comes from the game");
  if (g.outcome)
    return error(cid, ErrorCode::Conflict,
                 "the result of " + table + " is recorded already: ask the director to correct it");
  const bool black = g.black == me.id;
  if (static_cast<std::size_t>(m.board - 1) < round.reports.size()) {
    const auto& said = round.reports[m.board - 1];
    if ((black ? said.black : said.white) == m.result) return ack(cid, m.tournament);  // said
    if ((black ? said.black_count : said.white_count) >= kMaxReports) {
      return error(cid, ErrorCode::Conflict,
                   "you have reported " + table + " " + std::to_string(kMaxReports) +
                       " times: ask the director");
    }
  }
  record(*t, "reported",
         {{"round", m.round},
          {"board", m.board},
          {"side", black ? "black" : "white"},
          {"outcome", protocol::wire::name(m.result)}},
         me);
  // Both players said the same: it counts. They disagree: the director decides.
  const auto& said = t->rounds()[m.round - 1].reports[m.board - 1];
  if (said.black && said.white && *said.black == *said.white) {
    record_result(*t, m.round, m.board, m.result, false, me, true);
    advance(*t);
  }
  return ack(cid, m.tournament);
}

TournamentDirector::Reply TournamentDirector::repair(const protocol::UserRef& me,
                                                     const std::string& cid,
                                                     protocol::TournamentId id) {
  TournamentState* t = find(id);
  if (!t) return error(cid, ErrorCode::NotFound, "no tournament " + std::to_string(id));
  if (auto e = director_only(*t, me, cid)) return *e;
  if (t->rounds().empty() || t->rounds().back().started)
    return error(cid, ErrorCode::Conflict, "no round is waiting to start");
  const std::size_t played = t->rounds().size() - 1;
  const auto next = next_pairing(*t, played);
  if (!next) return error(cid, ErrorCode::Conflict, "too few players are left to pair this round");
  json games = json::array();
  for (const auto& g : next->games)
    games.push_back({{"black", g.black}, {"white", g.white}, {"handicap", g.handicap}});
  record(*t, "paired",
         {{"round", played + 1},
          {"starts_at_ms", t->rounds().back().starts_at_ms},
          {"games", games},
          {"byes", next->byes}},
         me);
  advance(*t);
  return ack(cid, id);
}

TournamentDirector::Reply TournamentDirector::pair_round(const protocol::UserRef& me,
                                                         const std::string& cid,
                                                         const protocol::PairRound& m) {
  TournamentState* t = find(m.tournament);
  if (!t) return error(cid, ErrorCode::NotFound, "no tournament " + std::to_string(m.tournament));
  if (auto e = director_only(*t, me, cid)) return *e;
  const auto& s = t->settings();
  if (!s.over_the_board)
    return error(cid, ErrorCode::Conflict,
                 "an online tournament's rounds are paired by the system: pairing by hand is for "
                 "rounds over the board");
  if (auto e = not_waiting(*t, cid, m.round)) return *e;
  if (t->rounds().back().started)
    return error(cid, ErrorCode::Conflict,
                 "round " + std::to_string(m.round) +
                     " is published already: a pairing changes before it is published");
  // A round robin follows its Berger tables and an elimination its bracket: a round changed by
  // hand would throw their later rounds out.
  if (s.system != System::Swiss && s.system != System::McMahon)
    return error(cid, ErrorCode::Conflict,
                 std::string("a ") +
                     (t->elimination() ? "bracket's rounds follow the bracket"
                                       : "round robin's rounds follow its tables") +
                     ": pairing by hand is for a Swiss or McMahon");
  // Every player named is registered, still playing, and named once.
  std::set<std::int64_t> seen;
  const auto named = [&](std::int64_t id,
                         const std::string& where) -> std::optional<protocol::Error> {
    const auto* p = t->player(id);
    if (!p)
      return error(
          cid, ErrorCode::NotFound,
          where + ": player " + std::to_string(id) + " is not registered in this tournament");
    if (p->withdrawn)
      return error(cid, ErrorCode::Conflict, where + ": " + p->user.name + " has withdrawn");
    if (p->absent.contains(m.round))
      return error(cid, ErrorCode::Conflict,
                   where + ": " + p->user.name + " is not playing round " +
                       std::to_string(m.round) + ": mark them as playing it first");
    if (!seen.insert(id).second)
      return error(cid, ErrorCode::Conflict, where + ": " + p->user.name + " is paired twice");
    return std::nullopt;
  };
  tournament::Round round;
  for (std::size_t i = 0; i < m.tables.size(); ++i) {
    const auto& table = m.tables[i];
    const std::string where = "table " + std::to_string(i + 1);
    if (table.black == table.white)
      return error(cid, ErrorCode::Conflict, where + ": a player cannot play themselves");
    if (auto e = named(table.black, where)) return *e;
    if (auto e = named(table.white, where)) return *e;
    round.games.push_back({table.black, table.white, table.handicap, std::nullopt, false});
  }
  for (const auto id : m.byes) {
    if (auto e = named(id, "the byes")) return *e;
    round.byes.push_back(id);
  }
  auto rest = t->active(m.round);
  std::erase_if(rest, [&](const tournament::Entrant& e) { return seen.contains(e.id); });
  if (!rest.empty() && !m.pair_rest) {
    return error(cid, ErrorCode::Conflict,
                 t->player(rest.front().id)->user.name +
                     " is not paired: seat them at a table, give them a bye, or let the system "
                     "pair the rest");
  }
  if (!rest.empty()) {  // the rest, as the system pairs them, at the tables after the director's
    auto done = t->pairings();
    done.pop_back();
    const auto others = tournament::pair_swiss(
        rest, done, s.system == System::McMahon ? s.handicap : tournament::HandicapPolicy{});
    round.games.insert(round.games.end(), others.games.begin(), others.games.end());
    round.byes.insert(round.byes.end(), others.byes.begin(), others.byes.end());
  }
  if (round.games.empty())
    return error(cid, ErrorCode::Conflict, "a round needs at least one table");
  json games = json::array();
  for (const auto& g : round.games)
    games.push_back({{"black", g.black}, {"white", g.white}, {"handicap", g.handicap}});
  record(*t, "paired",
         {{"round", m.round},
          {"starts_at_ms", t->rounds().back().starts_at_ms},
          {"games", games},
          {"byes", round.byes},
          {"by_hand", true}},
         me);
  advance(*t);
  return ack(cid, m.tournament);
}

TournamentDirector::Reply TournamentDirector::edit_player(const protocol::UserRef& me,
                                                          const std::string& cid,
                                                          const protocol::EditTournamentPlayer& m) {
  TournamentState* t = find(m.tournament);
  if (!t) return error(cid, ErrorCode::NotFound, "no tournament " + std::to_string(m.tournament));
  if (auto e = director_only(*t, me, cid)) return *e;
  if (t->status() == Status::Cancelled)
    return error(cid, ErrorCode::Conflict, "the tournament was cancelled");
  const auto* p = t->player_named(m.player);
  if (!p)
    return error(cid, ErrorCode::NotFound,
                 "'" + m.player + "' is not registered in this tournament");
  json edited{
      {"user", user_json(p->user)},
      {"entry", entry_json(m.family_name, m.given_name, m.club, m.country, m.egd_pin, m.aga_id)}};
  if (p->guest()) {  // their name on the pages follows
    const auto named = guest_name(cid, m.family_name, m.given_name);
    if (const auto* e = std::get_if<protocol::Error>(&named)) return *e;
    const std::string name = std::get<std::string>(named);
    if (name != p->user.name && t->player_named(name))
      return error(cid, ErrorCode::Conflict, "'" + name + "' is registered already");
    edited["name"] = name;
  }
  if (m.rank) {
    const int rank = *protocol::parse_rank(*m.rank);
    if (rank != p->rank && t->status() != Status::Registering)
      return error(cid, ErrorCode::Conflict,
                   "the players were seeded at the start by their ranks: a rank changes before it");
    edited["rank"] = rank;
    if (p->guest()) edited["rating"] = rating_of_rank(rank);
  }
  record(*t, "edited", std::move(edited), me);
  return ack(cid, m.tournament);
}

TournamentDirector::Reply TournamentDirector::set_absent(const protocol::UserRef& me,
                                                         const std::string& cid,
                                                         const protocol::SetAbsent& m) {
  TournamentState* t = find(m.tournament);
  if (!t) return error(cid, ErrorCode::NotFound, "no tournament " + std::to_string(m.tournament));
  if (auto e = director_only(*t, me, cid)) return *e;
  const auto& s = t->settings();
  if (s.system != System::Swiss && s.system != System::McMahon) {
    return error(cid, ErrorCode::Conflict,
                 std::string("a ") + (t->elimination() ? "bracket" : "round robin") +
                     " pairs every player in every round: withdraw a player who cannot play on");
  }
  if (t->status() != Status::Registering && t->status() != Status::Running)
    return error(cid, ErrorCode::Conflict, "the tournament is over");
  const auto* p = t->player_named(m.player);
  if (!p)
    return error(cid, ErrorCode::NotFound,
                 "'" + m.player + "' is not registered in this tournament");
  if (p->withdrawn) return error(cid, ErrorCode::Conflict, "'" + m.player + "' has withdrawn");
  const std::string round = "round " + std::to_string(m.round);
  if (m.round > s.rounds)
    return error(cid, ErrorCode::NotFound,
                 "the tournament has " + std::to_string(s.rounds) + " rounds, not " +
                     std::to_string(m.round));
  const int paired = static_cast<int>(t->rounds().size());
  if (m.round <= paired && t->rounds()[m.round - 1].started) {
    return error(cid, ErrorCode::Conflict,
                 round + (s.over_the_board ? " is published already" : " has started") +
                     ": a player who does not come to their game loses it by forfeit");
  }
  if (p->absent.contains(m.round) == m.absent) return ack(cid, m.tournament);  // so already
  if (m.absent && t->active(m.round).size() <= 2)
    return error(cid, ErrorCode::Conflict,
                 "without " + m.player + ", too few players play " + round);
  const protocol::UserRef who = p->user;
  record(*t, "absence", {{"user", user_json(who)}, {"round", m.round}, {"absent", m.absent}}, me);
  if (m.round == paired) return repair(me, cid, t->id());  // the round waiting, paired again
  return ack(cid, m.tournament);
}

std::optional<protocol::Error> TournamentDirector::not_waiting(const TournamentState& t,
                                                               const std::string& cid,
                                                               int round) const {
  if (t.status() != Status::Running)
    return error(cid, ErrorCode::Conflict, "the tournament is not running");
  const int paired = static_cast<int>(t.rounds().size());
  if (round != paired) {
    return error(cid, ErrorCode::Conflict,
                 paired == 0 ? "no round is paired yet"
                             : "round " + std::to_string(paired) + " is the one paired last, not " +
                                   std::to_string(round));
  }
  return std::nullopt;
}

std::optional<std::int64_t> TournamentDirector::player_id(protocol::TournamentId id,
                                                          const std::string& name) const {
  const auto it = tournaments_.find(id);
  if (it == tournaments_.end()) return std::nullopt;
  const auto* p = it->second->player_named(name);
  return p ? std::optional(p->user.id) : std::nullopt;
}

TournamentDirector::Reply TournamentDirector::add_player(const protocol::UserRef& me,
                                                         const std::string& cid,
                                                         const protocol::AddTournamentPlayer& m) {
  TournamentState* t = find(m.tournament);
  if (!t) return error(cid, ErrorCode::NotFound, "no tournament " + std::to_string(m.tournament));
  if (auto e = director_only(*t, me, cid)) return *e;
  const auto& s = t->settings();
  if (!s.over_the_board) {
    return error(cid, ErrorCode::Conflict,
                 "players without accounts play over the board: this tournament is played online");
  }
  // Late registration (over the board): a Swiss or McMahon takes a player between rounds, before
  // the next round is published.
  const bool late = t->status() == Status::Running;
  if (t->status() != Status::Registering && !late)
    return error(cid, ErrorCode::Conflict, "registration is over: the tournament is over");
  if (late && s.system != tournament::System::Swiss && s.system != tournament::System::McMahon) {
    return error(cid, ErrorCode::Conflict,
                 "registration is over: only a Swiss or McMahon takes players after its start");
  }
  if (late && !t->rounds().empty() && t->rounds().back().started && !t->rounds().back().decided()) {
    return error(cid, ErrorCode::Conflict,
                 "round " + std::to_string(t->rounds().size()) +
                     " is being played: add the player once its results are in");
  }
  const auto named = guest_name(cid, m.family_name, m.given_name);
  if (const auto* e = std::get_if<protocol::Error>(&named)) return *e;
  const std::string name = std::get<std::string>(named);
  if (t->player_named(name))
    return error(cid, ErrorCode::Conflict, "'" + name + "' is registered already");
  if (full(*t)) return error(cid, ErrorCode::Conflict, "the tournament is full");
  const int rank = *protocol::parse_rank(m.rank);
  json registered{
      {"user", {{"id", t->next_guest_id()}, {"name", name}}},
      {"rank", rank},
      {"rating", rating_of_rank(rank)},
      {"entry", entry_json(m.family_name, m.given_name, m.club, m.country, m.egd_pin, m.aga_id)}};
  if (late) {  // their start score, as at the start; the rounds before count as not played
    registered["start_score"] =
        s.system == tournament::System::McMahon ? std::clamp(rank, s.floor, s.bar) - s.floor : 0;
  }
  record(*t, "registered", std::move(registered), me);
  // A round paired already but not published is paired again with them.
  if (late && !t->rounds().empty() && !t->rounds().back().started) {
    repair(me, cid, t->id());
    return ack(cid, t->id());
  }
  if (s.start_when_full && static_cast<int>(t->players().size()) == s.max_players)
    begin(*t, std::nullopt);
  advance(*t);
  return ack(cid, t->id());
}

TournamentDirector::Reply TournamentDirector::publish_round(const protocol::UserRef& me,
                                                            const std::string& cid,
                                                            const protocol::PublishRound& m) {
  TournamentState* t = find(m.tournament);
  if (!t) return error(cid, ErrorCode::NotFound, "no tournament " + std::to_string(m.tournament));
  if (auto e = director_only(*t, me, cid)) return *e;
  if (!t->settings().over_the_board)
    return error(cid, ErrorCode::Conflict,
                 "an online tournament's rounds start by themselves: there is nothing to publish");
  if (auto e = not_waiting(*t, cid, m.round)) return *e;
  const auto& round = t->rounds().back();
  if (round.started)
    return error(cid, ErrorCode::Conflict,
                 "round " + std::to_string(m.round) + " is published already");
  // A hybrid round: these tables are played on the server, between two accounts.
  for (const int table : m.online_tables) {
    if (table > static_cast<int>(round.pairing.games.size()))
      return error(cid, ErrorCode::NotFound,
                   "round " + std::to_string(m.round) + " has no table " + std::to_string(table));
    const auto& g = round.pairing.games[table - 1];
    for (const auto id : {g.black, g.white}) {
      if (id < 0)
        return error(cid, ErrorCode::Conflict,
                     "table " + std::to_string(table) + ": " + t->player(id)->user.name +
                         " has no account, so the game cannot be played on the server");
    }
  }
  start_round(*t, me, m.online_tables);
  advance(*t);
  return ack(cid, t->id());
}

// ---- views ----

std::string TournamentDirector::list_json(std::optional<protocol::TournamentId> before,
                                          int limit) const {
  json list = json::array();
  auto it = before ? std::make_reverse_iterator(tournaments_.lower_bound(*before))
                   : tournaments_.rbegin();
  for (; it != tournaments_.rend() && static_cast<int>(list.size()) < limit; ++it)
    list.push_back(it->second->summary_json());
  json next = nullptr;
  if (it != tournaments_.rend() && !list.empty()) next = list.back().at("id");
  return json{{"tournaments", list}, {"next_before", next}}.dump();
}

std::optional<std::string> TournamentDirector::view_json(protocol::TournamentId id) const {
  const auto it = tournaments_.find(id);
  if (it == tournaments_.end()) return std::nullopt;
  return it->second->view_json().dump();
}

std::optional<std::int64_t> TournamentDirector::group_of(protocol::TournamentId id) const {
  const auto found = tournaments_.find(id);
  if (found == tournaments_.end()) return std::nullopt;
  return found->second->settings().game.group;
}

}  // namespace tengen
