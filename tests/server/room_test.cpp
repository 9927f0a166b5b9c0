// Room logic without the network or the store: a fake connection records what the room sends
// (delivered by hand from its outbox), and recovery is checked against the rows it wrote.
#include "rooms/room.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace tengen {
namespace {

using json = nlohmann::json;

class Recorder final : public Connection {
 public:
  explicit Recorder(std::optional<store::UserRecord> user) : user_(std::move(user)) {}
  void send(std::shared_ptr<const std::string> message) override {
    received.push_back(json::parse(*message));
  }
  std::uint64_t id() const override { return 1; }
  const std::optional<store::UserRecord>& user() const override { return user_; }
  std::vector<json> received;

 private:
  std::optional<store::UserRecord> user_;
};

protocol::GameSettings settings(const char* ruleset, int size) {
  protocol::GameSettings s;
  s.width = s.height = size;
  s.ruleset = ruleset;
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
  EXPECT_EQ(snap.to_move, "black");
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
  EXPECT_EQ(room.snapshot_for(player->user(), t0).result, "W+R");
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
  EXPECT_EQ(b.black_captures, 1);
  ASSERT_TRUE(b.marking);
  EXPECT_EQ(b.marking->white_accepted, version);
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

}  // namespace
}  // namespace tengen
