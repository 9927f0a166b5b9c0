#pragma once

// A room's member without a network (tests/server/room_test.cpp, pair_go_test.cpp): it keeps
// every message the room's outbox delivered to it, parsed.
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "rooms/recipient.h"
#include "store/account_store.h"

namespace tengen::testing {

class Recorder final : public Recipient {
 public:
  explicit Recorder(std::optional<store::UserRecord> user) : user_(std::move(user)) {}
  void send(std::shared_ptr<const std::string> message) override {
    received.push_back(nlohmann::json::parse(*message));
  }
  std::uint64_t id() const override { return 1; }
  const std::optional<store::UserRecord>& user() const override { return user_; }
  std::vector<nlohmann::json> received;

 private:
  std::optional<store::UserRecord> user_;
};

}  // namespace tengen::testing
