#include "push/pusher.h"

#include <curl/curl.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <memory>
#include <nlohmann/json.hpp>

namespace tengen {
namespace {

using json = nlohmann::json;

// The browsers' push services (Chrome's, Firefox's, Safari's, Edge's): an endpoint elsewhere is
// refused unless the operator names its origin (--push-services).
constexpr std::array<std::string_view, 5> kServices{"fcm.googleapis.com",
                                                    "push.services.mozilla.com", "push.apple.com",
                                                    "notify.windows.com", "android.googleapis.com"};

bool known_service(std::string_view origin) {
  if (!origin.starts_with("https://")) return false;
  std::string_view host = origin.substr(8);
  host = host.substr(0, host.find(':'));
  return std::any_of(kServices.begin(), kServices.end(), [&](std::string_view s) {
    return host == s ||
           (host.size() > s.size() && host.ends_with(s) && host[host.size() - s.size() - 1] == '.');
  });
}

constexpr int kVapidHours = 12;
constexpr std::size_t kMaxNotices = 10'000;  // waiting for the pusher's thread

}  // namespace

Pusher::Pusher(store::PushStore& store, Clock& clock, Options options, Post post)
    : store_(store),
      clock_(clock),
      options_(std::move(options)),
      post_(std::move(post)),
      key_(push::EcKey::generate()) {
  // The key the store keeps: this one if it is the first (every node reads the same one after).
  const std::string kept =
      store_.server_key("vapid", push::base64url(key_.private_scalar()), clock_.unix_ms());
  const auto scalar = push::from_base64url(kept);
  auto loaded = scalar ? push::EcKey::from_private(*scalar) : std::nullopt;
  if (!loaded) throw std::runtime_error("the stored VAPID key (server_keys 'vapid') is damaged");
  key_ = std::move(*loaded);
  public_key_ = push::base64url(key_.public_point());
  thread_ = std::thread([this] { run(); });
}

Pusher::~Pusher() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void Pusher::wake() {
  {
    std::lock_guard lock(mutex_);
    due_ = true;
  }
  wake_.notify_all();
}

bool Pusher::allowed(const std::string& endpoint) const {
  const auto origin = push::origin_of(endpoint);
  if (!origin || endpoint.size() > 1024) return false;
  return known_service(*origin) || std::find(options_.services.begin(), options_.services.end(),
                                             *origin) != options_.services.end();
}

std::variant<store::PushSubscription, Pusher::Refusal> Pusher::subscribe(
    std::int64_t user, const std::string& endpoint, const std::string& p256dh,
    const std::string& auth, store::PushChoices choices) {
  if (!allowed(endpoint)) {
    return Refusal{Refusal::Why::BadEndpoint,
                   "the endpoint must be a push service's https address (at most 1024 "
                   "characters); this server takes the browsers' own push services"};
  }
  const auto point = push::from_base64url(p256dh);
  const auto secret = push::from_base64url(auth);
  // A key that encrypts is a key: a point on the curve and a 16-byte secret.
  if (!point || !secret || !push::encrypt("", *point, *secret)) {
    return Refusal{Refusal::Why::BadKeys,
                   "keys.p256dh must be a P-256 public key and keys.auth a 16-byte secret, both "
                   "base64url, as the browser's PushSubscription gives them"};
  }
  store::PushSubscription s{0,
                            user,
                            endpoint,
                            push::base64url(*point),
                            push::base64url(*secret),
                            choices,
                            clock_.unix_ms()};
  s.id = store_.subscribe(s, options_.devices_per_user);
  return s;
}

bool Pusher::unsubscribe(std::int64_t user, const std::string& endpoint) {
  return store_.unsubscribe(user, endpoint);
}

std::optional<store::PushSubscription> Pusher::subscription(std::int64_t user,
                                                            const std::string& endpoint) {
  return store_.subscription(user, endpoint);
}

std::optional<Pusher::Refusal> Pusher::test(std::int64_t user, const std::string& endpoint) {
  const auto s = store_.subscription(user, endpoint);
  if (!s) return Refusal{Refusal::Why::NotSubscribed, "this device is not subscribed"};
  store_.enqueue({s->id, "test", json{{"kind", "test"}}.dump(), "test", "normal", 600},
                 clock_.unix_ms());
  wake();
  return std::nullopt;
}

void Pusher::enqueue(std::int64_t user, const std::string& kind, const std::string& payload,
                     bool store::PushChoices::*wanted, const std::string& topic,
                     const std::string& urgency, int ttl_s) {
  const auto now = clock_.unix_ms();
  bool any = false;
  for (const auto& s : store_.subscriptions_of(user)) {
    if (!(s.choices.*wanted)) continue;
    if (store_.queued_since(user, now - 24 * 3600 * 1000) >= options_.pushes_per_user_per_day) {
      spdlog::warn("push: player {} had {} messages today; {} dropped", user,
                   options_.pushes_per_user_per_day, kind);
      return;
    }
    store_.enqueue({s.id, kind, payload, topic, urgency, ttl_s}, now);
    any = true;
  }
  if (any) wake();
}

void Pusher::notice(const PlayerNotice& n) {
  if (n.kind == PlayerNotice::Kind::GameOver) return;
  {
    std::lock_guard lock(mutex_);
    notices_.push_back(n);
    if (notices_.size() > kMaxNotices) notices_.pop_front();
    due_ = true;
  }
  wake_.notify_all();
}

void Pusher::queue(const PlayerNotice& n) {
  const std::string game = std::to_string(n.game);
  if (n.kind == PlayerNotice::Kind::OpponentBack) {
    enqueue(n.user, "opponent_back",
            json{{"kind", "opponent_back"}, {"game", n.game}, {"opponent", n.opponent}}.dump(),
            &store::PushChoices::opponent_back, "game-" + game, "high", 300);
    return;
  }
  if (n.kind == PlayerNotice::Kind::YourMove) {
    enqueue(
        n.user, "your_move",
        json{{"kind", "your_move"}, {"game", n.game}, {"opponent", n.opponent}, {"moves", n.moves}}
            .dump(),
        &store::PushChoices::your_move, "game-" + game, "normal");
    return;
  }
  const bool round = n.round > 0;
  json payload{
      {"kind", round ? "round_start" : "game_start"}, {"game", n.game}, {"opponent", n.opponent}};
  if (round) payload["round"] = n.round;
  enqueue(n.user, round ? "round_start" : "game_start", payload.dump(),
          round ? &store::PushChoices::round_start : &store::PushChoices::game_start,
          "game-" + game, "high");
}

void Pusher::run() {
  auto last_prune = clock_.unix_ms();
  for (;;) {
    std::deque<PlayerNotice> notices;
    {
      std::unique_lock lock(mutex_);
      wake_.wait_for(lock, options_.poll, [this] { return stopping_ || due_; });
      if (stopping_) return;
      due_ = false;
      notices.swap(notices_);
    }
    try {
      for (const auto& n : notices) queue(n);
      if (!post_) continue;
      for (int i = 0; i < 100; ++i) {  // then a look at stopping_
        const auto now = clock_.unix_ms();
        const auto q = store_.claim(now, now + 60'000);
        if (!q) break;
        send(*q);
      }
      const auto now = clock_.unix_ms();
      if (now - last_prune > 3600'000) {
        store_.prune(now - options_.keep.count());
        last_prune = now;
      }
    } catch (const std::exception& e) {
      spdlog::warn("push: the queue cannot be read now ({}); trying again later", e.what());
    }
  }
}

void Pusher::send(const store::QueuedPush& q) {
  const auto now = clock_.unix_ms();
  const auto& s = q.subscription;
  const auto point = push::from_base64url(s.p256dh);
  const auto secret = push::from_base64url(s.auth);
  const auto body = point && secret ? push::encrypt(q.push.payload, *point, *secret) : std::nullopt;
  const auto authorization = push::vapid_authorization(key_, s.endpoint, options_.subject,
                                                       now / 1000 + kVapidHours * 3600);
  if (!body || !authorization) {
    store_.mark_failed(q.id, "the device's keys or endpoint no longer encrypt", std::nullopt, now);
    return;
  }
  std::vector<std::string> headers{
      "Authorization: " + *authorization, "TTL: " + std::to_string(q.push.ttl_s),
      "Content-Encoding: aes128gcm", "Content-Type: application/octet-stream",
      "Urgency: " + q.push.urgency};
  if (!q.push.topic.empty()) headers.push_back("Topic: " + q.push.topic);
  const Response r = post_(s.endpoint, headers, *body);
  if (r.status >= 200 && r.status < 300) {
    store_.mark_sent(q.id, clock_.unix_ms());
  } else if (r.status == 404 || r.status == 410) {
    spdlog::info("push: a device of player {} is gone ({}); forgotten", s.user_id, r.status);
    store_.drop(s.id);
  } else if ((r.status == 0 || r.status == 429 || r.status >= 500) &&
             q.attempts + 1 < options_.max_attempts) {
    // Backoff: 30 s, 1 min, 2 min, ... or what the service asked for.
    const std::int64_t wait_ms =
        r.retry_after ? r.retry_after->count() * 1000 : (30'000LL << std::min(q.attempts, 10));
    store_.mark_failed(q.id, r.error.empty() ? std::to_string(r.status) : r.error,
                       clock_.unix_ms() + wait_ms, clock_.unix_ms());
  } else {
    spdlog::warn("push: a message to player {} refused ({} {})", s.user_id, r.status, r.error);
    store_.mark_failed(q.id, std::to_string(r.status) + " " + r.error, std::nullopt,
                       clock_.unix_ms());
  }
}

namespace push {

Pusher::Response http_post(const std::string& url, const std::vector<std::string>& headers,
                           const std::string& body) {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  const std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(),
                                                                 &curl_easy_cleanup);
  if (!curl) return {0, std::nullopt, "libcurl could not start"};
  CURL* c = curl.get();
  curl_slist* list = nullptr;
  for (const auto& h : headers) list = curl_slist_append(list, h.c_str());
  const std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> header_list(
      list, &curl_slist_free_all);
  char error[CURL_ERROR_SIZE] = {};
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(c, CURLOPT_POST, 1L);
  curl_easy_setopt(c, CURLOPT_POSTFIELDS, body.data());
  curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, header_list.get());
  curl_easy_setopt(c, CURLOPT_TIMEOUT, 10L);
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 5L);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "https,http");
  curl_easy_setopt(
      c, CURLOPT_WRITEFUNCTION, +[](char*, std::size_t size, std::size_t n, void*) {
        return size * n;  // the service's words are not needed: its status says it
      });
  const CURLcode code = curl_easy_perform(c);
  if (code != CURLE_OK) return {0, std::nullopt, error[0] ? error : curl_easy_strerror(code)};
  long status = 0;
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
  curl_off_t retry = 0;
  curl_easy_getinfo(c, CURLINFO_RETRY_AFTER, &retry);
  Pusher::Response r{status, std::nullopt, {}};
  if (retry > 0) r.retry_after = std::chrono::seconds(std::min<curl_off_t>(retry, 3600));
  return r;
}

}  // namespace push
}  // namespace tengen
