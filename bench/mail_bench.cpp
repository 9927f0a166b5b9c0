// What e-mail costs the server (docs/mail.md). A move in a correspondence game hands the mailer a
// notice (BM_Notice: what the hub's operation pays, a mutex and a queue). The mailer's thread
// then queues the mail and sends it: BM_QueuedMail is one mail's trip through the store's queue on
// a real SQLite file (enqueue, claim, marked sent), BM_Compose the message's text, and
// BM_SmtpSend one mail handed to a relay over SMTP with libcurl (a new connection each, as the
// mailer sends), run only when TENGEN_BENCH_SMTP names one (a local sink:
// `/usr/bin/python3 tests/support/smtp_sink.py /tmp/md /tmp/port`, then
// TENGEN_BENCH_SMTP=smtp://127.0.0.1:$(cat /tmp/port)).
//
//   build/bench/bench/mail_bench [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>

#include "accounts/accounts.h"
#include "mail/mailer.h"
#include "mail/message.h"
#include "store/account_store.h"
#include "store/mail_store.h"
#include "store/migrate.h"
#include "store/sqlite.h"

namespace {

using namespace tengen;

class FixedClock final : public Clock {
 public:
  std::chrono::steady_clock::time_point steady_now() override { return {}; }
  std::int64_t unix_ms() override { return 1'795'000'000'000; }
};

// A migrated SQLite file in the temporary folder, with one user.
struct TempFile {
  TempFile() : path(std::filesystem::temp_directory_path() / "tengen-mail-bench.sqlite3") {
    std::filesystem::remove(path);
    store::Database db(path.string());
    store::migrate(db);
    store::AccountStore(store::sql::sqlite_connection(db)).create_user("alice", "hash", false, 1);
  }
  ~TempFile() {
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path.string() + suffix);
  }
  std::filesystem::path path;
};

const std::string kBody =
    "Hello alice,\n\nit is your move against bob in game 1234 (move 57, you play Black):\n\n"
    "https://go.example.org/#/game/1234\n\nYou are told at most once every hour in a game. To "
    "stop these mails: https://go.example.org/#/unsubscribe/1/abcdefghijklmnopqrstuvwx/your_move"
    "\n\n-- \nTengen, https://go.example.org\n";

void BM_Notice(benchmark::State& state) {
  TempFile file;
  store::Database db(file.path.string());
  store::AccountStore account_store(store::sql::sqlite_connection(db));
  FixedClock clock;
  Accounts accounts(account_store, clock, Accounts::Options::fastest_for_tests());
  store::MailStore mail_store(store::sql::sqlite_connection(file.path.string()));
  Mailer mailer(mail_store, accounts, clock, {},
                [](const std::string&, const std::string&, const std::string&) {
                  return std::optional<mail::SendFailure>{};
                },
                {});
  const PlayerNotice notice{PlayerNotice::Kind::YourMove, 1234, 1, Color::Black, "bob", 56};
  for (auto _ : state) mailer.notice(notice);  // at most 10,000 kept: the oldest go
}
BENCHMARK(BM_Notice);

void BM_QueuedMail(benchmark::State& state) {
  TempFile file;
  store::MailStore mail(store::sql::sqlite_connection(file.path.string()));
  const store::OutgoingMail m{1,
                              "your_move",
                              "alice@example.org",
                              "Your move against bob",
                              kBody,
                              "https://go.example.org/api/v1/mail/unsubscribe?user=1"};
  std::int64_t now = 1'795'000'000'000;
  for (auto _ : state) {
    mail.enqueue(m, ++now);
    const auto claimed = mail.claim(now, now + 300'000);
    mail.mark_sent(claimed->id, now);
  }
}
BENCHMARK(BM_QueuedMail)->Unit(benchmark::kMicrosecond);

void BM_Compose(benchmark::State& state) {
  for (auto _ : state) {
    benchmark::DoNotOptimize(mail::compose({"Tengen <go@example.org>", "alice@example.org",
                                            "Your move against bob (game 1234)", kBody,
                                            "https://go.example.org/api/v1/mail/unsubscribe",
                                            1'795'000'000'000, "1.abc@example.org"}));
  }
}
BENCHMARK(BM_Compose)->Unit(benchmark::kMicrosecond);

void BM_SmtpSend(benchmark::State& state) {
  const char* url = std::getenv("TENGEN_BENCH_SMTP");
  if (!url) {
    state.SkipWithError("set TENGEN_BENCH_SMTP=smtp://127.0.0.1:PORT (a local sink) to run it");
    return;
  }
  const mail::SmtpRelay relay({url, "", "", false});
  const auto data = mail::compose({"Tengen <go@example.org>", "alice@example.org", "Your move",
                                   kBody, "", 1'795'000'000'000, "1.abc@example.org"});
  for (auto _ : state) {
    if (auto failure = relay.send("go@example.org", "alice@example.org", data)) {
      state.SkipWithError(failure->why.c_str());
      return;
    }
  }
}
BENCHMARK(BM_SmtpSend)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
