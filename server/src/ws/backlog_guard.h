#pragma once

#include <functional>
#include <memory>
#include <utility>

#include "ws/connection.h"

namespace tengen {

// In front of the hub: refuses commands, with `unavailable` (nothing done; try again), while
// `overloaded()` says so: the database is away and so much already waits for it
// (store::Journal::backlog, docs/limits.md) that more would only grow the server's memory for as
// long as the outage lasts. Commands that arrive before that wait, as every command waits for the
// database, and are acknowledged once they are stored. Everything else passes through.
class BacklogGuard final : public Dispatcher {
 public:
  BacklogGuard(Dispatcher& inner, std::function<bool()> overloaded)
      : inner_(inner), overloaded_(std::move(overloaded)) {}

  void connected(const std::shared_ptr<Connection>& connection) override {
    inner_.connected(connection);
  }
  void received(const std::shared_ptr<Connection>& connection,
                protocol::ClientEnvelope command) override {
    if (overloaded_()) {
      inner_.answer(connection,
                    protocol::Error{std::move(command.cid), protocol::ErrorCode::Unavailable,
                                    "the server cannot save anything right now (its "
                                    "database is away): nothing was done; try again "
                                    "in a moment",
                                    std::nullopt, std::nullopt});
      return;
    }
    inner_.received(connection, std::move(command));
  }
  void disconnected(const std::shared_ptr<Connection>& connection) override {
    inner_.disconnected(connection);
  }
  void answer(const std::shared_ptr<Connection>& connection,
              const protocol::ServerMessage& message) override {
    inner_.answer(connection, message);
  }
  void after_replies(std::function<void()> then) override { inner_.after_replies(std::move(then)); }

 private:
  Dispatcher& inner_;
  std::function<bool()> overloaded_;
};

}  // namespace tengen
