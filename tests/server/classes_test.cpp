// Classes for schools (docs/classes.md) through the real server binary: its HTTP API and
// WebSockets on loopback, on its SQLite file. Who may teach; a class of thirty made in one step
// with passwords a student logs in with; a protected student meets only the class and the bots
// (challenges both ways, the lobby, a game's chat, other groups) until the teacher loosens it;
// course progress on the teacher's dashboard; a new password; a round robin; archiving.
#include <gtest/gtest.h>

#include <deque>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "store/admin_role.h"
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

class Classes : public ::testing::Test {
 protected:
  explicit Classes(std::vector<std::string> extra = {"--teachers", "anyone"})
      : server_(std::nullopt, 0, std::move(extra)) {}

  Answer call(const std::string& method, const std::string& path, const std::string& token,
              const json& body = nullptr) {
    const std::string text = body.is_null() ? "" : body.dump();
    const std::string headers = (token.empty() ? "" : "Authorization: Bearer " + token + "\r\n") +
                                std::string(method == "GET" || method == "DELETE" || method == "PUT"
                                                ? ""
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
  // A student's card used to log in: the student as a player.
  Player login(const json& card) {
    const auto in = call("POST", "/api/v1/login", "",
                         {{"username", card["user"]["name"]}, {"password", card["password"]}});
    EXPECT_EQ(in.status, 200) << in.body.dump();
    return {in.body.value("token", ""), card["user"]["id"].get<std::int64_t>(),
            card["user"]["name"].get<std::string>()};
  }
  // A class of these students made by `teacher`: the answer (its id and the cards).
  json make_class(const Player& teacher, const std::string& name,
                  const std::vector<std::string>& students) {
    const auto made =
        call("POST", "/api/v1/classes", teacher.token, {{"name", name}, {"students", students}});
    EXPECT_EQ(made.status, 201) << made.body.dump();
    return made.body;
  }
  std::string path(std::int64_t id, const std::string& rest = "") {
    return "/api/v1/classes/" + std::to_string(id) + rest;
  }
  WsClient socket(const Player& p) {
    return WsClient(server_.port(), WsClientOptions{p.token, "", "/ws/v1"});
  }
  ServerProcess server_;
};

class AppointedTeachers : public Classes {
 protected:
  AppointedTeachers() : Classes({}) {}
};

TEST_F(AppointedTeachers, AnAdministratorMakesATeacherWhoMakesAClassOfThirtyInOneStep) {
  const auto root = player("root");
  const auto said =
      store::set_admin_role((server_.dir() / "test.sqlite3").string(), "root", true, 1);
  ASSERT_NE(said.find("is now an administrator"), std::string::npos) << said;
  const auto tess = player("tess");
  std::vector<std::string> names;
  for (int i = 1; i <= 28; ++i) names.push_back("Pupil " + std::to_string(i));
  names.push_back("Emma de Vries");
  names.push_back("Zoë Müller");
  const json form{{"name", "Group 6B"}, {"students", names}};
  const auto refused = call("POST", "/api/v1/classes", tess.token, form);
  EXPECT_EQ(refused.status, 403);
  EXPECT_EQ(refused.body["error"]["code"], "not_teacher");
  EXPECT_FALSE(call("GET", "/api/v1/me/class", tess.token).body["teacher"].get<bool>());
  EXPECT_EQ(call("POST", "/api/v1/admin/teachers", tess.token, {{"user", "tess"}}).status, 403);
  EXPECT_EQ(call("POST", "/api/v1/admin/teachers", root.token, {{"user", "tess"}}).status, 204);
  EXPECT_EQ(call("GET", "/api/v1/admin/teachers", root.token).body["teachers"][0]["name"], "tess");
  EXPECT_TRUE(call("GET", "/api/v1/me/class", tess.token).body["teacher"].get<bool>());

  // Bad lists are refused whole, saying which name.
  auto twice = names;
  twice.push_back("emma DE vries");
  const auto doubled =
      call("POST", "/api/v1/classes", tess.token, {{"name", "Group 6C"}, {"students", twice}});
  EXPECT_EQ(doubled.status, 400);
  EXPECT_NE(doubled.body["error"]["message"].get<std::string>().find("student 31"),
            std::string::npos);
  std::vector<std::string> sixty_one(61, "x");
  for (int i = 0; i < 61; ++i) sixty_one[i] = "Kid " + std::to_string(i);
  EXPECT_EQ(
      call("POST", "/api/v1/classes", tess.token, {{"name", "6B"}, {"students", sixty_one}}).status,
      400);
  player("Pupil-1");  // an account name the first student cannot have

  const auto made = call("POST", "/api/v1/classes", tess.token, form);
  ASSERT_EQ(made.status, 201) << made.body.dump();
  const auto& cards = made.body["students"];
  ASSERT_EQ(cards.size(), 30u);
  EXPECT_TRUE(made.body["skipped"].empty());
  std::set<std::string> accounts;
  const std::regex easy(
      "[bdfghjkmnprstvwz][aeiou][bdfghjkmnprstvwz][aeiou]-"
      "[bdfghjkmnprstvwz][aeiou][bdfghjkmnprstvwz][aeiou]-[2-9][2-9]");
  for (const auto& c : cards) {
    accounts.insert(c["user"]["name"].get<std::string>());
    EXPECT_TRUE(std::regex_match(c["password"].get<std::string>(), easy)) << c.dump();
  }
  EXPECT_EQ(accounts.size(), 30u);
  EXPECT_EQ(cards[0]["name"], "Pupil 1");
  EXPECT_EQ(cards[0]["user"]["name"], "Pupil-12") << "Pupil-1 is taken; the next free is used";
  EXPECT_EQ(cards[28]["user"]["name"], "Emma-de-Vries");
  EXPECT_EQ(cards[29]["name"], "Zoë Müller");
  EXPECT_EQ(cards[29]["user"]["name"], "Zoe-Muller") << "accents taken off";

  // A student logs in with the card; the class is theirs, hidden from everyone else.
  const auto emma = login(cards[28]);
  const auto mine = call("GET", "/api/v1/me/class", emma.token).body;
  EXPECT_EQ(mine["student"]["name"], "Group 6B");
  EXPECT_EQ(mine["student"]["protected"], true);
  const auto id = made.body["id"].get<std::int64_t>();
  EXPECT_EQ(call("GET", "/api/v1/groups/" + std::to_string(id), emma.token).status, 200);
  EXPECT_EQ(call("GET", "/api/v1/groups/" + std::to_string(id), "").status, 404);
  EXPECT_TRUE(call("GET", "/api/v1/groups", "").body["groups"].empty());
  EXPECT_EQ(
      call("POST", "/api/v1/groups/" + std::to_string(id) + "/join", tess.token, json::object())
          .status,
      409);
  const auto outsider = player("olly");
  EXPECT_EQ(
      call("POST", "/api/v1/groups/" + std::to_string(id) + "/join", outsider.token, json::object())
          .body["error"]["code"],
      "class_by_teacher");
  // The dashboard is the teacher's.
  EXPECT_EQ(call("GET", path(id), emma.token).status, 404);
  const auto dashboard = call("GET", path(id), tess.token);
  ASSERT_EQ(dashboard.status, 200) << dashboard.body.dump();
  EXPECT_EQ(dashboard.body["students"].size(), 30u);
  EXPECT_EQ(dashboard.body["class"]["students"], 30);
  EXPECT_EQ(call("GET", "/api/v1/classes", tess.token).body["classes"][0]["name"], "Group 6B");
  // Sixty at most: thirty-one more are refused.
  std::vector<std::string> more;
  for (int i = 0; i < 31; ++i) more.push_back("Extra " + std::to_string(i));
  EXPECT_EQ(
      call("POST", path(id, "/students"), tess.token, {{"students", more}}).body["error"]["code"],
      "class_full");
  EXPECT_EQ(call("DELETE", "/api/v1/admin/teachers/tess", root.token).status, 204);
  EXPECT_EQ(call("POST", "/api/v1/classes", tess.token, form).status, 403);
}

TEST_F(Classes, AProtectedStudentMeetsOnlyTheClassAndTheBots) {
  const auto tess = player("tess");
  const auto olly = player("olly");
  const auto otto = player("otto");
  const auto made = make_class(tess, "Group 7", {"Ann", "Ben"});
  const auto id = made["id"].get<std::int64_t>();
  const auto ann = login(made["students"][0]);
  const auto ben = login(made["students"][1]);
  auto ann_ws = socket(ann);
  auto olly_ws = socket(olly);
  auto tess_ws = socket(tess);
  ann_ws.wait_type("lobby");
  olly_ws.wait_type("lobby");
  tess_ws.wait_type("lobby");
  const json nine{{"width", 9}, {"height", 9}, {"color", "black"}};

  // Direct challenges, both ways, refused in words.
  const auto to_ann =
      olly_ws.command({{"type", "create_challenge"}, {"opponent", ann.name}, {"settings", nine}});
  EXPECT_EQ(to_ann["type"], "error");
  EXPECT_NE(to_ann["message"].get<std::string>().find("student of a class"), std::string::npos)
      << to_ann.dump();
  const auto to_olly =
      ann_ws.command({{"type", "create_challenge"}, {"opponent", "olly"}, {"settings", nine}});
  EXPECT_EQ(to_olly["type"], "error");
  EXPECT_NE(to_olly["message"].get<std::string>().find("your classmates"), std::string::npos);
  // The teacher may; and a bot registered after the class was made is one the student may play.
  expect_ack(
      tess_ws.command({{"type", "create_challenge"}, {"opponent", ann.name}, {"settings", nine}}));
  const auto bot = call("POST", "/api/v1/register", "",
                        {{"username", "tutorbot"}, {"password", "a fine password"}, {"bot", true}});
  ASSERT_EQ(bot.status, 201) << bot.body.dump();
  expect_ack(
      ann_ws.command({{"type", "create_challenge"}, {"opponent", "tutorbot"}, {"settings", nine}}));

  // Open challenges: an outsider's is not in the student's lobby; the student's not in theirs.
  expect_ack(olly_ws.command({{"type", "create_challenge"}, {"settings", nine}}));
  expect_ack(ann_ws.command({{"type", "create_challenge"}, {"settings", nine}}));
  auto ann_again = socket(ann);
  const auto ann_lobby = ann_again.wait_type("lobby");
  for (const auto& c : ann_lobby["challenges"])
    EXPECT_NE(c["challenger"]["name"], "olly") << ann_lobby.dump();
  auto otto_ws = socket(otto);
  const auto otto_lobby = otto_ws.wait_type("lobby");
  for (const auto& c : otto_lobby["challenges"])
    EXPECT_NE(c["challenger"]["name"], ann.name) << otto_lobby.dump();
  EXPECT_EQ(otto_lobby["challenges"].size(), 1u) << "olly's";
  auto ben_ws = socket(ben);
  const auto ben_lobby = ben_ws.wait_type("lobby");
  bool sees_ann = false;
  for (const auto& c : ben_lobby["challenges"]) sees_ann |= c["challenger"]["name"] == ann.name;
  EXPECT_TRUE(sees_ann) << "a classmate's challenge is seen: " << ben_lobby.dump();

  // A game between outsiders: the student watches and is not sent their chat; the teacher's
  // line reaches her.
  const auto open =
      otto_ws.command({{"type", "create_challenge"}, {"opponent", "olly"}, {"settings", nine}});
  expect_ack(open);
  const auto game =
      olly_ws.command({{"type", "accept_challenge"}, {"challenge", open["challenge"]}});
  expect_ack(game);
  const auto g = game["game"].get<std::int64_t>();
  expect_ack(olly_ws.command({{"type", "join"}, {"game", g}}));
  expect_ack(olly_ws.command({{"type", "chat"}, {"game", g}, {"text", "hello, anyone watching?"}}));
  const auto watched = ann_ws.command({{"type", "join"}, {"game", g}});
  expect_ack(watched);
  const auto snapshot = ann_ws.wait_type("snapshot");
  EXPECT_TRUE(snapshot["chat"].empty()) << snapshot["chat"].dump();
  expect_ack(tess_ws.command({{"type", "join"}, {"game", g}}));
  expect_ack(olly_ws.command({{"type", "chat"}, {"game", g}, {"text", "still there?"}}));
  expect_ack(tess_ws.command({{"type", "chat"}, {"game", g}, {"text", "Ann, watch the corner"}}));
  const auto line = ann_ws.wait_type("chat");
  EXPECT_EQ(line["line"]["text"], "Ann, watch the corner") << line.dump();
  // The student's own line is not sent to outsiders watching (the players do not read the
  // spectators' chat during the game anyway).
  auto sam_ws = socket(player("sam"));
  expect_ack(sam_ws.command({{"type", "join"}, {"game", g}}));
  expect_ack(ann_ws.command({{"type", "chat"}, {"game", g}, {"text", "ok!"}}));
  expect_ack(tess_ws.command({{"type", "chat"}, {"game", g}, {"text", "good"}}));
  sam_ws.wait([](const json& m) { return m["type"] == "chat" && m["line"]["text"] == "good"; });
  for (const auto& m : sam_ws.kept())
    if (m["type"] == "chat") {
      EXPECT_NE(m["line"]["text"], "ok!");
    }

  // A review board: the same in its chat (every follower's numbering goes on).
  const auto board = call("POST", "/api/v1/reviews", olly.token, {{"size", 9}});
  ASSERT_EQ(board.status, 201) << board.body.dump();
  const auto review = board.body["review"]["id"].get<std::int64_t>();
  const auto rcmd = [&](const char* type, json fields = json::object()) {
    fields["type"] = type;
    fields["review"] = review;
    return fields;
  };
  const auto update = [&](WsClient& c, int seq) {
    return c.wait([&](const json& m) { return m["type"] == "review_update" && m["seq"] == seq; });
  };
  expect_ack(olly_ws.command(rcmd("review_join")));
  expect_ack(olly_ws.command(rcmd("review_chat", {{"text", "welcome, all"}})));
  expect_ack(ann_ws.command(rcmd("review_join")));
  EXPECT_TRUE(ann_ws.wait_type("review_snapshot")["chat"].empty());
  expect_ack(tess_ws.command(rcmd("review_join")));
  EXPECT_EQ(tess_ws.wait_type("review_snapshot")["chat"].size(), 1u);
  expect_ack(olly_ws.command(rcmd("review_chat", {{"text", "anyone from school here?"}})));
  expect_ack(tess_ws.command(rcmd("review_chat", {{"text", "Ann, look at the corner"}})));
  const auto hidden = update(ann_ws, 2);
  EXPECT_FALSE(hidden.contains("line")) << hidden.dump();
  EXPECT_EQ(update(ann_ws, 3)["line"]["text"], "Ann, look at the corner");
  expect_ack(ann_ws.command(rcmd("review_chat", {{"text", "thank you"}})));
  EXPECT_FALSE(update(olly_ws, 4).contains("line"));
  EXPECT_EQ(update(tess_ws, 4)["line"]["text"], "thank you");

  // No other groups for a student.
  const auto club = call("POST", "/api/v1/groups", olly.token, {{"name", "Olly's Club"}});
  ASSERT_EQ(club.status, 201);
  const auto club_id = club.body["groups"][0]["id"].get<std::int64_t>();
  EXPECT_EQ(
      call("POST", "/api/v1/groups/" + std::to_string(club_id) + "/join", ann.token, json::object())
          .body["error"]["code"],
      "protected_student");
  EXPECT_EQ(
      call("POST", "/api/v1/groups", ann.token, {{"name", "Ann's Club"}}).body["error"]["code"],
      "protected_student");

  // The teacher loosens the class: the outsider's challenge goes through.
  EXPECT_EQ(call("POST", path(id, "/settings"), ann.token, {{"protected", false}}).status, 404);
  EXPECT_EQ(call("POST", path(id, "/settings"), tess.token, {{"protected", false}}).status, 204);
  EXPECT_FALSE(call("GET", "/api/v1/me/class", ann.token).body["student"]["protected"].get<bool>());
  EXPECT_FALSE(call("GET", "/api/v1/me/class", ann.token).body["teacher"].get<bool>())
      << "a student teaches no class, even where anyone may teach";
  EXPECT_EQ(
      call("POST", "/api/v1/classes", ann.token, {{"name", "Ann's class"}, {"students", {"Kim"}}})
          .body["error"]["code"],
      "not_teacher");
  expect_ack(
      olly_ws.command({{"type", "create_challenge"}, {"opponent", ann.name}, {"settings", nine}}));
}

TEST_F(Classes, AStudentsLessonsReachTheTeachersDashboard) {
  const auto tess = player("tess");
  const auto made = make_class(tess, "Group 8", {"Cas"});
  const auto id = made["id"].get<std::int64_t>();
  const auto cas = login(made["students"][0]);
  EXPECT_TRUE(call("GET", "/api/v1/me/course", cas.token).body["lessons"].empty());
  // Finished in this order; two lessons finished within the same millisecond (this server's clock
  // is the real one) are listed by name, so the names are in the same order.
  EXPECT_EQ(call("PUT", "/api/v1/me/course/capture", cas.token).status, 204);
  EXPECT_EQ(call("PUT", "/api/v1/me/course/liberties", cas.token).status, 204);
  EXPECT_EQ(call("PUT", "/api/v1/me/course/liberties", cas.token).status, 204) << "once is kept";
  EXPECT_EQ(call("PUT", "/api/v1/me/course/Bad%20Name", cas.token).status, 400);
  EXPECT_EQ(call("PUT", "/api/v1/me/course/capture", "").status, 401);
  EXPECT_EQ(call("GET", "/api/v1/me/course", cas.token).body["lessons"],
            json::array({"capture", "liberties"}));
  const auto dashboard = call("GET", path(id), tess.token).body;
  ASSERT_EQ(dashboard["students"].size(), 1u);
  const auto& s = dashboard["students"][0];
  EXPECT_EQ(s["name"], "Cas");
  EXPECT_EQ(s["lessons"], json::array({"capture", "liberties"}));
  EXPECT_TRUE(s.contains("last_seen_ms")) << "logged in";
  EXPECT_TRUE(s["rank"].is_string());
  EXPECT_EQ(s["games_finished"], 0);
  // A teacher's changes are paced: ten at once (the class made was one), then one every 6 s.
  int refused = 0;
  for (int i = 0; i < 11; ++i) {
    const auto a = call("POST", path(id, "/settings"), tess.token, {{"protected", i % 2 == 0}});
    if (a.status == 429) {
      ++refused;
      EXPECT_EQ(a.body["error"]["code"], "rate_limited");
    }
  }
  EXPECT_GE(refused, 1);
}

TEST_F(Classes, TheTeacherGivesANewPasswordStartsARoundRobinAndArchivesTheClass) {
  const auto tess = player("tess");
  const auto made = make_class(tess, "Group 9", {"Dax", "Eli", "Fay", "Gus"});
  const auto id = made["id"].get<std::int64_t>();
  const auto& dax_card = made["students"][0];
  const auto dax = login(dax_card);
  auto dax_ws = socket(dax);
  dax_ws.wait_type("lobby");
  const auto fresh = call("POST", path(id, "/students/" + std::to_string(dax.id) + "/password"),
                          tess.token, json::object());
  ASSERT_EQ(fresh.status, 200) << fresh.body.dump();
  const auto& card = fresh.body["students"][0];
  EXPECT_NE(card["password"], dax_card["password"]);
  EXPECT_EQ(card["name"], "Dax");
  EXPECT_EQ(call("GET", "/api/v1/me", dax.token).status, 401) << "the old session ended";
  EXPECT_EQ(call("POST", "/api/v1/login", "",
                 {{"username", dax.name}, {"password", dax_card["password"]}})
                .status,
            401);
  const auto with_new = login(card);
  // Every card lost: new passwords for the whole class in one change.
  const auto all = call("POST", path(id, "/passwords"), tess.token, json::object());
  ASSERT_EQ(all.status, 200) << all.body.dump();
  const auto& cards = all.body["students"];
  ASSERT_EQ(cards.size(), 4u);
  EXPECT_EQ(call("GET", "/api/v1/me", with_new.token).status, 401) << "their sessions ended too";
  const auto again = login(cards[0]);
  const auto other = player("olly");
  EXPECT_EQ(call("POST", path(id, "/students/" + std::to_string(other.id) + "/password"),
                 tess.token, json::object())
                .body["error"]["code"],
            "not_student");

  // One click: every student registered and the first round started; the round robin runs to
  // its end, each round's Black resigning.
  std::vector<Player> students{again};
  for (int i = 1; i < 4; ++i) students.push_back(login(cards[i]));
  std::deque<WsClient> sockets;  // not movable: made in place
  for (const auto& s : students) {
    sockets.emplace_back(server_.port(), WsClientOptions{s.token, "", "/ws/v1"});
    sockets.back().wait_type("lobby");
  }
  const auto rr = call("POST", path(id, "/round-robin"), tess.token,
                       {{"settings", {{"width", 9}, {"height", 9}}}});
  ASSERT_EQ(rr.status, 201) << rr.body.dump();
  const auto tournament = rr.body["id"].get<std::int64_t>();
  const auto page = call("GET", "/api/v1/tournaments/" + std::to_string(tournament), tess.token);
  ASSERT_EQ(page.status, 200);
  EXPECT_EQ(page.body["entrants"].size(), 4u) << page.body.dump();
  EXPECT_EQ(page.body["settings"]["system"], "round_robin");
  EXPECT_EQ(page.body["settings"]["game"]["group"], id);
  for (int round = 1; round <= 3; ++round) {
    for (std::size_t i = 0; i < sockets.size(); ++i) {
      const auto started = sockets[i].wait_type("game_started");
      EXPECT_EQ(started["tournament"]["tournament"], tournament) << started.dump();
      EXPECT_EQ(started["tournament"]["round"], round);
      if (started["black"]["id"] != students[i].id) continue;
      const auto game = started["game"].get<std::int64_t>();
      expect_ack(sockets[i].command({{"type", "join"}, {"game", game}}));
      expect_ack(sockets[i].command(cmd("resign", game)));
    }
  }
  // The teacher, watching the tournament, is told when its last game is over.
  auto watcher = socket(tess);
  expect_ack(watcher.command({{"type", "watch_tournaments"}, {"tournament", tournament}}));
  const auto before = call("GET", "/api/v1/tournaments/" + std::to_string(tournament), tess.token);
  if (before.body["status"] != "finished")
    watcher.wait([](const json& m) {
      return m["type"] == "tournament_changed" && m["status"] == "finished";
    });
  const auto over = call("GET", "/api/v1/tournaments/" + std::to_string(tournament), tess.token);
  EXPECT_EQ(over.body["status"], "finished") << over.body.dump();

  // Archived: read only, the students' accounts stay.
  EXPECT_EQ(call("POST", path(id, "/archive"), again.token, json::object()).status, 404);
  EXPECT_EQ(call("POST", path(id, "/archive"), tess.token, json::object()).status, 204);
  EXPECT_EQ(call("POST", path(id, "/archive"), tess.token, json::object()).body["error"]["code"],
            "class_archived");
  EXPECT_EQ(call("POST", path(id, "/students"), tess.token, {{"students", {"Hal"}}}).status, 409);
  EXPECT_TRUE(call("GET", path(id), tess.token).body["class"].contains("archived_at_ms"));
  EXPECT_EQ(call("GET", "/api/v1/me", again.token).status, 200);
  EXPECT_EQ(
      call("DELETE", "/api/v1/groups/" + std::to_string(id), tess.token).body["error"]["code"],
      "class_archived_not_deleted");
}

}  // namespace
}  // namespace tengen::testing
