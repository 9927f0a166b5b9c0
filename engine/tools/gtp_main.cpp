// tengen-gtp: the rules engine as a GTP referee on standard input and output.
#include <iostream>

#include "engine/gtp.h"

int main() {
  std::ios::sync_with_stdio(false);
  tengen::GtpEngine engine;
  engine.run(std::cin, std::cout);
  return 0;
}
