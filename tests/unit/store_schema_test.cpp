// The run store's candidates with strategy and launch settings, and the migration of a run
// directory written by an older kernelopt (schema version 1, from a fixture dump).
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include "kernelopt/store/store.hpp"
#include "store_temp_dir.hpp"

namespace kernelopt::store {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// Runs `sql` on the SQLite file at `path` (test-only SQL: setting up and inspecting files) and
// returns the first column of its rows joined by '|'.
std::string raw_sql(const fs::path& path, const std::string& sql) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  std::string out;
  const auto collect = [](void* sink, int /*columns*/, char** values, char** /*names*/) {
    auto& text = *static_cast<std::string*>(sink);
    if (!text.empty()) text += '|';
    text += values[0] != nullptr ? values[0] : "NULL";
    return 0;
  };
  char* error = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), collect, &out, &error), SQLITE_OK)
      << (error != nullptr ? error : "");
  sqlite3_free(error);
  EXPECT_EQ(sqlite3_close(db), SQLITE_OK);
  return out;
}

std::string read_fixture(const std::string& name) {
  std::ifstream in(fs::path(KERNELOPT_SOURCE_DIR) / "tests/fixtures/store" / name);
  EXPECT_TRUE(in.good()) << name;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

constexpr const char* kCandidateColumns =
    "SELECT name || ' ' || type || ' ' || \"notnull\" || ' ' || coalesce(dflt_value, '') "
    "FROM pragma_table_info('candidates') ORDER BY cid";

class StoreSchemaTest : public TempDirTest {
 protected:
  fs::path db_path() const { return dir_path() / "kernelopt.sqlite"; }
};

TEST_F(StoreSchemaTest, CandidatesRecordStrategyAndSettings) {
  Store store = Store::open(dir());
  const std::int64_t p = store.upsert_problem("a", "a.py");
  CandidateInfo info;
  info.segment = 2;
  info.key = "scan XBLOCK=64";
  info.source_path = "c/scan.py";
  info.proposer = "recipe";
  info.strategy = "recipe:scan";
  info.settings = json{{"XBLOCK", 64}, {"num_warps", 4}};
  const std::int64_t c = store.add_candidate(p, info);

  const CandidateRow row = store.candidate(p, 2, "scan XBLOCK=64").value();
  EXPECT_EQ(row.id, c);
  EXPECT_EQ(row.source_path, "c/scan.py");
  EXPECT_EQ(row.proposer, "recipe");
  EXPECT_EQ(row.strategy, "recipe:scan");
  EXPECT_EQ(row.settings, (json{{"num_warps", 4}, {"XBLOCK", 64}}));

  // The same key again keeps the first row as it was.
  info.strategy = "config";
  info.settings = json{{"XBLOCK", 128}};
  EXPECT_EQ(store.add_candidate(p, info), c);
  EXPECT_EQ(store.candidate(p, 2, "scan XBLOCK=64").value().strategy, "recipe:scan");

  // The older overload records no strategy and no settings.
  const std::int64_t old = store.add_candidate(p, 2, "user", "c/user.py", "user");
  const CandidateRow plain = store.candidates(p).back();
  EXPECT_EQ(plain.id, old);
  EXPECT_EQ(plain.strategy, "");
  EXPECT_EQ(plain.settings, json::object());
}

TEST_F(StoreSchemaTest, MigratesAndResumesAVersionOneRunDirectory) {
  raw_sql(db_path(), read_fixture("v1.sql"));
  ASSERT_EQ(raw_sql(db_path(), "SELECT max(version) FROM schema_version"), "1");
  {
    Store store = Store::open(dir());
    EXPECT_EQ(store.integrity_check(), "ok");
    const ProblemRow relu = store.problem("level1/19_ReLU").value();
    EXPECT_EQ(relu.status, ProblemStatus::kRunning);
    EXPECT_EQ(relu.started_at, "2025-01-01T10:00:00.000Z");
    const std::vector<CandidateRow> candidates = store.candidates(relu.id);
    ASSERT_EQ(candidates.size(), 1U);
    EXPECT_EQ(candidates[0].key, "XBLOCK=1024");
    EXPECT_EQ(candidates[0].proposer, "user");
    EXPECT_EQ(candidates[0].strategy, "");
    EXPECT_EQ(candidates[0].settings, json::object());
    EXPECT_EQ(store.gate_result(candidates[0].id, "static").value().numbers.at("registers"), 16);
    ASSERT_EQ(store.measurements(relu.id).size(), 1U);

    // Resume: the recorded candidate is found again, a new one gets its strategy.
    EXPECT_EQ(store.add_candidate(relu.id, 0, "XBLOCK=1024", "other.py", "config"),
              candidates[0].id);
    CandidateInfo next{0, "XBLOCK=2048", "c/2048.py", "config", "config", {{"XBLOCK", 2048}}};
    const std::int64_t c = store.add_candidate(relu.id, next);
    store.record_gate(c, "static", "ok", "", json::object());
    store.set_problem_status(relu.id, ProblemStatus::kDone, "optimized", "");
  }
  EXPECT_EQ(raw_sql(db_path(), "SELECT max(version) FROM schema_version"), "2");
  Store again = Store::open(dir());
  const ProblemRow relu = again.problem("level1/19_ReLU").value();
  EXPECT_EQ(relu.status, ProblemStatus::kDone);
  EXPECT_EQ(again.candidates(relu.id).back().settings.at("XBLOCK"), 2048);
  EXPECT_EQ(again.problem("level1/23_Softmax").value().status, ProblemStatus::kPending);
}

TEST_F(StoreSchemaTest, AMigratedStoreHasTheColumnsOfANewOne) {
  const fs::path fresh_dir = dir_path() / "fresh";
  fs::create_directories(fresh_dir);
  { Store::open(fresh_dir.string()); }
  raw_sql(db_path(), read_fixture("v1.sql"));
  { Store::open(dir()); }
  const std::string fresh = raw_sql(fresh_dir / "kernelopt.sqlite", kCandidateColumns);
  EXPECT_NE(fresh.find("settings_json TEXT 1 '{}'"), std::string::npos) << fresh;
  EXPECT_EQ(raw_sql(db_path(), kCandidateColumns), fresh);
}

}  // namespace
}  // namespace kernelopt::store
