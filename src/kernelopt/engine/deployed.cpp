#include "kernelopt/engine/deployed.hpp"

#include <filesystem>

#include "kernelopt/bench/stats.hpp"
#include "kernelopt/core/error.hpp"
#include "kernelopt/engine/ask.hpp"
#include "kernelopt/gate/gate.hpp"
#include "kernelopt/worker/replies.hpp"

namespace fs = std::filesystem;

namespace kernelopt::engine {

namespace {

// max-autotune's samples against `side`'s, read as a `time_pair` reply and judged as G4 judges a
// ratio: one capture a side, sample j of each taken in the same turn (paired).
nlohmann::json judged(const nlohmann::json& reply, const std::string& side) {
  const nlohmann::json base = reply.value("baseline_ms", nlohmann::json::array());
  const nlohmann::json other = reply.value(side + "_ms", nlohmann::json::array());
  const worker::PairTiming timing =
      worker::read_pair_timing({{"baseline_ms", base},
                                {"candidate_ms", other},
                                {"baseline_instance_ms", nlohmann::json::array({base})},
                                {"candidate_instance_ms", nlohmann::json::array({other})}});
  const Outcome perf = gate::judge_performance(timing, gate::Thresholds{});
  if (perf.status == Status::kRaised) return {{"error", perf.detail}};
  return {{"ratio", perf.numbers.at("ratio")},
          {"ratio_low", perf.numbers.at("ratio_low")},
          {"ratio_high", perf.numbers.at("ratio_high")},
          {"speed_class", perf.numbers.value("speed_class", "")},
          {"baseline_ms", bench::median(timing.baseline_ms)},
          {"module_ms", bench::median(timing.candidate_ms)},
          {"samples", timing.candidate_ms.size()}};
}

}  // namespace

nlohmann::json measure_deployed(worker::Worker& worker,
                                const std::string& optimized_dir,
                                int iters,
                                std::chrono::seconds timeout,
                                const std::string& subject) {
  worker.kill();  // the next request starts a fresh process, as a user's own would be
  nlohmann::json reply;
  try {
    reply = ask(worker,
                {{"op", "time_deployed"},
                 {"folder", fs::absolute(optimized_dir).string()},
                 {"iters", iters}},
                std::chrono::duration_cast<std::chrono::milliseconds>(timeout), subject);
  } catch (const Error& e) {
    return {{"error", e.what()}};
  }
  nlohmann::json out = judged(reply, "module");
  if (reply.contains("in_place_ms")) out["in_place"] = judged(reply, "in_place");
  for (const char* key : {"how", "input_bytes", "max_abs_vs_eager", "seconds", "gpu"}) {
    if (reply.contains(key)) out[key] = reply[key];
  }
  return out;
}

}  // namespace kernelopt::engine
