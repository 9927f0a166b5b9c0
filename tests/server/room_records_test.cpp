// The records a room stores to be rebuilt after a restart (rooms/room_records.h): each reads
// back as written; a later schema and a broken record are refused with the event named; and the
// games of tests/fixtures/records/schema-1.json, stored by the release that wrote schema 1,
// recover exactly as they were (their SGF and what a spectator is shown).
#include "rooms/room_records.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "rooms/room.h"
#include "support/paths.h"

namespace tengen {
namespace {

using json = nlohmann::json;

store::GameEvent event(const std::string& kind, std::optional<std::string> record,
                       std::string text = "{}") {
  return store::GameEvent{1, 3, kind, false, std::move(record), std::move(text), 0, {}, {}};
}

TEST(RoomRecords, EachRecordReadsBackAsWritten) {
  const std::array<PlayerTime, 2> clocks{PlayerTime{60'000, 3, 10'000, 0, 2'500},
                                         PlayerTime{55'000, 2, 7'000, 0, 3'000}};
  const std::vector<std::pair<std::string, records::Record>> cases = {
      {"move", records::Moved{Color::White, "D4", clocks}},
      {"move", records::Moved{Color::Black, "pass", std::nullopt}},
      {"undo_request", records::UndoAsked{Color::White}},
      {"undo_answer", records::UndoAnswered{true}},
      {"chat", records::Chatted{{7, "kibitzer"}, protocol::Channel::Spectators, "who \"wins\"?\n"}},
      {"nigiri", records::NigiriChosen{false, "holder-seed", std::nullopt}},
      {"nigiri_done", records::NigiriChosen{true, "guesser-seed", "even"}},
      {"marking", records::Marked{{"C3", "D3"}, 4}},
      {"accept", records::ScoreAccepted{Color::Black, 4}},
      {"resume", records::Resumed{Color::White}},
      {"end", records::Ended{Result::resignation(Color::White), std::nullopt}},
      {"conditional", records::ConditionalSet{Color::White, {"C7 D7 C6 D6", "G3 G4"}}},
      {"conditional", records::ConditionalSet{Color::Black, {}}},
  };
  for (const auto& [kind, record] : cases) {
    const auto read = records::read(event(kind, records::encode(record)));
    ASSERT_TRUE(read) << kind;
    EXPECT_EQ(records::encode(*read), records::encode(record)) << kind;
    EXPECT_EQ(read->index(), record.index()) << kind;
  }
  const auto move = std::get<records::Moved>(
      *records::read(event("move", records::encode(records::Moved{Color::White, "D4", clocks}))));
  EXPECT_EQ(move.color, Color::White);
  ASSERT_TRUE(move.clocks);
  EXPECT_EQ((*move.clocks)[1], clocks[1]);
  // A scored game's count is read from the event's text, stored beside the record.
  const auto ended = std::get<records::Ended>(*records::read(event(
      "end", R"({"result":"B+3.5"})",
      R"({"type":"game_ended","score":{"black":40,"white":36.5,"result":"B+3.5","ownership":"bw."}})")));
  ASSERT_TRUE(ended.score);
  EXPECT_EQ(ended.score->ownership, "bw.");
  // Events that change nothing a restart needs have no record.
  EXPECT_FALSE(records::read(event("left", std::nullopt)));
}

TEST(RoomRecords, ALaterSchemaOrABrokenRecordIsRefusedNamingTheEvent) {
  auto refusal = [](const store::GameEvent& e) -> std::string {
    try {
      records::read(e);
    } catch (const std::runtime_error& problem) {
      return problem.what();
    }
    return "read";
  };
  EXPECT_EQ(refusal(event("move", R"({"schema":2,"c":"black","v":"D4","clock":null})")),
            "game 1, event 3 (move): the record is of schema version 2, written by a newer "
            "Tengen; this one reads up to version 1");
  EXPECT_EQ(refusal(event("move", R"({"schema":1,"c":"black","v":"D4","clock":null})")), "read");
  EXPECT_EQ(refusal(event("move", R"({"c":"blue","v":"D4","clock":null})")),
            "game 1, event 3 (move): 'c' is not a colour: blue");
  EXPECT_EQ(refusal(event("juggle", "{}")),
            "game 1, event 3 (juggle): a record of an unknown kind");
  EXPECT_EQ(refusal(event("end", R"({"result":"B+lots"})")),
            "game 1, event 3 (end): 'B+lots' is not a result");
  EXPECT_EQ(refusal(event("accept", "[1]")),
            "game 1, event 3 (accept): the record is not a JSON object");
  EXPECT_TRUE(
      refusal(event("move", "{")).starts_with("game 1, event 3 (move): unreadable record: "));
}

TEST(RoomRecords, GamesStoredBySchemaOneRecoverAsTheyWere) {
  std::ifstream in(tengen::testing::paths::fixtures() + "/records/schema-1.json");
  ASSERT_TRUE(in) << "tests/fixtures/records/schema-1.json is missing";
  const json fixture = json::parse(in);
  const Steady start{std::chrono::hours(fixture.at("start_hours").get<int>())};
  ASSERT_EQ(fixture.at("games").size(), 2u);
  for (const json& g : fixture.at("games")) {
    const json& created = g.at("created");
    store::StoredGame stored{
        store::GameCreated{created.at("id"), std::nullopt, created.at("settings"), 1, 2, {}, {}, 0},
        {}};
    if (created.contains("nigiri")) {
      stored.created.nigiri_secret = created.at("nigiri").at("secret");
      stored.created.nigiri_nonce = created.at("nigiri").at("nonce");
    }
    for (const json& e : g.at("events")) {
      stored.events.push_back(store::GameEvent{
          stored.created.id,
          e.at("seq"),
          e.at("kind"),
          e.at("spectators_only"),
          e.at("record").is_null() ? std::nullopt
                                   : std::optional<std::string>(e.at("record").get<std::string>()),
          e.at("text"),
          0,
          {},
          {}});
    }
    const auto settings =
        std::get<protocol::GameSettings>(protocol::decode_settings(stored.created.settings));
    const auto room =
        Room::recover(stored, settings, {1, "black"}, {2, "white"}, start, RoomOptions{});
    EXPECT_EQ(room->sgf(), g.at("expected").at("sgf").get<std::string>()) << created.dump();
    EXPECT_EQ(json::parse(protocol::encode(room->snapshot_for(std::nullopt, start))),
              g.at("expected").at("snapshot"))
        << created.dump();
  }
}

}  // namespace
}  // namespace tengen
