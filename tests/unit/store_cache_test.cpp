// The cache of verified segments against real SQLite files in a temporary directory: round trip,
// order, upsert, several connections and processes on one file, files it must refuse, and where
// it lives by default.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include "kernelopt/core/error.hpp"
#include "kernelopt/store/cache.hpp"
#include "kernelopt/store/store.hpp"
#include "store_temp_dir.hpp"

namespace kernelopt::store {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

constexpr const char* kFingerprint = "3f5a0c";

VerifiedSegment verified(const std::string& strategy, json settings, double ratio, double low) {
  VerifiedSegment v;
  v.fingerprint = kFingerprint;
  v.proposer = "recipe";
  v.strategy = strategy;
  v.settings = std::move(settings);
  v.source = fmt::format("@triton.jit\ndef k(x_ptr):\n    pass  # {}\n", strategy);
  v.ratio = ratio;
  v.ratio_low = low;
  v.gates = json{{"isolated", {{"max_abs", 1e-6}}}, {"performance", {{"ratio", ratio}}}};
  v.problem = "level1/23_Softmax";
  return v;
}

// The error that `open` throws, or nullopt.
std::optional<Error> open_error(const std::string& dir) {
  try {
    Cache::open(dir);
  } catch (const Error& e) {
    return e;
  }
  return std::nullopt;
}

// Sets an environment variable for one scope, then restores it.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    set(value);
  }

  ~ScopedEnv() { set(old_ ? old_->c_str() : nullptr); }

  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;
  ScopedEnv(ScopedEnv&&) = delete;
  ScopedEnv& operator=(ScopedEnv&&) = delete;

 private:
  void set(const char* value) const {
    const int rc = value != nullptr ? setenv(name_, value, 1) : unsetenv(name_);
    if (rc != 0) std::abort();
  }

  const char* name_;
  std::optional<std::string> old_;
};

class CacheTest : public TempDirTest {
 protected:
  std::string cache_dir() const { return (dir_path() / "nested" / "cache").string(); }
};

TEST_F(CacheTest, RoundTripsAVerifiedSegment) {
  Cache cache = Cache::open(cache_dir());
  EXPECT_EQ(cache.path(), (fs::path(cache_dir()) / "cache.sqlite").string());
  EXPECT_TRUE(cache.lookup(kFingerprint).empty());

  const VerifiedSegment in =
      verified("recipe:scan", json{{"XBLOCK", 64}, {"num_warps", 4}}, 1.4, 1.3);
  cache.record(in);
  const std::vector<VerifiedSegment> out = Cache::open(cache_dir()).lookup(kFingerprint);
  ASSERT_EQ(out.size(), 1U);
  EXPECT_EQ(out[0].fingerprint, in.fingerprint);
  EXPECT_EQ(out[0].proposer, "recipe");
  EXPECT_EQ(out[0].strategy, "recipe:scan");
  EXPECT_EQ(out[0].settings, in.settings);
  EXPECT_EQ(out[0].source, in.source);
  EXPECT_DOUBLE_EQ(out[0].ratio, 1.4);
  EXPECT_DOUBLE_EQ(out[0].ratio_low, 1.3);
  EXPECT_EQ(out[0].gates, in.gates);
  EXPECT_EQ(out[0].problem, "level1/23_Softmax");
  EXPECT_EQ(out[0].created_at.size(), 24U) << out[0].created_at;  // 2025-01-01T10:00:00.000Z
  EXPECT_TRUE(cache.lookup("another").empty());
}

TEST_F(CacheTest, LooksUpTheBestRatioFirst) {
  Cache cache = Cache::open(cache_dir());
  cache.record(verified("config", json{{"XBLOCK", 1}}, 1.1, 1.0));
  cache.record(verified("config", json{{"XBLOCK", 2}}, 1.5, 1.2));
  cache.record(verified("config", json{{"XBLOCK", 3}}, 0.98, 0.97));
  cache.record(verified("config", json{{"XBLOCK", 4}}, 1.5, 1.4));
  VerifiedSegment other = verified("fuse", json::object(), 9.0, 9.0);
  other.fingerprint = "another";
  cache.record(other);
  std::vector<int> order;
  for (const VerifiedSegment& v : cache.lookup(kFingerprint)) {
    order.push_back(v.settings.at("XBLOCK").get<int>());
  }
  EXPECT_EQ(order, (std::vector<int>{4, 2, 1, 3}));
}

TEST_F(CacheTest, RecordingTheSameStrategyAndSettingsReplacesTheRow) {
  Cache cache = Cache::open(cache_dir());
  cache.record(verified("config", json{{"XBLOCK", 64}, {"num_warps", 4}}, 1.2, 1.1));
  VerifiedSegment again = verified("config", json{{"num_warps", 4}, {"XBLOCK", 64}}, 1.05, 1.0);
  again.problem = "level2/1_Conv2D_ReLU";
  cache.record(again);
  std::vector<VerifiedSegment> rows = cache.lookup(kFingerprint);
  ASSERT_EQ(rows.size(), 1U);
  EXPECT_DOUBLE_EQ(rows[0].ratio, 1.05);
  EXPECT_EQ(rows[0].problem, "level2/1_Conv2D_ReLU");

  cache.record(verified("config", json{{"XBLOCK", 128}, {"num_warps", 4}}, 1.1, 1.0));
  cache.record(verified("rewrite:hoist", json{{"XBLOCK", 64}, {"num_warps", 4}}, 1.1, 1.0));
  rows = cache.lookup(kFingerprint);
  ASSERT_EQ(rows.size(), 3U);
  EXPECT_EQ(rows.back().settings, again.settings);
}

TEST_F(CacheTest, RefusesARowItCouldNotMatchOrOrder) {
  Cache cache = Cache::open(cache_dir());
  VerifiedSegment unnamed = verified("config", json::object(), 1.1, 1.0);
  unnamed.fingerprint.clear();
  EXPECT_THROW(cache.record(unnamed), Error);
  EXPECT_THROW(cache.record(verified("config", json::object(), std::nan(""), 1.0)), Error);
  EXPECT_TRUE(cache.lookup(kFingerprint).empty());
}

TEST_F(CacheTest, TwoCachesOnOneFileSeeEachOther) {
  Cache a = Cache::open(cache_dir());
  Cache b = Cache::open(cache_dir());
  a.record(verified("config", json{{"XBLOCK", 1}}, 1.1, 1.0));
  ASSERT_EQ(b.lookup(kFingerprint).size(), 1U);
  b.record(verified("config", json{{"XBLOCK", 1}}, 1.3, 1.2));
  b.record(verified("config", json{{"XBLOCK", 2}}, 1.2, 1.1));
  const std::vector<VerifiedSegment> rows = a.lookup(kFingerprint);
  ASSERT_EQ(rows.size(), 2U);
  EXPECT_DOUBLE_EQ(rows[0].ratio, 1.3);
}

// Each of `writers` processes opens the cache and records `each` rows of its own.
void write_from_processes(const std::string& dir, int writers, int each) {
  std::vector<pid_t> pids;
  for (int w = 0; w < writers; ++w) {
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid > 0) {
      pids.push_back(pid);
      continue;
    }
    int code = 0;
    try {
      Cache cache = Cache::open(dir);
      for (int i = 0; i < each; ++i) {
        cache.record(verified(fmt::format("writer {}", w), json{{"i", i}}, 1.0 + i, 1.0));
      }
    } catch (const std::exception& e) {
      std::fprintf(stderr, "writer %d: %s\n", w, e.what());
      code = 2;
    }
    _exit(code);
  }
  for (const pid_t pid : pids) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
  }
}

TEST_F(CacheTest, SeveralProcessesWriteAtOnce) {
  write_from_processes(cache_dir(), 4, 100);
  const std::vector<VerifiedSegment> rows = Cache::open(cache_dir()).lookup(kFingerprint);
  ASSERT_EQ(rows.size(), 400U);
  EXPECT_DOUBLE_EQ(rows.front().ratio, 100.0);
}

TEST_F(CacheTest, RefusesACorruptFileAForeignOneAndANewerSchema) {
  fs::create_directories(cache_dir());
  const fs::path file = fs::path(cache_dir()) / "cache.sqlite";
  std::ofstream(file) << "this is not a database, just some text that is long enough\n";
  std::optional<Error> error = open_error(cache_dir());
  ASSERT_TRUE(error.has_value()) << "a text file opened as a cache";
  EXPECT_EQ(error->tag(), "kernelopt.cache");
  EXPECT_EQ(std::string(error->what()).find('\n'), std::string::npos) << error->what();
  EXPECT_NE(std::string(error->what()).find("not a database"), std::string::npos) << error->what();

  fs::remove(file);
  { Store::open(dir()); }  // a run store: an SQLite file of another kind
  fs::copy_file(dir_path() / "kernelopt.sqlite", file);
  error = open_error(cache_dir());
  ASSERT_TRUE(error.has_value()) << "a run store opened as a cache";
  EXPECT_EQ(error->tag(), "kernelopt.cache");
  EXPECT_NE(std::string(error->what()).find("not a kernelopt cache"), std::string::npos);

  fs::remove(file);
  { Cache::open(cache_dir()); }
  sqlite3* db = nullptr;  // forge a cache written by a future kernelopt (test-only SQL)
  ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(
      sqlite3_exec(db, "UPDATE cache_schema_version SET version = 7", nullptr, nullptr, nullptr),
      SQLITE_OK);
  ASSERT_EQ(sqlite3_close(db), SQLITE_OK);
  error = open_error(cache_dir());
  ASSERT_TRUE(error.has_value()) << "a version-7 cache opened";
  EXPECT_EQ(error->tag(), "kernelopt.cache");
  EXPECT_NE(std::string(error->what()).find("version 7"), std::string::npos) << error->what();
}

TEST_F(CacheTest, RefusesADirectoryThatIsAFile) {
  std::ofstream(dir_path() / "plain") << "x";
  const std::optional<Error> error = open_error((dir_path() / "plain").string());
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->tag(), "kernelopt.cache");
}

TEST(CacheDefaultDir, FollowsTheEnvironment) {
  const ScopedEnv home("HOME", "/home/someone");
  const ScopedEnv xdg("XDG_CACHE_HOME", "/var/cache/someone");
  {
    const ScopedEnv own("KERNELOPT_CACHE_DIR", "/data/kernelopt-cache");
    EXPECT_EQ(Cache::default_dir(), "/data/kernelopt-cache");
  }
  {
    const ScopedEnv own("KERNELOPT_CACHE_DIR", "");
    EXPECT_EQ(Cache::default_dir(), "/var/cache/someone/kernelopt");
    const ScopedEnv relative("XDG_CACHE_HOME", "relative/cache");
    EXPECT_EQ(Cache::default_dir(), "/home/someone/.cache/kernelopt");
    const ScopedEnv no_xdg("XDG_CACHE_HOME", nullptr);
    EXPECT_EQ(Cache::default_dir(), "/home/someone/.cache/kernelopt");
    const ScopedEnv no_home("HOME", nullptr);
    EXPECT_THROW(Cache::default_dir(), Error);
  }
}

}  // namespace
}  // namespace kernelopt::store
