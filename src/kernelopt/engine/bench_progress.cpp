#include "kernelopt/engine/bench_progress.hpp"

#include <cstdio>
#include <unistd.h>

#include <fmt/format.h>

namespace kernelopt::engine {

namespace {

constexpr int kBarWidth = 24;

std::string clock_text(double seconds) {
  const auto s = static_cast<long>(seconds);
  return fmt::format("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60);
}

// Short names for the tally, in Table 1's order.
constexpr std::pair<const char*, const char*> kShort[] = {
    {"optimized", "optimized"},
    {"matched (optimized)", "matched"},
    {"matched (synthesis failed)", "synthesis failed"},
    {"fallback", "fallback"},
    {"failed", "failed"}};

// " on NODE (GPU)" for a problem a Ray node ran; "" for one run here.
std::string where(const nlohmann::json& document) {
  const nlohmann::json& cost = document.at("cost");
  const std::string node = cost.value("node", "");
  if (node.empty()) return "";
  const nlohmann::json& show = document.at("show");
  std::string gpu;
  if (show.is_object() && show.contains("environment") && show.at("environment").is_object()) {
    const nlohmann::json& name = show.at("environment").value("gpu", nlohmann::json());
    if (name.is_string()) gpu = " (" + name.get<std::string>() + ")";
  }
  return " on " + node + gpu;
}

}  // namespace

BenchProgress::BenchProgress(std::size_t total, std::size_t skipped, bool quiet)
    : total_(total),
      skipped_(skipped),
      quiet_(quiet),
      terminal_(isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()) {
  if (skipped_ > 0) {
    std::fprintf(stderr, "bench: %zu problems already done in this run directory, skipped\n",
                 skipped_);
  }
}

std::string BenchProgress::bar() const {
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const auto filled = total_ == 0 ? kBarWidth : static_cast<int>(kBarWidth * done_ / total_);
  std::string eta = "-";
  if (done_ > 0 && done_ < total_) {
    eta = clock_text(elapsed / static_cast<double>(done_) * static_cast<double>(total_ - done_));
  } else if (done_ == total_) {
    eta = "0:00:00";
  }
  std::string tally;
  for (const auto& [name, label] : kShort) {
    const auto it = tally_.find(name);
    if (it == tally_.end()) continue;
    tally += fmt::format("{}{} {}", tally.empty() ? "" : ", ", label, it->second);
  }
  return fmt::format("[{}{}] {}/{} | running {} | elapsed {} | ETA {} | {}",
                     std::string(filled, '#'), std::string(kBarWidth - filled, '.'), done_, total_,
                     running_, clock_text(elapsed), eta, tally.empty() ? "-" : tally);
}

void BenchProgress::draw(const std::string& above) {
  if (terminal_) {
    std::fprintf(stderr, "\r\033[K%s%s", above.empty() ? "" : (above + "\n").c_str(),
                 bar().c_str());
  } else if (!above.empty() || done_ == 0) {
    std::fprintf(stderr, "%s%s\n", above.empty() ? "" : (above + "\n").c_str(), bar().c_str());
  }
  std::fflush(stderr);
}

void BenchProgress::started() {
  const std::lock_guard<std::mutex> lock(mutex_);
  ++running_;
  if (quiet_) return;
  if (terminal_) draw("");
}

void BenchProgress::finished(const std::string& key, const nlohmann::json& document) {
  const std::lock_guard<std::mutex> lock(mutex_);
  --running_;
  ++done_;
  const nlohmann::json& outcome = document.at("outcome");
  const std::string cls = outcome.value("class", "failed");
  ++tally_[cls];
  std::string reason = outcome.value("reason", "");
  if (reason.empty() && !outcome.value("measured", true) && cls != "fallback") {
    // The class a search that found nothing would get: say whether a search ran.
    reason = document.contains("search") ? "searched: no candidate reached the timing gate"
                                         : "baseline only: no search ran";
  }
  std::string line = fmt::format("[{}/{}] {}: {}{} ({:.1f} s)", done_, total_, key, cls,
                                 reason.empty() ? "" : " (" + reason + ")",
                                 document.at("cost").value("wall_seconds", 0.0));
  line += where(document);
  if (document.at("error").is_object()) {
    line += ": " + document.at("error").value("message", "");
  }
  if (quiet_) {
    std::fprintf(stderr, "%s\n", line.c_str());
    return;
  }
  draw(line);
}

void BenchProgress::close() {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (!quiet_ && terminal_) std::fputs("\n", stderr);
}

}  // namespace kernelopt::engine
