// Internal to store/: the SQLite plumbing under Store. Every return code is checked here and
// turned into Error("kernelopt.store") with sqlite3_errmsg; nothing here knows the schema except
// ensure_schema (schema.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <sqlite3.h>

namespace kernelopt::store::detail {

// Throws Error("kernelopt.store") with `what` and the connection's message unless rc is SQLITE_OK.
void check(sqlite3* db, int rc, std::string_view what);

// Opens (creating if absent) the database at `path`: WAL journal, synchronous=FULL, a busy
// timeout, foreign keys on, extended result codes. The caller owns the handle (sqlite3_close_v2).
sqlite3* open_connection(const std::string& path);

// Closes a handle from open_connection; deferred by SQLite until its last statement is finalized.
void close_connection(sqlite3* db) noexcept;

// Runs `sql` (one or more statements, no parameters, results ignored).
void exec(sqlite3* db, const char* sql);

// The run store's schema (schema.cpp): creates it when the file has none, migrates an older one;
// throws when its version is newer than this build's.
void ensure_schema(sqlite3* db);

// One prepared statement, finalized on destruction. Parameters are 1-based as in SQLite.
class Statement {
 public:
  Statement(sqlite3* db, std::string_view sql);

  ~Statement();

  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  Statement(Statement&&) = delete;
  Statement& operator=(Statement&&) = delete;

  // Binders return *this so that a statement reads as one chain. Text is copied by SQLite.
  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, double value);
  Statement& bind(int index, std::string_view value);
  Statement& bind(int index, std::optional<std::int64_t> value);

  // Advances: true when a row is ready, false when the statement is done; throws otherwise.
  bool step();

  // Steps to the end, expecting no row.
  void run();

  std::int64_t column_int64(int index) const;
  double column_double(int index) const;
  std::string column_text(int index) const;  // "" for NULL
  std::optional<std::string> column_optional_text(int index) const;
  std::optional<std::int64_t> column_optional_int64(int index) const;

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

// BEGIN IMMEDIATE on construction; ROLLBACK on destruction unless commit() ran. Rolling back from
// a destructor cannot throw: a failed rollback aborts, which the store survives by design (every
// step is one transaction, so a dead process leaves the whole step or nothing).
class Transaction {
 public:
  explicit Transaction(sqlite3* db);

  ~Transaction();

  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  Transaction(Transaction&&) = delete;
  Transaction& operator=(Transaction&&) = delete;

  void commit();

 private:
  sqlite3* db_;
  bool done_ = false;
};

}  // namespace kernelopt::store::detail
