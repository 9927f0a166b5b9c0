#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace tengen {

// The proxies whose X-Forwarded-For is believed (--trusted-proxies; docs/operations.md): behind
// Caddy every connection comes from Caddy's address, and the per-address limits (connections,
// logins, registrations) would count all players as one. A request from a trusted proxy is taken
// to come from the nearest address in its X-Forwarded-For that is not itself a trusted proxy;
// from anywhere else the header is ignored (a client could write anything in it).
class TrustedProxies {
 public:
  TrustedProxies() = default;
  // A comma-separated list of addresses and networks ("172.16.0.0/12, ::1"), or the problem.
  static std::variant<TrustedProxies, std::string> parse(std::string_view list);

  bool empty() const { return networks_.empty(); }
  bool trusts(std::string_view address) const;
  // The client's address, given the peer's and the request's X-Forwarded-For (may be empty).
  std::string client_address(const std::string& peer, std::string_view forwarded_for) const;

 private:
  struct Network {
    std::vector<unsigned char> bytes;  // 4 or 16
    int prefix = 0;                    // bits
  };
  std::vector<Network> networks_;
};

}  // namespace tengen
