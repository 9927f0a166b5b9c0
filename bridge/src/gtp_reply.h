#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

// Reading a GTP engine's output (GTP 2, §3.4): each response is "=[id] text" or "?[id] text",
// possibly over several lines, ended by an empty line. Pure: no process, no socket.
namespace tengen::bridge {

struct GtpReply {
  bool ok = false;
  std::string text;  // without the status character, the id and surrounding blanks
};

// The engine wrote something that is not a GTP response: the bridge gives the game up.
struct GtpGarbage : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class GtpReplyReader {
 public:
  static constexpr std::size_t kMaxReplyBytes = 1 << 20;

  void feed(std::string_view bytes);
  // The next complete response, nullopt until one has arrived; throws GtpGarbage.
  std::optional<GtpReply> next();

 private:
  std::string buffer_;
};

// "D4 E5\nC3" → {"D4", "E5", "C3"}, upper-cased: final_status_list, place_free_handicap.
std::vector<std::string> split_vertices(std::string_view text);

}  // namespace tengen::bridge
