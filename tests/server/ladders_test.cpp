// A group's ladders (docs/groups.md, "Ladders") in-process, on a real SQLite file, with the clock
// in the test's hands: challenges only up and within reach, one at a time; a challenge not
// accepted within its days costs the challenged their rung; a win by the challenger swaps the two
// or moves the challenger up past those between (not past those away); a loss or a jigo changes
// nothing; the history says each. The games are rows of the real games table, ended by the test
// as the server would end them; the real server plays them in groups_test.cpp.
#include "groups/ladders.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "protocol/codec.h"
#include "store/migrate.h"
#include "store/sql.h"
#include "store/sqlite.h"
#include "support/manual_clock.h"
#include "support/temp_database.h"

namespace tengen {
namespace {

using namespace std::chrono_literals;
constexpr std::int64_t kDay = 24LL * 3600 * 1000;

class LadderRules : public ::testing::Test {
 protected:
  LadderRules() : db_(temp_.path()) {
    store::migrate(db_);
    groups_ = std::make_unique<store::GroupStore>(store::sql::sqlite_connection(temp_.path()));
    store_ = std::make_unique<store::LadderStore>(store::sql::sqlite_connection(temp_.path()));
    ladders_ = std::make_unique<Ladders>(
        Ladders::Services{
            .store = *store_,
            .groups = *groups_,
            .clock = clock_,
            .start_game = [this](const protocol::GameSettings& settings, std::int64_t black,
                                 std::int64_t white) -> std::variant<std::int64_t, std::string> {
              const auto id = ++games_;
              db_.exec(
                  "INSERT INTO games(id, settings, first_id, second_id,"
                  " black_id, white_id, created_at) VALUES (" +
                  std::to_string(id) + ", '" + protocol::encode_settings(settings) + "', " +
                  std::to_string(black) + ", " + std::to_string(white) + ", " +
                  std::to_string(black) + ", " + std::to_string(white) + ", 1)");
              return id;
            },
            .changed = [this](const store::GroupRow&) { ++told_; },
            .blocked_by = {}},
        Ladders::Limits{});
    for (int i = 1; i <= 6; ++i)
      db_.exec("INSERT INTO users(id, username, password_hash, created_at) VALUES (" +
               std::to_string(i) + ", '" + names_[i] + "', 'h', 1)");
    group_ = *groups_->create({"Club", "", "open", 1}, clock_.unix_ms());
    for (int i = 2; i <= 6; ++i) groups_->set_role(group_, i, "member", clock_.unix_ms());
  }
  store::UserRecord user(int i) { return store::UserRecord{i, names_[i], "", false}; }
  // A ladder with these players from the top down.
  std::int64_t ladder(const std::string& on_win, std::vector<int> players, int reach = 2) {
    protocol::http::LadderForm form;
    form.name = "Ladder";
    form.settings.width = form.settings.height = 9;
    form.reach = reach;
    form.accept_days = 3;
    form.on_win = on_win;
    const auto made = ladders_->create(group_, user(1), form);
    EXPECT_TRUE(std::holds_alternative<std::int64_t>(made));
    const auto id = std::get<std::int64_t>(made);
    for (const int p : players) EXPECT_FALSE(ladders_->join(id, user(p)));
    return id;
  }
  // The names from the top rung down.
  std::string standings(std::int64_t ladder) {
    std::string out;
    for (const auto& p : store_->players(ladder))
      out += (out.empty() ? "" : " ") + p.name + (p.away ? "(away)" : "");
    return out;
  }
  std::int64_t challenge(std::int64_t ladder, int from, int to) {
    const auto made = ladders_->challenge(ladder, user(from), to);
    if (const auto* no = std::get_if<Ladders::Refusal>(&made)) ADD_FAILURE() << no->message;
    return std::holds_alternative<std::int64_t>(made) ? std::get<std::int64_t>(made) : 0;
  }
  std::string refusal(const Ladders::Answer<std::int64_t>& a) {
    const auto* no = std::get_if<Ladders::Refusal>(&a);
    return no ? no->code : "";
  }
  void end(std::int64_t game, const std::string& result) {
    db_.exec("UPDATE games SET ended_at = 2, result = '" + result +
             "' WHERE id = " + std::to_string(game));
  }
  std::vector<std::string> history(std::int64_t ladder) {
    std::vector<std::string> out;
    for (const auto& [at, text] : store_->events(ladder, 50)) {
      const auto e = nlohmann::json::parse(text);
      out.insert(out.begin(),
                 e["kind"].get<std::string>() + " " + e["user"].get<std::string>() +
                     (e.contains("other") ? " " + e["other"].get<std::string>() : "") +
                     (e.contains("rung") ? " " + std::to_string(e["rung"].get<int>()) : ""));
    }
    return out;
  }

  testing::TempDatabase temp_;
  store::Database db_;
  testing::ManualClock clock_;
  std::unique_ptr<store::GroupStore> groups_;
  std::unique_ptr<store::LadderStore> store_;
  std::unique_ptr<Ladders> ladders_;
  std::int64_t group_ = 0;
  std::int64_t games_ = 0;
  int told_ = 0;
  const char* names_[7] = {"", "ann", "bob", "cyd", "dee", "eve", "fay"};
};

TEST_F(LadderRules, AChallengeGoesUpWithinReachOneAtATime) {
  const auto id = ladder("swap", {1, 2, 3, 4, 5});
  EXPECT_EQ(standings(id), "ann bob cyd dee eve");
  EXPECT_EQ(refusal(ladders_->challenge(id, user(5), 2)), "out_of_reach") << "three rungs up";
  EXPECT_EQ(refusal(ladders_->challenge(id, user(2), 4)), "not_above");
  EXPECT_EQ(refusal(ladders_->challenge(id, user(6), 1)), "not_on_ladder");
  challenge(id, 5, 3);  // eve, two rungs up
  EXPECT_EQ(refusal(ladders_->challenge(id, user(5), 4)), "challenge_waiting");
  EXPECT_EQ(refusal(ladders_->challenge(id, user(4), 3)), "defender_busy");
  EXPECT_EQ(refusal(ladders_->accept(id, 1, user(5))), "not_yours");
  EXPECT_EQ(told_, 7) << "made, five joined, one challenge";
}

// A vacation of the account (docs/correspondence.md) freezes the player's rung as "away" does: not
// challengeable (and skipped by move-up, which reads the same marks), and a challenge waiting for
// them when its deadline comes lapses instead of costing the rung.
TEST_F(LadderRules, AVacationFreezesTheRung) {
  const auto id = ladder("move_up", {1, 2, 3, 4});
  const auto now = clock_.unix_ms();
  const auto vacation = [&](int user, std::int64_t from, std::int64_t to) {
    db_.exec("INSERT INTO vacations(user_id, from_ms, to_ms) VALUES (" + std::to_string(user) +
             ", " + std::to_string(from) + ", " + std::to_string(to) + ")");
  };
  vacation(3, now, now + 10 * kDay);  // cyd, from now on
  EXPECT_EQ(standings(id), "ann bob cyd dee");
  EXPECT_TRUE(store_->players(id, clock_.unix_ms())[2].away);
  EXPECT_EQ(refusal(ladders_->challenge(id, user(4), 3)), "defender_away");
  // bob is challenged by dee, then goes on vacation: when the deadline comes nobody moves.
  const auto c = challenge(id, 4, 2);
  vacation(2, now + kDay, now + 20 * kDay);
  clock_.advance(std::chrono::milliseconds(3 * kDay));
  EXPECT_EQ(ladders_->sweep(), 1);
  EXPECT_EQ(store_->challenge(c)->state, "cancelled");
  EXPECT_EQ(standings(id), "ann bob cyd dee");
  EXPECT_EQ(history(id).back(), "lapsed dee bob");
  // Back from vacation: bob's rung is his to defend again.
  clock_.advance(std::chrono::milliseconds(18 * kDay));
  EXPECT_FALSE(store_->players(id, clock_.unix_ms())[1].away) << "bob is back";
}

TEST_F(LadderRules, AChallengeNotAcceptedInTimeCostsTheRung) {
  const auto id = ladder("swap", {1, 2, 3, 4});
  const auto c = challenge(id, 4, 2);  // dee challenges bob
  clock_.advance(std::chrono::milliseconds(3 * kDay - 1));
  EXPECT_EQ(ladders_->sweep(), 0) << "a moment before the deadline";
  EXPECT_EQ(standings(id), "ann bob cyd dee");
  clock_.advance(1ms);
  EXPECT_EQ(refusal(ladders_->accept(id, c, user(2))), "not_open") << "too late to accept";
  EXPECT_EQ(ladders_->sweep(), 1);
  EXPECT_EQ(standings(id), "ann dee cyd bob");
  EXPECT_EQ(store_->challenge(c)->state, "expired");
  EXPECT_EQ(ladders_->sweep(), 0) << "resolved once";
  EXPECT_EQ(history(id).back(), "expired dee bob 2");
}

TEST_F(LadderRules, AWinSwapsOrMovesUpPastThoseBetweenButNotPastThoseAway) {
  const auto swap = ladder("swap", {1, 2, 3, 4});
  const auto won = std::get<std::int64_t>(ladders_->accept(swap, challenge(swap, 4, 2), user(2)));
  EXPECT_EQ(refusal(ladders_->challenge(swap, user(3), 1)), "");  // cyd is free meanwhile
  end(won, "B+R");                                                // dee had Black
  EXPECT_EQ(ladders_->sweep(), 1);
  EXPECT_EQ(standings(swap), "ann dee cyd bob");

  const auto up = ladder("move_up", {1, 2, 3, 4, 5}, 3);
  EXPECT_FALSE(ladders_->away(up, user(3), true));  // cyd is away: her rung stays hers
  const auto game = std::get<std::int64_t>(ladders_->accept(up, challenge(up, 5, 2), user(2)));
  end(game, "B+3.5");
  ladders_->sweep();
  EXPECT_EQ(standings(up), "ann eve cyd(away) bob dee");
  EXPECT_EQ(history(up).back(), "won eve bob 2");
}

TEST_F(LadderRules, ALossOrAJigoChangesNothing) {
  const auto id = ladder("swap", {1, 2, 3});
  const auto lost = std::get<std::int64_t>(ladders_->accept(id, challenge(id, 3, 2), user(2)));
  ladders_->sweep();
  EXPECT_EQ(store_->challenge(1)->state, "playing") << "not over yet";
  end(lost, "W+R");
  ladders_->sweep();
  EXPECT_EQ(standings(id), "ann bob cyd");
  EXPECT_EQ(store_->challenge(1)->state, "lost");
  const auto drawn = std::get<std::int64_t>(ladders_->accept(id, challenge(id, 3, 1), user(1)));
  end(drawn, "0");
  ladders_->sweep();
  EXPECT_EQ(standings(id), "ann bob cyd");
  EXPECT_EQ(history(id).back(), "drawn ann cyd");
  // Leaving closes the gap.
  EXPECT_FALSE(ladders_->leave(id, user(1)));
  EXPECT_EQ(standings(id), "bob cyd");
  EXPECT_EQ(store_->players(id).front().rung, 1);
}

}  // namespace
}  // namespace tengen
