// The run store against real SQLite files in a temporary run directory, including a writer
// process killed with SIGKILL mid-run and resumed.
#include "kernelopt/store/store.hpp"

#include <array>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include "kernelopt/core/error.hpp"
#include "store_temp_dir.hpp"

namespace kernelopt::store {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

constexpr std::array<const char*, 4> kGates{"static", "isolated", "model", "performance"};

class StoreTest : public TempDirTest {
 protected:
  fs::path db_path() const { return dir_path() / "kernelopt.sqlite"; }
};

// Writes steps 0..target-1 that the store does not have yet; each step is one transaction: a
// candidate, its four gate results and a measurement.
void write_steps(Store& store, std::int64_t problem_id, int target) {
  for (int i = 0; i < target; ++i) {
    const std::string key = fmt::format("step-{}", i);
    if (store.candidate(problem_id, 0, key)) continue;
    store.transaction([&] {
      const std::int64_t c =
          store.add_candidate(problem_id, 0, key, fmt::format("cand/{}.py", i), "config");
      for (const char* gate : kGates) {
        store.record_gate(c, gate, "ok", "passed", json{{"step", i}});
      }
      store.add_measurement({problem_id, c, "speedup", 1.0 + i * 1e-3, "x", {1.0, 1.1, 0.9}});
    });
  }
}

// The forked writer: opens the store, says so on `ready_fd`, writes up to `target` steps.
[[noreturn]] void writer_main(const std::string& dir, int target, int ready_fd) {
  int code = 0;
  try {
    Store store = Store::open(dir);
    const std::optional<ProblemRow> problem = store.problem("p");
    const char byte = 'r';
    if (!problem || write(ready_fd, &byte, 1) != 1) _exit(3);
    write_steps(store, problem->id, target);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "writer: %s\n", e.what());
    code = 2;
  }
  _exit(code);
}

// Forks a writer and returns its pid once it has opened the store.
pid_t start_writer(const std::string& dir, int target) {
  std::array<int, 2> fds{};
  if (pipe(fds.data()) != 0) throw std::runtime_error("pipe failed");
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    close(fds[0]);
    writer_main(dir, target, fds[1]);
  }
  close(fds[1]);
  char byte = 0;
  const ssize_t n = read(fds[0], &byte, 1);
  close(fds[0]);
  if (n != 1) throw std::runtime_error("the writer died before opening the store");
  return pid;
}

int wait_for(pid_t pid) {
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) throw std::runtime_error("waitpid failed");
  return status;
}

// Checks that the store holds whole steps 0..n-1 and nothing else; returns n.
int check_whole_steps(const std::string& dir) {
  Store store = Store::open(dir);
  EXPECT_EQ(store.integrity_check(), "ok");
  const std::int64_t problem_id = store.problem("p").value().id;
  const std::vector<CandidateRow> candidates = store.candidates(problem_id);
  std::set<std::string> keys;
  for (const CandidateRow& c : candidates) {
    keys.insert(c.key);
    EXPECT_EQ(store.gate_results(c.id).size(), kGates.size()) << "half-written step " << c.key;
  }
  const auto n = static_cast<int>(candidates.size());
  EXPECT_EQ(static_cast<int>(keys.size()), n) << "duplicate candidates";
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(keys.count(fmt::format("step-{}", i)), 1U) << "missing step " << i;
  }
  EXPECT_EQ(static_cast<int>(store.measurements(problem_id).size()), n);
  return n;
}

TEST_F(StoreTest, CreatesTheSchemaInWalModeAndReopens) {
  {
    Store store = Store::open(dir());
    EXPECT_EQ(store.path(), db_path().string());
    EXPECT_EQ(store.integrity_check(), "ok");
    store.upsert_problem("level1/19_ReLU", "problems/19_ReLU.py");
  }
  // Bytes 18 and 19 of the header are 2 when the file is in WAL mode.
  std::ifstream file(db_path(), std::ios::binary);
  std::array<char, 20> header{};
  ASSERT_TRUE(file.read(header.data(), header.size()));
  EXPECT_EQ(std::string(header.data(), 15), "SQLite format 3");
  EXPECT_EQ(header[18], 2);
  EXPECT_EQ(header[19], 2);

  Store again = Store::open(dir());
  const std::optional<ProblemRow> p = again.problem("level1/19_ReLU");
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->path, "problems/19_ReLU.py");
  EXPECT_EQ(p->status, ProblemStatus::kPending);
  EXPECT_FALSE(again.problem("other").has_value());
}

TEST_F(StoreTest, RefusesAMissingRunDirectoryAndAForeignFile) {
  EXPECT_THROW(Store::open((fs::path(dir()) / "absent").string()), Error);
  std::ofstream(db_path()) << "this is not a database, just some text that is long enough\n";
  try {
    Store::open(dir());
    FAIL() << "a text file opened as a store";
  } catch (const Error& e) {
    EXPECT_EQ(e.tag(), "kernelopt.store");
  }
}

TEST_F(StoreTest, UpsertProblemIsIdempotentAndStatusKeepsTimes) {
  Store store = Store::open(dir());
  const std::int64_t id = store.upsert_problem("a", "a.py");
  EXPECT_EQ(store.upsert_problem("a", "a2.py"), id);
  EXPECT_NE(store.upsert_problem("b", "b.py"), id);
  ASSERT_EQ(store.problems().size(), 2U);
  EXPECT_EQ(store.problems()[0].path, "a2.py");

  store.set_problem_status(id, ProblemStatus::kRunning, "", "");
  const ProblemRow running = store.problem("a").value();
  ASSERT_TRUE(running.started_at.has_value());
  EXPECT_FALSE(running.finished_at.has_value());

  store.set_problem_status(id, ProblemStatus::kDone, "fallback", "vendor-dominated");
  const ProblemRow done = store.problem("a").value();
  EXPECT_EQ(done.status, ProblemStatus::kDone);
  EXPECT_EQ(done.outcome_class, "fallback");
  EXPECT_EQ(done.detail, "vendor-dominated");
  EXPECT_EQ(done.started_at, running.started_at);
  EXPECT_TRUE(done.finished_at.has_value());
  EXPECT_EQ(store.upsert_problem("a", "a2.py"), id);
  EXPECT_EQ(store.problem("a").value().status, ProblemStatus::kDone);  // upsert keeps status

  EXPECT_THROW(store.set_problem_status(id + 100, ProblemStatus::kDone, "", ""), Error);
  EXPECT_EQ(parse_problem_status("failed"), ProblemStatus::kFailed);
  EXPECT_THROW(parse_problem_status("finished"), Error);
}

TEST_F(StoreTest, AddCandidateReturnsTheExistingId) {
  Store store = Store::open(dir());
  const std::int64_t p = store.upsert_problem("a", "a.py");
  const std::int64_t c = store.add_candidate(p, 0, "BLOCK=128", "c/1.py", "config");
  EXPECT_EQ(store.add_candidate(p, 0, "BLOCK=128", "c/other.py", "rewrite"), c);
  EXPECT_EQ(store.candidate(p, 0, "BLOCK=128").value().source_path, "c/1.py");
  EXPECT_NE(store.add_candidate(p, 1, "BLOCK=128", "c/2.py", "config"), c);
  EXPECT_EQ(store.candidates(p).size(), 2U);
  EXPECT_FALSE(store.candidate(p, 2, "BLOCK=128").has_value());
  EXPECT_THROW(store.add_candidate(p + 100, 0, "k", "c/3.py", "config"), Error);  // foreign key
}

TEST_F(StoreTest, RecordGateReplacesTheSameGate) {
  Store store = Store::open(dir());
  const std::int64_t p = store.upsert_problem("a", "a.py");
  const std::int64_t c = store.add_candidate(p, 0, "k", "c.py", "config");
  store.record_gate(c, "isolated", "wrong_result", "max abs err 0.5", json{{"max_abs", 0.5}});
  const GateRow first = store.gate_result(c, "isolated").value();
  store.record_gate(c, "isolated", "ok", "", json{{"max_abs", 1e-6}});
  store.record_gate(c, "model", "ok", "", json::object());
  const std::vector<GateRow> rows = store.gate_results(c);
  ASSERT_EQ(rows.size(), 2U);
  EXPECT_EQ(rows[0].id, first.id);
  EXPECT_EQ(rows[0].gate, "isolated");
  EXPECT_EQ(rows[0].status, "ok");
  EXPECT_EQ(rows[0].detail, "");
  EXPECT_DOUBLE_EQ(rows[0].numbers.at("max_abs").get<double>(), 1e-6);
  EXPECT_EQ(rows[1].gate, "model");
  EXPECT_FALSE(store.gate_result(c, "performance").has_value());
  EXPECT_THROW(store.record_gate(c + 100, "model", "ok", "", json::object()), Error);
}

TEST_F(StoreTest, MeasurementsRoundTrip) {
  Store store = Store::open(dir());
  const std::int64_t p = store.upsert_problem("a", "a.py");
  const std::int64_t c = store.add_candidate(p, 0, "k", "c.py", "config");
  store.add_measurement({p, std::nullopt, "baseline_ms", 1.25, "ms", {1.2, 1.25, 1.3}});
  store.add_measurement({p, c, "speedup", 1.07, "x", {}});
  const std::vector<MeasurementRow> rows = store.measurements(p);
  ASSERT_EQ(rows.size(), 2U);
  EXPECT_FALSE(rows[0].measurement.candidate_id.has_value());
  EXPECT_EQ(rows[0].measurement.name, "baseline_ms");
  EXPECT_EQ(rows[0].measurement.samples, (std::vector<double>{1.2, 1.25, 1.3}));
  EXPECT_EQ(rows[1].measurement.candidate_id, c);
  EXPECT_DOUBLE_EQ(rows[1].measurement.value, 1.07);
  EXPECT_EQ(rows[1].measurement.unit, "x");
  EXPECT_FALSE(rows[1].created_at.empty());
}

TEST_F(StoreTest, ATransactionThatThrowsLeavesNothing) {
  {
    Store store = Store::open(dir());
    const std::int64_t p = store.upsert_problem("a", "a.py");
    const auto half_step = [&] {
      const std::int64_t c = store.add_candidate(p, 0, "k", "c.py", "config");
      store.record_gate(c, "static", "ok", "", json::object());
      store.add_measurement({p, c, "speedup", 1.1, "x", {}});
      throw std::runtime_error("the step failed half-way");
    };
    EXPECT_THROW(store.transaction(half_step), std::runtime_error);
    EXPECT_TRUE(store.candidates(p).empty());
    EXPECT_TRUE(store.measurements(p).empty());

    // Not reentrant, and the outer step is rolled back with the inner error.
    const auto nested = [&] {
      store.add_candidate(p, 0, "k", "c.py", "config");
      store.transaction([] {});
    };
    EXPECT_THROW(store.transaction(nested), Error);
    EXPECT_TRUE(store.candidates(p).empty());

    store.transaction([&] { store.add_candidate(p, 0, "kept", "c.py", "config"); });
  }
  Store again = Store::open(dir());
  const std::vector<CandidateRow> rows = again.candidates(again.problem("a").value().id);
  ASSERT_EQ(rows.size(), 1U);
  EXPECT_EQ(rows[0].key, "kept");
}

TEST_F(StoreTest, RefusesANewerSchemaVersion) {
  { Store::open(dir()).upsert_problem("a", "a.py"); }
  // Forge a file written by a future kernelopt (the only SQL outside store/, test-only).
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(db_path().c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "UPDATE schema_version SET version = 99", nullptr, nullptr, nullptr),
            SQLITE_OK);
  ASSERT_EQ(sqlite3_close(db), SQLITE_OK);
  try {
    Store::open(dir());
    FAIL() << "a version-99 store opened";
  } catch (const Error& e) {
    EXPECT_EQ(e.tag(), "kernelopt.store");
    EXPECT_NE(std::string(e.what()).find("schema version 99"), std::string::npos) << e.what();
  }
}

TEST_F(StoreTest, SurvivesSigkillAndResumesWithoutDuplicates) {
  { Store::open(dir()).upsert_problem("p", "p.py"); }
  std::mt19937 gen(7);  // kill delays: random-ish, the same every run
  int done = 0;
  for (int round = 0; round < 6; ++round) {
    const pid_t pid = start_writer(dir(), 1000000);
    std::this_thread::sleep_for(std::chrono::milliseconds(50 + gen() % 251));
    ASSERT_EQ(kill(pid, SIGKILL), 0);
    const int status = wait_for(pid);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
        << "the writer ended on its own with status " << status;
    const int n = check_whole_steps(dir());
    EXPECT_GE(n, done) << "round " << round << " lost steps";
    done = n;
  }
  EXPECT_GT(done, 0) << "no writer committed a step before it was killed";

  const int target = done + 200;
  const int status = wait_for(start_writer(dir(), target));
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
  EXPECT_EQ(check_whole_steps(dir()), target);
}

}  // namespace
}  // namespace kernelopt::store
