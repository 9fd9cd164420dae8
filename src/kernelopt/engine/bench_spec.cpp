#include "kernelopt/engine/bench_spec.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>

#include <fmt/format.h>

#include "kernelopt/core/error.hpp"

namespace kernelopt::engine {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void bad_spec(std::string_view spec, const std::string& why) {
  throw Error("kernelopt.usage",
              fmt::format("--problems '{}': {} (expected odd, even, all, or numbers and ranges "
                          "such as 1-20,33)",
                          spec, why),
              ExitCode::kUsage);
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())) != 0) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())) != 0) {
    text.remove_suffix(1);
  }
  return text;
}

int parse_number(std::string_view spec, std::string_view item, std::string_view text) {
  text = trim(text);
  int value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) {
    bad_spec(spec, fmt::format("'{}' is not a problem number or range", item));
  }
  if (value < 1) bad_spec(spec, fmt::format("'{}': problem numbers start at 1", item));
  return value;
}

void parse_item(std::string_view spec, std::string_view item, ProblemSpec& out) {
  if (item.empty()) bad_spec(spec, "an empty item");
  if (item == "all") {
    out.all = true;
  } else if (item == "odd") {
    out.odd = true;
  } else if (item == "even") {
    out.even = true;
  } else if (const std::size_t dash = item.find('-'); dash != std::string_view::npos) {
    const int from = parse_number(spec, item, item.substr(0, dash));
    const int to = parse_number(spec, item, item.substr(dash + 1));
    if (to < from) bad_spec(spec, fmt::format("'{}' ends before it starts", item));
    out.ranges.emplace_back(from, to);
  } else {
    const int n = parse_number(spec, item, item);
    out.ranges.emplace_back(n, n);
  }
}

fs::path level_dir(const std::string& kernelbench_dir, int level) {
  const std::string name = fmt::format("level{}", level);
  for (const fs::path& dir :
       {fs::path(kernelbench_dir) / name, fs::path(kernelbench_dir) / "KernelBench" / name}) {
    if (fs::is_directory(dir)) return dir;
  }
  throw Error("kernelopt.usage",
              fmt::format("{}: no {} folder (looked for {}/{} and {}/KernelBench/{})",
                          kernelbench_dir, name, kernelbench_dir, name, kernelbench_dir, name),
              ExitCode::kUsage);
}

}  // namespace

bool ProblemSpec::selects(int number) const {
  if (all || (odd && number % 2 == 1) || (even && number % 2 == 0)) return true;
  return std::any_of(ranges.begin(), ranges.end(), [number](const auto& range) {
    return range.first <= number && number <= range.second;
  });
}

ProblemSpec parse_problem_spec(std::string_view text) {
  const std::string_view spec = trim(text);
  if (spec.empty()) bad_spec(text, "it is empty");
  ProblemSpec out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = spec.find(',', start);
    const std::string_view item =
        trim(spec.substr(start, comma == std::string_view::npos ? spec.npos : comma - start));
    parse_item(spec, item, out);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

std::string BenchProblem::key() const {
  return fmt::format("level{}/{}", level, name);
}

std::string BenchProblem::document_name() const {
  return fmt::format("level{}_{}.json", level, name);
}

int problem_number(std::string_view name) {
  int value = 0;
  const auto [ptr, ec] = std::from_chars(name.data(), name.data() + name.size(), value);
  if (ec != std::errc() || ptr == name.data()) return -1;
  return value;
}

std::vector<BenchProblem> find_problems(const std::string& kernelbench_dir,
                                        int level,
                                        const ProblemSpec& spec) {
  const fs::path dir = level_dir(kernelbench_dir, level);
  std::vector<BenchProblem> out;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const fs::path& path = entry.path();
    const std::string stem = path.stem().string();
    const std::size_t digits = stem.find_first_not_of("0123456789");
    const int number = problem_number(stem);
    if (path.extension() != ".py" || number < 0 || digits == std::string::npos ||
        stem[digits] != '_' || !spec.selects(number)) {
      continue;
    }
    out.push_back({level, number, stem, path.string()});
  }
  std::sort(out.begin(), out.end(), [](const BenchProblem& a, const BenchProblem& b) {
    return a.number != b.number ? a.number < b.number : a.name < b.name;
  });
  if (out.empty()) {
    throw Error("kernelopt.usage",
                fmt::format("{}: no problem file N_*.py matches the selection", dir.string()),
                ExitCode::kUsage);
  }
  return out;
}

}  // namespace kernelopt::engine
