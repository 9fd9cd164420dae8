// Kill and resume, for real and without a GPU: a child process runs the gate cascade (real worker,
// real store) over four candidates and is SIGKILLed as soon as the first verdict is stored; a new
// run over the same run directory then finishes. The store must be sound at the kill, and no
// verdict stored before it may be asked for again. G1 (static compile for sm_90) runs on the CPU;
// G2 needs captured segments, which need a GPU, so here it ends every candidate as "raised".
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include <gtest/gtest.h>

#include "kernelopt/engine/ask.hpp"
#include "kernelopt/gate/cascade.hpp"
#include "kernelopt/store/store.hpp"

namespace kernelopt {
namespace {

namespace fs = std::filesystem;

nlohmann::json tensor(std::vector<int> shape, std::vector<int> stride) {
  return {{"shape", shape}, {"stride", stride}, {"dtype", "float32"}};
}

std::vector<gate::Candidate> make_candidates(const fs::path& dir) {
  const fs::path source = fs::path(KERNELOPT_SOURCE_DIR) / "tests/candidates/cpu/seg0_correct.py";
  std::ifstream in(source);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<gate::Candidate> candidates;
  for (int i = 0; i < 4; ++i) {
    const fs::path path = dir / ("candidate_" + std::to_string(i) + ".py");
    std::ofstream(path) << text << "\n# variant " << i << "\n";
    gate::Candidate c;
    c.segment = i;  // four segments, one candidate each
    c.path = path.string();
    c.tensors = {{"inputs", {{"arg0_1", tensor({8, 32}, {32, 1})}, {"arg1_1", tensor({32}, {1})}}},
                 {"outputs", {{"buf0", tensor({8, 32}, {32, 1})}}}};
    candidates.push_back(c);
  }
  return candidates;
}

gate::CascadeResult run_cascade(const fs::path& run_dir,
                                const std::vector<gate::Candidate>& candidates) {
  store::Store store = store::Store::open(run_dir.string());
  const auto problem = store.upsert_problem("resume", "resume.py");
  worker::Worker worker(engine::default_options());
  gate::GateContext context{&worker, "resume.py", std::chrono::milliseconds(120000),
                            {},      {},          nullptr};
  gate::Cascade cascade(context, &store, problem,
                        [](const std::vector<gate::Candidate>&) { return gate::Recomposed{}; });
  return cascade.run(candidates);
}

std::map<std::string, std::string> verdict_times(const fs::path& run_dir) {
  store::Store store = store::Store::open(run_dir.string());
  std::map<std::string, std::string> times;
  const auto problem = store.problem("resume");
  if (!problem) return times;
  for (const auto& c : store.candidates(problem->id)) {
    for (const auto& g : store.gate_results(c.id)) {
      times[c.key + "/" + g.gate] = g.created_at;
    }
  }
  return times;
}

TEST(CascadeResume, SigkillMidCascadeThenResume) {
  const fs::path run_dir =
      fs::temp_directory_path() / ("kernelopt_resume_" + std::to_string(getpid()));
  fs::remove_all(run_dir);
  fs::create_directories(run_dir);
  const auto candidates = make_candidates(run_dir);

  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    run_cascade(run_dir, candidates);
    _exit(0);
  }
  std::map<std::string, std::string> before;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(180);
  while (before.empty() && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (fs::exists(run_dir / "kernelopt.sqlite")) before = verdict_times(run_dir);
  }
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_FALSE(before.empty()) << "no verdict was stored in time";
  ASSERT_TRUE(WIFSIGNALED(status)) << "the cascade finished before the kill; nothing was tested";
  before = verdict_times(run_dir);  // what the killed run left, complete rows only
  EXPECT_LT(before.size(), 8U);

  const gate::CascadeResult result = run_cascade(run_dir, candidates);
  ASSERT_EQ(result.candidates.size(), 4U);
  for (const auto& c : result.candidates) {
    ASSERT_EQ(c.outcomes.size(), 2U);
    EXPECT_TRUE(c.outcomes[0].ok()) << c.outcomes[0].detail;
    EXPECT_EQ(c.outcomes[1].status, Status::kRaised) << c.outcomes[1].detail;
    // What each gate cost is kept with its numbers, the stored verdicts' included.
    EXPECT_GT(c.outcomes[0].numbers.value("gate_seconds", 0.0), 0.0) << c.outcomes[0].numbers;
  }
  EXPECT_TRUE(result.attempts.empty());
  const auto after = verdict_times(run_dir);
  EXPECT_EQ(after.size(), 8U);
  for (const auto& [key, time] : before) {
    EXPECT_EQ(after.at(key), time) << key << " was checked again after the resume";
  }
  EXPECT_EQ(store::Store::open(run_dir.string()).integrity_check(), "ok");
  fs::remove_all(run_dir);
}

}  // namespace
}  // namespace kernelopt
