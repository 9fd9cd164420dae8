#include "kernelopt/worker/worker.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <poll.h>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <utility>

#include <fmt/format.h>

#include "kernelopt/core/check.hpp"
#include "kernelopt/core/error.hpp"
#include "kernelopt/worker/pipe_io.hpp"

namespace kernelopt::worker {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr std::size_t kStderrTailBytes = std::size_t{64} << 10U;
constexpr std::size_t kStderrInDetail = std::size_t{4} << 10U;
constexpr std::size_t kMaxLineBytes = std::size_t{1} << 30U;
constexpr milliseconds kPollSlice{100};        // how often a silent worker is checked for exit
constexpr milliseconds kExitGrace{1000};       // for a worker whose stdout ended to exit by itself
constexpr milliseconds kStderrAfterKill{200};  // for the last stderr bytes after SIGKILL

milliseconds until_now(Clock::time_point until) {
  const auto left = std::chrono::ceil<milliseconds>(until - Clock::now());
  return std::max(left, milliseconds{0});
}

// The end of `text`, at most `bytes`, starting at a line where possible.
std::string_view tail_of(std::string_view text, std::size_t bytes) {
  if (text.size() <= bytes) return text;
  text.remove_prefix(text.size() - bytes);
  const std::size_t newline = text.find('\n');
  if (newline != std::string_view::npos && newline + 1 < text.size()) {
    text.remove_prefix(newline + 1);
  }
  return text;
}

std::string excerpt(std::string_view line) {
  constexpr std::size_t kMax = 200;
  if (line.size() <= kMax) return std::string(line);
  return fmt::format("{}... ({} bytes)", line.substr(0, kMax), line.size());
}

}  // namespace

Worker::Worker(WorkerOptions options) : options_(std::move(options)) {}

Worker::~Worker() {
  stop();
}

bool Worker::running() const {
  return pid_ > 0 && !detail::has_exited(pid_);
}

std::string Worker::stderr_tail() const {
  return err_tail_;
}

void Worker::kill() {
  stop();
}

void Worker::start() {
  detail::ignore_sigpipe();
  detail::Pipe in = detail::make_pipe();
  detail::Pipe out = detail::make_pipe();
  detail::Pipe err = detail::make_pipe();
  for (const int fd : {in.write.get(), out.read.get(), err.read.get()}) {
    detail::set_nonblocking(fd);
  }
  const int pid = detail::spawn(options_.argv, detail::merged_environment(options_.env),
                                in.read.get(), out.write.get(), err.write.get());
  // From here on nothing throws: the child is owned before anything else can fail.
  pid_ = pid;
  stdin_fd_ = in.write.release();
  stdout_fd_ = out.read.release();
  stderr_fd_ = err.read.release();
  ++starts_;
  in_buffer_.clear();
  in_offset_ = 0;
  out_buffer_.clear();
  scan_pos_ = 0;
  err_tail_.clear();
}

int Worker::stop() {
  if (pid_ <= 0) return 0;
  // The whole group: the worker's compile subprocesses die with it. The leader is not reaped
  // yet, so its pid (the group id) cannot have been reused.
  if (::kill(-pid_, SIGKILL) != 0) KO_CHECK(errno == ESRCH);
  const int status = detail::reap(pid_);
  pid_ = -1;
  drain_stderr_until_eof(kStderrAfterKill);
  detail::close_fd(stdin_fd_);
  detail::close_fd(stdout_fd_);
  detail::close_fd(stderr_fd_);
  in_buffer_.clear();
  in_offset_ = 0;
  out_buffer_.clear();
  scan_pos_ = 0;
  return status;
}

Reply Worker::request(const nlohmann::json& request, std::chrono::milliseconds deadline) {
  if (!request.is_object()) {
    throw Error("kernelopt.worker",
                std::string("a worker request must be a JSON object, not ") + request.type_name());
  }
  Clock::time_point until = Clock::now() + deadline;
  const bool capped = options_.end && *options_.end < until;
  if (capped) until = *options_.end;
  if (capped && until <= Clock::now()) {
    return fail(Failure::kTimedOut, "the worker's end time has passed");  // none is started
  }
  if (pid_ > 0 && detail::has_exited(pid_)) stop();  // it died between requests
  if (pid_ <= 0) start();

  nlohmann::json message = request;
  const long id = next_id_++;
  message["id"] = id;
  in_buffer_ = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  in_buffer_ += '\n';
  in_offset_ = 0;

  std::string line;
  while (true) {
    switch (read_line(line, until)) {
      case LineStatus::kTimeout:
        return fail(Failure::kTimedOut,
                    capped ? std::string("no response before the worker's end time")
                           : fmt::format("no response within {} ms", deadline.count()));
      case LineStatus::kExited:
        wait_for_exit(kExitGrace);
        return fail(Failure::kCrashed, "the worker ended before answering");
      case LineStatus::kTooLong:
        return fail(Failure::kBadOutput,
                    fmt::format("the worker wrote a line longer than {} bytes", kMaxLineBytes));
      case LineStatus::kLine:
        break;
    }
    nlohmann::json response = nlohmann::json::parse(line, nullptr, false);
    if (response.is_discarded() || !response.is_object()) {
      return fail(Failure::kBadOutput,
                  "the worker wrote a line that is not a JSON object: " + excerpt(line));
    }
    const auto it = response.find("id");
    if (it != response.end() && !it->is_null() && *it != id) continue;  // stale
    Reply reply;
    reply.response = std::move(response);
    // A worker that answers and then exits (after a CUDA error its context is unusable) is let go
    // now: the next request starts a fresh one instead of reaching it while it shuts down, which
    // would count against whatever that request carried.
    const auto exiting = reply.response.find("worker_exiting");
    if (exiting != reply.response.end() && exiting->is_boolean() && exiting->get<bool>()) {
      wait_for_exit(kExitGrace);
      stop();
    }
    return reply;
  }
}

Reply Worker::fail(Failure failure, const std::string& what) {
  Reply reply;
  reply.failure = failure;
  const int status = stop();
  reply.detail = what;
  if (failure == Failure::kCrashed) {
    reply.exit_status = detail::exit_status(status);
    reply.detail += fmt::format(": it {}", detail::describe_status(status));
  }
  const std::string_view tail = tail_of(err_tail_, kStderrInDetail);
  reply.detail += tail.empty() ? std::string("; stderr was empty")
                               : fmt::format("; the end of its stderr:\n{}", tail);
  return reply;
}

Worker::LineStatus Worker::read_line(std::string& line, Clock::time_point until) {
  while (true) {
    if (take_line(line)) return LineStatus::kLine;
    if (out_buffer_.size() > kMaxLineBytes) return LineStatus::kTooLong;
    if (stdout_fd_ < 0) return LineStatus::kExited;
    const milliseconds left = until_now(until);
    if (left.count() == 0) return LineStatus::kTimeout;
    poll_once(std::min(left, kPollSlice));
    if (stdout_fd_ >= 0 && detail::has_exited(pid_)) {
      // Gone: whatever it wrote before exiting is in the pipe now; a grandchild may hold the
      // pipe open, so do not wait for the end of file.
      if (!detail::read_available(stdout_fd_, out_buffer_)) detail::close_fd(stdout_fd_);
      if (take_line(line)) return LineStatus::kLine;
      return LineStatus::kExited;
    }
  }
}

bool Worker::take_line(std::string& line) {
  const std::size_t newline = out_buffer_.find('\n', scan_pos_);
  if (newline == std::string::npos) {
    scan_pos_ = out_buffer_.size();
    return false;
  }
  line.assign(out_buffer_, 0, newline);
  out_buffer_.erase(0, newline + 1);
  scan_pos_ = 0;
  return true;
}

// One poll() over the open pipes: writes what stdin takes, reads what stdout and stderr have.
void Worker::poll_once(milliseconds timeout) {
  std::array<pollfd, 3> fds{};
  nfds_t count = 0;
  const bool writing = stdin_fd_ >= 0 && in_offset_ < in_buffer_.size();
  for (const auto& [fd, events] :
       {std::pair{writing ? stdin_fd_ : -1, short{POLLOUT}}, std::pair{stdout_fd_, short{POLLIN}},
        std::pair{stderr_fd_, short{POLLIN}}}) {
    if (fd >= 0) fds[count++] = pollfd{fd, events, 0};
  }
  if (::poll(fds.data(), count, static_cast<int>(timeout.count())) < 0) {
    KO_CHECK(errno == EINTR);
    return;
  }
  for (nfds_t i = 0; i < count; ++i) {
    if (fds[i].revents == 0) continue;
    if (fds[i].fd == stdin_fd_) {
      bool broken = false;
      const std::string_view pending = std::string_view(in_buffer_).substr(in_offset_);
      in_offset_ += detail::write_available(stdin_fd_, pending, broken);
      // The reader is gone: the worker is dying; its stdout's end reports it.
      if (broken) detail::close_fd(stdin_fd_);
    } else if (fds[i].fd == stdout_fd_) {
      if (!detail::read_available(stdout_fd_, out_buffer_)) detail::close_fd(stdout_fd_);
    } else {
      drain_stderr();
    }
  }
}

void Worker::drain_stderr() {
  if (stderr_fd_ < 0) return;
  const bool open = detail::read_available(stderr_fd_, err_tail_);
  if (err_tail_.size() > kStderrTailBytes) err_tail_.erase(0, err_tail_.size() - kStderrTailBytes);
  if (!open) detail::close_fd(stderr_fd_);
}

// Gives a worker whose stdout ended up to `grace` to exit by itself, reading its stderr (the
// traceback) meanwhile. Does not reap it.
void Worker::wait_for_exit(milliseconds grace) {
  const Clock::time_point until = Clock::now() + grace;
  while (pid_ > 0 && !detail::has_exited(pid_) && until_now(until).count() > 0) {
    pollfd fd{stderr_fd_, POLLIN, 0};
    const int timeout = static_cast<int>(std::min(until_now(until), milliseconds{20}).count());
    if (::poll(&fd, 1, timeout) < 0) KO_CHECK(errno == EINTR);
    drain_stderr();
  }
}

// After the kill, reads stderr until its end (every writer is dead) or `bound` passes (a
// grandchild that left the process group may still hold it).
void Worker::drain_stderr_until_eof(milliseconds bound) {
  const Clock::time_point until = Clock::now() + bound;
  drain_stderr();
  while (stderr_fd_ >= 0 && until_now(until).count() > 0) {
    pollfd fd{stderr_fd_, POLLIN, 0};
    if (::poll(&fd, 1, static_cast<int>(until_now(until).count())) < 0) KO_CHECK(errno == EINTR);
    drain_stderr();
  }
}

WorkerOptions default_worker_options(const std::string& python_dir) {
  WorkerOptions options;
  const char* python = std::getenv("KERNELOPT_PYTHON");
  options.argv = {python != nullptr && *python != '\0' ? python : "python3", "-m",
                  "kernelopt.worker"};
  const char* old_path = std::getenv("PYTHONPATH");
  std::string path = "PYTHONPATH=" + python_dir;
  if (old_path != nullptr && *old_path != '\0') path += std::string(":") + old_path;
  options.env = {path, "PYTHONUNBUFFERED=1"};
  return options;
}

std::string to_string(Failure failure) {
  switch (failure) {
    case Failure::kNone:
      return "none";
    case Failure::kTimedOut:
      return "timed_out";
    case Failure::kCrashed:
      return "crashed";
    case Failure::kBadOutput:
      return "bad_output";
  }
  KO_CHECK(false);
  return "";
}

}  // namespace kernelopt::worker
