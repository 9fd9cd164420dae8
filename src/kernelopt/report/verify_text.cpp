#include "kernelopt/report/verify_text.hpp"

#include <fmt/format.h>

namespace kernelopt::report {

namespace {

std::string gates_text(const nlohmann::json& gates) {
  std::string out;
  for (const auto& g : gates) {
    out += fmt::format("    {:<16} {:<18} {}\n", g.value("gate", "?"), g.value("status", "?"),
                       g.value("detail", ""));
  }
  return out;
}

std::string format_one(const nlohmann::json& doc) {
  std::string out;
  for (const auto& c : doc.value("candidates", nlohmann::json::array())) {
    out += fmt::format("  seg{} {} -> {}\n", c.value("segment", -1), c.value("file", "?"),
                       c.value("passed", false) ? "passed" : "rejected");
    out += gates_text(c.value("gates", nlohmann::json::array()));
  }
  for (const auto& a : doc.value("attempts", nlohmann::json::array())) {
    out += fmt::format("  model with segments {} -> {}\n",
                       a.value("segments", nlohmann::json::array()).dump(),
                       a.value("passed", false) ? "accepted" : "rejected");
    out += gates_text(a.value("gates", nlohmann::json::array()));
  }
  const auto o = doc.value("outcome", nlohmann::json::object());
  out += fmt::format("outcome: {}{}", o.value("class", "?"),
                     o.value("reason", "").empty() ? "" : " (" + o.value("reason", "") + ")");
  const auto ratio = o.value("ratio", nlohmann::json());
  if (ratio.is_number()) {
    out += fmt::format(", {:.3f}x [{:.3f}, {:.3f}] over the baseline", ratio.get<double>(),
                       o.value("ratio_low", 0.0), o.value("ratio_high", 0.0));
  }
  return out + "\n";
}

// The `deployed` part of optimize's document (engine/deployed.hpp), if any.
std::string deployed_text(const nlohmann::json& d) {
  if (d.is_null()) return "";
  if (d.contains("error")) {
    return fmt::format("as deployed: not measured: {}\n", d["error"].get<std::string>());
  }
  const auto ratio = [](const nlohmann::json& r) {
    return fmt::format("{:.3f}x [{:.3f}, {:.3f}] ({:.4f} ms against {:.4f} ms, {})",
                       r.value("ratio", 0.0), r.value("ratio_low", 0.0), r.value("ratio_high", 0.0),
                       r.value("module_ms", 0.0), r.value("baseline_ms", 0.0),
                       r.value("speed_class", "?"));
  };
  std::string out = fmt::format(
      "as deployed: kernelopt.load {} against torch.compile(mode=\"max-autotune\"), each called "
      "with the inputs ({:.1f} MB copied per call)\n",
      ratio(d), d.value("input_bytes", 0.0) / 1e6);
  if (d.contains("in_place") && !d["in_place"].contains("error")) {
    out += fmt::format("  with the inputs in place (module.static_inputs()): {}\n",
                       ratio(d["in_place"]));
  }
  if (d.value("speed_class", "") == "slower") {
    out +=
        "  warning: as deployed the module is slower than torch.compile; use the compiler's "
        "own module\n";
  }
  return out;
}

}  // namespace

std::string format_verify(const nlohmann::json& doc) {
  std::string out =
      fmt::format("{}: {} segment(s)\n", doc.value("problem", "?"), doc.value("segments", 0));
  if (doc.contains("each")) {  // verify --each: one cascade per candidate
    for (const auto& one : doc["each"]) {
      out += format_one(one);
    }
    return out;
  }
  if (doc.contains("proposals")) {  // kernelopt optimize: what the proposer said and tried
    for (const auto& p : doc["proposals"]) {
      const auto recipe = p.value("recipe", nlohmann::json());
      const int segment = p.value("segment", -1);
      if (recipe.is_string()) {
        out += fmt::format("  seg{}: recipe {} ({})\n", segment, recipe.get<std::string>(),
                           p.value("why", ""));
      } else if (p.contains("skipped")) {
        out += fmt::format("  seg{}: skipped: {}\n", segment, p.value("skipped", ""));
      } else {
        out += fmt::format("  seg{}: no recipe matches\n", segment);
      }
      for (const char* proposer : {"config", "rewrite"}) {
        if (p.contains(proposer)) {
          out += fmt::format("  seg{}: {} ({})\n", segment, proposer, p.value(proposer, ""));
        }
      }
    }
    for (const auto& t : doc.value("tried", nlohmann::json::array())) {
      const std::string strategy = t.value("strategy", "");
      out += t.contains("round") ? fmt::format("  tried (round {}, {}{}):\n", t.value("round", 0),
                                               strategy.empty() ? "" : strategy + " ",
                                               t.value("settings", nlohmann::json()).dump())
                                 : std::string("  tried:\n");
      out += format_one(t);
    }
    // The search per segment: the analyst's verdict, the beam's rounds and why it stopped.
    for (const auto& s : doc.value("search", nlohmann::json::array())) {
      const auto& best = s.value("best", nlohmann::json());
      if (s.contains("reused")) {  // a verified candidate from the cache: no search
        const auto& r = s.at("reused");
        out += fmt::format(
            "  seg{} reused from the cache: {} {} ({:.3f}x when recorded, {:.3f}x now), "
            "re-checked in {:.1f} s, no search\n",
            s.value("segment", -1), r.value("strategy", ""),
            r.value("settings", nlohmann::json()).dump(), r.value("recorded_ratio", 0.0),
            best.is_object() ? best.value("ratio", 0.0) : 0.0, r.value("seconds", 0.0));
        continue;
      }
      out += fmt::format(
          "  seg{} search: {} ({}); {} candidate(s) over {} round(s), {}; {}\n",
          s.value("segment", -1), s.value("bottleneck", "?"), s.value("analysis", ""),
          s.value("evaluated", 0), s.value("rounds", 0), s.value("stopped", ""),
          best.is_object()
              ? fmt::format("best {} at {:.3f}x", best.value("settings", nlohmann::json()).dump(),
                            best.value("ratio", 0.0))
              : std::string("none chosen"));
    }
    if (doc.contains("counters")) {
      out += fmt::format("  counters: {}\n", doc["counters"].is_string()
                                                 ? doc["counters"].get<std::string>()
                                                 : doc["counters"].dump());
    }
    if (doc.value("tried", nlohmann::json::array()).empty()) {
      out += format_one(doc);
      return out;
    }
    out += doc.contains("candidates") ? "  chosen:\n"
                                      : "  chosen: none; the compiler's kernels stay\n";
  }
  out += format_one(doc);
  if (doc.contains("optimized")) out += "wrote optimized/ (load it with kernelopt.load(dir))\n";
  if (doc.contains("deployed")) out += deployed_text(doc["deployed"]);
  return out;
}

}  // namespace kernelopt::report
