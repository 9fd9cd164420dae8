// Worker against real child processes: a small Python script that misbehaves on request.
#include "kernelopt/worker/worker.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kernelopt/core/error.hpp"

namespace kernelopt::worker {
namespace {

using json = nlohmann::json;
using std::chrono::milliseconds;

constexpr milliseconds kPatience{10000};  // for requests that should succeed

// One request a line; "op" picks the behaviour.
constexpr const char* kScript = R"PY(
import json, os, subprocess, sys, time
children = []
def answer(req, **fields):
    sys.stdout.write(json.dumps(dict(id=req["id"], ok=True, **fields)) + "\n")
    sys.stdout.flush()
while True:
    line = sys.stdin.readline()
    if not line:
        break
    req = json.loads(line)
    op = req.get("op")
    if op == "echo":
        answer(req, echo=req)
    elif op == "hang":
        time.sleep(1000)
    elif op == "exit":
        sys.stderr.write("worker exiting on purpose\n")
        sys.stderr.flush()
        sys.exit(req["code"])
    elif op == "segv":
        os.kill(os.getpid(), 11)
    elif op == "garbage":
        print("this is not json", flush=True)
    elif op == "array":
        print("[1, 2]", flush=True)
    elif op == "flood":
        for _ in range(1024):
            sys.stderr.write("e" * 1023 + "\n")
        sys.stderr.write("END_OF_FLOOD\n")
        sys.stderr.flush()
        answer(req)
    elif op == "big":
        answer(req, data="x" * req["size"])
    elif op == "len":
        answer(req, size=len(req["payload"]))
    elif op == "spawn":
        children.append(subprocess.Popen(["sleep", "1000"]))
        answer(req, grandchild=children[-1].pid)
    elif op == "stale":
        sys.stdout.write(json.dumps({"id": -7, "stale": True}) + "\n")
        answer(req, fresh=True)
    elif op == "env":
        answer(req, value=os.environ.get(req["name"]))
    elif op == "bye":
        answer(req)
        sys.exit(0)
    elif op == "dying":
        answer(req, worker_exiting=True)
        time.sleep(0.5)  # a CUDA context's slow teardown; it reads nothing more
        sys.exit(3)
)PY";

std::string python() {
  const char* env = std::getenv("KERNELOPT_PYTHON");
  return env != nullptr && *env != '\0' ? env : "python3";
}

WorkerOptions script_options() {
  WorkerOptions options;
  options.argv = {python(), "-c", kScript};
  return options;
}

json op(const std::string& name) {
  return json{{"op", name}};
}

std::size_t open_fds() {
  std::size_t count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    ++count;
  }
  return count;
}

// Whether `pid` is gone or a zombie nobody reaped yet (then it is dead all the same).
bool dead(int pid) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  while (std::chrono::steady_clock::now() < until) {
    if (::kill(pid, 0) != 0 && errno == ESRCH) return true;
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    std::getline(stat, text);
    const std::size_t paren = text.rfind(')');
    if (paren != std::string::npos && paren + 2 < text.size() && text[paren + 2] == 'Z') {
      return true;
    }
    std::this_thread::sleep_for(milliseconds(20));
  }
  return false;
}

bool no_children_left() {
  int status = 0;
  return waitpid(-1, &status, WNOHANG) == -1 && errno == ECHILD;
}

TEST(Worker, EchoesWithIdsAndKeepsOneProcess) {
  Worker worker(script_options());
  EXPECT_FALSE(worker.running());
  for (int i = 0; i < 3; ++i) {
    const Reply reply = worker.request(json{{"op", "echo"}, {"n", i}}, kPatience);
    ASSERT_EQ(reply.failure, Failure::kNone) << reply.detail;
    EXPECT_EQ(reply.response["echo"]["n"], i);
    EXPECT_EQ(reply.response["id"], reply.response["echo"]["id"]);
  }
  EXPECT_TRUE(worker.running());
  EXPECT_EQ(worker.starts(), 1);
}

TEST(Worker, TimesOutKillsAndRestarts) {
  Worker worker(script_options());
  ASSERT_EQ(worker.request(op("echo"), kPatience).failure, Failure::kNone);
  const auto begin = std::chrono::steady_clock::now();
  const Reply reply = worker.request(op("hang"), milliseconds(500));
  const auto elapsed = std::chrono::steady_clock::now() - begin;
  EXPECT_EQ(reply.failure, Failure::kTimedOut);
  EXPECT_GE(elapsed, milliseconds(500));
  EXPECT_LT(elapsed, milliseconds(1500));
  EXPECT_FALSE(worker.running());
  EXPECT_NE(reply.detail.find("500 ms"), std::string::npos) << reply.detail;
  const Reply next = worker.request(op("echo"), kPatience);
  EXPECT_EQ(next.failure, Failure::kNone) << next.detail;
  EXPECT_EQ(worker.starts(), 2);
}

// options.end caps every request's own deadline, also for a process started again after the
// first was killed; after it, a request fails at once and starts no process.
TEST(Worker, EndTimeHoldsEveryProcess) {
  WorkerOptions options = script_options();
  const auto begin = std::chrono::steady_clock::now();
  options.end = begin + milliseconds(1500);
  Worker worker(options);
  ASSERT_EQ(worker.request(op("echo"), kPatience).failure, Failure::kNone);
  const Reply first = worker.request(op("hang"), milliseconds(400));  // its own deadline
  EXPECT_EQ(first.failure, Failure::kTimedOut);
  EXPECT_NE(first.detail.find("400 ms"), std::string::npos) << first.detail;
  const Reply second = worker.request(op("hang"), std::chrono::seconds(60));  // a restarted one
  const auto elapsed = std::chrono::steady_clock::now() - begin;
  EXPECT_EQ(second.failure, Failure::kTimedOut);
  EXPECT_NE(second.detail.find("end time"), std::string::npos) << second.detail;
  EXPECT_GE(elapsed, milliseconds(1500));
  EXPECT_LT(elapsed, milliseconds(4000));
  EXPECT_FALSE(worker.running());
  EXPECT_EQ(worker.starts(), 2);
  const Reply late = worker.request(op("echo"), kPatience);
  EXPECT_EQ(late.failure, Failure::kTimedOut);
  EXPECT_EQ(worker.starts(), 2);
  EXPECT_FALSE(worker.running());
}

TEST(Worker, ReportsExitCodeAndStderr) {
  Worker worker(script_options());
  const Reply reply = worker.request(json{{"op", "exit"}, {"code", 3}}, kPatience);
  EXPECT_EQ(reply.failure, Failure::kCrashed);
  EXPECT_EQ(reply.exit_status, 3);
  EXPECT_NE(reply.detail.find("exited with code 3"), std::string::npos) << reply.detail;
  EXPECT_NE(reply.detail.find("worker exiting on purpose"), std::string::npos) << reply.detail;
  EXPECT_FALSE(worker.running());
  EXPECT_EQ(worker.request(op("echo"), kPatience).failure, Failure::kNone);
  EXPECT_EQ(worker.starts(), 2);
}

TEST(Worker, ReportsDeathBySignal) {
  Worker worker(script_options());
  const Reply reply = worker.request(op("segv"), kPatience);
  EXPECT_EQ(reply.failure, Failure::kCrashed);
  EXPECT_EQ(reply.exit_status, -SIGSEGV);
  EXPECT_NE(reply.detail.find("signal 11"), std::string::npos) << reply.detail;
}

TEST(Worker, GarbageIsBadOutput) {
  Worker worker(script_options());
  for (const char* name : {"garbage", "array"}) {
    const Reply reply = worker.request(op(name), kPatience);
    EXPECT_EQ(reply.failure, Failure::kBadOutput) << name;
    EXPECT_FALSE(worker.running());
  }
  const Reply garbage = worker.request(op("garbage"), kPatience);
  EXPECT_NE(garbage.detail.find("this is not json"), std::string::npos) << garbage.detail;
  EXPECT_EQ(worker.request(op("echo"), kPatience).failure, Failure::kNone);
  EXPECT_EQ(worker.starts(), 4);
}

TEST(Worker, SkipsStaleResponses) {
  Worker worker(script_options());
  const Reply reply = worker.request(op("stale"), kPatience);
  ASSERT_EQ(reply.failure, Failure::kNone) << reply.detail;
  EXPECT_TRUE(reply.response.value("fresh", false));
}

TEST(Worker, DrainsStderrAndBoundsItsTail) {
  Worker worker(script_options());
  const Reply reply = worker.request(op("flood"), kPatience);
  ASSERT_EQ(reply.failure, Failure::kNone) << reply.detail;
  const std::string tail = worker.stderr_tail();
  EXPECT_LE(tail.size(), std::size_t{64} << 10U);
  EXPECT_GE(tail.size(), std::size_t{32} << 10U);
  EXPECT_NE(tail.find("END_OF_FLOOD"), std::string::npos);
}

TEST(Worker, CarriesLongLinesBothWays) {
  Worker worker(script_options());
  constexpr int kSize = 20 << 20;
  const Reply big = worker.request(json{{"op", "big"}, {"size", kSize}}, kPatience);
  ASSERT_EQ(big.failure, Failure::kNone) << big.detail;
  EXPECT_EQ(big.response["data"].get_ref<const std::string&>().size(), std::size_t{kSize});
  const Reply len =
      worker.request(json{{"op", "len"}, {"payload", std::string(kSize, 'y')}}, kPatience);
  ASSERT_EQ(len.failure, Failure::kNone) << len.detail;
  EXPECT_EQ(len.response["size"], kSize);
  EXPECT_EQ(worker.starts(), 1);
}

TEST(Worker, WritingToADeadWorkerIsACrash) {
  WorkerOptions options;
  options.argv = {"/bin/sh", "-c", "echo bye >&2; exit 4"};
  Worker worker(options);
  const Reply reply =
      worker.request(json{{"op", "len"}, {"payload", std::string(4 << 20, 'z')}}, kPatience);
  EXPECT_EQ(reply.failure, Failure::kCrashed);
  EXPECT_EQ(reply.exit_status, 4);
  EXPECT_NE(reply.detail.find("bye"), std::string::npos) << reply.detail;
}

TEST(Worker, KillTakesTheGrandchildren) {
  Worker worker(script_options());
  const Reply spawned = worker.request(op("spawn"), kPatience);
  ASSERT_EQ(spawned.failure, Failure::kNone) << spawned.detail;
  const int grandchild = spawned.response["grandchild"];
  ASSERT_EQ(::kill(grandchild, 0), 0);
  EXPECT_EQ(worker.request(op("hang"), milliseconds(300)).failure, Failure::kTimedOut);
  EXPECT_TRUE(dead(grandchild));

  const int second = worker.request(op("spawn"), kPatience).response["grandchild"];
  worker.kill();
  EXPECT_FALSE(worker.running());
  EXPECT_TRUE(dead(second));
  EXPECT_TRUE(no_children_left());
}

TEST(Worker, NoticesAnExitWhileAGrandchildHoldsStdout) {
  Worker worker(script_options());
  const Reply spawned = worker.request(op("spawn"), kPatience);
  ASSERT_EQ(spawned.failure, Failure::kNone) << spawned.detail;
  const auto begin = std::chrono::steady_clock::now();
  const Reply reply = worker.request(json{{"op", "exit"}, {"code", 5}}, kPatience);
  EXPECT_LT(std::chrono::steady_clock::now() - begin, milliseconds(2000));
  EXPECT_EQ(reply.failure, Failure::kCrashed);
  EXPECT_EQ(reply.exit_status, 5);
  EXPECT_TRUE(dead(spawned.response["grandchild"]));
}

TEST(Worker, RestartsAWorkerThatExitedBetweenRequests) {
  Worker worker(script_options());
  ASSERT_EQ(worker.request(op("bye"), kPatience).failure, Failure::kNone);
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (worker.running() && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(milliseconds(10));
  }
  EXPECT_FALSE(worker.running());
  EXPECT_EQ(worker.request(op("echo"), kPatience).failure, Failure::kNone);
  EXPECT_EQ(worker.starts(), 2);
}

// A worker that says it exits after this answer (the Python worker after a CUDA error) is let go
// at once: the next request goes to a fresh worker, not to the one shutting down.
TEST(Worker, LetsGoOfAWorkerThatSaysItExits) {
  Worker worker(script_options());
  ASSERT_EQ(worker.request(op("dying"), kPatience).failure, Failure::kNone);
  EXPECT_FALSE(worker.running());
  const Reply reply = worker.request(op("echo"), kPatience);
  EXPECT_EQ(reply.failure, Failure::kNone) << reply.detail;
  EXPECT_EQ(worker.starts(), 2);
}

TEST(Worker, MissingProgramThrows) {
  const std::size_t before = open_fds();
  WorkerOptions options;
  options.argv = {"/nonexistent/kernelopt-no-such-python"};
  Worker worker(options);
  try {
    worker.request(op("echo"), kPatience);
    ADD_FAILURE() << "expected kernelopt::Error";
  } catch (const Error& e) {
    EXPECT_EQ(e.tag(), "kernelopt.worker");
    EXPECT_EQ(e.code(), ExitCode::kWorker);
    EXPECT_NE(std::string(e.what()).find("kernelopt-no-such-python"), std::string::npos);
  }
  EXPECT_EQ(worker.starts(), 0);
  EXPECT_FALSE(worker.running());
  EXPECT_EQ(open_fds(), before);
}

TEST(Worker, MissingModuleIsACrashWithItsMessage) {
  WorkerOptions options;
  options.argv = {python(), "-m", "kernelopt_no_such_module"};
  Worker worker(options);
  const Reply reply = worker.request(op("echo"), kPatience);
  EXPECT_EQ(reply.failure, Failure::kCrashed);
  EXPECT_EQ(reply.exit_status, 1);
  EXPECT_NE(reply.detail.find("No module named"), std::string::npos) << reply.detail;
}

TEST(Worker, PassesExtraEnvironment) {
  ::setenv("KO_WORKER_TEST_OLD", "old", 1);
  WorkerOptions options = script_options();
  options.env = {"KO_WORKER_TEST_NEW=new", "KO_WORKER_TEST_OLD=replaced"};
  Worker worker(options);
  for (const auto& [name, value] :
       {std::pair{"KO_WORKER_TEST_NEW", "new"}, std::pair{"KO_WORKER_TEST_OLD", "replaced"},
        std::pair{"HOME", static_cast<const char*>(std::getenv("HOME"))}}) {
    if (value == nullptr) continue;
    const Reply reply = worker.request(json{{"op", "env"}, {"name", name}}, kPatience);
    ASSERT_EQ(reply.failure, Failure::kNone) << reply.detail;
    EXPECT_EQ(reply.response["value"], value) << name;
  }
  ::unsetenv("KO_WORKER_TEST_OLD");
}

TEST(Worker, LeaksNoDescriptorsNorZombies) {
  const std::size_t before = open_fds();
  {
    Worker worker(script_options());
    for (int i = 0; i < 20; ++i) {
      const json request = i % 2 == 0 ? json{{"op", "exit"}, {"code", 1}} : op("garbage");
      EXPECT_NE(worker.request(request, kPatience).failure, Failure::kNone);
    }
    EXPECT_EQ(worker.starts(), 20);
    ASSERT_EQ(worker.request(op("echo"), kPatience).failure, Failure::kNone);
    EXPECT_EQ(worker.starts(), 21);
  }  // the destructor kills the running one
  EXPECT_EQ(open_fds(), before);
  EXPECT_TRUE(no_children_left());
}

TEST(Worker, DefaultOptions) {
  const char* old = std::getenv("PYTHONPATH");
  const std::string saved = old != nullptr ? old : "";
  ::setenv("PYTHONPATH", "/elsewhere", 1);
  const WorkerOptions options = default_worker_options("/opt/kernelopt/python");
  ASSERT_EQ(options.argv.size(), 3U);
  EXPECT_EQ(options.argv[0], python());
  EXPECT_EQ(options.argv[1], "-m");
  EXPECT_EQ(options.argv[2], "kernelopt.worker");
  EXPECT_EQ(options.env, (std::vector<std::string>{"PYTHONPATH=/opt/kernelopt/python:/elsewhere",
                                                   "PYTHONUNBUFFERED=1"}));
  ::unsetenv("PYTHONPATH");
  EXPECT_EQ(default_worker_options("/p").env.at(0), "PYTHONPATH=/p");
  if (old != nullptr) ::setenv("PYTHONPATH", saved.c_str(), 1);
}

TEST(Worker, FailureNames) {
  EXPECT_EQ(to_string(Failure::kNone), "none");
  EXPECT_EQ(to_string(Failure::kTimedOut), "timed_out");
  EXPECT_EQ(to_string(Failure::kCrashed), "crashed");
  EXPECT_EQ(to_string(Failure::kBadOutput), "bad_output");
}

TEST(Worker, RejectsANonObjectRequest) {
  Worker worker(script_options());
  EXPECT_THROW(worker.request(json::array({1, 2}), kPatience), Error);
  EXPECT_EQ(worker.starts(), 0);
}

}  // namespace
}  // namespace kernelopt::worker
