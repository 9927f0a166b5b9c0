// Starts the real tengen-server binary on a loopback port and talks HTTP to it over a socket.
#include "support/server_process.h"

#include <gtest/gtest.h>

#include <fstream>

#include "migrations/migrations.h"
#include "support/paths.h"
#include "support/temp_postgres.h"
#include "support/ws_client.h"

namespace {

using namespace tengen::testing;
using namespace std::chrono_literals;

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

  const std::string taken =
      http_request(port, "POST", "/api/v1/register", "Content-Type: application/json\r\n", creds);
  EXPECT_TRUE(taken.starts_with("HTTP/1.1 409")) << taken;
  EXPECT_EQ(body_of(taken),
            R"({"error":{"code":"name_taken","message":"the name 'shusaku' is taken"}})");
  const std::string weak =
      http_request(port, "POST", "/api/v1/register", "Content-Type: application/json\r\n",
                   R"({"username":"gennan","password":"123"})");
  EXPECT_EQ(
      body_of(weak),
      R"({"error":{"code":"weak_password","message":"the password is too short: use at least 8 characters"}})");
  const std::string garbage =
      http_request(port, "POST", "/api/v1/login", "Content-Type: application/json\r\n", "{nope");
  EXPECT_TRUE(garbage.starts_with("HTTP/1.1 400")) << garbage;
  EXPECT_EQ(body_of(garbage),
            R"({"error":{"code":"bad_request","message":"the body must be a JSON object"}})");
  const std::string wrong =
      http_request(port, "POST", "/api/v1/login", "Content-Type: application/json\r\n",
                   R"({"username":"shusaku","password":"wrong password"})");
  EXPECT_TRUE(wrong.starts_with("HTTP/1.1 401")) << wrong;
  EXPECT_TRUE(http_request(port, "GET", "/api/v1/login").starts_with("HTTP/1.1 405"));

  const std::string second =
      http_request(port, "POST", "/api/v1/login",
                   "User-Agent: phone\r\nContent-Type: application/json\r\n", creds);
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
  const auto reg =
      http_request(port, "POST", "/api/v1/register", "Content-Type: application/json\r\n",
                   R"({"username":"gnugo","password":"level ten please","bot":true})");
  ASSERT_TRUE(reg.starts_with("HTTP/1.1 201")) << reg;
  EXPECT_NE(body_of(http_request(port, "GET", "/api/v1/users/gnugo")).find("\"bot\":true"),
            std::string::npos);
  http_request(port, "POST", "/api/v1/register", "Content-Type: application/json\r\n",
               R"({"username":"shusaku","password":"ear-reddening move"})");
  EXPECT_NE(body_of(http_request(port, "GET", "/api/v1/users/shusaku")).find("\"bot\":false"),
            std::string::npos);
  // Only registration takes the flag, and only as a boolean: nobody becomes a bot by logging in.
  EXPECT_EQ(
      body_of(http_request(port, "POST", "/api/v1/login", "Content-Type: application/json\r\n",
                           R"({"username":"shusaku","password":"ear-reddening move","bot":true})")),
      R"({"error":{"code":"bad_request","message":"unknown field 'bot'"}})");
  EXPECT_EQ(
      body_of(http_request(port, "POST", "/api/v1/register", "Content-Type: application/json\r\n",
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

  // The web client's languages: the catalogs in its locales/ folder (English, Dutch, German).
  const std::string languages = http_get(server.port(), "/locales/index.json");
  EXPECT_TRUE(languages.starts_with("HTTP/1.1 200 OK\r\n")) << languages;
  EXPECT_NE(languages.find("Content-Type: application/json"), std::string::npos) << languages;
  EXPECT_EQ(body_of(languages), R"({"languages":["de","en","nl"]})");
  EXPECT_TRUE(http_get(server.port(), "/../CMakeLists.txt").starts_with("HTTP/1.1 400"));

  EXPECT_EQ(server.terminate(), 0);
  EXPECT_TRUE(fs::exists(server.dir() / "test.sqlite3"));
}

// Two servers on one database once both started; the second then died on a UNIQUE error when it
// created a game the first had made too. Now the second refuses to start, saying why, and the
// first is unaffected.
// A second server started on `database`: whether it exited and how, and what it said.
struct SecondServer {
  bool ended = false;
  int status = 0;
  std::string said;
};
SecondServer start_second(const std::string& db) {
  SecondServer out;
  int err[2];
  if (pipe(err) != 0) throw std::runtime_error("pipe failed");
  const std::string binary =
      tengen::testing::paths::server_binary();  // before the fork: no allocation after
  const pid_t second = fork();
  if (second == 0) {
    dup2(err[1], 1);  // the log
    dup2(err[1], 2);
    close(err[0]);
    execl(binary.c_str(), binary.c_str(), "--port", "0", "--address", "127.0.0.1", "--database",
          db.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(err[1]);
  // What it says until it exits (it must, at once); a bound instead of hanging if it serves.
  std::string said;
  char buffer[4096];
  pollfd readable{err[0], POLLIN, 0};
  bool ended = false;  // its output closed: it is exiting
  while (!ended && poll(&readable, 1, 30'000) > 0) {
    const auto n = read(err[0], buffer, sizeof buffer);
    if (n > 0) said.append(buffer, static_cast<std::size_t>(n));
    ended = n <= 0;
  }
  close(err[0]);
  if (!ended) kill(second, SIGKILL);
  waitpid(second, &out.status, 0);
  out.ended = ended;
  out.said = said;
  return out;
}

TEST(ServerProcess, ASecondServerOnTheSameDatabaseRefusesToStart) {
  ServerProcess first;
  const std::string db = (first.dir() / "test.sqlite3").string();
  const auto second = start_second(db);
  ASSERT_TRUE(second.ended) << "the second server kept running on the same database; it said: "
                            << second.said;
  ASSERT_TRUE(WIFEXITED(second.status)) << second.said;
  EXPECT_EQ(WEXITSTATUS(second.status), 1) << second.said;
  EXPECT_NE(second.said.find("another tengen-server is already serving the database " + db +
                             ": stop it first, or give this one its own file with --database"),
            std::string::npos)
      << second.said;
  EXPECT_TRUE(http_get(first.port(), "/healthz").starts_with("HTTP/1.1 200 OK\r\n"));
  EXPECT_EQ(first.terminate(), 0);
}

// The same on PostgreSQL (until games have owners, docs/cluster.md): the second waits 3 s for a
// server that might just have died, then refuses.
TEST(ServerProcess, ASecondServerOnTheSamePostgresDatabaseRefusesToStart) {
  const std::string uri = TempPostgres::instance().new_database_uri();
  ServerProcess first(std::nullopt, 0, {"--database", uri});
  const auto second = start_second(uri);
  ASSERT_TRUE(second.ended) << "the second server kept running on the same database; it said: "
                            << second.said;
  ASSERT_TRUE(WIFEXITED(second.status)) << second.said;
  EXPECT_EQ(WEXITSTATUS(second.status), 1) << second.said;
  EXPECT_NE(second.said.find("another tengen-server is already serving the PostgreSQL database " +
                             uri + ": stop it first"),
            std::string::npos)
      << second.said;
  EXPECT_TRUE(http_get(first.port(), "/healthz").starts_with("HTTP/1.1 200 OK\r\n"));
  EXPECT_EQ(first.terminate(), 0);
}

// What an outside security test found at the HTTP edge: pages that could be framed (the game
// page has a Resign button), credentials taken from a cross-site form's text/plain body, no
// Retry-After on 429, a duplicate Host accepted, and /ws/v1 without an upgrade answered 404.
TEST(ServerProcess, HttpIsStrictAndItsPagesCannotBeFramedOrPostedCrossSite) {
  ServerProcess server;
  const int port = server.port();
  for (const std::string target : {"/", "/js/app.js", "/api/v1/games", "/no-such-file"}) {
    const std::string r = http_get(port, target);
    EXPECT_NE(r.find("Content-Security-Policy: default-src 'self';"), std::string::npos) << r;
    EXPECT_NE(r.find("frame-ancestors 'none'"), std::string::npos) << target;
    EXPECT_NE(r.find("X-Frame-Options: DENY\r\n"), std::string::npos) << target;
    EXPECT_NE(r.find("X-Content-Type-Options: nosniff\r\n"), std::string::npos) << target;
    EXPECT_NE(r.find("Referrer-Policy: same-origin\r\n"), std::string::npos) << target;
  }

  const std::string creds = R"({"username":"shusaku","password":"ear-reddening move"})";
  for (const std::string type : {"", "Content-Type: text/plain\r\n",
                                 "Content-Type: application/x-www-form-urlencoded\r\n"}) {
    for (const std::string endpoint : {"/api/v1/register", "/api/v1/login"}) {
      const std::string r = http_request(port, "POST", endpoint, type, creds);
      EXPECT_TRUE(r.starts_with("HTTP/1.1 415")) << r;
      EXPECT_EQ(
          body_of(r),
          R"({"error":{"code":"unsupported_media_type","message":"send the body as JSON, with Content-Type: application/json"}})");
    }
  }
  EXPECT_TRUE(http_request(port, "POST", "/api/v1/register",
                           "Content-Type: Application/JSON; charset=utf-8\r\n", creds)
                  .starts_with("HTTP/1.1 201"));

  // Ten attempts, then refused until a token comes back: Retry-After says when (6 s).
  std::string refused;
  for (int i = 0; i < 12 && !refused.starts_with("HTTP/1.1 429"); ++i) {
    refused = http_request(port, "POST", "/api/v1/login", "Content-Type: application/json\r\n",
                           R"({"username":"shusaku","password":"not the password"})");
  }
  ASSERT_TRUE(refused.starts_with("HTTP/1.1 429")) << refused;
  EXPECT_NE(refused.find("Retry-After: 6\r\n"), std::string::npos) << refused;

  const auto twice =
      exchange_raw(port, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n", 10s);
  EXPECT_TRUE(twice.received.starts_with("HTTP/1.1 400")) << twice.received;
  EXPECT_NE(twice.received.find("more than one Host header"), std::string::npos);
  EXPECT_NE(twice.received.find("Connection: close\r\n"), std::string::npos) << twice.received;
  EXPECT_TRUE(twice.closed);
  const auto none = exchange_raw(port, "GET / HTTP/1.1\r\n\r\n", 10s);
  EXPECT_TRUE(none.received.starts_with("HTTP/1.1 400")) << none.received;

  const std::string plain_get = http_get(port, "/ws/v1");
  EXPECT_TRUE(plain_get.starts_with("HTTP/1.1 426")) << plain_get;
  EXPECT_NE(plain_get.find("Upgrade: websocket\r\n"), std::string::npos) << plain_get;
  EXPECT_EQ(server.terminate(), 0);
}

// The session cookie was never marked Secure, even behind the documented TLS proxy.
TEST(ServerProcess, BehindAnHttpsPublicUrlTheSessionCookieIsSecure) {
  {
    ServerProcess server(std::nullopt, 0, {"--public-url", "https://go.example.org"});
    const std::string reg = http_request(server.port(), "POST", "/api/v1/register",
                                         "Content-Type: application/json\r\n",
                                         R"({"username":"jowa","password":"a fine password"})");
    ASSERT_TRUE(reg.starts_with("HTTP/1.1 201")) << reg;
    EXPECT_NE(reg.find("HttpOnly; SameSite=Lax; Max-Age=2592000; Secure\r\n"), std::string::npos)
        << reg;
    WsClient from_public(server.port(), WsClientOptions{"", "https://go.example.org", "/ws/v1"});
    EXPECT_EQ(from_public.wait_type("welcome")["type"], "welcome");
  }
  ServerProcess plain;  // without it, no Secure: a cookie over plain http would be dropped
  const std::string plain_reg =
      http_request(plain.port(), "POST", "/api/v1/register", "Content-Type: application/json\r\n",
                   R"({"username":"jowa","password":"a fine password"})");
  EXPECT_EQ(plain_reg.find("; Secure"), std::string::npos) << plain_reg;
}

// Adding a language is adding one file: the server lists every xx.json (or xx-YY.json) it finds
// in the web root's locales/ folder, at each request, and nothing else there.
TEST(ServerProcess, TheLanguagesAreTheCatalogsInTheWebRoot) {
  const fs::path root = fs::temp_directory_path() / ("tengen-web-root-" + std::to_string(getpid()));
  fs::create_directories(root / "locales");
  for (const char* name : {"en.json", "pt-BR.json", "README.md", "index.json", "x y.json"})
    std::ofstream(root / "locales" / name) << "{}";
  ServerProcess server(std::nullopt, 0, {"--web-root", root.string()});
  EXPECT_EQ(body_of(http_get(server.port(), "/locales/index.json")),
            R"({"languages":["en","pt-BR"]})");
  std::ofstream(root / "locales" / "fy.json") << "{}";
  fs::create_directories(root / "locales" / "xx.json");  // a folder: no language
  EXPECT_EQ(body_of(http_get(server.port(), "/locales/index.json")),
            R"({"languages":["en","fy","pt-BR"]})");
  // A folder without its slash is no file: 404, a whole answer (it used to break off).
  for (const char* folder : {"/locales", "/locales/xx.json"}) {
    const std::string answer = http_get(server.port(), folder);
    EXPECT_TRUE(answer.starts_with("HTTP/1.1 404")) << folder << ": " << answer;
    EXPECT_EQ(body_of(answer), "not found\n") << folder;
  }
  fs::remove_all(root);
}

// The web client over HTTP (docs/web-client.md, "Caching"): the page names its assets under the
// client's version, where they are cached for good; each file comes in the encoding asked for,
// with an ETag that a return visit sends back to get 304 and no body; a change to any file makes
// a new version, and the old version's URLs are revalidated again, never cached for good.
TEST(ServerProcess, TheWebClientIsVersionedCompressedAndRevalidated) {
  const fs::path root =
      fs::temp_directory_path() / ("tengen-web-cache-" + std::to_string(getpid()));
  fs::create_directories(root / "js");
  std::ofstream(root / "index.html") << "<!doctype html>\n<head>\n  <script type=\"module\" "
                                        "src=\"js/app.js\"></script>\n</head>\n";
  std::string js;
  for (int i = 0; i < 100; ++i)
    js += "export const x" + std::to_string(i) + " = " + std::to_string(i) + ";\n";
  std::ofstream(root / "js" / "app.js") << js;
  ServerProcess server(std::nullopt, 0, {"--web-root", root.string()});
  const auto header = [](const std::string& answer, const std::string& name) {
    const auto at = answer.find("\r\n" + name + ": ");
    if (at == std::string::npos) return std::string();
    const auto start = at + name.size() + 4;
    return answer.substr(start, answer.find("\r\n", start) - start);
  };
  const std::string page = http_get(server.port(), "/");
  ASSERT_TRUE(page.starts_with("HTTP/1.1 200")) << page;
  EXPECT_EQ(header(page, "Cache-Control"), "no-cache");
  const auto at = body_of(page).find("src=\"/v/");
  ASSERT_NE(at, std::string::npos) << page;
  const std::string script = body_of(page).substr(at + 5, body_of(page).find('"', at + 5) - at - 5);
  EXPECT_TRUE(script.ends_with("/js/app.js")) << script;

  // gzip at once, Brotli once its thread has made it (the unit test waits for that).
  const std::string br =
      http_request(server.port(), "GET", script, "Accept-Encoding: gzip, br\r\n");
  EXPECT_TRUE(br.starts_with("HTTP/1.1 200")) << br;
  const auto encoding = header(br, "Content-Encoding");
  EXPECT_TRUE(encoding == "br" || encoding == "gzip") << br;
  EXPECT_EQ(header(br, "Cache-Control"), "public, max-age=31536000, immutable");
  EXPECT_EQ(header(br, "Vary"), "Accept-Encoding");
  EXPECT_LT(body_of(br).size(), js.size() / 3);
  const std::string plain = http_get(server.port(), script);
  EXPECT_EQ(header(plain, "Content-Encoding"), "");
  EXPECT_EQ(body_of(plain), js);

  const std::string again =
      http_request(server.port(), "GET", "/", "If-None-Match: " + header(page, "ETag") + "\r\n");
  EXPECT_TRUE(again.starts_with("HTTP/1.1 304")) << again;
  EXPECT_EQ(body_of(again), "");

  // The service worker's list (never cached), the engine's WebAssembly by its type (compiled
  // only as the policy allows), and the policy itself.
  fs::create_directories(root / "wasm");
  std::ofstream(root / "wasm" / "engine.wasm", std::ios::binary) << std::string("\0asm", 4);
  const std::string shell = http_get(server.port(), "/shell.json");
  EXPECT_TRUE(shell.starts_with("HTTP/1.1 200")) << shell;
  EXPECT_EQ(header(shell, "Cache-Control"), "no-store");
  EXPECT_NE(body_of(shell).find("\"wasm/engine.wasm\""), std::string::npos) << shell;
  const std::string wasm = http_get(server.port(), "/wasm/engine.wasm");
  EXPECT_EQ(header(wasm, "Content-Type"), "application/wasm");
  EXPECT_NE(header(wasm, "Content-Security-Policy").find("script-src 'self' 'wasm-unsafe-eval';"),
            std::string::npos);

  std::ofstream(root / "js" / "app.js", std::ios::app) << "export const y = 1;\n";
  const std::string changed =
      http_request(server.port(), "GET", "/", "If-None-Match: " + header(page, "ETag") + "\r\n");
  EXPECT_TRUE(changed.starts_with("HTTP/1.1 200")) << changed;  // a new version, a new page
  EXPECT_EQ(body_of(changed).find(script), std::string::npos);
  EXPECT_EQ(header(http_get(server.port(), script), "Cache-Control"), "no-cache");  // the old one
  fs::remove_all(root);
}

}  // namespace
