// Starts the real tengen-server binary on a loopback port and talks HTTP to it over a socket.
#include "support/server_process.h"

#include <gtest/gtest.h>

#include "migrations/migrations.h"

namespace {

using namespace tengen::testing;

TEST(ServerProcess, AccountsOverHttp) {
  ServerProcess server;
  const int port = server.port();
  const std::string creds = R"({"username":"shusaku","password":"ear-reddening move"})";
  const std::string reg =
      http_request(port, "POST", "/api/v1/register", "Content-Type: application/json\r\n", creds);
  ASSERT_TRUE(reg.starts_with("HTTP/1.1 201")) << reg;
  EXPECT_NE(reg.find("HttpOnly; SameSite=Lax"), std::string::npos) << reg;
  const std::string token = cookie_token(reg);
  ASSERT_EQ(token.size(), 43u) << reg;
  EXPECT_NE(body_of(reg).find("\"token\":\"" + token + "\""), std::string::npos);

  const std::string me = http_request(port, "GET", "/api/v1/me",
                                      "Cookie: theme=dark; tengen_session=" + token + "\r\n");
  EXPECT_TRUE(me.starts_with("HTTP/1.1 200")) << me;
  EXPECT_NE(me.find("\"name\":\"shusaku\""), std::string::npos);
  EXPECT_TRUE(http_request(port, "GET", "/api/v1/me", "Authorization: Bearer " + token + "\r\n")
                  .starts_with("HTTP/1.1 200"));
  EXPECT_TRUE(http_request(port, "GET", "/api/v1/me").starts_with("HTTP/1.1 401"));

  const std::string taken = http_request(port, "POST", "/api/v1/register", "", creds);
  EXPECT_TRUE(taken.starts_with("HTTP/1.1 409")) << taken;
  EXPECT_EQ(body_of(taken),
            R"({"error":{"code":"name_taken","message":"the name 'shusaku' is taken"}})");
  const std::string weak = http_request(port, "POST", "/api/v1/register", "",
                                        R"({"username":"gennan","password":"123"})");
  EXPECT_EQ(
      body_of(weak),
      R"({"error":{"code":"weak_password","message":"the password is too short: use at least 8 characters"}})");
  const std::string garbage = http_request(port, "POST", "/api/v1/login", "", "{nope");
  EXPECT_TRUE(garbage.starts_with("HTTP/1.1 400")) << garbage;
  EXPECT_EQ(body_of(garbage),
            R"({"error":{"code":"bad_request","message":"the body must be a JSON object"}})");
  const std::string wrong = http_request(port, "POST", "/api/v1/login", "",
                                         R"({"username":"shusaku","password":"wrong password"})");
  EXPECT_TRUE(wrong.starts_with("HTTP/1.1 401")) << wrong;
  EXPECT_TRUE(http_request(port, "GET", "/api/v1/login").starts_with("HTTP/1.1 405"));

  const std::string second =
      http_request(port, "POST", "/api/v1/login", "User-Agent: phone\r\n", creds);
  ASSERT_TRUE(second.starts_with("HTTP/1.1 200")) << second;
  const std::string token2 = cookie_token(second);
  const std::string sessions =
      http_request(port, "GET", "/api/v1/sessions", "Authorization: Bearer " + token2 + "\r\n");
  EXPECT_NE(sessions.find("\"user_agent\":\"phone\""), std::string::npos) << sessions;
  EXPECT_NE(sessions.find("\"current\":true"), std::string::npos) << sessions;
  EXPECT_TRUE(
      http_request(port, "DELETE", "/api/v1/sessions/1", "Authorization: Bearer " + token2 + "\r\n")
          .starts_with("HTTP/1.1 204"));
  EXPECT_TRUE(http_request(port, "GET", "/api/v1/me", "Authorization: Bearer " + token + "\r\n")
                  .starts_with("HTTP/1.1 401"));
  EXPECT_TRUE(
      http_request(port, "DELETE", "/api/v1/sessions/1", "Authorization: Bearer " + token2 + "\r\n")
          .starts_with("HTTP/1.1 404"));
  const std::string out =
      http_request(port, "POST", "/api/v1/logout", "Cookie: tengen_session=" + token2 + "\r\n");
  EXPECT_TRUE(out.starts_with("HTTP/1.1 204")) << out;
  EXPECT_NE(out.find("tengen_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0"),
            std::string::npos);
  EXPECT_TRUE(http_request(port, "GET", "/api/v1/me", "Authorization: Bearer " + token2 + "\r\n")
                  .starts_with("HTTP/1.1 401"));
  EXPECT_TRUE(http_request(port, "GET", "/api/v1/nothing").starts_with("HTTP/1.1 404"));
  EXPECT_EQ(server.terminate(), 0);
}

TEST(ServerProcess, BotAccountsAreDeclaredAtRegistration) {
  ServerProcess server;
  const int port = server.port();
  const auto reg = http_request(port, "POST", "/api/v1/register", "",
                                R"({"username":"gnugo","password":"level ten please","bot":true})");
  ASSERT_TRUE(reg.starts_with("HTTP/1.1 201")) << reg;
  EXPECT_NE(body_of(http_request(port, "GET", "/api/v1/users/gnugo")).find("\"bot\":true"),
            std::string::npos);
  http_request(port, "POST", "/api/v1/register", "",
               R"({"username":"shusaku","password":"ear-reddening move"})");
  EXPECT_NE(body_of(http_request(port, "GET", "/api/v1/users/shusaku")).find("\"bot\":false"),
            std::string::npos);
  // Only registration takes the flag, and only as a boolean: nobody becomes a bot by logging in.
  EXPECT_EQ(
      body_of(http_request(port, "POST", "/api/v1/login", "",
                           R"({"username":"shusaku","password":"ear-reddening move","bot":true})")),
      R"({"error":{"code":"bad_request","message":"unknown field 'bot'"}})");
  EXPECT_EQ(
      body_of(http_request(port, "POST", "/api/v1/register", "",
                           R"({"username":"katago","password":"level ten please","bot":"yes"})")),
      R"({"error":{"code":"bad_request","message":"field 'bot' must be a boolean"}})");
  EXPECT_TRUE(body_of(http_request(port, "GET", "/api/v1/users/katago")).find("not_found") !=
              std::string::npos);
}

TEST(ServerProcess, AnswersHealthServesTheClientAndStopsCleanly) {
  ServerProcess server;
  const std::string health = http_get(server.port(), "/healthz");
  EXPECT_TRUE(health.starts_with("HTTP/1.1 200 OK\r\n")) << health;
  EXPECT_NE(health.find("\"status\":\"ok\""), std::string::npos) << health;
  const std::string schema =
      "\"schema_version\":" + std::to_string(tengen::migrations::all().back().version);
  EXPECT_NE(health.find(schema), std::string::npos) << health;

  const std::string index = http_get(server.port(), "/");
  EXPECT_TRUE(index.starts_with("HTTP/1.1 200 OK\r\n")) << index;
  EXPECT_NE(index.find("Content-Type: text/html"), std::string::npos);

  const std::string metrics = http_get(server.port(), "/metrics");
  EXPECT_TRUE(metrics.starts_with("HTTP/1.1 200 OK\r\n")) << metrics;
  EXPECT_NE(metrics.find("Content-Type: text/plain; version=0.0.4"), std::string::npos);
  EXPECT_NE(metrics.find("# TYPE tengen_moves_total counter\ntengen_moves_total 0\n"),
            std::string::npos)
      << metrics;
  EXPECT_NE(metrics.find("\ntengen_ws_connections 0\n"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("# TYPE tengen_journal_commits_total counter\n"), std::string::npos)
      << metrics;
  EXPECT_NE(metrics.find("\ntengen_games_active 0\n"), std::string::npos) << metrics;

  EXPECT_TRUE(http_get(server.port(), "/no-such-file.js").starts_with("HTTP/1.1 404"));
  EXPECT_TRUE(http_get(server.port(), "/../CMakeLists.txt").starts_with("HTTP/1.1 400"));

  EXPECT_EQ(server.terminate(), 0);
  EXPECT_TRUE(fs::exists(server.dir() / "test.sqlite3"));
}

}  // namespace
