#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "clock.h"
#include "engine/sgf.h"
#include "protocol/analysis_api.h"
#include "store/analysis_store.h"
#include "store/game_store.h"
#include "store/position_analysis_store.h"

namespace tengen {

// Analysis after the game (docs/analysis.md): the queue players fill and workers empty, over the
// store's tables, so that every node of a cluster serves the same queue. Players ask for a finished
// game's analysis (never a game in play); workers, each with a key an administrator issued,
// claim the oldest job, report progress, and hand in a result that is checked against the game
// before it is kept. Holds no state of its own; safe from any thread.
class Analysis {
 public:
  struct Limits {
    int own_per_day = 50;     // requests a day for one's own games
    int others_per_day = 10;  // requests a day for other people's public games
    int waiting_per_account = 3;
    int queue = 1000;                // jobs waiting or running, everyone's
    int positions_per_day = 100;     // a review board's positions a day, one account
    std::int64_t claim_ms = 120000;  // a worker silent this long loses its job to another
    int attempts = 3;                // claims before a job fails
  };
  Analysis(store::AnalysisStore& store, store::PositionAnalysisStore& positions,
           store::GameStore& games, Clock& clock)
      : Analysis(store, positions, games, clock, Limits{}) {}
  Analysis(store::AnalysisStore& store, store::PositionAnalysisStore& positions,
           store::GameStore& games, Clock& clock, Limits limits)
      : store_(store), positions_(positions), games_(games), clock_(clock), limits_(limits) {}

  // A new worker's key (shown once; the store keeps its hash); nullopt if the name is taken or
  // not 1 to 40 letters, digits, '-', '_' or '.'.
  static std::optional<std::string> make_key(store::AnalysisStore& store, const std::string& name,
                                             std::int64_t now_ms);
  std::optional<std::string> make_key(const std::string& name) {
    return make_key(store_, name, clock_.unix_ms());
  }
  bool revoke(const std::string& name) { return store_.revoke_worker(name, clock_.unix_ms()); }
  // A fresh key for the worker `name`, replacing the one it had (the house worker's, at each
  // start of the server).
  std::string renew_key(const std::string& name);
  std::vector<store::AnalysisWorker> workers() { return store_.workers(); }
  // The queue for the Admin page: what waits or runs, then the latest `most` that ended.
  std::vector<store::AnalysisJobListed> listed_jobs(int most) { return store_.listed_jobs(most); }
  // For /metrics: jobs waiting or running (games and positions), workers seen in five minutes
  // (a worker's last_seen is written once a minute); zeros if the store cannot be read.
  struct Queue {
    int unfinished = 0;
    int workers_seen = 0;
  };
  Queue queue();
  // The worker holding this key, unless revoked.
  std::optional<store::AnalysisWorker> worker(const std::string& key);

  // What an HTTP answer needs: a status, and either the view or a refusal (code, message).
  struct Refusal {
    int status = 400;
    std::string code;
    std::string message;
  };
  using Answer = std::variant<protocol::http::AnalysisView, Refusal>;
  // `user` asks for the game's analysis (`is_player`: they played it). Queued (202), or the
  // stored one (200), or refused: no such game, a game in play, a private game not theirs, an
  // allowance spent, the queue full.
  Answer request(std::int64_t game, std::int64_t user, bool is_player);
  // The game's analysis as it stands (state "none" if nobody asked for it).
  Answer view(std::int64_t game);

  // --analyse-every-game (docs/analysis.md): queues the games that ended since then (with at
  // least kEveryGameMinMoves moves), as far as the queue's bound allows: how many, and whether
  // the queue was full (some may not have fitted).
  static constexpr int kEveryGameMinMoves = 10;
  struct Queued {
    int games = 0;
    bool full = false;
  };
  Queued queue_ended(std::int64_t since_ms);

  // A review board's position (docs/analysis.md, "In a review board"): `line` is the line from
  // the board's start to the node, as the board's record holds it (analysis::line_of); the same
  // line asked for again is answered from the store. Refused while `user` plays a game that is
  // not correspondence (fair play: the board could hold that game's position), or past the
  // allowance and the queue's bounds.
  using PositionAnswer = std::variant<protocol::http::PositionAnalysisView, Refusal>;
  PositionAnswer request_position(std::int64_t review, std::int64_t node, const GameRecord& line,
                                  std::int64_t user);
  // A relay's position (docs/events.md, "Relays"), asked for by its director as each move is
  // entered and shown to spectators some moves later: no daily allowance (a relay has at most
  // protocol::http::kMaxRelayMoves moves) and no fair-play refusal (nobody on the server plays
  // that game), but at most kRelayWaiting unfinished for one director, and the queue's bound.
  static constexpr int kRelayWaiting = 20;
  PositionAnswer request_relay_position(std::int64_t review, std::int64_t node,
                                        const GameRecord& line, std::int64_t director);
  // The newest job for this board's node; nullopt if nobody asked for it.
  std::optional<protocol::http::PositionAnalysisView> position_at(std::int64_t review,
                                                                  std::int64_t node);
  // The job's view; nullopt if there is no such job for this board.
  std::optional<protocol::http::PositionAnalysisView> position(std::int64_t review,
                                                               std::int64_t id);

  // A worker's calls. The next job (nullopt: none waiting): a review board's position first, if
  // the worker takes them (`positions`: it said so), then the oldest game.
  std::optional<protocol::http::AnalysisJob> acquire(const store::AnalysisWorker& worker,
                                                     bool positions = false);
  // The same for a position's job (`position` its id).
  std::optional<Refusal> position_progress(const store::AnalysisWorker& worker,
                                           std::int64_t position);
  std::optional<Refusal> submit_position(const store::AnalysisWorker& worker, std::int64_t position,
                                         std::string_view body);
  std::optional<Refusal> give_back_position(const store::AnalysisWorker& worker,
                                            std::int64_t position);
  std::optional<Refusal> progress(const store::AnalysisWorker& worker, std::int64_t game, int done);
  // The result, checked and kept; or why not (400 for a result that does not fit the game: the
  // job fails with that reason; 409 for a job the worker no longer holds).
  std::optional<Refusal> submit(const store::AnalysisWorker& worker, std::int64_t game,
                                std::string_view body);
  // The worker gives up on the job (its engine failed): it waits for another worker.
  std::optional<Refusal> give_back(const store::AnalysisWorker& worker, std::int64_t game);

  // The game's SGF with its analysis written in, when there is one (else the SGF as it is).
  std::string with_analysis(std::int64_t game, std::string sgf);

 private:
  protocol::http::AnalysisView view_of(const store::AnalysisJobRow& row);
  protocol::http::PositionAnalysisView position_view(const store::PositionJobRow& row);

  store::AnalysisStore& store_;
  store::PositionAnalysisStore& positions_;
  store::GameStore& games_;
  Clock& clock_;
  Limits limits_;
};

}  // namespace tengen
