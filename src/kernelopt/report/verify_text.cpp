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

}  // namespace

std::string format_verify(const nlohmann::json& doc) {
  std::string out =
      fmt::format("{}: {} segment(s)\n", doc.value("problem", "?"), doc.value("segments", 0));
  for (const auto& c : doc["candidates"]) {
    out += fmt::format("  seg{} {} -> {}\n", c.value("segment", -1), c.value("file", "?"),
                       c.value("passed", false) ? "passed" : "rejected");
    out += gates_text(c["gates"]);
  }
  for (const auto& a : doc["attempts"]) {
    out += fmt::format("  model with segments {} -> {}\n", a["segments"].dump(),
                       a.value("passed", false) ? "accepted" : "rejected");
    out += gates_text(a["gates"]);
  }
  const auto& o = doc["outcome"];
  out += fmt::format("outcome: {}{}", o.value("class", "?"),
                     o.value("reason", "").empty() ? "" : " (" + o.value("reason", "") + ")");
  if (o["ratio"].is_number()) {
    out += fmt::format(", {:.3f}x [{:.3f}, {:.3f}] over the baseline", o["ratio"].get<double>(),
                       o["ratio_low"].get<double>(), o["ratio_high"].get<double>());
  }
  out += "\n";
  if (doc.contains("optimized")) out += "wrote optimized/ (load it with kernelopt.load(dir))\n";
  return out;
}

}  // namespace kernelopt::report
