// E-mail (docs/mail.md) through the real stack and a real SMTP server (Debian's python3-aiosmtpd,
// tests/support/smtp_sink.py): an address verified by its link, "your move" at most once a game per
// interval, "game over", the daily digest, password reset by a link, one-click unsubscribe (RFC
// 8058), a relay that is down or refuses, and the queue surviving a restart. The mailer's rounds
// are run by the test (run_once) on the stack's manual clock; mails travel over SMTP on loopback.
#include <gtest/gtest.h>

#include "mail/message.h"
#include "store/sqlite.h"
#include "support/game_commands.h"
#include "support/many_players.h"
#include "support/temp_smtp.h"

namespace tengen {
namespace {

using json = nlohmann::json;
using std::chrono::milliseconds;
using testing::expect_ack;

constexpr std::int64_t kHour = 3'600'000;
constexpr std::int64_t kDay = 24 * kHour;
const json kTwoDays = {{"width", 9},
                       {"time", {{"system", "correspondence"}, {"per_move_ms", 2 * kDay}}}};

// ---- the message itself ----

TEST(MailMessage, BodiesAreQuotedPrintableInShortLines) {
  const std::string long_line(100, 'a');
  const auto qp = mail::quoted_printable("x = 1 \nGo é\n" + long_line);
  EXPECT_EQ(qp.substr(0, 23), "x =3D 1=20\r\nGo =C3=A9\r\n") << qp;
  for (std::size_t at = 0, end; at < qp.size(); at = end + 2) {
    end = qp.find("\r\n", at);
    if (end == std::string::npos) end = qp.size();
    EXPECT_LE(end - at, 76u) << "a line of " << end - at;
  }
  EXPECT_EQ(testing::TempSmtp::parse("Subject: s\r\n\r\n" + qp).body, "x = 1 \nGo é\n" + long_line);
}

TEST(MailMessage, HeadersAreEncodedWordsOnlyWhenNotAscii) {
  EXPECT_EQ(mail::header_text("Your move against bob"), "Your move against bob");
  EXPECT_EQ(mail::header_text("Zug gegen Jörg"), "=?UTF-8?B?WnVnIGdlZ2VuIErDtnJn?=");
  EXPECT_EQ(mail::rfc5322_date(1'795'000'000'000), "Wed, 18 Nov 2026 11:06:40 +0000");
}

TEST(MailMessage, AddressesThatCouldBreakAHeaderAreRefused) {
  EXPECT_FALSE(mail::address_problem("alice@example.org"));
  EXPECT_FALSE(mail::address_problem("a.b+go@mail.example.co.uk"));
  EXPECT_EQ(mail::address_problem("alice@example.org\r\nBcc: everyone@example.org"),
            "an address has no spaces, brackets, quotes or punctuation such as , ; :");
  EXPECT_EQ(mail::address_problem("alice"), "an address has exactly one @");
  EXPECT_EQ(mail::address_problem("a@b@example.org"), "an address has exactly one @");
  EXPECT_EQ(mail::address_problem("alice@localhost"),
            "the part after @ must be a domain name such as example.org");
  EXPECT_EQ(mail::address_problem("@example.org"),
            "the part before @ must have 1 to 64 characters");
  EXPECT_EQ(mail::address_problem(std::string(250, 'a') + "@b.org"),
            "an address has at most 254 characters");
  EXPECT_EQ(mail::bare_address("Tengen <go@example.org>"), "go@example.org");
}

TEST(MailMessage, AComposedMailCarriesItsOneClickUnsubscribe) {
  const auto text = mail::compose({"Tengen <go@example.org>", "alice@example.org", "Game over",
                                   "Hello,\nbye", "https://go.example.org/api/v1/mail/x",
                                   1'795'000'000'000, "1.abc@example.org"});
  const auto m = testing::TempSmtp::parse(text);
  EXPECT_EQ(m.header("From"), "Tengen <go@example.org>");
  EXPECT_EQ(m.header("Message-ID"), "<1.abc@example.org>");
  EXPECT_EQ(m.header("Content-Transfer-Encoding"), "quoted-printable");
  EXPECT_EQ(m.header("List-Unsubscribe"), "<https://go.example.org/api/v1/mail/x>");
  EXPECT_EQ(m.header("List-Unsubscribe-Post"), "List-Unsubscribe=One-Click");
  EXPECT_EQ(m.body, "Hello,\nbye\n");
}

// ---- through the stack ----

class Mail : public testing::ManyPlayers {
 protected:
  void SetUp() override { open(); }
  void open(bool with_relay = true) {
    testing::LiveStack::Mail mail;
    mail.options.from = "Tengen <go@example.org>";
    mail.options.public_url = "https://go.example.org";
    if (with_relay) {
      mail.send = [this](const std::string& from, const std::string& to, const std::string& data) {
        return mail::SmtpRelay({sink_.url(), "", "", false, std::chrono::seconds(10)})
            .send(from, to, data);
      };
    }
    stack_.emplace(temp_.path(), testing::LiveStack::limits(), RoomOptions{}, mail);
  }
  // One round of the mailer, and what the relay received.
  // Mail links of `purpose` in the database, read there.
  std::int64_t tokens(const std::string& purpose) {
    store::Database db(temp_.path());
    store::Statement count(db, "SELECT count(*) FROM mail_tokens WHERE purpose = ?");
    count.bind(1, std::string_view(purpose));
    count.step();
    return count.column_int(0);
  }
  std::vector<testing::ReceivedMail> deliver() {
    stack_->mailer().run_once();
    return sink_.take();
  }
  // Gives the player an address and opens the link mailed to it.
  void verified(const std::string& name) {
    const auto [status, body] =
        request("PATCH", "/api/v1/me/mail", name, json{{"address", name + "@example.org"}}.dump());
    ASSERT_EQ(status, 200) << raw_;
    const auto mails = deliver();
    ASSERT_EQ(mails.size(), 1u);
    const auto link = mails[0].link("https://go.example.org/#/mail/verify/");
    ASSERT_FALSE(link.empty()) << mails[0].body;
    const auto token = link.substr(link.rfind('/') + 1);
    const auto [ok, settings] =
        request("POST", "/api/v1/mail/verify", "", json{{"token", token}}.dump());
    ASSERT_EQ(ok, 200) << raw_;
    ASSERT_EQ(settings["mail"]["verified"], true);
  }
  void advance(std::int64_t ms) { stack_->advance(milliseconds(ms)); }
  static std::vector<std::string> subjects(const std::vector<testing::ReceivedMail>& mails) {
    std::vector<std::string> out;
    for (const auto& m : mails) out.push_back(m.header("To") + ": " + m.header("Subject"));
    return out;
  }

  testing::TempSmtp sink_;
};

TEST_F(Mail, AnAddressIsVerifiedByTheLinkMailedToIt) {
  auto alice = player("alice");
  EXPECT_EQ(
      request("GET", "/api/v1/me/mail", "alice").second,
      json::parse(R"({"mail":{"enabled":true,"address":null,"verified":false,)"
                  R"("your_move":true,"game_over":true,"digest":false,"your_move_minutes":60}})"));
  auto [status, body] = request("PATCH", "/api/v1/me/mail", "alice",
                                json{{"address", "alice@example.org"}, {"digest", true}}.dump());
  ASSERT_EQ(status, 200) << raw_;
  EXPECT_EQ(body["mail"]["address"], "alice@example.org");
  EXPECT_EQ(body["mail"]["verified"], false);
  EXPECT_EQ(body["mail"]["digest"], true);
  EXPECT_TRUE(sink_.take().empty()) << "nothing is sent in the request's path";

  const auto mails = deliver();
  ASSERT_EQ(mails.size(), 1u);
  EXPECT_EQ(mails[0].header("To"), "alice@example.org");
  EXPECT_EQ(mails[0].header("From"), "Tengen <go@example.org>");
  EXPECT_EQ(mails[0].header("Subject"), "Confirm your e-mail address for Tengen");
  EXPECT_EQ(mails[0].header("List-Unsubscribe"), "") << "nothing to unsubscribe from";
  const auto link = mails[0].link("https://go.example.org/#/mail/verify/");
  const auto token = link.substr(link.rfind('/') + 1);
  EXPECT_EQ(token.size(), 43u) << mails[0].body;

  std::tie(status, body) = request("POST", "/api/v1/mail/verify", "", json{{"token", "x"}}.dump());
  EXPECT_EQ(status, 400);
  EXPECT_EQ(body["error"]["code"], "bad_link");
  std::tie(status, body) =
      request("POST", "/api/v1/mail/verify", "", json{{"token", token}}.dump());
  ASSERT_EQ(status, 200) << raw_;
  EXPECT_EQ(body["mail"]["verified"], true);
  std::tie(status, body) =
      request("POST", "/api/v1/mail/verify", "", json{{"token", token}}.dump());
  EXPECT_EQ(status, 400) << "a link works once";
  EXPECT_EQ(body["error"]["message"],
            "this confirmation link is not valid: it was used already, it expired, or another "
            "address was given since");
  EXPECT_EQ(request("GET", "/api/v1/me/mail", "alice").second["mail"]["verified"], true);
}

TEST_F(Mail, BadRequestsAreRefusedAndChangeNothing) {
  auto alice = player("alice");
  auto [status, body] =
      request("PATCH", "/api/v1/me/mail", "alice", json{{"your_move", false}}.dump());
  EXPECT_EQ(status, 409);
  EXPECT_EQ(body["error"]["message"],
            "give an e-mail address first; then choose what is sent to it");
  std::tie(status, body) =
      request("PATCH", "/api/v1/me/mail", "alice",
              json{{"address", "alice@example.org\r\nBcc: all@example.org"}}.dump());
  EXPECT_EQ(status, 400);
  EXPECT_EQ(body["error"]["code"], "bad_address");
  // Too long is a bad address too, said as the documentation says (it was bad_request).
  std::tie(status, body) = request("PATCH", "/api/v1/me/mail", "alice",
                                   json{{"address", std::string(250, 'a') + "@b.org"}}.dump());
  EXPECT_EQ(status, 400);
  EXPECT_EQ(body["error"]["code"], "bad_address");
  EXPECT_EQ(body["error"]["message"], "an address has at most 254 characters");
  std::tie(status, body) = request("PATCH", "/api/v1/me/mail", "alice", R"({"adress":"a@b.org"})");
  EXPECT_EQ(body["error"]["message"], "unknown field 'adress'");
  EXPECT_EQ(request("PATCH", "/api/v1/me/mail", "", R"({"address":"a@b.org"})").first, 401);
  EXPECT_EQ(request("GET", "/api/v1/me/mail", "alice").second["mail"]["address"], nullptr);
  EXPECT_TRUE(deliver().empty());

  // Five confirmation mails a day, then a refusal that says so.
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(request("PATCH", "/api/v1/me/mail", "alice",
                      json{{"address", "alice" + std::to_string(i) + "@example.org"}}.dump())
                  .first,
              200);
  }
  std::tie(status, body) =
      request("PATCH", "/api/v1/me/mail", "alice", json{{"address", "alice@example.org"}}.dump());
  EXPECT_EQ(status, 429);
  EXPECT_EQ(body["error"]["message"],
            "at most 5 confirmation mails a day: use a link already sent, or try tomorrow");
  EXPECT_EQ(request("GET", "/api/v1/me/mail", "alice").second["mail"]["address"],
            "alice4@example.org");
  EXPECT_EQ(deliver().size(), 5u);
  // An address removed is forgotten.
  std::tie(status, body) =
      request("PATCH", "/api/v1/me/mail", "alice", json{{"address", ""}}.dump());
  EXPECT_EQ(status, 200);
  EXPECT_EQ(body["mail"]["address"], nullptr);
}

TEST_F(Mail, YourMoveAtMostOnceAGamePerIntervalThenGameOverToBoth) {
  auto alice = player("alice");
  auto bob = player("bob");
  verified("alice");
  verified("bob");
  const auto game = testing::start_game(*alice, *bob, kTwoDays);
  auto mails = deliver();
  ASSERT_EQ(mails.size(), 1u) << "Black is told of the first move";
  EXPECT_EQ(mails[0].header("To"), "alice@example.org");
  EXPECT_EQ(mails[0].header("Subject"),
            "Your move against bob (game " + std::to_string(game) + ")");
  EXPECT_NE(mails[0].body.find("it is your move against bob in game " + std::to_string(game) +
                               " (move 1, you play Black):\n\nhttps://go.example.org/#/game/" +
                               std::to_string(game)),
            std::string::npos)
      << mails[0].body;
  EXPECT_TRUE(mails[0]
                  .header("List-Unsubscribe")
                  .starts_with("<https://go.example.org/api/v1/mail/unsubscribe?user="))
      << mails[0].header("List-Unsubscribe");
  EXPECT_TRUE(mails[0].header("List-Unsubscribe").ends_with("&what=your_move>"));
  EXPECT_NE(mails[0].body.find("To stop these mails: https://go.example.org/#/unsubscribe/"),
            std::string::npos)
      << "and a link to a page that asks first";

  expect_ack(alice->command(testing::play(game, "E5")));
  mails = deliver();
  ASSERT_EQ(subjects(mails),
            std::vector<std::string>{"bob@example.org: Your move against alice (game " +
                                     std::to_string(game) + ")"});
  // Within the hour: no more mails in this game.
  advance(10 * 60'000);
  expect_ack(bob->command(testing::play(game, "C3")));
  EXPECT_TRUE(deliver().empty()) << "alice was told of this game less than an hour ago";
  expect_ack(alice->command(testing::play(game, "G7")));
  EXPECT_TRUE(deliver().empty());
  advance(kHour);
  expect_ack(bob->command(testing::play(game, "C7")));
  mails = deliver();
  ASSERT_EQ(mails.size(), 1u);
  EXPECT_EQ(mails[0].header("To"), "alice@example.org");
  EXPECT_NE(mails[0].body.find("(move 5, you play Black)"), std::string::npos) << mails[0].body;

  expect_ack(alice->command({{"type", "resign"}, {"game", game}}));
  mails = deliver();
  ASSERT_EQ(subjects(mails),
            (std::vector<std::string>{
                "alice@example.org: Game " + std::to_string(game) + " against bob is over",
                "bob@example.org: Game " + std::to_string(game) + " against alice is over"}));
  EXPECT_NE(mails[0].body.find("You lost by resignation (W+R)"), std::string::npos)
      << mails[0].body;
  EXPECT_NE(mails[1].body.find("You won by resignation (W+R)"), std::string::npos) << mails[1].body;
}

TEST_F(Mail, LiveGamesAndUnverifiedAddressesAreNotMailed) {
  auto alice = player("alice");
  auto bob = player("bob");
  verified("alice");
  ASSERT_EQ(
      request("PATCH", "/api/v1/me/mail", "bob", json{{"address", "bob@example.org"}}.dump()).first,
      200);
  EXPECT_EQ(deliver().size(), 1u) << "bob's confirmation";
  const auto live = testing::start_game(*alice, *bob, {{"width", 9}});
  expect_ack(alice->command(testing::play(live, "E5")));
  expect_ack(bob->command({{"type", "resign"}, {"game", live}}));
  const auto corr = testing::start_game(*bob, *alice, kTwoDays);
  expect_ack(bob->command(testing::play(corr, "E5")));
  EXPECT_EQ(subjects(deliver()),
            std::vector<std::string>{"alice@example.org: Your move against bob (game " +
                                     std::to_string(corr) + ")"})
      << "nothing of the live game, nothing to bob's unverified address";
}

TEST_F(Mail, OneClickUnsubscribeStopsThatKindOfMail) {
  auto alice = player("alice");
  auto bob = player("bob");
  verified("alice");
  const auto game = testing::start_game(*alice, *bob, kTwoDays);
  const auto mails = deliver();
  ASSERT_EQ(mails.size(), 1u);
  // The List-Unsubscribe header's URL, without its brackets and the public URL.
  const auto header = mails[0].header("List-Unsubscribe");
  ASSERT_TRUE(header.starts_with("<https://go.example.org/")) << header;
  const auto target = header.substr(std::string("<https://go.example.org").size(),
                                    header.size() - std::string("<https://go.example.org>").size());
  // What a mail reader does (RFC 8058): a form POST without a session.
  std::string forged = target;
  forged.insert(forged.find("key=") + 4, "x");
  auto reply = testing::http_request(stack_->port(), "POST", forged,
                                     "Content-Type: application/x-www-form-urlencoded\r\n",
                                     "List-Unsubscribe=One-Click");
  EXPECT_EQ(reply.substr(9, 3), "400") << "a wrong key";
  reply = testing::http_request(stack_->port(), "POST", target,
                                "Content-Type: application/x-www-form-urlencoded\r\n",
                                "List-Unsubscribe=One-Click");
  ASSERT_EQ(reply.substr(9, 3), "200") << reply;
  const auto settings = request("GET", "/api/v1/me/mail", "alice").second["mail"];
  EXPECT_EQ(settings["your_move"], false);
  EXPECT_EQ(settings["game_over"], true) << "only what the link named";

  expect_ack(alice->command(testing::play(game, "E5")));
  expect_ack(bob->command(testing::play(game, "C3")));
  advance(2 * kHour);
  expect_ack(alice->command(testing::play(game, "G7")));
  expect_ack(bob->command(testing::play(game, "C7")));
  EXPECT_TRUE(deliver().empty());
  expect_ack(bob->command({{"type", "resign"}, {"game", game}}));
  EXPECT_EQ(subjects(deliver()),
            std::vector<std::string>{"alice@example.org: Game " + std::to_string(game) +
                                     " against bob is over"});
}

TEST_F(Mail, APasswordIsResetByTheLinkMailedToTheVerifiedAddress) {
  auto alice = player("alice");
  verified("alice");
  auto [status, body] =
      request("POST", "/api/v1/password-reset", "", json{{"user", "nobody-here"}}.dump());
  EXPECT_EQ(status, 202) << "the same answer for an unknown name";
  std::tie(status, body) =
      request("POST", "/api/v1/password-reset", "", json{{"user", "ALICE@example.org"}}.dump());
  EXPECT_EQ(status, 202);
  // Nothing of it in the request's path, which would take longer for an account that exists:
  // no link yet until the mailer's thread runs.
  EXPECT_EQ(tokens("reset"), 0) << "looked up while the request waited";
  auto mails = deliver();
  EXPECT_EQ(tokens("reset"), 1);
  ASSERT_EQ(mails.size(), 1u);
  EXPECT_EQ(mails[0].header("Subject"), "Reset your Tengen password");
  const auto link = mails[0].link("https://go.example.org/#/reset/");
  const auto token = link.substr(link.rfind('/') + 1);
  ASSERT_EQ(token.size(), 43u) << mails[0].body;

  std::tie(status, body) = request("POST", "/api/v1/password-reset/confirm", "",
                                   json{{"token", token}, {"password", "short"}}.dump());
  EXPECT_EQ(status, 400);
  EXPECT_EQ(body["error"]["code"], "weak_password");
  std::tie(status, body) =
      request("POST", "/api/v1/password-reset/confirm", "",
              json{{"token", token}, {"password", "a new long password"}}.dump());
  ASSERT_EQ(status, 200) << raw_ << " (a weak password leaves the link usable)";
  EXPECT_EQ(body["user"]["name"], "alice");
  EXPECT_EQ(request("GET", "/api/v1/me", "alice").first, 401) << "every session ended";
  EXPECT_TRUE(std::holds_alternative<Accounts::LoggedIn>(
      stack_->accounts().login("alice", "a new long password", "test", "127.0.0.1")));
  std::tie(status, body) = request("POST", "/api/v1/password-reset/confirm", "",
                                   json{{"token", token}, {"password", "another long one"}}.dump());
  EXPECT_EQ(status, 400);
  EXPECT_EQ(body["error"]["code"], "bad_link");

  // Three links an hour for an account; the requests are still answered alike.
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(request("POST", "/api/v1/password-reset", "", json{{"user", "alice"}}.dump()).first,
              202);
  }
  EXPECT_EQ(deliver().size(), 3u);
}

TEST_F(Mail, TheQueueWaitsForARelayThatIsDownAndSurvivesARestart) {
  auto alice = player("alice");
  sink_.stop();
  ASSERT_EQ(
      request("PATCH", "/api/v1/me/mail", "alice", json{{"address", "alice@example.org"}}.dump())
          .first,
      200);
  EXPECT_EQ(stack_->mailer().run_once(), 0);
  EXPECT_EQ(stack_->mail_store().counts().pending, 1);
  alice.reset();
  stack_.reset();  // the server stops with the mail unsent
  sink_.restart();
  open();
  EXPECT_EQ(stack_->mailer().run_once(), 0) << "not before its retry, a minute after it failed";
  advance(2 * 60'000);
  const auto mails = deliver();
  ASSERT_EQ(mails.size(), 1u);
  EXPECT_EQ(mails[0].header("Subject"), "Confirm your e-mail address for Tengen");
  EXPECT_EQ(stack_->mail_store().counts().sent, 1);
}

TEST_F(Mail, AnAddressTheRelayRefusesIsGivenUpOn) {
  auto alice = player("alice");
  ASSERT_EQ(
      request("PATCH", "/api/v1/me/mail", "alice", json{{"address", "nobody@example.org"}}.dump())
          .first,
      200);
  EXPECT_EQ(stack_->mailer().run_once(), 0);
  advance(kDay);
  EXPECT_EQ(stack_->mailer().run_once(), 0);
  EXPECT_EQ(stack_->mail_store().counts().failed, 1);
  EXPECT_EQ(stack_->mail_store().counts().pending, 0);
}

TEST_F(Mail, ADailyDigestListsTheGamesWaitingWithTheirTimeLeft) {
  auto alice = player("alice");
  auto bob = player("bob");
  auto carol = player("carol");
  verified("alice");
  ASSERT_EQ(request("PATCH", "/api/v1/me/mail", "alice",
                    json{{"digest", true}, {"your_move", false}}.dump())
                .first,
            200);
  const auto first = testing::start_game(*alice, *bob, kTwoDays);
  const auto second = testing::start_game(*carol, *alice, kTwoDays);
  const auto live = testing::start_game(*alice, *carol, {{"width", 9}});
  // Past the first moves (whose countdown is not the clock): alice's clocks run in both.
  expect_ack(alice->command(testing::play(first, "E5")));
  expect_ack(bob->command(testing::play(first, "C3")));
  expect_ack(carol->command(testing::play(second, "E5")));
  expect_ack(alice->command(testing::play(second, "C3")));
  expect_ack(carol->command(testing::play(second, "G7")));
  advance(5 * kHour);
  auto mails = deliver();
  ASSERT_EQ(mails.size(), 1u);
  EXPECT_EQ(mails[0].header("Subject"), "2 games wait for your move");
  EXPECT_NE(mails[0].body.find("- game " + std::to_string(first) +
                               " against bob, move 3, 1 day 19 hours left: "
                               "https://go.example.org/#/game/" +
                               std::to_string(first)),
            std::string::npos)
      << mails[0].body;
  EXPECT_NE(mails[0].body.find("- game " + std::to_string(second) +
                               " against carol, move 4, 1 day 19 hours left"),
            std::string::npos)
      << mails[0].body;
  EXPECT_EQ(mails[0].body.find("game " + std::to_string(live)), std::string::npos)
      << "a live game is not in it";
  EXPECT_EQ(mails[0].header("List-Unsubscribe-Post"), "List-Unsubscribe=One-Click");
  advance(23 * kHour);
  EXPECT_TRUE(deliver().empty()) << "one a day";
  advance(kHour);
  expect_ack(alice->command(testing::play(first, "G7")));
  mails = deliver();
  ASSERT_EQ(mails.size(), 1u);
  EXPECT_EQ(mails[0].header("Subject"), "1 game waits for your move");
}

class MailWithoutRelay : public Mail {
 protected:
  void SetUp() override { open(false); }
};

TEST_F(MailWithoutRelay, NothingIsSentAndTheRequestsThatWouldSendAreRefused) {
  auto alice = player("alice");
  auto bob = player("bob");
  EXPECT_EQ(request("GET", "/api/v1/me/mail", "alice").second["mail"]["enabled"], false);
  const auto [status, body] =
      request("PATCH", "/api/v1/me/mail", "alice", json{{"address", "alice@example.org"}}.dump());
  EXPECT_EQ(status, 503);
  EXPECT_EQ(body["error"]["code"], "mail_disabled");
  EXPECT_EQ(request("POST", "/api/v1/password-reset", "", json{{"user", "alice"}}.dump()).first,
            503);
  const auto game = testing::start_game(*alice, *bob, kTwoDays);
  expect_ack(alice->command(testing::play(game, "E5")));
  EXPECT_EQ(stack_->mailer().run_once(), 0);
  EXPECT_EQ(stack_->mail_store().counts().pending, 0);
}

}  // namespace
}  // namespace tengen
