// Seeded random play, illegal moves included, on many board sizes and under every ko/suicide
// combination. Every answer of Game::check is compared with a deliberately naive reference
// (flood fills, positions compared stone by stone), and the board's invariants are checked after
// every move. This also shows that superko by 128-bit hashes bans exactly what it should.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <tuple>

#include "engine/game.h"
#include "engine/random.h"

namespace tengen {
namespace {

// The rules from first principles: a grid of colours and whole-position histories.
class NaiveGame {
 public:
  NaiveGame(int w, int h, Rules rules)
      : w_(w), h_(h), rules_(rules), grid_(static_cast<std::size_t>(w * h), Color::Empty) {
    positions_.insert(grid_);
    situations_.insert({grid_, Color::Black});
    counts_[grid_] = 1;
  }

  MoveError check(int x, int y, Color c) const {
    if (grid_[at(x, y)] != Color::Empty) return MoveError::Occupied;
    const auto [after, captured, suicide] = result(x, y, c);
    if (suicide && !rules_.suicide_allowed) return MoveError::Suicide;
    // Ko: no move may take exactly one stone and restore the position of one move ago. Under
    // superko rules this is a superko case too; the engine names it "ko", as players do.
    if (captured == 1 && previous_ && after == *previous_) return MoveError::Ko;
    if (rules_.ko == KoRule::Simple) return MoveError::Ok;
    if (rules_.ko == KoRule::PositionalSuperko && positions_.count(after))
      return MoveError::PositionalSuperko;
    if (rules_.ko == KoRule::SituationalSuperko && situations_.count({after, opponent(c)})) {
      return MoveError::SituationalSuperko;
    }
    return MoveError::Ok;
  }

  // Returns true when the move (a legal one) makes the game void by a third repetition.
  bool play(int x, int y, Color c) {
    previous_ = grid_;
    grid_ = std::get<0>(result(x, y, c));
    positions_.insert(grid_);
    situations_.insert({grid_, opponent(c)});
    return ++counts_[grid_] >= 3 && rules_.ko == KoRule::Simple;
  }
  void pass(Color c) {
    previous_ = grid_;
    situations_.insert({grid_, opponent(c)});
  }

  const std::vector<Color>& grid() const { return grid_; }

 private:
  using Grid = std::vector<Color>;
  std::size_t at(int x, int y) const { return static_cast<std::size_t>(y * w_ + x); }

  // Liberty count of the chain at (x, y) by flood fill, and its stones.
  int chain(const Grid& g, int x, int y, std::vector<std::size_t>& stones) const {
    const Color c = g[at(x, y)];
    std::vector<bool> seen(g.size(), false);
    std::set<std::size_t> libs;
    std::vector<std::pair<int, int>> stack{{x, y}};
    seen[at(x, y)] = true;
    while (!stack.empty()) {
      const auto [cx, cy] = stack.back();
      stack.pop_back();
      stones.push_back(at(cx, cy));
      const int d[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
      for (const auto& dd : d) {
        const int nx = cx + dd[0];
        const int ny = cy + dd[1];
        if (nx < 0 || ny < 0 || nx >= w_ || ny >= h_) continue;
        const std::size_t n = at(nx, ny);
        if (g[n] == Color::Empty) libs.insert(n);
        if (g[n] == c && !seen[n]) {
          seen[n] = true;
          stack.emplace_back(nx, ny);
        }
      }
    }
    return static_cast<int>(libs.size());
  }

  std::tuple<Grid, int, bool> result(int x, int y, Color c) const {
    Grid g = grid_;
    g[at(x, y)] = c;
    int captured = 0;
    const int d[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    for (const auto& dd : d) {
      const int nx = x + dd[0];
      const int ny = y + dd[1];
      if (nx < 0 || ny < 0 || nx >= w_ || ny >= h_ || g[at(nx, ny)] != opponent(c)) continue;
      std::vector<std::size_t> stones;
      if (chain(g, nx, ny, stones) == 0) {
        for (auto s : stones) g[s] = Color::Empty;
        captured += static_cast<int>(stones.size());
      }
    }
    std::vector<std::size_t> own;
    const bool suicide = chain(g, x, y, own) == 0;
    if (suicide) {
      for (auto s : own) g[s] = Color::Empty;
    }
    return {g, captured, suicide};
  }

  int w_, h_;
  Rules rules_;
  Grid grid_;
  std::optional<Grid> previous_;
  std::set<Grid> positions_;
  std::set<std::pair<Grid, Color>> situations_;
  std::map<Grid, int> counts_;
};

struct Case {
  int width, height;
};

class StressTest : public ::testing::TestWithParam<std::tuple<KoRule, bool>> {};

TEST_P(StressTest, RandomPlayAgreesWithANaiveReference) {
  const auto [ko, suicide] = GetParam();
  Rules rules;
  rules.ko = ko;
  rules.suicide_allowed = suicide;
  const Case cases[] = {{2, 2}, {3, 3},   {4, 3},   {5, 5},  {2, 7},
                        {9, 9}, {13, 13}, {19, 19}, {25, 25}};
  long attempts = 0;
  long played = 0;
  long refused = 0;
  std::map<MoveError, int> reasons;
  for (const Case& cs : cases) {
    Rng rng(static_cast<std::uint64_t>(cs.width * 100 + cs.height) * 7 + static_cast<int>(ko) * 2 +
            suicide);
    Game game(Board(cs.width, cs.height), rules);
    NaiveGame naive(cs.width, cs.height, rules);
    const int budget = 2000 + 10 * cs.width * cs.height;
    std::optional<std::pair<int, int>> retake;  // the point of a single stone just captured
    for (int i = 0; i < budget; ++i) {
      if (game.phase() != Game::Phase::Playing) {
        game = Game(Board(cs.width, cs.height), rules);
        naive = NaiveGame(cs.width, cs.height, rules);
      }
      const Color c =
          rng.below(12) == 0 ? opponent(game.to_move()) : game.to_move();  // some out of turn
      int x = static_cast<int>(rng.below(static_cast<std::uint32_t>(cs.width)));
      int y = static_cast<int>(rng.below(static_cast<std::uint32_t>(cs.height)));
      if (retake && rng.below(2) == 0) std::tie(x, y) = *retake;  // try the ko retake often
      retake.reset();
      const Point p = rng.below(30) == 0 ? kPass : game.board().point(x, y);
      ++attempts;
      const MoveError expected = c != game.to_move() ? MoveError::WrongTurn
                                 : p == kPass        ? MoveError::Ok
                                                     : naive.check(x, y, c);
      const Hash128 before = game.board().hash();
      const std::size_t moves_before = game.moves().size();
      const MoveError got = game.play({c, p});
      ASSERT_EQ(got, expected) << cs.width << "x" << cs.height << " move " << i << " "
                               << game.board().geometry().to_gtp(p) << "\n"
                               << game.board().to_diagram();
      if (got != MoveError::Ok) {
        ++refused;
        ++reasons[got];
        ASSERT_EQ(game.board().hash(), before);
        ASSERT_EQ(game.moves().size(), moves_before);
        continue;
      }
      ++played;
      game.board().check_consistency();
      if (p == kPass) {
        naive.pass(c);
      } else {
        const auto grid_before = naive.grid();
        const bool void_game = naive.play(x, y, c);
        std::vector<int> taken;
        for (std::size_t k = 0; k < grid_before.size(); ++k) {
          if (grid_before[k] == opponent(c) && naive.grid()[k] == Color::Empty)
            taken.push_back(static_cast<int>(k));
        }
        if (taken.size() == 1) retake = std::pair{taken[0] % cs.width, taken[0] / cs.width};
        ASSERT_EQ(game.phase() == Game::Phase::Over, void_game);
      }
      for (int yy = 0; yy < cs.height; ++yy) {
        for (int xx = 0; xx < cs.width; ++xx) {
          ASSERT_EQ(game.board().at(game.board().point(xx, yy)),
                    naive.grid()[static_cast<std::size_t>(yy * cs.width + xx)]);
        }
      }
      // Passes would end the game quickly; resume so that long games and cycles happen.
      if (game.phase() == Game::Phase::Scoring) {
        game.resume(game.to_move());
        naive.pass(opponent(game.to_move()));
      }
    }
  }
  EXPECT_GT(played, 1000);
  EXPECT_GT(refused, 1000);
  EXPECT_GT(reasons[MoveError::Ko], 0);  // rare in random play; the GNU Go comparison aims at ko
  EXPECT_GT(reasons[MoveError::WrongTurn], 10);
  EXPECT_GT(reasons[suicide ? MoveError::Occupied : MoveError::Suicide], 10);
  if (ko == KoRule::PositionalSuperko) {
    EXPECT_GT(reasons[MoveError::PositionalSuperko], 3);
  }
  if (ko == KoRule::SituationalSuperko) {
    EXPECT_GT(reasons[MoveError::SituationalSuperko], 3);
  }
  RecordProperty("attempts", static_cast<int>(attempts));
}

INSTANTIATE_TEST_SUITE_P(EveryKoAndSuicideRule, StressTest,
                         ::testing::Combine(::testing::Values(KoRule::Simple,
                                                              KoRule::PositionalSuperko,
                                                              KoRule::SituationalSuperko),
                                            ::testing::Bool()));

}  // namespace
}  // namespace tengen
