#include "kernelopt/profile/ncu.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace kernelopt::profile {

namespace fs = std::filesystem;

namespace {

// One CSV line's fields ("a","b,c" -> a | b,c); doubled quotes inside a field are one quote.
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out;
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.push_back(field);
      field.clear();
    } else if (c != '\r') {
      field += c;
    }
  }
  out.push_back(field);
  return out;
}

// "1,024.50" -> 1024.5; nullopt when not a number.
std::optional<double> number(const std::string& text) {
  std::string digits;
  for (const char c : text) {
    if (c != ',') digits += c;
  }
  if (digits.empty()) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(digits.c_str(), &end);
  if (end == digits.c_str() || *end != '\0') return std::nullopt;
  return value;
}

std::string quoted(const std::string& arg) {
  std::string out = "'";
  for (const char c : arg) {
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return out + "'";
}

}  // namespace

std::map<std::string, KernelCounters> parse_ncu_csv(const std::string& text) {
  std::map<std::string, KernelCounters> out;
  std::istringstream lines(text);
  std::string line;
  std::vector<std::string> header;
  std::size_t kernel_col = 0;
  std::size_t id_col = 0;
  std::size_t name_col = 0;
  std::size_t value_col = 0;
  std::map<std::string, std::string> last_id;  // kernel -> the launch ID whose rows it holds
  while (std::getline(lines, line)) {
    if (line.empty() || line.front() != '"') continue;
    const std::vector<std::string> fields = csv_fields(line);
    if (header.empty()) {
      const auto col = [&](const char* name) -> std::optional<std::size_t> {
        for (std::size_t i = 0; i < fields.size(); ++i) {
          if (fields[i] == name) return i;
        }
        return std::nullopt;
      };
      const auto k = col("Kernel Name");
      const auto id = col("ID");
      const auto m = col("Metric Name");
      const auto v = col("Metric Value");
      if (!k || !id || !m || !v) continue;  // not the header yet
      header = fields;
      kernel_col = *k;
      id_col = *id;
      name_col = *m;
      value_col = *v;
      continue;
    }
    // A metric row may stop after its value (no rule columns), with or without a trailing comma.
    if (fields.size() <= std::max({kernel_col, id_col, name_col + 1, value_col})) continue;
    const std::string& kernel = fields[kernel_col];
    auto& held = last_id[kernel];
    if (held != fields[id_col]) {
      held = fields[id_col];
      out[kernel] = {};  // a later launch of the same kernel: its rows replace the earlier ones
    }
    const auto value = number(fields[value_col]);
    if (!value) continue;
    KernelCounters& c = out[kernel];
    const std::string& metric = fields[name_col];
    if (metric == "Memory Throughput" && fields[name_col + 1] == "%") c.memory_pct = *value;
    if (metric == "Compute (SM) Throughput") c.compute_pct = *value;
    if (metric == "Achieved Occupancy") c.achieved_occupancy = *value;
    if (metric == "Theoretical Occupancy") c.theoretical_occupancy = *value;
    if (metric == "Registers Per Thread") c.registers = static_cast<int>(*value);
    if (metric == "Grid Size") c.grid_size = *value;
    if (metric == "Duration") {
      static const std::map<std::string, double> to_us = {
          {"ns", 1e-3}, {"nsecond", 1e-3}, {"us", 1.0}, {"usecond", 1.0},
          {"ms", 1e3},  {"msecond", 1e3},  {"s", 1e6},  {"second", 1e6}};
      const auto unit = to_us.find(fields[name_col + 1]);
      if (unit != to_us.end()) c.duration_us = *value * unit->second;
    }
  }
  return out;
}

std::string kernel_filter(const std::vector<std::string>& kernels) {
  std::vector<std::string> names;
  for (const std::string& k : kernels) {
    const bool identifier = !k.empty() && std::all_of(k.begin(), k.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
    });
    if (identifier && std::find(names.begin(), names.end(), k) == names.end()) names.push_back(k);
  }
  if (names.empty()) return "regex:triton_";
  return fmt::format("regex:({})", fmt::join(names, "|"));
}

NcuProfile run_ncu(const worker::WorkerOptions& worker,
                   const std::string& problem,
                   const std::string& scratch,
                   std::chrono::seconds timeout,
                   const std::vector<std::string>& kernels) {
  NcuProfile profile;
  fs::create_directories(scratch);
  const fs::path csv = fs::path(scratch) / "ncu.csv";
  const fs::path log = fs::path(scratch) / "ncu.log";
  std::string command = "env";
  for (const std::string& e : worker.env) {
    command += " " + quoted(e);
  }
  command += fmt::format(
      " timeout -s KILL {} ncu --clock-control none --nvtx --nvtx-include 'kernelopt/' "
      "--kernel-name {} --section SpeedOfLight --section Occupancy "
      "--section LaunchStats --csv",
      timeout.count(), quoted(kernel_filter(kernels)));
  // The worker's interpreter with `-m kernelopt.worker.ncu_target` instead of its module.
  if (worker.argv.empty()) {
    profile.error = "no Python interpreter to run";
    return profile;
  }
  command += " " + quoted(worker.argv.front()) + " -m kernelopt.worker.ncu_target " +
             quoted(fs::absolute(problem).string()) + " > " + quoted(csv.string()) + " 2> " +
             quoted(log.string());
  const auto start = std::chrono::steady_clock::now();
  const int status = std::system(command.c_str());
  profile.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::ifstream in(csv);
  std::ostringstream text;
  text << in.rdbuf();
  profile.kernels = parse_ncu_csv(text.str());
  if (profile.kernels.empty()) {
    std::ifstream err(log);
    std::string last;
    for (std::string l; std::getline(err, l);) {
      if (l.empty()) continue;
      last = l;
      std::transform(l.begin(), l.end(), l.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      if (l.find("out of memory") != std::string::npos) profile.out_of_memory = true;
    }
    profile.error = fmt::format("ncu read no counters (exit status {}){}", WEXITSTATUS(status),
                                last.empty() ? "" : ": " + last);
  }
  return profile;
}

bool ncu_needs_room(double free_bytes, double peak_bytes) {
  constexpr double kNcuProcessBytes = 1024.0 * 1024.0 * 1024.0;
  return free_bytes > 0 && peak_bytes > 0 && free_bytes < peak_bytes + kNcuProcessBytes;
}

NcuProfile run_ncu_with_room(const worker::WorkerOptions& worker,
                             const std::string& problem,
                             const std::string& scratch,
                             std::chrono::seconds timeout,
                             const std::vector<std::string>& kernels,
                             const std::function<bool()>& release,
                             bool release_first) {
  constexpr double kMinRetryS = 10;
  const bool released_first = release_first && release && release();
  NcuProfile first = run_ncu(worker, problem, scratch, timeout, kernels);
  first.released_first = released_first;
  const double left_s = static_cast<double>(timeout.count()) - first.seconds;
  if (released_first || !first.out_of_memory || left_s < kMinRetryS || !release || !release()) {
    return first;
  }
  NcuProfile again = run_ncu(worker, problem, scratch,
                             std::chrono::seconds(static_cast<std::int64_t>(left_s)), kernels);
  again.seconds += first.seconds;
  again.retried = true;
  return again;
}

}  // namespace kernelopt::profile
