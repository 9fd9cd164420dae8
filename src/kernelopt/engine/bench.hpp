// `kernelopt bench` and `kernelopt report`. bench runs many KernelBench problems, each in its own
// fresh worker under a time limit, one worker per visible GPU at a time, and writes one document
// per problem (RUN_DIR/problems/) and summary.json. The SQLite store in RUN_DIR marks every
// problem pending, running, done or failed: running the same command again skips the done ones
// and redoes the rest: first those that never started, then a problem left running by a killed
// run, then the failed ones. This is the
// baseline-only pipeline: no search runs, so every returned module is the compiled baseline.
// report renders a run's summary as report.md and report.html, or compares runs.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernelopt/engine/bench_task.hpp"
#include "kernelopt/engine/optimize.hpp"

namespace kernelopt::engine {

struct BenchCommand {
  std::string kernelbench_dir;         // holds levelN/ or KernelBench/levelN/
  int level = 1;                       // the KernelBench level
  std::string problems = "all";        // the SPEC (bench_spec.hpp)
  std::string run_dir;                 // created when absent; reused to resume
  std::chrono::seconds timeout{1800};  // limit of a baseline, and of a search from its start
  int iters = 30;                      // timed calls per measurement
  bool quiet = false;                  // one log line per problem instead of the bar
  // --search: after the baseline, `optimize` (the offline recipe search and the gates) runs on
  // every problem the dispatch map calls optimizable, in the same worker and time limit. A run
  // directory keeps the mode it was created with (bench_mode.json); the other mode is refused.
  bool search = false;
  std::chrono::seconds gate_timeout{120};  // each gate request's deadline in the search
  int samples = 30;                        // G4 samples per side in the search
  // The search's settings and ablations (the paper's section 6.4; with --no-perf-gate G4 still
  // measures every candidate but rejects none, so slower replacements enter and count at their
  // ratio). They need --search and are part of the run's mode.
  SearchFlags flags;
  // Where the problems run: "thread" (one thread and worker per GPU of this machine) or "ray"
  // (one Ray task per problem on the cluster at ray_address; "" is Ray's default).
  std::string executor = "thread";
  std::string ray_address;
};

// What every problem of the run shares, from the command: the workers' options (the run's own
// Inductor cache), limits and the search's thresholds (G4 rejects nothing with --no-perf-gate).
// The copy bandwidth is measured later, once the run starts.
BenchContext bench_context(const BenchCommand& command);

// Runs the problems and writes their documents and summary.json; prints Table 1 on stdout.
// Returns 0 when every problem finished, 1 when some failed (one line on stderr says how many).
// Without a GPU every problem is still loaded and validated, recorded as failed, and the command
// throws Error("kernelopt.nogpu", exit 4) at the end.
int bench_command(const BenchCommand& command);

struct ReportCommand {
  std::vector<std::string> run_dirs;  // one run; several with compare
  bool compare = false;               // side-by-side Markdown of several runs on stdout
  std::string output;                 // with compare: also write the Markdown here
};

// One run: writes RUN_DIR/summary.json, report.md and report.html. With compare: prints the
// comparison (and writes it to `output`). Returns 0; throws Error for a directory that is no run.
int report_command(const ReportCommand& command);

// The documents of RUN_DIR/problems/*.json in file-name order. Throws Error("kernelopt.input",
// exit 2) when there is no problems/ folder, it holds no document, or a file is not one.
std::vector<nlohmann::json> load_documents(const std::string& run_dir);

// Summarizes RUN_DIR's documents and writes RUN_DIR/summary.json; returns the summary. With
// RUN_DIR/bench_runs.json, "runs" gives the bench runs' count and their wall seconds added up.
nlohmann::json write_summary(const std::string& run_dir);

// Appends one bench run that reached its end (its executor, the problems it ran, its wall
// seconds) to RUN_DIR/bench_runs.json.
void record_run(const std::string& run_dir,
                const std::string& executor,
                std::size_t problems,
                double wall_seconds);

}  // namespace kernelopt::engine
