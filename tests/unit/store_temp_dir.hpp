// The store tests' fixture: a fresh, empty directory per test, removed after it.
#pragma once

#include <filesystem>
#include <string>
#include <unistd.h>

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace kernelopt::store {

class TempDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           fmt::format("kernelopt-{}-{}-{}", info->test_suite_name(), getpid(), info->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }

  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string dir() const { return dir_.string(); }

  const std::filesystem::path& dir_path() const { return dir_; }

 private:
  std::filesystem::path dir_;
};

}  // namespace kernelopt::store
