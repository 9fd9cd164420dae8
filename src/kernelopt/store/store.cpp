#include "kernelopt/store/store.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
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

using detail::Statement;

constexpr const char* kFileName = "kernelopt.sqlite";

constexpr const char* kProblemColumns =
    "id, name, path, status, class, detail, started_at, finished_at";
constexpr const char* kCandidateColumns =
    "id, problem_id, segment, key, source_path, proposer, strategy, settings_json, created_at";
constexpr const char* kGateColumns =
    "id, candidate_id, gate, status, detail, numbers_json, created_at";

ProblemRow read_problem(const Statement& s) {
  ProblemRow row;
  row.id = s.column_int64(0);
  row.name = s.column_text(1);
  row.path = s.column_text(2);
  row.status = parse_problem_status(s.column_text(3));
  row.outcome_class = s.column_text(4);
  row.detail = s.column_text(5);
  row.started_at = s.column_optional_text(6);
  row.finished_at = s.column_optional_text(7);
  return row;
}

CandidateRow read_candidate(const Statement& s) {
  CandidateRow row;
  row.id = s.column_int64(0);
  row.problem_id = s.column_int64(1);
  row.segment = static_cast<int>(s.column_int64(2));
  row.key = s.column_text(3);
  row.source_path = s.column_text(4);
  row.proposer = s.column_text(5);
  row.strategy = s.column_text(6);
  row.settings = nlohmann::json::parse(s.column_text(7));
  row.created_at = s.column_text(8);
  return row;
}

GateRow read_gate(const Statement& s) {
  GateRow row;
  row.id = s.column_int64(0);
  row.candidate_id = s.column_int64(1);
  row.gate = s.column_text(2);
  row.status = s.column_text(3);
  row.detail = s.column_text(4);
  row.numbers = nlohmann::json::parse(s.column_text(5));
  row.created_at = s.column_text(6);
  return row;
}

MeasurementRow read_measurement(const Statement& s) {
  MeasurementRow row;
  row.id = s.column_int64(0);
  row.measurement.problem_id = s.column_int64(1);
  row.measurement.candidate_id = s.column_optional_int64(2);
  row.measurement.name = s.column_text(3);
  row.measurement.value = s.column_double(4);
  row.measurement.unit = s.column_text(5);
  row.measurement.samples = nlohmann::json::parse(s.column_text(6)).get<std::vector<double>>();
  row.created_at = s.column_text(7);
  return row;
}

// Steps `s` to the end, reading each row with `read`.
template <typename Row>
std::vector<Row> read_all(Statement& s, Row (*read)(const Statement&)) {
  std::vector<Row> rows;
  while (s.step()) {
    rows.push_back(read(s));
  }
  return rows;
}

}  // namespace

std::string_view to_string(ProblemStatus status) {
  switch (status) {
    case ProblemStatus::kPending:
      return "pending";
    case ProblemStatus::kRunning:
      return "running";
    case ProblemStatus::kDone:
      return "done";
    case ProblemStatus::kFailed:
      return "failed";
  }
  KO_CHECK(false);
  return "";
}

ProblemStatus parse_problem_status(std::string_view text) {
  for (const ProblemStatus s : {ProblemStatus::kPending, ProblemStatus::kRunning,
                                ProblemStatus::kDone, ProblemStatus::kFailed}) {
    if (to_string(s) == text) return s;
  }
  throw Error("kernelopt.store", fmt::format("unknown problem status '{}' in the store", text));
}

void Store::Closer::operator()(sqlite3* db) const noexcept {
  detail::close_connection(db);
}

Store::Store(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}

Store::~Store() = default;

Store::Store(Store&&) noexcept = default;

Store& Store::operator=(Store&&) noexcept = default;

Store Store::open(const std::string& run_dir) {
  if (!std::filesystem::is_directory(run_dir)) {
    throw Error("kernelopt.store", fmt::format("run directory {} does not exist", run_dir),
                ExitCode::kUsage);
  }
  std::string path = (std::filesystem::path(run_dir) / kFileName).string();
  sqlite3* db = detail::open_connection(path);
  Store store(db, std::move(path));
  detail::ensure_schema(store.db());
  return store;
}

sqlite3* Store::db() const {
  KO_CHECK(db_ != nullptr);  // a moved-from Store is not used
  return db_.get();
}

std::int64_t Store::upsert_problem(std::string_view name, std::string_view path) {
  Statement s(db(),
              "INSERT INTO problems (name, path) VALUES (?1, ?2) "
              "ON CONFLICT (name) DO UPDATE SET path = excluded.path RETURNING id");
  s.bind(1, name).bind(2, path);
  KO_CHECK(s.step());
  const std::int64_t id = s.column_int64(0);
  KO_CHECK(!s.step());
  return id;
}

void Store::set_problem_status(std::int64_t problem_id,
                               ProblemStatus status,
                               std::string_view outcome_class,
                               std::string_view detail) {
  const bool starts = status == ProblemStatus::kRunning;
  const bool finishes = status == ProblemStatus::kDone || status == ProblemStatus::kFailed;
  Statement s(db(),
              "UPDATE problems SET status = ?2, class = ?3, detail = ?4, "
              "started_at = CASE WHEN ?5 THEN coalesce(started_at, "
              "  strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) ELSE started_at END, "
              "finished_at = CASE WHEN ?6 THEN strftime('%Y-%m-%dT%H:%M:%fZ', 'now') "
              "  WHEN ?5 THEN NULL ELSE finished_at END "
              "WHERE id = ?1");
  s.bind(1, problem_id).bind(2, to_string(status)).bind(3, outcome_class).bind(4, detail);
  s.bind(5, std::int64_t{starts ? 1 : 0}).bind(6, std::int64_t{finishes ? 1 : 0});
  s.run();
  if (sqlite3_changes(db()) != 1) {
    throw Error("kernelopt.store", fmt::format("no problem with id {}", problem_id));
  }
}

std::optional<ProblemRow> Store::problem(std::string_view name) const {
  Statement s(db(), fmt::format("SELECT {} FROM problems WHERE name = ?1", kProblemColumns));
  s.bind(1, name);
  if (!s.step()) return std::nullopt;
  return read_problem(s);
}

std::vector<ProblemRow> Store::problems() const {
  Statement s(db(), fmt::format("SELECT {} FROM problems ORDER BY id", kProblemColumns));
  return read_all(s, read_problem);
}

std::int64_t Store::add_candidate(std::int64_t problem_id,
                                  int segment,
                                  std::string_view key,
                                  std::string_view source_path,
                                  std::string_view proposer) {
  CandidateInfo info;
  info.segment = segment;
  info.key = key;
  info.source_path = source_path;
  info.proposer = proposer;
  return add_candidate(problem_id, info);
}

std::int64_t Store::add_candidate(std::int64_t problem_id, const CandidateInfo& info) {
  {
    Statement s(db(),
                "INSERT INTO candidates "
                "(problem_id, segment, key, source_path, proposer, strategy, settings_json) "
                "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) "
                "ON CONFLICT (problem_id, segment, key) DO NOTHING RETURNING id");
    s.bind(1, problem_id).bind(2, std::int64_t{info.segment}).bind(3, info.key);
    s.bind(4, info.source_path).bind(5, info.proposer).bind(6, info.strategy);
    s.bind(7, info.settings.dump());
    if (s.step()) {
      const std::int64_t id = s.column_int64(0);
      KO_CHECK(!s.step());
      return id;
    }
  }
  const std::optional<CandidateRow> existing = candidate(problem_id, info.segment, info.key);
  KO_CHECK(existing.has_value());
  return existing->id;
}

std::optional<CandidateRow> Store::candidate(std::int64_t problem_id,
                                             int segment,
                                             std::string_view key) const {
  Statement s(db(), fmt::format("SELECT {} FROM candidates "
                                "WHERE problem_id = ?1 AND segment = ?2 AND key = ?3",
                                kCandidateColumns));
  s.bind(1, problem_id).bind(2, std::int64_t{segment}).bind(3, key);
  if (!s.step()) return std::nullopt;
  return read_candidate(s);
}

std::vector<CandidateRow> Store::candidates(std::int64_t problem_id) const {
  Statement s(db(), fmt::format("SELECT {} FROM candidates WHERE problem_id = ?1 ORDER BY id",
                                kCandidateColumns));
  s.bind(1, problem_id);
  return read_all(s, read_candidate);
}

void Store::record_gate(std::int64_t candidate_id,
                        std::string_view gate,
                        std::string_view status,
                        std::string_view detail,
                        const nlohmann::json& numbers) {
  Statement s(db(),
              "INSERT INTO gate_results (candidate_id, gate, status, detail, numbers_json) "
              "VALUES (?1, ?2, ?3, ?4, ?5) "
              "ON CONFLICT (candidate_id, gate) DO UPDATE SET status = excluded.status, "
              "detail = excluded.detail, numbers_json = excluded.numbers_json, "
              "created_at = excluded.created_at");
  s.bind(1, candidate_id).bind(2, gate).bind(3, status).bind(4, detail).bind(5, numbers.dump());
  s.run();
}

std::optional<GateRow> Store::gate_result(std::int64_t candidate_id, std::string_view gate) const {
  Statement s(db(), fmt::format("SELECT {} FROM gate_results WHERE candidate_id = ?1 AND gate = ?2",
                                kGateColumns));
  s.bind(1, candidate_id).bind(2, gate);
  if (!s.step()) return std::nullopt;
  return read_gate(s);
}

std::vector<GateRow> Store::gate_results(std::int64_t candidate_id) const {
  Statement s(db(), fmt::format("SELECT {} FROM gate_results WHERE candidate_id = ?1 ORDER BY id",
                                kGateColumns));
  s.bind(1, candidate_id);
  return read_all(s, read_gate);
}

std::int64_t Store::add_measurement(const Measurement& m) {
  Statement s(db(),
              "INSERT INTO measurements "
              "(problem_id, candidate_id, name, value, unit, samples_json) "
              "VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id");
  s.bind(1, m.problem_id).bind(2, m.candidate_id).bind(3, m.name).bind(4, m.value);
  s.bind(5, m.unit).bind(6, nlohmann::json(m.samples).dump());
  KO_CHECK(s.step());
  const std::int64_t id = s.column_int64(0);
  KO_CHECK(!s.step());
  return id;
}

std::vector<MeasurementRow> Store::measurements(std::int64_t problem_id) const {
  Statement s(db(),
              "SELECT id, problem_id, candidate_id, name, value, unit, samples_json, created_at "
              "FROM measurements WHERE problem_id = ?1 ORDER BY id");
  s.bind(1, problem_id);
  return read_all(s, read_measurement);
}

void Store::transaction(const std::function<void()>& body) {
  if (sqlite3_get_autocommit(db()) == 0) {
    throw Error("kernelopt.store", "Store::transaction is not reentrant");
  }
  detail::Transaction tx(db());
  body();
  tx.commit();
}

std::string Store::integrity_check() const {
  Statement s(db(), "PRAGMA integrity_check");
  std::string out;
  while (s.step()) {
    if (!out.empty()) out += '\n';
    out += s.column_text(0);
  }
  return out;
}

}  // namespace kernelopt::store
