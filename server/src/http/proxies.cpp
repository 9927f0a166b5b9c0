#include "http/proxies.h"

#include <boost/asio/ip/address.hpp>
#include <charconv>

namespace tengen {
namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// An address's bytes (an IPv4-mapped IPv6 address as IPv4), or empty if it is not one.
std::vector<unsigned char> bytes_of(std::string_view text) {
  boost::system::error_code ec;
  auto a = boost::asio::ip::make_address(std::string(text), ec);
  if (ec) return {};
  if (a.is_v6() && a.to_v6().is_v4_mapped())
    a = boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, a.to_v6());
  if (a.is_v4()) {
    const auto b = a.to_v4().to_bytes();
    return {b.begin(), b.end()};
  }
  const auto b = a.to_v6().to_bytes();
  return {b.begin(), b.end()};
}

}  // namespace

std::variant<TrustedProxies, std::string> TrustedProxies::parse(std::string_view list) {
  TrustedProxies proxies;
  while (!trimmed(list).empty()) {
    const auto comma = list.find(',');
    const std::string_view item = trimmed(list.substr(0, comma));
    list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
    if (item.empty()) continue;
    const auto slash = item.find('/');
    Network n{bytes_of(item.substr(0, slash)), 0};
    if (n.bytes.empty()) {
      return "a trusted proxy is an IP address or a network (172.16.0.0/12), not '" +
             std::string(item) + "'";
    }
    const int bits = static_cast<int>(n.bytes.size()) * 8;
    n.prefix = bits;
    if (slash != std::string_view::npos) {
      const auto text = item.substr(slash + 1);
      const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n.prefix);
      if (ec != std::errc{} || end != text.data() + text.size() || n.prefix < 0 ||
          n.prefix > bits) {
        return "the prefix length in '" + std::string(item) + "' must be from 0 to " +
               std::to_string(bits);
      }
    }
    proxies.networks_.push_back(std::move(n));
  }
  return proxies;
}

bool TrustedProxies::trusts(std::string_view address) const {
  const auto bytes = bytes_of(address);
  for (const auto& n : networks_) {
    if (n.bytes.size() != bytes.size()) continue;
    bool inside = true;
    for (int bit = 0; bit < n.prefix && inside; ++bit) {
      const unsigned char mask = static_cast<unsigned char>(0x80 >> (bit % 8));
      inside = (n.bytes[bit / 8] & mask) == (bytes[bit / 8] & mask);
    }
    if (inside) return true;
  }
  return false;
}

std::string TrustedProxies::client_address(const std::string& peer,
                                           std::string_view forwarded_for) const {
  if (!trusts(peer)) return peer;
  std::string client = peer;
  // From the right: each address was added by the proxy in front of the one before.
  while (!forwarded_for.empty()) {
    const auto comma = forwarded_for.rfind(',');
    const std::string_view item =
        trimmed(comma == std::string_view::npos ? forwarded_for : forwarded_for.substr(comma + 1));
    forwarded_for =
        comma == std::string_view::npos ? std::string_view{} : forwarded_for.substr(0, comma);
    if (bytes_of(item).empty()) break;  // not an address: believe nothing further left
    client = std::string(item);
    if (!trusts(client)) break;
  }
  return client;
}

}  // namespace tengen
