#include "cluster/nats_bus.h"

#include <nats/nats.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace tengen::cluster {
namespace {

void check(natsStatus status, const std::string& what) {
  if (status == NATS_OK) return;
  const char* detail = nats_GetLastError(nullptr);
  throw std::runtime_error(what + ": " + natsStatus_GetText(status) +
                           (detail && *detail ? std::string(" (") + detail + ")" : std::string()));
}

// How many buses are alive in the process. When the last goes, the library's own threads are
// stopped and joined (nats_CloseAndWait): left running at exit, one of them can be caught
// half-way by whatever runs then (LeakSanitizer's check deadlocked on it). The library opens
// itself again with the next connection.
std::mutex g_library_mutex;
int g_live_buses = 0;

// Options freed however the constructor ends.
struct Options {
  Options() { check(natsOptions_Create(&opts), "NATS options"); }
  ~Options() { natsOptions_Destroy(opts); }
  Options(const Options&) = delete;
  Options& operator=(const Options&) = delete;
  natsOptions* opts = nullptr;
};

// One subscription. The handler runs under `running`; closing takes it too, so that once
// closed, no call is running and none starts (libnats may still hand over a message it had
// queued: it is dropped). The state outlives libnats' last call, which holds a reference.
// `reply`: where the sender waits for an answer (a request), or null.
using Delivery = std::function<void(std::string_view data, const char* reply)>;
struct Receiving {
  std::mutex running;
  bool closed = false;
  Delivery handler;
};

class NatsSubscription final : public Bus::Subscription {
 public:
  NatsSubscription(natsConnection* connection, const std::string& subject, Delivery handler)
      : state_(new std::shared_ptr<Receiving>(std::make_shared<Receiving>())) {
    (*state_)->handler = std::move(handler);
    check(natsConnection_Subscribe(&sub_, connection, subject.c_str(), &NatsSubscription::arrived,
                                   state_),
          "subscribing to " + subject);
    // The closure (state_) is freed when libnats is done with the subscription.
    check(natsSubscription_SetOnCompleteCB(
              sub_, [](void* closure) { delete static_cast<std::shared_ptr<Receiving>*>(closure); },
              state_),
          "subscribing to " + subject);
    receiving_ = *state_;
  }
  ~NatsSubscription() override {
    {
      std::lock_guard lock(receiving_->running);
      receiving_->closed = true;
    }
    natsSubscription_Unsubscribe(sub_);
    natsSubscription_Destroy(sub_);
  }

 private:
  static void arrived(natsConnection*, natsSubscription*, natsMsg* msg, void* closure) {
    const auto& state = *static_cast<std::shared_ptr<Receiving>*>(closure);
    {
      std::lock_guard lock(state->running);
      if (!state->closed) {
        state->handler(std::string_view(natsMsg_GetData(msg),
                                        static_cast<std::size_t>(natsMsg_GetDataLength(msg))),
                       natsMsg_GetReply(msg));
      }
    }
    natsMsg_Destroy(msg);
  }

  std::shared_ptr<Receiving>* state_;  // libnats' closure
  std::shared_ptr<Receiving> receiving_;
  natsSubscription* sub_ = nullptr;
};

}  // namespace

NatsBus::NatsBus(const std::string& url, const std::string& name, Events events, Metrics* metrics)
    : events_(std::move(events)), metrics_(metrics) {
  {
    std::lock_guard lock(g_library_mutex);
    ++g_live_buses;
  }
  try {
    connect(url, name);
  } catch (...) {
    release_library();
    throw;
  }
}

void NatsBus::release_library() {
  std::lock_guard lock(g_library_mutex);
  if (--g_live_buses == 0) nats_CloseAndWait(5000);
}

void NatsBus::connect(const std::string& url, const std::string& name) {
  Options o;
  check(natsOptions_SetURL(o.opts, url.c_str()), "NATS address " + url);
  check(natsOptions_SetName(o.opts, name.c_str()), "NATS name");
  check(natsOptions_SetMaxReconnect(o.opts, -1), "NATS reconnects");  // keep trying
  check(natsOptions_SetReconnectWait(o.opts, 250), "NATS reconnects");
  check(natsOptions_SetDisconnectedCB(
            o.opts,
            [](natsConnection*, void* self) {
              auto* bus = static_cast<NatsBus*>(self);
              if (bus->closing_) return;
              if (auto& f = bus->events_.disconnected) f();
            },
            this),
        "NATS callbacks");
  check(natsOptions_SetReconnectedCB(
            o.opts,
            [](natsConnection*, void* self) {
              if (auto& f = static_cast<NatsBus*>(self)->events_.reconnected) f();
            },
            this),
        "NATS callbacks");
  check(natsOptions_SetErrorHandler(
            o.opts,
            [](natsConnection*, natsSubscription* sub, natsStatus err, void* self) {
              auto& f = static_cast<NatsBus*>(self)->events_.dropped;
              if (err == NATS_SLOW_CONSUMER && f && sub) f(natsSubscription_GetSubject(sub));
            },
            this),
        "NATS callbacks");
  // The library's last word on a connection, after every other callback of it.
  check(natsOptions_SetClosedCB(
            o.opts,
            [](natsConnection*, void* self) {
              auto* bus = static_cast<NatsBus*>(self);
              std::lock_guard lock(bus->closed_mutex_);
              bus->closed_ = true;
              bus->closed_changed_.notify_all();
            },
            this),
        "NATS callbacks");
  check(natsConnection_Connect(&connection_, o.opts), "cannot connect to NATS at " + url);
}

NatsBus::~NatsBus() {
  closing_ = true;
  natsConnection_Close(connection_);
  // The library calls back on a thread of its own, after Close has returned (ASan caught a
  // disconnection callback on a freed bus): wait for its closed callback, which comes last.
  {
    std::unique_lock lock(closed_mutex_);
    closed_changed_.wait_for(lock, std::chrono::seconds(5), [this] { return closed_; });
  }
  natsConnection_Destroy(connection_);
  release_library();
}

void NatsBus::publish(const std::string& subject, std::string_view data) {
  check(natsConnection_Publish(connection_, subject.c_str(), data.data(),
                               static_cast<int>(data.size())),
        "publishing on " + subject);
  if (metrics_) ++metrics_->bus_published_total;
}

std::unique_ptr<Bus::Subscription> NatsBus::subscribe(const std::string& subject, Handler handler) {
  if (metrics_) {
    handler = [metrics = metrics_, inner = std::move(handler)](std::string_view data) {
      ++metrics->bus_received_total;
      inner(data);
    };
  }
  return std::make_unique<NatsSubscription>(
      connection_, subject,
      [handler = std::move(handler)](std::string_view data, const char*) { handler(data); });
}

std::unique_ptr<Bus::Subscription> NatsBus::answer(const std::string& subject, Answerer answerer) {
  return std::make_unique<NatsSubscription>(connection_, subject,
                                            [this, subject, answerer = std::move(answerer)](
                                                std::string_view question, const char* reply) {
                                              if (metrics_) ++metrics_->bus_received_total;
                                              if (!reply || !*reply)
                                                return;  // published, not asked: nobody waits
                                              try {
                                                this->reply(reply, answerer(question));
                                              } catch (const std::exception& e) {
                                                spdlog::warn("no answer to a question on {}: {}",
                                                             subject, e.what());
                                              }
                                            });
}

void NatsBus::reply(const char* to, const std::string& answer) {
  const std::size_t count =
      std::max<std::size_t>(1, (answer.size() + kAnswerPart - 1) / kAnswerPart);
  for (std::size_t i = 0; i < count; ++i) {
    std::string part = std::to_string(i) + " " + std::to_string(count) + "\n";
    part.append(answer, i * kAnswerPart, kAnswerPart);
    publish(to, part);
  }
}

std::optional<std::string> NatsBus::request(const std::string& subject, std::string_view question,
                                            std::chrono::milliseconds patience) {
  // The answer's parts come to an inbox of this question's own, in order.
  natsInbox* inbox = nullptr;
  check(natsInbox_Create(&inbox), "an inbox for a question");
  std::unique_ptr<natsInbox, void (*)(natsInbox*)> inbox_owner(inbox, natsInbox_Destroy);
  natsSubscription* parts = nullptr;
  check(natsConnection_SubscribeSync(&parts, connection_, inbox), "an inbox for a question");
  std::unique_ptr<natsSubscription, void (*)(natsSubscription*)> parts_owner(
      parts, natsSubscription_Destroy);
  check(natsConnection_PublishRequest(connection_, subject.c_str(), inbox, question.data(),
                                      static_cast<int>(question.size())),
        "asking on " + subject);
  if (metrics_) ++metrics_->bus_published_total;
  const auto deadline = std::chrono::steady_clock::now() + patience;
  std::string answer;
  for (std::size_t expected = 0;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    natsMsg* message = nullptr;
    const natsStatus status =
        natsSubscription_NextMsg(&message, parts, std::max<std::int64_t>(1, left.count()));
    if (status != NATS_OK) {
      if (status != NATS_TIMEOUT && status != NATS_NO_RESPONDERS)
        spdlog::warn("asking on {}: {}", subject, natsStatus_GetText(status));
      return std::nullopt;
    }
    if (metrics_) ++metrics_->bus_received_total;
    const std::string_view data(natsMsg_GetData(message),
                                static_cast<std::size_t>(natsMsg_GetDataLength(message)));
    // "<index> <count>\n", then the part.
    std::size_t index = 0;
    std::size_t count = 0;
    const auto line = data.find('\n');
    const bool read =
        line != std::string_view::npos &&
        std::sscanf(std::string(data.substr(0, line)).c_str(), "%zu %zu", &index, &count) == 2 &&
        index == expected && index < count;
    if (read) answer.append(data.substr(line + 1));
    natsMsg_Destroy(message);
    if (!read) {
      spdlog::warn("asking on {}: an answer's part out of order or unreadable", subject);
      return std::nullopt;
    }
    if (++expected == count) return answer;
  }
}

void NatsBus::flush() {
  check(natsConnection_FlushTimeout(connection_, 5000), "flushing to NATS");
}

}  // namespace tengen::cluster
