#include "ops.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sqlite3.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <iostream>
#include <string>

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
  const std::string request = "GET /healthz HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n";
  std::string response;
  if (write(fd, request.data(), request.size()) == static_cast<ssize_t>(request.size())) {
    char buf[1024];
    for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) response.append(buf, static_cast<std::size_t>(n));
  }
  close(fd);
  if (!response.starts_with("HTTP/1.1 200")) {
    std::cerr << "health check: " << (response.empty() ? "no answer" : response.substr(0, response.find('\r'))) << "\n";
    return 1;
  }
  return 0;
}

int backup(const Config& config, const std::string& to) {
  sqlite3* source = nullptr;
  sqlite3* target = nullptr;
  auto fail = [&](const std::string& what, sqlite3* db) {
    std::cerr << "backup: " << what << (db ? std::string(": ") + sqlite3_errmsg(db) : "") << "\n";
    sqlite3_close(source);
    sqlite3_close(target);
    return 1;
  };
  // Read-write so that a WAL database needs nothing special; the copy writes nothing to it.
  if (sqlite3_open_v2(config.database.c_str(), &source, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
    return fail("cannot open " + config.database, source);
  }
  sqlite3_busy_timeout(source, 5000);
  if (sqlite3_open_v2(to.c_str(), &target, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK) {
    return fail("cannot create " + to, target);
  }
  sqlite3_backup* copy = sqlite3_backup_init(target, "main", source, "main");
  if (!copy) return fail("cannot start", target);
  int rc = SQLITE_OK;
  // A few hundred pages at a time: the server's writes go on between the steps (a write in
  // between restarts the copy, so the result is one consistent moment).
  while ((rc = sqlite3_backup_step(copy, 256)) == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED) {
    if (rc != SQLITE_OK) sqlite3_sleep(20);
  }
  const int pages = sqlite3_backup_pagecount(copy);
  sqlite3_backup_finish(copy);
  if (rc != SQLITE_DONE) return fail("copy failed", target);
  sqlite3_close(source);
  sqlite3_close(target);
  std::cout << "backup: " << config.database << " -> " << to << " (" << pages << " pages)\n";
  return 0;
}

}  // namespace tengen
