#include "kernelopt/worker/pipe_io.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <string>
#include <string_view>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "kernelopt/core/check.hpp"
#include "kernelopt/core/error.hpp"

extern char** environ;  // NOLINT(readability-identifier-naming): POSIX's name

namespace kernelopt::worker::detail {
namespace {

[[noreturn]] void throw_errno(const std::string& what, int error) {
  throw Error("kernelopt.worker", fmt::format("{}: {}", what, std::strerror(error)),
              ExitCode::kWorker);
}

void check_posix(int rc, const char* what) {
  if (rc != 0) throw_errno(what, rc);
}

// posix_spawn's attribute and file-action objects, destroyed on every path.
class SpawnSetup {
 public:
  SpawnSetup() {
    check_posix(posix_spawnattr_init(&attr_), "posix_spawnattr_init");
    const int rc = posix_spawn_file_actions_init(&actions_);
    if (rc != 0) {
      posix_spawnattr_destroy(&attr_);
      throw_errno("posix_spawn_file_actions_init", rc);
    }
  }

  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions_);
    posix_spawnattr_destroy(&attr_);
  }

  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
  SpawnSetup(SpawnSetup&&) = delete;
  SpawnSetup& operator=(SpawnSetup&&) = delete;

  posix_spawnattr_t attr_{};
  posix_spawn_file_actions_t actions_{};
};

std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  out.reserve(strings.size() + 1);
  for (std::string& s : strings) {
    out.push_back(s.data());
  }
  out.push_back(nullptr);
  return out;
}

std::string_view env_name(std::string_view entry) {
  return entry.substr(0, entry.find('='));
}

}  // namespace

UniqueFd& UniqueFd::operator=(UniqueFd&& other) noexcept {
  if (this != &other) {
    reset();
    fd_ = other.release();
  }
  return *this;
}

int UniqueFd::release() {
  return std::exchange(fd_, -1);
}

void UniqueFd::reset() {
  close_fd(fd_);
}

void close_fd(int& fd) {
  if (fd >= 0) {
    // Linux releases the descriptor even when close() reports EINTR: never retry.
    ::close(fd);
    fd = -1;
  }
}

Pipe make_pipe() {
  std::array<int, 2> fds{-1, -1};
  if (pipe2(fds.data(), O_CLOEXEC) != 0) throw_errno("pipe2", errno);
  std::array<UniqueFd, 2> ends{UniqueFd(fds[0]), UniqueFd(fds[1])};
  for (UniqueFd& end : ends) {
    if (end.get() > 2) continue;
    const int moved = fcntl(end.get(), F_DUPFD_CLOEXEC, 3);
    if (moved < 0) throw_errno("fcntl(F_DUPFD_CLOEXEC)", errno);
    end = UniqueFd(moved);
  }
  return Pipe{std::move(ends[0]), std::move(ends[1])};
}

void set_nonblocking(int fd) {
  const int flags = fcntl(fd, F_GETFL);
  if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0) {
    throw_errno("fcntl(O_NONBLOCK)", errno);
  }
}

bool read_available(int fd, std::string& out) {
  constexpr std::size_t kChunk = std::size_t{256} << 10U;
  while (true) {
    const std::size_t old_size = out.size();
    out.resize(old_size + kChunk);
    const ssize_t n = ::read(fd, out.data() + old_size, kChunk);
    const int error = errno;
    out.resize(old_size + static_cast<std::size_t>(n > 0 ? n : 0));
    if (n > 0) continue;
    if (n == 0) return false;
    if (error == EINTR) continue;
    return error == EAGAIN || error == EWOULDBLOCK;
  }
}

std::size_t write_available(int fd, std::string_view data, bool& broken) {
  std::size_t written = 0;
  while (written < data.size()) {
    const ssize_t n = ::write(fd, data.data() + written, data.size() - written);
    if (n >= 0) {
      written += static_cast<std::size_t>(n);
      continue;
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) broken = true;
    break;
  }
  return written;
}

void ignore_sigpipe() {
  static const bool ignored = [] {
    struct sigaction current {};
    if (sigaction(SIGPIPE, nullptr, &current) != 0) throw_errno("sigaction(SIGPIPE)", errno);
    if (current.sa_handler != SIG_DFL) return true;  // someone chose already: EPIPE either way
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    if (sigaction(SIGPIPE, &ignore, nullptr) != 0) throw_errno("sigaction(SIGPIPE)", errno);
    return true;
  }();
  KO_CHECK(ignored);
}

int spawn(const std::vector<std::string>& argv,
          const std::vector<std::string>& env,
          int stdin_fd,
          int stdout_fd,
          int stderr_fd) {
  if (argv.empty()) {
    throw Error("kernelopt.worker", "the worker command is empty", ExitCode::kWorker);
  }
  SpawnSetup setup;
  check_posix(posix_spawn_file_actions_adddup2(&setup.actions_, stdin_fd, 0), "adddup2");
  check_posix(posix_spawn_file_actions_adddup2(&setup.actions_, stdout_fd, 1), "adddup2");
  check_posix(posix_spawn_file_actions_adddup2(&setup.actions_, stderr_fd, 2), "adddup2");
  sigset_t defaults{};
  sigset_t mask{};
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigemptyset(&mask);
  const auto flags = POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK;
  check_posix(posix_spawnattr_setflags(&setup.attr_, static_cast<short>(flags)), "setflags");
  check_posix(posix_spawnattr_setpgroup(&setup.attr_, 0), "setpgroup");
  check_posix(posix_spawnattr_setsigdefault(&setup.attr_, &defaults), "setsigdefault");
  check_posix(posix_spawnattr_setsigmask(&setup.attr_, &mask), "setsigmask");

  std::vector<std::string> args = argv;
  std::vector<std::string> envs = env;
  std::vector<char*> arg_ptrs = c_strings(args);
  std::vector<char*> env_ptrs = c_strings(envs);
  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, arg_ptrs[0], &setup.actions_, &setup.attr_, arg_ptrs.data(),
                              env_ptrs.data());
  if (rc != 0) {
    throw Error(
        "kernelopt.worker",
        fmt::format("cannot start the worker `{}`: {}", fmt::join(argv, " "), std::strerror(rc)),
        ExitCode::kWorker);
  }
  return pid;
}

std::vector<std::string> merged_environment(const std::vector<std::string>& extra) {
  std::vector<std::string> out;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view name = env_name(*entry);
    const bool replaced = std::any_of(extra.begin(), extra.end(),
                                      [name](const std::string& e) { return env_name(e) == name; });
    if (!replaced) out.emplace_back(*entry);
  }
  out.insert(out.end(), extra.begin(), extra.end());
  return out;
}

bool has_exited(int pid) {
  siginfo_t info{};
  while (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
    KO_CHECK(errno == EINTR);
  }
  return info.si_pid != 0;
}

int reap(int pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    KO_CHECK(errno == EINTR);
  }
  return status;
}

int exit_status(int raw_status) {
  if (WIFSIGNALED(raw_status)) return -WTERMSIG(raw_status);
  return WEXITSTATUS(raw_status);
}

std::string describe_status(int raw_status) {
  if (WIFSIGNALED(raw_status)) {
    const int signal = WTERMSIG(raw_status);
    return fmt::format("was killed by signal {} ({})", signal, strsignal(signal));
  }
  return fmt::format("exited with code {}", WEXITSTATUS(raw_status));
}

}  // namespace kernelopt::worker::detail
