#pragma once

#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "accounts/rate_limiter.h"
#include "calendar.h"
#include "clock.h"
#include "store/account_store.h"
#include "store/moderation_store.h"

namespace tengen {

// Registration, login, sessions (docs/games.md). Passwords are hashed with Argon2id; session tokens
// are 256 random bits, given to the client once and stored only as their SHA-256.
class Accounts {
 public:
  struct Options {
    // libsodium's "interactive" Argon2id cost by default; tests use the minimum.
    unsigned long long ops_limit;
    std::size_t mem_limit;
    int login_burst = 10;                          // attempts per user name and per address
    std::chrono::milliseconds login_refill{6000};  // one more attempt every 6 s
    // Registration control (docs/moderation.md), with a moderation store: accounts registered
    // from one address in a day without an invite (0: no limit), and whether registering needs
    // an invite code.
    int registrations_per_address = 0;
    bool invite_only = false;
    static Options interactive();
    static Options fastest_for_tests();
  };

  enum class Problem {
    BadUsername,
    WeakPassword,
    NameTaken,
    BadCredentials,
    RateLimited,
    InviteRequired,        // invite-only registration, and no code given
    BadInvite,             // no usable invite with that code
    TooManyRegistrations,  // the address's daily limit
    Suspended,             // login refused: until until_ms, for `reason`
    Banned,
  };
  struct Failure {
    Problem problem;
    std::string message;
    int retry_after_s = 0;  // RateLimited: seconds until another attempt may be taken
    std::optional<std::int64_t> until_ms{};  // Suspended
    std::string reason{};                    // Suspended, Banned: the administrator's words
  };
  struct LoggedIn {
    store::UserRecord user;
    store::SessionRecord session;
    std::string token;  // shown once; base64url, 43 characters
  };
  using Outcome = std::variant<LoggedIn, Failure>;

  // With a moderation store, registration is controlled (Options) and restricted accounts are
  // refused; without one, neither.
  Accounts(store::AccountStore& store, Clock& clock, Options options,
           store::ModerationStore* moderation = nullptr);

  // A bot account is a program playing (docs/bots.md); it is shown as one everywhere, for good.
  enum class Kind : std::uint8_t { Human, Bot };
  // Creates the account and a first session. `invite`: a code from an administrator (required
  // when registration is invite-only; never counted against the address's daily limit).
  Outcome register_user(const std::string& username, const std::string& password,
                        const std::string& user_agent, const std::string& address,
                        Kind kind = Kind::Human, const std::string& invite = {});
  // One of the server's own bots (docs/bots.md): the account is created as a bot when missing,
  // and its password becomes `password` (the server makes a new one at each start and gives it
  // only to the bridge it runs). The problem, if the name is not a bot's or not a valid name.
  std::optional<std::string> prepare_house_bot(const std::string& username,
                                               const std::string& password);
  // An account made for someone else, with no session and no e-mail (a teacher's student:
  // docs/classes.md); no address's limit applies. The account, or why not.
  std::variant<store::UserRecord, std::string> create_account(const std::string& username,
                                                              const std::string& password);
  Outcome login(const std::string& username, const std::string& password,
                const std::string& user_agent, const std::string& address);
  // The user a token belongs to, if it is a live session.
  std::optional<store::UserRecord> authenticate(const std::string& token);
  // The same with the session's id, in one lookup (a WebSocket ends with its session).
  struct LiveSession {
    store::UserRecord user;
    std::int64_t id = 0;
  };
  std::optional<LiveSession> live_session(const std::string& token);
  bool logout(const std::string& token);
  std::optional<store::UserRecord> find_user(const std::string& username);
  std::optional<store::UserRecord> find_user(std::int64_t id);
  std::vector<store::SessionRecord> sessions(std::int64_t user_id);
  // The id of the session a token opens, if it is live.
  std::optional<std::int64_t> current_session(const std::string& token);
  bool revoke(std::int64_t user_id, std::int64_t session_id);
  // Where the user's weekends fall in correspondence games (docs/correspondence.md): false when
  // `zone` is not a time zone the server knows.
  bool set_time_zone(std::int64_t user_id, const std::string& zone);

  // Vacations (docs/correspondence.md, accounts/vacation.h). A player's as of now: the days left
  // (while away, until the vacation's planned end) and, while away, when it ends.
  struct Vacation {
    std::int64_t left_ms = 0;
    std::optional<std::int64_t> until_ms{};
  };
  Vacation vacation(std::int64_t user_id);
  enum class VacationRefusal { NoneLeft, TooMany };
  // Starts one now, for as long as the days left last (already away: as it is).
  std::variant<Vacation, VacationRefusal> start_vacation(std::int64_t user_id);
  // Ends the current one now, keeping what was not used (not away: as it is).
  Vacation end_vacation(std::int64_t user_id);
  // The player's vacations that the clocks of their games in play may meet, oldest first.
  std::vector<store::VacationSpan> vacations(std::int64_t user_id);
  // What their correspondence clocks follow: their time zone and those vacations (no such user:
  // UTC, none).
  Calendar calendar(std::int64_t user_id);
  // Ends every session of the user (suspended, banned, password reset), telling each `why`
  // (what the page is told: "suspended until <ms>", "banned"; empty: "log in again").
  void end_sessions(std::int64_t user_id, const std::string& why = {});
  // An administrator's reset (docs/moderation.md): a new random password, which is returned to be
  // passed on, logged by `audit`; every session ends. Nullopt if there is no such user.
  std::optional<std::string> reset_password(std::int64_t user_id, const store::AuditEntry& audit);
  // The player's own new password (a reset by a link sent by mail, docs/mail.md): why it is too
  // weak, or nothing once it is set; every session ends.
  std::optional<std::string> set_password(std::int64_t user_id, const std::string& password);

  // Told, on the thread that ended it, when logout or revocation ends a session: the
  // connections opened with it must not go on acting as its user.
  using SessionEnded = std::function<void(std::int64_t session_id, const std::string& why)>;
  void on_session_ended(SessionEnded told);

  // `length` random characters from 31 that cannot be mistaken for one another when read aloud
  // or copied (no i, l, o, 0, 1): about 5 bits each.
  static std::string random_code(std::size_t length);

  static std::optional<std::string> username_problem(const std::string& username);
  static std::optional<std::string> password_problem(const std::string& username,
                                                     const std::string& password);

 private:
  // When the next attempt is allowed after a refusal: one token back (Retry-After).
  int retry_after_s() const {
    return static_cast<int>((options_.login_refill.count() + 999) / 1000);
  }
  std::string hash_password(const std::string& password) const;
  // Takes an attempt from `key`'s bucket (under mutex_): in the store when it keeps them for
  // every node (PostgreSQL), else in this server's memory.
  bool take_attempt(const std::string& key);
  LoggedIn open_session(const store::UserRecord& user, const std::string& user_agent);

  Vacation vacation_at(const store::UserRecord& user, std::int64_t now);  // under mutex_
  // Why an account may not log in now, if it may not.
  std::optional<Failure> restriction(const store::UserRecord& user) const;
  // The invite taken for a registration (nullopt: none needed), or why it cannot go on.
  std::variant<std::optional<std::int64_t>, Failure> admit(const std::string& address,
                                                           const std::string& invite);

  store::AccountStore& store_;
  Clock& clock_;
  store::ModerationStore* moderation_;
  Options options_;
  std::string dummy_hash_;      // verified against for unknown names, so timing does not tell
  std::mutex mutex_;            // the store and the limiter; hashing happens outside it
  SessionEnded session_ended_;  // under mutex_; called outside it
  RateLimiter limiter_;
};

}  // namespace tengen
