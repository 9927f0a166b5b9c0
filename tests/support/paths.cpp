#include "support/paths.h"

// Set for this file alone by tests/CMakeLists.txt (tengen_test_paths).
#ifndef TENGEN_FIXTURES
#define TENGEN_FIXTURES ""
#endif
#ifndef TENGEN_SERVER_BINARY
#define TENGEN_SERVER_BINARY ""
#endif
#ifndef TENGEN_SMTP_SINK
#define TENGEN_SMTP_SINK ""
#endif
#ifndef TENGEN_GTP_BINARY
#define TENGEN_GTP_BINARY ""
#endif
#ifndef TENGEN_BRIDGE_BINARY
#define TENGEN_BRIDGE_BINARY ""
#endif
#ifndef TENGEN_ANALYSIS_BINARY
#define TENGEN_ANALYSIS_BINARY ""
#endif
#ifndef TENGEN_KATAGO_STANDIN
#define TENGEN_KATAGO_STANDIN ""
#endif
#ifndef TENGEN_GTP_ANALYZE_STANDIN
#define TENGEN_GTP_ANALYZE_STANDIN ""
#endif
#ifndef TENGEN_TEST_ENGINE
#define TENGEN_TEST_ENGINE ""
#endif

namespace tengen::testing::paths {

std::string fixtures() {
  return TENGEN_FIXTURES;
}
std::string server_binary() {
  return TENGEN_SERVER_BINARY;
}
std::string smtp_sink() {
  return TENGEN_SMTP_SINK;
}
std::string push_service() {
  return TENGEN_PUSH_SERVICE;
}
std::string gtp_binary() {
  return TENGEN_GTP_BINARY;
}
std::string bridge_binary() {
  return TENGEN_BRIDGE_BINARY;
}
std::string analysis_binary() {
  return TENGEN_ANALYSIS_BINARY;
}
std::string katago_standin() {
  return TENGEN_KATAGO_STANDIN;
}
std::string gtp_analyze_standin() {
  return TENGEN_GTP_ANALYZE_STANDIN;
}
std::string test_engine() {
  return TENGEN_TEST_ENGINE;
}

}  // namespace tengen::testing::paths
