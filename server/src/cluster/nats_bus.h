#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "cluster/bus.h"
#include "metrics.h"

typedef struct __natsConnection natsConnection;
typedef struct __natsSubscription natsSubscription;

namespace tengen::cluster {

// Bus on NATS core (Debian's nats-server; C client libnats): subjects as they are, no
// persistence. Reconnects on its own when the server goes away for a while; what was published
// meanwhile may be lost, as the Bus allows. Only the files that need NATS include this header.
class NatsBus final : public Bus {
 public:
  struct Events {
    // The connection to NATS went away, or came back: a node re-announces itself then.
    std::function<void()> disconnected, reconnected;
    // A subscriber fell behind and NATS dropped messages for it (a "slow consumer").
    std::function<void(const std::string& subject)> dropped;
  };

  // `url` as nats://host:port; `name` shows in the NATS server's monitoring. Throws if it cannot
  // connect.
  NatsBus(const std::string& url, const std::string& name, Events events = {},
          Metrics* metrics = nullptr);
  ~NatsBus() override;
  NatsBus(const NatsBus&) = delete;
  NatsBus& operator=(const NatsBus&) = delete;

  void publish(const std::string& subject, std::string_view data) override;
  std::unique_ptr<Subscription> subscribe(const std::string& subject, Handler handler) override;
  void flush() override;
  std::unique_ptr<Subscription> answer(const std::string& subject, Answerer answerer) override;
  std::optional<std::string> request(const std::string& subject, std::string_view question,
                                     std::chrono::milliseconds patience) override;

 private:
  // An answer travels in parts of at most this many bytes (NATS refuses messages over its
  // max_payload, 1 MiB by default), each "<index> <count>\n" and its bytes, in order.
  static constexpr std::size_t kAnswerPart = 512 * 1024;
  void reply(const char* to, const std::string& answer);
  void connect(const std::string& url, const std::string& name);
  static void release_library();

  Events events_;
  Metrics* metrics_;
  std::atomic<bool> closing_ = false;  // its own close is no news
  std::mutex closed_mutex_;
  std::condition_variable closed_changed_;
  bool closed_ = false;  // the library's closed callback came: no other will
  natsConnection* connection_ = nullptr;
};

}  // namespace tengen::cluster
