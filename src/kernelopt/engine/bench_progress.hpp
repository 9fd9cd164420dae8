// The bench run's progress on stderr: a bar redrawn in place on a terminal (one line per finished
// problem elsewhere) with elapsed time, ETA and the running tally of outcome classes; or, quiet,
// one log line per problem. A problem a Ray node ran names the node and its GPU. Safe to call
// from several threads.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <mutex>
#include <string>

#include <nlohmann/json.hpp>

namespace kernelopt::engine {

class BenchProgress {
 public:
  // `total` problems to run now; `skipped` were done in an earlier run of the same directory.
  BenchProgress(std::size_t total, std::size_t skipped, bool quiet);

  // A problem's worker started.
  void started();

  // A problem finished with its document (bench_document.hpp).
  void finished(const std::string& key, const nlohmann::json& document);

  // Ends the bar's line.
  void close();

 private:
  std::string bar() const;  // with mutex_ held
  void draw(const std::string& above);

  std::mutex mutex_;
  std::size_t total_;
  std::size_t skipped_;
  bool quiet_;
  bool terminal_;                     // stderr is a terminal: redraw in place
  std::size_t done_ = 0;              // finished in this run
  std::size_t running_ = 0;           // workers busy now
  std::map<std::string, int> tally_;  // outcome class -> problems
  std::chrono::steady_clock::time_point start_;
};

}  // namespace kernelopt::engine
