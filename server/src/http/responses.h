#pragma once

#include <boost/beast/http.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "http/api.h"
#include "http/web_files.h"

// What the HTTP server answers with, apart from its sockets (http_server.cpp): the headers every
// answer carries, the API's answers, short texts, and the web client's files (docs/web-client.md,
// "Caching"). Included by the HTTP server only: Beast's headers are heavy.
namespace tengen::http_responses {
namespace http = boost::beast::http;

// On every response: nothing of ours may be framed by another site (the game page has a
// Resign button), scripts and styles come only from this server (WebAssembly may be compiled:
// the rules engine in the browser, web/js/engine.js; JavaScript may still not be evaluated from
// strings), types are not sniffed, and addresses do not leak to other sites.
template <class Body>
void harden(http::response<Body>& res) {
  res.set(http::field::server, "tengen");
  res.set("Content-Security-Policy",
          "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; img-src "
          "'self' data:; "
          "style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'; "
          "form-action 'self'; frame-ancestors 'none'");
  res.set("X-Frame-Options", "DENY");
  res.set("X-Content-Type-Options", "nosniff");
  res.set("Referrer-Policy", "same-origin");
}

// The API's request as the API sees it (the client's address as the proxies tell it).
ApiRequest to_api_request(const http::request<http::string_body>& req, const std::string& address);
// The session token: a Bearer header, else the session cookie.
std::string token_of(const http::request<http::string_body>& req);
http::message_generator api_response(const ApiResponse& a, unsigned version, bool keep_alive);
// A short answer that is never cached.
http::response<http::string_body> text_response(const http::request<http::string_body>& req,
                                                http::status status, std::string body,
                                                std::string_view type);
http::message_generator plain(const http::request<http::string_body>& req, http::status status,
                              std::string body, std::string_view type);
// What makes a request unanswerable, or nothing: an HTTP/1.1 request has exactly one Host.
std::optional<std::string> malformed(const http::request<http::string_body>& req);
// A file of the web client (under `web_root`) for `target`.
http::message_generator web_file(http_files::WebFiles& web_files, const std::string& web_root,
                                 const http::request<http::string_body>& req,
                                 std::string_view target);

}  // namespace tengen::http_responses
