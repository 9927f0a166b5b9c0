#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace tengen::cluster {

// The doorbell between nodes (docs/cluster.md): small messages on subjects, delivered at most
// once, in the order published per publisher and subject, to whoever subscribes at the time.
// Nothing is kept: the store is the truth, and what a node misses it reads from there (or, for
// a connection, the client does, resuming by sequence number when it reconnects).
class Bus {
 public:
  using Handler = std::function<void(std::string_view data)>;
  // Receiving until it goes: its destructor returns once no handler call is running, and none
  // starts after.
  class Subscription {
   public:
    virtual ~Subscription() = default;
  };
  virtual ~Bus() = default;

  // Safe from any thread; throws if the bus cannot take it.
  virtual void publish(const std::string& subject, std::string_view data) = 0;
  // `handler` runs on the bus's thread for this subscription, one message at a time, in order,
  // until the subscription goes (before the bus).
  [[nodiscard]] virtual std::unique_ptr<Subscription> subscribe(const std::string& subject,
                                                                Handler handler) = 0;
  // Returns once everything published so far has reached the bus's server; throws if it cannot.
  virtual void flush() = 0;
};

}  // namespace tengen::cluster
