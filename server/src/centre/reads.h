#pragma once

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "protocol/http_api.h"
#include "protocol/messages.h"
#include "protocol/relay_api.h"
#include "store/game_store.h"

// What the HTTP API asks of the owners, as plain functions: the hub's centre answers them from
// memory (cluster::hub_reads_of), a front node of a cluster over the bus (cluster::ask_hub). A
// header of types only, so that neither the API nor the cluster depends on the other.

namespace tengen {

// What only the hub's memory holds (the record of a game in play, the tournaments), read by the
// API. On the hub they are the hub's own; on a front node of a cluster they ask the hub over the
// bus (cluster/hub_reads.h) and throw Unavailable when no answer comes (answered 503).
struct HubReads {
  // A game in play's record; nullopt if it is not in play.
  std::function<std::optional<std::string>(std::int64_t game)> live_sgf;
  // As JSON: a page of the list (newest first, ids below page.before), and one whole (nullopt if
  // there is none).
  std::function<std::string(const store::Page& page)> tournaments;
  std::function<std::optional<std::string>(std::int64_t id)> tournament;
  // Review boards (docs/reviews.md): the open ones as JSON, an open one's SGF (nullopt if it is
  // not open), and a new one (201 and its id, or the refusal).
  // Each as `viewer` may see it (a private game's review: its players, administrators, invitees).
  std::function<std::string(const protocol::http::Viewer& viewer)> reviews;
  std::function<std::optional<std::string>(std::int64_t id, const protocol::http::Viewer& viewer)>
      review_sgf;
  std::function<std::pair<int, std::string>(const protocol::http::ReviewRequest&)> create_review;
  // A relay's boards (docs/events.md, "Relays"): made, a move added or taken back, closed; the
  // status and body of the answer.
  std::function<std::pair<int, std::string>(const protocol::http::RelayOp&)> relay;
  // A player's blocks changed in the store: the hub follows (docs/moderation.md).
  std::function<void(std::int64_t user)> reload_player;
  // A user was suspended or banned: the hub cancels their challenges and seek.
  std::function<void(std::int64_t user)> account_restricted;
  // A group's members changed in the store (docs/groups.md): the hub reads them again.
  std::function<void(std::int64_t group)> group_changed;
  // A game between two players with these settings (a ladder's: docs/groups.md; a simul's board:
  // docs/events.md), each first move due within `start_timeout_ms` (0: the usual): its id, or why
  // not.
  std::function<std::variant<std::int64_t, std::string>(const std::string& settings,
                                                        std::int64_t black, std::int64_t white,
                                                        std::int64_t start_timeout_ms)>
      start_game;
  // A class's round robin (docs/classes.md): a tournament with these settings (JSON, as in
  // create_tournament) made by `director`, `players` registered and started: its id, or why not.
  std::function<std::variant<std::int64_t, std::string>(
      const std::string& settings, std::int64_t director, const std::vector<std::int64_t>& players)>
      class_tournament;
  // An OpenGotha file made into an over-the-board tournament directed by `director`
  // (docs/tournaments.md, "OpenGotha"): its id, or why not.
  std::function<std::variant<std::int64_t, std::string>(const std::string& xml,
                                                        std::int64_t director)>
      import_tournament;
  // A list of players (CSV, federation::read_player_list) registered in an over-the-board
  // tournament by its director, one after another: how many, or why not.
  std::function<std::variant<int, std::string>(std::int64_t tournament, std::int64_t director,
                                               const std::string& csv)>
      add_tournament_players;
  // A group's news to these users' connections (not to those who block `from`).
  std::function<void(const std::vector<std::int64_t>& users, std::optional<std::int64_t> from,
                     const std::string& text)>
      tell;
  // What an administrator does to a game (its request's body, checked): the status and body
  // Centre::game_action answers.
  std::function<std::pair<int, std::string>(std::int64_t game, const std::string& action)>
      game_action;
  // A player's unfinished games in memory, as the list of their games shows them (games on every
  // node: those a node plays, asked of it by the hub).
  std::function<protocol::MyGames(std::int64_t user)> my_games;
  // Every rating rebuilt from the stored games by the ratings' owner, the hub (Centre::
  // rebuild_ratings): the rows written.
  std::function<std::size_t()> rebuild_ratings;
};

// A HubReads that cannot be answered now: the message says why (answered 503).
struct Unavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace tengen
