// What `kernelopt doctor` makes of the worker's findings: its exit status (6 for a requirement
// missing or outside its range, before 4 for no GPU) and the lines naming versions and places.
#include "kernelopt/engine/doctor.hpp"

#include <string>

#include <gtest/gtest.h>

namespace kernelopt::engine {
namespace {

nlohmann::json requirement(const char* version, const char* supported, bool ok) {
  return {{"version", version}, {"supported", supported}, {"ok", ok}};
}

// A CPU-only machine with every requirement in range, as the worker describes it.
nlohmann::json findings() {
  return {{"python", "3.11.7"},
          {"python_executable", "/venv/bin/python"},
          {"kernelopt_package", "/venv/lib/python3.11/site-packages/kernelopt"},
          {"torch", "2.11.0"},
          {"triton", "3.6.0"},
          {"cuda_available", false},
          {"requirements",
           {{"torch", requirement("2.11.0", ">=2.11,<2.12", true)},
            {"triton", requirement("3.6.0", ">=3.6,<3.7", true)},
            {"numpy", requirement("2.3.5", "<2.4", true)}}}};
}

TEST(Doctor, NoGpuWithEveryRequirementInRangeIsExit4) {
  const DoctorReport report = format_doctor(findings(), "/venv/kernelopt/_engine/kernelopt");
  EXPECT_EQ(report.exit_code, 4) << report.text;
  EXPECT_NE(report.text.find("torch:       2.11.0 (supported: >=2.11,<2.12)"), std::string::npos)
      << report.text;
  EXPECT_NE(report.text.find("numpy:       2.3.5 (supported: <2.4)"), std::string::npos)
      << report.text;
  EXPECT_NE(report.text.find("python:      3.11.7 (/venv/bin/python)"), std::string::npos);
  EXPECT_NE(report.text.find("engine:      /venv/kernelopt/_engine/kernelopt"), std::string::npos);
  EXPECT_NE(report.text.find("package:     /venv/lib/python3.11/site-packages/kernelopt"),
            std::string::npos);
  // torch and Triton come first, whatever order the worker's object has.
  EXPECT_LT(report.text.find("torch:"), report.text.find("numpy:"));
}

TEST(Doctor, GpuAndRequirementsInRangeIsExit0) {
  nlohmann::json f = findings();
  f["cuda_available"] = true;
  f["gpu"] = "NVIDIA H100";
  f["compute_capability"] = "9.0";
  EXPECT_EQ(format_doctor(f, "k").exit_code, 0);
}

TEST(Doctor, ARequirementOutOfRangeOrMissingIsExit6EvenWithAGpu) {
  nlohmann::json f = findings();
  f["cuda_available"] = true;
  f["requirements"]["torch"] = requirement("2.9.1", ">=2.11,<2.12", false);
  DoctorReport report = format_doctor(f, "k");
  EXPECT_EQ(report.exit_code, 6) << report.text;
  EXPECT_NE(report.text.find("torch:       2.9.1 OUTSIDE the supported range >=2.11,<2.12"),
            std::string::npos)
      << report.text;

  f = findings();
  f.erase("triton");
  f["triton_error"] = "No module named 'triton'";
  f["requirements"]["triton"] = {{"version", nullptr}, {"supported", ">=3.6,<3.7"}, {"ok", false}};
  report = format_doctor(f, "k");
  EXPECT_EQ(report.exit_code, 6) << report.text;
  EXPECT_NE(report.text.find("triton:      missing (kernelopt needs triton >=3.6,<3.7)"),
            std::string::npos)
      << report.text;
}

TEST(Doctor, APackageThatDoesNotImportIsNotMet) {
  nlohmann::json f = findings();
  f["torch_error"] = "libcudart.so.13: cannot open shared object file";
  const DoctorReport report = format_doctor(f, "k");
  EXPECT_EQ(report.exit_code, 6) << report.text;
  EXPECT_NE(report.text.find("2.11.0 does not import: libcudart"), std::string::npos)
      << report.text;
}

TEST(Doctor, AWorkerThatChecksNoRequirementIsNotTrusted) {
  nlohmann::json f = findings();
  f.erase("requirements");
  EXPECT_EQ(format_doctor(f, "k").exit_code, 6);
}

}  // namespace
}  // namespace kernelopt::engine
