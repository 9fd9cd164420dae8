// The bench driver. Plan (register the selected problems in the store, skip the done ones), probe
// the environment once (GPUs, copy bandwidth), run the rest with one thread per GPU, each problem
// in a fresh worker, or as Ray tasks on a cluster (--executor ray), record each document and its
// store row together, then summarize.
#include "kernelopt/engine/bench.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "kernelopt/core/error.hpp"
#include "kernelopt/engine/ask.hpp"
#include "kernelopt/engine/bench_progress.hpp"
#include "kernelopt/engine/bench_ray.hpp"
#include "kernelopt/engine/bench_task.hpp"
#include "kernelopt/engine/doctor.hpp"
#include "kernelopt/engine/files.hpp"
#include "kernelopt/engine/show.hpp"
#include "kernelopt/gate/gate.hpp"
#include "kernelopt/report/report.hpp"
#include "kernelopt/report/tables.hpp"
#include "kernelopt/store/store.hpp"

namespace kernelopt::engine {

namespace fs = std::filesystem;

namespace {

constexpr std::chrono::milliseconds kEnvDeadline{300000};

struct Planned {
  BenchProblem problem;
  std::int64_t id = 0;  // the store's row
};

// GPUs visible to torch (0 without CUDA) and the copy bandwidth measured on the first.
struct RunEnvironment {
  int gpus = 0;
  double bandwidth_gbps = 0;
};

RunEnvironment probe(const worker::WorkerOptions& options) {
  worker::Worker worker(options);
  handshake(worker);
  const worker::Environment env = *raising_client(worker, "the worker").env({}, kEnvDeadline);
  RunEnvironment out;
  if (!env.cuda_available) return out;
  out.gpus = std::max(1, env.gpu_count);
  out.bandwidth_gbps = copy_bandwidth_gbps(worker);
  return out;
}

// One slot per GPU: the parent's CUDA_VISIBLE_DEVICES entries when it names enough, else 0..n-1.
std::vector<GpuSlot> gpu_slots(int count) {
  std::vector<std::string> visible;
  if (const char* env = std::getenv("CUDA_VISIBLE_DEVICES"); env != nullptr) {
    std::string item;
    for (const char* c = env;; ++c) {
      if (*c == ',' || *c == '\0') {
        if (!item.empty()) visible.push_back(item);
        item.clear();
        if (*c == '\0') break;
      } else {
        item += *c;
      }
    }
  }
  std::vector<GpuSlot> slots;
  for (int i = 0; i < count; ++i) {
    const bool named = static_cast<int>(visible.size()) >= count;
    slots.push_back({i, named ? visible[static_cast<std::size_t>(i)] : std::to_string(i)});
  }
  return slots;
}

std::vector<store::Measurement> measurements(const nlohmann::json& doc, std::int64_t problem_id) {
  std::vector<store::Measurement> out;
  auto add = [&](const nlohmann::json& object, const char* key, const std::string& name,
                 const char* unit) {
    if (object.is_object() && object.contains(key) && object.at(key).is_number()) {
      out.push_back({problem_id, std::nullopt, name, object.at(key).get<double>(), unit, {}});
    }
  };
  const nlohmann::json& show = doc.at("show");
  add(show, "replay_ms", "baseline_replay_ms", "ms");
  add(show, "cudagraphs_ms", "baseline_cudagraphs_ms", "ms");
  add(show, "compiled_ms", "baseline_compiled_ms", "ms");
  add(show, "eager_ms", "eager_ms", "ms");
  const nlohmann::json& cost = doc.at("cost");
  add(cost, "gpu_seconds", "gpu_seconds", "s");
  add(cost, "wall_seconds", "wall_seconds", "s");
  add(cost, "llm_tokens", "llm_tokens", "tokens");
  add(cost, "free_memory_bytes", "free_memory_bytes", "B");
  add(cost, "peak_memory_bytes", "peak_memory_bytes", "B");
  return out;
}

// Writes the document, then its store row in one transaction: a run killed in between leaves the
// problem `running`, and it is redone.
void record(store::Store& store,
            const Planned& planned,
            const nlohmann::json& doc,
            const fs::path& run_dir) {
  write_file(run_dir / "problems" / planned.problem.document_name(), doc.dump(1) + "\n");
  const nlohmann::json& outcome = doc.at("outcome");
  const bool done = doc.at("status") == "done";
  const std::string detail = done ? outcome.value("reason", "").empty()
                                        ? outcome.value("note", "")
                                        : outcome.value("reason", "")
                                  : doc.at("error").value("message", "");
  store.transaction([&] {
    for (const auto& m : measurements(doc, planned.id)) {
      store.add_measurement(m);
    }
    store.set_problem_status(planned.id,
                             done ? store::ProblemStatus::kDone : store::ProblemStatus::kFailed,
                             outcome.value("class", ""), detail);
  });
}

using Task = std::function<nlohmann::json(const BenchProblem&, std::size_t slot)>;

// Runs `todo` on `slots` threads, each taking the next problem when it is free. Returns the failed
// problems per failure reason. An exception other than a problem's failure (the store, the disk)
// stops the run and is rethrown here.
std::map<std::string, int> run_all(const std::vector<Planned>& todo,
                                   std::size_t slots,
                                   const Task& task,
                                   store::Store& store,
                                   BenchProgress& progress,
                                   const fs::path& run_dir) {
  std::mutex mutex;
  std::size_t next = 0;
  std::map<std::string, int> failed;
  std::exception_ptr error;
  auto loop = [&](std::size_t slot) {
    try {
      while (true) {
        const Planned* planned = nullptr;
        {
          const std::lock_guard<std::mutex> lock(mutex);
          if (next >= todo.size() || error) return;
          planned = &todo[next++];
          store.set_problem_status(planned->id, store::ProblemStatus::kRunning, "", "");
        }
        progress.started();
        const nlohmann::json doc = task(planned->problem, slot);
        const std::lock_guard<std::mutex> lock(mutex);
        record(store, *planned, doc, run_dir);
        if (doc.at("status") != "done") ++failed[doc.at("outcome").value("reason", "")];
        progress.finished(planned->problem.key(), doc);
      }
    } catch (const std::exception&) {
      const std::lock_guard<std::mutex> lock(mutex);
      if (!error) error = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t slot = 0; slot < slots; ++slot) {
    threads.emplace_back(loop, slot);
  }
  for (auto& thread : threads) {
    thread.join();
  }
  progress.close();
  if (error) std::rethrow_exception(error);
  return failed;
}

// The thread executor: probe this machine once (GPUs, copy bandwidth), then one thread and a
// fresh worker a problem per GPU; without a GPU one thread loads and validates each problem.
std::map<std::string, int> run_here(const std::vector<Planned>& todo,
                                    const BenchCommand& command,
                                    std::size_t skipped,
                                    store::Store& store,
                                    bool& no_gpu) {
  BenchContext context = bench_context(command);
  const RunEnvironment env = probe(context.worker);
  context.bandwidth_gbps = env.bandwidth_gbps;
  no_gpu = env.gpus == 0;
  BenchProgress progress(todo.size(), skipped, command.quiet);
  if (no_gpu) {
    const Task task = [&](const BenchProblem& p, std::size_t) {
      return check_problem_without_gpu(p, context);
    };
    return run_all(todo, 1, task, store, progress, command.run_dir);
  }
  const std::vector<GpuSlot> slots = gpu_slots(env.gpus);
  const Task task = [&](const BenchProblem& p, std::size_t slot) {
    return run_problem_on_gpu(p, context, slots[slot]);
  };
  return run_all(todo, slots.size(), task, store, progress, command.run_dir);
}

// --executor ray: every problem still to do is marked running and becomes a Ray task at once;
// each finished one is recorded as run_all records it. `gpus` (the cluster's) is how many the
// progress shows running.
std::map<std::string, int> run_on_ray(const std::vector<Planned>& todo,
                                      RayDriver& driver,
                                      const BenchCommand& command,
                                      std::size_t gpus,
                                      store::Store& store,
                                      BenchProgress& progress) {
  std::map<std::string, const Planned*> by_key;
  std::vector<BenchProblem> problems;
  for (const Planned& planned : todo) {
    by_key[planned.problem.key()] = &planned;
    problems.push_back(planned.problem);
    store.set_problem_status(planned.id, store::ProblemStatus::kRunning, "", "");
  }
  const std::size_t busy = std::min(std::max<std::size_t>(gpus, 1), todo.size());
  for (std::size_t i = 0; i < busy; ++i) {
    progress.started();
  }
  std::map<std::string, int> failed;
  std::size_t done = 0;
  driver.run(problems, command, gpus > 0, [&](const BenchProblem& problem, nlohmann::json doc) {
    const Planned& planned = *by_key.at(problem.key());
    record(store, planned, doc, command.run_dir);
    if (doc.at("status") != "done") ++failed[doc.at("outcome").value("reason", "")];
    progress.finished(problem.key(), doc);
    if (++done + busy <= todo.size()) progress.started();
  });
  progress.close();
  return failed;
}

// The problems still to run, in this order: never started (pending), then those a killed run
// left running, then the failed ones; each group in the selection's order. A problem that failed
// (a compile that overran its limit, say) is retried only after every problem that has not had
// its turn yet, so that a resumed run under a time limit does not spend it on the same failure.
std::vector<Planned> plan(store::Store& store,
                          const std::vector<BenchProblem>& problems,
                          const fs::path& run_dir,
                          std::size_t& skipped) {
  std::vector<Planned> fresh;
  std::vector<Planned> interrupted;
  std::vector<Planned> failed;
  for (const BenchProblem& problem : problems) {
    const std::int64_t id = store.upsert_problem(problem.key(), problem.path);
    const auto row = store.problem(problem.key());
    const store::ProblemStatus status = row ? row->status : store::ProblemStatus::kPending;
    const bool documented = fs::exists(run_dir / "problems" / problem.document_name());
    if (status == store::ProblemStatus::kDone && documented) {
      ++skipped;
      continue;
    }
    if (status == store::ProblemStatus::kFailed && documented) {
      failed.push_back({problem, id});
    } else if (status == store::ProblemStatus::kPending) {
      fresh.push_back({problem, id});
    } else {
      interrupted.push_back({problem, id});  // running, or done/failed without its document
    }
  }
  fresh.insert(fresh.end(), interrupted.begin(), interrupted.end());
  fresh.insert(fresh.end(), failed.begin(), failed.end());
  return fresh;
}

// A run directory holds one kind of run: baseline-only or searched, with or without the
// performance gate. Its mode is written on the first run (bench_mode.json) and a rerun in another
// mode is refused, so that a resumed run never mixes kinds in one summary.
std::string mode_text(const nlohmann::json& mode) {
  if (!mode.value("search", false)) return "baseline-only";
  // "perf_gate": false is how runs before "flags" wrote --no-perf-gate.
  std::string flags = mode.value("flags", mode.value("perf_gate", true) ? "" : "--no-perf-gate");
  return flags.empty() ? "--search" : "--search " + flags;
}

void check_mode(const fs::path& run_dir, const nlohmann::json& wanted) {
  const fs::path file = run_dir / "bench_mode.json";
  nlohmann::json held;
  if (fs::exists(file)) {
    held = nlohmann::json::parse(read_file(file), nullptr, false);
    if (held.is_discarded() || !held.is_object() || !held.contains("search")) {
      throw Error("kernelopt.input", fmt::format("{}: not a bench mode file", file.string()),
                  ExitCode::kUsage);
    }
  } else if (!fs::is_empty(run_dir / "problems")) {
    held = {{"search", false}, {"perf_gate", true}};  // a run from before the mode file
  }
  if (!held.is_null()) {
    if (mode_text(held) != mode_text(wanted)) {
      throw Error("kernelopt.usage",
                  fmt::format("bench: {} holds a {} run; rerun it that way, or use another run "
                              "directory for {}",
                              run_dir.string(), mode_text(held), mode_text(wanted)),
                  ExitCode::kUsage);
    }
    if (fs::exists(file)) return;
  }
  write_file(file, wanted.dump() + "\n");
}

}  // namespace

BenchContext bench_context(const BenchCommand& command) {
  BenchContext context;
  context.worker = pinned_options(command.run_dir);
  context.run_dir = command.run_dir;
  context.timeout = command.timeout;
  context.iters = command.iters;
  context.search = command.search;
  context.gate_timeout = command.gate_timeout;
  context.thresholds.samples = command.samples;
  if (command.flags.no_perf_gate) context.thresholds.min_ratio = 0.0;
  context.flags = command.flags;
  return context;
}

int bench_command(const BenchCommand& command) {
  const auto start = std::chrono::steady_clock::now();
  const ProblemSpec spec = parse_problem_spec(command.problems);
  const std::vector<BenchProblem> problems =
      find_problems(command.kernelbench_dir, command.level, spec);
  const fs::path run_dir = command.run_dir;
  const std::string flags = search_flags_text(command.flags);
  if (!flags.empty() && !command.search) {
    throw Error("kernelopt.usage", fmt::format("bench: {} set(s) the search: add --search", flags),
                ExitCode::kUsage);
  }
  if (!command.ray_address.empty() && command.executor != "ray") {
    throw Error("kernelopt.usage", "bench: --ray-address needs --executor ray", ExitCode::kUsage);
  }
  // Ray is checked before the run folder is touched: without it the flag is a one-line error.
  std::optional<RayDriver> ray;
  if (command.executor == "ray") ray.emplace();
  fs::create_directories(run_dir / "problems");
  check_mode(
      run_dir,
      {{"search", command.search}, {"perf_gate", !command.flags.no_perf_gate}, {"flags", flags}});
  store::Store store = store::Store::open(run_dir.string());
  std::size_t skipped = 0;
  const std::vector<Planned> todo = plan(store, problems, run_dir, skipped);
  std::map<std::string, int> failures;
  bool no_gpu = false;
  if (!todo.empty()) {
    if (ray) {
      const std::vector<RayNode> nodes = ray->connect(command.ray_address);
      int gpus = 0;
      for (const RayNode& node : nodes) {
        gpus += node.gpus;
      }
      no_gpu = gpus == 0;
      std::fprintf(stderr, "bench: Ray cluster: %s\n", describe_cluster(nodes).c_str());
      BenchProgress progress(todo.size(), skipped, command.quiet);
      failures = run_on_ray(todo, *ray, command, static_cast<std::size_t>(gpus), store, progress);
    } else {
      failures = run_here(todo, command, skipped, store, no_gpu);
    }
    record_run(command.run_dir, command.executor, todo.size(),
               std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  } else {
    std::fprintf(stderr, "bench: all %zu selected problems are already done in %s\n", skipped,
                 run_dir.c_str());
  }
  const nlohmann::json summary = write_summary(run_dir.string());
  const report::Table table = report::table1(summary);
  std::fputs(report::markdown_table(table.header, table.rows).c_str(), stdout);
  std::printf("\nwrote %s; `kernelopt report %s` renders report.md and report.html\n",
              (run_dir / "summary.json").c_str(), run_dir.c_str());
  std::fflush(stdout);
  int failed = 0;
  for (const auto& [reason, n] : failures) {
    failed += n;
  }
  if (no_gpu) {
    const int loaded = failures["needs an NVIDIA GPU"];
    throw Error("kernelopt.nogpu",
                fmt::format("bench: no NVIDIA GPU {}: {} of {} problems loaded and validated, "
                            "none measured; all are recorded as failed in {} (see `kernelopt "
                            "doctor`)",
                            ray ? "in the Ray cluster" : "here", loaded, todo.size(),
                            (run_dir / "summary.json").string()),
                ExitCode::kNoGpu);
  }
  if (failed > 0) {
    std::fprintf(stderr, "kernelopt: bench: %d of %zu problems failed; see %s\n", failed,
                 todo.size(), (run_dir / "summary.json").c_str());
    return static_cast<int>(ExitCode::kFailure);
  }
  return 0;
}

}  // namespace kernelopt::engine
