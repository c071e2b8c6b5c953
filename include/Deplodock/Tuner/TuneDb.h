//===- TuneDb.h - The tuner's SQLite cache ----------------------*- C++ -*-===//
//
// The persistent record of what the tuner measured and decided, one SQLite
// file shared by every process on a machine (WAL, busy timeout, versioned
// schema). Keys (structural hashes of ops, the context key of a device) and
// knob sets (JSON objects) are computed by the caller: this library knows
// nothing of the IR. docs/Tuner/Cache.md describes the tables and the
// keep-best rules.
//
// Every operation returns an llvm::Error (or an Expected holding one) with a
// message on bad input, a corrupt or foreign file, or an SQLite error; none
// aborts or throws.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_TUNER_TUNEDB_H
#define DEPLODOCK_TUNER_TUNEDB_H

#include "Deplodock/Tuner/MeasureStatus.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace deplodock::tuner {

/// The schema version this build reads and writes (PRAGMA user_version).
constexpr int64_t kTuneDbSchemaVersion = 2;

/// Marks a file as a deplodock tune database (PRAGMA application_id, "DPLK").
constexpr int64_t kTuneDbApplicationId = 0x44504C4B;

/// The environment variable that overrides the default database path.
constexpr llvm::StringLiteral kTuneDbEnvVar = "DEPLODOCK_TUNE_DB";

//===----------------------------------------------------------------------===//
// Values stored in the database
//===----------------------------------------------------------------------===//

/// The level of an op the tuner records: one inventory table each.
enum class OpLevel { Loop, Tile, Kernel, Cuda };

/// "loop", "tile", "kernel" or "cuda" (the `*_dialect` columns).
llvm::StringRef stringifyOpLevel(OpLevel level);

/// The level spelled `text`, if any.
std::optional<OpLevel> symbolizeOpLevel(llvm::StringRef text);

/// Serializes `knobs` canonically: compact, keys sorted at every level, so
/// equal knob sets give equal text.
std::string formatKnobs(const llvm::json::Object &knobs);

/// Reparses `text`, which must be a JSON object, and formats it canonically.
llvm::Expected<std::string> canonicalizeKnobs(llvm::StringRef text);

/// The device fingerprint a context key stands for. The key is a hash the
/// caller computes over every field; the database stores the fields so that
/// reports can say which GPU and toolchain a row was measured on.
struct DeviceContext {
  std::string key;
  std::string gpuName;
  int64_t ccMajor = 0;
  int64_t ccMinor = 0;
  int64_t smCount = 0;
  int64_t l2Bytes = 0;
  std::string driverVersion;
  std::string cudaVersion;
  std::string nvrtcVersion;
  /// The deplodock version (or build hash) that produced the kernels.
  std::string compilerVersion;
  /// Anything else hashed into the key (compile flags, clocks), as JSON.
  llvm::json::Object extra;
  /// When the context was first recorded (UTC ISO-8601); set by the database.
  std::string createdAt;
};

/// A finished CUDA kernel: the inventory row of the `cuda_op` table.
struct CudaOpRow {
  std::string key;
  std::string pretty;
  std::string source;
  std::string kernelName;
  std::array<int64_t, 3> grid = {1, 1, 1};
  std::array<int64_t, 3> block = {1, 1, 1};
  int64_t smemBytes = 0;
  /// The kernel's parameters in launch order (names or indices), as JSON.
  llvm::json::Array argOrder;
};

/// One hop of a lowering chain: the best known child of `parentKey` in a
/// context, the knob delta the rewrite stamped, and the best median of a
/// finished kernel reached through the hop (none if every one failed).
struct LoweringRow {
  std::string contextKey;
  std::string parentKey;
  OpLevel parentLevel = OpLevel::Tile;
  std::string childKey;
  OpLevel childLevel = OpLevel::Tile;
  llvm::json::Object knobs;
  std::optional<double> bestMedianUs;
  /// When the row was last replaced (UTC ISO-8601); set by the database.
  std::string updatedAt;
};

/// Latency statistics of one variant over its samples, in microseconds.
struct PerfStats {
  double medianUs = 0;
  double minUs = 0;
  double maxUs = 0;
  double meanUs = 0;
  /// Variance of the samples, in µs².
  double varianceUs2 = 0;
  int64_t numSamples = 0;
};

/// One benchmarked variant: the `perf` row of (context, op key, backend).
struct PerfRow {
  std::string contextKey;
  /// The key of the measured (terminal) op, usually a `cuda_op` key.
  std::string opKey;
  /// The backend that measured it: "cuda", "model", "replay"...
  std::string backend;
  /// The key of the untuned kernel this op is a variant of; when set, an ok
  /// row also competes for the `best` row of that kernel. May be empty.
  std::string kernelKey;
  MeasureStatus status = MeasureStatus::Ok;
  /// Required when `status` is ok; optional for failures.
  std::optional<PerfStats> stats;
  /// The full knob set that produced this variant.
  llvm::json::Object knobs;
  /// Why a variant failed (first line of a compile log...), or empty.
  std::string detail;
  /// When it was measured (UTC ISO-8601); set by the database.
  std::string measuredAt;
};

/// The decision for one kernel in a context: the full knob set of its
/// fastest ok variant, so replay can apply it in one lookup.
struct BestRow {
  std::string contextKey;
  std::string kernelKey;
  std::string backend;
  /// The variant (perf op key) that achieved `medianUs`.
  std::string opKey;
  llvm::json::Object knobs;
  double medianUs = 0;
  std::string measuredAt;
};

/// Row counts of every table, for reports and tests.
struct TuneDbCounts {
  int64_t loopOps = 0;
  int64_t tileOps = 0;
  int64_t kernelOps = 0;
  int64_t cudaOps = 0;
  int64_t contexts = 0;
  int64_t lowerings = 0;
  int64_t perf = 0;
  int64_t perfOk = 0;
  int64_t best = 0;
};

/// How to open a database file.
struct TuneDbOptions {
  /// Open for reading only: the file must exist and be initialized. In a
  /// directory this process cannot write (an installed database), the file
  /// is read as immutable.
  bool readOnly = false;
  /// Fail if the file does not exist, instead of creating it (and its
  /// missing parent directories).
  bool mustExist = false;
  /// How long a statement waits for another process's lock before failing.
  int busyTimeoutMs = 15000;
  /// Run `PRAGMA quick_check` on open, so a truncated or damaged file is
  /// reported at once rather than by some later query (about 1 ms per MB).
  bool checkIntegrity = true;
};

/// The default database path: $DEPLODOCK_TUNE_DB when set and not empty,
/// else ~/.cache/deplodock/autotune.db ($HOME, else the password database).
/// Creates nothing; TuneDb::open creates the missing directories.
llvm::Expected<std::string> getDefaultTuneDbPath();

//===----------------------------------------------------------------------===//
// TuneDb
//===----------------------------------------------------------------------===//

/// A connection to a tune database. Movable, not copyable, not thread-safe:
/// use one per thread. Never carry one across fork(); open a new one in the
/// child. Each write is one SQL statement or one transaction, so concurrent
/// writers from several processes cannot interleave a read-modify-write.
class TuneDb {
public:
  /// Opens (creating and initializing when needed) the database at `path`.
  /// Fails with a message for a file that is not SQLite, is corrupt, is
  /// another application's database, has a newer schema version, or cannot
  /// be created.
  static llvm::Expected<TuneDb> open(llvm::StringRef path,
                                     const TuneDbOptions &options);
  /// Opens the database at getDefaultTuneDbPath().
  static llvm::Expected<TuneDb> openDefault(const TuneDbOptions &options);
  /// A fresh private database in memory, for tests and dry runs.
  static llvm::Expected<TuneDb> openInMemory();

  TuneDb(TuneDb &&other) noexcept;
  TuneDb &operator=(TuneDb &&other) noexcept;
  TuneDb(const TuneDb &) = delete;
  TuneDb &operator=(const TuneDb &) = delete;
  ~TuneDb();

  /// The file this connection reads (":memory:" in memory).
  llvm::StringRef getPath() const { return path; }

  //===--------------------------------------------------------------------===//
  // Transactions
  //===--------------------------------------------------------------------===//

  /// An explicit write transaction (BEGIN IMMEDIATE: it takes the write lock
  /// at once, waiting up to the busy timeout). Rolled back when destroyed
  /// uncommitted. Batch a few records in one to save commits; keep it short,
  /// other writers wait meanwhile.
  class Transaction {
  public:
    Transaction(Transaction &&other) noexcept;
    Transaction &operator=(Transaction &&) = delete;
    Transaction(const Transaction &) = delete;
    ~Transaction();
    /// Makes the writes durable and visible to other connections.
    llvm::Error commit();
    /// Discards the writes.
    llvm::Error rollback();

  private:
    friend class TuneDb;
    explicit Transaction(TuneDb *db) : db(db) {}
    TuneDb *db;
  };

  /// Begins a write transaction; fails while one is already open. The
  /// Transaction points at this TuneDb: do not move the TuneDb meanwhile.
  llvm::Expected<Transaction> beginTransaction();

  //===--------------------------------------------------------------------===//
  // Writes
  //===--------------------------------------------------------------------===//

  /// Records a loop, tile or kernel op in its inventory table. Idempotent:
  /// returns false, changing nothing, when `key` is already there.
  llvm::Expected<bool> recordOp(OpLevel level, llvm::StringRef key,
                                llvm::StringRef pretty);
  /// Records a CUDA kernel in `cuda_op`; idempotent like recordOp.
  llvm::Expected<bool> recordCudaOp(const CudaOpRow &op);

  /// Records a device context. Idempotent; fails when the key is already
  /// recorded with a different fingerprint (the key must hash every field).
  llvm::Error recordContext(const DeviceContext &context);

  /// Keep-best upsert of a lowering hop. A new row is inserted; an existing
  /// one is replaced only by a strictly lower, non-null median, so a null
  /// (every variant failed) never overwrites. Returns whether the row was
  /// written. The context must be recorded.
  llvm::Expected<bool> recordLowering(const LoweringRow &row);

  /// Keep-best upsert of a measurement. An ok row replaces a stored failure,
  /// or a stored ok row whose median is strictly higher (the lower median is
  /// kept); a failure never replaces an ok row but replaces an older
  /// failure. When the row is ok and names a
  /// kernel key, it also competes for that kernel's `best` row (strictly
  /// lower median wins), in the same transaction. Returns whether the perf
  /// row was written. The context must be recorded.
  llvm::Expected<bool> recordPerf(const PerfRow &row);

  /// Records that the kernel `kernelKey` belongs to the family `familyKey`
  /// (kernels equal up to extents). Idempotent.
  llvm::Error recordFamily(llvm::StringRef kernelKey,
                           llvm::StringRef familyKey);

  /// Deletes a context and every lowering, perf and best row measured in it
  /// (to re-tune a device from scratch). Returns whether it existed.
  llvm::Expected<bool> eraseContext(llvm::StringRef contextKey);

  //===--------------------------------------------------------------------===//
  // Queries
  //===--------------------------------------------------------------------===//

  /// Every op of a loop, tile or kernel inventory: (key, pretty), by key.
  llvm::Expected<std::vector<std::pair<std::string, std::string>>>
  allOps(OpLevel level);
  /// The pretty text of a loop, tile or kernel op, if recorded.
  llvm::Expected<std::optional<std::string>> lookupOp(OpLevel level,
                                                      llvm::StringRef key);
  /// The CUDA kernel `key`, if recorded.
  llvm::Expected<std::optional<CudaOpRow>> lookupCudaOp(llvm::StringRef key);
  /// The context `key`, if recorded.
  llvm::Expected<std::optional<DeviceContext>>
  lookupContext(llvm::StringRef key);

  /// The replay lookup of one fork hop: the best child of `parentKey` in
  /// `contextKey`. Rows without a median (every variant through the hop
  /// failed) are kept for reports but not returned: replay should fall back
  /// to the heuristic default there.
  llvm::Expected<std::optional<LoweringRow>>
  lookupLowering(llvm::StringRef contextKey, llvm::StringRef parentKey);
  /// The measurement of `opKey` on `backend` in `contextKey`, if any.
  llvm::Expected<std::optional<PerfRow>> lookupPerf(llvm::StringRef contextKey,
                                                    llvm::StringRef opKey,
                                                    llvm::StringRef backend);
  /// The replay lookup of one kernel: its best full knob set and median.
  llvm::Expected<std::optional<BestRow>> bestKnobs(llvm::StringRef contextKey,
                                                   llvm::StringRef kernelKey,
                                                   llvm::StringRef backend);

  /// Every context, by key.
  llvm::Expected<std::vector<DeviceContext>> allContexts();
  /// Every lowering row of a context (with null medians), by parent key.
  llvm::Expected<std::vector<LoweringRow>>
  allLowerings(llvm::StringRef contextKey);
  /// Every perf row of a context, fastest ok rows first, then failures.
  llvm::Expected<std::vector<PerfRow>> allPerf(llvm::StringRef contextKey);
  /// The perf rows of one kernel's variants in a context, ordered as allPerf.
  llvm::Expected<std::vector<PerfRow>> kernelPerf(llvm::StringRef contextKey,
                                                  llvm::StringRef kernelKey);
  /// The best rows of `backend` in `contextKey` of the kernels of family
  /// `familyKey`, fastest first.
  llvm::Expected<std::vector<BestRow>> familyBest(llvm::StringRef contextKey,
                                                  llvm::StringRef familyKey,
                                                  llvm::StringRef backend);
  /// Every best row of a context, by kernel key and backend.
  llvm::Expected<std::vector<BestRow>> allBest(llvm::StringRef contextKey);
  /// Row counts of every table.
  llvm::Expected<TuneDbCounts> counts();

  /// Runs `PRAGMA integrity_check`: success, or the problems it found.
  llvm::Error checkIntegrity();
  /// The journal mode in use: "wal" for files, "memory" in memory.
  llvm::Expected<std::string> getJournalMode();

private:
  TuneDb(sqlite3 *handle, std::string path) : handle(handle), path(path) {}

  /// Opens `filename` (`path`, or a URI for it) with SQLite `flags`, then
  /// initializes or verifies it.
  static llvm::Expected<TuneDb> openImpl(llvm::StringRef path,
                                         llvm::StringRef filename, int flags,
                                         const TuneDbOptions &options,
                                         bool inMemory);
  /// Checks the identity, version and integrity of the file; creates the
  /// schema in a fresh one.
  llvm::Error initialize(const TuneDbOptions &options, bool inMemory);

  sqlite3 *handle = nullptr;
  std::string path;
};

} // namespace deplodock::tuner

#endif // DEPLODOCK_TUNER_TUNEDB_H
