// The store's schema. A new store is created at version 1 and migrated like any older file, step
// by step, inside the same transaction that checks the version, so a new store and a migrated one
// are the same. A newer file is refused rather than misread.
//
// Version 2: candidates record their strategy and launch settings (a version-1 file reads as
// strategy "" and settings {}).
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

#include <fmt/format.h>
#include <sqlite3.h>

#include "kernelopt/core/error.hpp"
#include "kernelopt/store/sqlite.hpp"

namespace kernelopt::store::detail {
namespace {

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

// kMigrations[i] takes a file from version i + 1 to version i + 2. Only ever append.
constexpr std::array<const char*, 1> kMigrations = {R"SQL(
ALTER TABLE candidates ADD COLUMN strategy TEXT NOT NULL DEFAULT '';
ALTER TABLE candidates ADD COLUMN settings_json TEXT NOT NULL DEFAULT '{}';
INSERT INTO schema_version (version) VALUES (2);
)SQL"};

constexpr auto kSchemaVersion = static_cast<std::int64_t>(kMigrations.size() + 1);

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
  std::optional<std::int64_t> version = stored_version(db);
  if (!version) {
    exec(db, kSchemaV1);
    version = 1;
  }
  if (*version > kSchemaVersion) {
    throw Error("kernelopt.store",
                fmt::format("the store has schema version {}, newer than this kernelopt's {}; "
                            "use a newer kernelopt or a fresh run directory",
                            *version, kSchemaVersion),
                ExitCode::kEnvironment);
  }
  if (*version < 1) {
    throw Error("kernelopt.store", fmt::format("the store has a bad schema version {}", *version),
                ExitCode::kEnvironment);
  }
  for (auto step = static_cast<std::size_t>(*version - 1); step < kMigrations.size(); ++step) {
    exec(db, kMigrations[step]);
  }
  tx.commit();
}

}  // namespace kernelopt::store::detail
