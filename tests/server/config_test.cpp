#include "config.h"

#include <gtest/gtest.h>

namespace tengen {
namespace {

TEST(Config, StartsWithNoArguments) {
  const auto parsed = parse_config({}, {});
  ASSERT_TRUE(parsed.config) << parsed.error;
  EXPECT_EQ(parsed.config->port, 8080);
  EXPECT_EQ(parsed.config->database, "tengen.sqlite3");
  EXPECT_FALSE(parsed.config->web_root.empty());
}

TEST(Config, FlagsOverrideEnvironment) {
  const auto parsed = parse_config({"--port", "9000", "--database=/tmp/x.sqlite3"},
                                   {"TENGEN_PORT=7000", "TENGEN_LOG_LEVEL=debug", "HOME=/root"});
  ASSERT_TRUE(parsed.config) << parsed.error;
  EXPECT_EQ(parsed.config->port, 9000);
  EXPECT_EQ(parsed.config->database, "/tmp/x.sqlite3");
  EXPECT_EQ(parsed.config->log_level, "debug");
}

TEST(Config, BadInputNamesTheProblem) {
  EXPECT_EQ(parse_config({"--port", "70000"}, {}).error,
            "port must be a number from 0 to 65535, not '70000'");
  EXPECT_EQ(parse_config({"--frobnicate"}, {}).error, "unknown option '--frobnicate'");
  EXPECT_EQ(parse_config({"--port"}, {}).error, "--port needs a value");
  EXPECT_EQ(parse_config({}, {"TENGEN_LOG_LEVEL=loud"}).error,
            "TENGEN_LOG_LEVEL: unknown log level 'loud'");
  EXPECT_EQ(parse_config({"--database="}, {}).error, "--database must not be empty");
  EXPECT_TRUE(parse_config({"--help"}, {}).help);
}

}  // namespace
}  // namespace tengen
