// Simuls (docs/events.md, "Simuls") on both backends, a real SQLite file and a real PostgreSQL,
// with the clock in the test's hands: the form's checks; joining until the boards are taken,
// never twice, never the host's own, nobody who blocks or is blocked by the host, at most a few
// open simuls per player; leaving and cancelling before the start only; the start by the host
// alone, with at least two players, once, opening one game per player with the host White, the
// stones an automatic handicap gives by rank and a first move's time that grows with the boards;
// the results table and "finished" once every game
// has ended (the games are rows of the real games table, ended by the test as the server would
// end them; the real server and the browser play them in tests/web/simul.mjs).
#include "events/simuls.h"

#include <gtest/gtest.h>

#include <memory>

#include "protocol/codec.h"
#include "support/manual_clock.h"
#include "support/sql_backend.h"

namespace tengen {
namespace {

namespace wire = protocol::http;

struct Started {
  std::int64_t game, black, white;
  protocol::GameSettings settings;
};

class SimulRules : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    backend_ = testing::SqlBackend::open(GetParam());
    store_ = std::make_unique<store::SimulStore>(backend_->connect());
    for (int i = 1; i <= 8; ++i)
      backend_->exec("INSERT INTO users(id, username, password_hash, created_at) VALUES (" +
                     std::to_string(i) + ", '" + names_[i] + "', 'h', 1)");
    // The host is 4 dan (2850); bob 2 dan (2650), cyd 3 kyu (2250), dee 6 dan (3050); the others
    // have no rated game (1500, 10 kyu).
    for (const auto& [user, rating] :
         std::vector<std::pair<int, int>>{{1, 2850}, {2, 2650}, {3, 2250}, {4, 3050}})
      backend_->exec(
          "INSERT INTO ratings(user_id, rating, deviation, volatility, games, updated_at) VALUES "
          "(" +
          std::to_string(user) + ", " + std::to_string(rating) + ", 60, 0.06, 20, 1)");
    simuls_ = std::make_unique<Simuls>(
        Simuls::Services{
            .store = *store_,
            .clock = clock_,
            .start_game = [this](const protocol::GameSettings& settings, std::int64_t black,
                                 std::int64_t white, std::chrono::milliseconds start_timeout)
                -> std::variant<std::int64_t, std::string> {
              first_move_ = start_timeout;
              if (black == refuse_) return std::string("the account is suspended");
              const auto id = 100 + static_cast<std::int64_t>(started_.size());
              backend_->exec(
                  "INSERT INTO games(id, settings, first_id, second_id, black_id,"
                  " white_id, created_at) VALUES (" +
                  std::to_string(id) + ", '" + protocol::encode_settings(settings) + "', " +
                  std::to_string(black) + ", " + std::to_string(white) + ", " +
                  std::to_string(black) + ", " + std::to_string(white) + ", 1)");
              started_.push_back({id, black, white, settings});
              return id;
            },
            .blocked_by =
                [](std::int64_t user) {
                  return user == 8 ? std::vector<std::int64_t>{1} : std::vector<std::int64_t>{};
                },
            .protected_student = [](std::int64_t user) { return user == 7; }},
        Simuls::Limits{.open = 3, .joined = 2, .list = 50, .actions_burst = 1000});
  }
  store::UserRecord user(int i) { return store::UserRecord{i, names_[i], "", i == 7}; }
  static wire::SimulForm form(const std::string& settings, int boards = 4) {
    const auto decoded =
        wire::decode_simul_form(R"({"name": "Friday simul", "boards": )" + std::to_string(boards) +
                                R"(, "settings": )" + settings + "}");
    EXPECT_TRUE(std::holds_alternative<wire::SimulForm>(decoded)) << std::get<std::string>(decoded);
    return std::get<wire::SimulForm>(decoded);
  }
  std::int64_t simul(const wire::SimulForm& f, int host = 1) {
    const auto made = simuls_->create(user(host), f);
    if (const auto* no = std::get_if<Simuls::Refusal>(&made)) ADD_FAILURE() << no->message;
    return std::holds_alternative<std::int64_t>(made) ? std::get<std::int64_t>(made) : 0;
  }
  static std::string code(const Simuls::Maybe& no) { return no ? no->code : ""; }
  template <class T>
  static std::string code(const Simuls::Answer<T>& a) {
    const auto* no = std::get_if<Simuls::Refusal>(&a);
    return no ? no->code : "";
  }
  wire::SimulPage page(std::int64_t id) {
    auto p = simuls_->page(id);
    EXPECT_TRUE(std::holds_alternative<wire::SimulPage>(p));
    return std::get<wire::SimulPage>(std::move(p));
  }
  void end(std::int64_t game, const std::string& result) {
    backend_->exec("UPDATE games SET ended_at = 2, result = '" + result +
                   "' WHERE id = " + std::to_string(game));
  }

  std::unique_ptr<testing::SqlBackend> backend_;
  std::unique_ptr<store::SimulStore> store_;
  testing::ManualClock clock_;
  std::unique_ptr<Simuls> simuls_;
  std::vector<Started> started_;
  std::int64_t refuse_ = 0;
  std::chrono::milliseconds first_move_{0};
  const char* names_[9] = {"", "ann", "bob", "cyd", "dee", "eve", "fay", "robot", "hal"};
};

TEST_P(SimulRules, TheFormSaysWhatIsNotForASimul) {
  const auto refused = [](const std::string& body) {
    const auto d = wire::decode_simul_form(body);
    return std::holds_alternative<std::string>(d) ? std::get<std::string>(d) : "";
  };
  const std::string settings = R"("settings": {"width": 9, "time": {"system": "none"}})";
  EXPECT_EQ(refused(R"({"name": "x", "boards": 4, )" + settings + "}"), "");
  EXPECT_NE(refused(R"({"name": "x", "boards": 31, )" + settings + "}").find("2 to 30"),
            std::string::npos);
  EXPECT_NE(refused(R"({"name": "x", "boards": 1, )" + settings + "}").find("2 to 30"),
            std::string::npos);
  EXPECT_NE(refused(R"({"name": "", )" + settings + "}").find("1 to 60 characters"),
            std::string::npos);
  EXPECT_NE(refused(R"({"name": "x", "settings": {"color": "black"}})").find("host plays White"),
            std::string::npos);
  EXPECT_NE(refused(R"({"name": "x", "settings": {"rated": true}})").find("unrated"),
            std::string::npos);
  EXPECT_NE(refused(R"({"name": "x", "who": 1, )" + settings + "}").find("unknown field 'who'"),
            std::string::npos);
  EXPECT_NE(refused(R"({"name": "x", "settings": {"width": 9, "handicap": 12}})").find("handicap"),
            std::string::npos);
  // Stones, or "automatic": the host White either way.
  const auto fixed = form(R"({"width": 19, "handicap": 4})");
  EXPECT_EQ(fixed.settings.handicap, 4);
  EXPECT_EQ(fixed.settings.color, protocol::GameSettings::ColorChoice::White);
  EXPECT_TRUE(form(R"({"handicap": "automatic"})").settings.automatic_handicap);
}

TEST_P(SimulRules, PlayersJoinUntilTheBoardsAreTakenAndTheHostStartsOneGameEach) {
  const auto id = simul(form(R"({"width": 19, "handicap": "automatic"})", 4));
  EXPECT_EQ(code(simuls_->create(user(1), form("{}"))), "simul_running") << "one at a time";
  EXPECT_EQ(code(simuls_->join(id, user(1))), "host_plays_all");
  EXPECT_EQ(code(simuls_->join(id, user(8))), "blocked") << "hal blocks the host";
  EXPECT_EQ(code(simuls_->join(id, user(7))), "protected_student") << "a class's student";
  EXPECT_EQ(code(simuls_->start(id, user(1))), "too_few_players");
  for (const int p : {2, 3, 4}) EXPECT_EQ(code(simuls_->join(id, user(p))), "");
  EXPECT_EQ(code(simuls_->join(id, user(2))), "already_joined");
  EXPECT_EQ(code(simuls_->leave(id, user(5))), "not_joined");
  EXPECT_EQ(code(simuls_->join(id, user(5))), "");
  EXPECT_EQ(code(simuls_->join(id, user(6))), "simul_full") << "four boards";
  EXPECT_EQ(code(simuls_->leave(id, user(5))), "");
  EXPECT_EQ(code(simuls_->join(id, user(6))), "");

  auto before = page(id);
  EXPECT_EQ(before.simul.state, "open");
  EXPECT_EQ(before.simul.players, 4);
  ASSERT_EQ(before.boards.size(), 4u);
  EXPECT_EQ(before.boards[0].player.name, "bob");
  EXPECT_EQ(before.boards[0].rank, "2d");
  EXPECT_EQ(before.boards[0].handicap, 2) << "two ranks below the host: two stones";
  EXPECT_EQ(before.boards[1].handicap, 6) << "cyd, 3 kyu against 4 dan";
  EXPECT_EQ(before.boards[2].handicap, 0) << "dee is stronger than the host: even";
  EXPECT_EQ(before.boards[3].player.name, "fay");
  EXPECT_EQ(before.boards[3].handicap, 9) << "10 kyu: at most nine";

  EXPECT_EQ(code(simuls_->start(id, user(2))), "not_host");
  const auto started = simuls_->start(id, user(1));
  ASSERT_EQ(code(started), "");
  EXPECT_EQ(std::get<int>(started), 4);
  EXPECT_EQ(code(simuls_->start(id, user(1))), "not_open") << "started once";
  EXPECT_EQ(code(simuls_->join(id, user(5))), "not_open");
  EXPECT_EQ(code(simuls_->leave(id, user(2))), "not_open");
  EXPECT_EQ(code(simuls_->cancel(id, user(1))), "not_open");
  ASSERT_EQ(started_.size(), 4u);
  for (const auto& g : started_) {
    EXPECT_EQ(g.white, 1) << "the host is White on every board";
    EXPECT_FALSE(g.settings.automatic_handicap);
    EXPECT_FALSE(g.settings.rated);
    EXPECT_FALSE(protocol::validate(g.settings)) << *protocol::validate(g.settings);
  }
  EXPECT_EQ(first_move_, std::chrono::milliseconds(120'000))
      << "a minute and 20 s for each of the three boards after the first";
  EXPECT_EQ(simuls_->start_timeout(30), std::chrono::minutes(10)) << "at most ten minutes";
  EXPECT_EQ(started_[0].black, 2);
  EXPECT_EQ(started_[0].settings.handicap, 2);
  EXPECT_EQ(started_[0].settings.komi, 0.5);
  EXPECT_EQ(started_[2].settings.handicap, 0);
  EXPECT_FALSE(started_[2].settings.komi) << "an even game keeps the ruleset's komi";

  // The results table fills as the games end; "finished" with the last.
  end(started_[0].game, "W+R");
  end(started_[1].game, "B+3.5");
  auto during = page(id);
  EXPECT_EQ(during.simul.state, "playing");
  EXPECT_EQ(during.simul.games_over, 2);
  EXPECT_EQ(during.boards[0].game, started_[0].game);
  EXPECT_EQ(during.boards[0].result, "W+R");
  EXPECT_EQ(during.boards[0].handicap, 2);
  EXPECT_EQ(during.boards[2].result, "");
  EXPECT_EQ(code(simuls_->create(user(1), form("{}"))), "simul_running") << "still playing";
  end(started_[2].game, "W+1.5");
  end(started_[3].game, "B+R");
  EXPECT_EQ(page(id).simul.state, "finished");
  EXPECT_NE(simul(form("{}")), 0) << "the host may announce the next one";
  const auto list = simuls_->list();
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[1].id, id);
  EXPECT_EQ(list[1].state, "finished");
  EXPECT_EQ(list[0].state, "open");
}

TEST_P(SimulRules, AGameThatCannotStartLeavesThePlayerOutAndTheOthersPlay) {
  const auto id = simul(form(R"({"width": 9})"));
  for (const int p : {2, 3, 4}) EXPECT_EQ(code(simuls_->join(id, user(p))), "");
  refuse_ = 3;
  const auto started = simuls_->start(id, user(1));
  ASSERT_EQ(code(started), "");
  EXPECT_EQ(std::get<int>(started), 2);
  const auto p = page(id);
  ASSERT_EQ(p.boards.size(), 2u);
  EXPECT_EQ(p.boards[0].player.name, "bob");
  EXPECT_EQ(p.boards[1].player.name, "dee");
  EXPECT_EQ(started_[0].settings.handicap, 0);
}

TEST_P(SimulRules, NothingStartsWhenNoGameCanAndTheSimulStaysOpen) {
  const auto id = simul(form(R"({"width": 9})"));
  for (const int p : {2, 3}) EXPECT_EQ(code(simuls_->join(id, user(p))), "");
  simuls_ = std::make_unique<Simuls>(
      Simuls::Services{
          .store = *store_,
          .clock = clock_,
          .start_game = [](const protocol::GameSettings&, std::int64_t, std::int64_t,
                           std::chrono::milliseconds) -> std::variant<std::int64_t, std::string> {
            return std::string("the database is away");
          },
          .blocked_by = {}},
      Simuls::Limits{});
  EXPECT_EQ(code(simuls_->start(id, user(1))), "unavailable");
  const auto p = page(id);
  EXPECT_EQ(p.simul.state, "open");
  EXPECT_EQ(p.boards.size(), 2u) << "nobody was dropped";
}

TEST_P(SimulRules, OpenSimulsAndJoinsAreBoundedAndTheHostMayCancelBeforeTheStart) {
  EXPECT_EQ(code(simuls_->create(user(7), form("{}"))), "bots_cannot");
  const auto a = simul(form("{}"), 1);
  const auto b = simul(form("{}"), 2);
  const auto c = simul(form("{}"), 3);
  EXPECT_EQ(code(simuls_->create(user(4), form("{}"))), "too_many_simuls") << "three open";
  EXPECT_EQ(code(simuls_->join(a, user(5))), "");
  EXPECT_EQ(code(simuls_->join(b, user(5))), "");
  EXPECT_EQ(code(simuls_->join(c, user(5))), "too_many_joined") << "two at once";
  EXPECT_EQ(code(simuls_->cancel(a, user(5))), "not_host");
  EXPECT_EQ(code(simuls_->cancel(a, user(1))), "");
  EXPECT_EQ(code(simuls_->join(a, user(6))), "not_open");
  EXPECT_NE(simuls_->join(a, user(6))->message.find("cancelled"), std::string::npos);
  EXPECT_EQ(code(simuls_->join(c, user(5))), "") << "the cancelled one no longer counts";
  EXPECT_NE(simul(form("{}"), 4), 0) << "two open now";
  EXPECT_EQ(simuls_->list().size(), 3u) << "the cancelled one is not listed";
  EXPECT_EQ(code(simuls_->page(a + 100)), "not_found");
}

INSTANTIATE_TEST_SUITE_P(Backends, SimulRules, ::testing::Values("sqlite", "postgres"),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

}  // namespace
}  // namespace tengen
