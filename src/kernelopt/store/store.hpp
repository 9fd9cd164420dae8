// The run store: one SQLite file per run directory (RUN_DIR/kernelopt.sqlite) holding what each
// step of a run decided, so that a run killed at any point resumes where it stopped. store/ is the
// only place with SQL; callers see rows and verbs. What outlives a run is in the cache (cache.hpp).
//
// Durability contract: each public write is atomic on its own; a caller groups the writes of one
// finished step in transaction(), and then a process killed (even by SIGKILL) at any point leaves
// either the whole step or nothing of it. WAL journal with synchronous=FULL makes a commit survive
// power loss too. A Store is used from one thread; several processes may share one file.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

struct sqlite3;

namespace kernelopt::store {

// Where a problem is in the run. Stored as text ("pending", "running", "done", "failed").
enum class ProblemStatus {
  kPending,  // registered, not started
  kRunning,  // started and not finished (after a crash: to be resumed)
  kDone,     // finished with an outcome class
  kFailed    // stopped by an Error (environment or misuse), not by a candidate's failure
};

std::string_view to_string(ProblemStatus status);

// The inverse of to_string; throws Error("kernelopt.store") on any other text.
ProblemStatus parse_problem_status(std::string_view text);

struct ProblemRow {
  std::int64_t id = 0;
  std::string name;  // unique within the run, e.g. "level1/19_ReLU"
  std::string path;  // the problem file it was loaded from
  ProblemStatus status = ProblemStatus::kPending;
  std::string outcome_class;  // the report's class ("optimized", "fallback", ...); "" until known
  std::string detail;         // why: the fallback reason or the error message
  std::optional<std::string> started_at;   // UTC ISO 8601; first time it went kRunning
  std::optional<std::string> finished_at;  // UTC ISO 8601; last time it went kDone or kFailed
};

struct CandidateRow {
  std::int64_t id = 0;
  std::int64_t problem_id = 0;
  int segment = 0;          // index of the segment it replaces
  std::string key;          // the proposer's stable name for it (config, rewrite, recipe + params)
  std::string source_path;  // its Triton source in the run directory
  std::string proposer;     // who made it: "config", "rewrite", "recipe", "llm", "user"
  std::string strategy;     // what it tried: "recipe:scan", "config", "fuse"; "" when not told
  nlohmann::json settings;  // its launch settings, {"XBLOCK": 64, "num_warps": 4}; {} when none
  std::string created_at;   // UTC ISO 8601
};

// What add_candidate records about a new candidate.
struct CandidateInfo {
  int segment = 0;          // index of the segment it replaces
  std::string key;          // the proposer's stable name for it, unique within the segment
  std::string source_path;  // its Triton source in the run directory
  std::string proposer;     // who made it: "config", "rewrite", "recipe", "llm", "user"
  std::string strategy;     // what it tried: "recipe:scan", "config", "fuse"; "" when unknown
  // Its launch settings as a JSON object, {"XBLOCK": 64, "num_warps": 4}: with the strategy, what
  // the search learns from and what the cache keeps.
  nlohmann::json settings = nlohmann::json::object();
};

struct GateRow {
  std::int64_t id = 0;
  std::int64_t candidate_id = 0;
  std::string gate;        // e.g. "static", "isolated", "model", "performance"
  std::string status;      // the Outcome status as text, e.g. "ok", "wrong_result"
  std::string detail;      // the reason, shown in the report
  nlohmann::json numbers;  // what the verdict rests on (errors, ratios, resources)
  std::string created_at;  // UTC ISO 8601; of the latest record_gate
};

// A number measured for a problem, or for one of its candidates.
struct Measurement {
  std::int64_t problem_id = 0;
  std::optional<std::int64_t> candidate_id;  // nullopt for the problem's baselines
  std::string name;                          // e.g. "baseline_max_autotune_ms", "speedup"
  double value = 0.0;                        // the summary (usually a median)
  std::string unit;                          // "ms", "x", "GB/s", ...
  std::vector<double> samples;               // the raw samples behind value, if any
};

struct MeasurementRow {
  std::int64_t id = 0;
  Measurement measurement;
  std::string created_at;  // UTC ISO 8601
};

class Store {
 public:
  // Opens RUN_DIR/kernelopt.sqlite, creating it and its schema when absent. Throws
  // Error("kernelopt.store") when run_dir is not a directory, the file is not a store, or its
  // schema version is newer than this build's.
  static Store open(const std::string& run_dir);

  ~Store();

  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;
  Store(Store&&) noexcept;
  Store& operator=(Store&&) noexcept;

  // The database file's path.
  const std::string& path() const { return path_; }

  // Registers a problem (status kPending) or updates the path of the one with this name; returns
  // its id either way.
  std::int64_t upsert_problem(std::string_view name, std::string_view path);

  // Sets status, class and detail. kRunning sets started_at (first time only) and clears
  // finished_at; kDone and kFailed set finished_at. Throws when no problem has this id.
  void set_problem_status(std::int64_t problem_id,
                          ProblemStatus status,
                          std::string_view outcome_class,
                          std::string_view detail);

  std::optional<ProblemRow> problem(std::string_view name) const;

  // All problems, in the order they were first registered.
  std::vector<ProblemRow> problems() const;

  // Adds a candidate and returns its id; when (problem, segment, key) exists, returns the existing
  // id and changes nothing. Throws when the problem does not exist.
  std::int64_t add_candidate(std::int64_t problem_id,
                             int segment,
                             std::string_view key,
                             std::string_view source_path,
                             std::string_view proposer);

  // The same with the candidate's strategy and launch settings; the overload above records
  // strategy "" and settings {}. When (problem, segment, key) exists, returns its id and changes
  // nothing (not even strategy or settings). Throws when the problem does not exist.
  std::int64_t add_candidate(std::int64_t problem_id, const CandidateInfo& info);

  std::optional<CandidateRow> candidate(std::int64_t problem_id,
                                        int segment,
                                        std::string_view key) const;

  // A problem's candidates in the order they were added.
  std::vector<CandidateRow> candidates(std::int64_t problem_id) const;

  // Records a gate's verdict; recording the same gate again replaces the row (keeping its id).
  // Throws when the candidate does not exist.
  void record_gate(std::int64_t candidate_id,
                   std::string_view gate,
                   std::string_view status,
                   std::string_view detail,
                   const nlohmann::json& numbers);

  std::optional<GateRow> gate_result(std::int64_t candidate_id, std::string_view gate) const;

  // A candidate's verdicts in the order the gates were first recorded.
  std::vector<GateRow> gate_results(std::int64_t candidate_id) const;

  // Appends a measurement and returns its id.
  std::int64_t add_measurement(const Measurement& measurement);

  // A problem's measurements (its own and its candidates'), oldest first.
  std::vector<MeasurementRow> measurements(std::int64_t problem_id) const;

  // Runs `body` in one BEGIN IMMEDIATE ... COMMIT: all its writes land together or not at all.
  // An exception from `body` (or from COMMIT) rolls back and propagates. Not reentrant: calling
  // transaction() inside `body` throws Error.
  void transaction(const std::function<void()>& body);

  // SQLite's PRAGMA integrity_check, its rows joined by newlines: "ok" for a sound file.
  std::string integrity_check() const;

 private:
  struct Closer {
    void operator()(sqlite3* db) const noexcept;
  };

  Store(sqlite3* db, std::string path);

  sqlite3* db() const;

  std::unique_ptr<sqlite3, Closer> db_;  // null only in a moved-from Store
  std::string path_;
};

}  // namespace kernelopt::store
