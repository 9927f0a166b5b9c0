#pragma once

// The nodes of a cluster as real tengen-server processes (docs/cluster.md): node i is named
// 'a' + i, keeps its files in a folder of its own under a temporary one, and runs on `uri` with
// the NATS at `bus` and leases of one second. The first started becomes the hub.
#include <array>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "support/server_process.h"

namespace tengen::testing {

class NodeProcesses {
 public:
  // `tag` names the temporary folder (tengen-TAG-PID).
  explicit NodeProcesses(const std::string& tag)
      : base_(std::filesystem::temp_directory_path() /
              ("tengen-" + tag + "-" + std::to_string(getpid()))) {
    std::filesystem::remove_all(base_);
  }
  ~NodeProcesses() {
    for (auto& n : nodes_) n.reset();
    std::filesystem::remove_all(base_);
  }
  NodeProcesses(const NodeProcesses&) = delete;
  NodeProcesses& operator=(const NodeProcesses&) = delete;

  // `extra`: more options for this node.
  void start(int i, const std::string& uri, const std::string& bus,
             const std::vector<std::string>& extra = {}) {
    const std::string name(1, static_cast<char>('a' + i));
    std::vector<std::string> args{"--database", uri,  "--bus",       bus,
                                  "--node",     name, "--lease-ttl", "1000"};
    args.insert(args.end(), extra.begin(), extra.end());
    nodes_[static_cast<std::size_t>(i)].emplace(base_ / name, 0, std::move(args));
  }
  ServerProcess& node(int i) { return *nodes_[static_cast<std::size_t>(i)]; }
  // Its /healthz, read as JSON.
  nlohmann::json health(int i) {
    return nlohmann::json::parse(body_of(http_get(node(i).port(), "/healthz")));
  }

 private:
  std::filesystem::path base_;
  std::array<std::optional<ServerProcess>, 3> nodes_;
};

}  // namespace tengen::testing
