// The rewrite proposer: source transformations of Inductor's own kernels. Three: one pass instead
// of two when a row fits on chip (one_pass.cpp), shifted sums instead of a Welford update
// (shifted_sums.cpp), and fuse (fuse.cpp). Here: its match over a segment's kernels and the
// settings a one-pass kernel starts from.
#include "kernelopt/propose/transform/rewrite.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kernelopt/propose/transform/config.hpp"

namespace kernelopt::propose {

namespace {

std::optional<Match> match_one_pass(const Match& config) {
  if (config.params.value("kind", "") != "reduction") return std::nullopt;
  const auto& numels = config.params.at("numels");
  if (!numels.contains("r0_numel")) return std::nullopt;
  const auto r0 = numels.at("r0_numel").get<std::int64_t>();
  if (r0 > kOnePassMaxRow) return std::nullopt;
  const std::int64_t block = next_power_of_two(r0);
  // A row mask Inductor dropped (every R0_BLOCK divides r0_numel) must stay droppable.
  if (config.params.at("divides").contains("R0_BLOCK") && r0 % block != 0) return std::nullopt;
  const auto rewritten = one_pass_source(config.params.at("source").get<std::string>());
  if (!rewritten) return std::nullopt;
  Match m = config;
  m.recipe = "rewrite";
  m.params["source"] = rewritten->source;
  m.params["fixed"] = {{"R0_BLOCK", block}};
  m.params["rewrite"] = {{"transform", "one_pass"},
                         {"loops", rewritten->loops},
                         {"reused_loads", rewritten->reused},
                         {"softmax_in_registers", rewritten->softmax}};
  m.why = fmt::format(
      "Inductor's looped reduction {} made one pass: rows of {} fit one program, {} loops "
      "flattened, {} repeated load(s) reuse the first{}",
      m.params.at("kernel").get<std::string>(), r0, rewritten->loops, rewritten->reused,
      rewritten->softmax == 0
          ? ""
          : fmt::format(", {} online softmax(es) a max then a sum of exponentials over the row",
                        rewritten->softmax));
  return m;
}

}  // namespace

std::optional<Match> match_rewrite(const inductor::OutputCode& code,
                                   const analysis::DispatchMap& map,
                                   const analysis::Segment& segment) {
  auto config = match_config(code, map, segment);
  if (!config) return std::nullopt;
  if (auto one = match_one_pass(*config)) return one;
  // In every looped reduction of the segment: one pass where its row fits on chip (a kernel of a
  // multi-launch segment, its settings then the one-pass ones), else shifted sums where it has a
  // Welford loop.
  Match m = std::move(*config);
  int welford = 0;
  int one_pass = 0;
  int recomputed = 0;
  int mish = 0;
  std::vector<std::string> what;
  // Pointer parameters of a launch bound to a buffer that lives within the segment and that no
  // other launch names: a store to them nothing else reads.
  const auto droppable = [&](const nlohmann::json& launch) {
    std::set<std::string> out;
    if (!m.params.contains("launches")) return out;
    for (const auto& arg : launch.at("args")) {
      if (arg.value("from", "") != "internal") continue;
      int named = 0;
      for (const auto& other : m.params.at("launches")) {
        for (const auto& a : other.at("args")) {
          named += a.contains("root") && a.at("root") == arg.at("root") ? 1 : 0;
        }
      }
      if (named == 1) out.insert(arg.at("param").get<std::string>());
    }
    return out;
  };
  auto rewrite_launch = [&](nlohmann::json& launch, bool alone) {
    const std::string kernel = launch.value("kernel", "");
    // Mish with one exponential, in any kernel but a template (after the other rewrites).
    const auto cheap = [&]() {
      if (const int count = cheaper_math_launch(launch); count > 0) {
        mish += count;
        what.push_back(fmt::format(
            "{}: {} Mish(es) with one exponential instead of exp, log1p and tanh", kernel, count));
      }
    };
    if (launch.value("kind", "") != "reduction") {
      cheap();
      return;
    }
    if (!alone) {
      if (auto one = match_one_pass(Match{"config", launch, ""})) {
        nlohmann::json settings = rewrite_settings(*one);
        launch = std::move(one->params);
        launch["settings"] = std::move(settings);
        ++one_pass;
        const int softmax = launch.at("rewrite").value("softmax_in_registers", 0);
        what.push_back(fmt::format(
            "{} one pass (rows of {} fit one program{})", kernel,
            launch.at("fixed").at("R0_BLOCK").get<std::int64_t>(),
            softmax == 0 ? "" : "; its online softmax a max then a sum of exponentials"));
        cheap();
        return;
      }
    }
    if (auto again =
            recompute_reloads_source(launch.at("source").get<std::string>(), droppable(launch))) {
      launch["source"] = again->source;
      recomputed += again->count;
      what.push_back(fmt::format(
          "{}: {} value(s) its first walk stores computed again by the second instead of loaded "
          "back{}",
          kernel, again->count,
          again->dropped.empty() ? ""
                                 : fmt::format(" (stores to {} dropped: nothing else reads them)",
                                               fmt::join(again->dropped, ", "))));
    }
    if (auto sums = shifted_sums_source(launch.at("source").get<std::string>())) {
      launch["source"] = sums->source;
      welford += sums->count;
      what.push_back(
          fmt::format("{}: {} Welford reduction(s) made shifted sums", kernel, sums->count));
    }
    cheap();
  };
  if (m.params.contains("launches")) {
    for (auto& launch : m.params.at("launches")) {
      rewrite_launch(launch, false);
    }
  } else {
    rewrite_launch(m.params, true);
  }
  if (welford + one_pass + recomputed + mish == 0) return std::nullopt;
  m.recipe = "rewrite";
  const bool only_sums = one_pass + recomputed + mish == 0;
  m.params["rewrite"] = {{"transform", only_sums                              ? "shifted_sums"
                                       : welford + one_pass + recomputed == 0 ? "cheap_math"
                                                                              : "segment"},
                         {"welford", welford},
                         {"one_pass", one_pass},
                         {"recomputed", recomputed},
                         {"mish", mish}};
  m.why = only_sums ? fmt::format(
                          "{} (no division per element; the mean and M2 from the sums after "
                          "the loop)",
                          fmt::join(what, "; "))
          : m.params.contains("launches")
              ? fmt::format("{}; the segment's other kernels relaunched", fmt::join(what, "; "))
              : fmt::format("{}", fmt::join(what, "; "));
  return m;
}

namespace {

// Whether a load or store of the kernel walks its row with a stride: an address with an integer
// above 1 times a row index (Inductor's `r0_1`, `r0_2`, ...), as in `out_ptr0 + (x0 + 16641*r0_2)`
// (a softmax over the channels of an NCHW tensor) or `in_ptr0 + (x2 + 128*r0_1)` (rows over the
// pixels of a channels-last one). Such an access is coalesced only across the program's rows.
bool row_strided(const std::string& source) {
  for (const char* call : {"tl.load(", "tl.store("}) {
    for (std::size_t at = source.find(call); at != std::string::npos;
         at = source.find(call, at + 1)) {
      const std::size_t end = source.find('\n', at);
      const std::string line = source.substr(at, end == std::string::npos ? end : end - at);
      for (std::size_t star = line.find("*r0_"); star != std::string::npos;
           star = line.find("*r0_", star + 1)) {
        std::size_t begin = star;
        while (begin > 0 && std::isdigit(static_cast<unsigned char>(line[begin - 1])) != 0) {
          --begin;
        }
        if (begin == star) continue;
        const std::string factor = line.substr(begin, star - begin);
        const char before = begin == 0 ? ' ' : line[begin - 1];
        if (std::isalnum(static_cast<unsigned char>(before)) != 0 || before == '_') continue;
        if (factor.size() > 1 || factor[0] > '1') return true;
      }
    }
  }
  return false;
}

}  // namespace

std::vector<nlohmann::json> rewrite_settings(const Match& match) {
  if (match.params.at("rewrite").value("transform", "") != "one_pass") {
    // Shifted sums: Inductor's kernel's own launch, tuned as config tunes it; a segment: each
    // launch its own settings (a one-pass kernel's are its one-pass ones, in "settings").
    return config_settings(match);
  }
  const std::int64_t row = match.params.at("fixed").at("R0_BLOCK").get<std::int64_t>();
  // About 16 row elements per thread, half and twice that many warps; short rows also several per
  // program.
  const auto warps_for = [](std::int64_t elements) {
    return std::clamp<std::int64_t>(elements / 512, 1, 32);
  };
  std::vector<nlohmann::json> out;
  const auto add = [&](std::int64_t rows, std::int64_t warps) {
    nlohmann::json s = {
        {"XBLOCK", rows}, {"num_warps", std::clamp<std::int64_t>(warps, 1, 32)}, {"num_stages", 1}};
    if (config_fits(match, s) && std::find(out.begin(), out.end(), s) == out.end()) {
      out.push_back(std::move(s));
    }
  };
  // 32 elements a thread in 32 warps: the most rows a program holds.
  constexpr std::int64_t kMostElements = std::int64_t{32} * 32 * 32;
  const std::int64_t most_rows = kMostElements / row;
  if (most_rows >= 16 && row_strided(match.params.at("source").get<std::string>())) {
    // A strided row is read or written 128 bytes at a time only when 32 rows share a program:
    // those first (16 to 64 rows, 16 or 32 elements a thread).
    for (const std::int64_t want : {32, 64, 16}) {
      const std::int64_t rows = std::min(want, most_rows);
      const std::int64_t warps = warps_for(rows * row);
      add(rows, warps);
      if (rows * row * 2 <= kMostElements / 32 * warps) add(rows, warps / 2);
    }
  }
  add(1, warps_for(row));
  add(1, warps_for(row) / 2);
  add(1, warps_for(row) * 2);
  const std::int64_t rows = std::max<std::int64_t>(1, 4096 / row);
  add(rows, warps_for(rows * row));
  return out;
}

}  // namespace kernelopt::propose
