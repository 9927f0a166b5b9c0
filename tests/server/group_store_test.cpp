// The group store (docs/groups.md), written once over store::sql::Connection, on both backends: a
// real SQLite file and a real PostgreSQL. Names unique whatever their case, the owner a member
// from the start, roles and their order, the invitation link by its hash, closing and deleting,
// the chat bounded to its latest lines with deleted lines keeping their place, and the games
// between members only.
#include "store/group_store.h"

#include <gtest/gtest.h>

#include <memory>

#include "store/class_store.h"
#include "store/ladder_store.h"
#include "store/migrate.h"
#include "store/postgres.h"
#include "store/postgres_migrate.h"
#include "store/sql_postgres.h"
#include "store/sqlite.h"
#include "support/temp_database.h"
#include "support/temp_postgres.h"

namespace tengen::store {
namespace {

class Backend {
 public:
  virtual ~Backend() = default;
  virtual void exec(const std::string& sql) = 0;
  std::unique_ptr<GroupStore> store;
  std::unique_ptr<LadderStore> ladders;
  std::unique_ptr<ClassStore> classes;
};

class Sqlite final : public Backend {
 public:
  Sqlite() : db_(temp_.path()) {
    migrate(db_);
    store = std::make_unique<GroupStore>(sql::sqlite_connection(temp_.path()));
    ladders = std::make_unique<LadderStore>(sql::sqlite_connection(temp_.path()));
    classes = std::make_unique<ClassStore>(sql::sqlite_connection(temp_.path()));
  }
  void exec(const std::string& sql) override { db_.exec(sql); }

 private:
  testing::TempDatabase temp_;
  Database db_;
};

class Postgres final : public Backend {
 public:
  Postgres() : conninfo_(testing::TempPostgres::instance().new_database()), db_(conninfo_) {
    pg::migrate(db_);
    store = std::make_unique<GroupStore>(sql::postgres_connection(conninfo_));
    ladders = std::make_unique<LadderStore>(sql::postgres_connection(conninfo_));
    classes = std::make_unique<ClassStore>(sql::postgres_connection(conninfo_));
  }
  void exec(const std::string& sql) override { db_.exec(sql); }

 private:
  std::string conninfo_;
  pg::Connection db_;
};

class GroupStores : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "sqlite")
      backend_ = std::make_unique<Sqlite>();
    else
      backend_ = std::make_unique<Postgres>();
    backend_->exec(
        "INSERT INTO users(id, username, password_hash, created_at) VALUES (1, 'ann', 'h', 1),"
        " (2, 'Bob', 'h', 1), (3, 'cyd', 'h', 1), (4, 'dee', 'h', 1)");
  }
  GroupStore& store() { return *backend_->store; }
  std::int64_t make(const std::string& name, std::int64_t owner = 1) {
    return *store().create({name, "about " + name, "open", owner}, 100);
  }
  std::unique_ptr<Backend> backend_;
};

TEST_P(GroupStores, NamesAreUniqueWhateverTheirCaseAndTheOwnerIsTheFirstMember) {
  const auto id = make("Kyoto Club");
  EXPECT_FALSE(store().create({"KYOTO club", "", "open", 2}, 200)) << "the name is taken";
  const auto g = store().group(id);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->name, "Kyoto Club");
  EXPECT_EQ(g->description, "about Kyoto Club");
  EXPECT_EQ(g->joining, "open");
  EXPECT_EQ(g->owner_name, "ann");
  EXPECT_EQ(g->members, 1);
  EXPECT_FALSE(g->has_invite);
  EXPECT_FALSE(g->closed_at_ms);
  EXPECT_EQ(store().role(id, 1), "owner");
  EXPECT_EQ(store().owned_by(1), 1);
  EXPECT_EQ(store().count(), 1);
  EXPECT_FALSE(store().group(id + 100));
}

TEST_P(GroupStores, RolesAreListedOwnerFirstAndPendingOnesDoNotCount) {
  const auto id = make("club");
  store().set_role(id, 4, "member", 200);
  store().set_role(id, 2, "pending", 300);
  store().set_role(id, 3, "admin", 400);
  const auto m = store().members(id);
  ASSERT_EQ(m.size(), 4u);
  EXPECT_EQ(m[0].name, "ann");
  EXPECT_EQ(m[0].role, "owner");
  EXPECT_EQ(m[1].name, "cyd");
  EXPECT_EQ(m[2].name, "dee");
  EXPECT_EQ(m[3].name, "Bob");
  EXPECT_EQ(m[3].role, "pending");
  EXPECT_EQ(store().group(id)->members, 3);
  EXPECT_EQ(store().count_role(id, "pending"), 1);
  // Approved: joins now; promoted: keeps the day they joined.
  store().set_role(id, 2, "member", 500);
  store().set_role(id, 4, "admin", 600);
  for (const auto& member : store().members(id)) {
    if (member.user_id == 2) {
      EXPECT_EQ(member.since_ms, 500);
    } else if (member.user_id == 4) {
      EXPECT_EQ(member.since_ms, 200);
    }
  }
  EXPECT_TRUE(store().remove_member(id, 2));
  EXPECT_FALSE(store().remove_member(id, 2));
  EXPECT_FALSE(store().role(id, 2));
  const auto mine = store().of_user(4);
  ASSERT_EQ(mine.size(), 1u);
  EXPECT_EQ(mine[0].first.id, id);
  EXPECT_EQ(mine[0].second, "admin");
}

TEST_P(GroupStores, TheInvitationIsFoundByItsHashAndClosingEndsItAndTheMemberships) {
  const auto a = make("a");
  const auto b = make("b", 2);
  store().set_role(a, 3, "member", 200);
  store().set_role(b, 3, "banned", 200);
  store().set_invite(a, "hash-a");
  EXPECT_TRUE(store().group(a)->has_invite);
  EXPECT_EQ(store().group_with_invite("hash-a"), a);
  EXPECT_FALSE(store().group_with_invite("hash-b"));
  auto held = store().memberships();
  std::sort(held.begin(), held.end());
  EXPECT_EQ(held, (std::vector<std::pair<std::int64_t, std::int64_t>>{{a, 1}, {a, 3}, {b, 2}}))
      << "banned is no membership";
  EXPECT_TRUE(store().update(a, "new words", "request"));
  EXPECT_EQ(store().group(a)->joining, "request");
  EXPECT_TRUE(store().close(a, 900));
  EXPECT_FALSE(store().close(a, 901)) << "closed already";
  EXPECT_EQ(store().group(a)->closed_at_ms, 900);
  EXPECT_FALSE(store().group_with_invite("hash-a")) << "a closed group's link ends";
  EXPECT_EQ(store().memberships(), (std::vector<std::pair<std::int64_t, std::int64_t>>{{b, 2}}));
  store().add_chat(b, 2, "hello", 1000, 10);
  EXPECT_TRUE(store().remove(b));
  EXPECT_FALSE(store().group(b));
  EXPECT_TRUE(store().of_user(2).empty());
  EXPECT_FALSE(store().remove(b));
  const auto page = store().list({std::nullopt, 10});
  ASSERT_EQ(page.size(), 1u);
  EXPECT_EQ(page[0].id, a);
}

TEST_P(GroupStores, TheChatKeepsItsLatestLinesAndADeletedLineItsPlace) {
  const auto id = make("club");
  for (int i = 1; i <= 7; ++i) store().add_chat(id, 1 + i % 2, "line " + std::to_string(i), i, 5);
  const auto all = store().chat(id, std::nullopt, 50);
  ASSERT_EQ(all.size(), 5u);
  EXPECT_EQ(all.front().text, "line 3");
  EXPECT_EQ(all.back().text, "line 7");
  EXPECT_EQ(all.back().user_name, "Bob");
  const auto older = store().chat(id, all[2].id, 50);
  ASSERT_EQ(older.size(), 2u);
  EXPECT_EQ(older[1].text, "line 4");
  EXPECT_TRUE(store().delete_chat(id, all[1].id, 1));
  EXPECT_FALSE(store().delete_chat(id, all[1].id, 1)) << "deleted already";
  const auto line = store().chat_line(id, all[1].id);
  ASSERT_TRUE(line);
  EXPECT_TRUE(line->deleted);
  EXPECT_EQ(line->text, "");
  EXPECT_EQ(store().chat(id, std::nullopt, 50).size(), 5u);
  EXPECT_FALSE(store().chat_line(id + 1, all[1].id));
}

TEST_P(GroupStores, TheGroupsGamesAreThoseBetweenMembers) {
  const auto id = make("club");
  store().set_role(id, 2, "member", 100);
  store().set_role(id, 4, "pending", 100);
  // 1 v 2 (members, ended twice), 1 v 3 (not a member), 1 v 4 (pending), 2 v 1 not ended.
  backend_->exec(
      "INSERT INTO games(id, settings, first_id, second_id, black_id, white_id, created_at,"
      " ended_at, result) VALUES (1, '{}', 1, 2, 1, 2, 1, 50, 'B+R'),"
      " (2, '{}', 1, 3, 1, 3, 1, 60, 'W+R'), (3, '{}', 2, 1, 2, 1, 1, 70, 'W+3.5'),"
      " (4, '{}', 1, 4, 1, 4, 1, 80, 'B+R')");
  backend_->exec(
      "INSERT INTO games(id, settings, first_id, second_id, black_id, white_id, created_at)"
      " VALUES (5, '{}', 2, 1, 2, 1, 1)");
  const auto games = store().games(id, 10);
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[0].id, 3);
  EXPECT_EQ(games[0].black_name, "Bob");
  EXPECT_EQ(games[0].result, "W+3.5");
  EXPECT_EQ(games[0].ended_at_ms, 70);
  EXPECT_EQ(games[1].id, 1);
  EXPECT_EQ(store().games(id, 1).size(), 1u);
}

// The ladders' store (docs/groups.md, "Ladders"): rungs without gaps, one join each, challenges
// moved from state to state once, what is due, and the history.
TEST_P(GroupStores, LaddersKeepTheirRungsAndTheirChallengesMoveOnce) {
  const auto group = make("club");
  auto& ladders = *backend_->ladders;
  const auto id = ladders.create({0, group, "Ladder", "{}", 2, 3, "swap", 0, std::nullopt}, 100);
  EXPECT_EQ(ladders.ladder(id)->name, "Ladder");
  EXPECT_EQ(ladders.of_group(group).size(), 1u);
  EXPECT_EQ(ladders.join(id, 1, 100), 1);
  EXPECT_EQ(ladders.join(id, 2, 100), 2);
  EXPECT_EQ(ladders.join(id, 3, 100), 3);
  EXPECT_FALSE(ladders.join(id, 3, 100)) << "on it already";
  // A vacation of the account marks its player away while it lasts.
  backend_->exec("INSERT INTO vacations(user_id, from_ms, to_ms) VALUES (2, 150, 250)");
  EXPECT_FALSE(ladders.players(id)[1].away) << "no instant asked: the ladder's own mark only";
  EXPECT_TRUE(ladders.players(id, 200)[1].away);
  EXPECT_FALSE(ladders.players(id, 250)[1].away) << "over";
  EXPECT_FALSE(ladders.players(id, 200)[0].away);
  EXPECT_TRUE(ladders.on_vacation(2, 150));
  EXPECT_FALSE(ladders.on_vacation(2, 100));
  const auto c = ladders.add_challenge(id, 3, 2, 200, 1000);
  EXPECT_TRUE(ladders.move(c, "open", "playing", std::nullopt, 300));
  EXPECT_FALSE(ladders.move(c, "open", "playing", std::nullopt, 300)) << "moved once";
  EXPECT_TRUE(ladders.due(5000).empty()) << "playing, its game not over";
  const auto late = ladders.add_challenge(id, 2, 1, 200, 1000);
  ASSERT_EQ(ladders.due(1000).size(), 1u);
  EXPECT_EQ(ladders.due(1000)[0].id, late);
  EXPECT_EQ(ladders.due(1000)[0].challenger_name, "Bob");
  EXPECT_TRUE(ladders.leave(id, 1, 400));
  EXPECT_EQ(ladders.challenge(late)->state, "cancelled") << "its defender left";
  const auto players = ladders.players(id);
  ASSERT_EQ(players.size(), 2u);
  EXPECT_EQ(players[0].name, "Bob");
  EXPECT_EQ(players[0].rung, 1);
  EXPECT_EQ(players[1].rung, 2);
  ladders.set_rungs(id, {{2, 2}, {3, 1}});
  EXPECT_EQ(ladders.players(id)[0].name, "cyd");
  EXPECT_TRUE(ladders.set_away(id, 2, true));
  EXPECT_TRUE(ladders.players(id)[1].away);
  ladders.add_event(id, 500, R"({"kind":"joined","user":"ann"})");
  ladders.add_event(id, 600, R"({"kind":"left","user":"ann"})");
  EXPECT_EQ(ladders.events(id, 1)[0].second, R"({"kind":"left","user":"ann"})");
  EXPECT_EQ(ladders.challenges(id, true, 10).size(), 1u);
  EXPECT_EQ(ladders.challenges(id, false, 10).size(), 2u);
  EXPECT_TRUE(ladders.close(id, 700));
  EXPECT_EQ(ladders.ladder(id)->closed_at_ms, 700);
  EXPECT_TRUE(store().remove(group));
  EXPECT_FALSE(ladders.ladder(id)) << "gone with its group";
}

// Classes (docs/classes.md): a class is a group with a row of its own, hidden from the list; its
// students, the protection the centre keeps, teachers, and each account's course.
TEST_P(GroupStores, AClassKeepsItsStudentsItsProtectionAndTheirCourse) {
  auto& classes = *backend_->classes;
  backend_->exec(
      "INSERT INTO users(id, username, password_hash, created_at, is_bot) VALUES"
      " (5, 'gnugo', 'h', 1, true)");
  make("Open Club");
  const auto id = *store().create({"Group 6B", "", "invite", 1}, 100);
  classes.add_class(id, 100);
  classes.add_student(id, 2, "Bob B.", 110);
  classes.add_student(id, 3, "Cyd", 120);
  EXPECT_TRUE(store().group(id)->is_class);
  ASSERT_EQ(store().list({}).size(), 1u) << "a class is not listed";
  EXPECT_EQ(store().list({})[0].name, "Open Club");
  EXPECT_EQ(store().role(id, 2), "member");
  EXPECT_EQ(classes.class_of_student(3), id);
  EXPECT_FALSE(classes.class_of_student(1)) << "the teacher is no student";
  EXPECT_TRUE(classes.protected_student(2));
  EXPECT_EQ(classes.count_students(id), 2);
  EXPECT_EQ(classes.owned_by(1).size(), 1u);
  EXPECT_TRUE(classes.owned_by(2).empty());

  auto p = classes.protection();
  EXPECT_EQ(p.students.size(), 2u);
  EXPECT_EQ(p.members.size(), 3u) << "the teacher and two students";
  EXPECT_EQ(p.bots, std::vector<std::int64_t>{5});
  EXPECT_TRUE(classes.set_protected(id, false));
  EXPECT_FALSE(classes.protected_student(2));
  EXPECT_TRUE(classes.protection_of(id).students.empty());
  EXPECT_TRUE(classes.set_protected(id, true));
  EXPECT_EQ(classes.protection_of(id).students.size(), 2u);

  EXPECT_TRUE(classes.finish_lesson(2, "liberties", 200, 2));
  EXPECT_TRUE(classes.finish_lesson(2, "liberties", 210, 2)) << "kept already";
  EXPECT_TRUE(classes.finish_lesson(2, "capture", 220, 2));
  EXPECT_FALSE(classes.finish_lesson(2, "ko", 230, 2)) << "two at most here";
  EXPECT_EQ(classes.lessons(2), (std::vector<std::string>{"liberties", "capture"}));
  backend_->exec(std::string("INSERT INTO sessions(user_id, token_hash, created_at, last_seen_at)"
                             " VALUES (2, ") +
                 (GetParam() == "sqlite" ? "X'aa'" : "'\\xaa'::bytea") + ", 300, 400)");
  const auto students = classes.students(id);
  ASSERT_EQ(students.size(), 2u);
  EXPECT_EQ(students[0].name, "Bob B.");
  EXPECT_EQ(students[0].username, "Bob");
  EXPECT_EQ(students[0].last_seen_ms, 400);
  EXPECT_EQ(students[0].lessons, (std::vector<std::string>{"liberties", "capture"}));
  EXPECT_FALSE(students[1].last_seen_ms);

  EXPECT_TRUE(classes.set_teacher(4, true, 1, 500));
  EXPECT_FALSE(classes.set_teacher(4, true, 1, 510)) << "already";
  EXPECT_TRUE(classes.is_teacher(4));
  EXPECT_EQ(classes.teachers().size(), 1u);
  EXPECT_TRUE(classes.set_teacher(4, false, 1, 520));
  EXPECT_FALSE(classes.is_teacher(4));

  EXPECT_TRUE(classes.archive(id, 600));
  EXPECT_FALSE(classes.archive(id, 610)) << "once";
  EXPECT_EQ(classes.class_row(id)->archived_at_ms, 600);
}

INSTANTIATE_TEST_SUITE_P(Backends, GroupStores, ::testing::Values("sqlite", "postgres"),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

}  // namespace
}  // namespace tengen::store
