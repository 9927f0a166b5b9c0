#include "mail/mailer.h"

#include <sodium.h>
#include <spdlog/spdlog.h>

#include "accounts/tokens.h"
#include "mail/message.h"

namespace tengen {
namespace {

constexpr std::int64_t kDayMs = 24 * 3600 * 1000;
constexpr std::int64_t kHourMs = 3600 * 1000;

std::int64_t ms(std::chrono::milliseconds d) {
  return d.count();
}

// "2 days 3 hours", "5 hours", "40 minutes": what is left on a clock, for a digest.
std::string time_left(std::int64_t left_ms) {
  const std::int64_t minutes = std::max<std::int64_t>(0, left_ms / 60000);
  const auto plural = [](std::int64_t n, const char* unit) {
    return std::to_string(n) + " " + unit + (n == 1 ? "" : "s");
  };
  if (minutes >= 24 * 60) {
    const auto days = minutes / (24 * 60);
    const auto hours = minutes % (24 * 60) / 60;
    return plural(days, "day") + (hours ? " " + plural(hours, "hour") : "");
  }
  if (minutes >= 60) return plural(minutes / 60, "hour");
  return plural(minutes, "minute");
}

std::string colour(Color c) {
  return c == Color::Black ? "Black" : "White";
}

// The result for one player, in words: "You won by resignation", "You lost by 3.5 points".
std::string outcome_for(const Result& r, Color player) {
  using Kind = Result::Kind;
  if (r.kind == Kind::Void) return "The game was annulled";
  if (r.kind == Kind::Unknown) return "The game ended without a result";
  if (r.winner == Color::Empty) return "The game is a draw (jigo)";
  std::string how;
  switch (r.kind) {
    case Kind::Score: {
      char margin[32];
      std::snprintf(margin, sizeof margin, "%g", r.margin);
      how = std::string("by ") + margin + (r.margin == 1 ? " point" : " points");
      break;
    }
    case Kind::Resignation:
      how = "by resignation";
      break;
    case Kind::Time:
      how = "on time";
      break;
    case Kind::Forfeit:
      how = "by forfeit";
      break;
    default:
      break;
  }
  return std::string(r.winner == player ? "You won " : "You lost ") + how;
}

}  // namespace

Mailer::Mailer(store::MailStore& store, Accounts& accounts, Clock& clock, Options options,
               Send send, GamesWaiting waiting)
    : store_(store),
      accounts_(accounts),
      clock_(clock),
      options_(std::move(options)),
      send_(std::move(send)),
      waiting_(std::move(waiting)),
      reset_requests_(options_.reset_requests_burst, options_.reset_request_refill) {
  while (options_.public_url.ends_with('/')) options_.public_url.pop_back();
  const auto from = mail::bare_address(options_.from);
  domain_ = from.substr(from.find('@') + 1);
  if (domain_.empty() || domain_ == from) domain_ = "localhost";
}

Mailer::~Mailer() {
  stop();
}

void Mailer::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  woken_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::optional<store::MailSettings> Mailer::settings(std::int64_t user) {
  return store_.settings(user);
}

std::string Mailer::new_token(store::TokenHash& hash) const {
  auto token = random_token(32);  // 256 bits, 43 characters
  hash = hash_token(token);
  return token;
}

std::optional<store::MailToken> Mailer::live_token(const std::string& token,
                                                   const std::string& purpose,
                                                   store::TokenHash& hash) {
  hash = hash_token(token);
  auto found = store_.token(hash, clock_.unix_ms());
  if (!found || found->purpose != purpose) return std::nullopt;
  return found;
}

std::string Mailer::signature() const {
  return "\n\n-- \nTengen, " + options_.public_url + "\n";
}

std::string Mailer::unsubscribe_page(const store::MailSettings& s, const std::string& what) const {
  return link("/#/unsubscribe/" + std::to_string(s.user_id) + "/" + s.unsubscribe_key + "/" + what);
}

std::string Mailer::unsubscribe_url(const store::MailSettings& s, const std::string& what) const {
  return link("/api/v1/mail/unsubscribe?user=" + std::to_string(s.user_id) +
              "&key=" + s.unsubscribe_key + "&what=" + what);
}

bool Mailer::queue(const store::OutgoingMail& mail, std::int64_t now) {
  if (mail.user_id &&
      store_.queued_since(*mail.user_id, now - kDayMs) >= options_.mails_per_user_per_day) {
    spdlog::warn("mail: not sending '{}' to user {}: {} mails in the last day already", mail.kind,
                 *mail.user_id, options_.mails_per_user_per_day);
    return false;
  }
  store_.enqueue(mail, now);
  return true;
}

Mailer::Outcome<std::optional<store::MailSettings>> Mailer::change(std::int64_t user,
                                                                   const Change& c) {
  if (!enabled()) {
    return Refusal{Refusal::Why::Disabled,
                   "this server sends no e-mail: its operator has not set up a mail relay"};
  }
  const auto now = clock_.unix_ms();
  if (c.address && !c.address->empty()) {
    if (auto problem = mail::address_problem(*c.address))
      return Refusal{Refusal::Why::BadAddress, *problem};
  }
  if (c.address && c.address->empty()) {
    store_.delete_settings(user);
    return std::optional<store::MailSettings>{};
  }
  const auto current = store_.settings(user);
  if (!current && !c.address) {
    return Refusal{Refusal::Why::NoAddress,
                   "give an e-mail address first; then choose what is sent to it"};
  }
  store::MailSettings next = current.value_or(
      store::MailSettings{user, "", std::nullopt, true, true, false, random_token(18), 0});
  const bool new_link = c.address && (*c.address != next.address || !next.verified_at_ms);
  if (new_link) {
    if (store_.tokens_since(user, "verify", now - kDayMs) >= options_.verifications_per_day) {
      return Refusal{Refusal::Why::TooMany,
                     "at most " + std::to_string(options_.verifications_per_day) +
                         " confirmation mails a day: use a link already sent, or try tomorrow",
                     3600};
    }
    next.address = *c.address;
    next.verified_at_ms.reset();
  }
  if (c.your_move) next.your_move = *c.your_move;
  if (c.game_over) next.game_over = *c.game_over;
  if (c.digest) next.digest = *c.digest;
  store_.put_settings(next);
  if (new_link) {
    const auto name = accounts_.find_user(user).value_or(store::UserRecord{}).username;
    store::TokenHash hash{};
    const auto token = new_token(hash);
    store_.add_token(hash, {user, "verify", next.address, now, now + ms(options_.verify_valid)});
    queue({user, "verify", next.address, "Confirm your e-mail address for Tengen",
           "Hello " + name + ",\n\nopen this link to confirm that Tengen may send mail for " +
               name + " to this address:\n\n" + link("/#/mail/verify/" + token) +
               "\n\nThe link works for " + std::to_string(options_.verify_valid.count() / kHourMs) +
               " hours. If you did not ask for this, ignore this mail: nothing more will be sent "
               "to you." +
               signature()},
          now);
    wake();
  }
  return std::optional<store::MailSettings>(next);
}

Mailer::Outcome<store::MailSettings> Mailer::verify(const std::string& token) {
  store::TokenHash hash{};
  const auto found = live_token(token, "verify", hash);
  const Refusal bad{Refusal::Why::BadLink,
                    "this confirmation link is not valid: it was used already, it expired, or "
                    "another address was given since"};
  if (!found) return bad;
  auto s = store_.settings(found->user_id);
  if (!s || s->address != found->address || !store_.take_token(hash)) return bad;
  s->verified_at_ms = clock_.unix_ms();
  store_.put_settings(*s);
  return *s;
}

std::optional<Mailer::Refusal> Mailer::request_reset(const std::string& who,
                                                     const std::string& requester) {
  if (!enabled()) {
    return Refusal{Refusal::Why::Disabled,
                   "this server sends no e-mail: ask an administrator to reset your password"};
  }
  {
    std::lock_guard lock(mutex_);
    if (!reset_requests_.try_take(requester, clock_.steady_now())) {
      return Refusal{Refusal::Why::TooMany,
                     "too many password reset requests from your address: try again in a few "
                     "minutes",
                     static_cast<int>(options_.reset_request_refill.count() / 1000)};
    }
  }
  // The rest on the mailer's thread: the answer takes the same time whether or not such an
  // account exists (reading the accounts and writing a token here told which do).
  {
    std::lock_guard lock(mutex_);
    resets_.push_back(who);
    if (resets_.size() > kMaxResets) resets_.pop_front();
  }
  wake();
  return std::nullopt;
}

void Mailer::mail_reset(const std::string& who, std::int64_t now) {
  std::vector<std::int64_t> users;
  if (who.find('@') != std::string::npos) {
    users = store_.users_with_address(who, 5);
  } else if (const auto user = accounts_.find_user(who)) {
    users.push_back(user->id);
  }
  for (const auto id : users) {
    const auto s = store_.settings(id);
    const auto user = accounts_.find_user(id);
    if (!s || !s->verified_at_ms || !user || user->is_bot) continue;
    if (store_.tokens_since(id, "reset", now - kHourMs) >= options_.resets_per_hour) continue;
    store::TokenHash hash{};
    const auto token = new_token(hash);
    store_.add_token(hash, {id, "reset", s->address, now, now + ms(options_.reset_valid)});
    queue({id, "reset", s->address, "Reset your Tengen password",
           "Hello " + user->username +
               ",\n\nsomeone, you we hope, asked to reset the password of " + user->username +
               " on Tengen. Open this link to choose a new one:\n\n" + link("/#/reset/" + token) +
               "\n\nThe link works once, for an hour. If you did not ask for it, ignore this "
               "mail: your password stays as it is." +
               signature()},
          now);
  }
}

Mailer::Outcome<std::string> Mailer::reset_password(const std::string& token,
                                                    const std::string& password) {
  store::TokenHash hash{};
  const auto found = live_token(token, "reset", hash);
  const Refusal bad{Refusal::Why::BadLink,
                    "this reset link is not valid: it was used already or it expired (after an "
                    "hour); ask for a new one"};
  if (!found) return bad;
  const auto user = accounts_.find_user(found->user_id);
  if (!user) return bad;
  // Checked before the link is spent: a weak password leaves it usable.
  if (auto problem = Accounts::password_problem(user->username, password))
    return Refusal{Refusal::Why::BadPassword, *problem};
  if (!store_.take_token(hash)) return bad;
  if (auto problem = accounts_.set_password(user->id, password))
    return Refusal{Refusal::Why::BadPassword, *problem};
  return user->username;
}

Mailer::Outcome<store::MailSettings> Mailer::unsubscribe(std::int64_t user, const std::string& key,
                                                         const std::string& what) {
  auto s = store_.settings(user);
  if (!s || s->unsubscribe_key.size() != key.size() ||
      sodium_memcmp(s->unsubscribe_key.data(), key.data(), key.size()) != 0) {
    return Refusal{Refusal::Why::BadLink,
                   "this unsubscribe link is not valid: the account has no such address any "
                   "more, so nothing is sent to it"};
  }
  if (what != "your_move" && what != "game_over" && what != "digest" && what != "all") {
    return Refusal{Refusal::Why::BadLink, "'what' must be your_move, game_over, digest or all"};
  }
  if (what == "your_move" || what == "all") s->your_move = false;
  if (what == "game_over" || what == "all") s->game_over = false;
  if (what == "digest" || what == "all") s->digest = false;
  store_.put_settings(*s);
  return *s;
}

void Mailer::notice(const PlayerNotice& n) {
  if (!enabled() || n.kind == PlayerNotice::Kind::GameStarted ||
      n.kind == PlayerNotice::Kind::OpponentBack)
    return;  // not mailed
  {
    std::lock_guard lock(mutex_);
    notices_.push_back(n);
    if (notices_.size() > kMaxNotices) notices_.pop_front();
    wake_ = true;
  }
  woken_.notify_all();
}

void Mailer::wake() {
  {
    std::lock_guard lock(mutex_);
    wake_ = true;
  }
  woken_.notify_all();
}

void Mailer::mail_notice(const PlayerNotice& n, std::int64_t now) {
  const auto s = store_.settings(n.user);
  if (!s || !s->verified_at_ms) return;
  const auto user = accounts_.find_user(n.user);
  if (!user || user->is_bot) return;
  const std::string game = link("/#/game/" + std::to_string(n.game));
  const std::string footer =
      signature() + "Your mail settings: " + link("/#/user/" + user->username) + "\n";
  if (n.kind == PlayerNotice::Kind::YourMove) {
    if (!s->your_move) return;
    if (!store_.note_your_move(n.user, n.game, now - ms(options_.your_move_interval), now)) return;
    const auto minutes = options_.your_move_interval.count() / 60000;
    const std::string every = minutes == 60  ? "hour"
                              : minutes <= 1 ? "minute"
                              : minutes % 60 ? std::to_string(minutes) + " minutes"
                                             : std::to_string(minutes / 60) + " hours";
    queue({n.user, "your_move", s->address,
           "Your move against " + n.opponent + " (game " + std::to_string(n.game) + ")",
           "Hello " + user->username + ",\n\nit is your move against " + n.opponent + " in game " +
               std::to_string(n.game) + " (move " + std::to_string(n.moves + 1) + ", you play " +
               colour(n.color) + "):\n\n" + game + "\n\nYou are told at most once every " + every +
               " in a game. To stop these mails: " + unsubscribe_page(*s, "your_move") + footer,
           unsubscribe_url(*s, "your_move")},
          now);
  } else {
    if (!s->game_over) return;
    const auto outcome = outcome_for(n.result, n.color);
    queue(
        {n.user, "game_over", s->address,
         "Game " + std::to_string(n.game) + " against " + n.opponent + " is over",
         "Hello " + user->username + ",\n\nyour game against " + n.opponent + " is over after " +
             std::to_string(n.moves) + " moves. " + outcome + " (" + n.result.to_sgf() + ").\n\n" +
             game + "\n\nTo stop these mails: " + unsubscribe_page(*s, "game_over") + footer,
         unsubscribe_url(*s, "game_over")},
        now);
  }
}

void Mailer::mail_digests(std::int64_t now) {
  if (!waiting_) return;
  for (const auto& s : store_.digests_due(now, 100)) {
    const auto games = waiting_(s.user_id);
    if (!games) return;  // not known on this node: the hub's mailer sends them
    // Nothing waiting: no mail, and a look again in an hour (not at every round).
    const auto next = games->empty() ? std::min(kHourMs, ms(options_.digest_interval))
                                     : ms(options_.digest_interval);
    if (!store_.take_digest(s.user_id, s.digest_due_ms, now + next)) continue;  // another node's
    const auto user = accounts_.find_user(s.user_id);
    if (games->empty() || !user || user->is_bot) continue;
    std::string list;
    for (const auto& g : *games) {
      list += "- game " + std::to_string(g.game) + " against " + g.opponent + ", move " +
              std::to_string(g.moves + 1) +
              (g.left_ms ? ", " + time_left(*g.left_ms) + " left" : std::string()) + ": " +
              link("/#/game/" + std::to_string(g.game)) + "\n";
    }
    const auto n = games->size();
    queue({s.user_id, "digest", s.address,
           n == 1 ? std::string("1 game waits for your move")
                  : std::to_string(n) + " games wait for your move",
           "Hello " + user->username + ",\n\nthese games wait for your move:\n\n" + list +
               "\nThis digest comes once a day while games wait. To stop it: " +
               unsubscribe_page(s, "digest") + signature(),
           unsubscribe_url(s, "digest")},
          now);
  }
}

int Mailer::send_due(std::int64_t now) {
  if (!send_) return 0;
  const auto envelope_from = mail::bare_address(options_.from);
  int sent = 0;
  for (int i = 0; i < 100; ++i) {
    const auto claimed = store_.claim(now, now + 5 * 60 * 1000);
    if (!claimed) break;
    const auto& m = claimed->mail;
    const auto data =
        mail::compose({options_.from, m.recipient, m.subject, m.body, m.unsubscribe, now,
                       std::to_string(claimed->id) + "." + random_token(12) + "@" + domain_});
    const auto failure = send_(envelope_from, m.recipient, data);
    if (!failure) {
      store_.mark_sent(claimed->id, now);
      ++sent;
      continue;
    }
    const int attempts = claimed->attempts + 1;
    std::optional<std::int64_t> retry;
    if (!failure->permanent && attempts < options_.max_attempts) {
      // 1 minute, 4, 16, ... at most 6 hours apart.
      std::int64_t wait = 60 * 1000;
      for (int a = 1; a < attempts && wait < 6 * kHourMs; ++a) wait *= 4;
      retry = now + std::min(wait, 6 * kHourMs);
    }
    spdlog::warn("mail: '{}' to {} not sent ({}): {}", m.kind, m.recipient,
                 retry ? "tried again later" : "given up", failure->why);
    store_.mark_failed(claimed->id, failure->why, retry, now);
    if (!failure->permanent) break;  // the relay is unwell: the rest wait for the next round
  }
  return sent;
}

int Mailer::run_once() {
  std::lock_guard round(round_);
  const auto now = clock_.unix_ms();
  std::deque<PlayerNotice> notices;
  std::deque<std::string> resets;
  {
    std::lock_guard lock(mutex_);
    notices.swap(notices_);
    resets.swap(resets_);
  }
  for (const auto& who : resets) mail_reset(who, now);
  for (const auto& n : notices) mail_notice(n, now);
  mail_digests(now);
  const int sent = send_due(now);
  if (now - pruned_at_ >= kHourMs) {
    store_.prune(now - ms(options_.keep));
    pruned_at_ = now;
  }
  return sent;
}

void Mailer::start() {
  if (!enabled() || thread_.joinable()) return;
  thread_ = std::thread([this] {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
      lock.unlock();
      try {
        run_once();
      } catch (const std::exception& e) {
        spdlog::warn("mail: {}", e.what());
      }
      lock.lock();
      woken_.wait_for(lock, options_.poll, [this] { return wake_ || stopping_; });
      wake_ = false;
    }
  });
}

}  // namespace tengen
