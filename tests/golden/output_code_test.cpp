// Golden files for the output-code parser: every tests/fixtures/output_code/**/NAME.py (subfolders
// included, e.g. real/ for captured modules) is parsed and its to_json compared with
// NAME.expected.json beside it. KERNELOPT_UPDATE_GOLDEN=1 rewrites the
// expected files instead (then read the diff before committing it).
#include "kernelopt/inductor/output_code.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace {

namespace fs = std::filesystem;

fs::path fixture_dir() {
  return fs::path(KERNELOPT_SOURCE_DIR) / "tests/fixtures/output_code";
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool updating() {
  const char* value = std::getenv("KERNELOPT_UPDATE_GOLDEN");
  return value != nullptr && std::string(value) == "1";
}

std::vector<fs::path> fixtures() {
  std::vector<fs::path> paths;
  for (const auto& entry : fs::recursive_directory_iterator(fixture_dir())) {
    if (entry.is_regular_file() && entry.path().extension() == ".py") {
      paths.push_back(entry.path());
    }
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

TEST(OutputCodeGolden, EveryFixtureMatchesItsExpectedJson) {
  const std::vector<fs::path> paths = fixtures();
  ASSERT_FALSE(paths.empty()) << "no fixtures in " << fixture_dir();
  for (const fs::path& path : paths) {
    SCOPED_TRACE(path.lexically_relative(fixture_dir()).string());
    const std::string actual =
        kernelopt::inductor::to_json(kernelopt::inductor::parse_output_code(read_file(path)))
            .dump(2) +
        "\n";
    fs::path expected_path = path;
    expected_path.replace_extension(".expected.json");
    if (updating()) {
      std::ofstream(expected_path, std::ios::binary) << actual;
      continue;
    }
    ASSERT_TRUE(fs::exists(expected_path))
        << expected_path << " is missing; run with KERNELOPT_UPDATE_GOLDEN=1 to create it";
    EXPECT_EQ(read_file(expected_path), actual);
  }
}

}  // namespace
