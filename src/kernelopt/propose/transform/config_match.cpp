// The config proposer: one of Inductor's own kernels, unchanged, relaunched with other
// launch settings (XBLOCK, YBLOCK, R0_BLOCK, num_warps, num_stages) than the ones its autotuner
// chose. Its candidate file holds the kernel's source without the heuristics decorator, so the
// kernel is a plain @triton.jit function the candidate launches on the segment's tensors.
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kernelopt/propose/transform/config.hpp"
#include "kernelopt/propose/transform/fuse.hpp"
#include "kernelopt/propose/transform/relaunch.hpp"
#include "kernelopt/propose/transform/retile.hpp"

namespace kernelopt::propose {

std::int64_t next_power_of_two(std::int64_t n) {
  std::int64_t p = 1;
  while (p < n) {
    p *= 2;
  }
  return p;
}

void set_launch_potentials(std::vector<Match>& matches,
                           const analysis::Segment& segment,
                           const analysis::DispatchMap& map,
                           const nlohmann::json& timed_launches) {
  for (auto& m : matches) {
    if (!m.params.contains("launches")) continue;
    // Each launch of the match is the segment's next launch of the same kernel (fuse drops one).
    std::size_t next = 0;
    for (auto& launch : m.params.at("launches")) {
      const std::string kernel = launch.value("kernel", "");
      while (next < segment.launches.size() &&
             map.launches[static_cast<std::size_t>(segment.launches[next])].name != kernel) {
        ++next;
      }
      if (next == segment.launches.size()) break;
      const auto index = static_cast<std::size_t>(segment.launches[next++]);
      if (index >= timed_launches.size()) continue;
      const auto& timed = timed_launches[index];
      if (timed.value("name", "") != map.launches[index].name || !timed.contains("time_ms")) {
        continue;
      }
      // Its time above its floor; a template whose floor is only its bytes (a product in TF32
      // or half precision: no compute floor), or a launch without a floor, counts 5% of its time.
      const double time = timed.at("time_ms").get<double>();
      const auto& floor = timed.value("floor_ms", nlohmann::json());
      const bool floor_holds =
          launch.value("kind", "") != "template" || timed.contains("compute_floor_ms");
      launch["potential_ms"] = floor.is_number() && floor_holds
                                   ? std::max(0.0, time - floor.get<double>())
                                   : 0.05 * time;
    }
  }
}

std::optional<Match> match_config(const inductor::OutputCode& code,
                                  const analysis::DispatchMap& map,
                                  const analysis::Segment& segment) {
  if (segment.extern_call || segment.launches.empty()) return std::nullopt;
  if (segment.launches.size() > 1) {
    // Every launch of the segment relaunched as fuse relaunches them (buffers that live within
    // the segment allocated by the candidate; a template exactly as Inductor launched it), each
    // with settings of its own: a reduction among others gets other tiles too. (On the H200 this
    // found nothing measurably faster on L2/19, 21 and 23, whose statistics are compute-bound;
    // the rewrite's shifted sums relaunch their segments this way.)
    auto launches = segment_relaunches(code, map, segment);
    if (!launches) return std::nullopt;
    std::vector<std::string> names;
    bool tunable = false;
    for (const auto& launch : *launches) {
      tunable = tunable || launch.at("kind") != "template";
      names.push_back(launch.at("kernel").get<std::string>());
    }
    if (!tunable) return std::nullopt;
    const std::string why = fmt::format(
        "Inductor's {} kernels of the segment relaunched with other settings, each its own ({})",
        names.size(), fmt::join(names, ", "));
    return Match{"config", {{"kind", "segment"}, {"launches", *launches}}, why};
  }
  auto params = relaunch_params(code, map, segment, segment.launches.front(), false);
  if (!params) return std::nullopt;
  const std::string why =
      fmt::format("Inductor's {} kernel {} relaunched with other settings",
                  params->at("kind").get<std::string>(), params->at("kernel").get<std::string>());
  return Match{"config", std::move(*params), why};
}

bool y_grid_fits(const nlohmann::json& params, std::int64_t yblock) {
  if (!params.contains("numels") || !params.at("numels").contains("ynumel")) return true;
  const auto y = params.at("numels").at("ynumel").get<std::int64_t>();
  const auto block = std::max<std::int64_t>(1, yblock);
  return (y + block - 1) / block <= 65535;
}

std::int64_t smallest_yblock(const nlohmann::json& params) {
  std::int64_t block = 1;
  while (!y_grid_fits(params, block)) {
    block *= 2;
  }
  return block;
}

bool config_fits(const Match& match, const nlohmann::json& settings) {
  if (!retile_fits(match.params, settings)) return false;
  if (settings.contains("YBLOCK") &&
      !y_grid_fits(match.params, settings.at("YBLOCK").get<std::int64_t>())) {
    return false;
  }
  if (!match.params.contains("divides")) return true;
  for (const auto& [knob, size] : match.params.at("divides").items()) {
    if (!settings.contains(knob)) continue;
    const auto block = settings.at(knob).get<std::int64_t>();
    if (block <= 0 || size.get<std::int64_t>() % block != 0) return false;
  }
  return true;
}

std::vector<nlohmann::json> config_settings(const Match& match) {
  const auto& p = match.params;
  if (p.contains("launches")) return fuse_settings(match);  // a whole segment, per launch
  const auto has = [&](const char* name) {
    const auto& list = p.at("constexprs");
    return std::find(list.begin(), list.end(), name) != list.end();
  };
  std::vector<nlohmann::json> out;
  const std::string kind = p.at("kind").get<std::string>();
  if (kind == "template") return {p.at("inductor")};  // launched as Inductor launched it
  // A literal size of the kernel (0 when unknown): no block goes past it rounded up to a power of
  // two, and a reduction block cut to a short row hands its elements to more rows a program.
  const auto numel = [&](const char* key) -> std::int64_t {
    if (!p.contains("numels") || !p.at("numels").contains(key)) return 0;
    const auto& v = p.at("numels").at(key);
    return v.is_number_integer() ? v.get<std::int64_t>() : 0;
  };
  const auto fit = [](std::int64_t block, std::int64_t size) {
    return size > 0 ? std::min(block, next_power_of_two(size)) : block;
  };
  const auto add = [&](std::int64_t x, std::int64_t y, std::int64_t r, int warps) {
    if (const std::int64_t row = fit(r, numel("r0_numel")); r > 0 && row < r) {
      x *= r / row;
      r = row;
    }
    x = fit(x, numel("xnumel"));
    y = fit(y, numel("ynumel"));
    nlohmann::json s = {{"num_warps", warps}, {"num_stages", 1}};
    if (has("XBLOCK")) s["XBLOCK"] = x;
    if (has("YBLOCK")) s["YBLOCK"] = std::max(y, smallest_yblock(p));  // CUDA's 65535 y programs
    if (has("R0_BLOCK") && !p.contains("fixed")) s["R0_BLOCK"] = r;
    out.push_back(std::move(s));
  };
  if (kind == "pointwise" && p.at("grid") == 2) {
    add(64, 64, 0, 4);
    add(128, 32, 0, 4);
    add(32, 128, 8, 8);
  } else if (kind == "pointwise") {
    add(1024, 0, 0, 4);
    add(512, 0, 0, 4);
    add(2048, 0, 0, 8);
  } else if (kind == "reduction") {
    add(1, 0, 2048, 8);
    add(8, 0, 512, 8);
    add(64, 0, 64, 4);
  } else {  // persistent: rows per program
    add(1, 0, 0, 4);
    add(8, 0, 0, 8);
    add(32, 0, 0, 8);
  }
  // Inductor's own choice first, when the capture read it: the search starts where the baseline
  // is and moves from there.
  if (p.contains("inductor")) out.insert(out.begin(), p.at("inductor"));
  // A block that must divide its size halves until it does; settings that name no knob (a
  // kernel without XBLOCK) collapse into one per warp count.
  std::vector<nlohmann::json> unique;
  for (auto& s : out) {
    for (const auto& [knob, size] : p.at("divides").items()) {
      if (!s.contains(knob)) continue;
      std::int64_t block = s.at(knob).get<std::int64_t>();
      while (block > 1 && size.get<std::int64_t>() % block != 0) {
        block /= 2;
      }
      s[knob] = block;
    }
    if (std::find(unique.begin(), unique.end(), s) == unique.end()) unique.push_back(std::move(s));
  }
  return unique;
}

std::string config_source(const Match& match, int segment, const nlohmann::json& settings) {
  const auto& p = match.params;
  if (p.contains("launches")) return fuse_source(match, segment, settings);
  std::string body;
  std::map<std::string, std::string> tensors;
  const std::string launch = launch_text(p, settings, "", tensors, body);
  return fmt::format(
      "\"\"\"Segment {segment}: {why}.\n\nWritten by kernelopt's {proposer} proposer: the "
      "kernel's source as {how}, without its\nautotuning decorator, launched with the settings "
      "below.\n\"\"\"\n\n"
      "{source}\n\n\n"
      "def run(inputs, outputs):\n"
      "{body}{launch}",
      fmt::arg("segment", segment), fmt::arg("why", match.why), fmt::arg("proposer", match.recipe),
      fmt::arg("how", match.recipe == "rewrite" ? "Inductor wrote it and this proposer rewrote it"
                                                : "Inductor wrote it"),
      fmt::arg("source", p.at("source").get<std::string>()), fmt::arg("body", body),
      fmt::arg("launch", launch));
}

}  // namespace kernelopt::propose
