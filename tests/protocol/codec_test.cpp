#include "protocol/codec.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace tengen::protocol {
namespace {

using nlohmann::json;

Error error_of(std::string_view text) {
  auto decoded = decode_client(text);
  EXPECT_TRUE(std::holds_alternative<Error>(decoded)) << text;
  return std::holds_alternative<Error>(decoded) ? std::get<Error>(decoded) : Error{};
}

ClientEnvelope message_of(std::string_view text) {
  auto decoded = decode_client(text);
  if (auto* e = std::get_if<Error>(&decoded)) ADD_FAILURE() << text << ": " << e->message;
  return std::holds_alternative<ClientEnvelope>(decoded) ? std::get<ClientEnvelope>(decoded)
                                                         : ClientEnvelope{};
}

TEST(Codec, EveryClientMessageRoundTrips) {
  GameSettings settings;
  settings.width = 13;
  settings.height = 9;
  settings.ruleset = Ruleset::Aga;
  settings.komi = 0.5;
  settings.handicap = 3;
  settings.placement = GameSettings::Placement::Free;
  settings.color = GameSettings::ColorChoice::White;
  settings.time = {TimeControl::System::ByoYomi, 600000, 0, 0, 0, 5, 30000, 0};
  settings.rated = true;
  const ClientMessage all[] = {CreateChallenge{settings, "honinbo"},
                               CancelChallenge{3},
                               AcceptChallenge{4},
                               DeclineChallenge{5},
                               JoinGame{6, 17},
                               JoinGame{6, {}},
                               LeaveGame{7},
                               PlayMove{8, "D4", {}},
                               PlayMove{8, "Q16", 1500},
                               PassMove{9, {}},
                               PassMove{9, 20},
                               Resign{10},
                               RequestUndo{11},
                               AnswerUndo{12, true},
                               SendChat{13, "good game"},
                               Ping{123456},
                               NigiriChoice{14, "a1b2c3d4e5", "odd"},
                               NigiriChoice{14, "seed-of-holder", {}},
                               AbortGame{15},
                               ClaimWin{16},
                               MarkDead{17, "C3", true},
                               MarkDead{17, "C3", false},
                               AcceptScore{18, 4},
                               ResumePlay{19}};
  int n = 0;
  for (const auto& m : all) {
    const ClientEnvelope sent{"c" + std::to_string(++n), m};
    const std::string text = encode(sent);
    const ClientEnvelope back = message_of(text);
    EXPECT_EQ(back.cid, sent.cid);
    EXPECT_EQ(encode(back), text);
  }
}

// A ruleset is read by any spelling the engine accepts and written by its one name; an unknown
// one is refused with the names it may take.
TEST(Codec, RulesetsAreReadByAnySpellingAndWrittenByName) {
  const auto m =
      message_of(R"({"type":"create_challenge","cid":"1","settings":{"width":9,"ruleset":"NZ"}})");
  const auto& settings = std::get<CreateChallenge>(m.message).settings;
  EXPECT_EQ(settings.ruleset, Ruleset::NewZealand);
  EXPECT_EQ(json::parse(encode_settings(settings))["ruleset"], "new-zealand");
  const Error e = error_of(
      R"({"type":"create_challenge","cid":"1","settings":{"width":9,"ruleset":"klingon"}})");
  EXPECT_EQ(e.code, ErrorCode::BadSettings);
  EXPECT_EQ(e.message,
            "unknown ruleset 'klingon' (one of tromp-taylor, chinese, japanese, korean, aga, "
            "new-zealand, ing)");
}

TEST(Codec, DefaultsFillOmittedSettings) {
  const auto m = message_of(R"({"type":"create_challenge","cid":"1","settings":{"width":9}})");
  const auto& c = std::get<CreateChallenge>(m.message);
  EXPECT_EQ(m.cid, "1");
  EXPECT_EQ(c.settings.height, 9);
  EXPECT_EQ(c.settings.ruleset, Ruleset::Japanese);
  EXPECT_EQ(c.settings.color, GameSettings::ColorChoice::Nigiri);
  EXPECT_FALSE(c.settings.komi);
  EXPECT_FALSE(c.opponent);
}

TEST(Codec, AnAutomaticHandicapIsTheWordAutomatic) {
  const auto m = message_of(
      R"({"type":"create_challenge","cid":"1","settings":{"handicap":"automatic","color":"automatic"}})");
  const auto& c = std::get<CreateChallenge>(m.message);
  EXPECT_TRUE(c.settings.automatic_handicap);
  EXPECT_EQ(c.settings.handicap, 0);
  EXPECT_NE(encode_settings(c.settings).find(R"("handicap":"automatic")"), std::string::npos);
  const auto back = decode_settings(encode_settings(c.settings));
  ASSERT_TRUE(std::holds_alternative<GameSettings>(back));
  EXPECT_EQ(std::get<GameSettings>(back), c.settings);
}

TEST(Codec, BadInputGetsATypedErrorNamingTheProblem) {
  struct Case {
    const char* text;
    ErrorCode code;
    const char* message;
    const char* cid;
  };
  const Case cases[] = {
      {"not json", ErrorCode::BadJson, "the message is not valid JSON", nullptr},
      {"[1,2]", ErrorCode::BadJson, "the message must be a JSON object", nullptr},
      {R"({"type":"ping"})", ErrorCode::BadEnvelope, "missing field 'cid' (the command id)",
       nullptr},
      {R"({"type":"ping","cid":[1]})", ErrorCode::BadEnvelope, "field 'cid' must be a string",
       nullptr},
      // An integer cid once came back as a string, which no client waiting for 7 recognised.
      {R"({"type":"ping","cid":7})", ErrorCode::BadEnvelope,
       "field 'cid' must be a string: send 7 as \"7\"", nullptr},
      {R"({"type":"ping","cid":""})", ErrorCode::BadEnvelope,
       "field 'cid' must be 1 to 64 characters", nullptr},
      {R"({"v":2,"type":"ping","cid":"a"})", ErrorCode::UnsupportedVersion,
       "protocol version 2 is not supported; this server speaks 1", "a"},
      {R"({"cid":"a"})", ErrorCode::BadEnvelope, "missing field 'type' (a string)", "a"},
      {R"({"type":"teleport","cid":"a"})", ErrorCode::UnknownType,
       "unknown message type 'teleport'", "a"},
      {R"({"type":"play","cid":"a","game":"one","vertex":"D4"})", ErrorCode::BadField,
       "field 'game' must be an integer", "a"},
      {R"({"type":"play","cid":"a","game":-3,"vertex":"D4"})", ErrorCode::BadField,
       "field 'game' must be a positive id", "a"},
      {R"({"type":"play","cid":"a","game":3})", ErrorCode::BadField, "missing field 'vertex'", "a"},
      {R"({"type":"play","cid":"a","game":3,"vertex":"D4","colour":"b"})", ErrorCode::BadField,
       "unknown field 'colour'", "a"},
      {R"({"type":"undo_answer","cid":"a","game":3,"accept":"yes"})", ErrorCode::BadField,
       "field 'accept' must be true or false", "a"},
      {R"({"type":"join","cid":"a","game":9223372036854775808})", ErrorCode::BadField,
       "field 'game' is out of range", "a"},
      {R"({"type":"join","cid":"a","game":1e20})", ErrorCode::BadField,
       "field 'game' must be an integer", "a"},
      {R"({"type":"join","cid":"a","game":2,"since":-1})", ErrorCode::BadField,
       "field 'since' is out of range", "a"},
      {R"({"type":"chat","cid":"a","game":3,"text":""})", ErrorCode::BadField,
       "field 'text' must not be empty", "a"},
      {R"({"type":"set_conditional_moves","cid":"a","game":3,"lines":"C7 D7"})",
       ErrorCode::BadField, "field 'lines' must be a list of strings", "a"},
      {R"({"type":"set_conditional_moves","cid":"a","game":3,"lines":["C7 D7",4]})",
       ErrorCode::BadField, "field 'lines' must be a list of strings", "a"},
      {R"({"type":"tournament_publish_round","cid":"a","tournament":1,"round":1,"online_tables":[2,0]})",
       ErrorCode::BadField, "field 'online_tables' must be table numbers from 1", "a"},
      {R"({"type":"tournament_publish_round","cid":"a","tournament":1,"round":1,"online_tables":[2,3,2]})",
       ErrorCode::BadField, "field 'online_tables' names table 2 twice", "a"},
      {R"({"type":"tournament_publish_round","cid":"a","tournament":1,"round":1,"online_tables":"1"})",
       ErrorCode::BadField, "field 'online_tables' must be a list of numbers", "a"},
      {R"({"type":"tournament_publish_round","cid":"a","tournament":1,"round":1,"online_tables":[1.5]})",
       ErrorCode::BadField, "field 'online_tables' must be a list of numbers", "a"},
      {R"({"type":"tournament_set_absent","cid":"a","tournament":1,"player":"bob","round":2})",
       ErrorCode::BadField, "missing field 'absent'", "a"},
      {R"({"type":"tournament_set_absent","cid":"a","tournament":1,"player":"bob","round":0,"absent":true})",
       ErrorCode::BadField, "field 'round' must be a positive number", "a"},
      {R"({"type":"tournament_pair_round","cid":"a","tournament":1,"round":1,"tables":[{"black":1,"white":2},{"black":3}]})",
       ErrorCode::BadField, "missing field 'tables[1].white'", "a"},
      {R"({"type":"tournament_pair_round","cid":"a","tournament":1,"round":1,"tables":[{"black":1,"white":2,"colour":"b"}]})",
       ErrorCode::BadField, "unknown field 'tables[0].colour'", "a"},
      {R"({"type":"tournament_pair_round","cid":"a","tournament":1,"round":1,"tables":[{"black":1,"white":2,"handicap":12}]})",
       ErrorCode::BadField, "field 'tables[0].handicap' must be 0 to 9 stones", "a"},
      {R"({"type":"tournament_pair_round","cid":"a","tournament":1,"round":1,"tables":[{"black":0,"white":2}]})",
       ErrorCode::BadField, "field 'tables[0].black' must be a player's id (not 0)", "a"},
      {R"({"type":"tournament_pair_round","cid":"a","tournament":1,"round":1,"tables":[7]})",
       ErrorCode::BadField, "field 'tables[0]' must be an object", "a"},
      {R"({"type":"tournament_pair_round","cid":"a","tournament":1,"round":1,"tables":{}})",
       ErrorCode::BadField, "field 'tables' must be a list", "a"},
      {R"({"type":"tournament_pair_round","cid":"a","tournament":1,"round":1,"byes":[-3,-3]})",
       ErrorCode::BadField, "field 'byes' names player -3 twice", "a"},
      {R"({"type":"tournament_pair_round","cid":"a","tournament":1,"round":1,"byes":[18446744073709551615]})",
       ErrorCode::BadField, "field 'byes' must be a list of numbers", "a"},
      {R"({"type":"tournament_report_result","cid":"a","tournament":1,"round":1,"board":2,"result":"b"})",
       ErrorCode::BadField, "field 'result' must be one of black, white, jigo, both_lose, not 'b'",
       "a"},
      {R"({"type":"set_conditional_moves","cid":"a","game":3})", ErrorCode::BadField,
       "missing field 'lines'", "a"},
      {R"({"type":"create_challenge","cid":"a","settings":{"handicap":"lots"}})",
       ErrorCode::BadField, "field 'settings.handicap' must be an integer", "a"},
      {R"({"type":"create_challenge","cid":"a","settings":{"width":"big"}})", ErrorCode::BadField,
       "field 'settings.width' must be an integer", "a"},
      {R"({"type":"create_challenge","cid":"a","settings":{"komi":6.5,"kmoi":1}})",
       ErrorCode::BadField, "unknown field 'settings.kmoi'", "a"},
      {R"({"type":"create_challenge","cid":"a","settings":{"color":"purple"}})",
       ErrorCode::BadField,
       "field 'settings.color' must be one of nigiri, black, white, automatic, not 'purple'", "a"},
      {R"({"type":"create_challenge","cid":"a","settings":{"time":{"system":"hourglass"}}})",
       ErrorCode::BadField,
       "field 'settings.time.system' must be one of none, absolute, simple, fischer, byoyomi, "
       "canadian, correspondence, not 'hourglass'",
       "a"},
      {R"({"type":"create_challenge","cid":"a","settings":[]})", ErrorCode::BadField,
       "field 'settings' must be an object", "a"},
      {R"({"type":"play","cid":"a","game":3,"vertex":"D4","think_ms":-5})", ErrorCode::BadField,
       "field 'think_ms' must be a duration in milliseconds", "a"},
      {R"({"type":"nigiri","cid":"a","game":3,"seed":"abcdefgh","guess":"three"})",
       ErrorCode::BadField, "field 'guess' must be \"odd\" or \"even\"", "a"},
      {R"({"type":"mark","cid":"a","game":3,"vertex":"C3"})", ErrorCode::BadField,
       "missing field 'dead'", "a"},
      {R"({"type":"accept_score","cid":"a","game":3,"version":"latest"})", ErrorCode::BadField,
       "field 'version' must be an integer", "a"},
  };
  for (const auto& c : cases) {
    const Error e = error_of(c.text);
    EXPECT_EQ(e.code, c.code) << c.text;
    EXPECT_EQ(e.message, c.message) << c.text;
    EXPECT_EQ(e.cid.value_or("<none>"), c.cid ? c.cid : "<none>") << c.text;
  }
  std::string long_chat =
      R"({"type":"chat","cid":"a","game":3,"text":")" + std::string(1001, 'x') + "\"}";
  EXPECT_EQ(error_of(long_chat).message, "field 'text' is longer than 1000 bytes");
}

TEST(Codec, ServerMessagesCarryTheEnvelope) {
  EXPECT_EQ(json::parse(encode(Pong{"p1", 99})),
            json::parse(R"({"v":1,"type":"pong","cid":"p1","t":99})"));
  const json ack = json::parse(encode(Ack{"c7", 3, 12, {}, {}}));
  EXPECT_EQ(ack, json::parse(R"({"v":1,"type":"ack","cid":"c7","game":3,"seq":12})"));
  const json err = json::parse(encode(Error{"c8", ErrorCode::IllegalMove, "ko", 3}));
  EXPECT_EQ(
      err,
      json::parse(
          R"({"v":1,"type":"error","cid":"c8","code":"illegal_move","message":"ko","game":3})"));
  const json move =
      json::parse(encode(RoomEvent{3, 13, MovePlayed{Color::Black, "C3", {"B3"}, {}, 0}}));
  EXPECT_EQ(
      move,
      json::parse(
          R"({"v":1,"type":"move","game":3,"seq":13,"color":"black","vertex":"C3","captured":["B3"],"clock":null,"lag_credit_ms":0})"));
  const protocol::ClockState clock{{60000, 0, 0, 0}, {59000, 0, 0, 0}, Color::White};
  const json timed =
      json::parse(encode(RoomEvent{3, 14, MovePlayed{Color::Black, "D4", {}, clock, 120}}));
  EXPECT_EQ(
      timed["clock"],
      json::parse(
          R"({"black":{"main_ms":60000,"periods":0,"period_ms":0,"stones":0},"white":{"main_ms":59000,"periods":0,"period_ms":0,"stones":0},"running":"white"})"));
  EXPECT_EQ(timed["lag_credit_ms"], 120);
}

}  // namespace
}  // namespace tengen::protocol

namespace tengen::protocol {
namespace {

TEST(TournamentCodec, SettingsWithDefaultsDecodeValidateAndRoundTrip) {
  const auto m = message_of(
      R"({"v":1,"type":"create_tournament","cid":"1","settings":{"name":"Club","system":"mcmahon","rounds":5,)"
      R"("mcmahon":{"bar":"2d","floor":"15k"},"handicap":{"by_score_gap":true},"tie_breaks":["score","sos"]}})");
  const auto& s = std::get<CreateTournament>(m.message).settings;
  EXPECT_EQ(s.system, tournament::System::McMahon);
  EXPECT_EQ(s.rounds, 5);
  EXPECT_EQ(s.bar, 31);
  EXPECT_EQ(s.floor, 15);
  EXPECT_TRUE(s.handicap.by_score_gap);
  EXPECT_EQ(s.handicap.correction, 1);
  EXPECT_EQ(s.no_show_ms, 300000);
  EXPECT_EQ(validate(s), std::nullopt);
  const auto again = decode_tournament_settings(encode_tournament_settings(s));
  ASSERT_TRUE(std::holds_alternative<TournamentSettings>(again));
  EXPECT_EQ(std::get<TournamentSettings>(again), s);
  EXPECT_EQ(tie_breaks_of(s), (std::vector<tournament::TieBreak>{tournament::TieBreak::Score,
                                                                 tournament::TieBreak::Sos}));
}

TEST(TournamentCodec, EveryTournamentCommandRoundTrips) {
  for (
      const char* text :
      {R"({"v":1,"type":"tournament_register","cid":"2","tournament":3,"rank":"4k"})",
       R"({"v":1,"type":"tournament_leave","cid":"3","tournament":3})",
       R"({"v":1,"type":"tournament_start","cid":"4","tournament":3})",
       R"({"v":1,"type":"tournament_withdraw","cid":"5","tournament":3,"player":"shusaku"})",
       R"({"v":1,"type":"tournament_set_result","cid":"6","tournament":3,"round":2,"board":1,"result":"jigo","forfeit":false})",
       R"({"v":1,"type":"tournament_repair","cid":"7","tournament":3})",
       R"({"v":1,"type":"tournament_pair_round","cid":"8","tournament":3,"round":2,"tables":[{"black":5,"white":-2,"handicap":0},{"black":-1,"white":9007199254740993,"handicap":3}],"byes":[-4],"pair_rest":false})",
       R"({"v":1,"type":"tournament_set_absent","cid":"9","tournament":3,"player":"Ito Yuki","round":4,"absent":true})",
       R"({"v":1,"type":"tournament_edit_player","cid":"10","tournament":3,"player":"bob","family_name":"Bobson","given_name":"Bob","rank":"3k","club":"Leid","country":"NL","egd_pin":"12345678","aga_id":"1234"})"}) {
    const auto m = message_of(text);
    EXPECT_EQ(json::parse(encode(m)), json::parse(text)) << text;
  }
}

TEST(TournamentCodec, BadTournamentInputNamesTheProblem) {
  EXPECT_EQ(
      error_of(R"({"v":1,"type":"tournament_register","cid":"1","tournament":3,"rank":"0k"})").code,
      ErrorCode::BadField);
  EXPECT_EQ(
      error_of(
          R"({"v":1,"type":"tournament_set_result","cid":"1","tournament":3,"round":1,"board":1,"result":"draw"})")
          .message,
      "field 'result' must be one of black, white, jigo, both_lose, not 'draw'");
  EXPECT_NE(
      error_of(
          R"({"v":1,"type":"create_tournament","cid":"1","settings":{"name":"x","system":"knockout"}})")
          .message.find("knockout"),
      std::string::npos);
  EXPECT_EQ(
      error_of(
          R"({"v":1,"type":"create_tournament","cid":"1","settings":{"name":"x","system":"swiss","colour":1}})")
          .message,
      "unknown field 'settings.colour'");
  TournamentSettings s;
  s.name = "Cup";
  s.system = tournament::System::SingleElimination;
  s.rounds = 3;
  EXPECT_EQ(validate(s), "rounds follow from the players in this system: leave it out");
  s.rounds = 0;
  s.start_when_full = true;
  EXPECT_EQ(validate(s), "start_when_full needs max_players");
  s.start_when_full = false;
  s.game.handicap = 2;
  EXPECT_EQ(validate(s), "game.handicap is set by the pairing: leave it out");
  s.game.handicap = 0;
  s.game.is_private = true;  // its page would show the private games' pairings and results
  EXPECT_EQ(validate(s), "game.private: a tournament's games are public, as its page is");
  s.game.is_private = false;
  s.vacations = false;
  EXPECT_EQ(validate(s), "vacations: a pause policy is for correspondence tournaments only");
  s.game.time = {.system = TimeControl::System::Correspondence, .per_move_ms = 86'400'000};
  EXPECT_EQ(validate(s), std::nullopt) << "a correspondence league that ignores vacations";
}

TEST(TournamentCodec, RanksReadAndWrite) {
  EXPECT_EQ(parse_rank("30k"), 0);
  EXPECT_EQ(parse_rank("1k"), 29);
  EXPECT_EQ(parse_rank("1d"), 30);
  EXPECT_EQ(parse_rank("9d"), 38);
  EXPECT_EQ(parse_rank("10d"), std::nullopt);
  EXPECT_EQ(parse_rank("k"), std::nullopt);
  EXPECT_EQ(parse_rank("31k"), std::nullopt);
  for (int r = 0; r <= kMaxRank; ++r) EXPECT_EQ(parse_rank(rank_text(r)), r);
  EXPECT_EQ(json::parse(encode(Ack{"c", {}, {}, {}, 4}))["tournament"], 4);
  EXPECT_EQ(json::parse(encode(TournamentChanged{4, TournamentStatus::Running, 2})).dump(),
            R"({"round":2,"status":"running","tournament":4,"type":"tournament_changed","v":1})");
}

}  // namespace
}  // namespace tengen::protocol
