#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

// What travels between nodes on the bus (docs/cluster.md): a front node's connections as the hub
// sees them, and what the hub sends back to them. Clients' commands and the server's messages
// travel inside as the very texts of the client protocol (codec.h). JSON, like everything here.
namespace tengen::protocol::bus {

// The subjects: every front node publishes to the hub on one; the hub answers each node on its
// own.
inline std::string hub_subject() {
  return "tengen.hub";
}
inline std::string node_subject(std::int64_t node) {
  return "tengen.node." + std::to_string(node);
}
// Where a node's own games are played (docs/cluster.md, "Games on every node"): every other
// node sends the commands of that node's games there, and gets what they produce back on
// node_games_subject (its own).
inline std::string games_subject(std::int64_t node) {
  return "tengen.games." + std::to_string(node);
}
inline std::string node_games_subject(std::int64_t node) {
  return "tengen.node." + std::to_string(node) + ".games";
}
// Where a node answers the reads of the games it plays (HubRead: LiveSgf, GameAction, MyGames),
// asked by the hub on behalf of the HTTP API and the players' lists of games.
inline std::string game_reads_subject(std::int64_t node) {
  return "tengen.games." + std::to_string(node) + ".reads";
}
// Where a node that has become the hub says so: every other node's connections were attached to
// the hub before, and must attach again (docs/cluster.md, "Failover").
inline std::string cluster_subject() {
  return "tengen.cluster";
}

// Where a front node asks the hub for what only the hub's memory holds (HubRead), for its HTTP
// API; each question is answered to its asker alone (a NATS request).
inline std::string hub_reads_subject() {
  return "tengen.hub.reads";
}
// Where a node asks the hub to rebuild every rating (HubRead::RebuildRatings), answered on a
// subscription of its own: the node asks while answering the hub's own question on its games
// (an annulment the hub asked of it), which holds up the hub's reads' subscription meanwhile.
inline std::string hub_ratings_subject() {
  return "tengen.hub.ratings";
}

// Where a node says that a session ended on it (a logout, a revocation): every other node
// closes its WebSockets opened with the session.
inline std::string sessions_subject() {
  return "tengen.sessions";
}

// Where a node says that an account posted a line of chat (in a game or on a review board):
// every other node's chat rate counts it too, so that an account chatting in games played on
// several nodes has one rate across them all (docs/cluster.md, "Limits across nodes").
inline std::string chat_subject() {
  return "tengen.chat";
}

// An account as the hub needs it (never its password hash).
struct User {
  std::int64_t id = 0;
  std::string name;
  bool bot = false;
  std::int64_t created_at_ms = 0;
  bool admin = false;  // sees what administrators see (a private game's review)
};

// A front node to the hub, about one of its connections (`connection`: the node's own number).
struct ToHub {
  enum class Op : std::uint8_t {
    Connected,     // `user` (none: a guest), `rtt_ms`
    Received,      // `text`: the client's command, as encode(ClientEnvelope) writes it; `rtt_ms`
    Disconnected,  //
    Answer,        // `text`: a message the connection made by itself (a pong, an error), to be
                   // sent after everything the hub produced for it so far
    Barrier,       // `connection` is the barrier's number: answered once everything the hub
                   // produced so far has been sent
    RollCall,      // the node is about to announce again every connection it holds (its bus
                   // back, a new hub, its own start): what it does not announce is gone
    RollEnd,       // it has: the hub lets go of the node's connections not announced since
  };
  Op op = Op::Received;
  std::int64_t node = 0;
  std::uint64_t connection = 0;
  std::optional<User> user;
  std::optional<std::int64_t> rtt_ms;
  std::string text;
};

// The hub to one front node: messages for one of its connections, in order; or a barrier passed;
// or (`unknown`) that the hub holds no such connection (its announcement lost on the bus): the
// node attaches it again.
struct ToNode {
  std::uint64_t connection = 0;
  std::vector<std::string> texts;
  std::optional<std::uint64_t> barrier;
  bool unknown = false;
  // The hub does not play this game: it is node `moved`'s (docs/cluster.md, "Games on every
  // node"). `texts` holds the one command that came, for the node to send there.
  std::optional<std::int64_t> moved{};
};

// A front node's question to the hub (GET /api/v1/games/{id}.sgf of a game in play, the
// tournaments list and one tournament).
struct HubRead {
  enum class What : std::uint8_t {
    LiveSgf,
    Tournaments,
    Tournament,
    Reviews,            // the open reviews (docs/reviews.md)
    ReviewSgf,          // an open review's tree
    CreateReview,       // `text`: an http::ReviewRequest; the body: {"status", "body"}
    ReloadPlayer,       // `id`: a player whose blocks changed (docs/moderation.md); the body: "{}"
    AccountRestricted,  // `id`: a user suspended or banned; the body: "{}"
    GameAction,    // `id`: the game, `text`: an administrator's action (http::GameAction's JSON);
                   // the body: {"status", "body"}
    GroupChanged,  // `id`: a group whose members changed (docs/groups.md); the body: "{}"
    Tell,          // `text`: {"users": [ids], "from": id?, "message": "..."}; the body: "{}"
    StartGame,     // `text`: {"settings", "black", "white"}; the body: {"game"} or {"error"}
    // `text`: {"settings" (a tournament's), "director", "players": [ids]} (a class's round robin,
    // docs/classes.md); the body: {"tournament"} or {"error"}
    ClassTournament,
    // `text`: {"xml" (an OpenGotha file), "director"} (docs/tournaments.md, "OpenGotha"); the
    // body: {"tournament"} or {"error"}
    ImportTournament,
    // `text`: {"tournament", "director", "csv" (a list of players)}; the body: {"added"} or
    // {"error"}
    AddTournamentPlayers,
    // `text`: an http::RelayOp (docs/events.md, "Relays"); the body: {"status", "body"}
    Relay,
    // `id`: a player; the body: their unfinished games on the node asked, as the server message
    // my_games (games on every node: docs/cluster.md)
    MyGames,
    // Every rating rebuilt (a node annulled a rated game it played: games on every node); the
    // body: {"rows"}
    RebuildRatings,
  };
  What what = What::LiveSgf;
  std::int64_t id = 0;                 // the game, the tournament or the review
  std::optional<std::int64_t> before;  // Tournaments: a page (ids below `before`, `limit` of them)
  int limit = 0;
  std::string text{};  // CreateReview's request
  // Reviews, ReviewSgf: who asks (a private game's review is theirs to see or not).
  std::optional<std::int64_t> viewer{};
  bool admin = false;
};
// The hub's answer: the body, or none (no such game in play, no such tournament).
struct HubReadAnswer {
  std::optional<std::string> body;
};

std::string encode(const ToHub& m);
std::string encode(const HubRead& m);
std::string encode(const HubReadAnswer& m);
std::optional<HubRead> decode_hub_read(std::string_view text);
std::optional<HubReadAnswer> decode_hub_read_answer(std::string_view text);
std::string encode(const ToNode& m);
// nullopt for anything that is not such a message (a bus is shared: say so in the log, go on).
std::optional<ToHub> decode_to_hub(std::string_view text);
std::optional<ToNode> decode_to_node(std::string_view text);
// On sessions_subject(): `session` ended on `node`.
struct SessionEnded {
  std::int64_t node = 0;
  std::int64_t session = 0;
  std::string why{};  // what its pages are told (a suspension: "suspended until <ms>")
};
std::string encode(const SessionEnded& m);
std::optional<SessionEnded> decode_session_ended(std::string_view text);
// On chat_subject(): `user` posted a line, counted by the rate `counter` (a node's centre:
// Router; the one that counted it skips its own).
struct ChatPosted {
  std::int64_t user = 0;
  std::int64_t counter = 0;
};
std::string encode(const ChatPosted& m);
std::optional<ChatPosted> decode_chat_posted(std::string_view text);
// The hub's announcement on cluster_subject(): the node that is the hub now.
std::string encode_hub(std::int64_t node);
std::optional<std::int64_t> decode_hub(std::string_view text);
// On cluster_subject(): where a game is played now (docs/cluster.md, "Games on every node"):
// on `node`, or (`node` 0) on the hub, which plays every game not said to be elsewhere.
struct GameOwner {
  std::int64_t game = 0;
  std::int64_t node = 0;
};
std::string encode(const GameOwner& m);
std::optional<GameOwner> decode_game_owner(std::string_view text);
// A node that played games and stops (SIGTERM) says so on cluster_subject() once it has ended
// its liveness (store::Leases::end): the hub takes its games over at once.
std::string encode_node_left(std::int64_t node);
std::optional<std::int64_t> decode_node_left(std::string_view text);
// A node that played a rated game to its end says so on cluster_subject() once the end is
// durable with its store::RatingDue row: the hub rates the games left to rate (Centre::rate_due).
std::string encode_rating_due(std::int64_t game);
std::optional<std::int64_t> decode_rating_due(std::string_view text);
// A hub that stops (SIGTERM) says so on cluster_subject() once everything it acknowledged is
// stored and it has let go of the hub lock: the waiting nodes try the lock at once.
std::string encode_hub_leaving(std::int64_t node);
std::optional<std::int64_t> decode_hub_leaving(std::string_view text);

}  // namespace tengen::protocol::bus
