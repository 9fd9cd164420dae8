// The store's schema, version 1. A newer file is refused rather than misread; an older one would be
// migrated here, step by step, inside the same transaction that checks the version.
#include <cstdint>
#include <optional>

#include <fmt/format.h>
#include <sqlite3.h>

#include "kernelopt/core/error.hpp"
#include "kernelopt/store/sqlite.hpp"

namespace kernelopt::store::detail {
namespace {

constexpr std::int64_t kSchemaVersion = 1;

// Timestamps are UTC ISO 8601 with milliseconds, written by SQLite itself (column defaults).
constexpr const char* kSchemaV1 = R"SQL(
CREATE TABLE problems (
  id          INTEGER PRIMARY KEY,
  name        TEXT NOT NULL UNIQUE,
  path        TEXT NOT NULL,
  status      TEXT NOT NULL DEFAULT 'pending',
  class       TEXT NOT NULL DEFAULT '',
  detail      TEXT NOT NULL DEFAULT '',
  started_at  TEXT,
  finished_at TEXT
);
CREATE TABLE candidates (
  id          INTEGER PRIMARY KEY,
  problem_id  INTEGER NOT NULL REFERENCES problems(id),
  segment     INTEGER NOT NULL,
  key         TEXT NOT NULL,
  source_path TEXT NOT NULL,
  proposer    TEXT NOT NULL,
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (problem_id, segment, key)
);
CREATE TABLE gate_results (
  id           INTEGER PRIMARY KEY,
  candidate_id INTEGER NOT NULL REFERENCES candidates(id),
  gate         TEXT NOT NULL,
  status       TEXT NOT NULL,
  detail       TEXT NOT NULL,
  numbers_json TEXT NOT NULL,
  created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (candidate_id, gate)
);
CREATE TABLE measurements (
  id           INTEGER PRIMARY KEY,
  problem_id   INTEGER NOT NULL REFERENCES problems(id),
  candidate_id INTEGER REFERENCES candidates(id),
  name         TEXT NOT NULL,
  value        REAL NOT NULL,
  unit         TEXT NOT NULL,
  samples_json TEXT NOT NULL,
  created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX measurements_by_problem ON measurements (problem_id, name);
CREATE INDEX measurements_by_candidate ON measurements (candidate_id);
INSERT INTO schema_version (version) VALUES (1);
)SQL";

// The file's schema version; nullopt for a file without one (a new store).
std::optional<std::int64_t> stored_version(sqlite3* db) {
  Statement query(db, "SELECT max(version) FROM schema_version");
  if (!query.step()) return std::nullopt;
  return query.column_optional_int64(0);
}

}  // namespace

void ensure_schema(sqlite3* db) {
  Transaction tx(db);
  exec(db, "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
  const std::optional<std::int64_t> version = stored_version(db);
  if (!version) {
    exec(db, kSchemaV1);
  } else if (*version > kSchemaVersion) {
    throw Error("kernelopt.store",
                fmt::format("the store has schema version {}, newer than this kernelopt's {}; "
                            "use a newer kernelopt or a fresh run directory",
                            *version, kSchemaVersion),
                ExitCode::kEnvironment);
  } else if (*version < 1) {
    throw Error("kernelopt.store", fmt::format("the store has a bad schema version {}", *version),
                ExitCode::kEnvironment);
  }
  tx.commit();
}

}  // namespace kernelopt::store::detail
