#include "kernelopt/engine/bench_task.hpp"

#include <atomic>
#include <condition_variable>
#include <csignal>
#include <exception>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <unistd.h>

#include <fmt/format.h>

#include "kernelopt/analysis/dispatch.hpp"
#include "kernelopt/core/error.hpp"
#include "kernelopt/engine/bench_document.hpp"
#include "kernelopt/engine/optimize.hpp"
#include "kernelopt/engine/show.hpp"
#include "kernelopt/engine/verify.hpp"
#include "kernelopt/search/roles.hpp"

namespace kernelopt::engine {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

constexpr std::chrono::milliseconds kEnvDeadline{300000};

// Kills a worker's process group when the deadline passes, unless cancelled first (by its
// destructor). The worker's own reader then sees the process die and reports a crash. The
// deadline can be moved (a problem's search gets its own limit once the baseline is measured).
class Watchdog {
 public:
  Watchdog(pid_t group, Clock::time_point deadline)
      : deadline_(deadline), thread_([this, group] { watch(group); }) {}

  ~Watchdog() {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      cancelled_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }

  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;
  Watchdog(Watchdog&&) = delete;
  Watchdog& operator=(Watchdog&&) = delete;

  bool fired() const { return fired_.load(); }

  // A new deadline; no-op once the watchdog fired.
  void move_to(Clock::time_point deadline) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      deadline_ = deadline;
      ++moves_;
    }
    wake_.notify_all();
  }

 private:
  void watch(pid_t group) {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      const int moves = moves_;
      if (wake_.wait_until(lock, deadline_, [&] { return cancelled_ || moves_ != moves; })) {
        if (cancelled_) return;
        continue;  // moved: wait for the new deadline
      }
      break;
    }
    fired_ = true;
    if (group > 1) ::kill(-group, SIGKILL);  // never -1 (everything) or 0 (ourselves)
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  Clock::time_point deadline_;
  int moves_ = 0;
  bool cancelled_ = false;
  std::atomic<bool> fired_{false};
  std::thread thread_;  // last: it starts once the members above exist
};

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The search (optimize) on the worker that measured the baseline. Errors become the result's
// reason: the baseline was measured and stays.
SearchResult search(const BenchProblem& problem,
                    const BenchContext& context,
                    const nlohmann::json& show,
                    worker::Worker& worker,
                    const Watchdog& watchdog,
                    Clock::time_point deadline) {
  VerifyOptions options;
  options.deadline = deadline;
  options.skip = worthless_segments(show);
  options.problem = problem.path;
  options.run_dir =
      (fs::path(context.run_dir) / "search" / fs::path(problem.document_name()).stem()).string();
  options.timeout = context.timeout;
  options.gate_timeout = context.gate_timeout;
  options.thresholds = context.thresholds;
  apply_search_flags(context.flags, options);
  options.baseline = show;
  try {
    return {run_optimize(options, worker, {}), ""};
  } catch (const std::exception& error) {  // kernelopt::Error, or a malformed document
    if (watchdog.fired() || Clock::now() >= deadline) {
      return {nullptr, fmt::format("timed out (--timeout {} s, counted from the search's start)",
                                   context.timeout.count())};
    }
    return {nullptr, error.what()};
  }
}

// The show pipeline on an already started worker, under the watchdog; then the search when the
// run asks for it and the problem is optimizable.
nlohmann::json measure(const BenchProblem& problem,
                       const BenchContext& context,
                       worker::Worker& worker,
                       Clock::time_point start,
                       ProblemCost& cost,
                       std::optional<SearchResult>& searched) {
  worker::Client client = raising_client(worker, problem.path);
  const auto pid = static_cast<pid_t>(client.hello(kEnvDeadline)->pid);
  // --timeout holds the baseline (worker start, load, compile, capture, timing); the search then
  // gets as much again, counted from its own start, so a long compile leaves its budget whole.
  Clock::time_point deadline = start + context.timeout;
  Watchdog watchdog(pid > 1 ? getpgid(pid) : 0, deadline);
  try {
    cost.free_memory_bytes = client.env({}, kEnvDeadline)->free_memory_bytes;
    ShowOptions options;
    options.problem = problem.path;
    options.run_dir =
        (fs::path(context.run_dir) / "capture" / fs::path(problem.document_name()).stem()).string();
    options.iters = context.iters;
    options.timeout = context.timeout;
    options.bandwidth_gbps = context.bandwidth_gbps;
    options.dispatch_aware = !context.flags.no_dispatch_aware;
    options.split_launches = context.flags.split_segments;
    nlohmann::json show = run_show(options, worker, {});
    cost.peak_memory_bytes = client.env({}, kEnvDeadline)->peak_memory_bytes;
    if (context.search) {
      if (show.value("class", "") == analysis::to_string(analysis::ProblemClass::kOptimizable)) {
        cost.baseline_seconds = seconds_since(start);
        const Clock::time_point search_start = Clock::now();
        deadline = search_start + context.timeout;
        watchdog.move_to(deadline);
        worker.set_end(deadline);
        searched = search(problem, context, show, worker, watchdog, deadline);
        cost.search_seconds = seconds_since(search_start);
        if (searched->document.is_object() && searched->document.contains("llm")) {
          cost.llm_tokens = searched->document.at("llm").value("tokens", std::int64_t{0});
        }
      } else {
        searched = SearchResult{nullptr, ""};  // nothing to search: the class says why
      }
    }
    return show;
  } catch (const Error&) {
    if (!watchdog.fired() && Clock::now() < deadline) throw;
    throw Error("kernelopt.timeout",
                fmt::format("{}: timed out: not finished within --timeout {} s; its worker was "
                            "killed",
                            problem.path, context.timeout.count()),
                ExitCode::kProblem);
  }
}

}  // namespace

std::map<int, std::string> worthless_segments(const nlohmann::json& show) {
  std::map<int, std::string> skip;
  if (!show.contains("segments") || !show.at("segments").is_array()) return skip;
  for (const auto& s : show.at("segments")) {
    if (!s.contains("id") || !s.at("id").is_number_integer()) continue;
    const int id = s.at("id").get<int>();
    const double share = s.value("share", 1.0);
    const auto& headroom = s.contains("headroom") ? s.at("headroom") : nlohmann::json();
    if (share < 0.02) {
      skip[id] = fmt::format("{:.1f}% of the GPU time: not worth a search", 100.0 * share);
    } else if (search::at_floor(s)) {
      skip[id] =
          fmt::format("at its floor (headroom {:.2f}x): nothing to gain", headroom.get<double>());
    }
  }
  return skip;
}

nlohmann::json run_problem_on_gpu(const BenchProblem& problem,
                                  const BenchContext& context,
                                  const GpuSlot& gpu) {
  const Clock::time_point start = Clock::now();
  worker::WorkerOptions options = context.worker;
  options.env.push_back("CUDA_VISIBLE_DEVICES=" + gpu.device);
  options.end = start + context.timeout;  // also for a worker a gate starts again
  ProblemCost cost;
  cost.gpu = gpu.index;
  std::optional<Error> failure;
  nlohmann::json show;
  std::optional<SearchResult> searched;
  {
    worker::Worker worker(std::move(options));
    try {
      show = measure(problem, context, worker, start, cost, searched);
    } catch (const Error& error) {
      failure = error;
    }
    worker.kill();
  }
  cost.gpu_seconds = seconds_since(start);
  cost.wall_seconds = cost.gpu_seconds;
  if (failure) return failed_document(problem, failure->tag(), failure->what(), cost);
  if (searched && searched->document.is_null() && searched->error.empty()) {
    nlohmann::json doc = done_document(problem, show, cost);  // not optimizable: its class says
    doc["search"] = "not run: the problem is not optimizable";
    return doc;
  }
  return done_document(problem, show, cost, searched);
}

nlohmann::json check_problem_without_gpu(const BenchProblem& problem, const BenchContext& context) {
  const Clock::time_point start = Clock::now();
  ProblemCost cost;
  std::optional<Error> failure;
  {
    worker::Worker worker(context.worker);
    try {
      handshake(worker);
      raising_client(worker, problem.path)
          .load({fs::absolute(problem.path).string(), problem.path, "cpu", false}, context.timeout);
    } catch (const Error& error) {
      failure = error;
    }
  }
  cost.wall_seconds = seconds_since(start);
  if (failure) return failed_document(problem, failure->tag(), failure->what(), cost);
  return failed_document(problem, "kernelopt.nogpu",
                         fmt::format("{}: loads and validates, but measuring it needs an NVIDIA "
                                     "GPU and none is visible here",
                                     problem.path),
                         cost);
}

}  // namespace kernelopt::engine
