// The cache of verified segments: what passed every gate for a segment, kept across runs and
// models under the segment's fingerprint (fingerprint.hpp), so that a later run that meets the
// same segment tries the winners first (the gates still re-check them there).
//
// One SQLite file, DIR/cache.sqlite, shared by every run of a user (default_dir()). Several
// processes may read and write it at once: WAL journal, a busy timeout, each record() one atomic
// statement. A row stands alone: it holds the candidate's whole source, because the run directory
// that found it may be gone. A Cache is used from one thread.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

struct sqlite3;

namespace kernelopt::store {

// One candidate that passed every gate for a segment.
struct VerifiedSegment {
  std::string fingerprint;  // fingerprint() of the segment it replaces; what lookup() matches
  std::string proposer;     // who made it: "config", "rewrite", "recipe", "llm", "user"
  std::string strategy;     // what it tried: "recipe:scan", "config", "fuse"
  // Its launch settings as a JSON object, {"XBLOCK": 64, "num_warps": 4}. With fingerprint and
  // strategy, what makes a row unique (compared as compact JSON with sorted keys).
  nlohmann::json settings = nlohmann::json::object();
  std::string source;      // the candidate's whole Triton source text, to write it out again
  double ratio = 0.0;      // G4: baseline time over candidate time, above 1 is faster; the order
  double ratio_low = 0.0;  // the low end of ratio's confidence interval
  nlohmann::json gates = nlohmann::json::object();  // the gates' numbers, by gate name
  std::string problem;     // the problem it was found on; informative only, never matched
  std::string created_at;  // UTC ISO 8601 of its latest record(); ignored by record()
};

class Cache {
 public:
  // $KERNELOPT_CACHE_DIR when set and not empty, else $XDG_CACHE_HOME/kernelopt when that is an
  // absolute path, else $HOME/.cache/kernelopt. Throws Error("kernelopt.cache") when none is set.
  static std::string default_dir();

  // Opens DIR/cache.sqlite, creating the directory, the file and its schema when absent. Throws
  // Error("kernelopt.cache") with a one-line message when the directory cannot be made, the file
  // is not an SQLite database or is one of something else, or its schema is newer than this
  // build's.
  static Cache open(const std::string& dir);

  ~Cache();

  Cache(const Cache&) = delete;
  Cache& operator=(const Cache&) = delete;
  Cache(Cache&&) noexcept;
  Cache& operator=(Cache&&) noexcept;

  // The database file's path.
  const std::string& path() const { return path_; }

  // Keeps `segment`. A row with the same fingerprint, strategy and settings is replaced in place:
  // every other field and created_at take the new values. Throws Error("kernelopt.cache") for an
  // empty fingerprint, a ratio or ratio_low that is not finite, or a failed write.
  void record(const VerifiedSegment& segment);

  // Every row kept for `fingerprint`, best first: highest ratio, then highest ratio_low, then the
  // first recorded. Empty when the segment was never verified here.
  std::vector<VerifiedSegment> lookup(std::string_view fingerprint) const;

 private:
  struct Closer {
    void operator()(sqlite3* db) const noexcept;
  };

  Cache(sqlite3* db, std::string path);

  sqlite3* db() const;

  std::unique_ptr<sqlite3, Closer> db_;  // null only in a moved-from Cache
  std::string path_;
};

}  // namespace kernelopt::store
