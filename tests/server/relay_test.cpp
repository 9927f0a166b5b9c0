// Relays of games played over the board (docs/events.md, "Relays") through the real stack: made
// and entered over HTTP, followed over real WebSockets, stored in a real SQLite file and rebuilt
// by a restarted stack. The browser's side is tests/web/relay.mjs; the store's on both databases
// is relay_store_test.cpp.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "reviews/reviews.h"
#include "support/many_players.h"

namespace tengen::testing {
namespace {

using json = nlohmann::json;

class Relays : public ManyPlayers {
 protected:
  json make(const std::string& director, json form = {}) {
    if (form.empty())
      form = {{"event", "Dutch Championship"},
              {"round", 3},
              {"table", 1},
              {"black", "Ilya Shikshin"},
              {"black_rank", "7d"},
              {"white", "Mateusz Surma"},
              {"white_rank", "6d"},
              {"size", 9},
              {"komi", 7}};
    const auto [status, made] = request("POST", "/api/v1/relays", director, form.dump());
    EXPECT_EQ(status, 201) << raw_;
    return made;
  }
  std::pair<int, json> move(const std::string& who, std::int64_t relay, json body) {
    return request("POST", "/api/v1/relays/" + std::to_string(relay) + "/moves", who, body.dump());
  }
  std::pair<int, json> post(const std::string& who, std::int64_t relay, const std::string& what,
                            json body = json::object()) {
    return request("POST", "/api/v1/relays/" + std::to_string(relay) + "/" + what, who,
                   body.dump());
  }
  static json cmd(const char* type, std::int64_t review, json fields = json::object()) {
    fields["type"] = type;
    fields["review"] = review;
    return fields;
  }
  static json follow(WsClient& c, std::int64_t review) {
    EXPECT_EQ(c.command(cmd("review_join", review))["type"], "ack");
    return c.wait_type("review_snapshot");
  }
  // The next update of `review` numbered `seq`.
  static json update(WsClient& c, std::int64_t review, std::int64_t seq) {
    return c.wait([&](const json& m) {
      return m["type"] == "review_update" && m["review"] == review && m["seq"] == seq;
    });
  }
  static char at(const json& position, int x, int y) {  // 9×9, y from the top
    return position["board"].get<std::string>()[static_cast<std::size_t>(y * 9 + x)];
  }
};

TEST_F(Relays, TheDirectorEntersTheGameTheCommentaryFollowsAndNobodyElseChangesIt) {
  auto tess = player("tess");
  auto sam = player("sam");
  const json relay = make("tess");
  const auto id = relay["id"].get<std::int64_t>();
  const auto board = relay["board"].get<std::int64_t>();
  const auto commentary = relay["commentary"].get<std::int64_t>();
  EXPECT_EQ(relay["state"], "live");
  EXPECT_EQ(relay["moves"], 0);
  const json start = follow(*sam, board);
  EXPECT_EQ(start["title"], "Ilya Shikshin – Mateusz Surma (Dutch Championship, round 3, table 1)");
  follow(*sam, commentary);
  // The boards are listed with the relays, not among the reviews.
  EXPECT_EQ(request("GET", "/api/v1/reviews").second["reviews"].size(), 0U);

  ASSERT_EQ(move("tess", id, {{"move", "e5"}}), (std::pair{200, json{{"moves", 1}}}));
  json added = update(*sam, board, 2);  // 1 is the board's role, before anyone followed
  EXPECT_EQ(added["change"], "node_added");
  EXPECT_EQ(added["node"]["vertex"], "E5");
  EXPECT_EQ(added["node"]["color"], "black");
  EXPECT_EQ(at(added["position"], 4, 4), 'b');
  json followed = update(*sam, commentary, 2);
  EXPECT_EQ(followed["change"], "node_added");
  EXPECT_EQ(followed["current"], followed["node"]["id"]) << "the commentary goes along";
  ASSERT_EQ(move("tess", id, {{"move", "C3"}, {"number", 2}}).first, 200);

  // Refused in words, and nothing changes.
  EXPECT_EQ(move("sam", id, {{"move", "G7"}}),
            (std::pair{
                403, json{{"error",
                           {{"code", "not_director"},
                            {"message", "only tess (its director) enters this relay's moves"}}}}}));
  EXPECT_EQ(move("tess", id, {{"move", "E5"}}).second["error"]["message"],
            "occupied: there is already a stone on E5");
  EXPECT_EQ(move("tess", id, {{"move", "Z9"}}).second["error"]["message"],
            "no point Z9 on this board");
  EXPECT_EQ(move("tess", id, {{"move", "G7"}, {"number", 5}}).second["error"]["message"],
            "the relay has 2 moves: the next is move 3, not 5");
  EXPECT_EQ(move("tess", id, {{"move", "G7"}, {"number", 2}}).second["error"]["message"],
            "move 2 is C3 already: take the moves back to 1 first to change it");
  EXPECT_EQ(move("tess", id, {{"move", "C3"}, {"number", 2}}), (std::pair{200, json{{"moves", 2}}}))
      << "the same move sent again (a relay program that did not hear the answer) is done";
  EXPECT_EQ(move("tess", id, {{"vertex", "G7"}}).second["error"]["message"],
            "unknown field 'vertex'");
  for (const auto& [type, fields] :
       std::vector<std::pair<const char*, json>>{{"review_play", {{"vertex", "G7"}}},
                                                 {"review_goto", {{"node", 0}}},
                                                 {"review_chat", {{"text", "x"}}},
                                                 {"review_control", {{"to", "sam"}}}}) {
    const json refused = tess->command(cmd(type, board, fields));
    EXPECT_EQ(refused["code"], "forbidden") << type;
    EXPECT_EQ(refused["message"],
              "this board relays a game played over the board: only its director's moves change "
              "it; talk and try variations in its commentary room")
        << type;
  }
  EXPECT_EQ(tess->command(cmd("review_close", board))["code"], "forbidden");
  EXPECT_EQ(follow(*tess, board)["nodes"].size(), 3U) << "the root and two moves";

  // The commentary is an ordinary review board of tess's: she hands it to sam, who branches.
  follow(*tess, commentary);
  ASSERT_EQ(tess->command(cmd("review_control", commentary, {{"to", "sam"}}))["type"], "ack");
  const json snapshot = follow(*sam, commentary);
  const auto e5 = snapshot["nodes"][1]["id"].get<std::int64_t>();
  const auto c3 = snapshot["nodes"][2]["id"].get<std::int64_t>();
  ASSERT_EQ(sam->command(cmd("review_goto", commentary, {{"node", e5}}))["type"], "ack");
  ASSERT_EQ(sam->command(cmd("review_play", commentary, {{"vertex", "D6"}}))["type"], "ack");
  const auto seq = sam->command(cmd("review_comment", commentary, {{"text", "or here"}}))["seq"];
  ASSERT_EQ(move("tess", id, {{"move", "G3"}}).first, 200);
  followed = update(*sam, commentary, seq.get<std::int64_t>() + 1);
  EXPECT_EQ(followed["change"], "node_added");
  EXPECT_EQ(followed["node"]["vertex"], "G3");
  EXPECT_EQ(followed["node"]["parent"], c3) << "on the game's line";
  EXPECT_NE(followed["current"], followed["node"]["id"]) << "sam stays on his variation";
  EXPECT_FALSE(followed.contains("position") && !followed["position"].is_null());
  // The game's moves stay in the commentary: a variation may go, not the game.
  const json kept = sam->command(cmd("review_delete", commentary, {{"node", c3}}));
  EXPECT_EQ(kept["message"],
            "move 2 is the relayed game's own: it stays (delete a variation instead)");

  // A move taken back: gone from the board; from the commentary too, as nobody touched it.
  const auto g3 = followed["node"]["id"].get<std::int64_t>();
  ASSERT_EQ(post("tess", id, "takeback"), (std::pair{200, json{{"moves", 2}}}));
  const json gone = update(*sam, commentary, followed["seq"].get<std::int64_t>() + 1);
  EXPECT_EQ(gone["change"], "deleted");
  EXPECT_EQ(gone["deleted"], g3);
  EXPECT_EQ(follow(*sam, board)["nodes"].size(), 3U);
  // One sam commented on stays there as a variation when it is taken back.
  ASSERT_EQ(move("tess", id, {{"move", "G7"}}).first, 200);
  const json g7 = update(*sam, commentary, gone["seq"].get<std::int64_t>() + 1);
  ASSERT_EQ(g7["node"]["vertex"], "G7");
  ASSERT_EQ(sam->command(cmd("review_goto", commentary, {{"node", g7["node"]["id"]}}))["type"],
            "ack");
  const json commented = sam->command(cmd("review_comment", commentary, {{"text", "a mistake?"}}));
  ASSERT_EQ(commented["type"], "ack");
  ASSERT_EQ(post("tess", id, "takeback").first, 200);
  const json moved = update(*sam, commentary, commented["seq"].get<std::int64_t>() + 1);
  EXPECT_EQ(moved["change"], "moved");
  EXPECT_EQ(moved["current"], c3) << "sam was on it: he goes back to the game's line";
  json now = follow(*sam, commentary);
  EXPECT_EQ(now["nodes"].size(), 5U) << "root, E5, C3, D6 and the commented G7";

  // Listed with its names and progress.
  ASSERT_EQ(move("tess", id, {{"move", "pass"}}).first, 200);
  const auto [listed, list] = request("GET", "/api/v1/relays");
  ASSERT_EQ(listed, 200);
  ASSERT_EQ(list["relays"].size(), 1U);
  EXPECT_EQ(list["relays"][0]["moves"], 3);
  EXPECT_EQ(list["relays"][0]["last_move"], "pass");
  EXPECT_EQ(list["relays"][0]["director"]["name"], "tess");
}

TEST_F(Relays, ARelayComesBackAfterARestartAndGoesOnWhereItWas) {
  std::int64_t id = 0, board = 0, commentary = 0;
  json before_board, before_commentary;
  {
    auto tess = player("tess");
    const json relay = make("tess");
    id = relay["id"];
    board = relay["board"];
    commentary = relay["commentary"];
    for (const char* v : {"E5", "C3", "G7", "C7"})
      ASSERT_EQ(move("tess", id, {{"move", v}}).first, 200);
    ASSERT_EQ(post("tess", id, "takeback").first, 200);
    follow(*tess, commentary);
    tess->command(cmd("review_goto", commentary, {{"node", 1}}));
    tess->command(cmd("review_play", commentary, {{"vertex", "D4"}}));
    before_board = follow(*tess, board);
    before_commentary = follow(*tess, commentary);
  }
  stack_.reset();
  stack_.emplace(temp_.path());
  EXPECT_EQ(stack_->recovered().reviews, 2U);
  auto sam = player("sam");
  json after_board = follow(*sam, board);
  json after_commentary = follow(*sam, commentary);
  for (auto* s : {&before_board, &after_board, &before_commentary, &after_commentary}) {
    s->erase("followers");
    s->erase("guests");
  }
  EXPECT_EQ(after_board, before_board);
  EXPECT_EQ(after_commentary, before_commentary);
  // The relay's line came back: the next move is the fourth, and the commentary, where tess
  // left it on a variation, gets it on the game's line.
  EXPECT_EQ(move("tess", id, {{"move", "G3"}, {"number", 4}}),
            (std::pair{200, json{{"moves", 4}}}));
  const json g3 = update(*sam, commentary, after_commentary["seq"].get<std::int64_t>() + 1);
  EXPECT_EQ(g3["node"]["vertex"], "G3");
  EXPECT_EQ(g3["current"], after_commentary["current"]);
  EXPECT_EQ(sam->command(cmd("review_play", board, {{"vertex", "A1"}}))["code"], "forbidden")
      << "still the relay's board after the restart";
  EXPECT_EQ(request("GET", "/api/v1/relays/" + std::to_string(id)).second["moves"], 4);
}

TEST_F(Relays, TheResultEndsTheGameTheRecordKeepsItAndClosingTakesItOffTheList) {
  auto tess = player("tess");
  auto sam = player("sam");
  const json relay = make("tess", {{"event", "Club evening"},
                                   {"black", "Ann"},
                                   {"white", "Bob"},
                                   {"size", 13},
                                   {"handicap", 2},
                                   {"delay", 5}});
  const auto id = relay["id"].get<std::int64_t>();
  const auto board = relay["board"].get<std::int64_t>();
  // White begins after handicap stones.
  ASSERT_EQ(move("tess", id, {{"move", "C3"}}).first, 200);
  const json first = follow(*sam, board);
  EXPECT_EQ(first["nodes"][1]["color"], "white");
  follow(*sam, relay["commentary"]);
  // No analysis on this stack (no analysis worker): said so.
  EXPECT_EQ(request("GET", "/api/v1/relays/" + std::to_string(id) + "/analysis").first, 503);

  EXPECT_EQ(post("tess", id, "result", {{"result", "B+X"}}).second["error"]["message"],
            "field 'result' must be as in SGF: \"B+R\" (resignation), \"W+2.5\" (points), \"B+T\" "
            "(time), \"W+F\" (forfeit), \"0\" (a draw), \"Void\" or \"?\"");
  EXPECT_EQ(post("sam", id, "result", {{"result", "B+R"}}).first, 403);
  EXPECT_EQ(post("tess", id, "result", {{"result", "W+R"}}).first, 204);
  const json closed = sam->wait([&](const json& m) {
    return m["type"] == "review_update" && m["review"] == board && m["change"] == "closed";
  });
  EXPECT_EQ(closed["by"]["name"], "tess");
  const auto [got, page] = request("GET", "/api/v1/relays/" + std::to_string(id));
  EXPECT_EQ(page["state"], "finished");
  EXPECT_EQ(page["result"], "W+R");
  EXPECT_EQ(move("tess", id, {{"move", "D4"}}).second["error"]["message"],
            "this relay is finished (W+R): its moves no longer change");
  request("GET", "/api/v1/relays/" + std::to_string(id) + ".sgf");
  for (const char* part :
       {"SZ[13]", "HA[2]", "AB[", "PB[Ann]", "PW[Bob]", "EV[Club evening]", "RE[W+R]", ";W[ck]"})
    EXPECT_NE(raw_.find(part), std::string::npos) << part << " in " << raw_;
  // The commentary room goes on after the game.
  ASSERT_EQ(
      sam->command(cmd("review_chat", relay["commentary"], {{"text", "well played"}}))["type"],
      "ack");

  // Only its director (or an administrator) closes it; then it is listed no more.
  EXPECT_EQ(post("sam", id, "close").first, 403);
  EXPECT_EQ(post("tess", id, "close").first, 204);
  EXPECT_EQ(post("tess", id, "close").second["error"]["code"], "relay_over");
  EXPECT_EQ(request("GET", "/api/v1/relays").second["relays"].size(), 0U);
  EXPECT_EQ(sam->command(cmd("review_chat", relay["commentary"], {{"text", "bye"}}))["code"],
            "not_found");
  request("GET", "/api/v1/relays/" + std::to_string(id) + ".sgf");
  EXPECT_NE(raw_.find("RE[W+R]"), std::string::npos) << "the record stays";
}

TEST_F(Relays, TheFormIsCheckedAndOneDirectorRelaysOnlySoMany) {
  auto tess = player("tess");
  const auto refused = [&](json form) {
    const auto [status, answer] = request("POST", "/api/v1/relays", "tess", form.dump());
    EXPECT_EQ(status, 400) << form.dump();
    return answer["error"]["message"].get<std::string>();
  };
  EXPECT_EQ(refused({{"black", "a"}, {"white", "b"}}), "missing field 'event'");
  EXPECT_EQ(refused({{"event", "e"}, {"black", ""}, {"white", "b"}}),
            "field 'black' has 1 to 60 characters, without control characters");
  EXPECT_EQ(refused({{"event", "e"}, {"black", "a"}, {"white", "b"}, {"round", 0}}),
            "field 'round' must be a whole number from 1 to 99");
  EXPECT_EQ(refused({{"event", "e"}, {"black", "a"}, {"white", "b"}, {"delay", 31}}),
            "field 'delay' must be a whole number from 0 to 30");
  EXPECT_EQ(refused({{"event", "e"}, {"black", "a"}, {"white", "b"}, {"size", 7}, {"handicap", 9}}),
            "a 7×7 board takes at most 4 handicap stones");
  EXPECT_EQ(refused({{"event", "e"}, {"black", "a"}, {"white", "b"}, {"private", true}}),
            "unknown field 'private'");
  EXPECT_EQ(request("POST", "/api/v1/relays", "", json{{"event", "e"}}.dump()).first, 401);
  for (int i = 0; i < 20; ++i)
    make("tess", {{"event", "Open"}, {"table", i + 1}, {"black", "a"}, {"white", "b"}});
  const auto [status, answer] =
      request("POST", "/api/v1/relays", "tess",
              json{{"event", "e"}, {"black", "a"}, {"white", "b"}}.dump());
  EXPECT_EQ(status, 409);
  EXPECT_EQ(answer["error"]["message"],
            "you relay 20 live games, the most one director may: finish one first");
  // Relay boards are not counted among the director's own reviews.
  EXPECT_EQ(request("POST", "/api/v1/reviews", "tess", json{{"size", 9}}.dump()).first, 201);
}

// The bound of a relay's moves, on the boards' owner itself (a thousand requests over HTTP would
// only be slower): the 1,000th move is entered, the 1,001st refused in words.
TEST(RelayBoards, ARelayHasAThousandMovesAndNoMore) {
  tengen::Reviews reviews;
  tengen::Outbox out;
  protocol::http::RelayOp op;
  op.director = {1, "tess"};
  op.title = "Club evening";
  op.sgf = "(;GM[1]FF[4]SZ[9])";
  const auto [made, boards] = reviews.relay(op, 1, out);
  ASSERT_EQ(made, 201) << boards;
  op.kind = protocol::http::RelayOp::Kind::Move;
  op.board = json::parse(boards)["board"];
  op.commentary = json::parse(boards)["commentary"];
  op.vertex = "pass";
  for (int n = 1; n <= protocol::http::kMaxRelayMoves; ++n) {
    op.number = n;
    ASSERT_EQ(reviews.relay(op, 2, out).first, 200) << n;
  }
  op.number = 0;  // the next, whichever it is
  const auto [status, refused] = reviews.relay(op, 3, out);
  EXPECT_EQ(status, 413);
  EXPECT_EQ(json::parse(refused)["error"]["message"], "a relay has at most 1000 moves");
}

}  // namespace
}  // namespace tengen::testing
