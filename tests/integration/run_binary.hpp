#pragma once
// Runs a shell command (the kernelopt binary, for the integration tests) and keeps its exit code
// and its output, stdout and stderr together.
#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

namespace kernelopt::testing_support {

struct Result {
  int code = -1;
  std::string output;  // stdout and stderr together
};

inline Result shell(const std::string& command) {
  Result result;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 4096> buffer{};
  while (fgets(buffer.data(), buffer.size(), pipe) != nullptr) {
    result.output += buffer.data();
  }
  const int status = pclose(pipe);
  result.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

// The kernelopt binary built with the tests (KERNELOPT_BINARY) with these arguments.
inline Result kernelopt(const std::string& args) {
  return shell(std::string(KERNELOPT_BINARY) + " " + args);
}

}  // namespace kernelopt::testing_support
