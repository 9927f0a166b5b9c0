#include "http/responses.h"

#include <filesystem>

#include "http/static_files.h"
#include "protocol/http_api.h"

namespace tengen::http_responses {

ApiRequest to_api_request(const http::request<http::string_body>& req, const std::string& address) {
  ApiRequest r;
  r.method = std::string(req.method_string());
  r.target = std::string(req.target());
  r.body = req.body();
  r.user_agent = std::string(req[http::field::user_agent]);
  r.address = address;
  r.content_type = std::string(req[http::field::content_type]);
  r.token = token_of(req);
  return r;
}

std::string token_of(const http::request<http::string_body>& req) {
  const std::string_view auth = req[http::field::authorization];
  if (auth.starts_with("Bearer ")) return std::string(auth.substr(7));
  return token_from_cookie(req[http::field::cookie]);
}

http::message_generator api_response(const ApiResponse& a, unsigned version, bool keep_alive) {
  http::response<http::string_body> res{static_cast<http::status>(a.status), version};
  harden(res);
  // Every 429 says when to try again (a minute, where the refusal did not say).
  const int retry_after = a.status == 429 && a.retry_after_s <= 0 ? 60 : a.retry_after_s;
  if (retry_after > 0) res.set(http::field::retry_after, std::to_string(retry_after));
  res.set(http::field::cache_control, "no-store");
  if (!a.body.empty()) res.set(http::field::content_type, a.content_type);
  if (!a.content_disposition.empty())
    res.set(http::field::content_disposition, a.content_disposition);
  for (const auto& cookie : a.set_cookies) res.insert(http::field::set_cookie, cookie);
  res.keep_alive(keep_alive);
  res.body() = a.body;
  res.prepare_payload();
  return http::message_generator(std::move(res));
}

http::message_generator plain(const http::request<http::string_body>& req, http::status status,
                              std::string body, std::string_view type) {
  return http::message_generator(text_response(req, status, std::move(body), type));
}

http::response<http::string_body> text_response(const http::request<http::string_body>& req,
                                                http::status status, std::string body,
                                                std::string_view type) {
  http::response<http::string_body> res{status, req.version()};
  harden(res);
  res.set(http::field::content_type, type);
  res.set(http::field::cache_control, "no-store");
  res.keep_alive(req.keep_alive());
  res.body() = std::move(body);
  res.prepare_payload();
  return res;
}

// What makes a request unanswerable, or nothing: an HTTP/1.1 request has exactly one Host.
std::optional<std::string> malformed(const http::request<http::string_body>& req) {
  const auto hosts = req.count(http::field::host);
  if (hosts > 1) return "more than one Host header";
  if (hosts == 0 && req.version() >= 11) return "no Host header";
  return std::nullopt;
}

// The web client's files (docs/web-client.md, "Caching"): under /v/<version>/ for good
// (immutable) when the version is the client's now, otherwise revalidated on every use (no-cache,
// answered 304 when the ETag still matches); each in the best encoding the request accepts,
// compressed once per change of the file.
http::message_generator web_file(http_files::WebFiles& web_files, const std::string& web_root,
                                 const http::request<http::string_body>& req,
                                 std::string_view target) {
  bool immutable = false;
  if (target.starts_with("/v/")) {
    const auto end = target.find('/', 3);
    if (end == std::string_view::npos)
      return plain(req, http::status::not_found, "not found\n", "text/plain");
    immutable = target.substr(3, end - 3) == web_files.version();
    target = target.substr(end);
  }
  if (target == "/locales/index.json") {  // the catalogs there are the client's languages
    auto res = text_response(req, http::status::ok, http_files::languages_json(web_root),
                             "application/json");
    res.set(http::field::cache_control,
            immutable ? "public, max-age=31536000, immutable" : "no-cache");
    return http::message_generator(std::move(res));
  }
  if (target == "/shell.json") {  // what the service worker keeps (web/sw.js); never cached
    const auto shell = web_files.shell();
    auto res =
        text_response(req, http::status::ok,
                      protocol::http::encode_shell(shell.version, shell.files), "application/json");
    res.set(http::field::cache_control, "no-store");
    return http::message_generator(std::move(res));
  }
  const auto path = http_files::resolve(web_root, target);
  if (!path) return plain(req, http::status::bad_request, "bad path\n", "text/plain");
  const auto accepted = http_files::best_encoding(req[http::field::accept_encoding]);
  const auto file =
      web_files.is_page(*path) ? web_files.index(accepted) : web_files.get(*path, accepted);
  // Files only: a folder (/js, /locales without the slash) is not found.
  if (!file) return plain(req, http::status::not_found, "not found\n", "text/plain");
  const auto headers = [&](auto& res) {
    harden(res);
    res.set(http::field::content_type, http_files::mime_type(*path));
    res.set(http::field::cache_control,
            immutable ? "public, max-age=31536000, immutable" : "no-cache");
    res.set(http::field::etag, "\"" + file->etag + "\"");
    res.set(http::field::vary, "Accept-Encoding");
    if (file->encoding != http_files::Encoding::Identity)
      res.set(http::field::content_encoding, http_files::encoding_name(file->encoding));
    res.keep_alive(req.keep_alive());
  };
  if (http_files::WebFiles::matches(req[http::field::if_none_match], *file)) {
    http::response<http::empty_body> res{http::status::not_modified, req.version()};
    headers(res);
    res.erase(http::field::content_type);
    return http::message_generator(std::move(res));
  }
  if (req.method() == http::verb::head) {
    http::response<http::empty_body> res{http::status::ok, req.version()};
    headers(res);
    res.content_length(file->bytes->size());
    return http::message_generator(std::move(res));
  }
  http::response<http::string_body> res{http::status::ok, req.version(), *file->bytes};
  headers(res);
  res.prepare_payload();
  return http::message_generator(std::move(res));
}

}  // namespace tengen::http_responses
