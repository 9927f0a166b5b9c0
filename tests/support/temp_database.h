#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace tengen::testing {

// A fresh SQLite file path per test, removed (with its WAL files) afterwards.
class TempDatabase {
 public:
  TempDatabase() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = "tengen-" + std::string(info->test_suite_name()) + "-" + info->name() + "-" +
                       std::to_string(::getpid()) + ".sqlite3";
    for (char& c : name) {
      if (c == '/') c = '_';  // parameterised tests have slashes in their names
    }
    path_ = std::filesystem::temp_directory_path() / name;
    remove();
  }
  ~TempDatabase() { remove(); }
  std::string path() const { return path_.string(); }

 private:
  void remove() {
    for (const char* suffix : {"", "-wal", "-shm"})
      std::filesystem::remove(path_.string() + suffix);
  }
  std::filesystem::path path_;
};

}  // namespace tengen::testing
