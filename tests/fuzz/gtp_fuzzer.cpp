// libFuzzer target: the GTP reader and the referee behind it. The input is a session of up to
// 200 command lines; every line gets exactly one well-formed response and nothing throws.
// loadsgf (reads files), printsgf with a file name (writes one into the working directory: the
// fuzzer once left dozens there) and final_status_list (Monte Carlo playouts, slow) are left out.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/gtp.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  tengen::GtpEngine engine;
  for (int lines = 0; !text.empty() && lines < 200 && !engine.quit_requested(); ++lines) {
    const auto end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    const auto command = tengen::parse_gtp_line(line);
    if (!command || command->name == "loadsgf" || command->name == "final_status_list" ||
        (command->name == "printsgf" && !command->args.empty())) {
      continue;
    }
    const std::string response = tengen::format_gtp_response(command->id, engine.execute(*command));
    if (response.size() < 3 || (response[0] != '=' && response[0] != '?') ||
        !response.ends_with("\n\n")) {
      __builtin_trap();
    }
  }
  return 0;
}
