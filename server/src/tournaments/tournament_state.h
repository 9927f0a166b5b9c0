#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/tournament/tournament.h"
#include "protocol/messages.h"

namespace tengen {

// One tournament as its events made it. Every change is an event (kind + JSON record) applied
// by apply(), live and when replayed from the store, so that a restart rebuilds exactly this.
class TournamentState {
 public:
  using Status = protocol::TournamentStatus;

  // What the director registered of a player over the board (docs/tournaments.md): for a
  // player without an account (a negative id) their names, and for the federation files their
  // club, country and numbers. Empty strings where not given.
  struct Entry {
    std::string family_name, given_name, club, country, egd_pin, aga_id;
  };
  struct Player {
    protocol::UserRef user;  // a player without an account: a negative id, "Family Given"
    int rank = 0;            // protocol rank index
    double rating = 0;
    bool withdrawn = false;
    std::set<int> absent;  // rounds they do not play, though registered (docs/tournaments.md)
    Entry entry{};
    bool guest() const { return user.id < 0; }
  };
  // Over the board: what each player of a table said of its result (docs/tournaments.md).
  struct Reports {
    std::optional<tournament::Outcome> black, white;
    int black_count = 0, white_count = 0;  // reports made (a player may change their answer)
    bool disputed() const { return black && white && *black != *white; }
  };
  struct RoundState {
    tournament::Round pairing;                           // with outcomes as they come in
    std::vector<std::optional<protocol::GameId>> games;  // per board, once the round started
    std::vector<Reports> reports;                        // per board, over the board
    std::int64_t starts_at_ms = 0;
    bool started = false;
    bool decided() const;
  };
  struct AuditLine {
    std::int64_t at_ms = 0;
    std::optional<protocol::UserRef> by;
    std::string kind;
    nlohmann::json record;
  };

  TournamentState(protocol::TournamentId id, protocol::UserRef director,
                  protocol::TournamentSettings settings, std::int64_t created_at_ms);

  // Applies one event; throws std::runtime_error on a record it cannot read.
  void apply(const std::string& kind, const nlohmann::json& record,
             const std::optional<protocol::UserRef>& by, std::int64_t at_ms);

  protocol::TournamentId id() const { return id_; }
  const protocol::UserRef& director() const { return director_; }
  std::int64_t created_at_ms() const { return created_at_ms_; }
  const protocol::TournamentSettings& settings() const { return settings_; }
  Status status() const { return status_; }
  const std::vector<Player>& players() const { return players_; }
  const Player* player(std::int64_t user) const;
  // The registered player of that name (an account's name, or "Family Given").
  const Player* player_named(const std::string& name) const;
  // The id the next player without an account gets: below every one given before.
  std::int64_t next_guest_id() const { return lowest_guest_ - 1; }
  const std::vector<RoundState>& rounds() const { return rounds_; }
  std::int64_t next_seq() const { return next_seq_; }

  // For the pairing functions: everyone in seed order with their start scores; those to pair in
  // a round (not withdrawn, not absent from it); withdrawn ids; the rounds' pairings with their
  // outcomes.
  std::vector<tournament::Entrant> seeded() const;
  std::vector<tournament::Entrant> active(int round) const;
  std::vector<tournament::PlayerId> withdrawn() const;
  std::vector<tournament::Round> pairings() const;
  bool elimination() const;
  std::vector<tournament::Standing> standings() const;

  // The summary row of GET /api/v1/tournaments and the whole of GET /api/v1/tournaments/{id}.
  nlohmann::json summary_json() const;
  nlohmann::json view_json() const;

 private:
  const Player& player_ref(tournament::PlayerId id) const;
  nlohmann::json user_json(tournament::PlayerId id) const;
  nlohmann::json crosstable_row(const tournament::Standing& s,
                                const std::vector<tournament::Standing>& table) const;

  protocol::TournamentId id_;
  protocol::UserRef director_;
  protocol::TournamentSettings settings_;
  std::int64_t created_at_ms_;
  Status status_ = Status::Registering;
  std::vector<Player> players_;       // registration order until the start, then seed order
  std::vector<double> start_scores_;  // by seed, from the start
  std::vector<RoundState> rounds_;
  std::vector<AuditLine> audit_;
  std::int64_t next_seq_ = 1;
  std::int64_t lowest_guest_ = 0;
};

}  // namespace tengen
