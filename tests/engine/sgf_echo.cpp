// Reads an SGF game tree on standard input and writes it back (write_sgf(read_sgf_tree(...))),
// or with --main-line only its main line: the other side of tests/web/sgf_tree.test.mjs, which
// checks the trees against @sabaki/sgf. An unreadable file: the error on stderr, exit 1.
#include <iostream>
#include <iterator>
#include <string>
#include <string_view>

#include "engine/sgf.h"

int main(int argc, char** argv) {
  const bool main_line = argc > 1 && std::string_view(argv[1]) == "--main-line";
  const std::string text{std::istreambuf_iterator<char>(std::cin),
                         std::istreambuf_iterator<char>()};
  try {
    const tengen::GameTree tree = tengen::read_sgf_tree(text);
    std::cout << (main_line ? tengen::write_sgf(tree.main_line()) : tengen::write_sgf(tree));
  } catch (const tengen::SgfError& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
}
