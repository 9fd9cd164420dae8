// The engine's side of the Python worker: spawn it, send one JSON request a line, read one JSON
// response a line, with a deadline on every request; kill and restart a worker that crashed, hung
// or spoke nonsense, and keep its stderr for the error message.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kernelopt::worker {

// The protocol version this engine speaks; the worker answers `hello` with its own.
inline constexpr int kProtocolVersion = 2;

// How to start a worker process.
struct WorkerOptions {
  std::vector<std::string> argv;  // e.g. {python, "-m", "kernelopt.worker"}
  std::vector<std::string> env;   // extra "NAME=value" entries; they replace inherited ones
  std::chrono::milliseconds startup_timeout{60000};  // for the `hello` handshake
  // When set, no request waits past this point, whatever its own deadline: a bench problem's
  // --timeout holds every process of the worker, also one started again after a candidate killed
  // the last. A request made after it times out at once (and kills a running process).
  std::optional<std::chrono::steady_clock::time_point> end;
};

// Why a request did not produce a response.
enum class Failure {
  kNone,      // a response arrived
  kTimedOut,  // the deadline passed; the worker was killed
  kCrashed,   // the worker exited or died by a signal before answering
  kBadOutput  // the worker wrote a line that is not a JSON object; it was killed
};

// The result of one request.
struct Reply {
  Failure failure = Failure::kNone;
  nlohmann::json response;  // the worker's JSON object when failure == kNone
  std::string detail;       // for a failure: what happened, with the tail of stderr
  int exit_status = 0;      // for kCrashed: exit code, or -signal
};

// One worker process. Not copyable; the destructor kills the process if it still runs.
class Worker {
 public:
  explicit Worker(WorkerOptions options);
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;
  Worker(Worker&&) = delete;
  Worker& operator=(Worker&&) = delete;

  // Sends `request` (an object; "id" is added) and waits at most `deadline` for the response line.
  // Starts the worker first if it is not running (also when the previous process exited between
  // requests). On a timeout, crash or bad output the process group is killed (SIGKILL) and
  // reaped, and the next request starts a fresh one.
  //
  // Framing: the request goes out as one line while stdout and stderr are read, so neither side
  // can block on a full pipe. A response is the first stdout line that is a JSON object whose
  // "id" equals the request's; a response with another non-null "id" is stale (an answer to an
  // earlier request) and skipped; one without "id" (or with null) is taken as the answer, since
  // a worker that could not parse the request cannot echo its id. Any stdout line that is not a
  // JSON object is kBadOutput. The detail of a failure ends with the last few KiB of stderr.
  //
  // Never throws for the worker's misbehaviour. Throws kernelopt::Error ("kernelopt.worker",
  // ExitCode::kWorker) when the process cannot be started at all: argv is empty, or the program
  // does not exist or is not executable (posix_spawnp reports the exec failure synchronously,
  // so this is an exception, never a kCrashed reply), or pipes cannot be created. A program that
  // starts and then fails (python3 -m a_missing_module) is a kCrashed reply with its stderr.
  // Throws kernelopt::Error (ExitCode::kFailure) when `request` is not an object.
  //
  // The first start makes this process ignore SIGPIPE (where its disposition is still the
  // default), so that writing to a dead worker is an EPIPE; the worker gets SIGPIPE's default.
  Reply request(const nlohmann::json& request, std::chrono::milliseconds deadline);

  // Kills the process now (SIGKILL to its process group) and reaps it; no-op when not running.
  void kill();

  // Whether a process was started and has not exited yet (checked without reaping it).
  bool running() const;

  // The last lines the current (or last) process wrote to stderr; at most 64 KiB are kept, and
  // a fresh process starts with an empty tail.
  std::string stderr_tail() const;

  // How many processes were started so far (a restart counts).
  int starts() const { return starts_; }

  // How the process is started (argv, environment): for helpers that must see what it sees.
  const WorkerOptions& options() const { return options_; }

  // Moves the end time (WorkerOptions::end) for every later request: a bench problem's search
  // gets its own time limit, counted from its start, once the baseline is measured.
  void set_end(std::optional<std::chrono::steady_clock::time_point> end) { options_.end = end; }

 private:
  // What waiting for a response line ended with.
  enum class LineStatus {
    kLine,     // a full line arrived
    kTimeout,  // the deadline passed
    kExited,   // stdout reached its end or the process exited
    kTooLong   // the line outgrew the limit (1 GiB) without ending
  };

  void start();
  int stop();
  Reply fail(Failure failure, const std::string& what);
  LineStatus read_line(std::string& line, std::chrono::steady_clock::time_point until);
  bool take_line(std::string& line);
  void poll_once(std::chrono::milliseconds timeout);
  void drain_stderr();
  void wait_for_exit(std::chrono::milliseconds grace);
  void drain_stderr_until_eof(std::chrono::milliseconds bound);

  WorkerOptions options_;
  int pid_ = -1;               // the process (and process group) id; -1 when none runs
  int stdin_fd_ = -1;          // our ends of the three pipes, non-blocking, close-on-exec
  int stdout_fd_ = -1;         // -1 also once stdout reached its end
  int stderr_fd_ = -1;         // -1 also once stderr reached its end
  std::string in_buffer_;      // the request line being written
  std::size_t in_offset_ = 0;  // how much of in_buffer_ the worker took
  std::string out_buffer_;     // stdout bytes not yet cut into lines
  std::size_t scan_pos_ = 0;   // out_buffer_ holds no newline before this offset
  std::string err_tail_;       // the last bytes of stderr, at most 64 KiB
  long next_id_ = 1;           // the next request's "id"
  int starts_ = 0;             // processes started so far
};

// The default worker command: KERNELOPT_PYTHON (or "python3") -m kernelopt.worker, with the
// package directory on PYTHONPATH. `python_dir` is the folder that holds the kernelopt package.
WorkerOptions default_worker_options(const std::string& python_dir);

std::string to_string(Failure failure);

}  // namespace kernelopt::worker
