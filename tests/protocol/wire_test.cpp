// The wire of protocol version 1, message by message: every client and server message, with its
// optional parts present and absent, encoded to the text in tests/fixtures/wire/v1.txt. A change
// to a message's description that changes what a client receives or must send fails here; a
// deliberate change updates the file (TENGEN_WRITE_WIRE=path writes it) and protocol/README.md.
// Each text also reads back: client messages through the server's strict decoder, server
// messages through the lenient reader that bots use, to the same text.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "protocol/codec.h"
#include "protocol/server_reader.h"
#include "support/paths.h"

namespace tengen::protocol {
namespace {

GameSettings timed_settings() {
  GameSettings s;
  s.width = s.height = 13;
  s.ruleset = Ruleset::Chinese;
  s.komi = 6.5;
  s.handicap = 2;
  s.placement = GameSettings::Placement::Fixed;
  s.color = GameSettings::ColorChoice::Black;
  s.time.system = TimeControl::System::ByoYomi;
  s.time.main_ms = 600000;
  s.time.periods = 5;
  s.time.period_ms = 30000;
  s.rated = true;
  return s;
}

GameSettings automatic_settings() {
  GameSettings s;
  s.automatic_handicap = true;
  s.color = GameSettings::ColorChoice::Automatic;
  s.time.system = TimeControl::System::Fischer;
  s.time.main_ms = 300000;
  s.time.increment_ms = 10000;
  s.time.max_ms = 600000;
  s.is_private = true;
  return s;
}

GameSettings correspondence_settings() {
  GameSettings s;
  s.time.system = TimeControl::System::Correspondence;
  s.time.per_move_ms = 259200000;  // three days
  s.time.max_ms = 864000000;       // a bank of ten
  s.time.weekends_off = true;
  return s;
}

TournamentSettings tournament_settings() {
  TournamentSettings t;
  t.name = "Autumn \"open\"";
  t.system = tournament::System::McMahon;
  t.rounds = 4;
  t.game = timed_settings();
  t.bar = 33;
  t.floor = 5;
  t.handicap.by_score_gap = true;
  t.registration_closes_ms = 1800000000000;
  t.starts_at_ms = 1800000600000;
  t.min_players = 4;
  t.max_players = 64;
  t.round_start = TournamentSettings::RoundStart::Scheduled;
  t.round_times_ms = {1800000600000, 1800004200000};
  t.tie_breaks = {tournament::TieBreak::Sos, tournament::TieBreak::Sodos};
  return t;
}

// A weekend McMahon on physical boards (docs/tournaments.md, "Over the board").
TournamentSettings over_the_board_settings() {
  TournamentSettings t = tournament_settings();
  t.name = "Leiden open";
  t.round_start = TournamentSettings::RoundStart::AfterPrevious;
  t.round_times_ms = {};
  t.registration_closes_ms = {};
  t.starts_at_ms = {};
  t.over_the_board = true;
  t.country = "NL";
  t.city = "Leiden";
  return t;
}

ClockState clock() {
  return ClockState{{.main_ms = 1200, .periods = 0, .period_ms = 0, .stones = 0},
                    {.main_ms = 0, .periods = 3, .period_ms = 25000, .stones = 0},
                    Color::White};
}

ClockState weekend_clock() {  // a correspondence game, Black in their weekend
  return ClockState{{.main_ms = 200000000}, {.main_ms = 259200000}, Color::Black, 86400000};
}

TournamentSettings league_settings() {
  TournamentSettings s;
  s.name = "Winter league";
  s.system = tournament::System::RoundRobin;
  s.game.time = {.system = TimeControl::System::Correspondence,
                 .per_move_ms = 259'200'000,
                 .weekends_off = true};
  s.vacations = false;
  return s;
}

ClockState vacation_clock() {  // a correspondence game, Black on vacation
  ClockState c = weekend_clock();
  c.time_off_ms = 5 * 86400000LL;
  c.vacation = true;
  return c;
}

ClockState stopped_clock() {
  ClockState c = clock();
  c.running.reset();
  return c;
}

NigiriState nigiri(bool revealed) {
  NigiriState n;
  n.commitment = "9f2c";
  n.holder = {1, "ann"};
  n.guesser = {2, "bob"};
  n.holder_chose = true;
  n.guesser_chose = revealed;
  if (revealed) {
    n.secret = "s3cr3t";
    n.nonce = "n0nce";
    n.holder_seed = "h";
    n.guesser_seed = "g";
    n.guess = "odd";
    n.stones = 7;
  }
  return n;
}

Result result(std::string_view sgf) {
  return Result::parse_sgf(sgf).value();
}

Marking marking() {
  Marking m;
  m.version = 4;
  m.dead = {"A1", "B1"};
  m.score = ScoreView{40, 36.5, result("B+3.5"), "bw.b", {}};
  m.accepted.black = 4;
  m.resumptions = 1;
  return m;
}

GameSnapshot snapshot(bool full) {
  GameSnapshot s;
  s.game = 42;
  s.seq = 9;
  s.settings = full ? timed_settings() : GameSettings{};
  s.black = {1, "ann"};
  s.white = {2, "bob"};
  if (full) {
    s.handicap_stones = {"D4", "K10"};
    s.moves = {{Color::White, "C3"}, {Color::Black, "pass"}};
    s.to_move = Color::White;
    s.phase = Phase::Scoring;
    s.result = result("B+3.5");
    s.captures = {3, 1};
    s.undo_requested = true;
    s.chat = {ChatLine{5, {1, "ann"}, Channel::Players, "hi\n\"there\"\t\x01", 1795000000000},
              ChatLine{6, {2, "bob"}, Channel::Players, "", 1795000001000, true}};
    s.chat_omitted = 2;
    s.role = Role::Black;
    s.clock = clock();
    s.nigiri = nigiri(true);
    s.marking = marking();
    s.absent = {Absence{Color::White, 30000}, Absence{Color::Black, std::nullopt}};
    s.final_score = ScoreView{40, 36.5, result("B+3.5"), "bw.b",
                              ScoreBreakdown{false, {20, 30, 10}, {18, 25, 5}, 6.5, 0}};
    s.abortable = true;
    s.first_move_in_ms = 41500;
    s.first_move_ms = 60000;
  } else {
    s.to_move = Color::Black;
    s.phase = Phase::Nigiri;
    s.role = Role::Spectator;
  }
  return s;
}

std::vector<std::pair<std::string, ServerMessage>> server_samples() {
  auto event = [](Seq seq, RoomEventBody body) {
    return ServerMessage{RoomEvent{42, seq, std::move(body)}};
  };
  return {
      {"error, full",
       Error{"c1", ErrorCode::IllegalMove, "ko: play elsewhere first", 42, Refusal::Ko}},
      {"error, bare", Error{std::nullopt, ErrorCode::BadJson, "the message is not valid JSON", {}}},
      {"ack, full", Ack{"c2", 42, 10, 3, 5}},
      {"ack, bare", Ack{"c3", {}, {}, {}, {}}},
      {"pong", Pong{"c4", 123456}},
      {"welcome, user", Welcome{UserRef{1, "ann"}, "0.1.0"}},
      {"welcome, guest", Welcome{std::nullopt, "0.1.0"}},
      {"lobby", LobbySnapshot{{Challenge{3, {1, "ann"}, UserRef{2, "bob"}, timed_settings()},
                               Challenge{4, {2, "bob"}, std::nullopt, automatic_settings()}},
                              {{1, "ann"}, {2, "bob"}},
                              2}},
      {"challenge_opened", ChallengeOpened{Challenge{4, {2, "bob"}, {}, automatic_settings()}}},
      {"challenge_opened, correspondence",
       ChallengeOpened{Challenge{5, {2, "bob"}, {}, correspondence_settings()}}},
      {"challenge_closed, accepted", ChallengeClosed{3, ChallengeEnd::Accepted, 42}},
      {"challenge_closed, declined", ChallengeClosed{3, ChallengeEnd::Declined, {}}},
      {"challenge_closed, declined saying why",
       ChallengeClosed{3,
                       ChallengeEnd::Declined,
                       {},
                       UserRef{5, "gnugo"},
                       "this bot does not play correspondence"}},
      {"presence", Presence{{{3, "cyd"}}, {{4, "dan"}}, 7}},
      {"game_started", GameStarted{42, {1, "ann"}, {2, "bob"}, timed_settings(), true}},
      {"game_started, a tournament's", GameStarted{43,
                                                   {1, "ann"},
                                                   {2, "bob"},
                                                   timed_settings(),
                                                   false,
                                                   TournamentGameRef{5, "Autumn Cup", 2, 3}}},
      {"snapshot, full", snapshot(true)},
      {"snapshot, bare", snapshot(false)},
      {"tournament_changed", TournamentChanged{5, TournamentStatus::Running, 2}},
      {"review_snapshot",
       ReviewSnapshot{7,
                      4,
                      "Alice vs Bob",
                      UserRef{1, "alice"},
                      UserRef{2, "bob"},
                      42,
                      9,
                      9,
                      6.5,
                      "japanese",
                      {ReviewNode{0, -1, {}, "", {"C3"}, {}, {}, {}, "the opening"},
                       ReviewNode{1,
                                  0,
                                  Color::White,
                                  "E5",
                                  {},
                                  {},
                                  {},
                                  {MarkView{"E5", MarkKind::Triangle, ""},
                                   MarkView{"D4", MarkKind::Label, "A"}},
                                  "a good reply"}},
                      1,
                      PositionView{std::string(81, '.'), Color::Black, {0, 0}, {}},
                      {UserRef{2, "bob"}},
                      1,
                      false,
                      {ReviewChatLine{3, UserRef{2, "bob"}, "why not D4?"}}}},
      {"review_update, node added",
       ReviewUpdate{7,
                    5,
                    ReviewChange::NodeAdded,
                    2,
                    ReviewNode{2, 1, Color::Black, "pass", {}, {}, {}, {}, ""},
                    {},
                    PositionView{std::string(81, '.'), Color::White, {1, 0}, {"E5"}},
                    {},
                    UserRef{1, "alice"},
                    {}}},
      {"review_update, control", ReviewUpdate{7,
                                              6,
                                              ReviewChange::Control,
                                              2,
                                              {},
                                              {},
                                              {},
                                              UserRef{3, "carol"},
                                              UserRef{1, "alice"},
                                              {}}},
      {"review_update, chat", ReviewUpdate{7,
                                           7,
                                           ReviewChange::Chat,
                                           2,
                                           {},
                                           {},
                                           {},
                                           {},
                                           UserRef{3, "carol"},
                                           ReviewChatLine{7, UserRef{3, "carol"}, "thank you"}}},
      {"review_update, invited",
       [] {
         ReviewUpdate u{7, 8, ReviewChange::Invited, 2, {}, {}, {}, {}, UserRef{1, "alice"}, {}};
         u.invited = std::vector<UserRef>{UserRef{4, "dan"}};
         return u;
       }()},
      {"review_update, removed",
       ReviewUpdate{7, 9, ReviewChange::Removed, 2, {}, {}, {}, {}, UserRef{1, "alice"}, {}}},
      {"review_followers", ReviewFollowers{7, {UserRef{2, "bob"}, UserRef{3, "carol"}}, 2}},
      {"seeking, waiting", Seeking{Seek{13, Speed::Blitz}, {}, 3}},
      {"seeking, matched", Seeking{{}, 42, 0}},
      {"my_games",
       MyGames{{MyGame{42,
                       {1, "ann"},
                       {2, "bob"},
                       correspondence_settings(),
                       Color::Black,
                       true,
                       17,
                       weekend_clock()},
                MyGame{43, {3, "cyd"}, {1, "ann"}, GameSettings{}, {}, false, 80, {}}}}},
      {"watching", Watching{42, 3}},
      {"ratings_changed", RatingsChanged{{3, 4}}},
      {"service, degraded", Service{"degraded", "database"}},
      {"resync", Resync{"hub"}},
      {"group, chat", GroupEvent{3, "Kyoto Club", GroupChange::Chat,
                                 GroupLine{41, {2, "bob"}, 1700000000000, "hi"}}},
      {"group, chat deleted", GroupEvent{3, "Kyoto Club", GroupChange::ChatDeleted,
                                         GroupLine{41, {2, "bob"}, 1700000000000, "", true}}},
      {"group, deleted", GroupEvent{3, "Kyoto Club", GroupChange::Deleted}},
      {"move, timed", event(10, MovePlayed{Color::White, "C3", {"D3", "D4"}, clock(), 15})},
      {"move, correspondence, into a weekend",
       event(12, MovePlayed{Color::White, "Q16", {}, weekend_clock(), 0})},
      {"move, correspondence, the mover's opponent on vacation",
       event(12, MovePlayed{Color::White, "Q16", {}, vacation_clock(), 0})},
      {"move, untimed pass", event(11, MovePlayed{Color::Black, "pass", {}, std::nullopt, 0})},
      {"undo_requested", event(12, UndoRequested{Color::Black})},
      {"undo_answered", event(13, UndoAnswered{true, 2})},
      {"chat", event(14, ChatPosted{ChatLine{14, {2, "bob"}, Channel::Spectators, "nice"}})},
      {"game_ended, scored",
       event(15, GameEnded{result("B+3.5"), EndReason::Score,
                           ScoreView{40, 36.5, result("B+3.5"), "bw.b", {}}, clock()})},
      {"game_ended, bare", event(16, GameEnded{result("W+R"), EndReason::Resignation, {}, {}})},
      {"game_ended, on time",
       event(16, GameEnded{result("W+T"), EndReason::Time, {}, stopped_clock()})},
      {"nigiri_started", event(1, NigiriStarted{nigiri(false)})},
      {"nigiri_done", event(2, NigiriDone{nigiri(true), {2, "bob"}, {1, "ann"}})},
      {"scoring_started", event(17, ScoringStarted{marking()})},
      {"marking", event(18, MarkingChanged{marking(), Color::White})},
      {"score_accepted", event(19, ScoreAccepted{Color::Black, 4})},
      {"play_resumed, timed", event(20, PlayResumed{Color::White, Color::Black, 1, clock()})},
      {"play_resumed, untimed", event(21, PlayResumed{Color::Black, Color::White, 2, {}})},
      {"player_left, counting", event(22, PlayerLeft{Absence{Color::White, 30000}})},
      {"player_left, waiting", event(23, PlayerLeft{Absence{Color::Black, std::nullopt}})},
      {"player_returned", event(24, PlayerReturned{Color::White})},
      {"chat_deleted", event(25, ChatDeleted{11})},
      {"conditional_moves", event(26, ConditionalMoves{Color::Black, {"C7 D7 C6 D6", "G3 G4"}})},
      {"conditional_moves, used up", event(27, ConditionalMoves{Color::Black, {}})},
  };
}

std::vector<std::pair<std::string, ClientEnvelope>> client_samples() {
  auto c = [](ClientMessage m) { return ClientEnvelope{"k1", std::move(m)}; };
  return {
      {"create_challenge, direct", c(CreateChallenge{timed_settings(), "bob"})},
      {"create_challenge, open", c(CreateChallenge{automatic_settings(), {}})},
      {"cancel_challenge", c(CancelChallenge{3})},
      {"accept_challenge", c(AcceptChallenge{3})},
      {"decline_challenge", c(DeclineChallenge{3})},
      {"decline_challenge, why", c(DeclineChallenge{3, "not now, thank you"})},
      {"join, since", c(JoinGame{42, 7})},
      {"join", c(JoinGame{42, {}})},
      {"leave", c(LeaveGame{42})},
      {"play, think", c(PlayMove{42, "D4", 900})},
      {"play", c(PlayMove{42, "Q16", {}})},
      {"pass, think", c(PassMove{42, 0})},
      {"pass", c(PassMove{42, {}})},
      {"resign", c(Resign{42})},
      {"undo_request", c(RequestUndo{42})},
      {"undo_answer", c(AnswerUndo{42, true})},
      {"chat", c(SendChat{42, "good game \"all\"\n"})},
      {"ping", c(Ping{99})},
      {"nigiri, guess", c(NigiriChoice{42, "abc", "even"})},
      {"nigiri", c(NigiriChoice{42, "abc", {}})},
      {"abort", c(AbortGame{42})},
      {"claim_win", c(ClaimWin{42})},
      {"mark", c(MarkDead{42, "C3", false})},
      {"accept_score", c(AcceptScore{42, 4})},
      {"resume", c(ResumePlay{42})},
      {"create_tournament", c(CreateTournament{tournament_settings()})},
      {"create_tournament, a correspondence league that ignores vacations",
       c(CreateTournament{league_settings()})},
      {"create_tournament, over the board", c(CreateTournament{over_the_board_settings()})},
      {"tournament_register, rank", c(RegisterTournament{5, "3d"})},
      {"tournament_register", c(RegisterTournament{5, {}})},
      {"tournament_leave", c(LeaveTournament{5})},
      {"tournament_start", c(StartTournament{5})},
      {"tournament_withdraw", c(WithdrawPlayer{5, "bob"})},
      {"tournament_set_result", c(SetTournamentResult{5, 2, 3, tournament::Outcome::BothLose})},
      {"tournament_repair", c(RepairRound{5})},
      {"tournament_add_player",
       c(AddTournamentPlayer{5, "de Vries", "Anna", "3k", "Amst", "NL", "12345678", {}})},
      {"tournament_add_player, names only",
       c(AddTournamentPlayer{5, "Ito", "", "15k", {}, {}, {}, {}})},
      {"tournament_publish_round", c(PublishRound{5, 2, {}})},
      {"tournament_publish_round, a hybrid round", c(PublishRound{5, 2, {1, 4}})},
      {"tournament_report_result",
       c(ReportTournamentResult{5, 2, 3, tournament::Outcome::WhiteWins})},
      {"tournament_set_result, a forfeit",
       c(SetTournamentResult{5, 2, 3, tournament::Outcome::WhiteWins, true})},
      {"tournament_pair_round", c(PairRound{5, 2, {{7, -3, 0}, {-1, 9, 2}}, {-2}, false})},
      {"tournament_pair_round, the rest by the system", c(PairRound{5, 2, {{7, -3, 1}}, {}, true})},
      {"tournament_set_absent", c(SetAbsent{5, "Ito Yuki", 3, true})},
      {"tournament_set_absent, playing after all", c(SetAbsent{5, "bob", 4, false})},
      {"tournament_edit_player",
       c(EditTournamentPlayer{5, "bob", "Bobson", "Bob", "3k", "Leid", "NL", "12345678", {}})},
      {"tournament_edit_player, the names only",
       c(EditTournamentPlayer{5, "Ito Yuki", "Itō", "", {}, {}, {}, {}, {}})},
      {"watch_tournaments, one", c(WatchTournaments{5})},
      {"watch_tournaments, all", c(WatchTournaments{{}})},
      {"unwatch_tournaments", c(UnwatchTournaments{})},
      {"seek", c(Seek{9, Speed::Live})},
      {"cancel_seek", c(CancelSeek{})},
      {"my_games", c(ListMyGames{})},
      {"set_conditional_moves", c(SetConditionalMoves{42, {"C7 D7 C6 D6", "G3 G4"}})},
      {"set_conditional_moves, none", c(SetConditionalMoves{42, {}})},
      {"review_join", c(JoinReview{7})},
      {"review_leave", c(LeaveReview{7})},
      {"review_play", c(ReviewPlay{7, "D4", {}})},
      {"review_play, a colour", c(ReviewPlay{7, "pass", Color::White})},
      {"review_goto", c(ReviewGoTo{7, 0})},
      {"review_mark", c(ReviewMark{7, "D4", MarkKind::Label, "A"})},
      {"review_mark, clear", c(ReviewMark{7, "D4", {}, {}})},
      {"review_comment", c(ReviewComment{7, "Black should tenuki here"})},
      {"review_delete", c(ReviewDelete{7, 3})},
      {"review_control", c(ReviewHandOver{7, "carol"})},
      {"review_chat", c(ReviewChat{7, "why not D4?"})},
      {"review_close", c(CloseReview{7})},
      {"review_invite", c(ReviewInvite{7, "dan", false})},
      {"review_invite, remove", c(ReviewInvite{7, "dan", true})},
  };
}

// "name<TAB>text" per line, server messages first.
std::vector<std::pair<std::string, std::string>> encoded() {
  std::vector<std::pair<std::string, std::string>> lines;
  for (const auto& [name, m] : server_samples()) lines.emplace_back("server " + name, encode(m));
  for (const auto& [name, e] : client_samples()) lines.emplace_back("client " + name, encode(e));
  return lines;
}

const std::string kFixture = tengen::testing::paths::fixtures() + "/wire/v1.txt";

TEST(Wire, EveryMessageIsEncodedAsTheFixtureRecords) {
  const auto lines = encoded();
  if (const char* out = std::getenv("TENGEN_WRITE_WIRE")) {
    std::ofstream file(out);
    for (const auto& [name, text] : lines) file << name << '\t' << text << '\n';
  }
  std::ifstream file(kFixture);
  ASSERT_TRUE(file) << kFixture;
  std::vector<std::pair<std::string, std::string>> recorded;
  for (std::string line; std::getline(file, line);) {
    const auto tab = line.find('\t');
    ASSERT_NE(tab, std::string::npos) << line;
    recorded.emplace_back(line.substr(0, tab), line.substr(tab + 1));
  }
  ASSERT_EQ(recorded.size(), lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    EXPECT_EQ(lines[i].first, recorded[i].first);
    EXPECT_EQ(lines[i].second, recorded[i].second) << lines[i].first;
  }
}

TEST(Wire, TheGenericEncoderAgreesWithTheFastOne) {
  for (const auto& [name, m] : server_samples()) EXPECT_EQ(encode(m), encode_with_json(m)) << name;
}

TEST(Wire, EveryClientMessageDecodesToWhatWasEncoded) {
  for (const auto& [name, e] : client_samples()) {
    const auto text = encode(e);
    const auto decoded = decode_client(text);
    ASSERT_TRUE(std::holds_alternative<ClientEnvelope>(decoded))
        << name << ": " << std::get<Error>(decoded).message;
    EXPECT_EQ(encode(std::get<ClientEnvelope>(decoded)), text) << name;
  }
}

TEST(Wire, EveryServerMessageReadsBackLeniently) {
  for (const auto& [name, m] : server_samples()) {
    const auto text = encode(m);
    const auto read = read_server_message(text);
    ASSERT_TRUE(read) << name;
    EXPECT_EQ(encode(*read), text) << name;
  }
}

}  // namespace
}  // namespace tengen::protocol
