#include "accounts/accounts.h"

#include <sodium.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <ctime>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "accounts/tokens.h"
#include "accounts/vacation.h"
#include "rooms/time_off.h"

namespace tengen {
namespace {

constexpr std::size_t kTokenBytes = 32;
constexpr std::size_t kMinPassword = 8;
constexpr std::size_t kMaxPassword = 128;

// The passwords most often tried first by anyone guessing.
// The most common passwords of 8 characters or more, in lower case, in each language the web
// client speaks (the leaked-password lists' top entries for English, Dutch and German), and Go's.
constexpr auto kCommonPasswords = std::to_array<std::string_view>(
    {// everywhere
     "12345678", "123456789", "1234567890", "123123123", "11111111", "00000000", "87654321",
     "1q2w3e4r", "1qaz2wsx", "abcdefgh", "abc12345", "qwertyuiop", "qwerty123", "asdfghjkl",
     // English
     "password", "password1", "password12", "password123", "passw0rd", "iloveyou", "sunshine",
     "princess", "football", "baseball", "welcome1", "letmein1", "trustno1", "superman", "whatever",
     "starwars",
     // Dutch
     "wachtwoord", "wachtwoord1", "wachtwoord123", "welkom01", "welkom123", "geheim123", "voetbal1",
     "ikhouvanjou", "qwerty12",
     // German
     "passwort", "passwort1", "passwort123", "hallo123", "hallo1234", "geheim12", "schatzi1",
     "ichliebedich", "fussball", "qwertz123", "qwertzuiop", "schalke04",
     // Go
     "baduk123", "weiqi123", "igo12345", "tengen123", "hikaru123"});

constexpr std::int64_t kDayMs = 24LL * 3600 * 1000;

// "2026-12-01 18:00 UTC"
std::string utc_time(std::int64_t unix_ms) {
  const std::time_t seconds = static_cast<std::time_t>(unix_ms / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", &tm);
  return text;
}

store::TokenHash hash_address(const std::string& address) {
  return hash_token("address:" + address);
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

Accounts::Options Accounts::Options::interactive() {
  return {crypto_pwhash_OPSLIMIT_INTERACTIVE, crypto_pwhash_MEMLIMIT_INTERACTIVE};
}

Accounts::Options Accounts::Options::fastest_for_tests() {
  return {crypto_pwhash_OPSLIMIT_MIN, crypto_pwhash_MEMLIMIT_MIN};
}

Accounts::Accounts(store::AccountStore& store, Clock& clock, Options options,
                   store::ModerationStore* moderation)
    : store_(store),
      clock_(clock),
      moderation_(moderation),
      options_(options),
      limiter_(options.login_burst, options.login_refill) {
  if (sodium_init() < 0) throw std::runtime_error("libsodium could not be initialised");
  dummy_hash_ = hash_password("not a real password, only for timing");
}

std::string Accounts::random_code(std::size_t length) {
  constexpr std::string_view kAlphabet = "abcdefghjkmnpqrstuvwxyz23456789";
  std::string code;
  while (code.size() < length)
    code += kAlphabet[randombytes_uniform(static_cast<std::uint32_t>(kAlphabet.size()))];
  return code;
}

std::optional<std::string> Accounts::username_problem(const std::string& name) {
  if (name.size() < 3 || name.size() > 20) return "a user name has 3 to 20 characters";
  if (!std::isalpha(static_cast<unsigned char>(name[0]))) return "a user name starts with a letter";
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') {
      return "a user name has only letters, digits, '_' and '-'";
    }
  }
  return std::nullopt;
}

std::optional<std::string> Accounts::password_problem(const std::string& username,
                                                      const std::string& password) {
  // Characters are code points, not bytes: "碁" is one character (three bytes of UTF-8, which
  // the JSON reader has already checked).
  const std::string p = lower(password);
  std::vector<std::string_view> characters;
  for (std::size_t i = 0; i < p.size();) {
    std::size_t n = 1;
    while (i + n < p.size() && (static_cast<unsigned char>(p[i + n]) & 0xC0) == 0x80) ++n;
    characters.emplace_back(p.data() + i, n);
    i += n;
  }
  if (characters.size() < kMinPassword)
    return "the password is too short: use at least 8 characters";
  if (characters.size() > kMaxPassword)
    return "the password is too long: use at most 128 characters";
  if (p == lower(username)) return "the password must not be the user name";
  if (std::all_of(characters.begin(), characters.end(),
                  [&](std::string_view c) { return c == characters[0]; })) {
    return "the password is one character repeated: choose a stronger one";
  }
  if (std::find(kCommonPasswords.begin(), kCommonPasswords.end(), p) != kCommonPasswords.end()) {
    return "the password is one of the most common ones: choose a stronger one";
  }
  return std::nullopt;
}

std::string Accounts::hash_password(const std::string& password) const {
  std::array<char, crypto_pwhash_STRBYTES> out{};
  if (crypto_pwhash_str_alg(out.data(), password.data(), password.size(), options_.ops_limit,
                            options_.mem_limit, crypto_pwhash_ALG_ARGON2ID13) != 0) {
    throw std::runtime_error("out of memory hashing a password");
  }
  return out.data();
}

Accounts::LoggedIn Accounts::open_session(const store::UserRecord& user,
                                          const std::string& user_agent) {
  const std::string token = random_token(kTokenBytes);
  auto session = store_.create_session(user.id, hash_token(token), user_agent.substr(0, 200),
                                       clock_.unix_ms());
  return {user, session, token};
}

std::optional<Accounts::Failure> Accounts::restriction(const store::UserRecord& user) const {
  if (!moderation_) return std::nullopt;
  if (user.banned) {
    Failure f{Problem::Banned, "this account is closed by the administrators"};
    if (!user.moderation_reason.empty()) f.message += ": " + user.moderation_reason;
    f.reason = user.moderation_reason;
    return f;
  }
  if (user.restricted_at(clock_.unix_ms())) {
    Failure f{Problem::Suspended,
              "this account is suspended until " + utc_time(*user.suspended_until_ms)};
    if (!user.moderation_reason.empty()) f.message += ": " + user.moderation_reason;
    f.until_ms = user.suspended_until_ms;
    f.reason = user.moderation_reason;
    return f;
  }
  return std::nullopt;
}

std::variant<std::optional<std::int64_t>, Accounts::Failure> Accounts::admit(
    const std::string& address, const std::string& invite) {
  if (!moderation_) return std::optional<std::int64_t>{};
  if (!invite.empty()) {
    const auto id =
        invite.size() <= 64 ? moderation_->take_invite(invite, clock_.unix_ms()) : std::nullopt;
    if (!id) {
      return Failure{Problem::BadInvite,
                     "there is no invite with this code, or it is used up, expired or withdrawn"};
    }
    return id;
  }
  if (options_.invite_only) {
    return Failure{Problem::InviteRequired,
                   "registration on this server is by invitation: ask its administrators for an "
                   "invite code"};
  }
  if (options_.registrations_per_address > 0 &&
      moderation_->registrations_since(hash_address(address), clock_.unix_ms() - kDayMs) >=
          options_.registrations_per_address) {
    return Failure{Problem::TooManyRegistrations,
                   "too many accounts were registered from this address today: try again "
                   "tomorrow, or ask the administrators for an invite code",
                   3600};
  }
  return std::optional<std::int64_t>{};
}

bool Accounts::take_attempt(const std::string& key) {
  // Hashed like registrations' addresses: the store keeps no address or name in the clear.
  if (const auto shared =
          store_.take_attempt(hash_token(key), options_.login_burst, options_.login_refill))
    return *shared;
  return limiter_.try_take(key, clock_.steady_now());
}

Accounts::Outcome Accounts::register_user(const std::string& username, const std::string& password,
                                          const std::string& user_agent, const std::string& address,
                                          Kind kind, const std::string& invite) {
  if (auto p = username_problem(username)) return Failure{Problem::BadUsername, *p};
  if (auto p = password_problem(username, password)) return Failure{Problem::WeakPassword, *p};
  std::optional<std::int64_t> invite_id;
  {
    std::lock_guard lock(mutex_);
    if (!take_attempt("address:" + address)) {
      return Failure{Problem::RateLimited, "too many attempts from this address; wait a minute",
                     retry_after_s()};
    }
    if (store_.user_by_name(username))
      return Failure{Problem::NameTaken, "the name '" + username + "' is taken"};
    auto admitted = admit(address, invite);
    if (auto* refused = std::get_if<Failure>(&admitted)) return std::move(*refused);
    invite_id = std::get<std::optional<std::int64_t>>(admitted);
  }
  const std::string hash = hash_password(password);
  std::lock_guard lock(mutex_);
  const auto user = store_.create_user(username, hash, kind == Kind::Bot, clock_.unix_ms());
  if (!user) {
    if (invite_id) moderation_->give_back_invite(*invite_id);
    return Failure{Problem::NameTaken, "the name '" + username + "' is taken"};
  }
  if (invite_id) {
    moderation_->set_user_invite(user->id, *invite_id);
  } else if (moderation_) {
    moderation_->add_registration(hash_address(address), clock_.unix_ms());
  }
  return open_session(*user, user_agent);
}

std::optional<std::string> Accounts::prepare_house_bot(const std::string& username,
                                                       const std::string& password) {
  if (auto p = username_problem(username)) return p;
  if (auto p = password_problem(username, password)) return p;
  const std::string hash = hash_password(password);
  std::lock_guard lock(mutex_);
  auto user = store_.user_by_name(username);
  if (!user) user = store_.create_user(username, hash, true, clock_.unix_ms());
  if (!user) return "the name '" + username + "' was taken meanwhile";
  if (!user->is_bot) return "'" + username + "' is a person's account, not a bot's";
  store_.set_password_hash(user->id, hash);
  return std::nullopt;
}

std::variant<store::UserRecord, std::string> Accounts::create_account(const std::string& username,
                                                                      const std::string& password) {
  if (auto p = username_problem(username)) return *p;
  if (auto p = password_problem(username, password)) return *p;
  const std::string hash = hash_password(password);
  std::lock_guard lock(mutex_);
  auto user = store_.create_user(username, hash, false, clock_.unix_ms());
  if (!user) return "the name '" + username + "' is taken";
  return std::move(*user);
}

Accounts::Outcome Accounts::login(const std::string& username, const std::string& password,
                                  const std::string& user_agent, const std::string& address) {
  const Failure refused{Problem::BadCredentials, "wrong user name or password"};
  std::optional<store::UserRecord> user;
  {
    std::lock_guard lock(mutex_);
    if (!take_attempt("address:" + address) || !take_attempt("user:" + lower(username))) {
      return Failure{Problem::RateLimited, "too many login attempts; wait a minute",
                     retry_after_s()};
    }
    if (username.size() <= 64) user = store_.user_by_name(username);
  }
  const std::string& hash = user ? user->password_hash : dummy_hash_;
  const bool matches =
      crypto_pwhash_str_verify(hash.c_str(), password.data(), password.size()) == 0;
  if (!user || !matches) return refused;
  if (auto restricted = restriction(*user)) return std::move(*restricted);
  std::lock_guard lock(mutex_);
  return open_session(*user, user_agent);
}

std::optional<Accounts::LiveSession> Accounts::live_session(const std::string& token) {
  if (token.empty() || token.size() > 100) return std::nullopt;
  std::lock_guard lock(mutex_);
  auto found = store_.session_by_token(hash_token(token), clock_.unix_ms());
  if (!found || restriction(found->first)) return std::nullopt;
  return LiveSession{std::move(found->first), found->second.id};
}

std::optional<store::UserRecord> Accounts::authenticate(const std::string& token) {
  auto found = live_session(token);
  if (!found) return std::nullopt;
  return std::move(found->user);
}

std::optional<std::int64_t> Accounts::current_session(const std::string& token) {
  const auto found = live_session(token);
  if (!found) return std::nullopt;
  return found->id;
}

bool Accounts::logout(const std::string& token) {
  if (token.empty() || token.size() > 100) return false;
  std::optional<std::int64_t> ended;
  SessionEnded told;
  {
    std::lock_guard lock(mutex_);
    ended = store_.delete_session_by_token(hash_token(token));
    if (!ended) return false;
    told = session_ended_;
  }
  if (told) told(*ended, {});
  return true;
}

void Accounts::on_session_ended(SessionEnded told) {
  std::lock_guard lock(mutex_);
  session_ended_ = std::move(told);
}

std::optional<store::UserRecord> Accounts::find_user(const std::string& username) {
  if (username.size() > 64) return std::nullopt;
  std::lock_guard lock(mutex_);
  return store_.user_by_name(username);
}

std::optional<store::UserRecord> Accounts::find_user(std::int64_t id) {
  std::lock_guard lock(mutex_);
  return store_.user_by_id(id);
}

std::vector<store::SessionRecord> Accounts::sessions(std::int64_t user_id) {
  std::lock_guard lock(mutex_);
  return store_.sessions_of(user_id);
}

bool Accounts::revoke(std::int64_t user_id, std::int64_t session_id) {
  SessionEnded told;
  {
    std::lock_guard lock(mutex_);
    if (!store_.delete_session(user_id, session_id)) return false;
    told = session_ended_;
  }
  if (told) told(session_id, {});
  return true;
}

bool Accounts::set_time_zone(std::int64_t user_id, const std::string& zone) {
  if (!known_time_zone(zone)) return false;
  std::lock_guard lock(mutex_);
  return store_.set_time_zone(user_id, zone);
}

namespace {

// The vacation `now` is in, if any (vacations are apart and in order).
std::optional<store::VacationSpan> current(const std::vector<store::VacationSpan>& taken,
                                           std::int64_t now) {
  if (taken.empty() || taken.back().from_ms > now || taken.back().to_ms <= now) return std::nullopt;
  return taken.back();
}

}  // namespace

std::vector<store::VacationSpan> Accounts::vacations(std::int64_t user_id) {
  std::lock_guard lock(mutex_);
  return store_.vacations_of(user_id, clock_.unix_ms() - VacationPolicy::kKeptMs);
}

Calendar Accounts::calendar(std::int64_t user_id) {
  Calendar out;
  if (const auto user = find_user(user_id)) out.zone = user->time_zone;
  for (const auto& v : vacations(user_id)) out.vacations.push_back({v.from_ms, v.to_ms});
  return out;
}

Accounts::Vacation Accounts::vacation_at(const store::UserRecord& user, std::int64_t now) {
  if (const auto away = current(store_.vacations_of(user.id, now - VacationPolicy::kKeptMs), now))
    return {away->to_ms - now, away->to_ms};
  return {VacationPolicy::left(store_.vacation_balance(user.id), user.created_at_ms, now), {}};
}

Accounts::Vacation Accounts::vacation(std::int64_t user_id) {
  const auto now = clock_.unix_ms();
  std::lock_guard lock(mutex_);
  const auto user = store_.user_by_id(user_id);
  return user ? vacation_at(*user, now) : Vacation{};
}

std::variant<Accounts::Vacation, Accounts::VacationRefusal> Accounts::start_vacation(
    std::int64_t user_id) {
  const auto now = clock_.unix_ms();
  std::lock_guard lock(mutex_);
  const auto user = store_.user_by_id(user_id);
  if (!user) return VacationRefusal::NoneLeft;
  const auto taken = store_.vacations_of(user_id, now - VacationPolicy::kKeptMs);
  if (const auto away = current(taken, now)) return Vacation{away->to_ms - now, away->to_ms};
  const auto started_today = std::count_if(taken.begin(), taken.end(), [&](const auto& v) {
    return v.from_ms > now - VacationPolicy::kDayMs;
  });
  if (started_today >= VacationPolicy::kStartsPerDay) return VacationRefusal::TooMany;
  const auto stored = store_.vacation_balance(user_id);
  const auto left = VacationPolicy::left(stored, user->created_at_ms, now);
  if (left < VacationPolicy::kLeastToStartMs) return VacationRefusal::NoneLeft;
  // Refused only when another node changed the balance since it was read: whatever it did
  // (most likely the same) is the answer.
  if (!store_.begin_vacation(user_id, stored, {now, now + left}, now - VacationPolicy::kKeptMs))
    return vacation_at(*user, now);
  return Vacation{left, now + left};
}

Accounts::Vacation Accounts::end_vacation(std::int64_t user_id) {
  const auto now = clock_.unix_ms();
  std::lock_guard lock(mutex_);
  const auto user = store_.user_by_id(user_id);
  if (!user) return {};
  const auto away = current(store_.vacations_of(user_id, now - VacationPolicy::kKeptMs), now);
  if (away) store_.end_vacation(user_id, *away, now);
  return vacation_at(*user, now);
}

void Accounts::end_sessions(std::int64_t user_id, const std::string& why) {
  std::vector<std::int64_t> ended;
  SessionEnded told;
  {
    std::lock_guard lock(mutex_);
    ended = store_.delete_sessions_of(user_id);
    told = session_ended_;
  }
  if (told) {
    for (const auto id : ended) told(id, why);
  }
}

std::optional<std::string> Accounts::reset_password(std::int64_t user_id,
                                                    const store::AuditEntry& audit) {
  if (!moderation_) return std::nullopt;
  const std::string password = random_code(14);  // 69 bits
  const std::string hash = hash_password(password);
  {
    std::lock_guard lock(mutex_);
    if (!moderation_->set_password_hash(user_id, hash, audit)) return std::nullopt;
  }
  end_sessions(user_id);
  return password;
}

std::optional<std::string> Accounts::set_password(std::int64_t user_id,
                                                  const std::string& password) {
  const auto user = find_user(user_id);
  if (!user) return "there is no such account";
  if (auto problem = password_problem(user->username, password)) return problem;
  const std::string hash = hash_password(password);
  {
    std::lock_guard lock(mutex_);
    if (!store_.set_password_hash(user_id, hash)) return "there is no such account";
  }
  end_sessions(user_id);
  return std::nullopt;
}

}  // namespace tengen
