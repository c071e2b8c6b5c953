//===- TuneDbQuery.cpp - Reading the tune database ----------------------===//

#include "SqliteSupport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace deplodock::tuner;
using namespace deplodock::tuner::sqlite;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

Expected<std::optional<std::string>> TuneDb::lookupOp(OpLevel level,
                                                      StringRef key) {
  std::string sql =
      ("SELECT pretty FROM " + tableOf(level) + " WHERE key = ?1").str();
  Expected<Statement> stmt =
      Statement::prepare(handle, path, sql, "looking up an op");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, key);
  return readOptionalRow<std::string>(
      *stmt, [](const Statement &stmt) -> Expected<std::string> {
        return stmt.text(0);
      });
}

/// Reads a `cuda_op` row: key, pretty, source, kernel_name, grid, block,
/// smem_bytes, arg_order.
static Expected<CudaOpRow> readCudaOp(const Statement &stmt) {
  CudaOpRow op;
  op.key = stmt.text(0);
  op.pretty = stmt.text(1);
  op.source = stmt.text(2);
  op.kernelName = stmt.text(3);
  Expected<std::array<int64_t, 3>> grid = readDim3(stmt, 4);
  if (!grid)
    return grid.takeError();
  Expected<std::array<int64_t, 3>> block = readDim3(stmt, 5);
  if (!block)
    return block.takeError();
  op.grid = *grid;
  op.block = *block;
  op.smemBytes = stmt.integer(6);
  std::string argText = stmt.text(7);
  llvm::Expected<llvm::json::Value> args = llvm::json::parse(argText);
  if (!args || !args->getAsArray()) {
    if (!args)
      llvm::consumeError(args.takeError());
    return stmt.malformed(7, "is not a JSON list: " + argText);
  }
  op.argOrder = std::move(*args->getAsArray());
  return op;
}

Expected<std::optional<CudaOpRow>> TuneDb::lookupCudaOp(StringRef key) {
  Expected<Statement> stmt = Statement::prepare(
      handle, path,
      "SELECT key, pretty, source, kernel_name, grid, block, smem_bytes, "
      "arg_order FROM cuda_op WHERE key = ?1",
      "looking up a CUDA kernel");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, key);
  return readOptionalRow<CudaOpRow>(*stmt, readCudaOp);
}

Expected<std::optional<DeviceContext>> TuneDb::lookupContext(StringRef key) {
  std::string sql =
      ("SELECT " + kContextColumns + " FROM context WHERE context_key = ?1")
          .str();
  Expected<Statement> stmt =
      Statement::prepare(handle, path, sql, "looking up a context");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, key);
  return readOptionalRow<DeviceContext>(*stmt, readContext);
}

Expected<std::vector<DeviceContext>> TuneDb::allContexts() {
  std::string sql =
      ("SELECT " + kContextColumns + " FROM context ORDER BY context_key")
          .str();
  Expected<Statement> stmt =
      Statement::prepare(handle, path, sql, "listing contexts");
  if (!stmt)
    return stmt.takeError();
  return readAllRows<DeviceContext>(*stmt, readContext);
}

/// The columns of `lowering`, in the order readLowering reads them.
static constexpr StringRef kLoweringColumns =
    "context_key, parent_key, parent_dialect, child_key, child_dialect, "
    "knobs, best_median_us, updated_at";

/// Reads a lowering row selected with kLoweringColumns.
static Expected<LoweringRow> readLowering(const Statement &stmt) {
  LoweringRow row;
  row.contextKey = stmt.text(0);
  row.parentKey = stmt.text(1);
  std::optional<OpLevel> parent = symbolizeOpLevel(stmt.text(2));
  row.childKey = stmt.text(3);
  std::optional<OpLevel> child = symbolizeOpLevel(stmt.text(4));
  if (!parent || !child) {
    return stmt.malformed(parent ? 4 : 2, "is not an op level");
  }
  row.parentLevel = *parent;
  row.childLevel = *child;
  Expected<llvm::json::Object> knobs = readObject(stmt, 5);
  if (!knobs)
    return knobs.takeError();
  row.knobs = std::move(*knobs);
  row.bestMedianUs = stmt.optionalReal(6);
  row.updatedAt = stmt.text(7);
  return row;
}

Expected<std::optional<LoweringRow>>
TuneDb::lookupLowering(StringRef contextKey, StringRef parentKey) {
  std::string sql = ("SELECT " + kLoweringColumns +
                     " FROM lowering WHERE context_key = ?1 AND "
                     "parent_key = ?2 AND best_median_us IS NOT NULL")
                        .str();
  Expected<Statement> stmt =
      Statement::prepare(handle, path, sql, "looking up a lowering");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, contextKey).bind(2, parentKey);
  return readOptionalRow<LoweringRow>(*stmt, readLowering);
}

Expected<std::vector<LoweringRow>> TuneDb::allLowerings(StringRef contextKey) {
  std::string sql = ("SELECT " + kLoweringColumns +
                     " FROM lowering WHERE context_key = ?1 "
                     "ORDER BY parent_key")
                        .str();
  Expected<Statement> stmt =
      Statement::prepare(handle, path, sql, "listing lowerings");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, contextKey);
  return readAllRows<LoweringRow>(*stmt, readLowering);
}

/// The columns of `perf`, in the order readPerf reads them.
static constexpr StringRef kPerfColumns =
    "context_key, op_key, backend, kernel_key, status, median_us, min_us, "
    "max_us, mean_us, variance_us2, n_samples, knobs, detail, measured_at";

/// Orders perf rows: ok rows fastest first, then failures.
static constexpr StringRef kPerfOrder =
    " ORDER BY status <> 'ok', median_us IS NULL, median_us, op_key, backend";

/// Reads a perf row selected with kPerfColumns.
static Expected<PerfRow> readPerf(const Statement &stmt) {
  PerfRow row;
  row.contextKey = stmt.text(0);
  row.opKey = stmt.text(1);
  row.backend = stmt.text(2);
  row.kernelKey = stmt.text(3);
  std::optional<MeasureStatus> status = symbolizeMeasureStatus(stmt.text(4));
  if (!status) {
    return stmt.malformed(4, "is not a perf status");
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
  Expected<llvm::json::Object> knobs = readObject(stmt, 11);
  if (!knobs)
    return knobs.takeError();
  row.knobs = std::move(*knobs);
  row.detail = stmt.text(12);
  row.measuredAt = stmt.text(13);
  return row;
}

Expected<std::optional<PerfRow>>
TuneDb::lookupPerf(StringRef contextKey, StringRef opKey, StringRef backend) {
  std::string sql = ("SELECT " + kPerfColumns +
                     " FROM perf WHERE context_key = ?1 AND op_key = ?2 AND "
                     "backend = ?3")
                        .str();
  Expected<Statement> stmt =
      Statement::prepare(handle, path, sql, "looking up a measurement");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, contextKey).bind(2, opKey).bind(3, backend);
  return readOptionalRow<PerfRow>(*stmt, readPerf);
}

/// Runs a perf query with `key1` and maybe `key2` bound, collecting rows.
static Expected<std::vector<PerfRow>> listPerf(sqlite3 *db, StringRef path,
                                               StringRef sql, StringRef key1,
                                               std::optional<StringRef> key2) {
  Expected<Statement> stmt =
      Statement::prepare(db, path, sql, "listing measurements");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, key1);
  if (key2)
    stmt->bind(2, *key2);
  return readAllRows<PerfRow>(*stmt, readPerf);
}

Expected<std::vector<PerfRow>> TuneDb::allPerf(StringRef contextKey) {
  std::string sql = ("SELECT " + kPerfColumns +
                     " FROM perf WHERE context_key = ?1" + kPerfOrder)
                        .str();
  return listPerf(handle, path, sql, contextKey, std::nullopt);
}

Expected<std::vector<PerfRow>> TuneDb::kernelPerf(StringRef contextKey,
                                                  StringRef kernelKey) {
  std::string sql =
      ("SELECT " + kPerfColumns +
       " FROM perf WHERE context_key = ?1 AND kernel_key = ?2" + kPerfOrder)
          .str();
  return listPerf(handle, path, sql, contextKey, kernelKey);
}

/// The columns of `best`, in the order readBest reads them.
static constexpr StringRef kBestColumns =
    "context_key, kernel_key, backend, op_key, knobs, median_us, measured_at";

/// Reads a best row selected with kBestColumns.
static Expected<BestRow> readBest(const Statement &stmt) {
  BestRow row;
  row.contextKey = stmt.text(0);
  row.kernelKey = stmt.text(1);
  row.backend = stmt.text(2);
  row.opKey = stmt.text(3);
  Expected<llvm::json::Object> knobs = readObject(stmt, 4);
  if (!knobs)
    return knobs.takeError();
  row.knobs = std::move(*knobs);
  row.medianUs = stmt.real(5);
  row.measuredAt = stmt.text(6);
  return row;
}

Expected<std::optional<BestRow>> TuneDb::bestKnobs(StringRef contextKey,
                                                   StringRef kernelKey,
                                                   StringRef backend) {
  std::string sql = ("SELECT " + kBestColumns +
                     " FROM best WHERE context_key = ?1 AND kernel_key = ?2 "
                     "AND backend = ?3")
                        .str();
  Expected<Statement> stmt =
      Statement::prepare(handle, path, sql, "looking up a kernel's best knobs");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, contextKey).bind(2, kernelKey).bind(3, backend);
  return readOptionalRow<BestRow>(*stmt, readBest);
}

Expected<std::vector<BestRow>> TuneDb::allBest(StringRef contextKey) {
  std::string sql = ("SELECT " + kBestColumns +
                     " FROM best WHERE context_key = ?1 "
                     "ORDER BY kernel_key, backend")
                        .str();
  Expected<Statement> stmt =
      Statement::prepare(handle, path, sql, "listing best knobs");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, contextKey);
  return readAllRows<BestRow>(*stmt, readBest);
}

Expected<std::vector<BestRow>> TuneDb::familyBest(StringRef contextKey,
                                                  StringRef familyKey,
                                                  StringRef backend) {
  std::string sql = "SELECT best." +
                    llvm::join(llvm::split(kBestColumns, ", "), ", best.") +
                    " FROM best JOIN kernel_family ON best.kernel_key = "
                    "kernel_family.kernel_key WHERE best.context_key = ?1 AND "
                    "kernel_family.family_key = ?2 AND best.backend = ?3 "
                    "ORDER BY best.median_us, best.kernel_key";
  Expected<Statement> stmt =
      Statement::prepare(handle, path, sql, "listing a family's best knobs");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, contextKey).bind(2, familyKey).bind(3, backend);
  return readAllRows<BestRow>(*stmt, readBest);
}

Expected<std::vector<std::pair<std::string, std::string>>>
TuneDb::allOps(OpLevel level) {
  std::string sql =
      ("SELECT key, pretty FROM " + tableOf(level) + " ORDER BY key").str();
  Expected<Statement> stmt =
      Statement::prepare(handle, path, sql, "listing ops");
  if (!stmt)
    return stmt.takeError();
  return readAllRows<std::pair<std::string, std::string>>(
      *stmt,
      [](const Statement &stmt)
          -> Expected<std::pair<std::string, std::string>> {
        return std::make_pair(stmt.text(0), stmt.text(1));
      });
}
