// The fused segment's launches: each launch's starting settings (its tile shrunk for the copies
// of the producer a fused kernel holds) and neighbours, and the candidate file that launches them
// all (config's too, for a whole segment relaunched).
#include <algorithm>
#include <cstddef>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kernelopt/propose/registry.hpp"
#include "kernelopt/propose/transform/config.hpp"
#include "kernelopt/propose/transform/fuse.hpp"
#include "kernelopt/propose/transform/relaunch.hpp"

namespace kernelopt::propose {

namespace {

std::string prefix_of(std::size_t r) {
  return fmt::format("k{}_", r);
}

}  // namespace

// A launch's tile as the fused segment relaunches it. YBLOCK is raised to what the y grid needs
// (an autotuned setting may have relied on the z overflow). A fused kernel holds a copy of the
// producer per inlined load: its tile shrinks so that tile elements times copies stay near what
// one unfused tile holds (4096), halving the largest block, YBLOCK not below what y needs, and
// its warps halved to keep two elements a thread. The copies count at what is left of them once
// the pasted statements are tidied (`inlined_cost`: L2/85's 16 copies of a 22-statement norm
// keep 7 statements each, about 6 whole copies).
nlohmann::json shrink_for_copies(const nlohmann::json& launch, nlohmann::json s) {
  const long min_y = smallest_yblock(launch);  // y_grid_fits: CUDA's 65535 programs in y
  if (s.contains("YBLOCK") && s.at("YBLOCK").get<long>() < min_y) s["YBLOCK"] = min_y;
  const long copies = launch.value("inlined_cost", launch.value("inlined_loads", 1L));
  if (copies <= 1) return s;
  const long cap = std::max(64L, 4096L / copies);
  const auto elements = [&]() {
    long n = 1;
    for (const char* block : {"XBLOCK", "YBLOCK", "R0_BLOCK"}) {
      n *= s.value(block, 1L);
    }
    return n;
  };
  while (elements() > cap) {
    const char* largest = nullptr;
    for (const char* block : {"XBLOCK", "YBLOCK", "R0_BLOCK"}) {
      const long floor = std::string(block) == "YBLOCK" ? min_y : 1L;
      if (s.value(block, 1L) > floor &&
          (largest == nullptr || s.value(block, 1L) > s.value(largest, 1L))) {
        largest = block;
      }
    }
    if (largest == nullptr) break;
    s[largest] = s.value(largest, 1L) / 2;
  }
  // Warps for the shrunk tile: at least two elements a thread (L2/65's pool tile of 256 took 16
  // warps from the unfused kernel's settings, 0.54x; 4 warps, 1.33x).
  if (s.contains("num_warps")) {
    long warps = s.at("num_warps").get<long>();
    while (warps > 1 && warps * 64 > elements()) {
      warps /= 2;
    }
    s["num_warps"] = warps;
  }
  return s;
}

std::vector<nlohmann::json> fuse_settings(const Match& match) {
  const auto& launches = match.params.at("launches");
  std::vector<std::vector<nlohmann::json>> each;
  std::size_t most = 0;
  for (const auto& launch : launches) {
    std::vector<nlohmann::json> own;
    // A launch the rewrite made one pass brings its own settings; the others config's.
    const std::vector<nlohmann::json> start =
        launch.contains("settings") ? launch.at("settings").get<std::vector<nlohmann::json>>()
                                    : config_settings(Match{"config", launch, ""});
    for (const auto& s : start) {
      nlohmann::json shrunk = shrink_for_copies(launch, s);
      if (config_fits(Match{"config", launch, ""}, shrunk) &&
          std::find(own.begin(), own.end(), shrunk) == own.end()) {
        own.push_back(std::move(shrunk));
      }
    }
    // A launch with no setting that fits would run with its defaults, which may not: no
    // candidates then.
    if (own.empty()) return {};
    each.push_back(std::move(own));
    most = std::max(most, each.back().size());
  }
  std::vector<nlohmann::json> out;
  for (std::size_t j = 0; j < most; ++j) {
    nlohmann::json s = nlohmann::json::object();
    for (std::size_t r = 0; r < each.size(); ++r) {
      for (const auto& [key, value] : each[r][j % each[r].size()].items()) {
        s[prefix_of(r) + key] = value;
      }
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<nlohmann::json> fuse_neighbours(const Match& match, const nlohmann::json& settings) {
  // Each launch's neighbours are the config proposer's for that launch alone; the other launches
  // keep their settings. The launch with the most time above its floor first (a segment of ten
  // launches has dozens of neighbours, more than a budget evaluates: L3/47's search spent its
  // rounds on a 0.011 ms kernel while a 0.319 ms one, five times its floor, waited at the end).
  const auto& launches = match.params.at("launches");
  std::vector<std::size_t> order(launches.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return launches[a].value("potential_ms", 0.0) > launches[b].value("potential_ms", 0.0);
  });
  std::vector<nlohmann::json> out;
  for (const std::size_t r : order) {
    const std::string prefix = prefix_of(r);
    nlohmann::json own = nlohmann::json::object();  // this launch's settings, unprefixed
    for (const auto& [key, value] : settings.items()) {
      if (key.rfind(prefix, 0) == 0) own[key.substr(prefix.size())] = value;
    }
    for (const auto& next : neighbours_of(Match{"config", launches[r], ""}, own)) {
      nlohmann::json s = settings;
      for (const auto& [key, value] : next.items()) {
        s[prefix + key] = value;
      }
      out.push_back(std::move(s));
    }
  }
  return out;
}

std::string fuse_source(const Match& match, int segment, const nlohmann::json& settings) {
  const auto& launches = match.params.at("launches");
  std::string sources;
  std::set<std::string> defined;
  std::string body;
  std::string device;
  std::map<std::string, std::string> tensors;
  for (std::size_t r = 0; r < launches.size(); ++r) {
    const auto& launch = launches[r];
    if (defined.insert(launch.at("kernel").get<std::string>()).second) {
      sources += launch.at("source").get<std::string>() + "\n\n";
    }
    for (const auto& arg : launch.at("args")) {
      if (device.empty() && arg.contains("root") && arg.at("from") != "internal") {
        device = fmt::format("    _device = {}[\"{}\"].device\n", arg.at("from").get<std::string>(),
                             arg.at("root").get<std::string>());
      }
    }
    const std::string line = launch_text(launch, settings, prefix_of(r), tensors, body);
    body += line;
  }
  // fuse's candidate, or config's over a whole segment (no producer: every kernel relaunched).
  const std::string how =
      match.params.contains("producer")
          ? fmt::format(
                "rewrite proposer (fuse): Inductor's kernels without their\nautotuning "
                "decorators, {} computed inside {} instead of launched, each\nlaunched",
                match.params.at("producer").get<std::string>(),
                fmt::join(match.params.at("consumers").get<std::vector<std::string>>(), " and "))
          : fmt::format(
                "{} proposer: Inductor's kernels of the segment{} without their\n"
                "autotuning decorators, each launched",
                match.recipe, match.recipe == "rewrite" ? " (some rewritten)" : "");
  return fmt::format(
      "\"\"\"Segment {}: {}.\n\nWritten by kernelopt's {} with the settings below.\n\"\"\"\n\n"
      "import torch\nimport triton\n\n"
      "{}\n"
      "def run(inputs, outputs):\n"
      "{}{}",
      segment, match.why, how, sources, device, body);
}

}  // namespace kernelopt::propose
