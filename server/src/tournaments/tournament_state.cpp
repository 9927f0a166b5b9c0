#include "tournaments/tournament_state.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace tengen {
namespace {

using json = nlohmann::json;
using tournament::Outcome;

Outcome read_outcome(const std::string& text) {
  if (const auto o = protocol::wire::parse<Outcome>(text)) return *o;
  throw std::runtime_error("unknown outcome '" + text + "'");
}

protocol::UserRef read_user(const json& j) {
  return {j.at("id").get<std::int64_t>(), j.at("name").get<std::string>()};
}

TournamentState::Entry read_entry(const json& e) {
  const auto text = [&](const char* key) { return e.value(key, std::string()); };
  return {text("family_name"), text("given_name"), text("club"),
          text("country"),     text("egd_pin"),    text("aga_id")};
}

}  // namespace

bool TournamentState::RoundState::decided() const {
  return std::all_of(pairing.games.begin(), pairing.games.end(),
                     [](const auto& g) { return g.outcome.has_value(); });
}

TournamentState::TournamentState(protocol::TournamentId id, protocol::UserRef director,
                                 protocol::TournamentSettings settings, std::int64_t created_at_ms)
    : id_(id),
      director_(std::move(director)),
      settings_(std::move(settings)),
      created_at_ms_(created_at_ms) {}

const TournamentState::Player* TournamentState::player(std::int64_t user) const {
  const auto it = std::find_if(players_.begin(), players_.end(),
                               [&](const Player& p) { return p.user.id == user; });
  return it == players_.end() ? nullptr : &*it;
}

const TournamentState::Player* TournamentState::player_named(const std::string& name) const {
  const auto it = std::find_if(players_.begin(), players_.end(),
                               [&](const Player& p) { return p.user.name == name; });
  return it == players_.end() ? nullptr : &*it;
}

const TournamentState::Player& TournamentState::player_ref(tournament::PlayerId id) const {
  const Player* p = player(id);
  if (!p)
    throw std::runtime_error("tournament " + std::to_string(id_) + " names player " +
                             std::to_string(id) + ", who is not registered");
  return *p;
}

void TournamentState::apply(const std::string& kind, const json& r,
                            const std::optional<protocol::UserRef>& by, std::int64_t at_ms) {
  ++next_seq_;
  audit_.push_back({at_ms, by, kind, r});
  if (kind == "registered") {
    Player p{
        read_user(r.at("user")), r.at("rank").get<int>(), r.at("rating").get<double>(), false, {}};
    if (const auto e = r.find("entry"); e != r.end()) p.entry = read_entry(*e);
    lowest_guest_ = std::min(lowest_guest_, p.user.id);
    // A late registration (over the board): after the seeds, with its own start score.
    if (status_ == Status::Running) start_scores_.push_back(r.value("start_score", 0.0));
    players_.push_back(std::move(p));
  } else if (kind == "unregistered") {
    const auto id = r.at("user").at("id").get<std::int64_t>();
    std::erase_if(players_, [&](const Player& p) { return p.user.id == id; });
  } else if (kind == "started") {
    std::vector<Player> seeded;
    for (const auto& id : r.at("seeds")) seeded.push_back(player_ref(id.get<std::int64_t>()));
    players_ = std::move(seeded);
    start_scores_ = r.at("start_scores").get<std::vector<double>>();
    status_ = Status::Running;
  } else if (kind == "paired") {
    RoundState round;
    for (const auto& g : r.at("games")) {
      round.pairing.games.push_back({g.at("black").get<std::int64_t>(),
                                     g.at("white").get<std::int64_t>(), g.at("handicap").get<int>(),
                                     std::nullopt, false});
    }
    round.pairing.byes = r.at("byes").get<std::vector<std::int64_t>>();
    round.starts_at_ms = r.at("starts_at_ms").get<std::int64_t>();
    const auto number = r.at("round").get<std::size_t>();
    if (number == rounds_.size() && !rounds_.empty() && !rounds_.back().started) {
      rounds_.back() = std::move(round);  // paired again before it started
    } else if (number == rounds_.size() + 1) {
      rounds_.push_back(std::move(round));
    } else {
      throw std::runtime_error("round " + std::to_string(number) + " paired out of order");
    }
  } else if (kind == "round_started") {
    auto& round = rounds_.at(r.at("round").get<std::size_t>() - 1);
    round.started = true;
    round.games.clear();
    for (const auto& g : r.at("games"))
      round.games.push_back(g.is_null() ? std::nullopt : std::optional(g.get<protocol::GameId>()));
  } else if (kind == "result") {
    auto& game = rounds_.at(r.at("round").get<std::size_t>() - 1)
                     .pairing.games.at(r.at("board").get<std::size_t>() - 1);
    game.outcome = read_outcome(r.at("outcome").get<std::string>());
    game.forfeit = r.at("forfeit").get<bool>();
  } else if (kind == "reported") {
    auto& round = rounds_.at(r.at("round").get<std::size_t>() - 1);
    const auto board = r.at("board").get<std::size_t>();
    if (board == 0 || board > round.pairing.games.size())
      throw std::runtime_error("a report for table " + std::to_string(board) +
                               ", not in its round");
    round.reports.resize(round.pairing.games.size());
    auto& reports = round.reports[board - 1];
    const auto side = r.at("side").get<std::string>();
    if (side != "black" && side != "white")
      throw std::runtime_error("a report from side '" + side + "'");
    (side == "black" ? reports.black : reports.white) =
        read_outcome(r.at("outcome").get<std::string>());
    ++(side == "black" ? reports.black_count : reports.white_count);
  } else if (kind == "withdrawn") {
    const auto id = r.at("user").at("id").get<std::int64_t>();
    for (auto& p : players_) {
      if (p.user.id == id) p.withdrawn = true;
    }
  } else if (kind == "edited") {
    const auto id = r.at("user").at("id").get<std::int64_t>();
    for (auto& p : players_) {
      if (p.user.id != id) continue;
      p.entry = read_entry(r.at("entry"));
      if (const auto name = r.find("name"); name != r.end()) p.user.name = name->get<std::string>();
      if (const auto rank = r.find("rank"); rank != r.end()) p.rank = rank->get<int>();
      if (const auto rating = r.find("rating"); rating != r.end()) p.rating = rating->get<double>();
    }
  } else if (kind == "absence") {
    const auto id = r.at("user").at("id").get<std::int64_t>();
    const int round = r.at("round").get<int>();
    for (auto& p : players_) {
      if (p.user.id != id) continue;
      if (r.at("absent").get<bool>())
        p.absent.insert(round);
      else
        p.absent.erase(round);
    }
  } else if (kind == "finished") {
    status_ = Status::Finished;
  } else if (kind == "cancelled") {
    status_ = Status::Cancelled;
  } else {
    throw std::runtime_error("unknown tournament event '" + kind + "'");
  }
}

std::vector<tournament::Entrant> TournamentState::seeded() const {
  std::vector<tournament::Entrant> out;
  for (std::size_t i = 0; i < players_.size(); ++i) {
    out.push_back({players_[i].user.id, i < start_scores_.size() ? start_scores_[i] : 0});
  }
  return out;
}

std::vector<tournament::Entrant> TournamentState::active(int round) const {
  auto all = seeded();
  std::erase_if(all, [&](const auto& e) {
    const auto* p = player(e.id);
    return p->withdrawn || p->absent.contains(round);
  });
  return all;
}

std::vector<tournament::PlayerId> TournamentState::withdrawn() const {
  std::vector<tournament::PlayerId> out;
  for (const auto& p : players_) {
    if (p.withdrawn) out.push_back(p.user.id);
  }
  return out;
}

std::vector<tournament::Round> TournamentState::pairings() const {
  std::vector<tournament::Round> out;
  for (const auto& r : rounds_) out.push_back(r.pairing);
  return out;
}

bool TournamentState::elimination() const {
  return settings_.system == tournament::System::SingleElimination ||
         settings_.system == tournament::System::DoubleElimination;
}

std::vector<tournament::Standing> TournamentState::standings() const {
  return tournament::standings(seeded(), withdrawn(), pairings(),
                               protocol::tie_breaks_of(settings_), elimination(),
                               settings_.system == tournament::System::DoubleElimination ? 2 : 1);
}

json TournamentState::user_json(tournament::PlayerId id) const {
  const Player& p = player_ref(id);
  return {{"id", p.user.id}, {"name", p.user.name}};
}

json TournamentState::summary_json() const {
  json j{{"id", id_},
         {"name", settings_.name},
         {"system", tournament::to_string(settings_.system)},
         {"status", protocol::wire::name(status_)},
         {"director", {{"id", director_.id}, {"name", director_.name}}},
         {"players", players_.size()},
         {"round", rounds_.size()},
         {"created_at_ms", created_at_ms_},
         {"over_the_board", settings_.over_the_board}};
  j["rounds"] = settings_.rounds > 0 ? json(settings_.rounds) : json(nullptr);
  j["starts_at_ms"] = settings_.starts_at_ms ? json(*settings_.starts_at_ms) : json(nullptr);
  return j;
}

// A player's line of the crosstable: per round, the opponent's place and the result from this
// player's side ("+", "-", "=", or "bye"), with colour and handicap.
json TournamentState::crosstable_row(const tournament::Standing& s,
                                     const std::vector<tournament::Standing>& table) const {
  std::map<tournament::PlayerId, int> place;
  for (const auto& row : table) place[row.id] = row.place;
  json cells = json::array();
  for (const auto& round : rounds_) {
    json cell = nullptr;
    if (std::find(round.pairing.byes.begin(), round.pairing.byes.end(), s.id) !=
        round.pairing.byes.end())
      cell = {{"bye", true}};
    for (const auto& g : round.pairing.games) {
      if (g.black != s.id && g.white != s.id) continue;
      const bool black = g.black == s.id;
      std::string result = "?";
      if (g.outcome == Outcome::Jigo)
        result = "=";
      else if (g.outcome == Outcome::BothLose)
        result = "-";
      else if (g.outcome)
        result = (*g.outcome == Outcome::BlackWins) == black ? "+" : "-";
      cell = {{"opponent", black ? g.white : g.black},
              {"opponent_place", place[black ? g.white : g.black]},
              {"result", result},
              {"color", black ? "b" : "w"},
              {"handicap", g.handicap},
              {"forfeit", g.forfeit}};
    }
    cells.push_back(cell);
  }
  return cells;
}

json TournamentState::view_json() const {
  json j = summary_json();
  j["settings"] = json::parse(protocol::encode_tournament_settings(settings_));
  j["tie_breaks"] = json::array();
  for (const auto t : protocol::tie_breaks_of(settings_))
    j["tie_breaks"].push_back(tournament::to_string(t));
  const auto seeds = seeded();
  j["entrants"] = json::array();
  for (std::size_t i = 0; i < players_.size(); ++i) {
    const auto& p = players_[i];
    json entrant{
        {"id", p.user.id},      {"name", p.user.name},      {"rank", protocol::rank_text(p.rank)},
        {"rating", p.rating},   {"withdrawn", p.withdrawn}, {"start_score", seeds[i].start_score},
        {"account", !p.guest()}};
    if (!p.absent.empty()) entrant["absent"] = p.absent;  // the rounds they do not play
    // Written when known: what a director registered (over the board).
    for (const auto& [key, value] : {std::pair{"family_name", &p.entry.family_name},
                                     {"given_name", &p.entry.given_name},
                                     {"club", &p.entry.club},
                                     {"country", &p.entry.country},
                                     {"egd_pin", &p.entry.egd_pin},
                                     {"aga_id", &p.entry.aga_id}}) {
      if (!value->empty()) entrant[key] = *value;
    }
    j["entrants"].push_back(std::move(entrant));
  }
  j["round_list"] = json::array();
  for (std::size_t r = 0; r < rounds_.size(); ++r) {
    const auto& round = rounds_[r];
    json games = json::array();
    for (std::size_t b = 0; b < round.pairing.games.size(); ++b) {
      const auto& g = round.pairing.games[b];
      json game{{"board", b + 1},
                {"black", user_json(g.black)},
                {"white", user_json(g.white)},
                {"handicap", g.handicap},
                {"result", g.outcome ? json(protocol::wire::name(*g.outcome)) : json(nullptr)},
                {"forfeit", g.forfeit}};
      game["game"] =
          b < round.games.size() && round.games[b] ? json(*round.games[b]) : json(nullptr);
      // Over the board, what the players said of it, and whether they disagree.
      if (b < round.reports.size() && (round.reports[b].black || round.reports[b].white)) {
        const auto& said = round.reports[b];
        const auto name = [](const auto& o) {
          return o ? json(protocol::wire::name(*o)) : json(nullptr);
        };
        game["reports"] = {{"black", name(said.black)}, {"white", name(said.white)}};
        game["disputed"] = !g.outcome && said.disputed();
      }
      games.push_back(game);
    }
    json byes = json::array();
    for (const auto id : round.pairing.byes) byes.push_back(user_json(id));
    j["round_list"].push_back({{"round", r + 1},
                               {"starts_at_ms", round.starts_at_ms},
                               {"started", round.started},
                               {"games", games},
                               {"byes", byes}});
  }
  j["standings"] = json::array();
  if (status_ != Status::Registering) {
    const auto table = standings();
    for (const auto& s : table) {
      j["standings"].push_back({{"place", s.place},
                                {"player", user_json(s.id)},
                                {"rank", protocol::rank_text(player_ref(s.id).rank)},
                                {"score", s.score},
                                {"points", s.points},
                                {"sos", s.sos},
                                {"sosos", s.sosos},
                                {"sodos", s.sodos},
                                {"withdrawn", s.withdrawn},
                                {"eliminated", s.eliminated},
                                {"rounds", crosstable_row(s, table)}});
    }
  }
  j["audit"] = json::array();
  for (const auto& line : audit_) {
    j["audit"].push_back({{"at_ms", line.at_ms},
                          {"by", line.by ? json(line.by->name) : json(nullptr)},
                          {"kind", line.kind},
                          {"record", line.record}});
  }
  return j;
}

}  // namespace tengen
