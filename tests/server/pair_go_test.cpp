// Pair Go and rengo in the room (docs/events.md, "Pair Go"): the strict order of the four players,
// refused in words out of turn; the colour's one clock; the team chat that the other team never
// reads, live, in snapshots, or after a restart; the teams in the SGF; and the teams' settings
// that no client can give.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "protocol/codec.h"
#include "rooms/room.h"
#include "support/recorder.h"

namespace tengen {
namespace {

using json = nlohmann::json;

using testing::Recorder;

// Black: amy (B1) and bob (B2); White: carl (W1) and dora (W2).
constexpr std::int64_t kAmy = 11, kBob = 12, kCarl = 21, kDora = 22, kKibitzer = 30;
const Steady t0{std::chrono::hours(5)};
const MoveTiming kAt0{t0, {}, {}};

store::UserRecord user(std::int64_t id, const char* name) {
  return store::UserRecord{id, name, "", false, 0};
}

protocol::GameSettings pair_settings(int team_size = 2) {
  protocol::GameSettings s;
  s.width = s.height = 9;
  s.ruleset = Ruleset::Japanese;
  s.color = protocol::GameSettings::ColorChoice::Black;
  s.time.system = protocol::TimeControl::System::Absolute;
  s.time.main_ms = 600'000;
  protocol::Teams teams{{{kAmy, "amy"}, {kBob, "bob"}}, {{kCarl, "carl"}, {kDora, "dora"}}};
  if (team_size == 3) {
    teams.black.push_back({41, "eve"});
    teams.white.push_back({42, "finn"});
  }
  s.teams = teams;
  return s;
}

Room pair_room(int team_size = 2) {
  return Room(7, pair_settings(team_size), {kAmy, "amy"}, {kCarl, "carl"}, std::nullopt, t0);
}

void ok(const Room::Reply& r) {
  if (const auto* e = std::get_if<protocol::Error>(&r)) ADD_FAILURE() << e->message;
}

std::vector<store::Write> deliver(Room& room) {
  Outbox out;
  room.drain_into(out);
  for (const auto& [to, text] : out.sends) to->send(text);
  return out.writes;
}

std::vector<std::string> chat_texts(const std::vector<json>& received) {
  std::vector<std::string> texts;
  for (const auto& m : received) {
    if (m["type"] == "chat") texts.push_back(m["line"]["text"]);
    if (m["type"] == "snapshot")
      for (const auto& line : m["chat"]) texts.push_back(line["text"]);
  }
  return texts;
}

TEST(PairGo, ThePartnersPlayInTurnAndAMoveOutOfOrderIsRefusedInWords) {
  Room room = pair_room();
  ok(room.play(kAmy, "1", "E5", kAt0));  // B1
  // Bob is Black too, but Black's next move after White's is his, and now it is White's.
  auto refused = std::get<protocol::Error>(room.play(kBob, "2", "C3", kAt0));
  EXPECT_EQ(refused.code, protocol::ErrorCode::NotYourTurn);
  EXPECT_EQ(refused.message, "it is white's move");
  // White's first move is carl's: dora is refused, by name.
  refused = std::get<protocol::Error>(room.play(kDora, "3", "C3", kAt0));
  EXPECT_EQ(refused.code, protocol::ErrorCode::NotYourTurn);
  EXPECT_EQ(refused.message,
            "it is your partner carl's move for white: in pair Go the partners play in turn");
  ok(room.play(kCarl, "4", "C3", kAt0));  // W1
  refused = std::get<protocol::Error>(room.play(kAmy, "5", "G7", kAt0));
  EXPECT_EQ(refused.message,
            "it is your partner bob's move for black: in pair Go the partners play in turn");
  ok(room.play(kBob, "6", "G7", kAt0));  // B2
  ok(room.pass(kDora, "7", kAt0));       // W2: a pass is a move in the order too
  ok(room.play(kAmy, "8", "C7", kAt0));  // B1 again
  EXPECT_EQ(std::get<protocol::Error>(room.play(kDora, "9", "G3", kAt0)).message,
            "it is your partner carl's move for white: in pair Go the partners play in turn");
  ok(room.play(kCarl, "10", "G3", kAt0));
  // Nothing refused changed the game: six moves, in the order played.
  const auto snap = room.snapshot_for(user(kBob, "bob"), t0);
  ASSERT_EQ(snap.moves.size(), 6u);
  EXPECT_EQ(snap.moves[2].vertex, "G7");
  EXPECT_EQ(snap.role, protocol::Role::Black);  // a member plays the team's colour
  // Each player's list of games says whose move it is: bob's, not amy's.
  EXPECT_TRUE(room.my_game(kBob, t0).your_move);
  EXPECT_FALSE(room.my_game(kAmy, t0).your_move);
  EXPECT_FALSE(room.my_game(kDora, t0).your_move);
  EXPECT_EQ(room.players(), (std::vector<std::int64_t>{kAmy, kBob, kCarl, kDora}));
  EXPECT_TRUE(room.plays(kDora));
  EXPECT_FALSE(room.plays(kKibitzer));
}

TEST(PairGo, AnUndoKeepsTheOrderAndRengoTeamsOfThreeGoRound) {
  Room room = pair_room(3);
  ok(room.play(kAmy, "1", "E5", kAt0));        // B1
  ok(room.play(kCarl, "2", "C3", kAt0));       // W1
  ok(room.play(kBob, "3", "G7", kAt0));        // B2
  ok(room.request_undo(kBob, "4"));            // G7 goes: B2 again
  ok(room.answer_undo(kDora, "5", true, t0));  // any member of the other team answers
  EXPECT_EQ(std::get<protocol::Error>(room.play(kAmy, "6", "G7", kAt0)).message,
            "it is your partner bob's move for black: in pair Go the partners play in turn");
  ok(room.play(kBob, "7", "G7", kAt0));   // B2
  ok(room.play(kDora, "8", "C7", kAt0));  // W2
  ok(room.play(41, "9", "G3", kAt0));     // B3: eve
  ok(room.play(42, "10", "D4", kAt0));    // W3: finn
  EXPECT_EQ(std::get<protocol::Error>(room.play(41, "11", "F4", kAt0)).message,
            "it is your partner amy's move for black: in pair Go the partners play in turn");
  ok(room.play(kAmy, "12", "F4", kAt0));  // B1 again
}

TEST(PairGo, WithHandicapStonesWhiteBeginsAndEachTeamStillGoesInItsOrder) {
  auto settings = pair_settings();
  settings.handicap = 2;
  settings.placement = protocol::GameSettings::Placement::Fixed;
  settings.komi = 0.5;
  Room room(8, settings, {kAmy, "amy"}, {kCarl, "carl"}, std::nullopt, t0);
  EXPECT_EQ(std::get<protocol::Error>(room.play(kAmy, "1", "E5", kAt0)).message,
            "it is white's move");
  ok(room.play(kCarl, "2", "E5", kAt0));  // W1
  ok(room.play(kAmy, "3", "B2", kAt0));   // B1
  EXPECT_EQ(std::get<protocol::Error>(room.play(kCarl, "4", "H2", kAt0)).message,
            "it is your partner dora's move for white: in pair Go the partners play in turn");
  ok(room.play(kDora, "5", "H2", kAt0));  // W2
  ok(room.play(kBob, "6", "A9", kAt0));   // B2
}

TEST(PairGo, TheTeamChatStaysWithTheTeamLiveInSnapshotsAndAfterARestart) {
  Room room = pair_room();
  std::map<std::int64_t, std::shared_ptr<Recorder>> page;
  for (const auto& [id, name] : std::vector<std::pair<std::int64_t, const char*>>{
           {kAmy, "amy"}, {kBob, "bob"}, {kCarl, "carl"}, {kDora, "dora"}, {kKibitzer, "kib"}}) {
    page[id] = std::make_shared<Recorder>(user(id, name));
    ok(room.join(page[id], "j", std::nullopt, t0));
  }
  ok(room.chat({kAmy, "amy"}, "c1", "take the corner", 0, true));
  ok(room.chat({kCarl, "carl"}, "c2", "they are weak on the left", 0, true));
  ok(room.chat({kBob, "bob"}, "c3", "good game, everyone"));  // the players' chat: all four
  const auto refused =
      std::get<protocol::Error>(room.chat({kKibitzer, "kib"}, "c4", "hi", 0, true));
  EXPECT_EQ(refused.message, "only the players of a pair Go game have a team chat");
  auto rows = deliver(room);
  const std::vector<std::string> black = {"take the corner", "good game, everyone"};
  const std::vector<std::string> white = {"they are weak on the left", "good game, everyone"};
  EXPECT_EQ(chat_texts(page[kAmy]->received), black);
  EXPECT_EQ(chat_texts(page[kBob]->received), black);
  EXPECT_EQ(chat_texts(page[kCarl]->received), white);
  EXPECT_EQ(chat_texts(page[kDora]->received), white);
  // A spectator reads the players' chat, never a team's.
  EXPECT_EQ(chat_texts(page[kKibitzer]->received), std::vector<std::string>{"good game, everyone"});

  const auto lines_of = [](const protocol::GameSnapshot& s) {
    std::vector<std::string> texts;
    for (const auto& l : s.chat) texts.push_back(l.text);
    return texts;
  };
  EXPECT_EQ(lines_of(room.snapshot_for(user(kBob, "bob"), t0)), black);
  EXPECT_EQ(lines_of(room.snapshot_for(user(kDora, "dora"), t0)), white);
  EXPECT_EQ(room.snapshot_for(user(kDora, "dora"), t0).chat_omitted, 0);

  // Rebuilt from its rows: the same lines for each, and a White member resuming from before
  // amy's line is not sent it.
  store::StoredGame stored{store::GameCreated{7, std::nullopt, "{}", kAmy, kCarl, {}, {}, 0}, {}};
  for (auto& w : rows)
    if (auto* e = std::get_if<store::GameEvent>(&w)) stored.events.push_back(*e);
  auto rebuilt = Room::recover(stored, pair_settings(), {kAmy, "amy"}, {kCarl, "carl"}, t0);
  EXPECT_EQ(lines_of(rebuilt->snapshot_for(user(kBob, "bob"), t0)), black);
  EXPECT_EQ(lines_of(rebuilt->snapshot_for(user(kCarl, "carl"), t0)), white);
  auto dora = std::make_shared<Recorder>(user(kDora, "dora"));
  ok(rebuilt->join(dora, "j", protocol::Seq{0}, t0));
  deliver(*rebuilt);
  EXPECT_EQ(chat_texts(dora->received), white);

  // Nor after the game.
  ok(room.resign(kDora, "r", t0));
  EXPECT_EQ(lines_of(room.snapshot_for(user(kKibitzer, "kib"), t0)),
            std::vector<std::string>{"good game, everyone"});
}

TEST(PairGo, TheColoursClockIsTheTeamsAndTheSgfNamesAllFour) {
  Room room = pair_room();
  ok(room.play(kAmy, "1", "E5", kAt0));
  ok(room.play(kCarl, "2", "C3", {t0 + std::chrono::seconds(5), {}, {}}));
  ok(room.play(kBob, "3", "G7", {t0 + std::chrono::seconds(35), {}, {}}));  // Black thought 30 s
  const auto snap = room.snapshot_for(std::nullopt, t0 + std::chrono::seconds(35));
  ASSERT_TRUE(snap.clock);
  EXPECT_EQ(snap.clock->black.main_ms, 600'000 - 30'000);  // one clock for amy and bob
  ok(room.resign(kDora, "r", t0 + std::chrono::seconds(40)));
  const auto sgf = room.sgf();
  EXPECT_NE(sgf.find("PB[amy & bob]"), std::string::npos) << sgf;
  EXPECT_NE(sgf.find("PW[carl & dora]"), std::string::npos) << sgf;
}

TEST(PairGo, TeamsAreTheServersOwnNoClientGivesThem) {
  auto settings = pair_settings();
  const auto stored = protocol::encode_settings(settings);
  // As stored (and as sent between nodes) the teams come back...
  const auto back = protocol::decode_stored_settings(stored);
  ASSERT_TRUE(std::holds_alternative<protocol::GameSettings>(back));
  EXPECT_EQ(std::get<protocol::GameSettings>(back), settings);
  // ...but a client's settings cannot carry them, in a challenge or a form.
  const auto given = protocol::decode_settings(stored);
  ASSERT_TRUE(std::holds_alternative<std::string>(given));
  EXPECT_EQ(std::get<std::string>(given), "unknown field 'settings.teams'");
  const auto challenge = protocol::decode_client(
      R"({"v":1,"type":"create_challenge","cid":"c","settings":)" + stored + "}");
  ASSERT_TRUE(std::holds_alternative<protocol::Error>(challenge));
  EXPECT_EQ(std::get<protocol::Error>(challenge).message, "unknown field 'settings.teams'");
}

}  // namespace
}  // namespace tengen
