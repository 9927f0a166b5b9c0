// Pair Go games (docs/events.md, "Pair Go") on both backends, a real SQLite file and a real
// PostgreSQL, with the clock in the test's hands: the form's checks; joining a team until it is
// full, never twice, nobody who blocks or is blocked by someone already in; leaving and
// cancelling before the start only; the start by the host alone, with both teams full, once,
// opening one game whose settings name the teams in the order their members joined; the
// result and "finished" once the game has ended (a row of the real games table, ended by the test
// as the server would; the real server and the browser play it in tests/web/pair_go.mjs).
#include "events/pair_games.h"

#include <gtest/gtest.h>

#include <memory>

#include "protocol/codec.h"
#include "support/manual_clock.h"
#include "support/sql_backend.h"

namespace tengen {
namespace {

namespace wire = protocol::http;

class PairRules : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    backend_ = testing::SqlBackend::open(GetParam());
    store_ = std::make_unique<store::PairStore>(backend_->connect());
    for (int i = 1; i <= 8; ++i)
      backend_->exec("INSERT INTO users(id, username, password_hash, created_at) VALUES (" +
                     std::to_string(i) + ", '" + names_[i] + "', 'h', 1)");
    pairs_ = std::make_unique<PairGames>(
        PairGames::Services{
            .store = *store_,
            .clock = clock_,
            .start_game = [this](const protocol::GameSettings& settings, std::int64_t black,
                                 std::int64_t white) -> std::variant<std::int64_t, std::string> {
              if (refuse_) return std::string("the database is away");
              const auto id = 100 + static_cast<std::int64_t>(started_.size());
              backend_->exec(
                  "INSERT INTO games(id, settings, first_id, second_id, black_id,"
                  " white_id, created_at) VALUES (" +
                  std::to_string(id) + ", '" + protocol::encode_settings(settings) + "', " +
                  std::to_string(black) + ", " + std::to_string(white) + ", " +
                  std::to_string(black) + ", " + std::to_string(white) + ", 1)");
              started_.push_back(settings);
              return id;
            },
            .blocked_by =
                [](std::int64_t user) {
                  return user == 8 ? std::vector<std::int64_t>{2} : std::vector<std::int64_t>{};
                },
            .protected_student = [](std::int64_t user) { return user == 6; }},
        PairGames::Limits{.open = 2, .joined = 2, .list = 50, .actions_burst = 1000});
  }
  store::UserRecord user(int i) { return store::UserRecord{i, names_[i], "", i == 7}; }
  static std::variant<wire::PairForm, std::string> read(const std::string& body) {
    return wire::decode_pair_form(body);
  }
  static std::string why(const std::string& body) {
    const auto r = read(body);
    return std::holds_alternative<std::string>(r) ? std::get<std::string>(r) : "";
  }
  // A player joins a second after the last (a team plays in the order its players joined).
  ActionMaybe join(std::int64_t id, int u, Color team) {
    clock_.advance(std::chrono::seconds(1));
    return pairs_->join(id, user(u), team);
  }
  std::int64_t pair(int team_size = 2, int host = 1) {
    const auto f = read(R"({"name": "Pair Go night", "team_size": )" + std::to_string(team_size) +
                        R"(, "settings": {"width": 9, "time": {"system": "absolute",)"
                        R"( "main_ms": 600000}}})");
    EXPECT_TRUE(std::holds_alternative<wire::PairForm>(f)) << std::get<std::string>(f);
    const auto made = pairs_->create(user(host), std::get<wire::PairForm>(f));
    if (const auto* no = std::get_if<ActionRefusal>(&made)) ADD_FAILURE() << no->message;
    return std::holds_alternative<std::int64_t>(made) ? std::get<std::int64_t>(made) : 0;
  }
  static std::string code(const ActionMaybe& no) { return no ? no->code : ""; }
  template <class T>
  static std::string code(const ActionAnswer<T>& a) {
    const auto* no = std::get_if<ActionRefusal>(&a);
    return no ? no->code : "";
  }
  wire::PairPage page(std::int64_t id) {
    auto p = pairs_->page(id);
    EXPECT_TRUE(std::holds_alternative<wire::PairPage>(p));
    return std::get<wire::PairPage>(std::move(p));
  }
  static std::vector<std::string> names(const std::vector<wire::PairMember>& team) {
    std::vector<std::string> out;
    for (const auto& m : team) out.push_back(m.player.name);
    return out;
  }

  std::unique_ptr<testing::SqlBackend> backend_;
  std::unique_ptr<store::PairStore> store_;
  testing::ManualClock clock_;
  std::unique_ptr<PairGames> pairs_;
  std::vector<protocol::GameSettings> started_;
  bool refuse_ = false;
  const char* names_[9] = {"", "ann", "bob", "cyd", "dee", "eve", "fay", "robot", "hal"};
};

TEST_P(PairRules, TheFormSaysWhatIsNotForAPairGoGame) {
  EXPECT_EQ(why(R"({"name": "x", "settings": {"rated": true}})"),
            "field 'settings.rated' is not for a pair Go game: the teams choose their colour when "
            "they join, and the game is public and unrated");
  EXPECT_EQ(why(R"({"name": "x", "settings": {"color": "white"}})").substr(0, 23),
            "field 'settings.color' ");
  EXPECT_EQ(why(R"({"name": "x", "settings": {"handicap": "automatic"}})"),
            "a pair Go game's handicap is given in stones (0, or 2 to 9): teams have no one rank");
  EXPECT_EQ(why(R"({"name": "x", "settings": {"time": {"system": "correspondence",)"
                R"( "per_move_ms": 86400000, "max_ms": 0}}})"),
            "a pair Go game is played live: choose a clock other than correspondence");
  EXPECT_EQ(why(R"({"name": "x", "settings": {}, "team_size": 5})"),
            "field 'team_size' must be 2 (pair Go), 3 or 4 (rengo)");
  EXPECT_EQ(why(R"({"name": "x", "settings": {"teams": {}}})"), "unknown field 'settings.teams'");
  EXPECT_EQ(why(R"({"name": " ", "settings": {}})"),
            "a pair Go game's name has 1 to 60 characters, no control characters");
  EXPECT_EQ(why(R"({"name": "x", "settings": {}, "boards": 3})"), "unknown field 'boards'");
  const auto team = wire::decode_pair_join(R"({"team": "red"})");
  EXPECT_EQ(std::get<std::string>(team), "field 'team' must be \"black\" or \"white\"");
}

TEST_P(PairRules, TeamsFillInTheOrderTheirMembersJoinAndTheStartNamesThem) {
  const auto id = pair();
  EXPECT_EQ(code(join(id, 2, Color::Black)), "");
  EXPECT_EQ(code(join(id, 3, Color::White)), "");
  EXPECT_EQ(code(join(id, 2, Color::White)), "already_joined");
  EXPECT_EQ(code(join(id, 4, Color::Black)), "");
  EXPECT_EQ(code(join(id, 5, Color::Black)), "team_full");
  // hal blocks bob, who is in: hal joins neither team.
  EXPECT_EQ(code(join(id, 8, Color::White)), "blocked");
  // fay is a protected class's student: she plays her class's games.
  EXPECT_EQ(code(join(id, 6, Color::White)), "protected_student");
  // Not both teams full: no start; not the host: no start.
  EXPECT_EQ(code(pairs_->start(id, user(1))), "teams_not_full");
  EXPECT_EQ(code(join(id, 1, Color::White)), "");  // the host may play
  EXPECT_EQ(code(pairs_->start(id, user(2))), "not_host");
  auto p = page(id);
  EXPECT_EQ(names(p.black), (std::vector<std::string>{"bob", "dee"}));
  EXPECT_EQ(names(p.white), (std::vector<std::string>{"cyd", "ann"}));
  EXPECT_EQ(p.pair.black, 2);
  EXPECT_EQ(p.pair.state, "open");
  EXPECT_EQ(p.black[0].rank, "10k?");

  const auto started = pairs_->start(id, user(1));
  ASSERT_EQ(code(started), "");
  EXPECT_EQ(std::get<std::int64_t>(started), 100);
  ASSERT_EQ(started_.size(), 1u);
  const auto& teams = started_[0].teams;
  ASSERT_TRUE(teams);
  EXPECT_EQ(teams->black, (std::vector<protocol::TeamMember>{{2, "bob"}, {4, "dee"}}));
  EXPECT_EQ(teams->white, (std::vector<protocol::TeamMember>{{3, "cyd"}, {1, "ann"}}));
  EXPECT_EQ(started_[0].color, protocol::GameSettings::ColorChoice::Black);
  EXPECT_FALSE(started_[0].rated);
  // Started: nobody joins, leaves or starts it again; its page links the game.
  EXPECT_EQ(code(pairs_->start(id, user(1))), "not_open");
  EXPECT_EQ(code(pairs_->leave(id, user(2))), "not_open");
  EXPECT_EQ(code(join(id, 5, Color::White)), "not_open");
  EXPECT_EQ(code(pairs_->cancel(id, user(1))), "not_open");
  p = page(id);
  EXPECT_EQ(p.pair.state, "playing");
  EXPECT_EQ(p.pair.game, 100);
  // While its game is played the host announces no other; once it ended, they may.
  const auto f = read(R"({"name": "again", "settings": {}})");
  EXPECT_EQ(code(pairs_->create(user(1), std::get<wire::PairForm>(f))), "pair_running");
  backend_->exec("UPDATE games SET ended_at = 2, result = 'W+R' WHERE id = 100");
  p = page(id);
  EXPECT_EQ(p.pair.state, "finished");
  EXPECT_EQ(p.pair.result, "W+R");
  EXPECT_EQ(code(pairs_->create(user(1), std::get<wire::PairForm>(f))), "");
}

TEST_P(PairRules, LeavingCancellingAndTheBounds) {
  const auto id = pair(3);
  EXPECT_EQ(code(pairs_->leave(id, user(2))), "not_joined");
  EXPECT_EQ(code(join(id, 2, Color::Black)), "");
  EXPECT_EQ(code(pairs_->leave(id, user(2))), "");
  EXPECT_EQ(page(id).pair.black, 0);
  // A second open game of another host; a third is past the server's bound (2 in this test).
  const auto other = pair(2, 3);
  const auto f = read(R"({"name": "third", "settings": {}})");
  EXPECT_EQ(code(pairs_->create(user(4), std::get<wire::PairForm>(f))), "too_many_pairs");
  EXPECT_EQ(code(pairs_->create(user(7), std::get<wire::PairForm>(f))), "bots_cannot");
  // Joined to two open games, bob joins no third (the bound is 2 here).
  EXPECT_EQ(code(join(id, 2, Color::White)), "");
  EXPECT_EQ(code(join(other, 2, Color::Black)), "");
  EXPECT_EQ(code(pairs_->cancel(other, user(2))), "not_host");
  EXPECT_EQ(code(pairs_->cancel(other, user(3))), "");
  EXPECT_EQ(code(join(other, 5, Color::Black)), "not_open");
  // The cancelled one is not listed.
  const auto listed = pairs_->list();
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].id, id);
  EXPECT_EQ(listed[0].team_size, 3);
  EXPECT_EQ(code(pairs_->page(999)), "not_found");
}

TEST_P(PairRules, AGameThatCannotStartLeavesThePairGoGameOpen) {
  const auto id = pair();
  for (const auto& [u, c] : std::vector<std::pair<int, Color>>{
           {2, Color::Black}, {3, Color::Black}, {4, Color::White}, {5, Color::White}})
    EXPECT_EQ(code(join(id, u, c)), "");
  refuse_ = true;
  const auto started = pairs_->start(id, user(1));
  ASSERT_EQ(code(started), "cannot_start");
  EXPECT_EQ(std::get<ActionRefusal>(started).message,
            "the game could not start: the database is away");
  const auto p = page(id);
  EXPECT_EQ(p.pair.state, "open");
  EXPECT_EQ(p.pair.black + p.pair.white, 4);
  refuse_ = false;
  EXPECT_EQ(code(pairs_->start(id, user(1))), "");
}

INSTANTIATE_TEST_SUITE_P(Backends, PairRules, ::testing::Values("sqlite", "postgres"),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

}  // namespace
}  // namespace tengen
