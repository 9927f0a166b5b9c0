#include "cluster/nats_bus.h"

#include <nats/nats.h>

#include <stdexcept>

namespace tengen::cluster {
namespace {

void check(natsStatus status, const std::string& what) {
  if (status == NATS_OK) return;
  const char* detail = nats_GetLastError(nullptr);
  throw std::runtime_error(what + ": " + natsStatus_GetText(status) +
                           (detail && *detail ? std::string(" (") + detail + ")" : std::string()));
}

// Options freed however the constructor ends.
struct Options {
  Options() { check(natsOptions_Create(&opts), "NATS options"); }
  ~Options() { natsOptions_Destroy(opts); }
  Options(const Options&) = delete;
  Options& operator=(const Options&) = delete;
  natsOptions* opts = nullptr;
};

}  // namespace

NatsBus::NatsBus(const std::string& url, const std::string& name, Events events)
    : events_(std::move(events)) {
  Options o;
  check(natsOptions_SetURL(o.opts, url.c_str()), "NATS address " + url);
  check(natsOptions_SetName(o.opts, name.c_str()), "NATS name");
  check(natsOptions_SetMaxReconnect(o.opts, -1), "NATS reconnects");  // keep trying
  check(natsOptions_SetReconnectWait(o.opts, 250), "NATS reconnects");
  check(natsOptions_SetDisconnectedCB(
            o.opts,
            [](natsConnection*, void* self) {
              if (auto& f = static_cast<NatsBus*>(self)->events_.disconnected) f();
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
  {
    std::lock_guard lock(mutex_);
    for (auto& s : subscriptions_) {
      natsSubscription_Unsubscribe(s->sub);
      natsSubscription_Destroy(s->sub);
    }
  }
  natsConnection_Close(connection_);
  natsConnection_Destroy(connection_);
}

void NatsBus::publish(const std::string& subject, std::string_view data) {
  check(natsConnection_Publish(connection_, subject.c_str(), data.data(),
                               static_cast<int>(data.size())),
        "publishing on " + subject);
}

void NatsBus::subscribe(const std::string& subject, Handler handler) {
  auto s = std::make_unique<Subscription>(Subscription{subject, std::move(handler), nullptr});
  check(natsConnection_Subscribe(
            &s->sub, connection_, subject.c_str(),
            [](natsConnection*, natsSubscription*, natsMsg* msg, void* closure) {
              const auto* self = static_cast<const Subscription*>(closure);
              self->handler(std::string_view(natsMsg_GetData(msg),
                                             static_cast<std::size_t>(natsMsg_GetDataLength(msg))));
              natsMsg_Destroy(msg);
            },
            s.get()),
        "subscribing to " + subject);
  std::lock_guard lock(mutex_);
  subscriptions_.push_back(std::move(s));
}

void NatsBus::flush() {
  check(natsConnection_FlushTimeout(connection_, 5000), "flushing to NATS");
}

}  // namespace tengen::cluster
