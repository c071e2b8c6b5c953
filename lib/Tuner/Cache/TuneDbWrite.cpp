//===- TuneDbWrite.cpp - Recording into the tune database ---------------===//
//
// Each write is one UPSERT whose WHERE clause is the keep-best rule, or one
// WriteScope (BEGIN IMMEDIATE, or a savepoint in the caller's transaction),
// so concurrent writers serialize on SQLite's lock instead of racing.
//
//===----------------------------------------------------------------------===//

#include "SqliteSupport.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdlib>

using namespace deplodock::tuner;
using namespace deplodock::tuner::sqlite;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// Writes
//===----------------------------------------------------------------------===//

Expected<bool> TuneDb::recordOp(OpLevel level, StringRef key,
                                StringRef pretty) {
  if (level == OpLevel::Cuda) {
    return makeError("recordOp: record CUDA kernels with recordCudaOp");
  }
  if (Error e = checkKey(key, "the key", "recordOp"))
    return std::move(e);
  std::string sql = ("INSERT INTO " + tableOf(level) +
                     " (key, pretty) VALUES (?1, ?2) "
                     "ON CONFLICT (key) DO NOTHING")
                        .str();
  Expected<Statement> stmt =
      Statement::prepare(handle, path, sql, "recording an op");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, key).bind(2, pretty);
  if (Error e = stmt->run())
    return std::move(e);
  return sqlite3_changes(handle) > 0;
}

Expected<bool> TuneDb::recordCudaOp(const CudaOpRow &op) {
  if (Error e = checkKey(op.key, "the key", "recordCudaOp"))
    return std::move(e);
  if (op.smemBytes < 0) {
    return makeError("recordCudaOp: smemBytes must not be negative");
  }
  Expected<Statement> stmt = Statement::prepare(
      handle, path,
      "INSERT INTO cuda_op (key, pretty, source, kernel_name, grid, block, "
      "smem_bytes, arg_order) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) "
      "ON CONFLICT (key) DO NOTHING",
      "recording a CUDA kernel");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, op.key)
      .bind(2, op.pretty)
      .bind(3, op.source)
      .bind(4, op.kernelName)
      .bind(5, formatDim3(op.grid))
      .bind(6, formatDim3(op.block))
      .bind(7, op.smemBytes)
      .bind(8, formatJson(llvm::json::Array(op.argOrder)));
  if (Error e = stmt->run())
    return std::move(e);
  return sqlite3_changes(handle) > 0;
}

Error TuneDb::recordContext(const DeviceContext &context) {
  if (Error e = checkKey(context.key, "the context key", "recordContext"))
    return e;
  std::string extra = formatKnobs(context.extra);
  Expected<Statement> insert = Statement::prepare(
      handle, path,
      "INSERT INTO context (context_key, gpu_name, cc_major, cc_minor, "
      "sm_count, l2_bytes, driver_version, cuda_version, nvrtc_version, "
      "compiler_version, extra, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, "
      "?7, ?8, ?9, ?10, ?11, " DEPLODOCK_NOW ") "
      "ON CONFLICT (context_key) DO NOTHING",
      "recording a context");
  if (!insert)
    return insert.takeError();
  insert->bind(1, context.key)
      .bind(2, context.gpuName)
      .bind(3, context.ccMajor)
      .bind(4, context.ccMinor)
      .bind(5, context.smCount)
      .bind(6, context.l2Bytes)
      .bind(7, context.driverVersion)
      .bind(8, context.cudaVersion)
      .bind(9, context.nvrtcVersion)
      .bind(10, context.compilerVersion)
      .bind(11, extra);
  if (Error e = insert->run())
    return e;
  if (sqlite3_changes(handle) > 0)
    return Error::success();

  // Already there: context rows never change, so no lock is needed to
  // compare.
  Expected<std::optional<DeviceContext>> stored = lookupContext(context.key);
  if (!stored)
    return stored.takeError();
  if (!*stored) {
    return makeError("tune database '" + path + "': context '" + context.key +
                     "' vanished while being recorded");
  }
  const DeviceContext &old = **stored;
  std::string diff;
  auto compare = [&](StringRef name, const llvm::Twine &was,
                     const llvm::Twine &now) {
    std::string a = was.str(), b = now.str();
    if (a != b)
      diff += (diff.empty() ? "" : ", ") + name.str() + " '" + a + "' vs '" +
              b + "'";
  };
  compare("gpu_name", old.gpuName, context.gpuName);
  compare("cc_major", llvm::Twine(old.ccMajor), llvm::Twine(context.ccMajor));
  compare("cc_minor", llvm::Twine(old.ccMinor), llvm::Twine(context.ccMinor));
  compare("sm_count", llvm::Twine(old.smCount), llvm::Twine(context.smCount));
  compare("l2_bytes", llvm::Twine(old.l2Bytes), llvm::Twine(context.l2Bytes));
  compare("driver_version", old.driverVersion, context.driverVersion);
  compare("cuda_version", old.cudaVersion, context.cudaVersion);
  compare("nvrtc_version", old.nvrtcVersion, context.nvrtcVersion);
  compare("compiler_version", old.compilerVersion, context.compilerVersion);
  compare("extra", formatKnobs(old.extra), extra);
  if (diff.empty())
    return Error::success();
  return makeError("tune database '" + path + "': context key '" + context.key +
                   "' is already recorded with a different fingerprint (" +
                   diff + "); the key must hash every field");
}

Expected<bool> TuneDb::recordLowering(const LoweringRow &row) {
  StringRef what = "recordLowering";
  for (auto [key, name] : {std::pair(row.contextKey, "the context key"),
                           std::pair(row.parentKey, "the parent key"),
                           std::pair(row.childKey, "the child key")})
    if (Error e = checkKey(key, name, what))
      return std::move(e);
  if (row.bestMedianUs)
    if (Error e = checkNonNegative(*row.bestMedianUs, "the median", what))
      return std::move(e);
  // Insert, or replace only with a strictly lower non-null median.
  Expected<Statement> stmt = Statement::prepare(
      handle, path,
      "INSERT INTO lowering (context_key, parent_key, parent_dialect, "
      "child_key, child_dialect, knobs, best_median_us, updated_at) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, " DEPLODOCK_NOW ") "
      "ON CONFLICT (context_key, parent_key) DO UPDATE SET "
      "parent_dialect = excluded.parent_dialect, "
      "child_key = excluded.child_key, "
      "child_dialect = excluded.child_dialect, knobs = excluded.knobs, "
      "best_median_us = excluded.best_median_us, "
      "updated_at = excluded.updated_at "
      "WHERE excluded.best_median_us IS NOT NULL AND "
      "(lowering.best_median_us IS NULL OR "
      "excluded.best_median_us < lowering.best_median_us)",
      "recording a lowering");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, row.contextKey)
      .bind(2, row.parentKey)
      .bind(3, stringifyOpLevel(row.parentLevel))
      .bind(4, row.childKey)
      .bind(5, stringifyOpLevel(row.childLevel))
      .bind(6, formatKnobs(row.knobs))
      .bind(7, row.bestMedianUs);
  if (Error e = stmt->run())
    return std::move(e);
  return sqlite3_changes(handle) > 0;
}

/// Checks the statistics of a perf row.
static Error checkStats(const PerfStats &stats) {
  StringRef what = "recordPerf";
  for (auto [value, name] : {std::pair(stats.medianUs, "the median"),
                             std::pair(stats.minUs, "the minimum"),
                             std::pair(stats.maxUs, "the maximum"),
                             std::pair(stats.meanUs, "the mean"),
                             std::pair(stats.varianceUs2, "the variance")})
    if (Error e = checkNonNegative(value, name, what))
      return e;
  if (stats.numSamples < 0)
    return makeError("recordPerf: the sample count must not be negative");
  return Error::success();
}

Expected<bool> TuneDb::recordPerf(const PerfRow &row) {
  StringRef what = "recordPerf";
  for (auto [key, name] : {std::pair(row.contextKey, "the context key"),
                           std::pair(row.opKey, "the op key"),
                           std::pair(row.backend, "the backend")})
    if (Error e = checkKey(key, name, what))
      return std::move(e);
  bool ok = row.status == MeasureStatus::Ok;
  if (ok && (!row.stats || row.stats->numSamples < 1))
    return makeError(
        "recordPerf: an ok row needs statistics of at least one sample");
  if (row.stats)
    if (Error e = checkStats(*row.stats))
      return std::move(e);
  std::string knobs = formatKnobs(row.knobs);

  Expected<WriteScope> scope = WriteScope::begin(handle, path);
  if (!scope)
    return scope.takeError();
  // Keep-best: an ok row replaces a failure or a slower ok row; a failure
  // replaces only a failure.
  Expected<Statement> perf = Statement::prepare(
      handle, path,
      "INSERT INTO perf (context_key, op_key, backend, kernel_key, status, "
      "median_us, min_us, max_us, mean_us, variance_us2, n_samples, knobs, "
      "detail, measured_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, "
      "?11, ?12, ?13, " DEPLODOCK_NOW ") "
      "ON CONFLICT (context_key, op_key, backend) DO UPDATE SET "
      "kernel_key = excluded.kernel_key, status = excluded.status, "
      "median_us = excluded.median_us, min_us = excluded.min_us, "
      "max_us = excluded.max_us, mean_us = excluded.mean_us, "
      "variance_us2 = excluded.variance_us2, "
      "n_samples = excluded.n_samples, knobs = excluded.knobs, "
      "detail = excluded.detail, measured_at = excluded.measured_at "
      "WHERE perf.status <> 'ok' OR (excluded.status = 'ok' AND "
      "excluded.median_us < perf.median_us)",
      "recording a measurement");
  if (!perf)
    return perf.takeError();
  perf->bind(1, row.contextKey)
      .bind(2, row.opKey)
      .bind(3, row.backend)
      .bindOrNull(4, row.kernelKey)
      .bind(5, measureStatusName(row.status));
  if (row.stats) {
    perf->bind(6, row.stats->medianUs)
        .bind(7, row.stats->minUs)
        .bind(8, row.stats->maxUs)
        .bind(9, row.stats->meanUs)
        .bind(10, row.stats->varianceUs2)
        .bind(11, row.stats->numSamples);
  } else {
    for (int i = 6; i <= 10; ++i)
      perf->bindNull(i);
    perf->bind(11, int64_t(0));
  }
  perf->bind(12, knobs).bind(13, row.detail);
  if (Error e = perf->run())
    return std::move(e);
  bool written = sqlite3_changes(handle) > 0;

  if (ok && !row.kernelKey.empty()) {
    Expected<Statement> best = Statement::prepare(
        handle, path,
        "INSERT INTO best (context_key, kernel_key, backend, op_key, knobs, "
        "median_us, measured_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, " DEPLODOCK_NOW
        ") ON CONFLICT (context_key, kernel_key, backend) DO UPDATE SET "
        "op_key = excluded.op_key, knobs = excluded.knobs, "
        "median_us = excluded.median_us, measured_at = excluded.measured_at "
        "WHERE excluded.median_us < best.median_us",
        "recording a kernel's best variant");
    if (!best)
      return best.takeError();
    best->bind(1, row.contextKey)
        .bind(2, row.kernelKey)
        .bind(3, row.backend)
        .bind(4, row.opKey)
        .bind(5, knobs)
        .bind(6, row.stats->medianUs);
    if (Error e = best->run())
      return std::move(e);
  }
  if (Error e = scope->commit())
    return std::move(e);
  return written;
}

Expected<bool> TuneDb::eraseContext(StringRef contextKey) {
  // One statement: the foreign keys cascade to lowering, perf and best.
  Expected<Statement> stmt = Statement::prepare(
      handle, path, "DELETE FROM context WHERE context_key = ?1",
      "erasing a context");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, contextKey);
  if (Error e = stmt->run())
    return std::move(e);
  return sqlite3_changes(handle) > 0;
}

Error TuneDb::recordFamily(StringRef kernelKey, StringRef familyKey) {
  StringRef what = "recordFamily";
  if (Error e = checkKey(kernelKey, "the kernel key", what))
    return e;
  if (Error e = checkKey(familyKey, "the family key", what))
    return e;
  Expected<Statement> stmt = Statement::prepare(
      handle, path,
      "INSERT INTO kernel_family (kernel_key, family_key) VALUES (?1, ?2) "
      "ON CONFLICT (kernel_key) DO NOTHING",
      "recording a kernel family");
  if (!stmt)
    return stmt.takeError();
  stmt->bind(1, kernelKey).bind(2, familyKey);
  return stmt->run();
}
