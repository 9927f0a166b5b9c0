#include "accounts/accounts.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include "store/account_store.h"
#include "store/migrate.h"
#include "support/manual_clock.h"
#include "support/temp_database.h"

namespace tengen {
namespace {

using namespace std::chrono_literals;

class AccountsTest : public ::testing::Test {
 protected:
  AccountsTest()
      : db_(temp_.path()),
        store_(store::sql::sqlite_connection((store::migrate(db_), db_))),
        accounts_(store_, clock_, Accounts::Options::fastest_for_tests()) {}

  Accounts::LoggedIn registered(const std::string& name,
                                const std::string& password = "correct horse") {
    auto outcome = accounts_.register_user(name, password, "test", "127.0.0.1");
    if (auto* f = std::get_if<Accounts::Failure>(&outcome)) ADD_FAILURE() << f->message;
    return std::get<Accounts::LoggedIn>(outcome);
  }
  std::string failure(const Accounts::Outcome& o) {
    return std::holds_alternative<Accounts::Failure>(o) ? std::get<Accounts::Failure>(o).message
                                                        : "success";
  }

  testing::TempDatabase temp_;
  store::Database db_;
  store::AccountStore store_;
  testing::ManualClock clock_;
  Accounts accounts_;
};

TEST_F(AccountsTest, RegisterGivesATokenThatAuthenticates) {
  const auto in = registered("Shusaku");
  EXPECT_EQ(in.token.size(), 43u);
  const auto user = accounts_.authenticate(in.token);
  ASSERT_TRUE(user);
  EXPECT_EQ(user->username, "Shusaku");
  EXPECT_TRUE(user->password_hash.starts_with("$argon2id$"));
  EXPECT_FALSE(accounts_.authenticate(in.token + "x"));
  EXPECT_FALSE(accounts_.authenticate(""));
}

TEST_F(AccountsTest, TheStoreHoldsOnlyTheTokensHash) {
  const auto in = registered("Shusaku");
  store::Statement rows(
      db_, "SELECT count(*) FROM sessions WHERE token_hash = ? OR CAST(token_hash AS TEXT) = ?");
  rows.bind(1, in.token).bind(2, in.token);
  rows.step();
  EXPECT_EQ(rows.column_int(0), 0);
  store::Statement hashes(db_, "SELECT length(token_hash) FROM sessions");
  ASSERT_TRUE(hashes.step());
  EXPECT_EQ(hashes.column_int(0), 32);
}

TEST_F(AccountsTest, NamesAreUniqueWithoutRegardToCase) {
  registered("Gennan");
  EXPECT_EQ(failure(accounts_.register_user("gennan", "another pass", "t", "127.0.0.2")),
            "the name 'gennan' is taken");
}

TEST_F(AccountsTest, BadNamesAndWeakPasswordsAreRefusedWithReasons) {
  auto reg = [&](const char* name, const char* password) {
    return failure(accounts_.register_user(name, password, "t", "127.0.0.1"));
  };
  EXPECT_EQ(reg("ab", "correct horse"), "a user name has 3 to 20 characters");
  EXPECT_EQ(reg("9dan", "correct horse"), "a user name starts with a letter");
  EXPECT_EQ(reg("go player", "correct horse"), "a user name has only letters, digits, '_' and '-'");
  EXPECT_EQ(reg("honinbo", "short"), "the password is too short: use at least 8 characters");
  EXPECT_EQ(reg("honinbo", "Honinbo"), "the password is too short: use at least 8 characters");
  EXPECT_EQ(reg("honinbos", "HONINBOS"), "the password must not be the user name");
  EXPECT_EQ(reg("honinbo", "aaaaaaaaaa"),
            "the password is one character repeated: choose a stronger one");
  EXPECT_EQ(reg("honinbo", "Password"),
            "the password is one of the most common ones: choose a stronger one");
  // In each language the page speaks: Dutch's and German's commonest too.
  for (const char* common : {"wachtwoord", "Welkom123", "passwort", "Hallo123", "qwertzuiop"}) {
    EXPECT_EQ(reg("honinbo", common),
              "the password is one of the most common ones: choose a stronger one")
        << common;
  }
  EXPECT_EQ(reg("honinbo", std::string(129, 'x').append("y").c_str()),
            "the password is too long: use at most 128 characters");
  // Characters, not bytes: four CJK characters are 12 bytes and still too short; a hundred are
  // 300 bytes and not too long; one accented letter repeated is one character repeated.
  EXPECT_EQ(reg("honinbo", "囲碁打ち"), "the password is too short: use at least 8 characters");
  std::string hundred;
  for (int i = 0; i < 100; ++i) hundred += i % 2 ? "碁" : "石";
  EXPECT_EQ(reg("honinbo", hundred.c_str()), "success");
  std::string repeated;
  for (int i = 0; i < 9; ++i) repeated += "é";
  EXPECT_EQ(reg("jowa", repeated.c_str()),
            "the password is one character repeated: choose a stronger one");
  std::string long_one;
  for (int i = 0; i < 129; ++i) long_one += i % 2 ? "é" : "è";
  EXPECT_EQ(reg("jowa", long_one.c_str()), "the password is too long: use at most 128 characters");
}

TEST_F(AccountsTest, LoginChecksThePasswordAndSaysNothingMore) {
  registered("Dosaku", "sente gote sente");
  EXPECT_EQ(failure(accounts_.login("Dosaku", "wrong password", "t", "10.0.0.1")),
            "wrong user name or password");
  EXPECT_EQ(failure(accounts_.login("Nobody", "sente gote sente", "t", "10.0.0.1")),
            "wrong user name or password");
  const auto ok = accounts_.login("dosaku", "sente gote sente", "t", "10.0.0.1");
  ASSERT_TRUE(std::holds_alternative<Accounts::LoggedIn>(ok)) << failure(ok);
  EXPECT_EQ(std::get<Accounts::LoggedIn>(ok).user.username, "Dosaku");
}

TEST_F(AccountsTest, LoginAttemptsAreRateLimited) {
  registered("Jowa", "yose and more yose");
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(failure(accounts_.login("Jowa", "guess " + std::to_string(i), "t", "10.0.0.9")),
              "wrong user name or password");
  }
  EXPECT_EQ(failure(accounts_.login("Jowa", "yose and more yose", "t", "10.0.0.9")),
            "too many login attempts; wait a minute");
  // Another address is limited too: the attempts were on this user name.
  EXPECT_EQ(failure(accounts_.login("Jowa", "yose and more yose", "t", "10.0.0.10")),
            "too many login attempts; wait a minute");
  clock_.advance(6s);
  EXPECT_EQ(failure(accounts_.login("Jowa", "yose and more yose", "t", "10.0.0.10")), "success");
}

TEST_F(AccountsTest, SessionsAreListedRevokedAndLoggedOut) {
  const auto first = registered("Sansa", "first of the honinbo");
  const auto second = std::get<Accounts::LoggedIn>(
      accounts_.login("Sansa", "first of the honinbo", "phone", "1.2.3.4"));
  const auto other = registered("Sanetsu", "second of the line");
  const auto sessions = accounts_.sessions(first.user.id);
  ASSERT_EQ(sessions.size(), 2u);
  EXPECT_EQ(sessions[1].user_agent, "phone");
  EXPECT_FALSE(accounts_.revoke(other.user.id, first.session.id));  // not theirs
  EXPECT_TRUE(accounts_.revoke(first.user.id, first.session.id));
  EXPECT_FALSE(accounts_.authenticate(first.token));
  EXPECT_TRUE(accounts_.authenticate(second.token));
  EXPECT_TRUE(accounts_.logout(second.token));
  EXPECT_FALSE(accounts_.authenticate(second.token));
  EXPECT_FALSE(accounts_.logout(second.token));
  EXPECT_TRUE(accounts_.authenticate(other.token));
}

}  // namespace
}  // namespace tengen
