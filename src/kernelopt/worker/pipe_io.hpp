// Internal to worker/: the POSIX plumbing under Worker (pipes, non-blocking reads and writes,
// process spawning and reaping). Nothing here knows about JSON or the protocol.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kernelopt::worker::detail {

// Owns one file descriptor; closes it on destruction.
class UniqueFd {
 public:
  UniqueFd() = default;

  explicit UniqueFd(int fd) : fd_(fd) {}

  ~UniqueFd() { reset(); }

  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;

  UniqueFd(UniqueFd&& other) noexcept : fd_(other.release()) {}

  UniqueFd& operator=(UniqueFd&& other) noexcept;

  int get() const { return fd_; }

  // Gives up ownership and returns the descriptor.
  int release();

  // Closes the descriptor, if any.
  void reset();

 private:
  int fd_ = -1;
};

// Closes `fd` if it is open and sets it to -1.
void close_fd(int& fd);

// A pipe whose both ends are close-on-exec and numbered 3 or above (so that dup2 onto 0, 1, 2 in
// the child can never clobber another end).
struct Pipe {
  UniqueFd read;   // the end a reader holds
  UniqueFd write;  // the end a writer holds
};

Pipe make_pipe();

void set_nonblocking(int fd);

// Reads what `fd` (non-blocking) has now and appends it to `out`. Returns false at end of file
// (or on a read error, which a pipe treats the same way), true when it would block.
bool read_available(int fd, std::string& out);

// Writes as much of `data` as `fd` (non-blocking) takes now and returns how many bytes it took.
// Sets `broken` when the reader is gone (EPIPE) or the write failed otherwise.
std::size_t write_available(int fd, std::string_view data, bool& broken);

// Ignores SIGPIPE in this process (once, and only where its disposition is still the default), so
// that writing to a dead worker is an EPIPE, not the engine's death.
void ignore_sigpipe();

// Starts `argv` (searched on PATH) in its own process group with the given environment, its
// stdin, stdout, stderr on the given descriptors, SIGPIPE back at its default and no signal
// blocked. Returns the pid; throws kernelopt::Error ("kernelopt.worker") if it cannot start.
int spawn(const std::vector<std::string>& argv,
          const std::vector<std::string>& env,
          int stdin_fd,
          int stdout_fd,
          int stderr_fd);

// This process's environment with `extra` ("NAME=value") replacing or added to it.
std::vector<std::string> merged_environment(const std::vector<std::string>& extra);

// Whether the child `pid` has exited; does not reap it.
bool has_exited(int pid);

// Waits for the child `pid` and reaps it; returns its raw wait status.
int reap(int pid);

// The exit code of a raw wait status, or -signal for a child killed by a signal.
int exit_status(int raw_status);

// "exited with code 3", "was killed by signal 11 (Segmentation fault)".
std::string describe_status(int raw_status);

}  // namespace kernelopt::worker::detail
