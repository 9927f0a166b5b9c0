#include "ops.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <string>

#include "store/sqlite.h"

namespace tengen {

int health_check(const Config& config) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) {
    std::cerr << "health check: no socket\n";
    return 1;
  }
  timeval timeout{3, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(config.port);
  // The server listens on config.address; 0.0.0.0 (every address) is reached on loopback.
  const std::string host = config.address == "0.0.0.0" ? "127.0.0.1" : config.address;
  if (inet_pton(AF_INET, host.c_str(), &addr.sin_addr) != 1) {
    std::cerr << "health check: cannot reach address " << host << "\n";
    close(fd);
    return 1;
  }
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    std::cerr << "health check: nothing listens on " << host << ":" << config.port << "\n";
    close(fd);
    return 1;
  }
  const std::string request =
      "GET /healthz HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n";
  std::string response;
  if (write(fd, request.data(), request.size()) == static_cast<ssize_t>(request.size())) {
    char buf[1024];
    for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;)
      response.append(buf, static_cast<std::size_t>(n));
  }
  close(fd);
  if (!response.starts_with("HTTP/1.1 200")) {
    std::cerr << "health check: "
              << (response.empty() ? "no answer" : response.substr(0, response.find('\r'))) << "\n";
    return 1;
  }
  return 0;
}

int backup(const Config& config, const std::string& to) {
  if (is_postgres(config.database)) {
    std::cerr << "backup: --backup copies a SQLite database; back PostgreSQL up with its own tools"
                 " (pg_dump)\n";
    return 2;
  }
  if (!std::filesystem::exists(config.database)) {
    std::cerr << "backup: there is no database " << config.database << "\n";
    return 1;
  }
  try {
    store::Database(config.database).backup_into(to);
  } catch (const std::exception& e) {
    std::cerr << "backup: " << e.what() << "\n";
    return 1;
  }
  std::cout << "backup: " << config.database << " -> " << to << "\n";
  return 0;
}

}  // namespace tengen
