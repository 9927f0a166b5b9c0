#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
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

  // Questions and answers (a front node asking the hub what only the hub knows): `answerer` runs
  // for each question asked on `subject`, as a handler does, and what it returns goes back to the
  // asker alone, whatever its size (a bus whose messages are bounded carries it in parts).
  // Throwing answers nothing (the asker's patience runs out).
  using Answerer = std::function<std::string(std::string_view question)>;
  [[nodiscard]] virtual std::unique_ptr<Subscription> answer(const std::string& subject,
                                                             Answerer answerer) = 0;
  // Asks, and waits for the first answer, whole: nullopt if nobody answers `subject` (at once,
  // when the bus knows) or it did not come whole within `patience`. Safe from any thread but a
  // handler's.
  virtual std::optional<std::string> request(const std::string& subject, std::string_view question,
                                             std::chrono::milliseconds patience) = 0;
};

}  // namespace tengen::cluster
