#include "kernelopt/engine/ask.hpp"

#include <array>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <unistd.h>

#include <fmt/format.h>

#include "kernelopt/core/error.hpp"

namespace kernelopt::engine {

namespace fs = std::filesystem;

namespace {

ExitCode code_for_tag(const std::string& tag) {
  static const std::map<std::string, ExitCode> codes = {
      {"kernelopt.problem", ExitCode::kProblem}, {"kernelopt.oom", ExitCode::kProblem},
      {"kernelopt.nogpu", ExitCode::kNoGpu},     {"kernelopt.request", ExitCode::kWorker},
      {"kernelopt.worker", ExitCode::kWorker},   {"kernelopt.env", ExitCode::kEnvironment}};
  auto it = codes.find(tag);
  return it == codes.end() ? ExitCode::kFailure : it->second;
}

std::string last_line(const std::string& text) {
  std::size_t end = text.find_last_not_of(" \n\r\t");
  if (end == std::string::npos) return "";
  std::size_t start = text.rfind('\n', end);
  start = start == std::string::npos ? 0 : start + 1;
  return text.substr(start, end - start + 1);
}

std::string describe_exit(int status) {
  if (status < 0) return fmt::format("killed by signal {}", -status);
  return fmt::format("exit status {}", status);
}

bool is_source_tree(const fs::path& dir) {
  return fs::exists(dir / "python" / "kernelopt" / "worker" / "__main__.py");
}

// `pip install` puts the binary in the package it serves: SITE/kernelopt/_engine/kernelopt.
bool is_installed_engine_dir(const fs::path& dir) {
  return dir.filename() == "_engine" && fs::exists(dir.parent_path() / "worker" / "__main__.py");
}

// The interpreter beside a package folder: the source tree's .venv, or for an installed package
// (PREFIX/lib/pythonX.Y/site-packages) PREFIX/bin/pythonX.Y, the one pip installed it for.
std::optional<fs::path> interpreter_beside(const fs::path& python_dir) {
  const fs::path venv = python_dir.parent_path() / ".venv" / "bin" / "python";
  if (fs::exists(venv)) return venv;
  const fs::path lib = python_dir.parent_path();
  if (lib.filename().string().rfind("python", 0) != 0) return std::nullopt;
  const fs::path prefix_python = lib.parent_path().parent_path() / "bin" / lib.filename();
  if (fs::exists(prefix_python)) return prefix_python;
  return std::nullopt;
}

}  // namespace

nlohmann::json ask(worker::Worker& worker,
                   const nlohmann::json& request,
                   std::chrono::milliseconds deadline,
                   const std::string& subject) {
  const std::string op = request.value("op", "?");
  worker::Reply reply = worker.request(request, deadline);
  switch (reply.failure) {
    case worker::Failure::kNone:
      break;
    case worker::Failure::kTimedOut:
      throw Error("kernelopt.timeout",
                  fmt::format("{}: hung: no answer to `{}` within {} s; the worker was killed",
                              subject, op, deadline.count() / 1000),
                  ExitCode::kProblem);
    case worker::Failure::kCrashed: {
      std::string why = last_line(worker.stderr_tail());
      throw Error("kernelopt.crash",
                  fmt::format("{}: the worker process died during `{}` ({}){}", subject, op,
                              describe_exit(reply.exit_status), why.empty() ? "" : ": " + why),
                  ExitCode::kProblem);
    }
    case worker::Failure::kBadOutput:
      throw Error(
          "kernelopt.worker",
          fmt::format("{}: the worker answered `{}` with something that is not JSON", subject, op),
          ExitCode::kWorker);
  }
  const nlohmann::json& response = reply.response;
  if (!response.value("ok", false)) {
    const nlohmann::json error = response.value("error", nlohmann::json::object());
    const std::string tag = error.value("tag", "kernelopt.worker");
    throw Error(tag, error.value("message", "the worker reported an error without a message"),
                code_for_tag(tag));
  }
  return response;
}

std::string find_python_dir() {
  if (const char* env = std::getenv("KERNELOPT_PYTHON_DIR"); env != nullptr && *env != '\0') {
    return env;
  }
  if (const std::string self = engine_binary(); !self.empty()) {
    const fs::path home = fs::path(self).parent_path();
    if (is_installed_engine_dir(home)) return home.parent_path().parent_path().string();
    for (fs::path dir = home; !dir.empty(); dir = dir.parent_path()) {
      if (is_source_tree(dir)) return (dir / "python").string();
      if (dir == dir.root_path()) break;
    }
  }
  if (is_source_tree(fs::current_path())) return (fs::current_path() / "python").string();
  throw Error("kernelopt.env",
              "cannot find the kernelopt Python package; set KERNELOPT_PYTHON_DIR to the "
              "folder that holds it",
              ExitCode::kEnvironment);
}

std::string engine_binary() {
  std::array<char, 4096> buffer{};
  const ssize_t n = readlink("/proc/self/exe", buffer.data(), buffer.size() - 1);
  return n > 0 ? std::string(buffer.data(), static_cast<std::size_t>(n)) : "";
}

worker::WorkerOptions default_options() {
  const std::string python_dir = find_python_dir();
  if (std::getenv("KERNELOPT_PYTHON") == nullptr) {
    if (const auto python = interpreter_beside(python_dir)) {
      setenv("KERNELOPT_PYTHON", python->c_str(), 0);
    }
  }
  return worker::default_worker_options(python_dir);
}

worker::WorkerOptions pinned_options(const std::string& run_dir) {
  worker::WorkerOptions options = default_options();
  options.env.push_back("TORCHINDUCTOR_CACHE_DIR=" +
                        (fs::absolute(run_dir) / "inductor-cache").lexically_normal().string());
  return options;
}

}  // namespace kernelopt::engine
