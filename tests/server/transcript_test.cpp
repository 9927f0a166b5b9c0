// Golden transcripts: recorded client/server exchanges, replayed against a live server.
//
//   # a comment
//   @alice            connect as a new registered user "alice" (@guest: without logging in)
//   alice> {...}      alice sends this
//   alice< {...}      the next message alice receives must equal this ("*" matches any value)
//
// After each sent line every client pings and waits for its pong, so every message that command
// caused has arrived; what a client received and the transcript does not list is an error.
// TENGEN_RECORD_TRANSCRIPTS=1 rewrites the files with what the server actually said.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include "support/live_server.h"
#include "support/paths.h"
#include "support/temp_database.h"
#include "support/ws_client.h"

namespace tengen {
namespace {

using json = nlohmann::json;
using testing::WsClient;

bool matches(const json& expected, const json& actual) {
  if (expected.is_string() && expected == "*") return true;
  if (expected.type() != actual.type()) return false;
  if (expected.is_object()) {
    if (expected.size() != actual.size()) return false;
    for (const auto& [key, value] : expected.items()) {
      if (!actual.contains(key) || !matches(value, actual[key])) return false;
    }
    return true;
  }
  if (expected.is_array()) {
    if (expected.size() != actual.size()) return false;
    for (std::size_t i = 0; i < expected.size(); ++i) {
      if (!matches(expected[i], actual[i])) return false;
    }
    return true;
  }
  return expected == actual;
}

class Transcript : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { stack_.emplace(temp_.path()); }
  void TearDown() override {
    clients_.clear();
    stack_.reset();
  }

  // Pings every client and returns what each received before its pong. The client that acted
  // goes first: the server handles a connection's messages in order, so its pong means the
  // command is fully applied, and only then may the others' pings be sent.
  std::map<std::string, std::vector<json>> settle(const std::string& first) {
    std::map<std::string, std::vector<json>> got;
    std::vector<std::string> order{first};
    for (const auto& [name, client] : clients_) {
      if (name != first) order.push_back(name);
    }
    for (const auto& name : order) {
      auto& client = clients_.at(name);
      const std::string cid = "settle-" + std::to_string(++pings_);
      client->send_text(json{{"type", "ping"}, {"cid", cid}}.dump());
      for (;;) {
        json m = client->read();
        if (m["type"] == "pong" && m["cid"] == cid) break;
        got[name].push_back(std::move(m));
      }
    }
    return got;
  }

  testing::TempDatabase temp_;
  std::optional<testing::LiveStack> stack_;
  std::map<std::string, std::unique_ptr<WsClient>> clients_;
  int pings_ = 0;
};

TEST_P(Transcript, Replays) {
  const std::string path = tengen::testing::paths::fixtures() + "/transcripts/" + GetParam();
  const bool record = std::getenv("TENGEN_RECORD_TRANSCRIPTS") != nullptr;
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::vector<std::string> recorded;
  std::map<std::string, std::vector<json>> pending;  // received, not yet matched
  auto flush_pending = [&] {
    for (auto& [name, messages] : pending) {
      for (const auto& m : messages) {
        if (record) {
          recorded.push_back(name + "< " + m.dump());
        } else {
          ADD_FAILURE() << name << " received a message the transcript does not list: " << m.dump();
        }
      }
      messages.clear();
    }
  };
  int line_number = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    if (line.empty() || line[0] == '#') {
      recorded.push_back(line);
      continue;
    }
    if (line[0] == '@') {
      flush_pending();
      recorded.push_back(line);
      const std::string name = line.substr(1);
      std::string token;
      if (name != "guest") {
        token = stack_->token_for(name);
      }
      clients_[name] =
          std::make_unique<WsClient>(stack_->port(), testing::WsClientOptions{token, "", "/ws/v1"});
      for (auto& [who, messages] : settle(name)) {
        for (auto& m : messages) pending[who].push_back(std::move(m));
      }
      continue;
    }
    const auto mark = line.find_first_of("<>");
    ASSERT_NE(mark, std::string::npos) << path << ":" << line_number;
    const std::string name = line.substr(0, mark);
    const json message = json::parse(line.substr(mark + 1));
    ASSERT_TRUE(clients_.count(name)) << path << ":" << line_number << ": no client " << name;
    if (line[mark] == '>') {
      flush_pending();
      recorded.push_back(line);
      clients_[name]->send_text(message.dump());
      for (auto& [who, messages] : settle(name)) {
        for (auto& m : messages) pending[who].push_back(std::move(m));
      }
    } else if (!record) {
      auto& queue = pending[name];
      ASSERT_FALSE(queue.empty()) << path << ":" << line_number << ": " << name
                                  << " received nothing, expected " << message.dump();
      EXPECT_TRUE(matches(message, queue.front()))
          << path << ":" << line_number << "\n expected " << message.dump() << "\n received "
          << queue.front().dump();
      queue.erase(queue.begin());
    }
  }
  flush_pending();
  if (record) {
    std::ofstream out(path);
    for (const auto& l : recorded) out << l << "\n";
  }
}

INSTANTIATE_TEST_SUITE_P(Golden, Transcript,
                         ::testing::Values("lobby_and_game.txt", "bad_input.txt"),
                         [](const auto& test) {
                           return test.param.substr(0, test.param.find('.'));
                         });

}  // namespace
}  // namespace tengen
