#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "engine/result.h"
#include "rooms/room_options.h"
#include "store/game_store.h"
#include "tournaments/tournament_state.h"

namespace tengen {

// What the tournament director needs from the lobby that owns it. Everything happens inside
// the lobby's current operation: writes and messages go out with it, once durable.
class TournamentHost {
 public:
  virtual ~TournamentHost() = default;
  // Creates and announces a game between the two players, Black first; returns its id.
  virtual protocol::GameId start_tournament_game(const protocol::GameSettings& settings,
                                                 const protocol::UserRef& black,
                                                 const protocol::UserRef& white,
                                                 const RoomOptions& options) = 0;
  // Ends a game in play with this result (withdrawal, adjudication).
  virtual void end_tournament_game(protocol::GameId game, const Result& result,
                                   protocol::EndReason reason) = 0;
  virtual void write(store::Write write) = 0;
  // Tells those watching (the tournament, or every tournament) that it changed.
  virtual void tournament_changed(const protocol::TournamentChanged& change) = 0;
  // The tournament's next deadline (Unix ms), or none.
  virtual void arm_tournament(protocol::TournamentId id, std::optional<std::int64_t> at_ms) = 0;
  virtual std::optional<protocol::UserRef> user_named(const std::string& name) = 0;
  virtual std::optional<protocol::UserRef> user_by_id(std::int64_t id) = 0;
  virtual double rating_of_user(std::int64_t user) = 0;
  virtual std::int64_t unix_now_ms() = 0;
};

// Runs every tournament (docs/tournaments.md): registration, the start, each round paired and
// started on time, its games created with the tournament's settings, results flowing into the
// standings, withdrawals and the director's overrides. Not thread-safe: the lobby calls it under
// its lock.
class TournamentDirector {
 public:
  using Reply = std::variant<protocol::Ack, protocol::Error>;
  // What one account may create (docs/limits.md): tournaments not yet over (registering or
  // running), and tournaments created in any 24 hours (counted from the stored creation times,
  // so a restart does not reset it); and tournaments not yet over on the server in all.
  static constexpr int kMaxOpenPerDirector = 5;
  static constexpr int kMaxCreatedPerDay = 10;
  static constexpr int kMaxOpen = 500;

  TournamentDirector(TournamentHost& host, RoomOptions room) : host_(host), room_(room) {}

  // Replays the stored tournaments; then call resume() once the games are back.
  void recover(const std::vector<store::StoredTournament>& stored);
  // Moves every tournament on as far as the time allows (after a restart, a round may be due).
  void resume();

  // The commands below record `cid` with the first event they make, so that the command is
  // answered again, not applied again, if it comes back after a restart (commands_of()).
  void begin_command(const std::string& cid) { command_cid_ = cid; }
  // The commands the stored tournaments remember: (user, cid, tournament), oldest first.
  struct RememberedCommand {
    std::int64_t user = 0;
    std::string cid;
    protocol::TournamentId tournament = 0;
  };
  static std::vector<RememberedCommand> commands_of(
      const std::vector<store::StoredTournament>& stored);

  Reply create(const protocol::UserRef& me, const std::string& cid,
               const protocol::TournamentSettings& settings);
  Reply register_player(const protocol::UserRef& me, const std::string& cid,
                        const protocol::RegisterTournament& m);
  Reply leave(const protocol::UserRef& me, const std::string& cid, protocol::TournamentId id);
  Reply start(const protocol::UserRef& me, const std::string& cid, protocol::TournamentId id);
  Reply withdraw(const protocol::UserRef& me, const std::string& cid,
                 const protocol::WithdrawPlayer& m);
  Reply set_result(const protocol::UserRef& me, const std::string& cid,
                   const protocol::SetTournamentResult& m);
  Reply repair(const protocol::UserRef& me, const std::string& cid, protocol::TournamentId id);
  // Over the board (docs/tournaments.md): a player without an account registered by the
  // director, and a paired round published by the director.
  Reply add_player(const protocol::UserRef& me, const std::string& cid,
                   const protocol::AddTournamentPlayer& m);
  Reply publish_round(const protocol::UserRef& me, const std::string& cid,
                      const protocol::PublishRound& m);
  // Over the board: a player says how their table's game ended; it counts once both agree. A
  // player may change their answer, at most kMaxReports times for one table in all.
  static constexpr int kMaxReports = 5;
  Reply report_result(const protocol::UserRef& me, const std::string& cid,
                      const protocol::ReportTournamentResult& m);
  // Over the board: the round paired last, paired again by the director's hand before it is
  // published (all of it, or some tables and the rest by the system).
  Reply pair_round(const protocol::UserRef& me, const std::string& cid,
                   const protocol::PairRound& m);
  // What is registered of a player corrected (names, club, country, numbers; the rank before
  // the start); a player without an account is renamed with it.
  Reply edit_player(const protocol::UserRef& me, const std::string& cid,
                    const protocol::EditTournamentPlayer& m);
  // A Swiss or McMahon: a player marked as not playing a round not yet published (or started),
  // or as playing it after all; the round waiting to be published is paired again.
  Reply set_absent(const protocol::UserRef& me, const std::string& cid,
                   const protocol::SetAbsent& m);
  // A registered player's id by name (an account's name, or "Family Given"), for an import.
  std::optional<std::int64_t> player_id(protocol::TournamentId id, const std::string& name) const;
  // Players in one tournament without a limit of their own (max_players 0), and those the
  // director registers.
  static constexpr int kMaxPlayers = 1000;

  // A game ended with this result: if it is a tournament's, the result counts (once: a result
  // already known is ignored).
  void game_finished(protocol::GameId game, const Result& result);
  // The tournament games whose result the tournaments do not know yet (in play, or ended just
  // before a crash that came before the tournament was told).
  std::vector<protocol::GameId> undecided_games() const;
  // A tournament's deadline came.
  void deadline(protocol::TournamentId id);
  // How a tournament game's room runs (for rebuilding it), or nullopt for other games.
  std::optional<RoomOptions> room_options(protocol::GameId game) const;
  // Every tournament game there is, with how its room runs (for the index of them:
  // lobby/tournament_games.h).
  std::vector<std::pair<protocol::GameId, RoomOptions>> games() const;

  // A page of the list, newest first: at most `limit` tournaments with ids below `before`, and
  // `next_before` for the next page (null on the last).
  std::string list_json(std::optional<protocol::TournamentId> before, int limit) const;
  std::optional<std::string> view_json(protocol::TournamentId id) const;
  bool exists(protocol::TournamentId id) const { return tournaments_.contains(id); }
  // The group whose members alone may play it (docs/groups.md), if it is a group's.
  std::optional<std::int64_t> group_of(protocol::TournamentId id) const;

 private:
  struct Board {
    protocol::TournamentId tournament = 0;
    int round = 0;  // 1-based
    int board = 0;  // 1-based
  };

  TournamentState* find(protocol::TournamentId id);
  // Records an event: applied to the state, stored, announced.
  void record(TournamentState& t, const std::string& kind, nlohmann::json r,
              const std::optional<protocol::UserRef>& by);
  void set_status(TournamentState& t, const char* status);
  // Does whatever is due: the start, pairing the next round, starting it, finishing.
  void advance(TournamentState& t);
  // advance() outside a command (a game's end, a deadline, recovery): a fault is logged.
  void advance_safely(TournamentState& t);
  void begin(TournamentState& t, const std::optional<protocol::UserRef>& by);
  bool pair_next(TournamentState& t, const std::optional<protocol::UserRef>& by);
  // The next round's pairing after the first `played` rounds, or none when the tournament is over.
  std::optional<tournament::Round> next_pairing(const TournamentState& t, std::size_t played) const;
  void withdraw_player(TournamentState& t, const protocol::UserRef& player,
                       const std::optional<protocol::UserRef>& by);
  std::int64_t round_start_time(const TournamentState& t, std::size_t round_index) const;
  // Online: its games are created. Over the board: it is published (`by`, the director), the
  // games of `online_tables` created (a hybrid round).
  void start_round(TournamentState& t, const std::optional<protocol::UserRef>& by = std::nullopt,
                   const std::vector<int>& online_tables = {});
  // `confirmed`: both players of the table reported it.
  void record_result(TournamentState& t, int round, int board, tournament::Outcome outcome,
                     bool forfeit, const std::optional<protocol::UserRef>& by,
                     bool confirmed = false);
  // What stops the director from changing round `round` (pairing or publishing it): the
  // tournament not running, or the round not the one paired last.
  std::optional<protocol::Error> not_waiting(const TournamentState& t, const std::string& cid,
                                             int round) const;
  // The round and table a command names, or what is wrong with them.
  std::variant<const TournamentState::RoundState*, protocol::Error> published_table(
      const TournamentState& t, const std::string& cid, int round, int board) const;
  void index_games(const TournamentState& t);
  protocol::GameSettings game_settings(const TournamentState& t, const tournament::Game& g) const;
  RoomOptions options_for(const TournamentState& t, int round, int board) const;
  std::optional<protocol::Error> director_only(const TournamentState& t,
                                               const protocol::UserRef& me,
                                               const std::string& cid) const;

  TournamentHost& host_;
  RoomOptions room_;
  std::map<protocol::TournamentId, std::unique_ptr<TournamentState>> tournaments_;
  std::map<protocol::GameId, Board> boards_;  // every tournament game
  protocol::TournamentId next_id_ = 0;
  std::string command_cid_;  // the command under way, until its first event records it
};

}  // namespace tengen
