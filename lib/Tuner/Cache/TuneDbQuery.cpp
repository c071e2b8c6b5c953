//===- TuneDbQuery.cpp - Reading the tune database ----------------------===//

#include "SqliteSupport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
using namespace deplodock::tuner;
using namespace deplodock::tuner::sqlite;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

FailureOr<std::optional<std::string>>
TuneDb::lookupOp(OpLevel level, StringRef key, std::string &error) {
  std::string sql =
      ("SELECT pretty FROM " + tableOf(level) + " WHERE key = ?1").str();
  FailureOr<Statement> stmt =
      Statement::prepare(handle, path, sql, "looking up an op", error);
  if (failed(stmt))
    return failure();
  stmt->bind(1, key);
  return readOptionalRow<std::string>(
      *stmt,
      [](const Statement &stmt, std::string &) -> FailureOr<std::string> {
        return stmt.text(0);
      },
      error);
}

/// Reads a `cuda_op` row: key, pretty, source, kernel_name, grid, block,
/// smem_bytes, arg_order.
static FailureOr<CudaOpRow> readCudaOp(const Statement &stmt,
                                       std::string &error) {
  CudaOpRow op;
  op.key = stmt.text(0);
  op.pretty = stmt.text(1);
  op.source = stmt.text(2);
  op.kernelName = stmt.text(3);
  FailureOr<std::array<int64_t, 3>> grid = readDim3(stmt, 4, error);
  if (failed(grid))
    return failure();
  FailureOr<std::array<int64_t, 3>> block = readDim3(stmt, 5, error);
  if (failed(block))
    return failure();
  op.grid = *grid;
  op.block = *block;
  op.smemBytes = stmt.integer(6);
  std::string argText = stmt.text(7);
  llvm::Expected<llvm::json::Value> args = llvm::json::parse(argText);
  if (!args || !args->getAsArray()) {
    if (!args)
      llvm::consumeError(args.takeError());
    error = stmt.malformed(7, "is not a JSON list: " + argText);
    return failure();
  }
  op.argOrder = std::move(*args->getAsArray());
  return op;
}

FailureOr<std::optional<CudaOpRow>> TuneDb::lookupCudaOp(StringRef key,
                                                         std::string &error) {
  FailureOr<Statement> stmt = Statement::prepare(
      handle, path,
      "SELECT key, pretty, source, kernel_name, grid, block, smem_bytes, "
      "arg_order FROM cuda_op WHERE key = ?1",
      "looking up a CUDA kernel", error);
  if (failed(stmt))
    return failure();
  stmt->bind(1, key);
  return readOptionalRow<CudaOpRow>(*stmt, readCudaOp, error);
}

FailureOr<std::optional<DeviceContext>>
TuneDb::lookupContext(StringRef key, std::string &error) {
  std::string sql =
      ("SELECT " + kContextColumns + " FROM context WHERE context_key = ?1")
          .str();
  FailureOr<Statement> stmt =
      Statement::prepare(handle, path, sql, "looking up a context", error);
  if (failed(stmt))
    return failure();
  stmt->bind(1, key);
  return readOptionalRow<DeviceContext>(*stmt, readContext, error);
}

FailureOr<std::vector<DeviceContext>> TuneDb::allContexts(std::string &error) {
  std::string sql =
      ("SELECT " + kContextColumns + " FROM context ORDER BY context_key")
          .str();
  FailureOr<Statement> stmt =
      Statement::prepare(handle, path, sql, "listing contexts", error);
  if (failed(stmt))
    return failure();
  return readAllRows<DeviceContext>(*stmt, readContext, error);
}

/// The columns of `lowering`, in the order readLowering reads them.
static constexpr StringRef kLoweringColumns =
    "context_key, parent_key, parent_dialect, child_key, child_dialect, "
    "knobs, best_median_us, updated_at";

/// Reads a lowering row selected with kLoweringColumns.
static FailureOr<LoweringRow> readLowering(const Statement &stmt,
                                           std::string &error) {
  LoweringRow row;
  row.contextKey = stmt.text(0);
  row.parentKey = stmt.text(1);
  std::optional<OpLevel> parent = symbolizeOpLevel(stmt.text(2));
  row.childKey = stmt.text(3);
  std::optional<OpLevel> child = symbolizeOpLevel(stmt.text(4));
  if (!parent || !child) {
    error = stmt.malformed(parent ? 4 : 2, "is not an op level");
    return failure();
  }
  row.parentLevel = *parent;
  row.childLevel = *child;
  FailureOr<llvm::json::Object> knobs = readObject(stmt, 5, error);
  if (failed(knobs))
    return failure();
  row.knobs = std::move(*knobs);
  row.bestMedianUs = stmt.optionalReal(6);
  row.updatedAt = stmt.text(7);
  return row;
}

FailureOr<std::optional<LoweringRow>>
TuneDb::lookupLowering(StringRef contextKey, StringRef parentKey,
                       std::string &error) {
  std::string sql = ("SELECT " + kLoweringColumns +
                     " FROM lowering WHERE context_key = ?1 AND "
                     "parent_key = ?2 AND best_median_us IS NOT NULL")
                        .str();
  FailureOr<Statement> stmt =
      Statement::prepare(handle, path, sql, "looking up a lowering", error);
  if (failed(stmt))
    return failure();
  stmt->bind(1, contextKey).bind(2, parentKey);
  return readOptionalRow<LoweringRow>(*stmt, readLowering, error);
}

FailureOr<std::vector<LoweringRow>> TuneDb::allLowerings(StringRef contextKey,
                                                         std::string &error) {
  std::string sql = ("SELECT " + kLoweringColumns +
                     " FROM lowering WHERE context_key = ?1 "
                     "ORDER BY parent_key")
                        .str();
  FailureOr<Statement> stmt =
      Statement::prepare(handle, path, sql, "listing lowerings", error);
  if (failed(stmt))
    return failure();
  stmt->bind(1, contextKey);
  return readAllRows<LoweringRow>(*stmt, readLowering, error);
}

/// The columns of `perf`, in the order readPerf reads them.
static constexpr StringRef kPerfColumns =
    "context_key, op_key, backend, kernel_key, status, median_us, min_us, "
    "max_us, mean_us, variance_us2, n_samples, knobs, detail, measured_at";

/// Orders perf rows: ok rows fastest first, then failures.
static constexpr StringRef kPerfOrder =
    " ORDER BY status <> 'ok', median_us IS NULL, median_us, op_key, backend";

/// Reads a perf row selected with kPerfColumns.
static FailureOr<PerfRow> readPerf(const Statement &stmt, std::string &error) {
  PerfRow row;
  row.contextKey = stmt.text(0);
  row.opKey = stmt.text(1);
  row.backend = stmt.text(2);
  row.kernelKey = stmt.text(3);
  std::optional<MeasureStatus> status = symbolizeMeasureStatus(stmt.text(4));
  if (!status) {
    error = stmt.malformed(4, "is not a perf status");
    return failure();
  }
  row.status = *status;
  if (!stmt.isNull(5)) {
    PerfStats stats;
    stats.medianUs = stmt.real(5);
    stats.minUs = stmt.real(6);
    stats.maxUs = stmt.real(7);
    stats.meanUs = stmt.real(8);
    stats.varianceUs2 = stmt.real(9);
    stats.numSamples = stmt.integer(10);
    row.stats = stats;
  }
  FailureOr<llvm::json::Object> knobs = readObject(stmt, 11, error);
  if (failed(knobs))
    return failure();
  row.knobs = std::move(*knobs);
  row.detail = stmt.text(12);
  row.measuredAt = stmt.text(13);
  return row;
}

FailureOr<std::optional<PerfRow>> TuneDb::lookupPerf(StringRef contextKey,
                                                     StringRef opKey,
                                                     StringRef backend,
                                                     std::string &error) {
  std::string sql = ("SELECT " + kPerfColumns +
                     " FROM perf WHERE context_key = ?1 AND op_key = ?2 AND "
                     "backend = ?3")
                        .str();
  FailureOr<Statement> stmt =
      Statement::prepare(handle, path, sql, "looking up a measurement", error);
  if (failed(stmt))
    return failure();
  stmt->bind(1, contextKey).bind(2, opKey).bind(3, backend);
  return readOptionalRow<PerfRow>(*stmt, readPerf, error);
}

/// Runs a perf query with `key1` and maybe `key2` bound, collecting rows.
static FailureOr<std::vector<PerfRow>> listPerf(sqlite3 *db, StringRef path,
                                                StringRef sql, StringRef key1,
                                                std::optional<StringRef> key2,
                                                std::string &error) {
  FailureOr<Statement> stmt =
      Statement::prepare(db, path, sql, "listing measurements", error);
  if (failed(stmt))
    return failure();
  stmt->bind(1, key1);
  if (key2)
    stmt->bind(2, *key2);
  return readAllRows<PerfRow>(*stmt, readPerf, error);
}

FailureOr<std::vector<PerfRow>> TuneDb::allPerf(StringRef contextKey,
                                                std::string &error) {
  std::string sql = ("SELECT " + kPerfColumns +
                     " FROM perf WHERE context_key = ?1" + kPerfOrder)
                        .str();
  return listPerf(handle, path, sql, contextKey, std::nullopt, error);
}

FailureOr<std::vector<PerfRow>> TuneDb::kernelPerf(StringRef contextKey,
                                                   StringRef kernelKey,
                                                   std::string &error) {
  std::string sql =
      ("SELECT " + kPerfColumns +
       " FROM perf WHERE context_key = ?1 AND kernel_key = ?2" + kPerfOrder)
          .str();
  return listPerf(handle, path, sql, contextKey, kernelKey, error);
}

/// The columns of `best`, in the order readBest reads them.
static constexpr StringRef kBestColumns =
    "context_key, kernel_key, backend, op_key, knobs, median_us, measured_at";

/// Reads a best row selected with kBestColumns.
static FailureOr<BestRow> readBest(const Statement &stmt, std::string &error) {
  BestRow row;
  row.contextKey = stmt.text(0);
  row.kernelKey = stmt.text(1);
  row.backend = stmt.text(2);
  row.opKey = stmt.text(3);
  FailureOr<llvm::json::Object> knobs = readObject(stmt, 4, error);
  if (failed(knobs))
    return failure();
  row.knobs = std::move(*knobs);
  row.medianUs = stmt.real(5);
  row.measuredAt = stmt.text(6);
  return row;
}

FailureOr<std::optional<BestRow>> TuneDb::bestKnobs(StringRef contextKey,
                                                    StringRef kernelKey,
                                                    StringRef backend,
                                                    std::string &error) {
  std::string sql = ("SELECT " + kBestColumns +
                     " FROM best WHERE context_key = ?1 AND kernel_key = ?2 "
                     "AND backend = ?3")
                        .str();
  FailureOr<Statement> stmt = Statement::prepare(
      handle, path, sql, "looking up a kernel's best knobs", error);
  if (failed(stmt))
    return failure();
  stmt->bind(1, contextKey).bind(2, kernelKey).bind(3, backend);
  return readOptionalRow<BestRow>(*stmt, readBest, error);
}

FailureOr<std::vector<BestRow>> TuneDb::allBest(StringRef contextKey,
                                                std::string &error) {
  std::string sql = ("SELECT " + kBestColumns +
                     " FROM best WHERE context_key = ?1 "
                     "ORDER BY kernel_key, backend")
                        .str();
  FailureOr<Statement> stmt =
      Statement::prepare(handle, path, sql, "listing best knobs", error);
  if (failed(stmt))
    return failure();
  stmt->bind(1, contextKey);
  return readAllRows<BestRow>(*stmt, readBest, error);
}
