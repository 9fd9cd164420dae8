#include "kernelopt/store/sqlite.hpp"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include <fmt/format.h>
#include <sqlite3.h>

#include "kernelopt/core/check.hpp"
#include "kernelopt/core/error.hpp"

namespace kernelopt::store::detail {
namespace {

constexpr int kBusyTimeoutMs = 30000;

[[noreturn]] void fail(sqlite3* db, int rc, std::string_view what) {
  const char* message = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  throw Error("kernelopt.store", fmt::format("{}: {} (sqlite code {})", what, message, rc),
              ExitCode::kEnvironment);
}

// Runs a PRAGMA that answers with one text row and returns that row.
std::string pragma_text(sqlite3* db, std::string_view sql) {
  Statement stmt(db, sql);
  if (!stmt.step()) {
    throw Error("kernelopt.store", fmt::format("{} returned no row", sql), ExitCode::kEnvironment);
  }
  std::string value = stmt.column_text(0);
  while (stmt.step()) {
  }
  return value;
}

// Switches the file to WAL and returns the journal mode SQLite chose. The switch takes an
// exclusive lock, and SQLite answers SQLITE_BUSY at once, without its busy handler, when another
// connection holds a lock it would have to wait behind: several processes opening a fresh cache at
// once met that. So a busy answer is retried here, for as long as the busy timeout.
std::string wal_mode(sqlite3* db) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(kBusyTimeoutMs);
  for (;;) {
    std::string mode;
    const int rc = sqlite3_exec(
        db, "PRAGMA journal_mode=WAL",
        [](void* out, int columns, char** values, char** /*names*/) {
          if (columns > 0 && values[0] != nullptr) *static_cast<std::string*>(out) = values[0];
          return 0;
        },
        &mode, nullptr);
    if ((rc & 0xff) != SQLITE_BUSY || std::chrono::steady_clock::now() >= until) {
      check(db, rc, "step 'PRAGMA journal_mode=WAL'");
      return mode;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

void configure(sqlite3* db) {
  check(db, sqlite3_extended_result_codes(db, 1), "sqlite3_extended_result_codes");
  check(db, sqlite3_busy_timeout(db, kBusyTimeoutMs), "sqlite3_busy_timeout");
  const std::string mode = wal_mode(db);
  if (mode != "wal") {
    throw Error("kernelopt.store",
                fmt::format("the store needs WAL journal mode, SQLite chose '{}'", mode),
                ExitCode::kEnvironment);
  }
  exec(db, "PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;");
  if (pragma_text(db, "PRAGMA foreign_keys") != "1") {
    throw Error("kernelopt.store", "this SQLite cannot enforce foreign keys",
                ExitCode::kEnvironment);
  }
}

}  // namespace

void check(sqlite3* db, int rc, std::string_view what) {
  if (rc != SQLITE_OK) fail(db, rc, what);
}

sqlite3* open_connection(const std::string& path) {
  sqlite3* db = nullptr;
  const int rc =
      sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  if (rc != SQLITE_OK) {
    const std::string message = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    close_connection(db);
    throw Error("kernelopt.store", fmt::format("cannot open {}: {}", path, message),
                ExitCode::kEnvironment);
  }
  try {
    configure(db);
  } catch (const Error&) {
    close_connection(db);
    throw;
  }
  return db;
}

void close_connection(sqlite3* db) noexcept {
  // close_v2 defers the close until the last statement is finalized; it fails only on misuse.
  KO_CHECK(sqlite3_close_v2(db) == SQLITE_OK);
}

void exec(sqlite3* db, const char* sql) {
  check(db, sqlite3_exec(db, sql, nullptr, nullptr, nullptr), sql);
}

Statement::Statement(sqlite3* db, std::string_view sql) : db_(db) {
  check(db_, sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr),
        fmt::format("prepare '{}'", sql));
  KO_CHECK(stmt_ != nullptr);  // empty SQL is a programming error
}

// sqlite3_finalize repeats the error of the last step, which step() has already thrown.
Statement::~Statement() {
  static_cast<void>(sqlite3_finalize(stmt_));
}

Statement& Statement::bind(int index, std::int64_t value) {
  check(db_, sqlite3_bind_int64(stmt_, index, value), "bind int64");
  return *this;
}

Statement& Statement::bind(int index, double value) {
  check(db_, sqlite3_bind_double(stmt_, index, value), "bind double");
  return *this;
}

Statement& Statement::bind(int index, std::string_view value) {
  check(
      db_,
      sqlite3_bind_text64(stmt_, index, value.data(), value.size(), SQLITE_TRANSIENT, SQLITE_UTF8),
      "bind text");
  return *this;
}

Statement& Statement::bind(int index, std::optional<std::int64_t> value) {
  if (value) return bind(index, *value);
  check(db_, sqlite3_bind_null(stmt_, index), "bind null");
  return *this;
}

bool Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  fail(db_, rc, fmt::format("step '{}'", sqlite3_sql(stmt_)));
}

void Statement::run() {
  if (step()) {
    throw Error("kernelopt.store", fmt::format("'{}' returned a row", sqlite3_sql(stmt_)));
  }
}

std::int64_t Statement::column_int64(int index) const {
  return static_cast<std::int64_t>(sqlite3_column_int64(stmt_, index));
}

double Statement::column_double(int index) const {
  return sqlite3_column_double(stmt_, index);
}

std::string Statement::column_text(int index) const {
  const unsigned char* text = sqlite3_column_text(stmt_, index);
  if (text == nullptr) return {};
  return {reinterpret_cast<const char*>(text),
          static_cast<std::size_t>(sqlite3_column_bytes(stmt_, index))};
}

std::optional<std::string> Statement::column_optional_text(int index) const {
  if (sqlite3_column_type(stmt_, index) == SQLITE_NULL) return std::nullopt;
  return column_text(index);
}

std::optional<std::int64_t> Statement::column_optional_int64(int index) const {
  if (sqlite3_column_type(stmt_, index) == SQLITE_NULL) return std::nullopt;
  return column_int64(index);
}

Transaction::Transaction(sqlite3* db) : db_(db) {
  exec(db_, "BEGIN IMMEDIATE");
}

Transaction::~Transaction() {
  // SQLite may already have rolled back on its own (e.g. after SQLITE_FULL); then autocommit is on.
  if (done_ || sqlite3_get_autocommit(db_) != 0) return;
  const int rc = sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) {
    std::fprintf(stderr, "kernelopt: [kernelopt.store] ROLLBACK failed: %s\n", sqlite3_errmsg(db_));
  }
  KO_CHECK(rc == SQLITE_OK);
}

void Transaction::commit() {
  exec(db_, "COMMIT");
  done_ = true;
}

}  // namespace kernelopt::store::detail
