#include "kernelopt/store/cache.hpp"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include "kernelopt/core/check.hpp"
#include "kernelopt/core/error.hpp"
#include "kernelopt/store/sqlite.hpp"

namespace kernelopt::store {
namespace {

namespace fs = std::filesystem;
using detail::Statement;

constexpr const char* kTag = "kernelopt.cache";
constexpr const char* kFileName = "cache.sqlite";
constexpr std::int64_t kCacheSchemaVersion = 1;

// The version table has a name of its own, so that another SQLite file (a run store, say) is
// told apart from a cache.
constexpr const char* kSchemaV1 = R"SQL(
CREATE TABLE cache_schema_version (version INTEGER NOT NULL);
CREATE TABLE verified_segments (
  id            INTEGER PRIMARY KEY,
  fingerprint   TEXT NOT NULL,
  proposer      TEXT NOT NULL,
  strategy      TEXT NOT NULL,
  settings_json TEXT NOT NULL,
  source        TEXT NOT NULL,
  ratio         REAL NOT NULL,
  ratio_low     REAL NOT NULL,
  gates_json    TEXT NOT NULL,
  problem       TEXT NOT NULL,
  created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (fingerprint, strategy, settings_json)
);
INSERT INTO cache_schema_version (version) VALUES (1);
)SQL";

// `text` on one line: every run of whitespace becomes one space.
std::string one_line(std::string_view text) {
  std::string out;
  bool space = false;
  for (const char c : text) {
    const bool blank = c == ' ' || c == '\n' || c == '\r' || c == '\t';
    if (blank && !space && !out.empty()) out += ' ';
    if (!blank) out += c;
    space = blank;
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// Runs `body`, turning the SQLite layer's Error into the cache's, on one line.
template <typename Body>
auto as_cache_error(const std::string& path, Body&& body) {
  try {
    return std::forward<Body>(body)();
  } catch (const Error& e) {
    if (e.tag() != "kernelopt.store") throw;
    throw Error(kTag, fmt::format("the cache {}: {}", path, one_line(e.what())), e.code());
  }
}

[[noreturn]] void refuse(const std::string& path, std::string_view why) {
  throw Error(
      kTag,
      fmt::format("{} {}; remove it or set KERNELOPT_CACHE_DIR to another directory", path, why),
      ExitCode::kEnvironment);
}

// Creates the schema in an empty file; refuses a foreign file and a newer or broken version.
void ensure_schema(sqlite3* db, const std::string& path) {
  detail::Transaction tx(db);
  Statement objects(db,
                    "SELECT count(*), count(*) FILTER (WHERE name = 'cache_schema_version') "
                    "FROM sqlite_master");
  KO_CHECK(objects.step());
  if (objects.column_int64(0) == 0) {
    detail::exec(db, kSchemaV1);
  } else if (objects.column_int64(1) == 0) {
    refuse(path, "is an SQLite file but not a kernelopt cache");
  } else {
    Statement query(db, "SELECT max(version) FROM cache_schema_version");
    KO_CHECK(query.step());
    const std::optional<std::int64_t> version = query.column_optional_int64(0);
    if (!version || *version < 1) refuse(path, "has no valid cache schema version");
    if (*version > kCacheSchemaVersion) {
      refuse(path, fmt::format("has cache schema version {}, newer than this kernelopt's {}",
                               *version, kCacheSchemaVersion));
    }
  }
  tx.commit();
}

void make_directory(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    throw Error(kTag, fmt::format("cannot create the cache directory {}: {}", dir, ec.message()),
                ExitCode::kEnvironment);
  }
  if (!fs::is_directory(dir)) {
    throw Error(kTag, fmt::format("the cache directory {} is not a directory", dir),
                ExitCode::kEnvironment);
  }
}

std::optional<std::string> env(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return std::nullopt;
  return std::string(value);
}

VerifiedSegment read_row(const Statement& s) {
  VerifiedSegment row;
  row.fingerprint = s.column_text(0);
  row.proposer = s.column_text(1);
  row.strategy = s.column_text(2);
  row.settings = nlohmann::json::parse(s.column_text(3));
  row.source = s.column_text(4);
  row.ratio = s.column_double(5);
  row.ratio_low = s.column_double(6);
  row.gates = nlohmann::json::parse(s.column_text(7));
  row.problem = s.column_text(8);
  row.created_at = s.column_text(9);
  return row;
}

}  // namespace

void Cache::Closer::operator()(sqlite3* db) const noexcept {
  detail::close_connection(db);
}

Cache::Cache(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}

Cache::~Cache() = default;

Cache::Cache(Cache&&) noexcept = default;

Cache& Cache::operator=(Cache&&) noexcept = default;

std::string Cache::default_dir() {
  if (std::optional<std::string> dir = env("KERNELOPT_CACHE_DIR")) return *dir;
  const std::optional<std::string> xdg = env("XDG_CACHE_HOME");
  if (xdg && fs::path(*xdg).is_absolute()) return (fs::path(*xdg) / "kernelopt").string();
  if (const std::optional<std::string> home = env("HOME")) {
    return (fs::path(*home) / ".cache" / "kernelopt").string();
  }
  throw Error(kTag, "no cache directory: set KERNELOPT_CACHE_DIR (HOME is not set)",
              ExitCode::kUsage);
}

Cache Cache::open(const std::string& dir) {
  make_directory(dir);
  std::string path = (fs::path(dir) / kFileName).string();
  return as_cache_error(path, [&] {
    Cache cache(detail::open_connection(path), path);
    ensure_schema(cache.db(), cache.path());
    return cache;
  });
}

sqlite3* Cache::db() const {
  KO_CHECK(db_ != nullptr);  // a moved-from Cache is not used
  return db_.get();
}

void Cache::record(const VerifiedSegment& segment) {
  if (segment.fingerprint.empty() || !std::isfinite(segment.ratio) ||
      !std::isfinite(segment.ratio_low)) {
    throw Error(kTag, fmt::format("a verified segment needs a fingerprint and finite ratios "
                                  "(fingerprint '{}', ratio {}, ratio_low {})",
                                  segment.fingerprint, segment.ratio, segment.ratio_low));
  }
  as_cache_error(path_, [&] {
    Statement s(db(),
                "INSERT INTO verified_segments (fingerprint, proposer, strategy, settings_json, "
                "source, ratio, ratio_low, gates_json, problem) "
                "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) "
                "ON CONFLICT (fingerprint, strategy, settings_json) DO UPDATE SET "
                "proposer = excluded.proposer, source = excluded.source, ratio = excluded.ratio, "
                "ratio_low = excluded.ratio_low, gates_json = excluded.gates_json, "
                "problem = excluded.problem, created_at = excluded.created_at");
    s.bind(1, segment.fingerprint).bind(2, segment.proposer).bind(3, segment.strategy);
    s.bind(4, segment.settings.dump()).bind(5, segment.source).bind(6, segment.ratio);
    s.bind(7, segment.ratio_low).bind(8, segment.gates.dump()).bind(9, segment.problem);
    s.run();
  });
}

std::vector<VerifiedSegment> Cache::lookup(std::string_view fingerprint) const {
  return as_cache_error(path_, [&] {
    Statement s(db(),
                "SELECT fingerprint, proposer, strategy, settings_json, source, ratio, ratio_low, "
                "gates_json, problem, created_at FROM verified_segments WHERE fingerprint = ?1 "
                "ORDER BY ratio DESC, ratio_low DESC, id");
    s.bind(1, fingerprint);
    std::vector<VerifiedSegment> rows;
    while (s.step()) {
      rows.push_back(read_row(s));
    }
    return rows;
  });
}

}  // namespace kernelopt::store
