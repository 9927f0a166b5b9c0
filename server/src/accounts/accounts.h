#pragma once

#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "accounts/rate_limiter.h"
#include "clock.h"
#include "store/account_store.h"

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
    static Options interactive();
    static Options fastest_for_tests();
  };

  enum class Problem { BadUsername, WeakPassword, NameTaken, BadCredentials, RateLimited };
  struct Failure {
    Problem problem;
    std::string message;
    int retry_after_s = 0;  // RateLimited: seconds until another attempt may be taken
  };
  struct LoggedIn {
    store::UserRecord user;
    store::SessionRecord session;
    std::string token;  // shown once; base64url, 43 characters
  };
  using Outcome = std::variant<LoggedIn, Failure>;

  Accounts(store::AccountStore& store, Clock& clock, Options options);

  // A bot account is a program playing (docs/bots.md); it is shown as one everywhere, for good.
  enum class Kind : std::uint8_t { Human, Bot };
  // Creates the account and a first session.
  Outcome register_user(const std::string& username, const std::string& password,
                        const std::string& user_agent, const std::string& address,
                        Kind kind = Kind::Human);
  // One of the server's own bots (docs/bots.md): the account is created as a bot when missing,
  // and its password becomes `password` (the server makes a new one at each start and gives it
  // only to the bridge it runs). The problem, if the name is not a bot's or not a valid name.
  std::optional<std::string> prepare_house_bot(const std::string& username,
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

  // Told, on the thread that ended it, when logout or revocation ends a session: the
  // connections opened with it must not go on acting as its user.
  using SessionEnded = std::function<void(std::int64_t session_id)>;
  void on_session_ended(SessionEnded told);

  static std::optional<std::string> username_problem(const std::string& username);
  static std::optional<std::string> password_problem(const std::string& username,
                                                     const std::string& password);

 private:
  // When the next attempt is allowed after a refusal: one token back (Retry-After).
  int retry_after_s() const {
    return static_cast<int>((options_.login_refill.count() + 999) / 1000);
  }
  std::string hash_password(const std::string& password) const;
  LoggedIn open_session(const store::UserRecord& user, const std::string& user_agent);

  store::AccountStore& store_;
  Clock& clock_;
  Options options_;
  std::string dummy_hash_;      // verified against for unknown names, so timing does not tell
  std::mutex mutex_;            // the store and the limiter; hashing happens outside it
  SessionEnded session_ended_;  // under mutex_; called outside it
  RateLimiter limiter_;
};

}  // namespace tengen
