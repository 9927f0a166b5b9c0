#pragma once

#include <string>

// Where the tests find this checkout's files and this build's programs. The paths are given to one
// translation unit only (support/paths.cpp, in the tengen_test_paths library), not to every test
// file as definitions: a test file then compiles to the same object in any clone, and the compiler
// cache outside the clone serves it to the next one (docs/testing.md, "CI and its time").
namespace tengen::testing::paths {

std::string fixtures();             // tests/fixtures
std::string server_binary();        // the tengen-server built with the tests
std::string smtp_sink();            // tests/support/smtp_sink.py
std::string push_service();         // tests/support/push_service.py
std::string gtp_binary();           // tengen-gtp (the engine's GTP program)
std::string bridge_binary();        // tengen-gtp-bridge
std::string test_engine();          // tests/bridge/test-engine
std::string analysis_binary();      // tengen-analysis, the analysis worker
std::string katago_standin();       // tests/analysis/katago-standin (KataGo's analysis protocol)
std::string gtp_analyze_standin();  // tests/analysis/gtp-analyze-standin (GTP kata-analyze)

}  // namespace tengen::testing::paths
