// Starts the real tengen-server binary on a loopback port and talks HTTP to it over a socket.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>

#include "migrations/migrations.h"
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;

class ServerProcess {
 public:
  ServerProcess() {
    dir_ = fs::temp_directory_path() / ("tengen-server-test-" + std::to_string(getpid()));
    fs::create_directories(dir_);
    const fs::path fifo = dir_ / "port";
    fs::remove(fifo);
    if (mkfifo(fifo.c_str(), 0600) != 0) throw std::runtime_error("mkfifo failed");
    const std::string db = (dir_ / "test.sqlite3").string();
    pid_ = fork();
    if (pid_ == 0) {
      execl(TENGEN_SERVER_BINARY, TENGEN_SERVER_BINARY, "--port", "0", "--address", "127.0.0.1",
            "--database", db.c_str(), "--port-file", fifo.c_str(), "--log-level", "warn",
            "--insecure-fast-password-hashing", "yes", static_cast<char*>(nullptr));
      _exit(127);
    }
    // Opening the FIFO blocks until the server opens it to write the port: no polling.
    std::ifstream in(fifo);
    in >> port_;
    if (port_ == 0) throw std::runtime_error("server did not report a port");
  }
  ~ServerProcess() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    fs::remove_all(dir_);
  }

  int port() const { return port_; }
  const fs::path& dir() const { return dir_; }

  // SIGTERM, then the exit status.
  int terminate() {
    kill(pid_, SIGTERM);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

 private:
  fs::path dir_;
  pid_t pid_ = -1;
  int port_ = 0;
};

std::string http_request(int port, const std::string& method, const std::string& target,
                         const std::string& headers = "", const std::string& body = "") {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return "connect failed";
  }
  const std::string request = method + " " + target +
                              " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: " +
                              std::to_string(body.size()) + "\r\n" + headers + "\r\n" + body;
  if (write(fd, request.data(), request.size()) != static_cast<ssize_t>(request.size())) {
    close(fd);
    return "write failed";
  }
  std::string response;
  char buf[4096];
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;)
    response.append(buf, static_cast<size_t>(n));
  close(fd);
  return response;
}

std::string http_get(int port, const std::string& target) { return http_request(port, "GET", target); }

std::string body_of(const std::string& response) { return response.substr(response.find("\r\n\r\n") + 4); }

// The value of the session token in a response's Set-Cookie header.
std::string cookie_token(const std::string& response) {
  const auto at = response.find("Set-Cookie: tengen_session=");
  if (at == std::string::npos) return "";
  const auto start = at + std::string("Set-Cookie: tengen_session=").size();
  return response.substr(start, response.find(';', start) - start);
}

TEST(ServerProcess, AccountsOverHttp) {
  ServerProcess server;
  const int port = server.port();
  const std::string creds = R"({"username":"shusaku","password":"ear-reddening move"})";
  const std::string reg = http_request(port, "POST", "/api/v1/register", "Content-Type: application/json\r\n", creds);
  ASSERT_TRUE(reg.starts_with("HTTP/1.1 201")) << reg;
  EXPECT_NE(reg.find("HttpOnly; SameSite=Lax"), std::string::npos) << reg;
  const std::string token = cookie_token(reg);
  ASSERT_EQ(token.size(), 43u) << reg;
  EXPECT_NE(body_of(reg).find("\"token\":\"" + token + "\""), std::string::npos);

  const std::string me = http_request(port, "GET", "/api/v1/me", "Cookie: theme=dark; tengen_session=" + token + "\r\n");
  EXPECT_TRUE(me.starts_with("HTTP/1.1 200")) << me;
  EXPECT_NE(me.find("\"name\":\"shusaku\""), std::string::npos);
  EXPECT_TRUE(http_request(port, "GET", "/api/v1/me", "Authorization: Bearer " + token + "\r\n").starts_with("HTTP/1.1 200"));
  EXPECT_TRUE(http_request(port, "GET", "/api/v1/me").starts_with("HTTP/1.1 401"));

  const std::string taken = http_request(port, "POST", "/api/v1/register", "", creds);
  EXPECT_TRUE(taken.starts_with("HTTP/1.1 409")) << taken;
  EXPECT_EQ(body_of(taken), R"({"error":{"code":"name_taken","message":"the name 'shusaku' is taken"}})");
  const std::string weak = http_request(port, "POST", "/api/v1/register", "", R"({"username":"gennan","password":"123"})");
  EXPECT_EQ(body_of(weak), R"({"error":{"code":"weak_password","message":"the password is too short: use at least 8 characters"}})");
  const std::string garbage = http_request(port, "POST", "/api/v1/login", "", "{nope");
  EXPECT_TRUE(garbage.starts_with("HTTP/1.1 400")) << garbage;
  EXPECT_EQ(body_of(garbage), R"({"error":{"code":"bad_request","message":"the body must be a JSON object"}})");
  const std::string wrong = http_request(port, "POST", "/api/v1/login", "", R"({"username":"shusaku","password":"wrong password"})");
  EXPECT_TRUE(wrong.starts_with("HTTP/1.1 401")) << wrong;
  EXPECT_TRUE(http_request(port, "GET", "/api/v1/login").starts_with("HTTP/1.1 405"));

  const std::string second = http_request(port, "POST", "/api/v1/login", "User-Agent: phone\r\n", creds);
  ASSERT_TRUE(second.starts_with("HTTP/1.1 200")) << second;
  const std::string token2 = cookie_token(second);
  const std::string sessions = http_request(port, "GET", "/api/v1/sessions", "Authorization: Bearer " + token2 + "\r\n");
  EXPECT_NE(sessions.find("\"user_agent\":\"phone\""), std::string::npos) << sessions;
  EXPECT_NE(sessions.find("\"current\":true"), std::string::npos) << sessions;
  EXPECT_TRUE(http_request(port, "DELETE", "/api/v1/sessions/1", "Authorization: Bearer " + token2 + "\r\n").starts_with("HTTP/1.1 204"));
  EXPECT_TRUE(http_request(port, "GET", "/api/v1/me", "Authorization: Bearer " + token + "\r\n").starts_with("HTTP/1.1 401"));
  EXPECT_TRUE(http_request(port, "DELETE", "/api/v1/sessions/1", "Authorization: Bearer " + token2 + "\r\n").starts_with("HTTP/1.1 404"));
  const std::string out = http_request(port, "POST", "/api/v1/logout", "Cookie: tengen_session=" + token2 + "\r\n");
  EXPECT_TRUE(out.starts_with("HTTP/1.1 204")) << out;
  EXPECT_NE(out.find("tengen_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0"), std::string::npos);
  EXPECT_TRUE(http_request(port, "GET", "/api/v1/me", "Authorization: Bearer " + token2 + "\r\n").starts_with("HTTP/1.1 401"));
  EXPECT_TRUE(http_request(port, "GET", "/api/v1/nothing").starts_with("HTTP/1.1 404"));
  EXPECT_EQ(server.terminate(), 0);
}

TEST(ServerProcess, AnswersHealthServesTheClientAndStopsCleanly) {
  ServerProcess server;
  const std::string health = http_get(server.port(), "/healthz");
  EXPECT_TRUE(health.starts_with("HTTP/1.1 200 OK\r\n")) << health;
  EXPECT_NE(health.find("\"status\":\"ok\""), std::string::npos) << health;
  const std::string schema = "\"schema_version\":" + std::to_string(tengen::migrations::all().back().version);
  EXPECT_NE(health.find(schema), std::string::npos) << health;

  const std::string index = http_get(server.port(), "/");
  EXPECT_TRUE(index.starts_with("HTTP/1.1 200 OK\r\n")) << index;
  EXPECT_NE(index.find("Content-Type: text/html"), std::string::npos);

  const std::string metrics = http_get(server.port(), "/metrics");
  EXPECT_TRUE(metrics.starts_with("HTTP/1.1 200 OK\r\n")) << metrics;
  EXPECT_NE(metrics.find("Content-Type: text/plain; version=0.0.4"), std::string::npos);
  EXPECT_NE(metrics.find("# TYPE tengen_moves_total counter\ntengen_moves_total 0\n"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("\ntengen_ws_connections 0\n"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("\ntengen_games_active 0\n"), std::string::npos) << metrics;

  EXPECT_TRUE(http_get(server.port(), "/no-such-file.js").starts_with("HTTP/1.1 404"));
  EXPECT_TRUE(http_get(server.port(), "/../CMakeLists.txt").starts_with("HTTP/1.1 400"));

  EXPECT_EQ(server.terminate(), 0);
  EXPECT_TRUE(fs::exists(server.dir() / "test.sqlite3"));
}

}  // namespace
