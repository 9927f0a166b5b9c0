// Starts the real tengen-server binary on a loopback port and talks HTTP to it over a socket.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
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
            static_cast<char*>(nullptr));
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

std::string http_get(int port, const std::string& target) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return "connect failed";
  }
  const std::string request =
      "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
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

TEST(ServerProcess, AnswersHealthServesTheClientAndStopsCleanly) {
  ServerProcess server;
  const std::string health = http_get(server.port(), "/healthz");
  EXPECT_TRUE(health.starts_with("HTTP/1.1 200 OK\r\n")) << health;
  EXPECT_NE(health.find("\"status\":\"ok\""), std::string::npos) << health;
  EXPECT_NE(health.find("\"schema_version\":1"), std::string::npos) << health;

  const std::string index = http_get(server.port(), "/");
  EXPECT_TRUE(index.starts_with("HTTP/1.1 200 OK\r\n")) << index;
  EXPECT_NE(index.find("Content-Type: text/html"), std::string::npos);

  EXPECT_TRUE(http_get(server.port(), "/no-such-file.js").starts_with("HTTP/1.1 404"));
  EXPECT_TRUE(http_get(server.port(), "/../CMakeLists.txt").starts_with("HTTP/1.1 400"));

  EXPECT_EQ(server.terminate(), 0);
  EXPECT_TRUE(fs::exists(server.dir() / "test.sqlite3"));
}

}  // namespace
