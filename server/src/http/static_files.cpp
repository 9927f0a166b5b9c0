#include "http/static_files.h"

#include <algorithm>
#include <set>

#include "protocol/http_api.h"

namespace tengen::http_files {

std::string_view mime_type(const std::filesystem::path& path) {
  const std::string ext = path.extension().string();
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".json") return "application/json";
  if (ext == ".webmanifest") return "application/manifest+json";
  if (ext == ".wasm") return "application/wasm";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".ico") return "image/x-icon";
  if (ext == ".wav") return "audio/wav";
  if (ext == ".mp3") return "audio/mpeg";
  if (ext == ".woff2") return "font/woff2";
  return "application/octet-stream";
}

// Maps a request target to a file under root, or nullopt if it tries to leave the root.
std::optional<std::filesystem::path> resolve(const std::string& root, std::string_view target) {
  target = target.substr(0, target.find_first_of("?#"));
  if (target.empty() || target[0] != '/') return std::nullopt;
  std::filesystem::path relative;
  std::size_t start = 1;
  while (start <= target.size()) {
    const auto end = std::min(target.find('/', start), target.size());
    const auto segment = target.substr(start, end - start);
    if (segment == ".." || segment.find('\\') != std::string_view::npos ||
        segment.find('\0') != std::string_view::npos) {
      return std::nullopt;
    }
    if (!segment.empty() && segment != ".") relative /= std::string(segment);
    start = end + 1;
  }
  std::filesystem::path full = std::filesystem::path(root) / relative;
  if (target.back() == '/') full /= "index.html";
  return full;
}

// The host[:port] part of an origin such as "https://go.example.org:8443".
std::string_view origin_host(std::string_view origin) {
  const auto scheme = origin.find("://");
  return scheme == std::string_view::npos ? std::string_view{} : origin.substr(scheme + 3);
}

// The xx.json (or xx-YY.json) files in web_root/locales, as {"languages":["de","en","nl"]}.
std::string languages_json(const std::string& web_root) {
  std::set<std::string> codes;
  std::error_code ec;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::filesystem::path(web_root) / "locales", ec)) {
    const auto name = entry.path().filename().string();
    // Catalogs are files: a folder (or anything else) named xx.json is no language.
    if (!entry.is_regular_file(ec) || entry.path().extension() != ".json" || name == "index.json")
      continue;
    const auto code = entry.path().stem().string();
    const bool ok =
        code.size() >= 2 && code.size() <= 8 && std::all_of(code.begin(), code.end(), [](char c) {
          return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-';
        });
    if (ok) codes.insert(code);
  }
  return protocol::http::encode_languages({codes.begin(), codes.end()});
}

}  // namespace tengen::http_files
