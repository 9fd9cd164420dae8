#include "kernelopt/engine/bench_ray.hpp"

#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "kernelopt/core/check.hpp"
#include "kernelopt/core/error.hpp"
#include "kernelopt/engine/ask.hpp"
#include "kernelopt/engine/bench_document.hpp"
#include "kernelopt/engine/files.hpp"

namespace kernelopt::engine {

namespace fs = std::filesystem;

namespace {

constexpr std::chrono::milliseconds kStartDeadline{120000};
constexpr const char* kSubject = "the Ray driver";

worker::WorkerOptions driver_options() {
  worker::WorkerOptions options = default_options();
  options.argv.back() = "kernelopt.ray_executor";  // {python, "-m", "kernelopt.worker"}
  options.startup_timeout = kStartDeadline;
  return options;
}

// An Error of the driver's own (Ray missing, no cluster) as the environment's, exit 6.
nlohmann::json ask_environment(worker::Worker& worker,
                               const nlohmann::json& request,
                               std::chrono::milliseconds deadline) {
  try {
    return ask(worker, request, deadline, kSubject);
  } catch (const Error& error) {
    if (error.tag() != "kernelopt.ray") throw;
    throw Error("kernelopt.ray", error.what(), ExitCode::kEnvironment);
  }
}

// The variables that place this installation, passed on to the nodes' engines.
nlohmann::json installation_env() {
  nlohmann::json env = nlohmann::json::object();
  for (const char* name : {"KERNELOPT_PYTHON", "KERNELOPT_PYTHON_DIR", "KERNELOPT_CACHE_DIR"}) {
    if (const char* value = std::getenv(name); value != nullptr && *value != '\0') {
      env[name] = value;
    }
  }
  return env;
}

// The node's document, or a failed one in its place when none came back; named by its node.
nlohmann::json node_document(const BenchProblem& problem, const RayFinished& finished) {
  const nlohmann::json& doc = finished.document;
  nlohmann::json out;
  if (doc.is_object() && doc.contains("status") && doc.contains("outcome") &&
      doc.contains("cost")) {
    out = doc;
  } else {
    const std::string why =
        finished.failure.empty() ? "the node returned no bench document" : finished.failure;
    out = failed_document(problem,
                          finished.failure_tag.empty() ? "kernelopt.worker" : finished.failure_tag,
                          fmt::format("{}: {}", problem.path, why), {});
  }
  if (!finished.node.empty()) out["cost"]["node"] = finished.node;  // unknown for a lost task
  return out;
}

}  // namespace

RayDriver::RayDriver() : worker_(driver_options()) {
  ask_environment(worker_, {{"op", "hello"}}, kStartDeadline);
}

RayDriver::~RayDriver() {
  // A failed shutdown is no error of the run: the worker is killed below either way.
  if (worker_.running()) worker_.request({{"op", "shutdown"}}, kStartDeadline);
  worker_.kill();
}

std::vector<RayNode> RayDriver::connect(const std::string& address) {
  const nlohmann::json reply = ask_environment(
      worker_,
      {{"op", "connect"},
       {"address", address.empty() ? nlohmann::json(nullptr) : nlohmann::json(address)}},
      kStartDeadline);
  std::vector<RayNode> nodes;
  for (const auto& node : reply.at("nodes")) {
    const nlohmann::json& accelerator = node.at("accelerator");
    nodes.push_back({node.value("name", "?"), node.value("address", "?"), node.value("gpus", 0),
                     node.value("cpus", 0),
                     accelerator.is_string() ? accelerator.get<std::string>() : ""});
  }
  return nodes;
}

void RayDriver::submit(const std::vector<BenchProblem>& problems,
                       const BenchCommand& command,
                       bool gpu) {
  nlohmann::json list = nlohmann::json::array();
  for (const BenchProblem& problem : problems) {
    list.push_back({{"key", problem.key()},
                    {"level", problem.level},
                    {"file", fs::path(problem.path).filename().string()},
                    {"text", read_file(problem.path)},
                    {"path", problem.path},
                    {"document", problem.document_name()}});
  }
  ask(worker_,
      {{"op", "submit"},
       {"engine", fs::read_symlink("/proc/self/exe").string()},
       {"env", installation_env()},
       {"args", node_arguments(command)},
       {"gpu", gpu},
       {"retries", kRayRetries},
       {"run_dir", command.run_dir},
       {"problems", std::move(list)}},
      kStartDeadline, kSubject);
}

RayFinished RayDriver::next(std::chrono::milliseconds deadline) {
  const nlohmann::json reply = ask(worker_, {{"op", "next"}}, deadline, kSubject);
  RayFinished out;
  out.key = reply.at("key").get<std::string>();
  out.node = reply.value("node", "");
  if (reply.contains("document") && reply.at("document").is_object()) {
    out.document = reply.at("document");
  } else if (reply.contains("lost")) {
    out.failure_tag = "kernelopt.crash";
    out.failure = fmt::format(
        "its Ray task was lost with its process or node on its first try and on each of Ray's {} "
        "retries: {}",
        kRayRetries, reply.value("lost", ""));
  } else {
    out.failure_tag = "kernelopt.worker";
    out.failure = reply.value("error", "the Ray task returned nothing");
  }
  return out;
}

void RayDriver::run(const std::vector<BenchProblem>& problems,
                    const BenchCommand& command,
                    bool gpu,
                    const Finish& finish) {
  std::map<std::string, const BenchProblem*> by_key;
  for (const BenchProblem& problem : problems) {
    by_key[problem.key()] = &problem;
  }
  submit(problems, command, gpu);
  const auto deadline = std::chrono::duration_cast<std::chrono::milliseconds>(
      (2 * command.timeout + std::chrono::minutes(15)) * (kRayRetries + 1));
  for (std::size_t done = 0; done < problems.size(); ++done) {
    const RayFinished finished = next(deadline);
    const auto it = by_key.find(finished.key);
    KO_CHECK(it != by_key.end());
    finish(*it->second, node_document(*it->second, finished));
  }
}

std::vector<std::string> node_arguments(const BenchCommand& command) {
  std::vector<std::string> args = {"--timeout", std::to_string(command.timeout.count()), "--iters",
                                   std::to_string(command.iters)};
  if (!command.search) return args;
  args.insert(args.end(),
              {"--search", "--gate-timeout", std::to_string(command.gate_timeout.count()),
               "--samples", std::to_string(command.samples)});
  std::istringstream flags(search_flags_text(command.flags));
  for (std::string word; flags >> word;) {
    args.push_back(word);
  }
  if (!command.flags.cache_dir.empty()) {
    args.insert(args.end(), {"--cache", command.flags.cache_dir});
  }
  return args;
}

std::string describe_cluster(const std::vector<RayNode>& nodes) {
  int gpus = 0;
  std::string list;
  for (const RayNode& node : nodes) {
    gpus += node.gpus;
    const std::string what = node.gpus == 0
                                 ? fmt::format("{} CPUs", node.cpus)
                                 : fmt::format("{} x {}", node.gpus,
                                               node.accelerator.empty() ? "GPU" : node.accelerator);
    list += fmt::format("{}{} ({})", list.empty() ? "" : ", ", node.name, what);
  }
  return fmt::format("{} node{}, {} GPU{}: {}", nodes.size(), nodes.size() == 1 ? "" : "s", gpus,
                     gpus == 1 ? "" : "s", list);
}

}  // namespace kernelopt::engine
