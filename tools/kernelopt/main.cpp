// The kernelopt CLI: parses arguments and calls the engine. Errors are caught once, here.
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "kernelopt/core/error.hpp"
#include "kernelopt/engine/bench.hpp"
#include "kernelopt/engine/commands.hpp"
#include "kernelopt/engine/remeasure.hpp"

namespace {

// The search's beam, budget and ablation switches, shared by optimize and bench.
void add_search_flags(CLI::App* cmd,
                      kernelopt::engine::SearchFlags& flags,
                      const std::string& pre) {
  cmd->add_option("--beam-width", flags.beam_width, pre + "candidates kept per round (default 3)")
      ->check(CLI::Range(1, 64));
  cmd->add_option("--rounds", flags.rounds, pre + "rounds of the beam search (default 5)")
      ->check(CLI::Range(1, 100));
  cmd->add_option("--budget", flags.budget_s,
                  pre + "seconds of GPU time for a problem's search (default 180)")
      ->check(CLI::Range(1.0, 86400.0));
  cmd->add_flag("--no-beam", flags.no_beam, pre + "ablation: a beam of one, no diversity (greedy)");
  cmd->add_flag("--no-profile", flags.no_profile,
                pre + "ablation: no Nsight Compute counters for the analyst");
  cmd->add_flag("--no-memory", flags.no_memory, pre + "ablation: the summarizer remembers nothing");
  cmd->add_flag("--no-perf-gate", flags.no_perf_gate,
                pre + "ablation: G4 measures but rejects nothing");
  cmd->add_flag("--no-dispatch-aware", flags.no_dispatch_aware,
                pre + "ablation: vendor matrix products (extern mm/addmm/bmm) become replaceable");
  cmd->add_flag("--split-segments", flags.split_segments,
                pre +
                    "every Triton launch a segment of its own: config and rewrite reach "
                    "kernels among others (recipes spanning launches then match nothing)");
  cmd->add_option("--cache", flags.cache_dir,
                  pre +
                      "folder of the cache of verified segments, reused across runs and models "
                      "(default: $KERNELOPT_CACHE_DIR, else the user's cache folder)");
  cmd->add_flag("--no-cache", flags.no_cache,
                pre + "neither reuse nor record verified segments (search every segment)");
  cmd->add_flag("--vendor", flags.vendor,
                pre +
                    "also try the vendor knobs that are settings alone (cuDNN's algorithm by "
                    "measurement, cuBLASLt), each gated on top of the chosen set (docs/vendor.md)");
  cmd->add_option("--llm", flags.llm,
                  pre +
                      "also let a language model write candidates: anthropic:MODEL or "
                      "openai:MODEL (key from ANTHROPIC_API_KEY / OPENAI_API_KEY; docs/llm.md)");
  cmd->add_option("--llm-base-url", flags.llm_base_url,
                  pre +
                      "an OpenAI-compatible server (vLLM, SGLang, Ollama, llama.cpp), e.g. "
                      "http://localhost:8000/v1");
  cmd->add_option("--llm-max-tokens", flags.llm_max_tokens,
                  pre + "tokens the language model may spend on a problem (default: no limit)")
      ->check(CLI::Range(0L, 1000000000000L));
  cmd->add_option("--llm-record", flags.llm_record,
                  pre + "keep every language-model request and response in this folder");
  cmd->add_option("--llm-replay", flags.llm_replay,
                  pre + "answer from this folder's recordings: no network, no key");
  cmd->add_option("--llm-price", flags.llm_price,
                  pre + "IN,OUT: USD per million input and output tokens, for the cost");
}

}  // namespace

int main(int argc, char** argv) {
  using kernelopt::engine::CheckCommand;
  using kernelopt::engine::ShowCommand;
  CLI::App app{"kernelopt: faster Triton kernels for torch.compile'd models"};
  app.set_version_flag("--version", std::string(KERNELOPT_VERSION));
  app.require_subcommand(1);

  auto* doctor = app.add_subcommand("doctor", "what works here: GPU, driver, torch, triton, ncu");

  ShowCommand show;
  long show_timeout = 1800;
  auto* show_cmd = app.add_subcommand("show", "compile, then print the dispatch map with times");
  show_cmd->add_option("problems", show.problems, "problem file(s) in KernelBench's format")
      ->required();
  show_cmd->add_option("--json", show.json, "write JSON: a file, or a folder for several problems");
  show_cmd->add_option("--markdown", show.markdown, "write a Markdown table over the problems");
  show_cmd->add_option("-o,--run-dir", show.options.run_dir, "keep the captured output code here");
  show_cmd->add_option("--iters", show.options.iters, "timed calls per measurement")
      ->check(CLI::Range(3, 10000));
  show_cmd->add_option("--seeds", show.options.seeds, "seeds captured")->check(CLI::Range(1, 16));
  show_cmd->add_option("--timeout", show_timeout, "seconds allowed for each load/capture step")
      ->check(CLI::Range(1, 86400));
  show_cmd->add_flag("-q,--quiet", show.quiet, "no progress lines");
  show_cmd->add_flag("--vendor", show.options.time_knobs,
                     "also time each vendor knob that applies and runs around the compiled graphs "
                     "(docs/vendor.md) against the compiler's defaults");
  show_cmd->add_flag("--references", show.options.references,
                     "also run the float64 eager reference and report the errors against it");

  std::vector<std::string> table_files;
  auto* table_cmd = app.add_subcommand("table", "a Markdown table over show JSON files");
  table_cmd->add_option("files", table_files, "JSON files written by show --json")->required();

  kernelopt::engine::VerifyCommand verify;
  long verify_timeout = 1800;
  long gate_timeout = 600;
  auto* verify_cmd = app.add_subcommand("verify", "run the gates on hand-written candidates");
  verify_cmd->add_option("problem", verify.options.problem, "problem file")->required();
  verify_cmd->add_option("--candidate", verify.candidates, "SEGMENT=FILE (e.g. seg2=k.py)")
      ->required();
  verify_cmd->add_option("-o,--run-dir", verify.options.run_dir,
                         "run directory (store, optimized/); default runs/verify/NAME");
  verify_cmd->add_option("--json", verify.json, "also write the verdicts as JSON");
  verify_cmd->add_flag("--each", verify.options.each,
                       "check every candidate alone (G1-G4 each), sharing one capture");
  verify_cmd->add_option("--timeout", verify_timeout, "seconds for load and capture")
      ->check(CLI::Range(1, 86400));
  verify_cmd->add_option("--gate-timeout", gate_timeout, "seconds for each gate request")
      ->check(CLI::Range(1, 86400));
  verify_cmd
      ->add_option("--samples", verify.options.thresholds.samples,
                   "timing samples per side in the performance gate")
      ->check(CLI::Range(5, 10000));
  verify_cmd
      ->add_option("--sanitize", verify.options.thresholds.sanitize,
                   "G2 also runs each candidate's first seed under compute-sanitizer (memcheck or "
                   "racecheck)")
      ->check(CLI::IsMember({"memcheck", "racecheck"}));

  kernelopt::engine::VerifyCommand optimize;
  optimize.optimize = true;
  long optimize_timeout = 1800;
  long optimize_gate_timeout = 600;
  auto* optimize_cmd = app.add_subcommand(
      "optimize", "search for faster segments (recipes), gate them, write optimized/");
  optimize_cmd->add_option("problem", optimize.options.problem, "problem file")->required();
  optimize_cmd->add_option("-o,--run-dir", optimize.options.run_dir,
                           "run directory (store, candidates/, optimized/); default "
                           "runs/optimize/NAME");
  optimize_cmd->add_option("--json", optimize.json, "also write the result as JSON");
  optimize_cmd->add_option("--timeout", optimize_timeout, "seconds for load and capture")
      ->check(CLI::Range(1, 86400));
  optimize_cmd->add_option("--gate-timeout", optimize_gate_timeout, "seconds for each gate request")
      ->check(CLI::Range(1, 86400));
  optimize_cmd
      ->add_option("--samples", optimize.options.thresholds.samples,
                   "timing samples per side in the performance gate")
      ->check(CLI::Range(5, 10000));
  optimize_cmd
      ->add_option("--sanitize", optimize.options.thresholds.sanitize,
                   "G2 also runs each candidate's first seed under compute-sanitizer (memcheck or "
                   "racecheck)")
      ->check(CLI::IsMember({"memcheck", "racecheck"}));
  optimize_cmd
      ->add_option("--deployed-iters", optimize.deployed_iters,
                   "calls of each side when the written module is timed as deployed: "
                   "kernelopt.load against torch.compile(mode=\"max-autotune\") (default 200)")
      ->check(CLI::Range(5, 100000));
  optimize_cmd->add_flag_callback(
      "--no-deployed", [&optimize] { optimize.deployed_iters = 0; },
      "do not time the written module as deployed");
  kernelopt::engine::SearchFlags optimize_flags;
  add_search_flags(optimize_cmd, optimize_flags, "");

  CheckCommand check;
  long check_timeout = 600;
  auto* check_cmd = app.add_subcommand("check", "load and validate a problem file");
  check_cmd->add_option("problem", check.problem, "problem file")->required();
  check_cmd->add_option("--device", check.device, "cuda or cpu (default: cuda when present)")
      ->check(CLI::IsMember({"cuda", "cpu"}));
  check_cmd->add_option("--timeout", check_timeout, "seconds allowed")->check(CLI::Range(1, 86400));

  kernelopt::engine::BenchCommand bench;
  long bench_timeout = 1800;
  long bench_gate_timeout = 120;
  auto* bench_cmd = app.add_subcommand(
      "bench", "many KernelBench problems, baseline-only or with the search, resumable");
  bench_cmd
      ->add_option("kernelbench", bench.kernelbench_dir,
                   "folder with levelN/ (or KernelBench/levelN/)")
      ->required();
  bench_cmd->add_option("--level", bench.level, "KernelBench level")
      ->required()
      ->check(CLI::Range(1, 99));
  bench_cmd->add_option("--problems", bench.problems, "odd, even, all, or ranges like 1-20,33")
      ->required();
  bench_cmd->add_option("-o,--run-dir", bench.run_dir, "run directory (rerun it to resume)")
      ->required();
  bench_cmd
      ->add_option("--timeout", bench_timeout,
                   "seconds for a problem's baseline, and as many again for its search (from the "
                   "search's start); then its worker is killed")
      ->check(CLI::Range(1, 86400));
  bench_cmd->add_option("--iters", bench.iters, "timed calls per measurement")
      ->check(CLI::Range(3, 10000));
  bench_cmd->add_flag("-q,--quiet", bench.quiet, "one log line per problem instead of a bar");
  bench_cmd->add_flag("--search", bench.search,
                      "run the offline search (optimize) on every optimizable problem");
  bench_cmd
      ->add_option("--gate-timeout", bench_gate_timeout, "with --search: seconds per gate request")
      ->check(CLI::Range(1, 86400));
  bench_cmd->add_option("--samples", bench.samples, "with --search: G4 timing samples per side")
      ->check(CLI::Range(5, 100000));
  add_search_flags(bench_cmd, bench.flags, "with --search: ");
  bench_cmd
      ->add_option("--executor", bench.executor,
                   "where problems run: thread (each GPU here) or ray (a Ray cluster's GPUs)")
      ->check(CLI::IsMember({"thread", "ray"}));
  bench_cmd->add_option("--ray-address", bench.ray_address,
                        "with --executor ray: the cluster (default: $RAY_ADDRESS, else a new "
                        "one on this machine)");

  kernelopt::engine::RemeasureCommand remeasure;
  long remeasure_timeout = 1800;
  auto* remeasure_cmd = app.add_subcommand(
      "remeasure", "time accepted replacements again against the baseline, in a fresh run");
  remeasure_cmd
      ->add_option("run_dir", remeasure.run_dir,
                   "an optimize/verify run (with optimized/) or a bench run directory")
      ->required();
  remeasure_cmd->add_option("--samples", remeasure.samples, "replays per side")
      ->check(CLI::Range(5, 100000));
  remeasure_cmd->add_option("--timeout", remeasure_timeout, "seconds for each request")
      ->check(CLI::Range(1, 86400));
  remeasure_cmd->add_option("--json", remeasure.json, "also write the document here");
  remeasure_cmd->add_flag("--again", remeasure.again,
                          "time every replacement, also those the run's remeasure.json has");

  kernelopt::engine::MatchCommand match;
  auto* match_cmd = app.add_subcommand(
      "match", "offline: which strategies the search would try on captured output code");
  match_cmd
      ->add_option("files", match.files,
                   "Inductor output code, or a run folder (show -o RUN keeps graphs/graph_N.py)")
      ->required()
      ->check(CLI::ExistingPath);
  match_cmd->add_option("--json", match.json, "also write the document here");
  match_cmd->add_option("--write", match.write,
                        "also write each strategy's first candidate file into this folder");
  match_cmd->add_flag("--split-segments", match.split_segments,
                      "every Triton launch a segment of its own");

  kernelopt::engine::ReportCommand report;
  auto* report_cmd = app.add_subcommand("report", "Table 1, plots and comparisons of bench runs");
  report_cmd->add_option("run_dirs", report.run_dirs, "run directory (several with --compare)")
      ->required();
  report_cmd->add_flag("--compare", report.compare, "compare runs side by side (Markdown)");
  report_cmd->add_option("-o,--output", report.output, "with --compare: also write it here");

  CLI11_PARSE(app, argc, argv);
  try {
    if (*doctor) return kernelopt::engine::doctor_command();
    if (*show_cmd) {
      show.options.timeout = std::chrono::seconds(show_timeout);
      return kernelopt::engine::show_command(show);
    }
    if (*table_cmd) return kernelopt::engine::table_command(table_files);
    if (*verify_cmd) {
      verify.options.timeout = std::chrono::seconds(verify_timeout);
      verify.options.gate_timeout = std::chrono::seconds(gate_timeout);
      return kernelopt::engine::verify_command(verify);
    }
    if (*optimize_cmd) {
      kernelopt::engine::configure_llm_flags(optimize_flags);
      kernelopt::engine::apply_search_flags(optimize_flags, optimize.options);
      optimize.options.timeout = std::chrono::seconds(optimize_timeout);
      optimize.options.gate_timeout = std::chrono::seconds(optimize_gate_timeout);
      return kernelopt::engine::verify_command(optimize);
    }
    if (*bench_cmd) {
      kernelopt::engine::configure_llm_flags(bench.flags);
      bench.timeout = std::chrono::seconds(bench_timeout);
      bench.gate_timeout = std::chrono::seconds(bench_gate_timeout);
      return kernelopt::engine::bench_command(bench);
    }
    if (*report_cmd) return kernelopt::engine::report_command(report);
    if (*match_cmd) return kernelopt::engine::match_command(match);
    if (*remeasure_cmd) {
      remeasure.timeout = std::chrono::seconds(remeasure_timeout);
      return kernelopt::engine::remeasure_command(remeasure);
    }
    check.timeout = std::chrono::seconds(check_timeout);
    return kernelopt::engine::check_command(check);
  } catch (const kernelopt::Error& error) {
    std::fprintf(stderr, "kernelopt: error: [%s] %s\n", error.tag().c_str(), error.what());
    return static_cast<int>(error.code());
  } catch (const std::exception& error) {
    std::fprintf(stderr, "kernelopt: internal error: %s\n", error.what());
    return static_cast<int>(kernelopt::ExitCode::kFailure);
  }
}
