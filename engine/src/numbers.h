#pragma once

#include <charconv>
#include <string>
#include <string_view>
#include <system_error>
#if !defined(__cpp_lib_to_chars)
#include <cstdlib>
#endif

namespace tengen {

// A decimal number that is the whole of `text` ("6.5", "-0.5", "1e3"; no leading space or '+'),
// as std::from_chars reads it. The C++ library of the WebAssembly build (LLVM's libc++ 14,
// wasm/) has from_chars for integers only, so there the C library reads it, in its C locale.
inline bool read_real(std::string_view text, double& value) {
#if defined(__cpp_lib_to_chars)
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc{} && end == text.data() + text.size();
#else
  if (text.empty() || text.front() == ' ' || text.front() == '+' ||
      text.find_first_of("xX\t\n\v\f\r") != std::string_view::npos)
    return false;
  const std::string copy(text);
  char* end = nullptr;
  value = std::strtod(copy.c_str(), &end);
  return end == copy.c_str() + copy.size();
#endif
}

}  // namespace tengen
