// Writes tests/fixtures/records/schema-1.json: games played through real rooms with every kind
// of stored record, their rows exactly as the store keeps them, and what each recovered room
// must show (its SGF and a spectator's snapshot). It was run once, by the release that wrote
// schema 1; the file is the fixed point that room_records_test.cpp holds every later release to
// (a later schema adds its own file, written the same way, and keeps this one).
//
//   build/dev/tests/tengen-records-fixture > tests/fixtures/records/schema-1.json
#include <iostream>
#include <nlohmann/json.hpp>

#include "rooms/room.h"

namespace {

using namespace tengen;
using json = nlohmann::json;

const Steady kStart{std::chrono::hours(5)};
constexpr std::int64_t kBlack = 1;
constexpr std::int64_t kWhite = 2;

void must(const Room::Reply& r) {
  if (const auto* e = std::get_if<protocol::Error>(&r)) throw std::runtime_error(e->message);
}

json game_json(Room& room, const protocol::GameSettings& settings,
               std::optional<std::pair<std::string, std::string>> nigiri) {
  Outbox out;
  room.drain_into(out);
  json events = json::array();
  for (const auto& w : out.writes) {
    if (const auto* e = std::get_if<store::GameEvent>(&w)) {
      events.push_back({{"seq", e->seq},
                        {"kind", e->kind},
                        {"spectators_only", e->spectators_only},
                        {"record", e->record ? json(*e->record) : json(nullptr)},
                        {"text", e->text}});
    }
  }
  json created{{"id", room.id()}, {"settings", protocol::encode_settings(settings)}};
  if (nigiri) created["nigiri"] = {{"secret", nigiri->first}, {"nonce", nigiri->second}};
  return {{"created", created},
          {"events", events},
          {"expected",
           {{"sgf", room.sgf()},
            {"snapshot", json::parse(protocol::encode(room.snapshot_for(std::nullopt, kStart)))}}}};
}

}  // namespace

int main() {
  json games = json::array();
  Steady now = kStart;
  auto at = [&](int seconds) {
    now = kStart + std::chrono::seconds(seconds);
    return MoveTiming{now, {}, {}};
  };
  {  // 9×9 with byo-yomi after a nigiri: chat, undo taken and refused, marking, resumption, count
    protocol::GameSettings s;
    s.width = s.height = 9;
    s.ruleset = Ruleset::Japanese;
    s.color = protocol::GameSettings::ColorChoice::Nigiri;
    s.time = {.system = protocol::TimeControl::System::ByoYomi,
              .main_ms = 60'000,
              .periods = 3,
              .period_ms = 10'000};
    const std::string secret(64, 'a'), nonce(32, 'b');
    Room room(1, s, {kBlack, "black"}, {kWhite, "white"}, Nigiri(secret, nonce), kStart);
    must(room.choose_nigiri(kBlack, "n1", "holder-seed-1", std::nullopt, kStart));
    must(room.choose_nigiri(kWhite, "n2", "guesser-seed-2", "odd", kStart));
    const std::int64_t b = room.black().id, w = room.white().id;
    must(room.chat({b, room.black().name}, "c1", "have a good game"));
    must(room.chat({7, "kibitzer"}, "c2", "who wins?"));
    int t = 0;
    for (const auto& [who, v] : std::vector<std::pair<std::int64_t, const char*>>{
             {b, "E5"}, {w, "C3"}, {b, "G7"}, {w, "C7"}, {b, "G3"}, {w, "D5"}}) {
      must(room.play(who, v, v, at(t += 3)));
    }
    must(room.request_undo(w, "u1"));
    must(room.answer_undo(b, "a1", true, now));
    must(room.play(w, "r1", "D6", at(t += 4)));
    must(room.request_undo(w, "u2"));
    must(room.answer_undo(b, "a2", false, now));
    for (const auto& [who, v] :
         std::vector<std::pair<std::int64_t, const char*>>{{b, "F4"}, {w, "pass"}, {b, "pass"}}) {
      must(room.play(who, v, v, at(t += 2)));
    }
    if (auto job = room.take_suggestion_job())
      room.suggested(*job, suggest_dead_stones(job->board, job->options));
    must(room.mark(b, "m1", "C3", true));
    must(room.resume(w, "re", at(t += 5).now));
    for (const auto& [who, v] :
         std::vector<std::pair<std::int64_t, const char*>>{{b, "B8"}, {w, "pass"}, {b, "pass"}}) {
      must(room.play(who, v, v, at(t += 2)));
    }
    if (auto job = room.take_suggestion_job())
      room.suggested(*job, suggest_dead_stones(job->board, job->options));
    const auto version = room.snapshot_for(std::nullopt, now).marking->version;
    must(room.accept_score(b, "s1", version, now));
    must(room.accept_score(w, "s2", version, now));
    games.push_back(game_json(room, s, std::make_pair(secret, nonce)));
  }
  {  // 13×13, two free handicap stones under Chinese rules, Fischer clock, then a resignation
    protocol::GameSettings s;
    s.width = s.height = 13;
    s.ruleset = Ruleset::Chinese;
    s.handicap = 2;
    s.placement = protocol::GameSettings::Placement::Free;
    s.color = protocol::GameSettings::ColorChoice::Black;
    s.time = {.system = protocol::TimeControl::System::Fischer,
              .main_ms = 300'000,
              .increment_ms = 10'000,
              .max_ms = 600'000};
    Room room(2, s, {kBlack, "black"}, {kWhite, "white"}, std::nullopt, kStart);
    int t = 0;
    for (const auto& [who, v] : std::vector<std::pair<std::int64_t, const char*>>{
             {kBlack, "D4"}, {kBlack, "K10"}, {kWhite, "K4"}, {kBlack, "D10"}, {kWhite, "G7"}}) {
      must(room.play(who, v, v, at(t += 7)));
    }
    must(room.resign(kBlack, "rs", now));
    games.push_back(game_json(room, s, std::nullopt));
  }
  std::cout << json{{"schema", 1}, {"start_hours", 5}, {"games", games}}.dump(1) << "\n";
}
