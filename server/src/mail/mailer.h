#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "accounts/accounts.h"
#include "accounts/rate_limiter.h"
#include "clock.h"
#include "lobby/player_notice.h"
#include "mail/smtp.h"
#include "store/mail_store.h"

namespace tengen {

// A correspondence game waiting for a player's move, for their daily digest.
struct WaitingGame {
  std::int64_t game = 0;
  std::string opponent;
  int moves = 0;
  std::optional<std::int64_t> left_ms{};  // on the player's clock, if it runs
};

// E-mail through the operator's SMTP relay (docs/mail.md): addresses verified by a link, "your
// move" in correspondence games (at most one a game per interval), "game over", a daily digest,
// password reset by a link, one-click unsubscribe. Every mail is written to the store's queue
// first and sent by the mailer's own thread, which survives restarts with the queue: a request
// never waits for the relay. Without a relay (no Send) nothing is sent and the requests that
// would send are refused.
class Mailer {
 public:
  struct Options {
    std::string from = "Tengen <tengen@localhost>";    // the From line
    std::string public_url = "http://localhost:8080";  // links in mails point here
    std::chrono::milliseconds your_move_interval = std::chrono::hours(1);  // per game and player
    std::chrono::milliseconds digest_interval = std::chrono::hours(24);
    std::chrono::milliseconds poll = std::chrono::seconds(10);  // the queue looked at
    std::chrono::milliseconds verify_valid = std::chrono::hours(48);
    std::chrono::milliseconds reset_valid = std::chrono::hours(1);
    std::chrono::milliseconds keep = std::chrono::hours(24 * 30);  // sent mails, then pruned
    int mails_per_user_per_day = 60;  // beyond, notices to the user are dropped
    int verifications_per_day = 5;    // links to verify an address, per user
    int resets_per_hour = 3;          // reset links, per user
    int reset_requests_burst = 10;    // reset requests per requesting address, then one a
    std::chrono::milliseconds reset_request_refill = std::chrono::minutes(6);  // this often
    int max_attempts = 8;  // then a mail is given up on
  };
  using Send = std::function<std::optional<mail::SendFailure>(
      const std::string& envelope_from, const std::string& to, const std::string& data)>;
  // The player's games waiting for their move; nullopt where this node cannot tell (a front
  // node of a cluster: only the hub sends digests).
  using GamesWaiting = std::function<std::optional<std::vector<WaitingGame>>(std::int64_t user)>;

  Mailer(store::MailStore& store, Accounts& accounts, Clock& clock, Options options, Send send,
         GamesWaiting waiting);
  ~Mailer();
  Mailer(const Mailer&) = delete;
  Mailer& operator=(const Mailer&) = delete;

  bool enabled() const { return static_cast<bool>(send_); }
  std::chrono::milliseconds your_move_interval() const { return options_.your_move_interval; }

  struct Refusal {
    enum class Why : std::uint8_t {
      Disabled,
      BadAddress,
      NoAddress,
      TooMany,
      BadLink,
      BadPassword
    };
    Why why;
    std::string message;
    int retry_after_s = 0;  // TooMany
  };
  template <class T>
  using Outcome = std::variant<T, Refusal>;

  // The player's settings (none: no address given).
  std::optional<store::MailSettings> settings(std::int64_t user);
  // A change from the player's page. A new address is kept unverified and sent a link; "" forgets
  // the address. Checked whole before anything changes.
  struct Change {
    std::optional<std::string> address{};
    std::optional<bool> your_move{}, game_over{}, digest{};
  };
  Outcome<std::optional<store::MailSettings>> change(std::int64_t user, const Change& change);
  // The link's token from a verification mail: the settings, now verified.
  Outcome<store::MailSettings> verify(const std::string& token);
  // A reset link for the account with this name, or for every account (at most 5) whose verified
  // address this is. Says nothing of whether there is one (nor sends anything when not), not even
  // by its time: the accounts are looked up by the mailer's thread. Refused only when mail is
  // off or `requester` (an IP address) asked too often.
  std::optional<Refusal> request_reset(const std::string& name_or_address,
                                       const std::string& requester);
  // The reset link's token and the new password: the account's name, its sessions all ended.
  Outcome<std::string> reset_password(const std::string& token, const std::string& password);
  // A one-click unsubscribe (a mail's link, RFC 8058): `what` is your_move, game_over, digest
  // or all.
  Outcome<store::MailSettings> unsubscribe(std::int64_t user, const std::string& key,
                                           const std::string& what);

  // From the hub (Services::notify): only noted here, mailed by the mailer's thread.
  void notice(const PlayerNotice& notice);

  // One round of the mailer's work, on the calling thread: the notices turned into mails, the
  // digests that are due, then every mail due sent (at most 100). The mails sent. Tests call it
  // instead of start().
  int run_once();
  // The mailer's thread: a round when told of something, and every `poll`.
  void start();
  // Ends the thread (after its round); notices are then only kept. The destructor stops it too.
  void stop();
  void wake();

 private:
  std::string link(const std::string& path) const { return options_.public_url + path; }
  // The one-click URL (List-Unsubscribe) and the page that asks first (in the body).
  std::string unsubscribe_url(const store::MailSettings& s, const std::string& what) const;
  std::string unsubscribe_page(const store::MailSettings& s, const std::string& what) const;
  std::string signature() const;  // the mails' last lines
  // The link's token if it is live and for `purpose`; its hash in `hash`, to take it.
  std::optional<store::MailToken> live_token(const std::string& token, const std::string& purpose,
                                             store::TokenHash& hash);
  std::string new_token(store::TokenHash& hash) const;
  bool queue(const store::OutgoingMail& mail, std::int64_t now);  // false: over the user's bound
  void mail_notice(const PlayerNotice& n, std::int64_t now);
  void mail_reset(const std::string& name_or_address, std::int64_t now);
  void mail_digests(std::int64_t now);
  int send_due(std::int64_t now);

  store::MailStore& store_;
  Accounts& accounts_;
  Clock& clock_;
  Options options_;
  Send send_;
  GamesWaiting waiting_;
  std::string domain_;  // of the From address, for Message-IDs

  std::mutex mutex_;  // the notices, the limiter, stopping
  std::condition_variable woken_;
  std::deque<PlayerNotice> notices_;
  static constexpr std::size_t kMaxNotices = 10000;  // beyond, the oldest are dropped
  RateLimiter reset_requests_;
  // Password resets asked for, done by the mailer's thread (request_reset).
  std::deque<std::string> resets_;
  static constexpr std::size_t kMaxResets = 1000;  // beyond, the oldest are dropped
  bool wake_ = false;
  bool stopping_ = false;
  std::mutex round_;            // one round at a time
  std::int64_t pruned_at_ = 0;  // under round_
  std::thread thread_;
};

}  // namespace tengen
