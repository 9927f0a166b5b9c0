// Moving a server from SQLite to PostgreSQL (store/import.h): everything written to a SQLite
// file reads back the same from PostgreSQL after the import, to the last bit of a rating; numbers
// PostgreSQL hands out next follow the copied ones; a database that is not empty is refused, and
// so is a file at an older schema.
#include "store/import.h"

#include <gtest/gtest.h>

#include <cstdio>

#include "store/account_store.h"
#include "store/analysis_store.h"
#include "store/class_store.h"
#include "store/group_store.h"
#include "store/ladder_store.h"
#include "store/mail_store.h"
#include "store/migrate.h"
#include "store/moderation_store.h"
#include "store/pair_store.h"
#include "store/position_analysis_store.h"
#include "store/postgres.h"
#include "store/push_store.h"
#include "store/relay_store.h"
#include "store/simul_store.h"
#include "store/sql.h"
#include "store/sql_game_store.h"
#include "store/sql_postgres.h"
#include "support/temp_database.h"
#include "support/temp_postgres.h"

namespace tengen::store {
namespace {

using testing::TempPostgres;

TokenHash token(unsigned char fill) {
  TokenHash h{};
  h.fill(fill);
  h[3] = 0;  // bytes, not text
  return h;
}

GameEvent event(std::int64_t game, std::int64_t seq, std::int64_t user, std::int64_t at) {
  return GameEvent{game,
                   seq,
                   seq == 2 ? "chat" : "move",
                   seq == 2,
                   "{\"r\":" + std::to_string(seq) + "}",
                   "text " + std::to_string(seq),
                   at,
                   user,
                   "cid-" + std::to_string(seq)};
}

TEST(Import, EverythingInASqliteFileReadsBackTheSameFromPostgres) {
  testing::TempDatabase file;
  std::int64_t ann = 0, bob = 0;
  // A rating whose last bits a decimal round trip with 15 digits would lose.
  const double rating = 1500.0 + 1.0 / 3.0, deviation = 123.456789012345678;
  {
    Database db(file.path());
    migrate(db);
    AccountStore accounts(sql::sqlite_connection(db));
    ann = accounts.create_user("Ann", "hash-a", false, 10)->id;
    bob = accounts.create_user("bob", "hash-b", true, 11)->id;
    accounts.create_session(ann, token(7), "Firefox", 12);
    accounts.set_time_zone(ann, "Europe/Amsterdam");
    accounts.begin_vacation(ann, std::nullopt, {13, 500}, 0);
    SqlGameStore games(sql::sqlite_connection(file.path()), sql::sqlite_connection(file.path()));
    games.write(
        std::vector<Write>{ChallengeOpened{1, ann, std::nullopt, R"({"width":9})", 20, "c-1"},
                           ChallengeOpened{2, bob, ann, R"({"width":19})", 21, "c-2"},
                           ChallengeClosed{1, "accepted", 1, 22},
                           GameCreated{1, 1, R"({"width":9})", ann, bob, "secret", "nonce", 22},
                           event(1, 1, ann, 23),
                           event(1, 2, bob, 24),
                           event(1, 3, bob, 25),
                           GameSeated{1, bob, ann},
                           GameCreated{2, std::nullopt, R"({"width":13})", bob, ann, {}, {}, 26},
                           event(2, 1, bob, 27),
                           GameFinished{2, "W+R", "resignation", 1, "(;GM[1]SZ[13])", 28},
                           RatingChanged{bob, 2, rating, deviation, 0.06, 1, 28},
                           RatingChanged{ann, 2, 1400.25, 300.5, 0.0600001, 1, 28},
                           TournamentCreated{1, "Autumn", ann, R"({"system":"swiss"})", 29, "t-1"},
                           TournamentEvent{1, 1, "registered", R"({"user":2})", bob, 30, "t-2"},
                           TournamentStatus{1, "running"},
                           ReviewCreated{1, ann, "Lesson", 2, "(;SZ[13])", 31},
                           ReviewEvent{1, 1, "play", R"({"color":"black","vertex":"D4"})", ann, 32},
                           ReviewCreated{2, bob, "Demo", std::nullopt, "(;SZ[9])", 33},
                           ReviewClosed{2, "(;SZ[9];B[ee])", 34}});
    // Moderation: an administrator, a suspension with its log line, an invite, a report, a block.
    ModerationStore moderation(sql::sqlite_connection(file.path()));
    moderation.set_admin(ann, true,
                         AuditEntry{.at_ms = 35, .action = "make_admin", .target_user_id = ann});
    moderation.set_restriction(bob, {false, 9'000, "rude in chat"},
                               AuditEntry{.at_ms = 36,
                                          .actor_id = ann,
                                          .action = "suspend",
                                          .target_user_id = bob,
                                          .reason = "rude in chat"});
    moderation.create_invite(Invite{.code = "abcd-efgh-jkmn",
                                    .created_by = ann,
                                    .created_at_ms = 37,
                                    .note = "club",
                                    .max_uses = 5},
                             AuditEntry{.at_ms = 37, .actor_id = ann, .action = "create_invite"});
    moderation.add_report(Report{.at_ms = 38,
                                 .reporter_id = ann,
                                 .target_id = bob,
                                 .category = "harassment",
                                 .text = "see game 1",
                                 .game_id = 1});
    moderation.add_block(ann, bob, 39);
    // E-mail: a confirmed address, a reset link, a mail sent and one waiting, a "your move" note.
    MailStore mail(sql::sqlite_connection(file.path()));
    mail.put_settings({ann, "ann@example.org", 40, false, true, true, "key-ann", 41});
    mail.add_token(token(9), {ann, "reset", "ann@example.org", 42, 9'000});
    mail.mark_sent(mail.enqueue({ann, "verify", "ann@example.org", "Confirm", "é", ""}, 43), 44);
    mail.enqueue({ann, "your_move", "ann@example.org", "Your move", "b", "https://x/u"}, 45);
    mail.note_your_move(ann, 1, 0, 46);
    // Web Push: the server's key, a device, a message waiting for it.
    PushStore push(sql::sqlite_connection(file.path()));
    push.server_key("vapid", "scalar", 47);
    const auto device = push.subscribe(
        {0, ann, "https://push.example.net/a", "p256dh-a", "auth-a", {true, false, true}, 48}, 10);
    push.enqueue({device, "your_move", R"({"game":1})", "game-1", "high", 3600}, 49);
    // Analysis: a worker's key and a job it holds.
    AnalysisStore analysis(sql::sqlite_connection(file.path()));
    const auto box = analysis.add_worker("box", "hash-box", 50);
    analysis.enqueue(1, ann, 3, 51);
    analysis.claim(*box, 52, 9'000, 3);
    PositionAnalysisStore positions(sql::sqlite_connection(file.path()));
    positions.enqueue(1, 3, ann, "(;SZ[9];B[ee])", 1, 52);
    // Groups: a club with both players, a chat line, a ladder with a challenge and its history.
    GroupStore groups(sql::sqlite_connection(file.path()));
    const auto club = *groups.create({"Club", "Tuesdays", "invite", ann}, 53);
    groups.set_role(club, bob, "member", 54);
    groups.add_chat(club, bob, "hi", 55, 500);
    LadderStore ladders(sql::sqlite_connection(file.path()));
    const auto ladder =
        ladders.create({0, club, "Ladder", "{}", 2, 3, "swap", 0, std::nullopt}, 56);
    ladders.join(ladder, ann, 57);
    ladders.join(ladder, bob, 57);
    ladders.add_challenge(ladder, bob, ann, 58, 9'000);
    ladders.add_event(ladder, 58, R"({"kind":"challenged","user":"bob"})");
    // Classes: ann teaches a class with bob in it; bob finished a lesson.
    ClassStore classes(sql::sqlite_connection(file.path()));
    classes.set_teacher(ann, true, std::nullopt, 59);
    const auto school = *groups.create({"Group 6B", "", "invite", ann}, 59);
    classes.add_class(school, 59);
    classes.add_student(school, bob, "Bob B.", 59);
    classes.finish_lesson(bob, "liberties", 59, 64);
    // Events: a relay of a game over the board, with a move.
    RelayStore relays(sql::sqlite_connection(file.path()));
    RelayRow relay;
    relay.director_id = ann;
    relay.event = "Club championship";
    relay.black = "Ann";
    relay.white = "Bob";
    relay.komi = 6.5;
    relay.ruleset = "japanese";
    relay.board_review = 1;
    relay.commentary_review = 2;
    relay.created_at_ms = 65;
    relays.add_move(relays.create(relay), 1, "Q16", 1, 66);
    SimulStore simuls(sql::sqlite_connection(file.path()));
    simuls.join(simuls.create(ann, "Simul", R"({"width":9})", 5, 67), bob, 68);
    PairStore pairs(sql::sqlite_connection(file.path()));
    pairs.join(pairs.create(ann, "Pair Go", R"({"width":9})", 2, 69), bob, "white", 69);
  }
  const std::string pg = TempPostgres::instance().new_database();
  const auto imported = import_sqlite(file.path(), pg);
  const std::vector<std::pair<std::string, std::int64_t>> expected{{"users", 2},
                                                                   {"sessions", 1},
                                                                   {"challenges", 2},
                                                                   {"games", 2},
                                                                   {"game_events", 4},
                                                                   {"ratings", 2},
                                                                   {"rating_history", 2},
                                                                   {"tournaments", 1},
                                                                   {"tournament_events", 1},
                                                                   {"reviews", 2},
                                                                   {"review_events", 1},
                                                                   {"invites", 1},
                                                                   {"audit_log", 3},
                                                                   {"reports", 1},
                                                                   {"blocks", 1},
                                                                   {"vacation_balances", 1},
                                                                   {"vacations", 1},
                                                                   {"mail_settings", 1},
                                                                   {"mail_tokens", 1},
                                                                   {"mail_queue", 2},
                                                                   {"mail_game_notices", 1},
                                                                   {"server_keys", 1},
                                                                   {"push_subscriptions", 1},
                                                                   {"push_queue", 1},
                                                                   {"analysis_workers", 1},
                                                                   {"analysis_jobs", 1},
                                                                   {"position_analyses", 1},
                                                                   {"player_groups", 2},
                                                                   {"group_members", 4},
                                                                   {"group_chat", 1},
                                                                   {"ladders", 1},
                                                                   {"ladder_players", 2},
                                                                   {"ladder_challenges", 1},
                                                                   {"ladder_events", 1},
                                                                   {"teachers", 1},
                                                                   {"classes", 1},
                                                                   {"class_students", 1},
                                                                   {"course_progress", 1},
                                                                   {"simuls", 1},
                                                                   {"simul_players", 1},
                                                                   {"pair_games", 1},
                                                                   {"pair_players", 1},
                                                                   {"relays", 1},
                                                                   {"relay_moves", 1}};
  EXPECT_EQ(imported.rows, expected);

  pg::Connection db(pg);
  AccountStore accounts(sql::postgres_connection(db));
  SqlGameStore games(sql::postgres_connection(pg), sql::postgres_connection(pg));
  EXPECT_EQ(accounts.user_by_name("ann")->id, ann) << "names still compare without case";
  EXPECT_EQ(accounts.user_by_id(bob)->password_hash, "hash-b");
  EXPECT_TRUE(accounts.user_by_id(bob)->is_bot);
  const auto session = accounts.session_by_token(token(7), 50);
  ASSERT_TRUE(session) << "logged in before, logged in after";
  EXPECT_EQ(session->first.id, ann);
  EXPECT_EQ(accounts.create_user("carol", "h", false, 60)->id, bob + 1) << "numbers go on";
  EXPECT_TRUE(accounts.user_by_id(ann)->is_admin);
  EXPECT_EQ(accounts.user_by_id(ann)->time_zone, "Europe/Amsterdam");
  EXPECT_EQ(accounts.vacation_balance(ann), (VacationBalance{0, 500}));
  EXPECT_EQ(accounts.vacations_of(ann, 0), (std::vector<VacationSpan>{{13, 500}}));
  MailStore mail(sql::postgres_connection(pg));
  EXPECT_EQ(mail.settings(ann),
            (MailSettings{ann, "ann@example.org", 40, false, true, true, "key-ann", 41}));
  EXPECT_EQ(mail.token(token(9), 50)->purpose, "reset");
  EXPECT_EQ(mail.counts().sent, 1);
  const auto waiting = mail.claim(50, 60);
  ASSERT_TRUE(waiting) << "the mail not yet sent is sent from PostgreSQL";
  EXPECT_EQ(waiting->mail.unsubscribe, "https://x/u");
  EXPECT_FALSE(mail.note_your_move(ann, 1, 45, 50)) << "told at 46";
  EXPECT_GT(mail.enqueue({ann, "digest", "ann@example.org", "s", "b", ""}, 51), waiting->id)
      << "numbers go on";
  AnalysisStore analysis(sql::postgres_connection(pg));
  EXPECT_EQ(analysis.worker_by_key("hash-box", 60)->name, "box");
  EXPECT_EQ(analysis.job(1)->state, "running");
  EXPECT_EQ(analysis.job(1)->claimed_until_ms, 9'000);
  EXPECT_EQ(*analysis.add_worker("next", "hash-next", 61), 2) << "numbers go on";
  PositionAnalysisStore positions(sql::postgres_connection(pg));
  EXPECT_EQ(positions.job(1)->sgf, "(;SZ[9];B[ee])");
  EXPECT_EQ(positions.job(1)->from_move, 1);
  EXPECT_EQ(positions.enqueue(1, 4, bob, "(;SZ[9])", 0, 61), 2) << "numbers go on";
  GroupStore groups(sql::postgres_connection(pg));
  EXPECT_EQ(groups.group(1)->name, "Club");
  EXPECT_EQ(groups.role(1, bob), "member");
  EXPECT_EQ(groups.chat(1, std::nullopt, 10)[0].text, "hi");
  EXPECT_GT(*groups.create({"Second", "", "open", bob}, 60), 2) << "numbers go on";
  LadderStore ladders(sql::postgres_connection(pg));
  EXPECT_EQ(ladders.players(1)[1].user_id, bob);
  EXPECT_EQ(ladders.challenge(1)->state, "open");
  EXPECT_EQ(ladders.add_challenge(1, ann, bob, 61, 9'000), 2) << "numbers go on";
  ClassStore classes(sql::postgres_connection(pg));
  EXPECT_TRUE(classes.is_teacher(ann));
  EXPECT_EQ(classes.class_of_student(bob), 2);
  EXPECT_TRUE(classes.protected_student(bob));
  EXPECT_EQ(classes.lessons(bob), std::vector<std::string>{"liberties"});
  RelayStore relays(sql::postgres_connection(pg));
  const auto relay = relays.relay(1);
  ASSERT_TRUE(relay);
  EXPECT_EQ(relay->event, "Club championship");
  EXPECT_EQ(relay->last_move, "Q16");
  EXPECT_DOUBLE_EQ(relay->komi, 6.5);
  RelayRow next = *relay;
  next.created_at_ms = 70;
  EXPECT_EQ(relays.create(next), 2) << "numbers go on";
  SimulStore simuls(sql::postgres_connection(pg));
  EXPECT_EQ(simuls.players(1).size(), 1U);
  PairStore pairs(sql::postgres_connection(pg));
  EXPECT_EQ(pairs.players(1).front().team, "white");
  EXPECT_EQ(pairs.create(ann, "Again", "{}", 2, 70), 2) << "numbers go on";
  PushStore push(sql::postgres_connection(pg));
  EXPECT_EQ(push.server_key("vapid", "another", 60), "scalar") << "the key made first is kept";
  const auto queued = push.claim(60, 70);
  ASSERT_TRUE(queued) << "the message not yet sent is sent from PostgreSQL";
  EXPECT_EQ(queued->subscription.endpoint, "https://push.example.net/a");
  EXPECT_EQ(queued->subscription.choices, (PushChoices{true, false, true}));
  EXPECT_EQ(queued->push.topic, "game-1");
  const auto suspended = accounts.user_by_id(bob);
  EXPECT_EQ(suspended->suspended_until_ms, 9'000);
  EXPECT_EQ(suspended->moderation_reason, "rude in chat");
  EXPECT_TRUE(suspended->restricted_at(8'999));
  EXPECT_FALSE(suspended->restricted_at(9'000));
  ModerationStore moderation(sql::postgres_connection(pg));
  const auto log = moderation.audit_log({});
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log[1].action, "suspend");
  EXPECT_EQ(log[1].actor_name, "Ann");
  EXPECT_EQ(log[1].target_name, "bob");
  EXPECT_EQ(log[2].actor_id, std::nullopt) << "the command line";
  EXPECT_EQ(moderation.take_invite("abcd-efgh-jkmn", 40), 1);
  const auto reports = moderation.reports("open", {});
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].text, "see game 1");
  EXPECT_EQ(reports[0].game_id, 1);
  EXPECT_EQ(moderation.all_blocks(),
            (std::vector<std::pair<std::int64_t, std::int64_t>>{{ann, bob}}));
  EXPECT_EQ(moderation.add_report(
                Report{.at_ms = 41, .reporter_id = bob, .target_id = ann, .category = "spam"}),
            2)
      << "numbers go on";

  const auto open = games.open_challenges();
  ASSERT_EQ(open.size(), 1u);
  EXPECT_EQ(open[0].opponent_id, ann);
  const auto unfinished = games.unfinished_games();
  ASSERT_EQ(unfinished.size(), 1u);
  EXPECT_EQ(unfinished[0].created.nigiri_secret, "secret");
  ASSERT_EQ(unfinished[0].events.size(), 3u);
  EXPECT_TRUE(unfinished[0].events[1].spectators_only);
  EXPECT_EQ(unfinished[0].events[2].text, "text 3");
  EXPECT_EQ(games.game(1)->black_id, bob) << "seated by the nigiri";
  EXPECT_EQ(games.game(2)->result, "W+R");
  EXPECT_EQ(games.finished_sgf(2), "(;GM[1]SZ[13])");
  const auto rated = games.rating(bob);
  ASSERT_TRUE(rated);
  EXPECT_EQ(rated->rating, rating) << "to the last bit";
  EXPECT_EQ(rated->deviation, deviation);
  EXPECT_EQ(games.rating_history(ann, 10).size(), 1u);
  const auto commands = games.recent_commands(10);
  EXPECT_EQ(commands.size(), 6u) << "4 events' cids and 2 challenges'";
  const auto tournaments = games.tournaments();
  ASSERT_EQ(tournaments.size(), 1u);
  EXPECT_EQ(tournaments[0].created.name, "Autumn");
  ASSERT_EQ(tournaments[0].events.size(), 1u);
  EXPECT_EQ(tournaments[0].events[0].cid, "t-2");
  EXPECT_EQ(games.last_game_id(), 2);
  const auto reviews = games.open_reviews();
  ASSERT_EQ(reviews.size(), 1u) << "the closed one is not open";
  EXPECT_EQ(reviews[0].created.game_id, 2);
  ASSERT_EQ(reviews[0].events.size(), 1u);
  EXPECT_EQ(reviews[0].events[0].by_user, ann);
  ASSERT_TRUE(games.closed_review(2));
  EXPECT_EQ(games.closed_review(2)->sgf, "(;SZ[9];B[ee])");
  EXPECT_EQ(games.closed_review(1), std::nullopt);
  EXPECT_EQ(games.last_review_id(), 2);

  try {
    import_sqlite(file.path(), pg);
    ADD_FAILURE() << "imported twice";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("import only into a new, empty database"),
              std::string::npos)
        << e.what();
  }
}

TEST(Import, AFileAtAnOlderSchemaOrNoneAtAllIsRefusedSayingWhatToDo) {
  testing::TempDatabase file;
  {
    Database db(file.path());
    migrate(db, migrations::all().first(2));
  }
  const std::string pg = TempPostgres::instance().new_database();
  try {
    import_sqlite(file.path(), pg);
    ADD_FAILURE() << "imported an old file";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("start this server on it once"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(import_sqlite(file.path() + ".missing", pg), std::runtime_error);
}

}  // namespace
}  // namespace tengen::store
