// The CLI's commands as functions: main.cpp only parses arguments and calls one of these.
#pragma once

#include <string>
#include <vector>

#include "kernelopt/engine/show.hpp"
#include "kernelopt/engine/verify.hpp"

namespace kernelopt::engine {

// `kernelopt doctor`: prints what works here; returns 0 when the GPU path can run, else 4.
int doctor_command();

struct ShowCommand {
  std::vector<std::string> problems;  // one or more problem files
  std::string json;                   // one problem: a file; several: a folder (one file each)
  std::string markdown;               // a Markdown table over all problems, or empty
  ShowOptions options;                // run_dir is a parent folder when several problems
  bool quiet = false;                 // no progress lines
};

// `kernelopt show`: each problem in a fresh worker; a failing problem prints its one-line error
// and the others go on. Returns 0 when every problem succeeded, else the first failure's code.
int show_command(const ShowCommand& command);

struct MatchCommand {
  std::vector<std::string> files;  // Inductor output code, one graph each, or folders holding
                                   // it (every graph_N.py below, as show -o RUN keeps them)
  std::string json;                // also write the document here
  bool split_segments = false;     // every Triton launch a segment of its own
  std::string write;               // also write each strategy's first candidate file here
};

// `kernelopt match`: offline, no GPU or worker: which strategies the search would try on each
// segment of captured output code (a recipe, config, rewrite, fuse), and why; with `write`, the
// candidate file each strategy would try first (its first starting settings), ready for `verify
// --candidate`. Returns 0 when every file parsed; a file that is not output code is an error
// (exit 2) and nothing is written.
int match_command(const MatchCommand& command);

// `kernelopt table`: prints a Markdown table over show documents (files written by show --json).
int table_command(const std::vector<std::string>& files);

struct VerifyCommand {
  std::vector<std::string> candidates;  // "SEGMENT=FILE"
  std::string json;                     // also write the document here
  VerifyOptions options;
  bool optimize = false;  // `optimize`: the proposers' candidates instead of hand-written ones
  // optimize: calls of each side when the written module is timed as deployed (deployed.hpp);
  // 0 (--no-deployed): not timed.
  int deployed_iters = 200;
};

// `kernelopt verify` (hand-written candidates) and `kernelopt optimize` (the search loop,
// optimize.hpp): the gate cascade. Returns 0 when the model with them was
// accepted, 1 when the compiler's kernels stay.
int verify_command(VerifyCommand command);

struct CheckCommand {
  std::string problem;
  std::string device;  // "cuda", "cpu" or empty (cuda when there is one)
  std::chrono::seconds timeout{600};
};

// `kernelopt check`: load and validate a problem file, run its forward once, print its inputs and
// outputs. Throws kernelopt::Error for a bad problem.
int check_command(const CheckCommand& command);

}  // namespace kernelopt::engine
