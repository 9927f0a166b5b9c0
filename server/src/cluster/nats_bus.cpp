#include "cluster/nats_bus.h"

#include <nats/nats.h>

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
struct Receiving {
  std::mutex running;
  bool closed = false;
  Bus::Handler handler;
};

class NatsSubscription final : public Bus::Subscription {
 public:
  NatsSubscription(natsConnection* connection, const std::string& subject, Bus::Handler handler)
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
                                        static_cast<std::size_t>(natsMsg_GetDataLength(msg))));
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
  check(natsConnection_Connect(&connection_, o.opts), "cannot connect to NATS at " + url);
}

NatsBus::~NatsBus() {
  closing_ = true;
  natsConnection_Close(connection_);
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
  return std::make_unique<NatsSubscription>(connection_, subject, std::move(handler));
}

void NatsBus::flush() {
  check(natsConnection_FlushTimeout(connection_, 5000), "flushing to NATS");
}

}  // namespace tengen::cluster
