#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

// What the HTTP server needs to serve the web client's files (http_server.cpp): no sockets here.
namespace tengen::http_files {

// The Content-Type of a file, by its extension.
std::string_view mime_type(const std::filesystem::path& path);
// Maps a request target to a file under root, or nullopt if it tries to leave the root.
std::optional<std::filesystem::path> resolve(const std::string& root, std::string_view target);
// The host[:port] part of an origin such as "https://go.example.org:8443".
std::string_view origin_host(std::string_view origin);
// The xx.json (or xx-YY.json) files in web_root/locales, as {"languages":["de","en","nl"]}.
std::string languages_json(const std::string& web_root);

}  // namespace tengen::http_files
