#include <filesystem>

#include "kernelopt/engine/show.hpp"

namespace kernelopt::engine {

namespace {

nlohmann::json ms_of(const nlohmann::json& times, const char* key) {
  if (!times.contains(key) || !times.at(key).contains("median_ms")) return nullptr;  // unavailable
  return times.at(key).value("median_ms", 0.0);
}

nlohmann::json environment(const nlohmann::json& env) {
  nlohmann::json out;
  for (const char* key : {"gpu", "driver", "compute_capability", "torch", "triton", "python",
                          "cuda_runtime", "fp32_gflops", "vendor_config"}) {
    out[key] = env.contains(key) ? env.at(key) : nlohmann::json(nullptr);
  }
  return out;
}

nlohmann::json graph_summary(const std::vector<analysis::GraphRun>& graphs) {
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t i = 0; i < graphs.size(); ++i) {
    int launches = 0;
    int triton = 0;
    for (const auto& step : graphs[i].code.steps) {
      launches += inductor::is_launch(step.kind) ? 1 : 0;
      triton += step.kind == inductor::StepKind::kTritonLaunch ? 1 : 0;
    }
    out.push_back({{"index", i},
                   {"calls", graphs[i].calls},
                   {"kernels", graphs[i].code.kernels.size()},
                   {"launches", launches},
                   {"triton_launches", triton}});
  }
  return out;
}

}  // namespace

nlohmann::json assemble_show(const ShowOptions& options,
                             const nlohmann::json& env,
                             const nlohmann::json& loaded,
                             const nlohmann::json& captured,
                             const nlohmann::json& times,
                             const std::vector<analysis::GraphRun>& graphs,
                             const analysis::DispatchMap& map,
                             double bandwidth_gbps,
                             std::optional<int> level,
                             const std::string& date) {
  nlohmann::json doc;
  doc["schema"] = "kernelopt.show/1";
  doc["problem"] = std::filesystem::path(options.problem).stem().string();
  doc["level"] = level ? nlohmann::json(*level) : nlohmann::json(nullptr);
  doc["date"] = date;
  doc["environment"] = environment(env);
  doc["bandwidth_gbps"] = bandwidth_gbps;
  doc["inputs"] = loaded.value("inputs", nlohmann::json::array());
  doc["outputs"] = loaded.value("outputs", nlohmann::json::array());
  doc["eager_ms"] = ms_of(times, "eager");
  doc["compiled_ms"] = ms_of(times, "compiled");
  doc["compiled_gpu_ms"] = ms_of(times, "compiled_gpu");
  doc["cudagraphs_ms"] = ms_of(times, "cudagraphs");
  doc["replay_ms"] = ms_of(times, "replay");
  doc["compile_s"] = captured.value("compile_s", 0.0);
  doc["cudagraphs_compile_s"] =
      times.contains("cudagraphs") ? times.at("cudagraphs").value("compile_s", 0.0) : 0.0;
  const double gpu_ms =
      times.contains("compiled_gpu") ? times.at("compiled_gpu").value("median_ms", 0.0) : 0.0;
  doc["launch_sum_over_gpu"] = gpu_ms > 0 ? map.total_ms / gpu_ms : 0.0;
  doc["accuracy"] = captured.value("seeds", nlohmann::json::array());
  doc["graphs"] = graph_summary(graphs);
  doc["timings"] = times;
  doc["iters"] = options.iters;
  doc.update(analysis::to_json(map));
  return doc;
}

}  // namespace kernelopt::engine
