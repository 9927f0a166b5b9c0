// After the game: the analysis's positions (POST /api/v1/positions) through the real stack.
#include <gtest/gtest.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "reviews/review_room.h"
#include "store/admin_role.h"
#include "store/sqlite.h"
#include "support/many_players.h"
#include "support/server_process.h"

namespace tengen::testing {
namespace {

using json = nlohmann::json;

class Positions : public ManyPlayers {
 protected:
  // The status line's code and the body, parsed.
  std::pair<int, json> post(const std::string& body, const std::string& type = "application/json") {
    const std::string reply = http_request(stack_->port(), "POST", "/api/v1/positions",
                                           "Content-Type: " + type + "\r\n", body);
    const int status = std::stoi(reply.substr(9, 3));
    return {status, json::parse(body_of(reply), nullptr, false)};
  }
  static json moves(std::initializer_list<std::pair<const char*, const char*>> list) {
    json out = json::array();
    for (const auto& [color, vertex] : list) out.push_back({{"color", color}, {"vertex", vertex}});
    return out;
  }
};

TEST_F(Positions, ALineIsReplayedByTheRulesEngineWithItsCaptures) {
  // On 5x5, White's C3 stone is surrounded and taken by Black's last move at C2... with a pass
  // and two Black moves in a row, which an analysis may show.
  const json query = {{"width", 5},
                      {"height", 5},
                      {"ruleset", "japanese"},
                      {"black", {"B3"}},
                      {"moves", moves({{"white", "C3"},
                                       {"black", "C4"},
                                       {"white", "pass"},
                                       {"black", "D3"},
                                       {"black", "C2"}})}};
  const auto [status, answer] = post(query.dump());
  ASSERT_EQ(status, 200) << answer.dump();
  EXPECT_EQ(answer["captured"], json::array({"C3"}));
  EXPECT_EQ(answer["captures"], (json{{"black", 1}, {"white", 0}}));
  EXPECT_EQ(answer["to_move"], "white");
  EXPECT_FALSE(answer.contains("ko")) << "a capture of one stone by a stone with other liberties";
  EXPECT_EQ(answer["board"],
            "....."
            "..b.."
            ".b.b."
            "..b.."
            ".....");
}

TEST_F(Positions, AnIllegalMoveIsNamedInPlayersWords) {
  // A ko: Black takes at C3... White retakes at once.
  const json base = {{"width", 5},
                     {"height", 5},
                     {"black", {"B4", "A3", "B2"}},
                     {"white", {"C4", "B3", "D3", "C2"}}};
  json take = base;
  take["moves"] = moves({{"black", "C3"}});
  const auto [ok, taken] = post(take.dump());
  ASSERT_EQ(ok, 200) << taken.dump();
  EXPECT_EQ(taken["captured"], json::array({"B3"}));
  // The answer says where White may not take back (the blind console's `ko` asks this).
  EXPECT_EQ(taken["ko"], "B3");
  json elsewhere = take;
  elsewhere["moves"] = moves({{"black", "C3"}, {"white", "E5"}});
  EXPECT_FALSE(post(elsewhere.dump()).second.contains("ko"))
      << "the ko is gone after a move elsewhere";
  json retake = base;
  retake["moves"] = moves({{"black", "C3"}, {"white", "B3"}});
  const auto [status, refused] = post(retake.dump());
  EXPECT_EQ(status, 422);
  EXPECT_EQ(refused["error"]["code"], "illegal_move");
  EXPECT_EQ(refused["error"]["message"],
            "ko: retaking at once is not allowed; play elsewhere first (move 2, white)");
  json occupied = base;
  occupied["moves"] = moves({{"black", "C4"}});
  EXPECT_EQ(post(occupied.dump()).second["error"]["message"],
            "occupied: there is already a stone on C4 (move 1, black)");
  // The reason as a code, for a client that says it in its own language.
  EXPECT_EQ(refused["error"]["reason"], "ko");
  EXPECT_EQ(post(occupied.dump()).second["error"]["reason"], "occupied");
  json suicide = {{"width", 5}, {"height", 5}, {"white", {"A2", "B1"}}};
  suicide["moves"] = moves({{"black", "A1"}});
  EXPECT_EQ(post(suicide.dump()).second["error"]["reason"], "suicide");
}

TEST_F(Positions, APositionIsCountedWithTheDeadStonesNamed) {
  // 5x5: Black owns the two left columns, White the two right ones; C is dame. A White stone
  // at A5 is dead in Black's area.
  const json base = {{"width", 5},
                     {"height", 5},
                     {"black", {"B1", "B2", "B3", "B4", "B5"}},
                     {"white", {"D1", "D2", "D3", "D4", "D5", "A5"}},
                     {"moves", json::array()}};
  json area = base;
  area["ruleset"] = "chinese";
  area["komi"] = 0.5;
  area["dead"] = {"A5", "A5"};  // named twice: counted once
  const auto [status, counted] = post(area.dump());
  ASSERT_EQ(status, 200) << counted.dump();
  // Black: 5 stones + 5 points of territory (A5 with it); White: 5 stones + 5 territory + 0.5.
  EXPECT_EQ(counted["score"]["black"], 10);
  EXPECT_EQ(counted["score"]["white"], 10.5);
  EXPECT_EQ(counted["score"]["result"], "W+0.5");
  EXPECT_EQ(counted["score"]["breakdown"]["area"], true);
  EXPECT_EQ(counted["score"]["breakdown"]["komi"], 0.5);
  // By territory, with the ruleset's komi (6.5): the dead stone is a prisoner for Black.
  json territory = base;
  territory["dead"] = {"A5"};
  const auto [status2, japanese] = post(territory.dump());
  ASSERT_EQ(status2, 200) << japanese.dump();
  EXPECT_EQ(japanese["score"]["breakdown"]["black"]["territory"], 5);
  EXPECT_EQ(japanese["score"]["breakdown"]["black"]["prisoners"], 1);
  EXPECT_EQ(japanese["score"]["result"], "W+5.5");  // 5 + 1 against 5 + 6.5
  // Without `dead` there is no count; a dead point with no stone is refused.
  EXPECT_FALSE(post(base.dump()).second.contains("score"));
  json empty_point = base;
  empty_point["dead"] = {"A1"};
  const auto [bad, why] = post(empty_point.dump());
  EXPECT_EQ(bad, 400);
  EXPECT_EQ(why["error"]["message"], "no stone on A1 to be dead");
  json bad_komi = base;
  bad_komi["komi"] = 6.3;
  EXPECT_EQ(post(bad_komi.dump()).first, 400);
}

TEST_F(Positions, BadQueriesAreRefusedWithTheReason) {
  auto message = [&](const std::string& body) {
    const auto [status, answer] = post(body);
    EXPECT_EQ(status, 400) << body;
    return answer["error"]["message"].get<std::string>();
  };
  EXPECT_EQ(message("[]"), "the body must be a JSON object");
  EXPECT_EQ(message("{}"), "missing field 'moves'");
  EXPECT_EQ(message(R"({"moves":[],"size":9})"), "unknown field 'size'");
  EXPECT_EQ(message(R"({"moves":[],"width":26})"),
            "field 'width' must be a whole number from 2 to 25");
  EXPECT_EQ(message(R"({"moves":[],"ruleset":"chess"})"),
            "field 'ruleset' must name a ruleset, such as \"japanese\"");
  EXPECT_EQ(message(R"({"width":9,"height":9,"moves":[{"color":"black","vertex":"K10"}]})"),
            "no point K10 on this board");
  EXPECT_EQ(message(R"({"black":["D4","E5"],"white":["d4"],"moves":[]})"),
            "point d4 is in both 'black' and 'white'");
  EXPECT_EQ(message(R"({"moves":[{"color":"red","vertex":"D4"}]})"),
            "a move's colour must be \"black\" or \"white\"");
  json many = {{"moves", json::array()}};
  for (int i = 0; i < 2001; ++i) many["moves"].push_back({{"color", "black"}, {"vertex", "pass"}});
  EXPECT_EQ(message(many.dump()), "field 'moves' holds more than 2000 moves");
  EXPECT_EQ(post(R"({"moves":[]})", "text/plain").first, 415);
  // A line of play may be long (above: 70 kB), but not without end; other requests stay small.
  const std::string huge = "{\"moves\":[" + std::string(300 * 1024, ' ') + "]}";
  const std::string reply_huge = http_request(stack_->port(), "POST", "/api/v1/positions",
                                              "Content-Type: application/json\r\n", huge);
  EXPECT_TRUE(reply_huge.starts_with("HTTP/1.1 413 ")) << reply_huge.substr(0, 40);
  const std::string login =
      http_request(stack_->port(), "POST", "/api/v1/login", "Content-Type: application/json\r\n",
                   std::string(20 * 1024, ' '));
  EXPECT_TRUE(login.starts_with("HTTP/1.1 413 ")) << login.substr(0, 40);
  const std::string reply = http_request(stack_->port(), "GET", "/api/v1/positions");
  EXPECT_NE(reply.find(" 405 "), std::string::npos) << reply;
}

}  // namespace
}  // namespace tengen::testing

namespace tengen::testing {
namespace {

// Review boards (docs/reviews.md): made over HTTP, followed and edited over real WebSockets,
// stored in a real SQLite file and rebuilt by a restarted stack.
class ReviewBoards : public ManyPlayers {
 protected:
  // A new review by `owner` (connected already) from `source`; its id.
  std::int64_t open_review(const std::string& owner, const json& source) {
    const auto [status, answer] = request("POST", "/api/v1/reviews", owner, source.dump());
    EXPECT_EQ(status, 201) << raw_;
    return answer["review"]["id"].get<std::int64_t>();
  }
  static json cmd(const char* type, std::int64_t review, json fields = json::object()) {
    fields["type"] = type;
    fields["review"] = review;
    return fields;
  }
  // Joins and returns the snapshot.
  static json follow(WsClient& c, std::int64_t review) {
    EXPECT_EQ(c.command(cmd("review_join", review))["type"], "ack");
    return c.wait_type("review_snapshot");
  }
  static json update(WsClient& c, std::uint64_t seq) {
    return c.wait([&](const json& m) { return m["type"] == "review_update" && m["seq"] == seq; });
  }
};

TEST_F(ReviewBoards, ATeacherDrivesAndTwoStudentsFollowOneJoiningLate) {
  auto teacher = player("teacher");
  auto ann = player("ann");
  auto ben = player("ben");
  const auto id = open_review("teacher", {{"size", 9}, {"komi", 5.5}, {"title", "Lesson 1"}});
  const json first = follow(*teacher, id);
  EXPECT_EQ(first["title"], "Lesson 1");
  EXPECT_EQ(first["controller"]["name"], "teacher");
  EXPECT_EQ(first["nodes"].size(), 1U);
  follow(*ann, id);

  ASSERT_EQ(teacher->command(cmd("review_play", id, {{"vertex", "E5"}}))["seq"], 1);
  const json added = update(*ann, 1);
  EXPECT_EQ(added["change"], "node_added");
  EXPECT_EQ(added["node"]["vertex"], "E5");
  EXPECT_EQ(added["node"]["color"], "black");
  EXPECT_EQ(added["position"]["board"].get<std::string>()[4 * 9 + 4], 'b');
  teacher->command(cmd("review_play", id, {{"vertex", "C3"}}));  // White, node 2
  teacher->command(cmd("review_goto", id, {{"node", 1}}));
  teacher->command(cmd("review_play", id, {{"vertex", "G7"}}));  // a variation: node 3
  teacher->command(cmd("review_mark", id, {{"vertex", "G7"}, {"mark", "triangle"}}));
  teacher->command(cmd("review_mark", id, {{"vertex", "C3"}, {"mark", "label"}, {"label", "A"}}));
  ASSERT_EQ(teacher->command(cmd("review_comment", id, {{"text", "White should approach"}}))["seq"],
            7);
  EXPECT_EQ(update(*ann, 7)["node"]["comment"], "White should approach");

  // Ben comes late: the snapshot shows the node the teacher is on, its marks and comment.
  const json late = follow(*ben, id);
  EXPECT_EQ(late["seq"], 7);
  EXPECT_EQ(late["current"], 3);
  ASSERT_EQ(late["nodes"].size(), 4U);
  EXPECT_EQ(late["nodes"][1]["id"], 1);
  EXPECT_EQ(late["nodes"][2]["id"], 2) << "the main line before the variation";
  const json& g7 = late["nodes"][3];
  EXPECT_EQ(g7["parent"], 1);
  EXPECT_EQ(g7["comment"], "White should approach");
  EXPECT_EQ(g7["marks"], (json::array({{{"vertex", "G7"}, {"mark", "triangle"}, {"label", ""}},
                                       {{"vertex", "C3"}, {"mark", "label"}, {"label", "A"}}})));
  const auto board = late["position"]["board"].get<std::string>();
  EXPECT_EQ(board[2 * 9 + 6], 'w') << "G7";
  EXPECT_EQ(board[6 * 9 + 2], '.') << "C3 is in the other line";
  EXPECT_EQ(ann->wait_type("review_followers")["followers"].size(), 2U);

  // A student cannot edit until the teacher hands control over; the teacher takes it back.
  const json refused = ann->command(cmd("review_play", id, {{"vertex", "D4"}}));
  EXPECT_EQ(refused["code"], "forbidden");
  EXPECT_EQ(refused["message"], "teacher has control of this review; ask them to hand it over");
  ASSERT_EQ(teacher->command(cmd("review_control", id, {{"to", "ann"}}))["type"], "ack");
  EXPECT_EQ(update(*ben, 8)["controller"]["name"], "ann");
  ASSERT_EQ(ann->command(cmd("review_play", id, {{"vertex", "D4"}}))["type"], "ack");
  EXPECT_EQ(update(*ben, 9)["by"]["name"], "ann");
  EXPECT_EQ(teacher->command(cmd("review_play", id, {{"vertex", "F4"}}))["code"], "forbidden");
  ASSERT_EQ(teacher->command(cmd("review_control", id, {{"to", "teacher"}}))["type"], "ack");
  EXPECT_EQ(ann->command(cmd("review_goto", id, {{"node", 0}}))["code"], "forbidden");
  EXPECT_EQ(teacher->command(cmd("review_control", id, {{"to", "zed"}}))["message"],
            "zed is not following this review: control goes to someone who is");

  // Listed, and downloadable with every variation.
  const auto [listed, list] = request("GET", "/api/v1/reviews");
  ASSERT_EQ(listed, 200);
  ASSERT_EQ(list["reviews"].size(), 1U);
  EXPECT_EQ(list["reviews"][0]["followers"], 3);
  EXPECT_EQ(list["reviews"][0]["nodes"], 5);
  request("GET", "/api/v1/reviews/" + std::to_string(id) + ".sgf");
  EXPECT_NE(raw_.find(";B[ee]\n(;W[cg])\n(;W[gc]TR[gc]LB[cg:A]C[White should approach];B[df]))"),
            std::string::npos)
      << raw_;
}

TEST_F(ReviewBoards, RefusedChangesLeaveTheTreeAsItWas) {
  auto teacher = player("teacher");
  const auto id = open_review("teacher", {{"size", 9}});
  follow(*teacher, id);
  teacher->command(cmd("review_play", id, {{"vertex", "E5"}}));
  EXPECT_EQ(teacher->command(cmd("review_play", id, {{"vertex", "E5"}}))["message"],
            "occupied: there is already a stone on E5");
  EXPECT_EQ(teacher->command(cmd("review_play", id, {{"vertex", "Z9"}}))["message"],
            "no point Z9 on this board");
  EXPECT_EQ(teacher->command(cmd("review_goto", id, {{"node", 7}}))["message"],
            "no node 7 in this review");
  EXPECT_EQ(teacher->command(cmd("review_delete", id, {{"node", 9}}))["code"], "not_found");
  EXPECT_EQ(
      teacher->command(cmd("review_mark", id, {{"vertex", "A1"}, {"mark", "label"}}))["message"],
      "a label mark needs its text ('label')");
  EXPECT_EQ(teacher->command(cmd("review_comment", id, {{"text", std::string(4001, 'x')}}))["code"],
            "bad_field");
  EXPECT_EQ(teacher->command(cmd("review_join", 999))["code"], "not_found");
  const json snapshot = follow(*teacher, id);
  EXPECT_EQ(snapshot["seq"], 1);
  EXPECT_EQ(snapshot["nodes"].size(), 2U);
  // A guest may follow but not edit.
  WsClient guest(stack_->port(), WsClient::Options{"", "", "/ws/v1"});
  guest.wait_type("welcome");
  EXPECT_EQ(follow(guest, id)["current"], 1);
  EXPECT_EQ(guest.command(cmd("review_play", id, {{"vertex", "A1"}}))["code"], "not_authenticated");
}

TEST_F(ReviewBoards, AReviewComesBackAfterARestartAsItWas) {
  std::int64_t id = 0;
  json before;
  {
    auto teacher = player("teacher");
    auto ann = player("ann");
    id = open_review("teacher", {{"size", 9}});
    follow(*teacher, id);
    follow(*ann, id);
    for (const char* v : {"C3", "G7", "C7"})
      teacher->command(cmd("review_play", id, {{"vertex", v}}));
    teacher->command(cmd("review_goto", id, {{"node", 2}}));
    teacher->command(cmd("review_play", id, {{"vertex", "G3"}, {"color", "white"}}));
    teacher->command(cmd("review_mark", id, {{"vertex", "G3"}, {"mark", "square"}}));
    teacher->command(cmd("review_comment", id, {{"text", "two moves in a row"}}));
    teacher->command(cmd("review_delete", id, {{"node", 3}}));
    teacher->command(cmd("review_control", id, {{"to", "ann"}}));
    before = follow(*ann, id);
  }
  stack_.reset();
  stack_.emplace(temp_.path());
  EXPECT_EQ(stack_->recovered().reviews, 1U);
  auto ben = player("ben");
  json after = follow(*ben, id);
  for (auto* s : {&before, &after}) {
    s->erase("followers");
    s->erase("guests");
  }
  EXPECT_EQ(after, before);
  EXPECT_EQ(after["controller"]["name"], "ann");
  EXPECT_EQ(after["nodes"].size(), 4U) << "C7 was deleted";
  auto ann = player("ann");
  follow(*ann, id);
  EXPECT_EQ(ann->command(cmd("review_play", id, {{"vertex", "E5"}}))["seq"],
            after["seq"].get<int>() + 1)
      << "the numbering goes on";
}

TEST_F(ReviewBoards, AReviewWhoseStoredChangesDoNotReplayIsLeftOutAndTheOthersComeBack) {
  std::int64_t good = 0, bad = 0;
  {
    auto teacher = player("teacher");
    good = open_review("teacher", {{"size", 9}});
    bad = open_review("teacher", {{"size", 9}});
    for (const auto id : {good, bad}) {
      follow(*teacher, id);
      teacher->command(cmd("review_play", id, {{"vertex", "E5"}}));
      teacher->command(cmd("review_play", id, {{"vertex", "C3"}}));
    }
  }
  stack_.reset();
  {  // a hand-edited database: the second move of `bad` now lands on the first
    store::Database db(temp_.path());
    db.exec(
        "UPDATE review_events SET record = '{\"color\":\"white\",\"vertex\":\"E5\"}'"
        " WHERE review_id = " +
        std::to_string(bad) + " AND seq = 2");
  }
  stack_.emplace(temp_.path());
  EXPECT_EQ(stack_->recovered().reviews, 1U);
  auto ben = player("ben");
  EXPECT_EQ(follow(*ben, good)["nodes"].size(), 3U);
  EXPECT_EQ(ben->command(cmd("review_join", bad))["code"], "not_found");
  store::Database db(temp_.path());
  store::Statement rows(db, "SELECT count(*) FROM review_events WHERE review_id = ?1");
  rows.bind(1, bad);
  ASSERT_TRUE(rows.step());
  EXPECT_EQ(rows.column_int(0), 2) << "its rows are left as they were";
}

TEST_F(ReviewBoards, FollowersChatAndTheChatComesBackAfterARestart) {
  std::int64_t id = 0;
  {
    auto teacher = player("teacher");
    auto ann = player("ann");
    id = open_review("teacher", {{"size", 9}});
    follow(*teacher, id);
    EXPECT_EQ(ann->command(cmd("review_chat", id, {{"text", "hello"}}))["message"],
              "follow the review (review_join) to chat in it");
    follow(*ann, id);
    ASSERT_EQ(ann->command(cmd("review_chat", id, {{"text", "why not D4?"}}))["seq"], 1)
        << "a student chats without control";
    const json heard = update(*teacher, 1);
    EXPECT_EQ(heard["change"], "chat");
    EXPECT_EQ(heard["line"]["from"]["name"], "ann");
    EXPECT_EQ(heard["line"]["text"], "why not D4?");
    teacher->command(cmd("review_play", id, {{"vertex", "D4"}}));
    for (int i = 0; i < 3; ++i)  // the burst of 5 is spent: the refused first line took one
      ASSERT_EQ(ann->command(cmd("review_chat", id, {{"text", "more"}}))["type"], "ack");
    EXPECT_EQ(ann->command(cmd("review_chat", id, {{"text", "and more"}}))["code"], "rate_limited")
        << "the same rate as a game's chat";
    WsClient guest(stack_->port(), WsClient::Options{"", "", "/ws/v1"});
    guest.wait_type("welcome");
    follow(guest, id);
    EXPECT_EQ(guest.command(cmd("review_chat", id, {{"text", "hi"}}))["message"],
              "sign in to chat");
  }
  stack_.reset();
  stack_.emplace(temp_.path());
  auto ben = player("ben");
  const json back = follow(*ben, id);
  ASSERT_EQ(back["chat"].size(), 4U);
  EXPECT_EQ(back["chat"][0]["text"], "why not D4?");
  EXPECT_EQ(back["chat"][0]["seq"], 1);
  EXPECT_EQ(back["nodes"].size(), 2U) << "chat lines are not nodes";
}

TEST_F(ReviewBoards, MadeFromAFinishedGameOrAFileAndClosedByItsOwner) {
  auto black = player("black");
  auto white = player("white");
  const auto game = game_between(*black, *white);
  ASSERT_EQ(black->command(play(game, "D4"))["type"], "ack");
  ASSERT_EQ(white->command(play(game, "Q16"))["type"], "ack");
  const auto [in_play, refusal] =
      request("POST", "/api/v1/reviews", "black", json{{"game", game}}.dump());
  EXPECT_EQ(in_play, 409);
  EXPECT_EQ(refusal["error"]["code"], "game_in_play");
  ASSERT_EQ(black->command({{"type", "resign"}, {"game", game}})["type"], "ack");
  black->wait_type("game_ended");
  stack_->journal().barrier().wait();

  const auto id = open_review("white", {{"game", game}});
  const json s = follow(*white, id);
  EXPECT_EQ(s["title"], "black vs white");
  EXPECT_EQ(s["game"], game);
  ASSERT_EQ(s["nodes"].size(), 3U);
  EXPECT_EQ(s["nodes"][2]["vertex"], "Q16");
  EXPECT_EQ(s["current"], 0) << "a review starts at the beginning";

  // An uploaded file keeps its variations; a broken one is refused saying where.
  const std::string sgf = "(;GM[1]FF[4]SZ[9]KM[6.5]GN[Joseki]C[start];B[cc](;W[gg])(;W[cg]C[hm]))";
  const auto file = open_review("white", {{"sgf", sgf}});
  const json f = follow(*white, file);
  EXPECT_EQ(f["title"], "Joseki");
  EXPECT_EQ(f["nodes"].size(), 4U);
  EXPECT_EQ(f["nodes"][0]["comment"], "start");
  const auto [bad, why] =
      request("POST", "/api/v1/reviews", "white", json{{"sgf", "(;SZ[9];B[cc];W[cc])"}}.dump());
  EXPECT_EQ(bad, 422);
  EXPECT_EQ(why["error"]["code"], "bad_sgf");
  EXPECT_EQ(request("POST", "/api/v1/reviews", "", json{{"size", 9}}.dump()).first, 401);
  EXPECT_EQ(request("POST", "/api/v1/reviews", "white", json{{"size", 40}}.dump()).first, 400);

  // Closing: followers are told, the list forgets it, the file stays.
  ASSERT_EQ(black->command(cmd("review_close", file))["message"],
            "only white (the owner) can close it");
  ASSERT_EQ(white->command(cmd("review_close", file))["type"], "ack");
  EXPECT_EQ(white->wait([](const json& m) { return m.value("change", "") == "closed"; })["type"],
            "review_update");
  stack_->journal().barrier().wait();
  EXPECT_EQ(request("GET", "/api/v1/reviews").second["reviews"].size(), 1U);
  EXPECT_EQ(request("GET", "/api/v1/reviews/" + std::to_string(file) + ".sgf").first, 200);
  EXPECT_NE(raw_.find("(;W[gg])\n(;W[cg]C[hm]))"), std::string::npos) << raw_;
  EXPECT_EQ(white->command(cmd("review_join", file))["code"], "not_found");
  EXPECT_EQ(request("GET", "/api/v1/reviews/77.sgf").first, 404);
}

// A review of a private game was once public: listed to anyone, its SGF downloadable and followed
// live by guests. Now it is seen by the game's players, administrators and whom a player invites,
// in the list, the SGF (open and closed), following, and after a restart.
TEST_F(ReviewBoards, APrivateGamesReviewIsSeenByItsPlayersAdministratorsAndTheInvitedOnly) {
  auto black = player("black");
  auto white = player("white");
  player("carol");
  player("dan");
  player("root");
  ASSERT_NE(store::set_admin_role(temp_.path(), "root", true, 1).find("is now an administrator"),
            std::string::npos);
  const json created =
      black->command({{"type", "create_challenge"},
                      {"settings", {{"width", 9}, {"color", "black"}, {"private", true}}}});
  const auto game =
      white->command({{"type", "accept_challenge"}, {"challenge", created["challenge"]}})["game"]
          .get<std::int64_t>();
  ASSERT_EQ(black->command({{"type", "join"}, {"game", game}})["type"], "ack");
  ASSERT_EQ(white->command({{"type", "join"}, {"game", game}})["type"], "ack");
  ASSERT_EQ(black->command(play(game, "E5"))["type"], "ack");
  ASSERT_EQ(white->command(play(game, "C3"))["type"], "ack");
  ASSERT_EQ(black->command({{"type", "resign"}, {"game", game}})["type"], "ack");
  stack_->journal().barrier().wait();
  const auto id = open_review("black", {{"game", game}});
  const auto open_public = open_review("carol", {{"size", 9}});
  const std::string sgf = "/api/v1/reviews/" + std::to_string(id) + ".sgf";
  auto listed = [&](const std::string& who) {
    std::vector<std::int64_t> ids;
    const json list = request("GET", "/api/v1/reviews", who).second;
    for (const auto& r : list["reviews"]) ids.push_back(r["id"].get<std::int64_t>());
    return std::find(ids.begin(), ids.end(), id) != ids.end();
  };
  for (const char* who : {"", "carol", "dan"}) {
    EXPECT_FALSE(listed(who)) << who;
    EXPECT_EQ(request("GET", sgf, who).first, 404) << who;
  }
  for (const char* who : {"black", "white", "root"}) {
    EXPECT_TRUE(listed(who)) << who;
    EXPECT_EQ(request("GET", sgf, who).first, 200) << who;
  }
  const json list = request("GET", "/api/v1/reviews", "black").second;
  for (const auto& r : list["reviews"]) EXPECT_EQ(r["private"], r["id"] == id);
  {
    WsClient guest(stack_->port(), WsClient::Options{"", "", "/ws/v1"});
    guest.wait_type("welcome");
    EXPECT_EQ(guest.command(cmd("review_join", id))["code"], "not_found");
  }
  auto carol = player("carol");
  EXPECT_EQ(carol->command(cmd("review_join", id))["code"], "not_found");
  EXPECT_EQ(carol->command(cmd("review_invite", id, {{"user", "carol"}}))["code"], "not_found")
      << "nor can she invite herself to what does not exist for her";
  auto root = player("root");
  EXPECT_FALSE(follow(*root, id)["invited"].size());

  // A player invites carol: she sees it, follows it, and is named in it.
  const json s = follow(*black, id);
  EXPECT_EQ(s["private"], true);
  EXPECT_EQ(black->command(cmd("review_invite", id, {{"user", "nobody"}}))["message"],
            "no user named 'nobody'");
  EXPECT_EQ(black->command(cmd("review_invite", id, {{"user", "white"}}))["message"],
            "white played this game: they always see it");
  ASSERT_EQ(black->command(cmd("review_invite", id, {{"user", "Carol"}}))["type"], "ack");
  const json invited = black->wait(
      [](const json& m) { return m["type"] == "review_update" && m["change"] == "invited"; });
  EXPECT_EQ(invited["invited"],
            json::array({{{"id", invited["invited"][0]["id"]}, {"name", "carol"}}}));
  EXPECT_EQ(black->command(cmd("review_invite", id, {{"user", "carol"}}))["message"],
            "carol is invited already");
  EXPECT_TRUE(listed("carol"));
  EXPECT_EQ(request("GET", sgf, "carol").first, 200);
  EXPECT_EQ(follow(*carol, id)["invited"][0]["name"], "carol");
  EXPECT_EQ(carol->command(cmd("review_invite", id, {{"user", "dan"}}))["message"],
            "only the game's players (black and white) can invite others to its review");
  EXPECT_EQ(carol->command(cmd("review_invite", open_public, {{"user", "dan"}}))["message"],
            "this review is public: anyone may follow it without an invitation");

  // White takes it back: carol is put out of the room and it no longer exists for her.
  ASSERT_EQ(white->command(cmd("review_invite", id, {{"user", "carol"}, {"remove", true}}))["type"],
            "ack");
  EXPECT_EQ(carol->wait([](const json& m) { return m.value("change", "") == "removed"; })["review"],
            id);
  EXPECT_FALSE(listed("carol"));
  EXPECT_EQ(carol->command(cmd("review_join", id))["code"], "not_found");
  ASSERT_EQ(black->command(cmd("review_play", id, {{"vertex", "G7"}}))["type"], "ack");
  ASSERT_EQ(black->command(cmd("review_invite", id, {{"user", "dan"}}))["type"], "ack");
  stack_->journal().barrier().wait();

  // After a restart: still private, dan still invited.
  carol.reset();
  root.reset();
  black.reset();
  white.reset();
  stack_.reset();
  stack_.emplace(temp_.path());
  EXPECT_FALSE(listed(""));
  EXPECT_FALSE(listed("carol"));
  EXPECT_TRUE(listed("dan"));
  auto dan = player("dan");
  EXPECT_EQ(follow(*dan, id)["invited"][0]["name"], "dan");
  carol = player("carol");
  EXPECT_EQ(carol->command(cmd("review_join", id))["code"], "not_found");

  // Closed: its file goes to the same people.
  black = player("black");
  ASSERT_EQ(black->command(cmd("review_close", id))["type"], "ack");
  stack_->journal().barrier().wait();
  for (const char* who : {"", "carol"}) EXPECT_EQ(request("GET", sgf, who).first, 404) << who;
  for (const char* who : {"black", "white", "dan", "root"})
    EXPECT_EQ(request("GET", sgf, who).first, 200) << who;
  EXPECT_NE(raw_.find("B[gc]"), std::string::npos) << raw_;
}

// Stale reviews once filled the lobby's list: each now says when it last changed (made, or a
// change by whoever drives it), so that the lobby can leave the quiet ones out.
TEST_F(ReviewBoards, EachReviewSaysWhenItLastChanged) {
  auto teacher = player("teacher");
  const auto made = stack_->clock().unix_ms();
  const auto id = open_review("teacher", {{"size", 9}});
  auto active = [&] {
    const json list = request("GET", "/api/v1/reviews").second;
    return list["reviews"][0]["active_at_ms"].get<std::int64_t>();
  };
  EXPECT_EQ(active(), made);
  stack_->clock().advance(std::chrono::hours(48));
  follow(*teacher, id);
  EXPECT_EQ(active(), made) << "following is not a change";
  ASSERT_EQ(teacher->command(cmd("review_play", id, {{"vertex", "E5"}}))["type"], "ack");
  EXPECT_EQ(active(), made + 48 * 3600 * 1000);
}

TEST_F(ReviewBoards, OneAccountMayKeepOnlySoManyOpenAndOpenOnlySoManyAtOnce) {
  player("teacher");
  for (int i = 0; i < 5; ++i) open_review("teacher", {{"size", 9}});
  const auto [status, answer] =
      request("POST", "/api/v1/reviews", "teacher", json{{"size", 9}}.dump());
  EXPECT_EQ(status, 409);
  EXPECT_EQ(answer["error"]["message"],
            "you have 5 open reviews, the most one account may have: close one first");
  // Closing and opening again: ten in a short time, then one more each ten minutes.
  auto teacher = player("teacher");
  for (std::int64_t id = 1; id <= 5; ++id)
    ASSERT_EQ(teacher->command(cmd("review_close", id))["type"], "ack");
  for (int i = 0; i < 5; ++i) open_review("teacher", {{"size", 9}});
  EXPECT_EQ(request("POST", "/api/v1/reviews", "teacher", json{{"size", 9}}.dump()).first, 409);
  for (std::int64_t id = 6; id <= 10; ++id) teacher->command(cmd("review_close", id));
  EXPECT_EQ(request("POST", "/api/v1/reviews", "teacher", json{{"size", 9}}.dump()).first, 429);
  EXPECT_NE(head_.find("\r\nRetry-After: 60"), std::string::npos) << "every 429 says when";
  stack_->clock().advance(std::chrono::minutes(10));
  open_review("teacher", {{"size", 9}});
}

}  // namespace
}  // namespace tengen::testing

namespace tengen {
namespace {

// A review's own bounds, with small limits so that each is reached at once.
TEST(ReviewRoomBounds, EachBoundRefusesSayingWhichAndChangesNothing) {
  const protocol::UserRef owner{1, "teacher"};
  const store::ReviewCreated created{1, 1, "Bounds", std::nullopt, "(;SZ[9])", 1};
  auto code = [](const ReviewRoom::Reply& r) {
    return std::holds_alternative<protocol::Error>(r) ? std::get<protocol::Error>(r).code
                                                      : protocol::ErrorCode::Internal;
  };
  auto message = [](const ReviewRoom::Reply& r) { return std::get<protocol::Error>(r).message; };
  auto play = [](const char* v) { return protocol::ReviewPlay{1, v, {}}; };
  {
    ReviewRoom room(created, owner, ReviewLimits{.max_nodes = 3});
    ASSERT_TRUE(std::holds_alternative<protocol::Ack>(room.command(owner, "a", play("E5"))));
    ASSERT_TRUE(std::holds_alternative<protocol::Ack>(room.command(owner, "b", play("C3"))));
    const auto full = room.command(owner, "c", play("G7"));
    EXPECT_EQ(code(full), protocol::ErrorCode::TooLarge);
    EXPECT_EQ(message(full), "this review has its 3 moves: delete a line or start a new review");
    ASSERT_TRUE(std::holds_alternative<protocol::Ack>(
        room.command(owner, "d", protocol::ReviewGoTo{1, 1})));
    EXPECT_TRUE(std::holds_alternative<protocol::Ack>(room.command(owner, "e", play("C3"))))
        << "following a move that is there adds nothing";
    EXPECT_EQ(room.nodes(), 3U);
  }
  {
    ReviewRoom room(created, owner, ReviewLimits{.max_bytes = 1000});
    const auto long_comment =
        room.command(owner, "a", protocol::ReviewComment{1, std::string(990, 'x')});
    EXPECT_EQ(code(long_comment), protocol::ErrorCode::TooLarge);
    EXPECT_NE(message(long_comment).find("this review is full"), std::string::npos);
    EXPECT_TRUE(std::holds_alternative<protocol::Ack>(
        room.command(owner, "b", protocol::ReviewComment{1, std::string(500, 'x')})));
  }
  {
    // Filled to the default bound with comments that escape to six times their size, marks and
    // moves: the snapshot a follower gets still fits well within the 1 MiB a connection may
    // have queued.
    ReviewRoom room(created, owner, ReviewLimits{});
    const std::string nasty(4000, '\x01');
    const char* points[] = {"A1", "B2", "C3", "D4", "E5", "F6", "G7", "H8", "J9"};
    bool full = false;
    for (int i = 0; i < 100; ++i)  // and the chat's kept lines, each escaping to 6,000 bytes
      room.command(owner, "t", protocol::ReviewChat{1, std::string(1000, '\x02')});
    for (int i = 0; i < 10000 && !full; ++i) {  // a line of passes, each commented and marked
      full = std::holds_alternative<protocol::Error>(
                 room.command(owner, "p", protocol::ReviewPlay{1, "pass", {}})) ||
             std::holds_alternative<protocol::Error>(
                 room.command(owner, "c", protocol::ReviewComment{1, nasty}));
      for (const char* v : points)
        room.command(owner, "m", protocol::ReviewMark{1, v, protocol::MarkKind::Label, "ABCDEFGH"});
    }
    ASSERT_TRUE(full);
    Outbox out;
    room.drain_into(out);
    struct Sink final : Connection {
      void send(std::shared_ptr<const std::string>) override {}
      std::uint64_t id() const override { return 1; }
      const std::optional<store::UserRecord>& user() const override { return none; }
      std::optional<store::UserRecord> none;
    };
    room.join(std::make_shared<Sink>(), "j");
    out = {};
    room.drain_into(out);
    ASSERT_FALSE(out.sends.empty());
    const std::size_t snapshot = out.sends.front().second->size();
    EXPECT_GT(snapshot, std::size_t{400} * 1024) << "filled";
    EXPECT_LT(snapshot, std::size_t{700} * 1024 + 128 * 1024);
    std::cout << "a full review's snapshot: " << snapshot << " bytes\n";
  }
  {
    ReviewRoom room(created, owner, ReviewLimits{.chat_lines_per_person = 2, .chat_lines = 3});
    const protocol::UserRef student{2, "student"};
    auto say = [&](const protocol::UserRef& who) {
      return room.command(who, "t", protocol::ReviewChat{1, "a question"});
    };
    ASSERT_TRUE(std::holds_alternative<protocol::Ack>(say(student)));
    ASSERT_TRUE(std::holds_alternative<protocol::Ack>(say(student)));
    EXPECT_EQ(message(say(student)),
              "you have written 2 lines in this review's chat, the most one person may");
    ASSERT_TRUE(std::holds_alternative<protocol::Ack>(say(owner)));
    EXPECT_EQ(message(say(owner)), "this review's chat is full (3 lines): the board goes on");
  }
  {
    ReviewRoom room(created, owner, ReviewLimits{.max_events = 2});
    room.command(owner, "a", play("E5"));
    room.command(owner, "b", protocol::ReviewGoTo{1, 0});
    const auto spent = room.command(owner, "c", protocol::ReviewGoTo{1, 1});
    EXPECT_EQ(code(spent), protocol::ErrorCode::TooLarge);
    EXPECT_EQ(message(spent),
              "this review has had its 2 changes: download it (SGF) and start a new review from "
              "the file");
  }
}

}  // namespace
}  // namespace tengen
