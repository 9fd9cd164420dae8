#include "kernelopt/report/show_text.hpp"

#include <fmt/format.h>

#include "kernelopt/analysis/dispatch.hpp"

namespace kernelopt::report {

namespace {

std::string num(const nlohmann::json& value, const char* format_spec) {
  if (!value.is_number()) return "-";
  return fmt::format(fmt::runtime(format_spec), value.get<double>());
}

std::string ops_text(const nlohmann::json& ops) {
  std::string out;
  for (const auto& op : ops) {
    if (!out.empty()) out += ",";
    out += op.get<std::string>();
  }
  return out.empty() ? "-" : out;
}

std::string clip(const std::string& text, std::size_t width) {
  return text.size() <= width ? text : text.substr(0, width - 1) + "~";
}

// A knob timed against the defaults (show --vendor): its ratio and what it saves, or its error.
std::string knob_measured(const nlohmann::json& m) {
  if (!m.is_object()) return "";
  if (m.contains("error")) return "                   not measured: " + m.value("error", "") + "\n";
  const double saved = m["saved_ms"].is_number() ? m["saved_ms"].get<double>() : 0.0;
  return fmt::format(
      "                   {} [{}, {}] against the defaults ({}): {} {:.4f} ms a forward\n",
      num(m["ratio"], "{:.3f}x"), num(m["ratio_low"], "{:.3f}"), num(m["ratio_high"], "{:.3f}"),
      m.value("speed_class", "?"), saved >= 0 ? "saves" : "costs", saved >= 0 ? saved : -saved);
}

}  // namespace

std::string format_show(const nlohmann::json& doc) {
  std::string out;
  out += fmt::format("{} on {} (torch {}, triton {})\n", doc.value("problem", "?"),
                     doc["environment"].value("gpu", "?"), doc["environment"].value("torch", "?"),
                     doc["environment"].value("triton", "?"));
  out += fmt::format(
      "eager {} ms | compiled {} ms (GPU {} ms) | max-autotune CUDA graphs {} ms | replay {} "
      "ms | compile {} s\n\n",
      num(doc["eager_ms"], "{:.3f}"), num(doc["compiled_ms"], "{:.3f}"),
      num(doc["compiled_gpu_ms"], "{:.3f}"), num(doc["cudagraphs_ms"], "{:.3f}"),
      num(doc["replay_ms"], "{:.3f}"), num(doc["compile_s"], "{:.1f}"));
  out += fmt::format("{:>3} {:<8} {:<20} {:<38} {:>9} {:>6} {:>9} {:>8}  {}\n", "#", "dispatch",
                     "kind", "name", "ms", "share", "floor ms", "headroom", "ATen ops");
  int index = 0;
  for (const auto& l : doc["launches"]) {
    out += fmt::format("{:>3} {:<8} {:<20} {:<38} {:>9} {:>5.1f}% {:>9} {:>8}  {}\n", index++,
                       l.value("dispatch", ""), clip(l.value("kind", ""), 20),
                       clip(l.value("name", ""), 38), num(l["time_ms"], "{:.4f}"),
                       100.0 * l.value("share", 0.0), num(l["floor_ms"], "{:.4f}"),
                       num(l["headroom"], "{:.2f}x"), clip(ops_text(l["aten_ops"]), 60));
  }
  // The kernels each vendor call (or ATen fallback) ran, as one traced call named them.
  std::string ran;
  index = 0;
  for (const auto& l : doc["launches"]) {
    for (const auto& k : l.value("kernels", nlohmann::json::array())) {
      ran += fmt::format("{:>3} {:<24} {:>9}  {}\n", index, clip(l.value("name", ""), 24),
                         num(k["ms"], "{:.4f}"), k.value("name", "?"));
    }
    ++index;
  }
  if (!ran.empty()) {
    out += "\nkernels of the vendor calls (one call traced by the profiler; ms in that call):\n";
    out += ran;
  }
  out += "\nsegments (consecutive Triton launches, the unit kernelopt replaces):\n";
  for (const auto& s : doc["segments"]) {
    // Which floor holds: the arithmetic of full-float32 products where it is the larger.
    const char* why =
        analysis::compute_floor_holds(s)  ? " (compute: float32 products at the GPU's peak rate)"
        : s.value("floor_passes", 1) == 2 ? " (two-pass: the group does not fit on chip)"
                                          : "";
    out += fmt::format("  seg{} graph {} launches {} | {} ms ({:.1f}%) floor {} ms{} headroom {}\n",
                       s.value("id", 0), s.value("graph", 0), s["launches"].dump(),
                       num(s["time_ms"], "{:.4f}"), 100.0 * s.value("share", 0.0),
                       num(s["floor_ms"], "{:.4f}"), why, num(s["headroom"], "{:.2f}x"));
    out += fmt::format("       in: {}  out: {}\n", s["inputs"].dump(), s["outputs"].dump());
  }
  out += fmt::format(
      "\nclass: {} (Triton {:.1f}% of GPU time; launches sum to {} ms, {} of the model's GPU "
      "time)\n",
      doc.value("class", "?"), 100.0 * doc.value("triton_share", 0.0),
      num(doc["launch_sum_ms"], "{:.3f}"), num(doc["launch_sum_over_gpu"], "{:.3f}x"));
  const nlohmann::json vendor = doc["environment"].value("vendor_config", nlohmann::json::object());
  bool vendor_calls = false;
  for (const auto& l : doc["launches"]) {
    vendor_calls = vendor_calls || l.value("dispatch", "") == "extern";
  }
  if (vendor_calls && vendor.is_object() && !vendor.empty()) {
    std::string settings;
    for (const auto& [key, value] : vendor.items()) {
      settings += fmt::format("{}{} {}", settings.empty() ? "" : ", ", key,
                              value.is_string() ? value.get<std::string>() : value.dump());
    }
    out += "vendor calls run with: " + settings + "\n";
  }
  // Which vendor knobs apply (docs/vendor.md): the vendor family's starting points.
  const nlohmann::json knobs = doc.value("vendor_knobs", nlohmann::json(nullptr));
  if (knobs.is_object() && knobs.contains("error")) {
    out += "vendor knobs: not known (" + knobs.value("error", "") + ")\n";
  } else if (knobs.is_object()) {
    out +=
        fmt::format("vendor knobs ({} convolution(s), {} matrix product(s) in an eager forward):\n",
                    knobs.value("convolutions", 0), knobs.value("products", 0));
    for (const auto& k : knobs.value("knobs", nlohmann::json::array())) {
      const std::string reason = k.value("reason", "");
      out += fmt::format("  {:<16} {}{}\n", k.value("name", "?"),
                         k.value("applies", false) ? "applies" : "does not apply",
                         reason.empty() ? "" : ": " + reason);
      out += knob_measured(k.value("measured", nlohmann::json(nullptr)));
    }
  }
  const double outside = doc.value("outside_graphs_ms", 0.0);
  if (outside > 0) {
    out += fmt::format(
        "{:.3f} ms of GPU time runs outside the compiled graphs (eager code between graph breaks):"
        " it counts in every share, and ratios are the whole model's\n",
        outside);
  }
  return out;
}

std::string format_show_table(const std::vector<nlohmann::json>& docs) {
  std::string out =
      "| level | problem | class | eager ms | compiled ms | GPU ms | max-autotune (CUDA graphs) "
      "ms | replay ms | compile s | Triton share | launches | segments | best segment headroom "
      "| launch sum / GPU |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& d : docs) {
    double best = 0;
    for (const auto& s : d["segments"]) {
      if (s["headroom"].is_number() && s.value("share", 0.0) >= 0.05) {
        best = std::max(best, s["headroom"].get<double>());
      }
    }
    out += fmt::format(
        "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.1f}% | {} | {} | {} | {} |\n",
        d["level"].is_number() ? std::to_string(d["level"].get<int>()) : "-",
        d.value("problem", "?"), d.value("class", "?"), num(d["eager_ms"], "{:.3f}"),
        num(d["compiled_ms"], "{:.3f}"), num(d["compiled_gpu_ms"], "{:.3f}"),
        num(d["cudagraphs_ms"], "{:.3f}"), num(d["replay_ms"], "{:.3f}"),
        num(d["compile_s"], "{:.1f}"), 100.0 * d.value("triton_share", 0.0), d["launches"].size(),
        d["segments"].size(), best > 0 ? fmt::format("{:.2f}x", best) : "-",
        num(d["launch_sum_over_gpu"], "{:.3f}"));
  }
  return out;
}

}  // namespace kernelopt::report
