// The show pipeline. The worker compiles and measures; everything that decides (parsing the
// output code, where the marks go, segments, floors, the class) happens here in C++.
#include "kernelopt/engine/show.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>
#include <unistd.h>

#include <fmt/format.h>

#include "kernelopt/analysis/dispatch.hpp"
#include "kernelopt/bench/stats.hpp"
#include "kernelopt/core/error.hpp"
#include "kernelopt/engine/ask.hpp"
#include "kernelopt/engine/doctor.hpp"
#include "kernelopt/engine/files.hpp"
#include "kernelopt/gate/gate.hpp"
#include "kernelopt/recompose/instrument.hpp"

namespace kernelopt::engine {

namespace fs = std::filesystem;
using std::chrono::milliseconds;

namespace {

constexpr milliseconds kShortDeadline{120000};

// A temporary run directory removed when the show ends, unless the user named one.
class RunDir {
 public:
  explicit RunDir(const std::string& requested) {
    if (!requested.empty()) {
      path_ = requested;
      fs::create_directories(path_);
      return;
    }
    std::string pattern = (fs::temp_directory_path() / "kernelopt-show-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) {
      throw Error("kernelopt.io", "cannot create a temporary directory");
    }
    path_ = pattern;
    owned_ = true;
  }

  ~RunDir() {
    std::error_code ignored;
    if (owned_) fs::remove_all(path_, ignored);
  }

  RunDir(const RunDir&) = delete;
  RunDir& operator=(const RunDir&) = delete;
  RunDir(RunDir&&) = delete;
  RunDir& operator=(RunDir&&) = delete;

  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
  bool owned_ = false;
};

std::optional<analysis::TensorInfo> tensor_info(const worker::TensorDescription& arg) {
  if (!arg.is_tensor) return std::nullopt;
  analysis::TensorInfo info;
  info.shape = arg.shape;
  info.stride = arg.stride;
  info.dtype = arg.dtype;
  return info;
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  std::array<char, 32> text{};
  std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text.data();
}

std::optional<int> level_of(const fs::path& problem) {
  const std::string dir = problem.parent_path().filename().string();
  if (dir.rfind("level", 0) == 0 && dir.size() > 5) return std::atoi(dir.c_str() + 5);
  return std::nullopt;
}

}  // namespace

nlohmann::json time_variant(worker::Worker& worker,
                            const std::string& variant,
                            const std::string& mode,
                            const ShowOptions& options,
                            const std::string& subject) {
  worker::Client client = raising_client(worker, subject);
  nlohmann::json timed = variant == "replay"
                             ? *client.time_replay(options.iters, options.timeout)
                             : *client.time_model({variant, mode, options.iters}, options.timeout);
  timed.erase("samples_ms");
  return timed;
}

namespace {

// Times each launch of `graph`; with `name_kernels`, also names the kernels each one ran (one
// more call, under the profiler: what show reports, not what the search's profile needs).
analysis::GraphRun timed_graph(worker::Client& client,
                               const worker::CapturedGraph& graph,
                               const ShowOptions& options,
                               bool name_kernels) {
  const fs::path path = graph.path;
  const std::string text = read_file(path);
  analysis::GraphRun run = parse_graph(graph, text);
  const recompose::Instrumented timed = recompose::instrument_launches(text, run.code);
  if (timed.marks == 0) return run;
  fs::path timed_path = path;
  timed_path.replace_extension(".timed.py");
  write_file(timed_path, timed.text);
  const worker::LaunchTimes times = *client.time_launches(
      {graph.index, timed_path.string(), timed.marks, options.iters, name_kernels},
      options.timeout);
  for (const auto& interval : times.intervals) {
    run.launch_ms.push_back(interval.median_ms);
  }
  for (const auto& launch : times.kernels) {
    std::vector<analysis::RanKernel> ran;
    ran.reserve(launch.size());
    for (const auto& k : launch) {
      ran.push_back({k.name, k.ms});
    }
    run.launch_kernels.push_back(std::move(ran));
  }
  return run;
}

}  // namespace

analysis::GraphRun time_graph(worker::Worker& worker,
                              const nlohmann::json& graph,
                              const ShowOptions& options,
                              const std::string& subject) {
  worker::Client client = raising_client(worker, subject);
  return timed_graph(client, worker::read_captured_graph(graph), options, false);
}

analysis::GraphRun parse_graph(const worker::CapturedGraph& graph, const std::string& text) {
  analysis::GraphRun run;
  run.code = inductor::parse_output_code(text);
  if (graph.kernel_configs.is_object()) {
    for (auto& kernel : run.code.kernels) {
      if (graph.kernel_configs.contains(kernel.name)) {
        kernel.autotuned = graph.kernel_configs.at(kernel.name);
      }
    }
  }
  run.calls = std::max(1, graph.calls);
  for (const auto& arg : graph.args) {
    run.args.push_back(tensor_info(arg));
  }
  return run;
}

analysis::GraphRun parse_graph(const nlohmann::json& graph, const std::string& text) {
  return parse_graph(worker::read_captured_graph(graph), text);
}

void handshake(worker::Worker& worker) {
  const worker::Hello hello = *raising_client(worker, "the worker").hello(kShortDeadline);
  if (hello.protocol != worker::kProtocolVersion) {
    throw Error("kernelopt.env",
                fmt::format("the worker speaks protocol {}, this engine {}", hello.protocol,
                            worker::kProtocolVersion),
                ExitCode::kEnvironment);
  }
}

worker::Client raising_client(worker::Worker& worker, const std::string& subject) {
  return worker::Client([&worker, subject](const nlohmann::json& request, milliseconds deadline) {
    worker::Reply reply;
    reply.response = ask(worker, request, deadline, subject);
    return reply;
  });
}

namespace {

// What one knob saves: the compiled graphs replayed under its settings against the same graphs
// under the libraries' defaults, interleaved, judged as G4 judges a ratio (docs/vendor.md).
nlohmann::json time_knob(worker::Worker& worker,
                         const worker::Captured& captured,
                         const std::string& knob,
                         const ShowOptions& options) {
  worker::RecomposedGraphs graphs;
  for (const auto& graph : captured.graphs) {
    graphs[graph.index] = fs::absolute(graph.path).string();
  }
  const worker::PairTiming timed =
      *raising_client(worker, options.problem)
           .time_pair({graphs, options.iters, 5, {knob}, std::nullopt}, options.timeout);
  const Outcome perf = gate::judge_performance(timed, gate::Thresholds{});
  if (perf.status == Status::kRaised) return {{"error", perf.detail}};
  const double defaults_ms = bench::median(timed.baseline_ms);
  const double knob_ms = bench::median(timed.candidate_ms);
  return {{"ratio", perf.numbers.at("ratio")},
          {"ratio_low", perf.numbers.at("ratio_low")},
          {"ratio_high", perf.numbers.at("ratio_high")},
          {"speed_class", perf.numbers.value("speed_class", "")},
          {"defaults_ms", defaults_ms},
          {"knob_ms", knob_ms},
          {"saved_ms", defaults_ms - knob_ms},
          {"samples", timed.baseline_ms.size()}};
}

// Which vendor knobs apply to a model that makes vendor calls (docs/vendor.md), or null where it
// makes none; with `time_knobs`, what each that runs around the compiled graphs saves. An error of
// the worker's is recorded, not raised: the rest of show stands.
nlohmann::json vendor_knobs(worker::Worker& worker,
                            const analysis::DispatchMap& map,
                            const worker::Captured& captured,
                            const ShowOptions& options,
                            const Progress& progress) {
  const std::string& subject = options.problem;
  const bool vendor_calls = std::any_of(
      map.launches.begin(), map.launches.end(),
      [](const analysis::Launch& l) { return l.kind == analysis::LaunchKind::kExtern; });
  if (!vendor_calls) return nullptr;
  nlohmann::json knobs;
  try {
    knobs = ask(worker, {{"op", "vendor_knobs"}}, options.timeout, subject);
  } catch (const Error& e) {
    return {{"error", e.what()}};
  }
  knobs.erase("ok");
  knobs.erase("id");
  if (options.time_knobs) time_knobs(worker, captured, knobs, options, progress);
  return knobs;
}

}  // namespace

void time_knobs(worker::Worker& worker,
                const worker::Captured& captured,
                nlohmann::json& knobs,
                const ShowOptions& options,
                const Progress& progress) {
  if (!knobs.contains("knobs") || !knobs["knobs"].is_array()) return;
  for (auto& knob : knobs["knobs"]) {
    if (!knob.value("applies", false) || !knob.value("around_graphs", false)) continue;
    const std::string name = knob.value("name", "");
    if (progress) progress(fmt::format("timing the vendor knob {} against the defaults", name));
    try {
      knob["measured"] = time_knob(worker, captured, name, options);
    } catch (const Error& e) {
      knob["measured"] = {{"error", e.what()}};
    }
  }
}

nlohmann::json run_show(const ShowOptions& options,
                        worker::Worker& worker,
                        const Progress& progress) {
  auto say = [&](const std::string& line) {
    if (progress) progress(line);
  };
  const std::string subject = options.problem;
  if (!fs::is_regular_file(options.problem)) {
    throw Error("kernelopt.problem", fmt::format("{}: no such file", subject), ExitCode::kProblem);
  }
  handshake(worker);
  const worker::Environment env = require_gpu(worker, "kernelopt show");
  const double bandwidth =
      options.bandwidth_gbps > 0 ? options.bandwidth_gbps : copy_bandwidth_gbps(worker);
  RunDir run_dir(options.run_dir);
  worker::Client client = raising_client(worker, subject);
  say(fmt::format("loading {}", subject));
  const worker::Loaded loaded = *client.load(
      {fs::absolute(options.problem).string(), options.problem, "cuda"}, options.timeout);
  say("compiling with torch.compile(mode=\"max-autotune-no-cudagraphs\")");
  std::vector<int> seeds(static_cast<std::size_t>(std::max(options.seeds, 0)));
  std::iota(seeds.begin(), seeds.end(), 0);
  const worker::Captured captured =
      *client.capture({run_dir.path().string(), seeds, options.references}, options.timeout);
  std::vector<analysis::GraphRun> graphs;
  for (const auto& graph : captured.graphs) {
    say(fmt::format("timing the launches of graph {}", graph.index));
    graphs.push_back(timed_graph(client, graph, options, true));
  }
  say("timing the whole model: eager, compiled, CUDA graphs");
  nlohmann::json times;
  times["compiled"] = time_variant(worker, "compiled", "synced", options, subject);
  times["compiled_gpu"] = time_variant(worker, "compiled", "queued", options, subject);
  times["eager"] = time_variant(worker, "eager", "synced", options, subject);
  times["replay"] = time_variant(worker, "replay", "synced", options, subject);
  times["cudagraphs"] = time_variant(worker, "cudagraphs", "synced", options, subject);
  analysis::AnalysisOptions analysis_options;
  analysis_options.bandwidth_gbps = bandwidth;
  analysis_options.fp32_gflops = env.fp32_gflops;
  analysis_options.dispatch_aware = options.dispatch_aware;
  analysis_options.split_launches = options.split_launches;
  analysis_options.outside_ms = analysis::outside_graphs_ms(
      times["replay"].value("median_ms", 0.0), times["compiled_gpu"].value("median_ms", 0.0));
  const analysis::DispatchMap map = analysis::build_dispatch_map(graphs, analysis_options);
  nlohmann::json doc =
      assemble_show(options, env.document, loaded.document, captured.document, times, graphs, map,
                    bandwidth, level_of(options.problem), utc_now());
  doc["vendor_knobs"] = vendor_knobs(worker, map, captured, options, progress);
  return doc;
}

}  // namespace kernelopt::engine
