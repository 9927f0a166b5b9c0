// Floods of shared resources through the real stack (SQLite file, hub, WebSockets on loopback):
// each bound holds, the flooder is told why, and other players are not affected.
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <map>
#include <optional>
#include <string>

#include "support/many_players.h"
#include "support/server_process.h"

namespace tengen::testing {
namespace {

using json = nlohmann::json;
using namespace std::chrono_literals;

class Abuse : public ManyPlayers {
 protected:
  static json chat(std::int64_t game, const std::string& text) {
    return {{"type", "chat"}, {"game", game}, {"text", text}};
  }
  // The largest settings a challenge can carry: everything set, the longest clock.
  static json challenge() {
    return {{"type", "create_challenge"},
            {"settings",
             {{"width", 19},
              {"height", 19},
              {"ruleset", "new-zealand"},
              {"komi", -149.5},
              {"handicap", 9},
              {"placement", "fixed"},
              {"color", "white"},
              {"time",
               {{"system", "canadian"},
                {"main_ms", 86400000},
                {"stones", 25},
                {"period_ms", 86400000}}},
              {"rated", true},
              {"private", false}}}};
  }
};

TEST_F(Abuse, OpenChallengesAreCappedPerAccountAndInAllAndTheLobbyStillFits) {
  // One account: ten, then told why.
  auto flooder = player("flooder");
  for (int i = 0; i < 10; ++i) EXPECT_EQ(flooder->command(challenge())["type"], "ack");
  const json refused = flooder->command(challenge());
  EXPECT_EQ(refused["code"], "conflict") << refused.dump();
  EXPECT_EQ(refused["message"],
            "you have 10 open challenges, the most one player may have: cancel one first");

  // Many accounts: a thousand in all, then the lobby is full for everyone alike.
  for (int user = 1; user < 100; ++user) {
    auto c = player("crowd" + std::to_string(user));
    for (int i = 0; i < 10; ++i) ASSERT_EQ(c->command(challenge())["type"], "ack") << user;
  }
  auto late = player("latecomer");
  const json full = late->command(challenge());
  EXPECT_EQ(full["code"], "conflict") << full.dump();
  EXPECT_EQ(full["message"],
            "the lobby holds 1000 open challenges, the most it may: accept one, or try again "
            "later");

  // Whoever connects still gets the whole lobby, in one message well within the 1 MiB a
  // connection may have queued; and the cap holds across a restart.
  flooder.reset();  // (a client still open when the server stops keeps it 5 s for its close)
  late.reset();
  stack_.reset();
  stack_.emplace(temp_.path());
  WsClient newcomer(stack_->port(), WsClient::Options{"", "", "/ws/v1"});
  newcomer.wait_type("welcome");
  const json lobby = newcomer.wait_type("lobby");
  EXPECT_EQ(lobby["challenges"].size(), 1000u);
  const auto bytes = lobby.dump().size();
  EXPECT_LT(bytes, 1024u * 1024 / 2) << "a full lobby is " << bytes << " bytes";
  std::cout << "a full lobby (1000 challenges) is " << bytes << " bytes\n";
  stack_->clock().advance(6s);
  const std::string token = cookie_token(
      http_request(stack_->port(), "POST", "/api/v1/login", "Content-Type: application/json\r\n",
                   R"({"username":"latecomer","password":"a fine password"})"));
  WsClient again(stack_->port(), WsClient::Options{token, "", "/ws/v1"});
  again.wait_type("lobby");
  EXPECT_EQ(again.command(challenge())["code"], "conflict");
}

// An opponent once flooded the players' chat while the other player was away: the snapshot and
// the resumption outgrew the 1 MiB a connection may have queued, the game could not be rejoined,
// and the flooder claimed the win by forfeit. Now chat has its own rate per account, each person
// a cap per game, and whatever the chat holds, the game can be rejoined.
TEST_F(Abuse, AChatFloodIsRefusedAndTheGameStaysRejoinable) {
  auto black = player("black");
  auto white = player("flooder");
  auto watcher = player("watcher");
  const auto game = game_between(*black, *white);
  EXPECT_EQ(watcher->command({{"type", "join"}, {"game", game}})["type"], "ack");
  EXPECT_EQ(black->command(play(game, "D4"))["type"], "ack");
  EXPECT_EQ(white->command(play(game, "Q16"))["type"], "ack");
  const json last_seen = black->command(play(game, "Q4"));
  black.reset();  // Black goes away while White thinks

  // Lines as long as a message may carry, each character escaped six times over on the wire.
  const std::string heavy(1000, '\x01');
  for (int i = 0; i < 5; ++i) ASSERT_EQ(white->command(chat(game, heavy))["type"], "ack");
  const json limited = white->command(chat(game, heavy));
  EXPECT_EQ(limited["code"], "rate_limited") << limited.dump();
  EXPECT_EQ(limited["message"],
            "too much chat: at most 5 lines at once, then one every 2000 ms; this line was not "
            "posted");
  EXPECT_EQ(watcher->command(chat(game, "is White typing?"))["type"], "ack")
      << "one account's rate is its own";

  // At the rate allowed the flood goes on, up to each person's cap for the game.
  int posted = 5;
  json reply;
  for (;;) {
    stack_->clock().advance(2s);
    reply = white->command(chat(game, heavy));
    white->forget();
    watcher->forget();
    if (reply["type"] != "ack") break;
    ++posted;
  }
  EXPECT_EQ(posted, 300);
  EXPECT_EQ(reply["code"], "conflict") << reply.dump();
  EXPECT_EQ(reply["message"],
            "you have written 300 lines in this game's chat, the most one person may");

  // Black comes back where it left off, and on a second device afresh: both get a snapshot well
  // within the limit, with the newest lines, and play on.
  for (const bool resume : {true, false}) {
    auto back = player("black");
    json join = {{"type", "join"}, {"game", game}};
    if (resume) join["since"] = last_seen["seq"];
    ASSERT_EQ(back->command(join)["type"], "ack");
    const json snapshot = back->wait_type("snapshot");
    const auto bytes = snapshot.dump().size();
    EXPECT_LT(bytes, 512u * 1024) << bytes;
    EXPECT_GT(snapshot["chat_omitted"].get<int>(), 0);
    EXPECT_EQ(snapshot["chat"].back()["text"], heavy);
    EXPECT_EQ(snapshot["chat"].size() + snapshot["chat_omitted"].get<std::size_t>(), 300u);
    std::cout << "a snapshot after a chat flood is " << bytes << " bytes, "
              << snapshot["chat"].size() << " lines\n";
    if (resume) black = std::move(back);
  }
  EXPECT_EQ(white->command(play(game, "R16"))["type"], "ack");
  EXPECT_EQ(black->wait([](const json& m) { return m["type"] == "move"; })["vertex"], "R16");
}

// An account's chat rate is not handed a fresh burst by a restart (nor, in a cluster, by a new
// hub, which recovers the same way): the lines of the last moments, read back with the games in
// play, count again.
TEST_F(Abuse, TheChatRateHoldsAcrossARestart) {
  auto black = player("black");
  auto white = player("chatter");
  const auto game = game_between(*black, *white);
  for (int i = 0; i < 5; ++i)
    ASSERT_EQ(white->command(chat(game, "line " + std::to_string(i)))["type"], "ack");
  EXPECT_EQ(white->command(chat(game, "one more"))["code"], "rate_limited");

  black.reset();
  white.reset();
  stack_.reset();
  stack_.emplace(temp_.path());
  white = player("chatter");
  const json refused = white->command(chat(game, "after the restart"));
  EXPECT_EQ(refused["code"], "rate_limited") << refused.dump();
  stack_->clock().advance(2s);  // one more line every 2 s, as before
  EXPECT_EQ(white->command(chat(game, "after a while"))["type"], "ack");
  EXPECT_EQ(white->command(chat(game, "and at once"))["code"], "rate_limited");
}

// Spectators share one channel per game: it holds 2000 lines, then it is full for everyone
// alike, while the players' own chat goes on.
TEST_F(Abuse, TheSpectatorsChannelOfAGameIsBounded) {
  auto black = player("black");
  auto white = player("white");
  const auto game = game_between(*black, *white);
  std::vector<std::unique_ptr<WsClient>> crowd;
  for (int i = 0; i < 7; ++i) {
    crowd.push_back(player("kibitzer" + std::to_string(i)));
    ASSERT_EQ(crowd.back()->command({{"type", "join"}, {"game", game}})["type"], "ack");
  }
  int posted = 0;
  json reply;
  for (int round = 0; round < 300 && posted < 2001; ++round) {
    stack_->clock().advance(2s);
    for (auto& c : crowd) {
      reply = c->command(chat(game, "line " + std::to_string(posted)));
      c->forget();
      if (reply["type"] != "ack") break;
      ++posted;
    }
    if (reply["type"] != "ack") break;
  }
  EXPECT_EQ(posted, 2000);
  EXPECT_EQ(reply["message"],
            "the spectators' chat of this game is full: it holds 2000 lines, the most it may");
  EXPECT_EQ(black->command(chat(game, "players may still talk"))["type"], "ack");
  auto latecomer = player("latecomer");
  ASSERT_EQ(latecomer->command({{"type", "join"}, {"game", game}})["type"], "ack");
  const json snapshot = latecomer->wait_type("snapshot");
  EXPECT_EQ(snapshot["chat"].size(), 201u) << "the players' line and 200 spectators' lines";
  EXPECT_EQ(snapshot["chat_omitted"], 1800);
}

json tournament(const std::string& name, std::int64_t starts_at_ms) {
  return {{"type", "create_tournament"},
          {"settings",
           {{"name", name},
            {"system", "swiss"},
            {"rounds", 3},
            {"game", {{"width", 9}, {"height", 9}}},
            {"starts_at_ms", starts_at_ms}}}};
}

// Tournaments were unlimited per account, each creation was sent to every connection, and the
// list was one unpaged answer. Now an account directs at most 5 not yet over and creates at most
// 10 a day, changes go only to those watching, and the list comes in pages.
TEST_F(Abuse, TournamentsAreCappedPerDirectorToldOnlyToWatchersAndListedInPages) {
  auto director = player("director");
  auto list_page = player("list-reader");
  auto bystander = player("bystander");
  EXPECT_EQ(list_page->command({{"type", "watch_tournaments"}})["type"], "ack");
  auto soon = [&] { return stack_->clock().unix_ms() + 60'000; };

  for (int i = 1; i <= 5; ++i)
    ASSERT_EQ(director->command(tournament("Cup " + std::to_string(i), soon()))["type"], "ack");
  const json sixth = director->command(tournament("Cup 6", soon()));
  EXPECT_EQ(sixth["code"], "conflict") << sixth.dump();
  EXPECT_EQ(sixth["message"],
            "you direct 5 tournaments that are not over, the most one player may");

  // The list's reader heard of all five; the bystander, who looks at no tournament, of none.
  for (int i = 1; i <= 5; ++i) {
    EXPECT_EQ(list_page->wait_type("tournament_changed")["tournament"], i);
  }
  EXPECT_EQ(bystander->command({{"type", "ping"}})["type"], "pong");
  for (const auto& m : bystander->kept()) EXPECT_NE(m["type"], "tournament_changed") << m.dump();

  // One tournament's page hears of that tournament only.
  auto page = player("page-reader");
  EXPECT_EQ(page->command({{"type", "watch_tournaments"}, {"tournament", 2}})["type"], "ack");
  EXPECT_EQ(page->command({{"type", "watch_tournaments"}, {"tournament", 99}})["code"],
            "not_found");
  EXPECT_EQ(bystander->command({{"type", "tournament_register"}, {"tournament", 1}})["type"],
            "ack");
  EXPECT_EQ(bystander->command({{"type", "tournament_register"}, {"tournament", 2}})["type"],
            "ack");
  EXPECT_EQ(page->wait_type("tournament_changed")["tournament"], 2);
  EXPECT_EQ(page->command({{"type", "unwatch_tournaments"}})["type"], "ack");
  EXPECT_EQ(bystander->command({{"type", "tournament_leave"}, {"tournament", 2}})["type"], "ack");
  EXPECT_EQ(page->command({{"type", "ping"}})["type"], "pong");
  for (const auto& m : page->kept()) EXPECT_NE(m["type"], "tournament_changed") << m.dump();

  // Once they are over (too few players at the start time), five more; then the day's ten are
  // used up, whatever is open, across a restart, until a day has passed.
  stack_->advance(61s);
  for (int i = 6; i <= 10; ++i)
    ASSERT_EQ(director->command(tournament("Cup " + std::to_string(i), soon()))["type"], "ack");
  stack_->advance(61s);
  director.reset();  // (a client still open when the server stops keeps it 5 s for its close)
  list_page.reset();
  bystander.reset();
  page.reset();
  stack_.reset();
  stack_.emplace(temp_.path());
  director = player("director");
  const json eleventh = director->command(tournament("Cup 11", soon()));
  EXPECT_EQ(eleventh["code"], "rate_limited") << eleventh.dump();
  EXPECT_EQ(eleventh["message"],
            "you created 10 tournaments in the last 24 hours, the most one player may");
  stack_->advance(25h);  // (the restarted stack's clock began again where the first one did)
  const json later = director->command(tournament("Cup 11", soon()));
  EXPECT_EQ(later["type"], "ack") << later.dump();

  // The list in pages, newest first.
  std::vector<int> ids;
  std::string next = "/api/v1/tournaments?limit=4";
  for (int pages = 0; pages < 10 && !next.empty(); ++pages) {
    const json list = json::parse(body_of(http_get(stack_->port(), next)));
    ASSERT_TRUE(list.contains("tournaments")) << list.dump();
    EXPECT_LE(list["tournaments"].size(), 4u);
    for (const auto& t : list["tournaments"]) ids.push_back(t["id"].get<int>());
    next = list["next_before"].is_null() ? ""
                                         : "/api/v1/tournaments?limit=4&before=" +
                                               std::to_string(list["next_before"].get<int>());
  }
  EXPECT_EQ(ids, (std::vector<int>{11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1}));
  EXPECT_EQ(json::parse(
                body_of(http_get(stack_->port(), "/api/v1/tournaments?limit=0")))["error"]["code"],
            "bad_request");
}

// What the hub sees of a logged-in user's WebSocket, without the socket: a crowd of thousands
// online costs a test no file descriptors.
class Present final : public Connection {
 public:
  Present(std::uint64_t id, std::int64_t user, std::string name)
      : id_(id), user_(store::UserRecord{user, std::move(name), "", false, 0}) {}
  void send(std::shared_ptr<const std::string>) override {}
  std::uint64_t id() const override { return id_; }
  const std::optional<store::UserRecord>& user() const override { return user_; }

 private:
  std::uint64_t id_;
  std::optional<store::UserRecord> user_;
};

// The lobby message once named everyone online: past ~20,000 players it would outgrow the 1 MiB a
// connection may have queued, and a crowd arriving at once (a restart) made one presence message
// as large. Now the lobby names at most 500 and counts all, and presence comes 500 at a time.
TEST_F(Abuse, ACrowdOnlineFitsTheLobbyAndThePresenceMessages) {
  auto watcher = player("watcher");
  constexpr int kCrowd = 3000;
  std::vector<std::shared_ptr<Present>> crowd;
  for (int i = 0; i < kCrowd; ++i) {
    crowd.push_back(std::make_shared<Present>((std::uint64_t{1} << 40) + i, 100'000 + i,
                                              "crowd" + std::to_string(i)));
    stack_->centre().router().connected(crowd.back());
  }
  int told = 0, messages = 0;
  while (told < kCrowd && messages < 20) {
    stack_->advance(Lobby::kPresenceInterval);
    const json presence = watcher->wait_type("presence");
    ++messages;
    EXPECT_LE(presence["online"].size() + presence["offline"].size(), 500u);
    EXPECT_EQ(presence["online_count"], kCrowd + 1);
    told += static_cast<int>(presence["online"].size());
  }
  EXPECT_EQ(told, kCrowd);
  EXPECT_EQ(messages, kCrowd / 500);

  WsClient newcomer(stack_->port(), WsClient::Options{"", "", "/ws/v1"});
  newcomer.wait_type("welcome");
  const json lobby = newcomer.wait_type("lobby");
  EXPECT_EQ(lobby["online"].size(), 500u);
  EXPECT_EQ(lobby["online_count"], kCrowd + 1);
  EXPECT_LT(lobby.dump().size(), 32u * 1024);
  for (const auto& c : crowd) stack_->centre().router().disconnected(c);
}

// One account reconnecting as fast as it can (a broken client, a script): each arrival and
// departure once went to everyone. They are gathered, so the others get one presence message per
// interval with the latest word, and their game goes on.
TEST_F(Abuse, AReconnectStormCostsTheOthersOneMessageAnInterval) {
  auto black = player("black");
  auto white = player("white");
  const auto game = game_between(*black, *white);
  stack_->advance(Lobby::kPresenceInterval);  // the arrivals so far are told
  auto storm = player("storm");
  const std::string token = tokens_["storm"];
  storm.reset();
  for (int i = 0; i < 100; ++i) {
    WsClient c(stack_->port(), WsClient::Options{token, "", "/ws/v1"});
    c.wait_type("lobby");
  }
  EXPECT_EQ(black->command(play(game, "D4"))["type"], "ack");
  EXPECT_EQ(white->wait([](const json& m) { return m["type"] == "move"; })["vertex"], "D4");
  stack_->advance(Lobby::kPresenceInterval);
  EXPECT_EQ(white->command({{"type", "ping"}})["type"], "pong");
  int presences = 0;
  for (const auto& m : white->kept()) presences += m["type"] == "presence" ? 1 : 0;
  EXPECT_LE(presences, 2) << "200 arrivals and departures, told once or twice";
  EXPECT_EQ(white->command(play(game, "Q16"))["type"], "ack");
}

// Registrations from one address: ten at once, then one every 6 s, each refusal saying when to
// try again; the accounts already made are not affected.
TEST_F(Abuse, RegistrationsFromOneAddressAreRateLimited) {
  auto registered = player("settled");
  int created = 0;
  std::string refused;
  for (int i = 0; i < 30 && refused.empty(); ++i) {
    const std::string reply = http_request(
        stack_->port(), "POST", "/api/v1/register", "Content-Type: application/json\r\n",
        R"({"username":"bulk)" + std::to_string(i) + R"(","password":"a fine password"})");
    if (reply.starts_with("HTTP/1.1 201")) {
      ++created;
    } else {
      refused = reply;
    }
  }
  EXPECT_LE(created, 10);
  EXPECT_TRUE(refused.starts_with("HTTP/1.1 429")) << refused;
  EXPECT_NE(refused.find("Retry-After: 6\r\n"), std::string::npos) << refused;
  EXPECT_EQ(registered->command({{"type", "ping"}})["type"], "pong");
  stack_->clock().advance(6s);
  EXPECT_TRUE(http_request(stack_->port(), "POST", "/api/v1/register",
                           "Content-Type: application/json\r\n",
                           R"({"username":"patient","password":"a fine password"})")
                  .starts_with("HTTP/1.1 201"));
}

}  // namespace
}  // namespace tengen::testing

namespace tengen::testing {
namespace {

// A declined direct challenge once vanished with no word: now the challenger is told who declined
// it and, when they said, why; the reason has a bound like every text a client sends.
TEST_F(ManyPlayers, ADeclinedChallengeSaysWhoDeclinedItAndWhy) {
  auto ann = player("ann");
  auto bob = player("bob");
  auto challenge = [&] {
    return ann->command({{"type", "create_challenge"},
                         {"opponent", "bob"},
                         {"settings", {{"width", 9}, {"color", "black"}}}})["challenge"];
  };
  const auto first = challenge();
  ASSERT_EQ(bob->command({{"type", "decline_challenge"}, {"challenge", first}})["type"], "ack");
  const json closed = ann->wait(
      [&](const json& m) { return m["type"] == "challenge_closed" && m["challenge"] == first; });
  EXPECT_EQ(closed["reason"], "declined");
  EXPECT_EQ(closed["by"]["name"], "bob");
  EXPECT_FALSE(closed.contains("why"));

  const auto second = challenge();
  EXPECT_EQ(bob->command({{"type", "decline_challenge"},
                          {"challenge", second},
                          {"why", std::string(201, 'x')}})["code"],
            "bad_field");
  ASSERT_EQ(bob->command({{"type", "decline_challenge"},
                          {"challenge", second},
                          {"why", "I only play 19x19"}})["type"],
            "ack");
  EXPECT_EQ(ann->wait([&](const json& m) {
    return m["type"] == "challenge_closed" && m["challenge"] == second;
  })["why"],
            "I only play 19x19");
  // A cancel by its author names nobody.
  const auto third = challenge();
  ASSERT_EQ(ann->command({{"type", "cancel_challenge"}, {"challenge", third}})["type"], "ack");
  EXPECT_FALSE(bob->wait([&](const json& m) {
                    return m["type"] == "challenge_closed" && m["challenge"] == third;
                  })
                   .contains("by"));
}

}  // namespace
}  // namespace tengen::testing
