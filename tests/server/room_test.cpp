// Room logic without the network or the store: a fake connection records what the room sends
// (delivered by hand from its outbox), and recovery is checked against the rows it wrote.
#include "rooms/room.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/recorder.h"

namespace tengen {
namespace {

using json = nlohmann::json;

using testing::Recorder;

protocol::GameSettings settings(const char* ruleset, int size) {
  protocol::GameSettings s;
  s.width = s.height = size;
  s.ruleset = *parse_ruleset(ruleset);
  s.color = protocol::GameSettings::ColorChoice::Black;
  return s;
}

constexpr std::int64_t kBlack = 1;
constexpr std::int64_t kWhite = 2;
const Steady t0{std::chrono::hours(5)};
const MoveTiming kAt0{t0, {}, {}};

Room make_room(const char* ruleset, int size) {
  return Room(1, settings(ruleset, size), {kBlack, "b"}, {kWhite, "w"}, std::nullopt, t0);
}

void ok(const Room::Reply& r) {
  if (const auto* e = std::get_if<protocol::Error>(&r)) ADD_FAILURE() << e->message;
}

// What the room's owner does when play stops: the dead-stone suggestion, here and now.
void suggest(Room& room) {
  if (auto job = room.take_suggestion_job())
    room.suggested(*job, suggest_dead_stones(job->board, job->options));
}

// What the journal does once the rows are durable: send. Returns the rows.
std::vector<store::Write> deliver(Room& room) {
  Outbox out;
  room.drain_into(out);
  for (const auto& [to, text] : out.sends) to->send(text);
  return out.writes;
}

TEST(Room, ASuicideListsTheMoversOwnStonesAsLeavingTheBoard) {
  Room room = make_room("new-zealand", 5);
  auto watcher = std::make_shared<Recorder>(std::nullopt);
  ok(room.join(watcher, "j", std::nullopt, t0));
  for (const auto& [user, vertex] :
       std::vector<std::pair<std::int64_t, const char*>>{{kBlack, "A5"},
                                                         {kWhite, "B5"},
                                                         {kBlack, "E1"},
                                                         {kWhite, "A3"},
                                                         {kBlack, "E2"},
                                                         {kWhite, "B4"},
                                                         {kBlack, "A4"}}) {
    ok(room.play(user, vertex, vertex, kAt0));
  }
  deliver(room);
  // Black A5-A4 has no liberty left after A4: under New Zealand rules that suicide is legal.
  EXPECT_EQ(watcher->received.back()["captured"], json::array({"A5", "A4"}));
}

TEST(Room, UndoTakesBackTheRequestersMoveAndTheReply) {
  Room room = make_room("japanese", 9);
  ok(room.play(kBlack, "1", "E5", kAt0));
  ok(room.play(kWhite, "2", "C3", kAt0));
  ok(room.play(kBlack, "3", "G7", kAt0));
  ok(room.play(kWhite, "4", "C7", kAt0));
  ok(room.request_undo(kBlack, "5"));  // G7 and White's reply C7
  EXPECT_EQ(std::get<protocol::Error>(room.request_undo(kBlack, "6")).code,
            protocol::ErrorCode::Conflict);
  EXPECT_EQ(std::get<protocol::Error>(room.answer_undo(kBlack, "7", true, t0)).code,
            protocol::ErrorCode::Forbidden);
  ok(room.answer_undo(kWhite, "8", true, t0));
  const auto snap = room.snapshot_for(store::UserRecord{kBlack, "b", "", false, 0}, t0);
  ASSERT_EQ(snap.moves.size(), 2u);
  EXPECT_EQ(snap.moves[1].vertex, "C3");
  EXPECT_EQ(snap.to_move, Color::Black);
  EXPECT_EQ(std::get<protocol::Error>(room.answer_undo(kWhite, "9", true, t0)).message,
            "there is no undo request to answer");
}

TEST(Room, PlayersSeeTheSpectatorsChatOnlyAfterTheGame) {
  Room room = make_room("chinese", 9);
  auto player = std::make_shared<Recorder>(store::UserRecord{kBlack, "b", "", false, 0});
  ok(room.join(player, "j", std::nullopt, t0));
  ok(room.chat({3, "kibitzer"}, "c", "black is lost"));
  deliver(room);
  EXPECT_EQ(player->received.size(), 1u);  // only the snapshot
  ok(room.resign(kBlack, "r", t0));
  EXPECT_EQ(room.snapshot_for(player->user(), t0).chat.size(), 1u);
  EXPECT_EQ(room.snapshot_for(player->user(), t0).result, Result::resignation(Color::White));
}

// The rows a room wrote rebuild it: same moves, captures, undo, marking and acceptance.
TEST(Room, ItsStoredEventsRebuildIt) {
  Room room = make_room("japanese", 5);
  store::StoredGame stored{store::GameCreated{1, std::nullopt, "{}", kBlack, kWhite, {}, {}, 0},
                           {}};
  for (const auto& [user, vertex] :
       std::vector<std::pair<std::int64_t, const char*>>{{kBlack, "B2"},
                                                         {kWhite, "A2"},
                                                         {kBlack, "A3"},
                                                         {kWhite, "D4"},
                                                         {kBlack, "A1"},
                                                         {kWhite, "E5"}}) {
    ok(room.play(user, vertex, vertex, kAt0));
  }
  ok(room.request_undo(kWhite, "u"));
  ok(room.answer_undo(kBlack, "a", true, t0));  // E5 goes
  ok(room.play(kWhite, "p1", "pass", kAt0));
  ok(room.play(kBlack, "p2", "pass", kAt0));
  suggest(room);
  ok(room.mark(kBlack, "m", "D4", false));  // the suggestion called it dead
  const auto version = room.snapshot_for(std::nullopt, t0).marking->version;
  ok(room.accept_score(kWhite, "s", version, t0));
  for (auto& w : deliver(room)) {
    if (auto* e = std::get_if<store::GameEvent>(&w)) stored.events.push_back(*e);
  }
  const auto rebuilt =
      Room::recover(stored, settings("japanese", 5), {kBlack, "b"}, {kWhite, "w"}, t0);
  const auto a = room.snapshot_for(std::nullopt, t0);
  const auto b = rebuilt->snapshot_for(std::nullopt, t0);
  EXPECT_EQ(protocol::encode(b), protocol::encode([&] {
              auto expected = a;
              expected.absent =
                  b.absent;  // after a restart both players are away until they rejoin
              return expected;
            }()));
  EXPECT_EQ(b.moves.size(), 7u);
  EXPECT_EQ(b.captures.black, 1);
  ASSERT_TRUE(b.marking);
  EXPECT_EQ(b.marking->accepted.white, version);
  EXPECT_EQ(b.absent.size(), 2u);
  EXPECT_EQ(rebuilt->sgf(), room.sgf());

  // Once both accept, the game ends by the count; an archived game brought back has it too.
  ok(room.accept_score(kBlack, "s2", version, t0));
  for (auto& w : deliver(room)) {
    if (auto* e = std::get_if<store::GameEvent>(&w)) stored.events.push_back(*e);
  }
  const auto archived =
      Room::recover(stored, settings("japanese", 5), {kBlack, "b"}, {kWhite, "w"}, t0);
  const auto ended = room.snapshot_for(std::nullopt, t0);
  ASSERT_TRUE(ended.final_score);
  EXPECT_EQ(protocol::encode(archived->snapshot_for(std::nullopt, t0)), protocol::encode(ended));

  // A stored move that the position does not allow stops the recovery with the reason.
  stored.events[3].record = R"({"c":"white","v":"A3","clock":null})";
  try {
    Room::recover(stored, settings("japanese", 5), {kBlack, "b"}, {kWhite, "w"}, t0);
    ADD_FAILURE() << "a corrupt history was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "game 1, event 4 (move): A3 is not a legal move here: occupied");
  }
  stored.events[3].record = "{";
  EXPECT_THROW(Room::recover(stored, settings("japanese", 5), {kBlack, "b"}, {kWhite, "w"}, t0),
               std::runtime_error);
}

// Chat once grew without end and went whole into every snapshot: a flood made a game impossible
// to rejoin. Each person's lines and the spectators' channel are capped per game, the caps hold
// after a restart, and a snapshot carries the newest lines that fit its share, saying how many
// earlier ones it leaves out.
TEST(Room, ChatIsCappedPerPersonAndPerChannelAndSnapshotsCarryTheNewestThatFit) {
  RoomOptions options;
  options.chat_lines_per_person = 3;
  options.spectator_chat_lines = 4;
  Room room(1, settings("japanese", 9), {kBlack, "b"}, {kWhite, "w"}, std::nullopt, t0, options);
  store::StoredGame stored{store::GameCreated{1, std::nullopt, "{}", kBlack, kWhite, {}, {}, 0},
                           {}};
  auto store_rows = [&] {
    for (auto& w : deliver(room)) {
      if (auto* e = std::get_if<store::GameEvent>(&w)) stored.events.push_back(*e);
    }
  };
  for (int i = 0; i < 3; ++i) ok(room.chat({kBlack, "b"}, "c", "line " + std::to_string(i)));
  const auto refused = std::get<protocol::Error>(room.chat({kBlack, "b"}, "c", "one more"));
  EXPECT_EQ(refused.code, protocol::ErrorCode::Conflict);
  EXPECT_EQ(refused.message,
            "you have written 3 lines in this game's chat, the most one person may");
  ok(room.chat({kWhite, "w"}, "c", "my turn to talk"));  // the opponent's own allowance
  for (int i = 0; i < 3; ++i) ok(room.chat({10, "k1"}, "c", "kibitz"));
  ok(room.chat({11, "k2"}, "c", "kibitz too"));
  EXPECT_EQ(std::get<protocol::Error>(room.chat({12, "k3"}, "c", "and me")).message,
            "the spectators' chat of this game is full: it holds 4 lines, the most it may");
  ok(room.chat({kWhite, "w"}, "c", "players may still talk"));
  store_rows();

  const auto rebuilt =
      Room::recover(stored, settings("japanese", 9), {kBlack, "b"}, {kWhite, "w"}, t0, options);
  EXPECT_EQ(std::get<protocol::Error>(rebuilt->chat({kBlack, "b"}, "c", "after a restart")).code,
            protocol::ErrorCode::Conflict);
  EXPECT_EQ(std::get<protocol::Error>(rebuilt->chat({12, "k3"}, "c", "after a restart")).code,
            protocol::ErrorCode::Conflict);
  const store::UserRecord black{kBlack, "b", "", false, 0};
  const auto player_view = rebuilt->snapshot_for(black, t0);
  auto before = room.snapshot_for(black, t0);
  before.absent = player_view.absent;  // after a restart both players are away until they rejoin
  EXPECT_EQ(protocol::encode(player_view), protocol::encode(before));
  EXPECT_EQ(player_view.chat.size(), 5u);  // the players' channel only, during the game
  EXPECT_EQ(player_view.chat_omitted, 0);
  EXPECT_EQ(rebuilt->snapshot_for(std::nullopt, t0).chat.size(), 9u);

  // Lines as long as a message may carry, escaped six times over on the wire: a snapshot takes
  // the newest that fit its share of the outbound limit and counts the rest.
  RoomOptions roomy;
  roomy.chat_lines_per_person = 1000;
  Room busy(2, settings("japanese", 9), {kBlack, "b"}, {kWhite, "w"}, std::nullopt, t0, roomy);
  const std::string heavy(1000, '\x01');
  for (int i = 0; i < 200; ++i) ok(busy.chat({kWhite, "w"}, "c", heavy));
  ok(busy.chat({kWhite, "w"}, "c", "the newest"));
  const auto view = busy.snapshot_for(black, t0);
  const auto bytes = protocol::encode(view).size();
  EXPECT_LE(bytes, Room::kSnapshotChatBytes + 4096) << bytes;
  EXPECT_GT(view.chat_omitted, 0);
  EXPECT_EQ(view.chat.size() + static_cast<std::size_t>(view.chat_omitted), 201u);
  EXPECT_EQ(view.chat.back().text, "the newest");
}

// A client that missed more than the kept events' share of the outbound limit gets a snapshot,
// not a resumption that could never be sent.
TEST(Room, AResumptionLargerThanItsShareBecomesASnapshot) {
  RoomOptions roomy;
  roomy.chat_lines_per_person = 1000;
  Room room(1, settings("japanese", 9), {kBlack, "b"}, {kWhite, "w"}, std::nullopt, t0, roomy);
  auto back = std::make_shared<Recorder>(store::UserRecord{kBlack, "b", "", false, 0});
  const std::string heavy(1000, '\x01');
  for (int i = 0; i < 100; ++i) ok(room.chat({kWhite, "w"}, "c", heavy));  // ~600 KB
  deliver(room);
  ok(room.join(back, "j", protocol::Seq{0}, t0));
  deliver(room);
  ASSERT_EQ(back->received.size(), 1u);
  EXPECT_EQ(back->received[0]["type"], "snapshot");
  // A small gap is still a resumption.
  ok(room.chat({kWhite, "w"}, "c", "one more"));
  auto other = std::make_shared<Recorder>(store::UserRecord{kBlack, "b", "", false, 0});
  ok(room.join(other, "j", protocol::Seq{100}, t0));
  deliver(room);
  ASSERT_EQ(other->received.size(), 1u);
  EXPECT_EQ(other->received[0]["type"], "chat");
}

// Moves are bounded too (the snapshot lists them all): past the limit, only a pass.
TEST(Room, PastTheMoveLimitOnlyAPassIsPossible) {
  RoomOptions options;
  options.max_moves = 4;
  Room room(1, settings("japanese", 9), {kBlack, "b"}, {kWhite, "w"}, std::nullopt, t0, options);
  ok(room.play(kBlack, "1", "E5", kAt0));
  ok(room.play(kWhite, "2", "C3", kAt0));
  ok(room.play(kBlack, "3", "G7", kAt0));
  ok(room.play(kWhite, "4", "C7", kAt0));
  const auto refused = std::get<protocol::Error>(room.play(kBlack, "5", "D4", kAt0));
  EXPECT_EQ(refused.code, protocol::ErrorCode::Conflict);
  EXPECT_EQ(refused.message,
            "this game has 4 moves, the most a game may have: only a pass is possible now");
  ok(room.pass(kBlack, "6", kAt0));
  ok(room.pass(kWhite, "7", kAt0));
  EXPECT_EQ(room.snapshot_for(std::nullopt, t0).phase, protocol::Phase::Scoring);
}

// The dead-stone suggestion runs off the owner's lock: until it comes, the scoring phase has no
// marking to change or accept; an answer for an earlier phase is ignored; and a server stopped
// before it came asks for it again after recovery.
TEST(Room, TheScoringPhaseWaitsForItsSuggestion) {
  Room room = make_room("japanese", 5);
  store::StoredGame stored{store::GameCreated{1, std::nullopt, "{}", kBlack, kWhite, {}, {}, 0},
                           {}};
  auto store_rows = [&] {
    for (auto& w : deliver(room)) {
      if (auto* e = std::get_if<store::GameEvent>(&w)) stored.events.push_back(*e);
    }
  };
  auto watcher = std::make_shared<Recorder>(std::nullopt);
  ok(room.join(watcher, "j", std::nullopt, t0));
  ok(room.play(kBlack, "1", "C3", kAt0));
  EXPECT_FALSE(room.take_suggestion_job()) << "no job while play goes on";
  ok(room.pass(kWhite, "2", kAt0));
  ok(room.pass(kBlack, "3", kAt0));
  store_rows();
  const auto refused = std::get<protocol::Error>(room.mark(kWhite, "m", "C3", true));
  EXPECT_EQ(refused.message,
            "the server is still suggesting dead stones: the scoring phase starts in a moment");
  EXPECT_EQ(std::get<protocol::Error>(room.accept_score(kWhite, "a", 0, t0)).code,
            protocol::ErrorCode::Conflict);
  const auto waiting = room.snapshot_for(std::nullopt, t0);
  EXPECT_EQ(waiting.phase, protocol::Phase::Scoring);
  EXPECT_FALSE(waiting.marking);

  // Stopped here, the server recovers the game and asks for the suggestion again.
  const auto rebuilt =
      Room::recover(stored, settings("japanese", 5), {kBlack, "b"}, {kWhite, "w"}, t0);
  ASSERT_TRUE(rebuilt->take_suggestion_job());

  const auto job = room.take_suggestion_job();
  ASSERT_TRUE(job);
  EXPECT_FALSE(room.take_suggestion_job()) << "handed out once";
  room.suggested(*job, {});
  store_rows();
  EXPECT_EQ(watcher->received.back()["type"], "scoring_started");
  EXPECT_EQ(watcher->received.back()["marking"]["version"], 1);

  // A player resumes; the next phase's suggestion counts, a late one for the first does not.
  ok(room.resume(kBlack, "r", t0));
  ok(room.pass(kWhite, "4", kAt0));
  ok(room.pass(kBlack, "5", kAt0));
  const auto second = room.take_suggestion_job();
  ASSERT_TRUE(second);
  room.suggested(*job, {});
  EXPECT_FALSE(room.snapshot_for(std::nullopt, t0).marking);
  room.suggested(*second, {});
  ASSERT_TRUE(room.snapshot_for(std::nullopt, t0).marking);
  EXPECT_EQ(room.snapshot_for(std::nullopt, t0).marking->version, 2);
}

}  // namespace
}  // namespace tengen
