// Running a public instance (docs/moderation.md): administrators made from the command line, what
// they do to accounts and its effect on connected players, reports, invites, registration
// control and the audit log. Through the real stack (HTTP and WebSockets on loopback, a real
// SQLite file, the test's clock), the real binary, and the moderation store on both backends.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>

#include "ratings/rating_book.h"
#include "ratings/recompute.h"
#include "store/admin_role.h"
#include "store/migrate.h"
#include "store/moderation_store.h"
#include "support/manual_clock.h"
#include "support/many_players.h"
#include "support/paths.h"
#include "support/server_process.h"
#include "support/temp_database.h"
#include "support/temp_postgres.h"

namespace tengen::testing {
namespace {

using json = nlohmann::json;

class Moderation : public ManyPlayers {
 protected:
  // `name` registered (and connected once), made an administrator as the command line does.
  void make_admin(const std::string& name) {
    player(name);
    const auto said = store::set_admin_role(temp_.path(), name, true, 1);
    EXPECT_NE(said.find("is now an administrator"), std::string::npos) << said;
  }
  std::pair<int, json> act(const std::string& admin, const std::string& user, const json& change) {
    return request("POST", "/api/v1/admin/users/" + user, admin, change.dump());
  }
  std::pair<int, json> login(const std::string& name, const std::string& password) {
    return request("POST", "/api/v1/login", "",
                   json{{"username", name}, {"password", password}}.dump());
  }
};

TEST_F(Moderation, EveryAdministratorsEndpointRefusesAnyoneElse) {
  make_admin("root");
  player("mallory");
  const std::vector<std::pair<std::string, std::string>> endpoints{
      {"GET", "/api/v1/admin/users?q=r"},    {"GET", "/api/v1/admin/users/root"},
      {"POST", "/api/v1/admin/users/root"},  {"GET", "/api/v1/admin/audit"},
      {"GET", "/api/v1/admin/reports"},      {"POST", "/api/v1/admin/reports/1"},
      {"GET", "/api/v1/admin/invites"},      {"POST", "/api/v1/admin/invites"},
      {"DELETE", "/api/v1/admin/invites/1"}, {"POST", "/api/v1/admin/games/1"}};
  const json body = {{"action", "ban"}, {"reason", "taking over"}};
  for (const auto& [method, target] : endpoints) {
    const auto [status, answer] = request(method, target, "mallory", body.dump());
    EXPECT_EQ(status, 403) << method << " " << target;
    EXPECT_EQ(answer["error"]["code"], "not_admin") << raw_;
    EXPECT_EQ(request(method, target, "", body.dump()).first, 401) << method << " " << target;
  }
  EXPECT_TRUE(stack_->accounts().find_user("root")->is_admin);
  EXPECT_FALSE(stack_->accounts().find_user("root")->banned) << "nothing was done";
  EXPECT_TRUE(request("GET", "/api/v1/admin/audit", "root").second["entries"].size() == 1)
      << "only the command line's line: " << raw_;
  const auto [status, me] = request("GET", "/api/v1/me", "root");
  EXPECT_EQ(me["user"]["admin"], true);
  EXPECT_EQ(request("GET", "/api/v1/me", "mallory").second["user"]["admin"], false);
}

TEST_F(Moderation, ASuspensionEndsTheSessionsAtOnceSaysWhyAndEndsOnTime) {
  make_admin("root");
  auto troll = player("troll");
  auto bystander = player("bystander");
  const auto before = stack_->clock().unix_ms();

  // Refused without a reason or a length; an administrator cannot be suspended here.
  EXPECT_EQ(act("root", "troll", {{"action", "suspend"}, {"hours", 48}}).first, 400);
  EXPECT_EQ(act("root", "troll", {{"action", "suspend"}, {"reason", "x"}}).first, 400);
  EXPECT_EQ(act("root", "troll", {{"action", "suspend"}, {"reason", "x"}, {"hours", 0}}).first,
            400);
  EXPECT_EQ(act("root", "root", {{"action", "ban"}, {"reason", "x"}}).first, 409);
  EXPECT_EQ(act("root", "nobody", {{"action", "ban"}, {"reason", "x"}}).first, 404);

  const json open = troll->command(
      {{"type", "create_challenge"}, {"settings", {{"width", 9}, {"color", "black"}}}});
  ASSERT_EQ(open["type"], "ack");
  bystander->wait_type("challenge_opened");
  const auto [status, answer] =
      act("root", "troll", {{"action", "suspend"}, {"reason", "insults in chat"}, {"hours", 48}});
  ASSERT_EQ(status, 200) << raw_;
  const json closed = bystander->wait_type("challenge_closed");
  EXPECT_EQ(closed["challenge"], open["challenge"]) << "nobody can start a game with them now";
  EXPECT_EQ(closed["reason"], "cancelled");
  EXPECT_EQ(answer["user"]["suspended_until_ms"], before + 48 * 3600 * 1000);
  EXPECT_EQ(answer["user"]["reason"], "insults in chat");
  EXPECT_EQ(troll->read_until_closed(), 1008) << "the open WebSocket closes at once";
  // Saying why and until when (the page says so; once only "log in again").
  EXPECT_EQ(troll->close_reason(), "suspended until " + std::to_string(before + 48 * 3600 * 1000));
  bystander->send_text(R"({"type":"ping","cid":"still"})");
  EXPECT_EQ(bystander->wait_type("pong")["cid"], "still") << "no one else is touched";

  const auto [refused, why] = login("troll", "a fine password");
  EXPECT_EQ(refused, 403);
  EXPECT_EQ(why["error"]["code"], "suspended");
  EXPECT_EQ(why["error"]["reason"], "insults in chat");
  EXPECT_EQ(why["error"]["until_ms"], before + 48 * 3600 * 1000);
  EXPECT_NE(why["error"]["message"].get<std::string>().find("insults in chat"), std::string::npos);
  EXPECT_EQ(login("troll", "a wrong password").first, 401) << "the password is checked first";

  stack_->clock().advance(std::chrono::hours(48));
  EXPECT_EQ(login("troll", "a fine password").first, 200) << "the suspension ended on time";
  const auto listed = request("GET", "/api/v1/admin/users?q=TR", "root").second["users"];
  ASSERT_EQ(listed.size(), 1u) << raw_;
  EXPECT_EQ(listed[0]["suspended_until_ms"], nullptr) << "over";
}

TEST_F(Moderation, ABanLastsUntilReinstatedAndAResetPasswordIsShownOnce) {
  make_admin("root");
  player("spammer");
  player("forgetful");
  EXPECT_EQ(act("root", "spammer", {{"action", "reinstate"}}).first, 409) << "nothing to lift";
  ASSERT_EQ(act("root", "spammer", {{"action", "ban"}, {"reason", "advertising"}}).first, 200);
  stack_->clock().advance(std::chrono::hours(24 * 400));
  const auto [status, why] = login("spammer", "a fine password");
  EXPECT_EQ(status, 403);
  EXPECT_EQ(why["error"]["code"], "banned");
  EXPECT_EQ(why["error"]["until_ms"], nullptr);
  EXPECT_EQ(request("GET", "/api/v1/me", "spammer").first, 401)
      << "the old session ended with the ban";
  ASSERT_EQ(act("root", "spammer", {{"action", "reinstate"}, {"reason", "apologised"}}).first, 200);
  EXPECT_EQ(login("spammer", "a fine password").first, 200);
  // Their history, newest first, and nobody else's (root's make_admin is not theirs; the Users
  // page shows it in their row).
  const json history = request("GET", "/api/v1/admin/audit?user=spammer", "root").second;
  ASSERT_EQ(history["entries"].size(), 2u) << raw_;
  EXPECT_EQ(history["entries"][0]["action"], "reinstate");
  EXPECT_EQ(history["entries"][0]["reason"], "apologised");
  EXPECT_EQ(history["entries"][1]["action"], "ban");
  EXPECT_EQ(request("GET", "/api/v1/admin/audit?user=nobody", "root").first, 404);
  EXPECT_EQ(request("GET", "/api/v1/admin/audit?user=spammer", "forgetful").first, 403);

  auto connected = player("forgetful");
  const auto [reset, answer] = act("root", "forgetful", {{"action", "reset_password"}});
  ASSERT_EQ(reset, 200) << raw_;
  const std::string password = answer["password"];
  EXPECT_EQ(password.size(), 14u);
  EXPECT_EQ(connected->read_until_closed(), 1008);
  EXPECT_EQ(login("forgetful", "a fine password").first, 401);
  EXPECT_EQ(login("forgetful", password).first, 200);
  EXPECT_EQ(request("GET", "/api/v1/admin/audit", "root").second.dump().find(password),
            std::string::npos)
      << "the new password is not logged";

  ASSERT_EQ(act("root", "forgetful", {{"action", "mark_bot"}}).first, 200);
  EXPECT_TRUE(stack_->accounts().find_user("forgetful")->is_bot);
  EXPECT_EQ(act("root", "forgetful", {{"action", "mark_bot"}}).first, 409);
  ASSERT_EQ(act("root", "forgetful", {{"action", "unmark_bot"}}).first, 200);

  // Every action in the log, newest first, with who did it, to whom and why.
  const auto entries = request("GET", "/api/v1/admin/audit", "root").second["entries"];
  std::vector<std::string> actions;
  for (const auto& e : entries) actions.push_back(e["action"]);
  EXPECT_EQ(actions, (std::vector<std::string>{"unmark_bot", "mark_bot", "reset_password",
                                               "reinstate", "ban", "make_admin"}));
  EXPECT_EQ(entries[4]["actor"]["name"], "root");
  EXPECT_EQ(entries[4]["user"]["name"], "spammer");
  EXPECT_EQ(entries[4]["reason"], "advertising");
  EXPECT_EQ(entries[5]["actor"], nullptr) << "the command line";
  const auto page = request("GET", "/api/v1/admin/audit?limit=2", "root").second;
  EXPECT_EQ(page["entries"].size(), 2u);
  EXPECT_EQ(page["next_before"], entries[1]["id"]);
}

TEST_F(Moderation, APlayerReportsAChatLineAndAnAdministratorResolvesIt) {
  make_admin("root");
  auto victim = player("victim");
  auto rude = player("rude");
  const auto game = game_between(*victim, *rude);
  ASSERT_EQ(rude->command({{"type", "chat"}, {"game", game}, {"text", "you are hopeless"}})["type"],
            "ack");
  const auto said = victim->wait_type("chat");
  const std::int64_t seq = said["line"]["seq"];

  const auto filing = [&](json fields) {
    return request("POST", "/api/v1/reports", "victim", fields.dump());
  };
  EXPECT_EQ(filing({{"user", "rude"}, {"category", "rudeness"}}).first, 400);
  EXPECT_EQ(filing({{"user", "victim"}, {"category", "harassment"}}).first, 400) << "yourself";
  EXPECT_EQ(filing({{"user", "nobody"}, {"category", "harassment"}}).first, 404);
  EXPECT_EQ(filing({{"user", "rude"}, {"category", "other"}}).first, 400) << "say what";
  EXPECT_EQ(
      filing({{"user", "victim"}, {"category", "harassment"}, {"game", game}, {"chat_seq", seq}})
          .first,
      400);
  EXPECT_EQ(
      filing(
          {{"user", "rude"}, {"category", "harassment"}, {"game", game}, {"chat_seq", seq + 100}})
          .first,
      404);
  EXPECT_EQ(filing({{"user", "rude"}, {"category", "harassment"}, {"text", std::string(1001, 'x')}})
                .first,
            400);
  {  // a private game of others' does not exist for the reporter
    auto a = player("priv-a");
    auto b = player("priv-b");
    const json created =
        a->command({{"type", "create_challenge"},
                    {"settings", {{"width", 9}, {"color", "black"}, {"private", true}}}});
    const auto hidden =
        b->command({{"type", "accept_challenge"}, {"challenge", created["challenge"]}})["game"];
    EXPECT_EQ(filing({{"user", "priv-a"}, {"category", "spam"}, {"game", hidden}}).first, 404);
  }
  const auto [status, filed] = filing({{"user", "rude"},
                                       {"category", "harassment"},
                                       {"text", "in our game"},
                                       {"game", game},
                                       {"chat_seq", seq}});
  ASSERT_EQ(status, 201) << raw_;
  const std::int64_t id = filed["report"]["id"];

  const auto queue = request("GET", "/api/v1/admin/reports", "root").second["reports"];
  ASSERT_EQ(queue.size(), 1u) << raw_;
  EXPECT_EQ(queue[0]["reporter"]["name"], "victim");
  EXPECT_EQ(queue[0]["user"]["name"], "rude");
  EXPECT_EQ(queue[0]["chat_text"], "you are hopeless") << "the line as it was said";
  EXPECT_EQ(queue[0]["game"], game);

  const std::string target = "/api/v1/admin/reports/" + std::to_string(id);
  EXPECT_EQ(request("POST", target, "root", R"({"action":"close"})").first, 400);
  const auto [done, resolved] =
      request("POST", target, "root", R"({"action":"resolve","note":"warned by mail"})");
  ASSERT_EQ(done, 200) << raw_;
  EXPECT_EQ(resolved["reports"][0]["status"], "resolved");
  EXPECT_EQ(resolved["reports"][0]["handled_by"]["name"], "root");
  EXPECT_EQ(request("POST", target, "root", R"({"action":"dismiss"})").first, 409);
  EXPECT_TRUE(request("GET", "/api/v1/admin/reports", "root").second["reports"].empty());
  EXPECT_EQ(
      request("GET", "/api/v1/admin/reports?status=resolved", "root").second["reports"][0]["note"],
      "warned by mail");

  // A flood of reports from one player stops at ten open ones.
  for (int i = 0; i < 10; ++i)
    ASSERT_EQ(filing({{"user", "rude"}, {"category", "spam"}}).first, 201) << i;
  const auto [flooded, refusal] = filing({{"user", "rude"}, {"category", "spam"}});
  EXPECT_EQ(flooded, 429);
  EXPECT_EQ(refusal["error"]["code"], "too_many_reports");
}

TEST_F(Moderation, InvitesAreMadeUsedUpAndWithdrawn) {
  make_admin("root");
  const auto [status, made] =
      request("POST", "/api/v1/admin/invites", "root", R"({"note":"Tuesday club","max_uses":2})");
  ASSERT_EQ(status, 201) << raw_;
  const std::string code = made["invite"]["code"];
  EXPECT_EQ(code.size(), 14u) << code;
  EXPECT_EQ(request("POST", "/api/v1/admin/invites", "root", R"({"max_uses":0})").first, 400);
  const auto register_with = [&](const std::string& name, const std::string& invite) {
    return stack_->accounts().register_user(name, "a fine password", "test", "10.0.0.1",
                                            Accounts::Kind::Human, invite);
  };
  EXPECT_TRUE(std::holds_alternative<Accounts::LoggedIn>(register_with("first", code)));
  stack_->clock().advance(std::chrono::seconds(6));
  EXPECT_TRUE(std::holds_alternative<Accounts::LoggedIn>(register_with("second", code)));
  stack_->clock().advance(std::chrono::seconds(6));
  const auto third = register_with("third", code);
  ASSERT_TRUE(std::holds_alternative<Accounts::Failure>(third));
  EXPECT_EQ(std::get<Accounts::Failure>(third).problem, Accounts::Problem::BadInvite);

  const auto list = request("GET", "/api/v1/admin/invites", "root").second["invites"];
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0]["uses"], 2);
  const std::string withdraw = "/api/v1/admin/invites/" + std::to_string(list[0]["id"].get<int>());
  EXPECT_EQ(request("DELETE", withdraw, "root").first, 204);
  EXPECT_EQ(request("DELETE", withdraw, "root").first, 404) << "withdrawn already";
}

// An administrator deletes a chat line: everyone in the room is told at once, the line is gone
// from snapshots (also after a restart, and in a finished game's archive), and it is logged.
TEST_F(Moderation, ADeletedChatLineIsGoneForEveryoneLiveAndInHistory) {
  make_admin("root");
  auto ann = player("ann");
  auto rude = player("rude");
  auto watcher = player("watcher");
  const auto game = game_between(*ann, *rude);
  EXPECT_EQ(watcher->command({{"type", "join"}, {"game", game}})["type"], "ack");
  ASSERT_EQ(rude->command({{"type", "chat"}, {"game", game}, {"text", "slur"}})["type"], "ack");
  ASSERT_EQ(ann->command({{"type", "chat"}, {"game", game}, {"text", "please stop"}})["type"],
            "ack");
  const std::int64_t line = ann->wait_type("chat")["line"]["seq"];
  const std::string target = "/api/v1/admin/games/" + std::to_string(game);

  EXPECT_EQ(request("POST", target, "ann", R"({"action":"delete_chat","line":1})").first, 403);
  EXPECT_EQ(request("POST", target, "root", R"({"action":"delete_chat"})").first, 400);
  EXPECT_EQ(request("POST", target, "root", R"({"action":"delete_chat","line":999})").first, 404);
  EXPECT_EQ(
      request("POST", "/api/v1/admin/games/999", "root", R"({"action":"delete_chat","line":1})")
          .first,
      404);
  const auto [status, answer] =
      request("POST", target, "root",
              json{{"action", "delete_chat"}, {"line", line}, {"reason", "abuse"}}.dump());
  ASSERT_EQ(status, 200) << raw_;
  EXPECT_EQ(answer["author"]["name"], "rude");
  for (auto* c : {ann.get(), rude.get(), watcher.get()})
    EXPECT_EQ(c->wait_type("chat_deleted")["line"], line) << "told live";
  EXPECT_EQ(
      request("POST", target, "root", json{{"action", "delete_chat"}, {"line", line}}.dump()).first,
      404)
      << "deleted already";

  const auto lines_seen = [&](WsClient& c) {
    EXPECT_EQ(c.command({{"type", "join"}, {"game", game}})["type"], "ack");
    return c.wait_type("snapshot")["chat"];
  };
  auto later = player("watcher");
  auto chat = lines_seen(*later);
  ASSERT_EQ(chat.size(), 2u) << chat.dump();
  EXPECT_EQ(chat[0]["text"], "");
  EXPECT_EQ(chat[0]["deleted"], true);
  EXPECT_EQ(chat[1]["text"], "please stop");
  const auto log = request("GET", "/api/v1/admin/audit", "root").second["entries"][0];
  EXPECT_EQ(log["action"], "delete_chat");
  EXPECT_EQ(log["user"]["name"], "rude");
  EXPECT_EQ(log["game"], game);
  EXPECT_EQ(log["reason"], "abuse");

  // Over, and the server restarted: the archive's room is rebuilt from the store, still deleted.
  ASSERT_EQ(ann->command({{"type", "resign"}, {"game", game}})["type"], "ack");
  later.reset();
  ann.reset();
  rude.reset();
  watcher.reset();
  stack_.reset();
  stack_.emplace(temp_.path());
  auto after = player("watcher");
  chat = lines_seen(*after);
  ASSERT_EQ(chat.size(), 2u) << chat.dump();
  EXPECT_EQ(chat[0]["deleted"], true);
  EXPECT_EQ(chat[0]["text"], "");
}

// Annulling a rated game rebuilds every rating from the games as if it had not been played; the
// rebuild from the stored games gives exactly the incremental ratings; an administrator
// adjudicates a game in play; --recompute-ratings rebuilds them offline.
TEST_F(Moderation, AnAnnulledGameIsUnratedAndTheRatingsAreRebuiltExactly) {
  make_admin("root");
  auto ann = player("ann");
  auto bob = player("bob");
  auto cat = player("cat");
  // Rated games, hours apart (a deviation grows between games), each lost by resignation.
  const auto rated_game = [&](WsClient& black, WsClient& white, WsClient& loser) {
    const json created =
        black.command({{"type", "create_challenge"},
                       {"settings", {{"width", 9}, {"color", "black"}, {"rated", true}}}});
    const json accepted =
        white.command({{"type", "accept_challenge"}, {"challenge", created["challenge"]}});
    const auto game = accepted["game"].get<std::int64_t>();
    EXPECT_EQ(loser.command({{"type", "resign"}, {"game", game}})["type"], "ack");
    stack_->journal().barrier().wait();
    stack_->advance(std::chrono::hours(5));
    return game;
  };
  rated_game(*ann, *bob, *bob);
  const auto annulled = rated_game(*bob, *cat, *cat);
  rated_game(*cat, *ann, *ann);
  rated_game(*ann, *cat, *cat);
  auto& games = stack_->games();
  const auto ratings = [&] {  // the stack's store: a new one after the restart below
    std::map<std::int64_t, std::pair<double, double>> out;
    for (const auto& r : stack_->games().ratings()) out[r.user_id] = {r.rating, r.deviation};
    return out;
  };
  const auto rebuilt = [&] {
    std::map<std::int64_t, std::pair<double, double>> out;
    for (const auto& r : RatingBook::replay(games.games_in_order_of_ending()))
      out[r.user_id] = {r.rating, r.deviation};
    return out;
  };
  const auto incremental = ratings();
  ASSERT_EQ(incremental.size(), 3u);
  EXPECT_EQ(rebuilt(), incremental) << "the rebuild is the incremental rating, to the last bit";

  const std::string target = "/api/v1/admin/games/" + std::to_string(annulled);
  EXPECT_EQ(bob->command({{"type", "join"}, {"game", annulled}})["type"], "ack");  // watching it
  EXPECT_EQ(request("POST", target, "ann", R"({"action":"annul"})").first, 403);
  const auto [status, answer] =
      request("POST", target, "root", R"({"action":"annul","reason":"bob played for cat"})");
  ASSERT_EQ(status, 200) << raw_;
  EXPECT_EQ(answer["ratings_rebuilt"], 6) << "three rated games left, two rows each";
  EXPECT_EQ(bob->wait_type("game_ended")["reason"], "annulled");
  EXPECT_EQ(games.game(annulled)->result, "Void");
  EXPECT_EQ(games.game(annulled)->end_reason, "annulled");
  const auto after = ratings();
  EXPECT_NE(after, incremental);
  EXPECT_EQ(after, rebuilt()) << "as if never played";
  EXPECT_EQ(games.rating_history(stack_->accounts().find_user("bob")->id, 10).size(), 1u)
      << "bob's history keeps only the game that counts";
  const auto shown = request("GET", "/api/v1/users/cat", "").second["user"]["rating"];
  EXPECT_EQ(shown["games"], 2) << "the hub's book is the rebuilt one";
  EXPECT_EQ(request("POST", target, "root", R"({"action":"annul"})").first, 409) << "void already";

  // A stuck game in play, adjudicated.
  const json created = ann->command(
      {{"type", "create_challenge"}, {"settings", {{"width", 9}, {"color", "black"}}}});
  const auto stuck =
      bob->command({{"type", "accept_challenge"}, {"challenge", created["challenge"]}})["game"]
          .get<std::int64_t>();
  EXPECT_EQ(ann->command({{"type", "join"}, {"game", stuck}})["type"], "ack");
  const std::string stuck_target = "/api/v1/admin/games/" + std::to_string(stuck);
  EXPECT_EQ(
      request("POST", stuck_target, "root", R"({"action":"adjudicate","result":"B+3"})").first, 400)
      << "not a score";
  ASSERT_EQ(
      request("POST", stuck_target, "root", R"({"action":"adjudicate","result":"W+F"})").first, 200)
      << raw_;
  EXPECT_EQ(ann->wait([&](const json& m) {
    return m["type"] == "game_ended" && m["game"] == stuck;
  })["reason"],
            "adjudication");
  EXPECT_EQ(games.game(stuck)->result, "W+F");
  EXPECT_EQ(
      request("POST", stuck_target, "root", R"({"action":"adjudicate","result":"B+F"})").first,
      409);
  const auto log = request("GET", "/api/v1/admin/audit?limit=2", "root").second["entries"];
  EXPECT_EQ(log[0]["action"], "adjudicate");
  EXPECT_EQ(log[1]["action"], "annul");
  EXPECT_EQ(log[1]["game"], annulled);

  // Offline: a damaged ratings table is rebuilt by --recompute-ratings (the server stopped).
  const auto final_ratings = ratings();
  ann.reset();
  bob.reset();
  cat.reset();
  stack_.reset();
  {
    store::Database db(temp_.path());
    db.exec("UPDATE ratings SET rating = 0, deviation = 1");
  }
  const auto said = ratings::recompute_ratings(temp_.path());
  EXPECT_NE(said.find("rebuilt the ratings of 3 players from 3 rated games"), std::string::npos)
      << said;
  stack_.emplace(temp_.path());
  EXPECT_EQ(ratings(), final_ratings);
}

// Blocks: no direct challenges from the blocked, their open challenges hidden and not acceptable,
// their chat lines not sent (nor in snapshots), no quick match between the two; all undone by an
// unblock.
TEST_F(Moderation, ABlockedPlayerCannotChallengeIsNotReadAndIsNotPaired) {
  auto calm = player("calm");
  auto pest = player("pest");
  auto other = player("other");
  const auto [status, listed] = request("POST", "/api/v1/blocks", "calm", R"({"user":"pest"})");
  ASSERT_EQ(status, 200) << raw_;
  EXPECT_EQ(listed["users"][0]["name"], "pest");
  calm->wait_type("lobby");  // a fresh lobby, without what is hidden now
  EXPECT_EQ(request("POST", "/api/v1/blocks", "calm", R"({"user":"calm"})").first, 400);
  EXPECT_EQ(request("POST", "/api/v1/blocks", "calm", R"({"user":"nobody"})").first, 404);
  EXPECT_EQ(request("GET", "/api/v1/blocks", "pest").second["users"].size(), 0u)
      << "a block is its maker's alone";

  const json direct = pest->command({{"type", "create_challenge"},
                                     {"opponent", "calm"},
                                     {"settings", {{"width", 9}, {"color", "black"}}}});
  EXPECT_EQ(direct["type"], "error");
  EXPECT_EQ(direct["code"], "forbidden");
  EXPECT_EQ(direct["message"], "calm does not accept challenges from you");

  const json open = pest->command(
      {{"type", "create_challenge"}, {"settings", {{"width", 9}, {"color", "black"}}}});
  ASSERT_EQ(open["type"], "ack");
  const auto challenge = open["challenge"].get<std::int64_t>();
  EXPECT_EQ(other->wait_type("challenge_opened")["challenge"]["id"], challenge);
  calm->send_text(R"({"type":"ping","cid":"after"})");
  calm->wait_type("pong");
  for (const auto& m : calm->kept())
    EXPECT_NE(m["type"], "challenge_opened") << "hidden from the one who blocks: " << m.dump();
  const json taken = calm->command({{"type", "accept_challenge"}, {"challenge", challenge}});
  EXPECT_EQ(taken["code"], "forbidden") << taken.dump();
  auto calm_again = player("calm");  // a new tab's lobby
  auto other_again = player("other");
  calm_again->close();
  other_again->close();
  EXPECT_EQ(pest->command({{"type", "cancel_challenge"}, {"challenge", challenge}})["type"], "ack");

  // A game between other and pest, calm watching: pest's lines do not reach calm.
  const auto game = game_between(*other, *pest);
  EXPECT_EQ(calm->command({{"type", "join"}, {"game", game}})["type"], "ack");
  calm->wait_type("snapshot");
  ASSERT_EQ(pest->command({{"type", "chat"}, {"game", game}, {"text", "hidden words"}})["type"],
            "ack");
  ASSERT_EQ(other->command({{"type", "chat"}, {"game", game}, {"text", "kind words"}})["type"],
            "ack");
  EXPECT_EQ(calm->wait_type("chat")["line"]["text"], "kind words") << "the pest's line skipped";
  EXPECT_EQ(other->wait_type("chat")["line"]["text"], "hidden words") << "others read it";
  auto watcher = player("calm");
  EXPECT_EQ(watcher->command({{"type", "join"}, {"game", game}})["type"], "ack");
  const json snapshot = watcher->wait_type("snapshot");
  ASSERT_EQ(snapshot["chat"].size(), 1u) << snapshot["chat"].dump();
  EXPECT_EQ(snapshot["chat"][0]["text"], "kind words");
  EXPECT_EQ(snapshot["chat_omitted"], 0);

  // Quick match never pairs the two.
  const json seek = {{"type", "seek"}, {"size", 13}, {"speed", "blitz"}};
  ASSERT_EQ(calm->command(seek)["type"], "ack");
  ASSERT_EQ(pest->command(seek)["type"], "ack");
  calm->send_text(R"({"type":"ping","cid":"queued"})");
  calm->wait([](const json& m) { return m["type"] == "pong" && m["cid"] == "queued"; });
  for (const auto& m : calm->kept()) EXPECT_NE(m["type"], "game_started") << m.dump();
  stack_->advance(std::chrono::minutes(3));  // past when anyone at all would do
  ASSERT_EQ(calm->command({{"type", "cancel_seek"}})["type"], "ack");
  for (const auto& m : calm->kept()) EXPECT_NE(m["type"], "game_started") << m.dump();
  ASSERT_EQ(pest->command({{"type", "cancel_seek"}})["type"], "ack");

  // Unblocked, all is as before.
  const auto [unblocked, empty] = request("DELETE", "/api/v1/blocks/pest", "calm");
  ASSERT_EQ(unblocked, 200) << raw_;
  EXPECT_TRUE(empty["users"].empty());
  EXPECT_EQ(request("DELETE", "/api/v1/blocks/pest", "calm").first, 404);
  EXPECT_EQ(pest->command({{"type", "create_challenge"},
                           {"opponent", "calm"},
                           {"settings", {{"width", 9}, {"color", "black"}}}})["type"],
            "ack");
}

// Registration control in Accounts itself, on a real SQLite file and the test's clock.
TEST(RegistrationControl, InviteOnlyAndTheDailyLimitPerAddress) {
  TempDatabase file;
  auto stores = store::Stores::open(file.path());
  ManualClock clock;
  auto options = Accounts::Options::fastest_for_tests();
  options.registrations_per_address = 2;
  options.login_burst = 100;
  Accounts accounts(*stores->accounts, clock, options, stores->moderation.get());
  const auto problem = [](const Accounts::Outcome& o) {
    return std::holds_alternative<Accounts::Failure>(o)
               ? std::optional(std::get<Accounts::Failure>(o).problem)
               : std::nullopt;
  };
  auto reg = [&](const std::string& name, const std::string& address,
                 const std::string& invite = "") {
    return problem(accounts.register_user(name, "a fine password", "t", address,
                                          Accounts::Kind::Human, invite));
  };
  EXPECT_EQ(reg("one", "10.0.0.1"), std::nullopt);
  EXPECT_EQ(reg("two", "10.0.0.1"), std::nullopt);
  EXPECT_EQ(reg("three", "10.0.0.1"), Accounts::Problem::TooManyRegistrations);
  EXPECT_EQ(reg("three", "10.0.0.2"), std::nullopt) << "another address";
  const auto invite = stores->moderation->create_invite(
      {.code = "club-code-0001", .created_at_ms = clock.unix_ms(), .max_uses = 30}, {});
  EXPECT_EQ(reg("four", "10.0.0.1", "club-code-0001"), std::nullopt)
      << "a school's class behind one address registers with an invite";
  EXPECT_EQ(reg("five", "10.0.0.1", "club-code-0002"), Accounts::Problem::BadInvite);
  EXPECT_EQ(reg("four", "10.0.0.9", "club-code-0001"), Accounts::Problem::NameTaken);
  EXPECT_EQ(stores->moderation->invites(10)[0].uses, 1) << "a refused name uses no invite";
  clock.advance(std::chrono::hours(24));
  EXPECT_EQ(reg("five", "10.0.0.1"), std::nullopt) << "a day later";

  Accounts invited_only(
      *stores->accounts, clock,
      [&] {
        auto o = options;
        o.invite_only = true;
        return o;
      }(),
      stores->moderation.get());
  const auto refused = invited_only.register_user("six", "a fine password", "t", "10.0.0.3");
  ASSERT_TRUE(std::holds_alternative<Accounts::Failure>(refused));
  EXPECT_EQ(std::get<Accounts::Failure>(refused).problem, Accounts::Problem::InviteRequired);
  EXPECT_TRUE(std::holds_alternative<Accounts::LoggedIn>(invited_only.register_user(
      "six", "a fine password", "t", "10.0.0.3", Accounts::Kind::Human, "club-code-0001")));
  EXPECT_EQ(invite.id, 1);
}

// The moderation store on both backends: a change and its audit line go together, or neither.
TEST(ModerationStore, AChangeIsLoggedExactlyWhenItIsMade) {
  TempDatabase file;
  const auto sqlite = store::Stores::open(file.path());
  const std::string pg_uri = TempPostgres::instance().new_database_uri();
  const auto postgres = store::Stores::open(pg_uri);
  for (auto* stores : {sqlite.get(), postgres.get()}) {
    auto& m = *stores->moderation;
    const auto ann = stores->accounts->create_user("ann", "h", false, 1)->id;
    const store::AuditEntry audit{.at_ms = 5, .action = "ban", .target_user_id = ann};
    EXPECT_FALSE(m.set_restriction(ann + 99, {true, std::nullopt, "x"}, audit)) << "no such user";
    EXPECT_TRUE(m.audit_log({}).empty()) << "and nothing logged";
    EXPECT_TRUE(m.set_restriction(ann, {true, std::nullopt, "spam"}, audit));
    EXPECT_TRUE(m.set_admin(ann, true, {.at_ms = 6, .action = "make_admin"}));
    EXPECT_TRUE(m.set_bot(ann, true, {.at_ms = 7, .action = "mark_bot"}));
    const auto user = stores->accounts->user_by_id(ann);
    EXPECT_TRUE(user->banned && user->is_admin && user->is_bot);
    EXPECT_EQ(user->moderation_reason, "spam");
    ASSERT_EQ(m.audit_log({}).size(), 3u);
    EXPECT_EQ(m.audit_log({}).back().target_name, "ann");
    EXPECT_EQ(m.search_users("AN", 10).size(), 1u);
    EXPECT_TRUE(m.search_users("a_", 10).empty()) << "'_' is a character, not a wildcard";

    const auto bob = stores->accounts->create_user("bob", "h", false, 1)->id;
    const auto report =
        m.add_report({.at_ms = 8, .reporter_id = bob, .target_id = ann, .category = "spam"});
    EXPECT_EQ(m.open_reports_by(bob), 1);
    EXPECT_TRUE(m.close_report(report, "dismissed", "not spam", {.at_ms = 9, .actor_id = ann}));
    EXPECT_FALSE(m.close_report(report, "resolved", "", {.at_ms = 10, .actor_id = ann}));
    EXPECT_EQ(m.report(report)->handler_name, "ann");
    EXPECT_EQ(m.audit_log({}).size(), 4u);

    const auto invite =
        m.create_invite({.code = "c", .created_at_ms = 1, .max_uses = 1, .expires_at_ms = 100},
                        {.at_ms = 1, .action = "create_invite"});
    EXPECT_EQ(m.take_invite("c", 100), std::nullopt) << "expired";
    EXPECT_EQ(m.take_invite("c", 99), invite.id);
    EXPECT_EQ(m.take_invite("c", 99), std::nullopt) << "used up";
    m.give_back_invite(invite.id);
    EXPECT_TRUE(m.revoke_invite(invite.id, {.at_ms = 2, .action = "revoke_invite"}));
    EXPECT_EQ(m.take_invite("c", 99), std::nullopt) << "withdrawn";

    const store::TokenHash here{1}, there{2};
    m.add_registration(here, 1000);
    m.add_registration(here, 2000);
    m.add_registration(there, 2000);
    EXPECT_EQ(m.registrations_since(here, 999), 2);
    EXPECT_EQ(m.registrations_since(here, 1000), 1) << "older rows are gone";
    EXPECT_EQ(m.registrations_since(here, 0), 1);

    EXPECT_TRUE(m.add_block(ann, bob, 3));
    EXPECT_FALSE(m.add_block(ann, bob, 4));
    EXPECT_EQ(m.blocked_by(ann).at(0).username, "bob");
    EXPECT_TRUE(m.remove_block(ann, bob));
    EXPECT_TRUE(m.all_blocks().empty());
  }
}

// The real binary: the founder registers, is made an administrator from the command line while
// the server serves the file, and after a restart with invite-only registration invites a club.
TEST(ModerationProcess, AnAdministratorMadeFromTheCommandLineInvitesAClub) {
  struct Dir {
    fs::path path = fs::temp_directory_path() / ("tengen-moderation-" + std::to_string(getpid()));
    Dir() { fs::create_directories(path); }
    ~Dir() { fs::remove_all(path); }
  } dir;
  const std::string binary = paths::server_binary();
  const std::string db = (dir.path / "test.sqlite3").string();
  const auto post = [](int port, const std::string& target, const std::string& body,
                       const std::string& token = "") {
    return http_request(port, "POST", target,
                        "Content-Type: application/json\r\n" +
                            (token.empty() ? "" : "Authorization: Bearer " + token + "\r\n"),
                        body);
  };
  const std::string founder = R"({"username":"founder","password":"a fine password"})";
  {
    ServerProcess open(dir.path);
    ASSERT_TRUE(post(open.port(), "/api/v1/register", founder).starts_with("HTTP/1.1 201"));
    EXPECT_NE(
        std::system((binary + " --database " + db + " --make-admin nobody 2>/dev/null").c_str()), 0)
        << "no such user";
    ASSERT_EQ(
        std::system((binary + " --database " + db + " --make-admin founder >/dev/null").c_str()),
        0);
  }
  ServerProcess invite_only(dir.path, 0, {"--registration", "invite"});
  const int port = invite_only.port();
  const std::string refused =
      post(port, "/api/v1/register", R"({"username":"member","password":"a fine password"})");
  EXPECT_TRUE(refused.starts_with("HTTP/1.1 403")) << refused;
  EXPECT_NE(refused.find("invite_required"), std::string::npos);
  const std::string token = cookie_token(post(port, "/api/v1/login", founder));
  const std::string made =
      post(port, "/api/v1/admin/invites", R"({"note":"club","max_uses":1})", token);
  ASSERT_TRUE(made.starts_with("HTTP/1.1 201")) << made;
  const std::string code = json::parse(body_of(made))["invite"]["code"];
  const std::string member =
      post(port, "/api/v1/register",
           R"({"username":"member","password":"a fine password","invite":")" + code + R"("})");
  EXPECT_TRUE(member.starts_with("HTTP/1.1 201")) << member;
  const std::string again =
      post(port, "/api/v1/register",
           R"({"username":"member2","password":"a fine password","invite":")" + code + R"("})");
  EXPECT_NE(again.find("bad_invite"), std::string::npos) << again;
}

// Behind a trusted proxy the daily limit counts each player's own address, from X-Forwarded-For.
TEST(ModerationProcess, TheDailyLimitCountsThePlayersBehindATrustedProxyApart) {
  ServerProcess server(std::nullopt, 0,
                       {"--trusted-proxies", "127.0.0.1", "--registrations-per-address", "1"});
  const auto reg = [&](const std::string& name, const std::string& from) {
    return http_request(server.port(), "POST", "/api/v1/register",
                        "Content-Type: application/json\r\nX-Forwarded-For: " + from + "\r\n",
                        R"({"username":")" + name + R"(","password":"a fine password"})");
  };
  EXPECT_TRUE(reg("first", "203.0.113.7").starts_with("HTTP/1.1 201"));
  const std::string second = reg("second", "198.51.100.1, 203.0.113.7");
  EXPECT_TRUE(second.starts_with("HTTP/1.1 429")) << second;
  EXPECT_NE(second.find("too_many_registrations"), std::string::npos);
  EXPECT_TRUE(reg("third", "203.0.113.8").starts_with("HTTP/1.1 201")) << "another player";
}

}  // namespace
}  // namespace tengen::testing
