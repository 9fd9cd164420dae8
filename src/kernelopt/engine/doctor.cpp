#include "kernelopt/engine/doctor.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "kernelopt/core/error.hpp"
#include "kernelopt/engine/show.hpp"

namespace kernelopt::engine {

namespace fs = std::filesystem;

namespace {

constexpr std::chrono::milliseconds kEnvDeadline{300000};

std::string text_or(const nlohmann::json& j, const char* key, const char* fallback) {
  if (j.contains(key) && j.at(key).is_string()) return j.at(key).get<std::string>();
  return fallback;
}

void save_cache(const nlohmann::json& findings) {
  const fs::path path = doctor_cache_path();
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec) return;  // a cache that cannot be written only costs a re-measure
  const fs::path tmp = path.string() + ".tmp";
  std::ofstream out(tmp);
  out << findings.dump(2);
  if (out.flush()) {
    out.close();
    fs::rename(tmp, path, ec);
  }
}

// One line per package the worker checked against its supported range (torch and Triton first),
// and whether every one is installed, importable and inside its range.
std::vector<std::pair<std::string, std::string>> requirement_lines(const nlohmann::json& f,
                                                                   bool& all_met) {
  const nlohmann::json requirements = f.value("requirements", nlohmann::json::object());
  std::vector<std::string> names = {"torch", "triton"};
  for (const auto& item : requirements.items()) {
    if (std::find(names.begin(), names.end(), item.key()) == names.end()) {
      names.push_back(item.key());
    }
  }
  std::vector<std::pair<std::string, std::string>> lines;
  for (const std::string& name : names) {
    const nlohmann::json r = requirements.value(name, nlohmann::json::object());
    const std::string supported = text_or(r, "supported", "?");
    const std::string error = text_or(f, (name + "_error").c_str(), "");
    std::string value;
    if (!r.contains("version") || !r.at("version").is_string()) {
      value = fmt::format("missing (kernelopt needs {} {})", name, supported);
    } else if (!error.empty()) {
      value = fmt::format("{} does not import: {}", text_or(r, "version", "?"), error);
    } else if (r.value("ok", false)) {
      value = fmt::format("{} (supported: {})", text_or(r, "version", "?"), supported);
    } else {
      value =
          fmt::format("{} OUTSIDE the supported range {}", text_or(r, "version", "?"), supported);
    }
    all_met = all_met && r.value("ok", false) && error.empty();
    lines.emplace_back(name, value);
  }
  return lines;
}

}  // namespace

std::string doctor_cache_path() {
  if (const char* dir = std::getenv("KERNELOPT_CACHE_DIR"); dir != nullptr && *dir != '\0') {
    return (fs::path(dir) / "doctor.json").string();
  }
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0') {
    return (fs::path(xdg) / "kernelopt" / "doctor.json").string();
  }
  const char* home = std::getenv("HOME");
  return (fs::path(home != nullptr ? home : ".") / ".cache" / "kernelopt" / "doctor.json").string();
}

nlohmann::json run_doctor(worker::Worker& worker) {
  const worker::Environment env =
      *raising_client(worker, "the worker").env({true, true}, kEnvDeadline);
  if (env.cuda_available) save_cache(env.document);
  return env.document;
}

DoctorReport format_doctor(const nlohmann::json& f, const std::string& engine) {
  DoctorReport report;
  auto line = [&](const std::string& name, const std::string& value) {
    report.text += fmt::format("{:<12} {}\n", name + ":", value);
  };
  line("python", text_or(f, "python", "?") + " (" + text_or(f, "python_executable", "?") + ")");
  bool requirements_met = f.contains("requirements");
  for (const auto& [name, value] : requirement_lines(f, requirements_met)) {
    line(name, value);
  }
  const bool gpu_ready = f.value("cuda_available", false) && f.contains("triton");
  if (f.value("cuda_available", false)) {
    line("gpu", fmt::format("{} (compute capability {}, {} SMs, {:.0f} GiB)",
                            text_or(f, "gpu", "?"), text_or(f, "compute_capability", "?"),
                            f.value("sm_count", 0), f.value("memory_bytes", 0.0) / (1 << 30)));
    line("driver", text_or(f, "driver", "unknown"));
    line("cuda", text_or(f, "cuda_runtime", "?"));
  } else {
    line("gpu", "none visible to torch: show, verify and optimize need an NVIDIA GPU");
    line("driver", text_or(f, "driver", "none (nvidia-smi not found)"));
  }
  line("ncu",
       f.contains("ncu") && f.at("ncu").is_string()
           ? text_or(f, "ncu", "") + " (" + text_or(f, "ncu_detail", "counters not probed") + ")"
           : "not found (profiling falls back to timings only)");
  if (f.contains("bandwidth")) {
    line("bandwidth",
         fmt::format("{:.0f} GB/s device-to-device copy (read + write), kept in {}",
                     f.at("bandwidth").value("bandwidth_gbps", 0.0), doctor_cache_path()));
  } else {
    line("bandwidth", "not measured (no GPU)");
  }
  line("engine", engine.empty() ? "?" : engine);
  line("package", text_or(f, "kernelopt_package", "?"));
  if (!requirements_met) {
    report.exit_code = static_cast<int>(ExitCode::kEnvironment);
    report.text +=
        "kernelopt needs torch, triton and numpy in their supported ranges: installing kernelopt "
        "with pip brings them\n";
  } else if (!gpu_ready) {
    report.exit_code = static_cast<int>(ExitCode::kNoGpu);
  }
  return report;
}

worker::Environment require_gpu(worker::Worker& worker, const std::string& what) {
  worker::Environment env = *raising_client(worker, "the worker").env({}, kEnvDeadline);
  if (!env.cuda_available) {
    throw Error("kernelopt.nogpu",
                fmt::format("{} needs an NVIDIA GPU and none is visible here (see `kernelopt "
                            "doctor`)",
                            what),
                ExitCode::kNoGpu);
  }
  return env;
}

double copy_bandwidth_gbps(worker::Worker& worker) {
  worker::Client client = raising_client(worker, "the worker");
  const worker::Environment env = *client.env({}, kEnvDeadline);
  std::ifstream in(doctor_cache_path());
  if (in) {
    const nlohmann::json cached = nlohmann::json::parse(in, nullptr, false);
    if (!cached.is_discarded()) {
      const worker::Environment measured = worker::read_environment(cached);
      if (measured.gpu == env.gpu && measured.bandwidth_gbps) return *measured.bandwidth_gbps;
    }
  }
  const worker::Environment measured = *client.env({true, false}, kEnvDeadline);
  save_cache(measured.document);
  return measured.bandwidth_gbps.value_or(0.0);
}

double fp32_peak_gflops(const nlohmann::json& env) {
  return worker::read_environment(env).fp32_gflops;
}

}  // namespace kernelopt::engine
