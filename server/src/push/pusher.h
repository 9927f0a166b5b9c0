#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "clock.h"
#include "lobby/player_notice.h"
#include "push/web_push.h"
#include "store/push_store.h"

namespace tengen {

// Web Push to players' devices (docs/web-client.md, "Push"): a device subscribes (its browser's
// PushSubscription, with what its player wants to be told there); "your move" in a correspondence
// game, a game of theirs starting, a tournament round starting with a game of theirs, their
// opponent in a live game coming back are written to the store's queue and sent by the pusher's own
// thread, encrypted for the device (RFC 8291) and signed with the server's VAPID key (RFC 8292,
// made at first start and kept in the store), retried with backoff, and a device its push service
// says is gone (404, 410) forgotten. The payload names what happened, never words: the device's
// service worker says it in its player's language. Endpoints are only those of the known push
// services (and the operator's own,
// --push-services): the server never posts to an address a player made up.
class Pusher {
 public:
  struct Options {
    std::string subject = "mailto:tengen@localhost";  // the VAPID contact (RFC 8292 "sub")
    // Push services beyond the browsers' own: origins ("https://push.example.org"; "http://" too,
    // for a test's service on loopback).
    std::vector<std::string> services;
    std::chrono::milliseconds poll = std::chrono::seconds(10);
    std::chrono::milliseconds keep = std::chrono::hours(24 * 7);  // sent ones, then pruned
    int devices_per_user = 10;
    int pushes_per_user_per_day = 200;
    int max_attempts = 8;
  };
  struct Response {
    long status = 0;  // 0: no answer (the connection failed)
    std::optional<std::chrono::seconds> retry_after{};
    std::string error{};
  };
  using Post = std::function<Response(
      const std::string& url, const std::vector<std::string>& headers, const std::string& body)>;

  // Loads the server's key from the store (making it the first time). `post` sends (libcurl:
  // push::http_post); without one nothing is sent, and the queue keeps what is due.
  Pusher(store::PushStore& store, Clock& clock, Options options, Post post);
  ~Pusher();
  Pusher(const Pusher&) = delete;
  Pusher& operator=(const Pusher&) = delete;

  const std::string& public_key() const { return public_key_; }  // base64url, for subscribing

  struct Refusal {
    enum class Why : std::uint8_t { BadEndpoint, BadKeys, NotSubscribed };
    Why why;
    std::string message;
  };
  // A device of `user` subscribes (again: its keys and choices replaced); keys in base64url.
  std::variant<store::PushSubscription, Refusal> subscribe(std::int64_t user,
                                                           const std::string& endpoint,
                                                           const std::string& p256dh,
                                                           const std::string& auth,
                                                           store::PushChoices choices);
  bool unsubscribe(std::int64_t user, const std::string& endpoint);
  std::optional<store::PushSubscription> subscription(std::int64_t user,
                                                      const std::string& endpoint);
  // "Send a test": one message to that device now.
  std::optional<Refusal> test(std::int64_t user, const std::string& endpoint);

  // What happened, for the player's devices that want it: YourMove (correspondence) and
  // GameStarted (a round's when `round` is set); GameOver is not pushed. Kept in memory and
  // written to the queue by the pusher's thread: the caller (a game's or the lobby's owner)
  // never waits for the store.
  void notice(const PlayerNotice& notice);

  // Wakes the thread: something is due (tests; enqueueing wakes it too).
  void wake();
  store::PushCounts counts() { return store_.counts(); }

 private:
  void run();
  void queue(const PlayerNotice& n);
  void send(const store::QueuedPush& q);
  void enqueue(std::int64_t user, const std::string& kind, const std::string& payload,
               bool store::PushChoices::*wanted, const std::string& topic,
               const std::string& urgency, int ttl_s = 24 * 3600);
  bool allowed(const std::string& endpoint) const;

  store::PushStore& store_;
  Clock& clock_;
  Options options_;
  Post post_;
  push::EcKey key_;
  std::string public_key_;
  std::mutex mutex_;  // a leaf: the flags below
  std::condition_variable wake_;
  bool stopping_ = false;
  bool due_ = false;
  std::deque<PlayerNotice> notices_;  // bounded: the oldest go first
  std::thread thread_;                // last: started when the rest is ready
};

namespace push {
// POSTs `body` with `headers` over libcurl (https, or http for a test's service), no redirects,
// 10 s at most: what the push service answered.
Pusher::Response http_post(const std::string& url, const std::vector<std::string>& headers,
                           const std::string& body);
}  // namespace push

}  // namespace tengen
