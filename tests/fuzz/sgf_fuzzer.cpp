// libFuzzer target: the SGF reader, main line and whole tree. Bad input may only throw SgfError;
// a record it reads must be written and read back to the same moves, and a tree written, read and
// written again to the same text.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/sgf.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  tengen::GameRecord record;
  try {
    record = tengen::read_sgf(text);
  } catch (const tengen::SgfError&) {
    return 0;
  }
  const tengen::GameRecord again = tengen::read_sgf(tengen::write_sgf(record));  // must not throw
  if (again.moves.size() != record.moves.size()) __builtin_trap();
  tengen::GameTree tree;
  try {  // the variations the main-line reader skipped may be unreadable
    tree = tengen::read_sgf_tree(text);
  } catch (const tengen::SgfError&) {
    return 0;
  }
  const std::string written = tengen::write_sgf(tree);
  if (tengen::write_sgf(tengen::read_sgf_tree(written)) != written) __builtin_trap();
  return 0;
}
