#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <variant>

#include "http/api.h"

// What the API's endpoints share (http/api.cpp, http/moderation_api.cpp): errors, the checks of a
// body and the reading of a query string.
namespace tengen::api {

ApiResponse error(int status, std::string_view code, std::string_view message);
// Whether the body is sent as application/json (a cross-site form cannot send that without a
// preflight).
bool is_json(const ApiRequest& r);
// The request's media type in lower case, without parameters ("text/csv").
std::string media_type(const ApiRequest& r);
ApiResponse not_json();
std::optional<std::int64_t> parse_int(std::string_view text);
// The value of `name` in the target's query string, if present.
std::optional<std::string_view> query_param(std::string_view target, std::string_view name);
// ?before=ID&limit=N, or the problem with them.
// A page of a list: `limit` from 1 to kMaxPage (kDefaultPage without it).
constexpr int kDefaultPage = 20;
constexpr int kMaxPage = 100;
std::variant<store::Page, ApiResponse> page_of(std::string_view target);
// The id after the next page of `rows` (nullopt when this page is the last).
template <class Row>
std::optional<std::int64_t> next_before(const std::vector<Row>& rows, const store::Page& page) {
  if (static_cast<int>(rows.size()) == page.limit && !rows.empty()) return rows.back().id;
  return std::nullopt;
}

}  // namespace tengen::api
