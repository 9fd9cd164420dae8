// optimize's deployed timing (engine/deployed.hpp), against the scripted worker
// (tests/fixtures/workers/vendor_worker.py), the real one needing a GPU: the request goes to a
// fresh worker process with the module's folder, and the samples are judged as G4 judges them.
#include "kernelopt/engine/deployed.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "store_temp_dir.hpp"

namespace kernelopt {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

worker::WorkerOptions scripted(const fs::path& requests) {
  const std::string source = KERNELOPT_SOURCE_DIR;
  worker::WorkerOptions o;
  o.argv = {"python3", source + "/tests/fixtures/workers/vendor_worker.py"};
  o.env = {"KERNELOPT_PYTHON_DIR=" + source + "/python", "KO_REQUESTS=" + requests.string(),
           "PYTHONUNBUFFERED=1"};
  return o;
}

class Deployed : public store::TempDirTest {};

TEST_F(Deployed, AFreshWorkerTimesTheModuleAndTheRatiosAreJudgedAsG4JudgesThem) {
  const fs::path optimized = dir_path() / "optimized";
  fs::create_directories(optimized);
  std::ofstream(optimized / "manifest.json") << "{}";
  worker::Worker worker(scripted(dir_path() / "requests.jsonl"));
  (void)worker.request({{"op", "hello"}}, std::chrono::milliseconds(60000));
  const int before = worker.starts();
  const json d =
      engine::measure_deployed(worker, optimized.string(), 50, std::chrono::seconds(60), "p.py");
  ASSERT_FALSE(d.contains("error")) << d.dump();
  EXPECT_EQ(worker.starts(), before + 1);  // not the search's worker: a fresh process
  EXPECT_NEAR(d.at("ratio").get<double>(), 1.25, 1e-9);
  EXPECT_LT(d.at("ratio_low").get<double>(), d.at("ratio_high").get<double>() + 1e-12);
  EXPECT_EQ(d.at("speed_class"), "faster");
  EXPECT_EQ(d.at("samples"), 50);
  EXPECT_NEAR(d.at("in_place").at("ratio").get<double>(), 1.5, 1e-9);
  EXPECT_EQ(d.at("input_bytes"), 4096);
  EXPECT_EQ(d.at("how").at("module"), "load");
  std::ifstream in(dir_path() / "requests.jsonl");
  json asked;
  for (std::string line; std::getline(in, line);) {
    json r = json::parse(line);
    if (r.value("op", "") == "time_deployed") asked = r;
  }
  EXPECT_EQ(asked.at("folder"), fs::absolute(optimized).string());
  EXPECT_EQ(asked.at("iters"), 50);
}

TEST_F(Deployed, AFailureIsRecordedNotRaised) {
  worker::Worker worker(scripted(dir_path() / "requests.jsonl"));
  const json d = engine::measure_deployed(worker, (dir_path() / "nowhere").string(), 50,
                                          std::chrono::seconds(60), "p.py");
  ASSERT_TRUE(d.contains("error")) << d.dump();
  EXPECT_NE(d.at("error").get<std::string>().find("time_deployed"), std::string::npos) << d.dump();
  EXPECT_FALSE(d.contains("ratio"));
}

}  // namespace
}  // namespace kernelopt
