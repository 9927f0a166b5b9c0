// Groups (clubs; docs/groups.md) through the real server binary: its HTTP API and WebSockets on
// loopback, on its SQLite file. Who may join how (open, on request, by invitation link), who may
// change whose role, the chat live to members' connections (not to those who block the speaker)
// and bounded, a group's challenges seen and accepted by members only, the games between members
// on the group's page, and a group closed and deleted with its members told.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/game_commands.h"
#include "support/server_process.h"
#include "support/ws_client.h"

namespace tengen::testing {
namespace {

using json = nlohmann::json;

struct Answer {
  int status = 0;
  json body;
};

class Groups : public ::testing::Test {
 protected:
  Groups() : server_(std::nullopt, 0, {"--ladder-check-seconds", "1"}) {}

  Answer call(const std::string& method, const std::string& path, const std::string& token,
              const json& body = nullptr) {
    const std::string text = body.is_null() ? "" : body.dump();
    const std::string headers =
        (token.empty() ? "" : "Authorization: Bearer " + token + "\r\n") +
        std::string(method == "GET" || method == "DELETE" ? ""
                                                          : "Content-Type: application/json\r\n");
    const auto reply = http_request(server_.port(), method, path, headers, text);
    Answer a;
    a.status = std::stoi(reply.substr(9, 3));
    a.body = json::parse(body_of(reply), nullptr, false);
    return a;
  }
  struct Player {
    std::string token;
    std::int64_t id = 0;
    std::string name;
  };
  Player player(const std::string& name) {
    Player p{register_user(server_.port(), name), 0, name};
    p.id = call("GET", "/api/v1/me", p.token).body["user"]["id"].get<std::int64_t>();
    return p;
  }
  std::int64_t group(const Player& owner, const std::string& name,
                     const std::string& joining = "open") {
    const auto made =
        call("POST", "/api/v1/groups", owner.token,
             {{"name", name}, {"description", "We play on Tuesdays."}, {"joining", joining}});
    EXPECT_EQ(made.status, 201) << made.body.dump();
    return made.body["groups"][0]["id"].get<std::int64_t>();
  }
  std::string path(std::int64_t group, const std::string& rest = "") {
    return "/api/v1/groups/" + std::to_string(group) + rest;
  }
  WsClient socket(const Player& p) {
    return WsClient(server_.port(), WsClientOptions{p.token, "", "/ws/v1"});
  }
  ServerProcess server_;
};

TEST_F(Groups, AGroupIsMadeWithItsOwnerAndAnyoneMaySeeIt) {
  const auto ann = player("ann");
  EXPECT_EQ(call("POST", "/api/v1/groups", ann.token, {{"name", "ab"}}).status, 400);
  const auto bad = call("POST", "/api/v1/groups", ann.token, {{"name", "Kyoto <b>"}});
  EXPECT_EQ(bad.status, 400);
  EXPECT_NE(bad.body["error"]["message"].get<std::string>().find("letters, digits"),
            std::string::npos);
  EXPECT_EQ(call("POST", "/api/v1/groups", "", {{"name", "Kyoto Club"}}).status, 401);
  EXPECT_EQ(
      call("POST", "/api/v1/groups", ann.token, {{"name", "Kyoto Club"}, {"joining", "x"}}).status,
      400);
  const auto id = group(ann, "Kyoto Club");
  const auto taken = call("POST", "/api/v1/groups", ann.token, {{"name", "kyoto club"}});
  EXPECT_EQ(taken.status, 409);
  EXPECT_EQ(taken.body["error"]["code"], "group_name_taken");
  const auto page = call("GET", path(id), "");
  ASSERT_EQ(page.status, 200) << page.body.dump();
  EXPECT_EQ(page.body["group"]["name"], "Kyoto Club");
  EXPECT_EQ(page.body["group"]["description"], "We play on Tuesdays.");
  EXPECT_EQ(page.body["group"]["owner"]["name"], "ann");
  EXPECT_EQ(page.body["group"]["members"], 1);
  ASSERT_EQ(page.body["members"].size(), 1u);
  EXPECT_EQ(page.body["members"][0]["role"], "owner");
  EXPECT_TRUE(page.body["members"][0]["rank"].is_string());
  EXPECT_FALSE(page.body.contains("has_invite")) << "for the group's administrators only";
  EXPECT_EQ(call("GET", "/api/v1/groups", "").body["groups"].size(), 1u);
  EXPECT_EQ(call("GET", "/api/v1/me/groups", ann.token).body["groups"][0]["my_role"], "owner");
  EXPECT_EQ(call("GET", path(id + 1), "").status, 404);
  // An account owns at most five groups.
  for (int i = 2; i <= 5; ++i) group(ann, "Club " + std::to_string(i));
  const auto sixth = call("POST", "/api/v1/groups", ann.token, {{"name", "Club 6"}});
  EXPECT_EQ(sixth.status, 409);
  EXPECT_EQ(sixth.body["error"]["code"], "too_many_groups");
}

TEST_F(Groups, JoiningIsOpenOnRequestOrByInvitation) {
  const auto ann = player("ann");
  const auto bob = player("bob");
  const auto cyd = player("cyd");
  const auto open = group(ann, "Open Club");
  EXPECT_EQ(call("POST", path(open, "/join"), bob.token, json::object()).body["role"], "member");
  EXPECT_EQ(call("POST", path(open, "/join"), bob.token, json::object()).body["error"]["code"],
            "already_member");

  const auto asked = group(ann, "Asked Club", "request");
  EXPECT_EQ(call("POST", path(asked, "/join"), bob.token, json::object()).body["role"], "pending");
  EXPECT_EQ(call("GET", path(asked), "").body["members"].size(), 1u) << "requests are not shown";
  EXPECT_EQ(call("GET", path(asked), ann.token).body["members"].size(), 2u);
  // A member does not approve; the owner does.
  EXPECT_EQ(call("POST", path(asked, "/members/" + std::to_string(bob.id)), cyd.token,
                 {{"role", "member"}})
                .status,
            403);
  EXPECT_EQ(call("POST", path(asked, "/members/" + std::to_string(bob.id)), ann.token,
                 {{"role", "member"}})
                .status,
            204);
  EXPECT_EQ(call("GET", path(asked), "").body["group"]["members"], 2);

  const auto closed_door = group(ann, "Invited Club", "invite");
  const auto refused = call("POST", path(closed_door, "/join"), cyd.token, json::object());
  EXPECT_EQ(refused.status, 403);
  EXPECT_EQ(refused.body["error"]["code"], "invitation_required");
  EXPECT_EQ(call("POST", path(closed_door, "/invite"), bob.token, json::object()).status, 403);
  const auto link = call("POST", path(closed_door, "/invite"), ann.token, json::object());
  ASSERT_EQ(link.status, 201);
  const auto secret = link.body["invite"].get<std::string>();
  EXPECT_EQ(call("POST", path(closed_door, "/join"), cyd.token, {{"invite", "nonsense"}})
                .body["error"]["code"],
            "bad_invitation");
  EXPECT_EQ(call("POST", path(closed_door, "/join"), cyd.token, {{"invite", secret}}).body["role"],
            "member");
  EXPECT_EQ(
      call("POST", path(open, "/join"), cyd.token, {{"invite", secret}}).body["error"]["code"],
      "bad_invitation")
      << "a link opens its own group only";
  // Turned out with a ban: cannot come back, even with the link.
  EXPECT_EQ(call("POST", path(closed_door, "/members/" + std::to_string(cyd.id)), ann.token,
                 {{"role", "banned"}})
                .status,
            204);
  EXPECT_EQ(call("POST", path(closed_door, "/join"), cyd.token, {{"invite", secret}})
                .body["error"]["code"],
            "banned_from_group");
}

TEST_F(Groups, OnlyTheOwnerMakesAdministratorsAndHandsTheGroupOver) {
  const auto ann = player("ann");
  const auto bob = player("bob");
  const auto cyd = player("cyd");
  const auto id = group(ann, "Club");
  call("POST", path(id, "/join"), bob.token, json::object());
  call("POST", path(id, "/join"), cyd.token, json::object());
  const auto bob_role = path(id, "/members/" + std::to_string(bob.id));
  const auto cyd_role = path(id, "/members/" + std::to_string(cyd.id));
  EXPECT_EQ(call("POST", bob_role, ann.token, {{"role", "admin"}}).status, 204);
  EXPECT_EQ(call("POST", cyd_role, bob.token, {{"role", "admin"}}).body["error"]["code"],
            "not_owner");
  EXPECT_EQ(call("POST", cyd_role, ann.token, {{"role", "king"}}).status, 400);
  // An administrator turns a member out; not the owner.
  EXPECT_EQ(call("DELETE", path(id, "/members/" + std::to_string(ann.id)), bob.token)
                .body["error"]["code"],
            "owner_stays");
  EXPECT_EQ(call("DELETE", cyd_role, bob.token).status, 204);
  EXPECT_EQ(call("POST", path(id, "/leave"), ann.token, json::object()).body["error"]["code"],
            "owner_stays");
  EXPECT_EQ(call("POST", bob_role, ann.token, {{"role", "owner"}}).status, 204);
  const auto page = call("GET", path(id), "");
  EXPECT_EQ(page.body["group"]["owner"]["name"], "bob");
  EXPECT_EQ(page.body["members"][0]["name"], "bob");
  EXPECT_EQ(page.body["members"][1]["role"], "admin");
  EXPECT_EQ(call("POST", path(id, "/leave"), ann.token, json::object()).status, 204);
  EXPECT_EQ(call("GET", path(id), "").body["group"]["members"], 1);
}

TEST_F(Groups, TheChatReachesMembersAsItIsSaidButNotThoseWhoBlockTheSpeaker) {
  const auto ann = player("ann");
  const auto bob = player("bob");
  const auto cyd = player("cyd");
  const auto dee = player("dee");
  const auto id = group(ann, "Club");
  call("POST", path(id, "/join"), bob.token, json::object());
  call("POST", path(id, "/join"), cyd.token, json::object());
  EXPECT_EQ(call("POST", "/api/v1/blocks", cyd.token, {{"user", "bob"}}).status / 100, 2);
  auto ann_ws = socket(ann);
  auto cyd_ws = socket(cyd);
  ann_ws.wait_type("lobby");
  cyd_ws.wait_type("lobby");

  EXPECT_EQ(call("POST", path(id, "/chat"), dee.token, {{"text", "hi"}}).body["error"]["code"],
            "members_only");
  EXPECT_EQ(call("GET", path(id, "/chat"), dee.token).status, 403);
  EXPECT_EQ(call("POST", path(id, "/chat"), bob.token, {{"text", "   "}}).status, 400);
  EXPECT_EQ(call("POST", path(id, "/chat"), bob.token, {{"text", std::string(501, 'a')}}).status,
            400);
  const auto said = call("POST", path(id, "/chat"), bob.token, {{"text", "  Tuesday at 7?  "}});
  ASSERT_EQ(said.status, 201) << said.body.dump();
  EXPECT_EQ(said.body["text"], "Tuesday at 7?");
  const auto told = ann_ws.wait_type("group");
  EXPECT_EQ(told["change"], "chat");
  EXPECT_EQ(told["group"], id);
  EXPECT_EQ(told["line"]["text"], "Tuesday at 7?");
  EXPECT_EQ(told["line"]["from"]["name"], "bob");
  ASSERT_EQ(call("POST", path(id, "/chat"), ann.token, {{"text", "yes"}}).status, 201);
  // Cyd, who blocks Bob, is told Ann's line and not Bob's, and reads only Ann's.
  const auto cyd_told = cyd_ws.wait_type("group");
  EXPECT_EQ(cyd_told["line"]["text"], "yes");
  const auto cyd_reads = call("GET", path(id, "/chat"), cyd.token);
  ASSERT_EQ(cyd_reads.body["lines"].size(), 1u);
  EXPECT_EQ(call("GET", path(id, "/chat"), ann.token).body["lines"].size(), 2u);
  // Bob may delete his line, Cyd not; Ann (the owner) may.
  const auto line = said.body["id"].get<std::int64_t>();
  EXPECT_EQ(
      call("DELETE", path(id, "/chat/" + std::to_string(line)), cyd.token).body["error"]["code"],
      "not_group_admin");
  EXPECT_EQ(call("DELETE", path(id, "/chat/" + std::to_string(line)), ann.token).status, 204);
  const auto deleted = ann_ws.wait(
      [](const json& m) { return m["type"] == "group" && m["change"] == "chat_deleted"; });
  EXPECT_EQ(deleted["line"]["id"], line);
  EXPECT_EQ(deleted["line"]["text"], "");
  EXPECT_EQ(call("GET", path(id, "/chat"), ann.token).body["lines"][0]["deleted"], true);
  // Five lines at once, then one every two seconds.
  int refused = 0;
  for (int i = 0; i < 8; ++i)
    if (call("POST", path(id, "/chat"), ann.token, {{"text", "x"}}).status == 429) ++refused;
  EXPECT_GE(refused, 3);
}

TEST_F(Groups, AGroupsChallengeIsItsMembersOnlyAndItsGamesAreOnItsPage) {
  const auto ann = player("ann");
  const auto bob = player("bob");
  const auto cyd = player("cyd");
  const auto id = group(ann, "Club");
  call("POST", path(id, "/join"), bob.token, json::object());
  auto ann_ws = socket(ann);
  auto bob_ws = socket(bob);
  auto cyd_ws = socket(cyd);
  ann_ws.wait_type("lobby");
  bob_ws.wait_type("lobby");
  cyd_ws.wait_type("lobby");
  const json settings{{"width", 9}, {"height", 9}, {"color", "black"}, {"group", id}};
  const auto outsider = cyd_ws.command({{"type", "create_challenge"}, {"settings", settings}});
  EXPECT_EQ(outsider["type"], "error");
  EXPECT_NE(outsider["message"].get<std::string>().find("you do not belong"), std::string::npos);
  const auto created = ann_ws.command({{"type", "create_challenge"}, {"settings", settings}});
  expect_ack(created);
  const auto opened = bob_ws.wait_type("challenge_opened");
  EXPECT_EQ(opened["challenge"]["settings"]["group"], id);
  // Cyd is not told, does not see it on reconnecting, and cannot accept it.
  auto cyd_again = socket(cyd);
  EXPECT_TRUE(cyd_again.wait_type("lobby")["challenges"].empty());
  const auto taken =
      cyd_ws.command({{"type", "accept_challenge"}, {"challenge", created["challenge"]}});
  EXPECT_EQ(taken["type"], "error");
  for (const auto& m : cyd_ws.kept()) EXPECT_NE(m["type"], "challenge_opened") << m.dump();
  // Bob accepts; Ann resigns; the game is the group's.
  const auto accepted =
      bob_ws.command({{"type", "accept_challenge"}, {"challenge", created["challenge"]}});
  expect_ack(accepted);
  const auto game = accepted["game"].get<std::int64_t>();
  expect_ack(ann_ws.command({{"type", "join"}, {"game", game}}));
  expect_ack(ann_ws.command(cmd("resign", game)));
  const auto page = call("GET", path(id), "");
  ASSERT_EQ(page.body["games"].size(), 1u) << page.body.dump();
  EXPECT_EQ(page.body["games"][0]["id"], game);
  EXPECT_EQ(page.body["games"][0]["result"], "W+R");
  // Cyd joins: the group's challenges are his to see from then on.
  expect_ack(ann_ws.command({{"type", "create_challenge"}, {"settings", settings}}));
  call("POST", path(id, "/join"), cyd.token, json::object());
  const auto lobby = cyd_ws.wait_type("lobby");
  ASSERT_EQ(lobby["challenges"].size(), 1u) << lobby.dump();
  // Bob leaves: his challenge for the members is cancelled, told to those who saw it.
  const auto his = bob_ws.command({{"type", "create_challenge"}, {"settings", settings}});
  expect_ack(his);
  ann_ws.wait_type("challenge_opened");
  EXPECT_EQ(call("POST", path(id, "/leave"), bob.token, json::object()).status, 204);
  const auto closed = ann_ws.wait([&](const json& m) {
    return m["type"] == "challenge_closed" && m["challenge"] == his["challenge"];
  });
  EXPECT_EQ(closed["reason"], "cancelled");
}

TEST_F(Groups, ClosingAndDeletingTellTheMembers) {
  const auto ann = player("ann");
  const auto bob = player("bob");
  const auto id = group(ann, "Club");
  call("POST", path(id, "/join"), bob.token, json::object());
  auto bob_ws = socket(bob);
  bob_ws.wait_type("lobby");
  EXPECT_EQ(call("POST", path(id, "/close"), bob.token, json::object()).body["error"]["code"],
            "not_owner");
  EXPECT_EQ(call("POST", path(id, "/close"), ann.token, json::object()).status, 204);
  const auto closed = bob_ws.wait_type("group");
  EXPECT_EQ(closed["change"], "closed");
  EXPECT_EQ(closed["name"], "Club");
  EXPECT_EQ(call("POST", path(id, "/chat"), bob.token, {{"text", "hello?"}}).body["error"]["code"],
            "group_closed");
  EXPECT_TRUE(call("GET", path(id), "").body["group"].contains("closed_at_ms"));
  EXPECT_EQ(call("DELETE", path(id), ann.token).status, 204);
  const auto deleted = bob_ws.wait_type("group");
  EXPECT_EQ(deleted["change"], "deleted");
  EXPECT_EQ(call("GET", path(id), "").status, 404);
  EXPECT_TRUE(call("GET", "/api/v1/me/groups", bob.token).body["groups"].empty());
}

TEST_F(Groups, AGroupsTournamentIsPlayedByItsMembersOnly) {
  const auto ann = player("ann");
  const auto bob = player("bob");
  const auto cyd = player("cyd");
  const auto id = group(ann, "Club");
  call("POST", path(id, "/join"), bob.token, json::object());
  auto ann_ws = socket(ann);
  auto bob_ws = socket(bob);
  auto cyd_ws = socket(cyd);
  const json create{{"type", "create_tournament"},
                    {"settings",
                     {{"name", "Club championship"},
                      {"system", "round_robin"},
                      {"game", {{"width", 9}, {"height", 9}, {"group", id}}}}}};
  const auto outsider = cyd_ws.command(create);
  EXPECT_EQ(outsider["type"], "error") << outsider.dump();
  const auto made = ann_ws.command(create);
  expect_ack(made);
  const auto tournament = made["tournament"].get<std::int64_t>();
  const auto shown = call("GET", "/api/v1/tournaments/" + std::to_string(tournament), "");
  EXPECT_EQ(shown.body["settings"]["game"]["group"], id) << shown.body.dump();
  const json join{{"type", "tournament_register"}, {"tournament", tournament}};
  const auto refused = cyd_ws.command(join);
  EXPECT_EQ(refused["type"], "error");
  EXPECT_NE(refused["message"].get<std::string>().find("members of a group"), std::string::npos);
  expect_ack(bob_ws.command(join));
}

// A ladder played through the real server: a challenge two rungs up, accepted, its game started
// for both with the ladder's settings, the defender resigning, and the rungs swapped by the
// server's own sweep, the members told.
TEST_F(Groups, ALadderChallengeUpTwoRungsIsAcceptedPlayedAndSwapsTheRungs) {
  const auto ann = player("ann");
  const auto bob = player("bob");
  const auto cyd = player("cyd");
  const auto id = group(ann, "Club");
  call("POST", path(id, "/join"), bob.token, json::object());
  call("POST", path(id, "/join"), cyd.token, json::object());
  const json form{{"name", "Club ladder"},
                  {"settings", {{"width", 9}, {"height", 9}, {"rated", false}}},
                  {"reach", 2},
                  {"accept_days", 3}};
  EXPECT_EQ(call("POST", path(id, "/ladders"), bob.token, form).status, 403) << "administrators";
  EXPECT_EQ(call("POST", path(id, "/ladders"), ann.token,
                 {{"name", "x"}, {"settings", {{"color", "white"}}}})
                .status,
            400);
  const auto made = call("POST", path(id, "/ladders"), ann.token, form);
  ASSERT_EQ(made.status, 201) << made.body.dump();
  const std::string ladder = "/api/v1/ladders/" + std::to_string(made.body["id"].get<int>());
  for (const auto* p : {&ann, &bob, &cyd})
    EXPECT_EQ(call("POST", ladder + "/join", p->token, json::object()).status, 204);
  auto ann_ws = socket(ann);
  auto cyd_ws = socket(cyd);
  ann_ws.wait_type("lobby");
  cyd_ws.wait_type("lobby");
  const auto challenged = call("POST", ladder + "/challenges", cyd.token, {{"defender", ann.id}});
  ASSERT_EQ(challenged.status, 201) << challenged.body.dump();
  const auto c = std::to_string(challenged.body["id"].get<int>());
  EXPECT_EQ(call("POST", ladder + "/challenges/" + c + "/accept", cyd.token, json::object())
                .body["error"]["code"],
            "not_yours");
  const auto accepted =
      call("POST", ladder + "/challenges/" + c + "/accept", ann.token, json::object());
  ASSERT_EQ(accepted.status, 200) << accepted.body.dump();
  const auto game = accepted.body["id"].get<std::int64_t>();
  const auto started = cyd_ws.wait_type("game_started");
  EXPECT_EQ(started["game"], game);
  EXPECT_EQ(started["black"]["name"], "cyd") << "the challenger has Black";
  EXPECT_EQ(started["settings"]["width"], 9);
  EXPECT_EQ(started["settings"]["group"], id);
  EXPECT_EQ(ann_ws.wait_type("game_started")["game"], game);
  expect_ack(ann_ws.command({{"type", "join"}, {"game", game}}));
  expect_ack(ann_ws.command(cmd("resign", game)));
  // The sweep (every second here) finds the game over, moves the rungs, then writes the history;
  // each change of the ladder is told to the group once written (the challenge and its acceptance
  // were too). A page read between the rungs and the history has the one without the other.
  auto page = call("GET", ladder, "").body;
  const auto settled = [&] {
    return page["players"][0]["name"] == "cyd" && page["history"][0]["kind"] == "won";
  };
  for (int i = 0; i < 10 && !settled(); ++i) {
    cyd_ws.wait([](const json& m) { return m["type"] == "group" && m["change"] == "ladder"; });
    page = call("GET", ladder, "").body;
  }
  EXPECT_EQ(page["players"][0]["name"], "cyd") << page.dump();
  EXPECT_EQ(page["players"][2]["name"], "ann");
  EXPECT_EQ(page["challenges"][0]["state"], "won");
  EXPECT_EQ(page["history"][0]["kind"], "won");
}

}  // namespace
}  // namespace tengen::testing
