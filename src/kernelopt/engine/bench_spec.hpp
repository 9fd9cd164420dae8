// Which KernelBench problems a bench run covers: the --problems SPEC and the problem files of a
// level folder that it selects.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kernelopt::engine {

// A parsed --problems SPEC: a union of items, each `all`, `odd`, `even`, a number `N` or a range
// `A-B` (inclusive), separated by commas, e.g. "odd", "1-20,33", "even,95".
struct ProblemSpec {
  bool all = false;                         // `all` was given
  bool odd = false;                         // `odd` was given
  bool even = false;                        // `even` was given
  std::vector<std::pair<int, int>> ranges;  // `N` is {N, N}; in the order given

  // Whether problem number `number` is selected.
  bool selects(int number) const;
};

// Parses SPEC. Throws Error("kernelopt.usage", exit 2) with the offending item named for an empty
// spec or item, a word other than all/odd/even, a number that is not a positive integer, or a
// range whose end is before its start.
ProblemSpec parse_problem_spec(std::string_view text);

// One problem file of a bench run.
struct BenchProblem {
  int level = 0;     // the KernelBench level
  int number = 0;    // the N of N_name.py
  std::string name;  // the file's stem, e.g. "19_ReLU"
  std::string path;  // the file

  // The store's name of the problem, e.g. "level1/19_ReLU".
  std::string key() const;

  // The file name of its result document, e.g. "level1_19_ReLU.json".
  std::string document_name() const;
};

// The problem files N_*.py of KERNELBENCH_DIR/levelL (or KERNELBENCH_DIR/KernelBench/levelL)
// that `spec` selects, sorted by number then name. Throws Error("kernelopt.usage", exit 2) when
// no level folder exists or the spec selects no file.
std::vector<BenchProblem> find_problems(const std::string& kernelbench_dir,
                                        int level,
                                        const ProblemSpec& spec);

// The leading number of a problem name ("19_ReLU" -> 19), or -1 when it has none.
int problem_number(std::string_view name);

}  // namespace kernelopt::engine
