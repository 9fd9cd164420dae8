// G2's deferral as check_isolated asks for it, through a real worker process: a stand-in worker
// (G2's numbers come from captured segments, and capturing needs a GPU) answers `check_candidate`
// with the numbers a candidate file's name asks for and `model_check` with a compiled model that
// misses eager at 1e-4 (STANDIN_ILL=1: the smallest tolerance it meets is 0.5), matches it (0)
// or fails (broken), and logs every request.
// The compiled model's own check must be asked once a problem, and only for a failure that could be
// deferred.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

#include <gtest/gtest.h>

#include "kernelopt/gate/gate.hpp"

namespace kernelopt {
namespace {

namespace fs = std::filesystem;

const char* const kStandIn = R"PY(import json, os, sys
log = open(os.environ["STANDIN_LOG"], "a")
for line in sys.stdin:
    req = json.loads(line)
    log.write(req["op"] + "\n")
    log.flush()
    if req["op"] == "check_candidate":
        name = os.path.basename(req["candidate"])
        seeds = []
        for s in req["seeds"]:
            seed = {"seed": s, "elements": 1000000, "mismatched": 0, "max_abs_err": 1e-7,
                    "unwritten": 0, "out_of_bounds": 0, "nan_mismatch": 0, "inf_mismatch": 0,
                    "inputs_mutated": [], "replaced_outputs": [], "side_stream": False,
                    "deterministic": True}
            if name.startswith("stray"):
                seed.update(mismatched=12, max_abs_err=3e13)
            if name.startswith("unwritten") and s == 2:
                seed.update(unwritten=5)
            if name.startswith("unwritten"):
                seed.update(mismatched=12, max_abs_err=3e13)
            seeds.append(seed)
        out = {"segment": req["segment"], "load_error": None, "seeds": seeds, "skipped_seeds": [],
               "worker_exiting": False}
    elif req["op"] == "model_check" and os.environ.get("STANDIN_ILL") == "broken":
        print(json.dumps({"id": req.get("id"), "ok": False,
                          "error": {"tag": "kernelopt.problem", "message": "eager failed"}}), flush=True)
        continue
    elif req["op"] == "model_check":
        ill = os.environ.get("STANDIN_ILL") == "1"
        out = {"seeds": [{"seed": s, "baseline_tol_vs_eager": 0.5 if ill and s == 1 else 1e-7,
                          "baseline_nonfinite_match": True,
                          "baseline_max_abs_vs_eager": 2e10 if ill and s == 1 else 1e-7}
                         for s in req["seeds"]], "worker_exiting": False}
    else:
        out = {}
    print(json.dumps({"id": req.get("id"), "ok": True, **out}), flush=True)
)PY";

class DeferralWorker : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("kernelopt_deferral_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::ofstream(dir_ / "standin.py") << kStandIn;
  }

  void TearDown() override { fs::remove_all(dir_); }

  std::vector<std::string> requests() const {
    std::ifstream in(dir_ / "log.txt");
    std::vector<std::string> ops;
    for (std::string l; std::getline(in, l);) {
      ops.push_back(l);
    }
    return ops;
  }

  worker::WorkerOptions options(const std::string& ill) const {
    worker::WorkerOptions o;
    o.argv = {"python3", (dir_ / "standin.py").string()};
    o.env = {"STANDIN_LOG=" + (dir_ / "log.txt").string(), "STANDIN_ILL=" + ill};
    return o;
  }

  static gate::Candidate candidate(const std::string& name) {
    gate::Candidate c;
    c.segment = 0;
    c.path = name;
    return c;
  }

  fs::path dir_;
};

TEST_F(DeferralWorker, AnIllConditionedModelIsCheckedOnceAndItsStrayElementsDeferred) {
  worker::Worker worker(options("1"));
  gate::GateContext ctx{&worker, "p.py", std::chrono::milliseconds(60000), {}, {}, nullptr};
  const Outcome first = gate::check_isolated(ctx, candidate("stray_a.py"));
  EXPECT_TRUE(first.ok()) << first.detail;
  EXPECT_TRUE(first.numbers.value("deferred_to_float64", false));
  EXPECT_NE(first.detail.find("seed 1"), std::string::npos) << first.detail;
  const Outcome second = gate::check_isolated(ctx, candidate("stray_b.py"));
  EXPECT_TRUE(second.ok()) << second.detail;
  // a defect beside the stray elements is never deferred, and asks nothing more
  const Outcome third = gate::check_isolated(ctx, candidate("unwritten.py"));
  EXPECT_EQ(third.status, Status::kWrongResult) << third.detail;
  const Outcome clean = gate::check_isolated(ctx, candidate("clean.py"));
  EXPECT_TRUE(clean.ok());
  EXPECT_FALSE(clean.numbers.value("deferred_to_float64", false));
  const std::vector<std::string> want = {"check_candidate", "model_check", "check_candidate",
                                         "check_candidate", "check_candidate"};
  EXPECT_EQ(requests(), want);
}

TEST_F(DeferralWorker, AWellConditionedModelKeepsTheFailure) {
  worker::Worker worker(options("0"));
  gate::GateContext ctx{&worker, "p.py", std::chrono::milliseconds(60000), {}, {}, nullptr};
  const Outcome kept = gate::check_isolated(ctx, candidate("stray_a.py"));
  EXPECT_EQ(kept.status, Status::kWrongResult);
  EXPECT_NE(kept.detail.find("12 elements outside tolerance"), std::string::npos) << kept.detail;
  const Outcome clean = gate::check_isolated(ctx, candidate("clean.py"));
  EXPECT_TRUE(clean.ok());
  // a candidate that fits no deferral asks for no model check at all
  const std::vector<std::string> want = {"check_candidate", "model_check", "check_candidate"};
  EXPECT_EQ(requests(), want);
}

TEST_F(DeferralWorker, AFailedModelCheckDefersNothingAndIsNotAskedAgain) {
  worker::Worker worker(options("broken"));
  gate::GateContext ctx{&worker, "p.py", std::chrono::milliseconds(60000), {}, {}, nullptr};
  EXPECT_EQ(gate::check_isolated(ctx, candidate("stray_a.py")).status, Status::kWrongResult);
  EXPECT_EQ(gate::check_isolated(ctx, candidate("stray_b.py")).status, Status::kWrongResult);
  const std::vector<std::string> want = {"check_candidate", "model_check", "check_candidate"};
  EXPECT_EQ(requests(), want);
}

}  // namespace
}  // namespace kernelopt
