//===- TuneDb.cpp - The tuner's SQLite cache: schema and opening ---------===//
//
// Creates or opens the database file: the schema, its version and our
// application id checked on open, WAL and the busy timeout, the integrity
// check of a file another process may have left half-written. Writing is in
// TuneDbWrite.cpp, reading in TuneDbQuery.cpp.
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

using namespace mlir;
using namespace deplodock::tuner;
using namespace deplodock::tuner::sqlite;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// Schema
//===----------------------------------------------------------------------===//

/// The schema of version kTuneDbSchemaVersion. Timestamps are UTC ISO-8601
/// with milliseconds; JSON columns hold canonical (sorted-key) text.
static constexpr StringRef kSchema = R"sql(
CREATE TABLE loop_op (
  key TEXT PRIMARY KEY NOT NULL,
  pretty TEXT NOT NULL) STRICT;
CREATE TABLE tile_op (
  key TEXT PRIMARY KEY NOT NULL,
  pretty TEXT NOT NULL) STRICT;
CREATE TABLE kernel_op (
  key TEXT PRIMARY KEY NOT NULL,
  pretty TEXT NOT NULL) STRICT;
CREATE TABLE cuda_op (
  key TEXT PRIMARY KEY NOT NULL,
  pretty TEXT NOT NULL,
  source TEXT NOT NULL,
  kernel_name TEXT NOT NULL,
  grid TEXT NOT NULL CHECK (json_valid(grid)),
  block TEXT NOT NULL CHECK (json_valid(block)),
  smem_bytes INTEGER NOT NULL CHECK (smem_bytes >= 0),
  arg_order TEXT NOT NULL CHECK (json_valid(arg_order))) STRICT;
CREATE TABLE context (
  context_key TEXT PRIMARY KEY NOT NULL,
  gpu_name TEXT NOT NULL,
  cc_major INTEGER NOT NULL,
  cc_minor INTEGER NOT NULL,
  sm_count INTEGER NOT NULL,
  l2_bytes INTEGER NOT NULL,
  driver_version TEXT NOT NULL,
  cuda_version TEXT NOT NULL,
  nvrtc_version TEXT NOT NULL,
  compiler_version TEXT NOT NULL,
  extra TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(extra)),
  created_at TEXT NOT NULL) STRICT;
CREATE TABLE lowering (
  context_key TEXT NOT NULL
    REFERENCES context (context_key) ON DELETE CASCADE,
  parent_key TEXT NOT NULL,
  parent_dialect TEXT NOT NULL
    CHECK (parent_dialect IN ('loop', 'tile', 'kernel', 'cuda')),
  child_key TEXT NOT NULL,
  child_dialect TEXT NOT NULL
    CHECK (child_dialect IN ('loop', 'tile', 'kernel', 'cuda')),
  knobs TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(knobs)),
  best_median_us REAL CHECK (best_median_us >= 0),
  updated_at TEXT NOT NULL,
  PRIMARY KEY (context_key, parent_key)) STRICT;
CREATE TABLE perf (
  context_key TEXT NOT NULL
    REFERENCES context (context_key) ON DELETE CASCADE,
  op_key TEXT NOT NULL,
  backend TEXT NOT NULL,
  kernel_key TEXT,
  status TEXT NOT NULL CHECK (status IN
    ('ok', 'compile_fail', 'launch_fail', 'timeout', 'wrong_result')),
  median_us REAL CHECK (median_us >= 0),
  min_us REAL,
  max_us REAL,
  mean_us REAL,
  variance_us2 REAL,
  n_samples INTEGER NOT NULL DEFAULT 0 CHECK (n_samples >= 0),
  knobs TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(knobs)),
  detail TEXT NOT NULL DEFAULT '',
  measured_at TEXT NOT NULL,
  CHECK ((median_us IS NULL) = (min_us IS NULL) AND
         (median_us IS NULL) = (max_us IS NULL) AND
         (median_us IS NULL) = (mean_us IS NULL) AND
         (median_us IS NULL) = (variance_us2 IS NULL)),
  CHECK (status <> 'ok' OR (median_us IS NOT NULL AND n_samples > 0)),
  PRIMARY KEY (context_key, op_key, backend)) STRICT;
CREATE INDEX perf_by_kernel ON perf (context_key, kernel_key);
CREATE TABLE best (
  context_key TEXT NOT NULL
    REFERENCES context (context_key) ON DELETE CASCADE,
  kernel_key TEXT NOT NULL,
  backend TEXT NOT NULL,
  op_key TEXT NOT NULL,
  knobs TEXT NOT NULL CHECK (json_valid(knobs)),
  median_us REAL NOT NULL CHECK (median_us >= 0),
  measured_at TEXT NOT NULL,
  PRIMARY KEY (context_key, kernel_key, backend)) STRICT;
)sql";

//===----------------------------------------------------------------------===//
// Enums, knobs, paths
//===----------------------------------------------------------------------===//

StringRef deplodock::tuner::stringifyOpLevel(OpLevel level) {
  switch (level) {
  case OpLevel::Loop:
    return "loop";
  case OpLevel::Tile:
    return "tile";
  case OpLevel::Kernel:
    return "kernel";
  case OpLevel::Cuda:
    return "cuda";
  }
  llvm_unreachable("unknown op level");
}

std::optional<OpLevel> deplodock::tuner::symbolizeOpLevel(StringRef text) {
  for (OpLevel level :
       {OpLevel::Loop, OpLevel::Tile, OpLevel::Kernel, OpLevel::Cuda})
    if (text == stringifyOpLevel(level))
      return level;
  return std::nullopt;
}

std::string deplodock::tuner::formatKnobs(const llvm::json::Object &knobs) {
  return formatJson(llvm::json::Object(knobs));
}

FailureOr<std::string> deplodock::tuner::canonicalizeKnobs(StringRef text,
                                                           std::string &error) {
  FailureOr<llvm::json::Object> knobs = parseJsonObject(text, "knobs", error);
  if (failed(knobs))
    return failure();
  return formatKnobs(*knobs);
}

FailureOr<std::string>
deplodock::tuner::getDefaultTuneDbPath(std::string &error) {
  if (const char *env = std::getenv(kTuneDbEnvVar.data()); env && *env)
    return std::string(env);
  llvm::SmallString<256> path;
  if (!llvm::sys::path::home_directory(path)) {
    error = ("cannot find the home directory for the default tune database; "
             "set $HOME or $" +
             kTuneDbEnvVar)
                .str();
    return failure();
  }
  llvm::sys::path::append(path, ".cache", "deplodock", "autotune.db");
  return std::string(path);
}

//===----------------------------------------------------------------------===//
// Opening
//===----------------------------------------------------------------------===//

TuneDb::TuneDb(TuneDb &&other) noexcept
    : handle(other.handle), path(std::move(other.path)) {
  other.handle = nullptr;
}

TuneDb &TuneDb::operator=(TuneDb &&other) noexcept {
  if (this != &other) {
    sqlite3_close_v2(handle);
    handle = other.handle;
    path = std::move(other.path);
    other.handle = nullptr;
  }
  return *this;
}

TuneDb::~TuneDb() { sqlite3_close_v2(handle); }

FailureOr<TuneDb> TuneDb::open(StringRef path, const TuneDbOptions &options,
                               std::string &error) {
  namespace fs = llvm::sys::fs;
  auto fail = [&](const llvm::Twine &why) {
    error = ("tune database '" + path + "': " + why).str();
    return failure();
  };
  if (path.empty())
    return fail("the path is empty");
  if (path == ":memory:")
    return fail("use openInMemory() for an in-memory database");
  if (fs::is_directory(path))
    return fail("is a directory");

  StringRef dir = llvm::sys::path::parent_path(path);
  if (dir.empty())
    dir = ".";
  if (!fs::exists(path)) {
    if (options.readOnly || options.mustExist)
      return fail("no such file");
    if (!fs::exists(dir)) {
      if (std::error_code ec = fs::create_directories(dir))
        return fail("cannot create directory '" + dir + "': " + ec.message());
    } else if (!fs::is_directory(dir)) {
      return fail("cannot create the file: '" + dir + "' is not a directory");
    }
    if (fs::access(dir, fs::AccessMode::Write))
      return fail("cannot create the file: directory '" + dir +
                  "' is not writable");
  } else if (!options.readOnly) {
    if (fs::access(path, fs::AccessMode::Write))
      return fail("the file is not writable (open it read-only to replay)");
    // WAL mode keeps PATH-wal and PATH-shm beside the file.
    if (fs::access(dir, fs::AccessMode::Write))
      return fail("directory '" + dir +
                  "' is not writable, and SQLite needs to create the "
                  "write-ahead log there");
  }

  if (options.readOnly && fs::access(dir, fs::AccessMode::Write) &&
      !fs::exists(path + "-shm")) {
    // Reading a WAL database needs its shared-memory file, which cannot be
    // created here: the file is installed read-only, and SQLite may read it
    // as immutable.
    std::string uri = "file:";
    for (char c : path) {
      if (c == '%' || c == '?' || c == '#')
        uri += llvm::formatv("%{0:X-2}", static_cast<unsigned char>(c)).str();
      else
        uri += c;
    }
    uri += "?immutable=1";
    return openImpl(path, uri, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, options,
                    /*inMemory=*/false, error);
  }
  int flags = options.readOnly ? SQLITE_OPEN_READONLY
                               : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  return openImpl(path, path, flags, options, /*inMemory=*/false, error);
}

FailureOr<TuneDb> TuneDb::openDefault(const TuneDbOptions &options,
                                      std::string &error) {
  FailureOr<std::string> path = getDefaultTuneDbPath(error);
  if (failed(path))
    return failure();
  return open(*path, options, error);
}

FailureOr<TuneDb> TuneDb::openInMemory(std::string &error) {
  return openImpl(
      ":memory:", ":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
      TuneDbOptions(), /*inMemory=*/true, error);
}

FailureOr<TuneDb> TuneDb::openImpl(StringRef path, StringRef filename,
                                   int flags, const TuneDbOptions &options,
                                   bool inMemory, std::string &error) {
  sqlite3 *handle = nullptr;
  std::string filenameText = filename.str();
  int rc = sqlite3_open_v2(filenameText.c_str(), &handle,
                           flags | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE,
                           nullptr);
  if (rc != SQLITE_OK) {
    error = describeError(handle, path, "opening", rc);
    sqlite3_close_v2(handle);
    return failure();
  }
  // From here on the TuneDb owns the handle and closes it on failure.
  TuneDb db(handle, path.str());
  sqlite3_extended_result_codes(handle, 1);
  sqlite3_busy_timeout(handle, options.busyTimeoutMs);
  if (failed(db.initialize(options, inMemory, error)))
    return failure();
  return db;
}

/// Reads one text value from `sql`.
static FailureOr<std::string> queryText(sqlite3 *db, StringRef path,
                                        StringRef sql, StringRef what,
                                        std::string &error) {
  FailureOr<Statement> stmt = Statement::prepare(db, path, sql, what, error);
  if (failed(stmt))
    return failure();
  FailureOr<bool> row = stmt->step(error);
  if (failed(row))
    return failure();
  return *row ? stmt->text(0) : std::string();
}

/// The identity of a database file.
struct FileIdentity {
  int64_t applicationId = 0;
  int64_t version = 0;
  int64_t objects = 0;
};

/// Reads the identity of `db` in one statement, so from one snapshot while
/// another process may be initializing the file. It is the first read of the
/// file, where a file of another kind fails.
static FailureOr<FileIdentity> readIdentity(sqlite3 *db, StringRef path,
                                            std::string &error) {
  FailureOr<Statement> stmt = Statement::prepare(
      db, path,
      "SELECT (SELECT application_id FROM pragma_application_id), "
      "(SELECT user_version FROM pragma_user_version), "
      "(SELECT count(*) FROM sqlite_schema)",
      "reading the file header", error);
  if (failed(stmt))
    return failure();
  FailureOr<bool> row = stmt->step(error);
  if (failed(row))
    return failure();
  FileIdentity id;
  if (*row) {
    id.applicationId = stmt->integer(0);
    id.version = stmt->integer(1);
    id.objects = stmt->integer(2);
  }
  return id;
}

/// Whether `db` has a table called `name`.
static bool hasTable(sqlite3 *db, StringRef path, StringRef name) {
  std::string error;
  FailureOr<Statement> stmt = Statement::prepare(
      db, path, "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?",
      "reading the schema", error);
  if (failed(stmt))
    return false;
  stmt->bind(1, name);
  FailureOr<bool> row = stmt->step(error);
  return succeeded(row) && *row;
}

/// Runs an integrity-check pragma; returns the problems it found, joined
/// by "; ", or "" when the file is sound.
static FailureOr<std::string> runIntegrityCheck(sqlite3 *db, StringRef path,
                                                StringRef pragma,
                                                std::string &error) {
  FailureOr<Statement> stmt =
      Statement::prepare(db, path, pragma, "checking integrity", error);
  if (failed(stmt))
    return failure();
  std::string problems;
  while (true) {
    FailureOr<bool> row = stmt->step(error);
    if (failed(row))
      return failure();
    if (!*row)
      return problems;
    std::string line = stmt->text(0);
    if (line != "ok")
      problems += (problems.empty() ? "" : "; ") + line;
  }
}

/// Switches `db` to WAL mode, once per file. The switch needs an exclusive
/// lock, and SQLite reports a conflict at once rather than calling the busy
/// handler (waiting could deadlock), so it is retried here for up to
/// `timeoutMs`.
static LogicalResult enableWal(sqlite3 *db, StringRef path, int timeoutMs,
                               std::string &error) {
  FailureOr<std::string> mode = queryText(db, path, "PRAGMA journal_mode",
                                          "reading the journal mode", error);
  if (failed(mode))
    return failure();
  if (*mode == "wal")
    return success();
  constexpr int kRetryMs = 5;
  for (int waited = 0;; waited += kRetryMs) {
    FailureOr<Statement> stmt =
        Statement::prepare(db, path, "PRAGMA journal_mode = WAL",
                           "enabling the write-ahead log", error);
    if (failed(stmt))
      return failure();
    if (succeeded(stmt->step(error)))
      return success();
    if ((sqlite3_extended_errcode(db) & 0xff) != SQLITE_BUSY ||
        waited >= timeoutMs)
      return failure();
    sqlite3_sleep(kRetryMs);
  }
}

LogicalResult TuneDb::initialize(const TuneDbOptions &options, bool inMemory,
                                 std::string &error) {
  auto fail = [&](const llvm::Twine &why) {
    error = ("tune database '" + path + "': " + why).str();
    return failure();
  };
  FailureOr<FileIdentity> id = readIdentity(handle, path, error);
  if (failed(id))
    return failure();
  bool fresh = id->version == 0 && id->objects == 0;
  if (!fresh) {
    if (id->applicationId != kTuneDbApplicationId) {
      if (id->applicationId == 0 && hasTable(handle, path, "perf") &&
          hasTable(handle, path, "lowering"))
        return fail("looks like a tune database of the Python deplodock "
                    "(no schema version); its rows carry no device context and "
                    "cannot be migrated: move it away and re-tune");
      return fail("is an SQLite database of another application "
                  "(application_id " +
                  llvm::Twine(id->applicationId) +
                  "), not a deplodock tune database; refusing to change it");
    }
    if (id->version > kTuneDbSchemaVersion)
      return fail("has schema version " + llvm::Twine(id->version) +
                  ", written by a newer deplodock; this build reads version " +
                  llvm::Twine(kTuneDbSchemaVersion) +
                  ": upgrade, or use another database path");
    // A schema change bumps kTuneDbSchemaVersion and adds a migration from
    // the previous version here, run under BEGIN IMMEDIATE. There is none
    // yet: version 1 is the first.
    if (id->version < kTuneDbSchemaVersion)
      return fail("has schema version " + llvm::Twine(id->version) +
                  ", older than this build's " +
                  llvm::Twine(kTuneDbSchemaVersion) +
                  ", and no migration exists: move it away and re-tune");
  } else if (options.readOnly) {
    return fail("is empty, not a tune database");
  }

  if (failed(execute(handle, path, "PRAGMA foreign_keys = ON",
                     "enabling foreign keys", error)))
    return failure();
  if (!options.readOnly && !inMemory) {
    // Persistent: WAL lets readers proceed while one process writes. Where
    // the file system cannot share memory, SQLite keeps its rollback journal
    // and the busy timeout still serializes writers.
    if (failed(enableWal(handle, path, options.busyTimeoutMs, error)) ||
        failed(execute(handle, path, "PRAGMA synchronous = NORMAL",
                       "setting synchronous mode", error)))
      return failure();
  }

  if (fresh) {
    // Another process may be initializing the same new file: take the
    // write lock, then look again.
    FailureOr<WriteScope> scope = WriteScope::begin(handle, path, error);
    if (failed(scope))
      return failure();
    id = readIdentity(handle, path, error);
    if (failed(id))
      return failure();
    if (id->version == 0 && id->objects == 0) {
      std::string sql = kSchema.str();
      sql +=
          "PRAGMA application_id = " + std::to_string(kTuneDbApplicationId) +
          ";\nPRAGMA user_version = " + std::to_string(kTuneDbSchemaVersion) +
          ";\n";
      if (failed(
              execute(handle, path, sql.c_str(), "creating the schema", error)))
        return failure();
    } else if (id->applicationId != kTuneDbApplicationId ||
               id->version != kTuneDbSchemaVersion) {
      return fail("was initialized concurrently by another program");
    }
    return scope->commit(error);
  }

  if (!options.checkIntegrity)
    return success();
  FailureOr<std::string> problems =
      runIntegrityCheck(handle, path, "PRAGMA quick_check(5)", error);
  if (failed(problems))
    return failure();
  if (!problems->empty())
    return fail("is corrupt (" + *problems +
                "); move it away to start a fresh cache");
  return success();
}

//===----------------------------------------------------------------------===//
// Transactions
//===----------------------------------------------------------------------===//

FailureOr<TuneDb::Transaction> TuneDb::beginTransaction(std::string &error) {
  if (!sqlite3_get_autocommit(handle)) {
    error = "tune database '" + path + "': a transaction is already open";
    return failure();
  }
  if (failed(execute(handle, path, "BEGIN IMMEDIATE", "beginning a transaction",
                     error)))
    return failure();
  return Transaction(this);
}

TuneDb::Transaction::Transaction(Transaction &&other) noexcept : db(other.db) {
  other.db = nullptr;
}

TuneDb::Transaction::~Transaction() {
  std::string ignored;
  if (db)
    (void)rollback(ignored);
}

LogicalResult TuneDb::Transaction::commit(std::string &error) {
  if (!db) {
    error = "the transaction is already finished";
    return failure();
  }
  if (failed(execute(db->handle, db->path, "COMMIT", "committing", error)))
    return failure();
  db = nullptr;
  return success();
}

LogicalResult TuneDb::Transaction::rollback(std::string &error) {
  if (!db) {
    error = "the transaction is already finished";
    return failure();
  }
  TuneDb *owner = db;
  db = nullptr;
  // After some errors SQLite has already rolled back.
  if (sqlite3_get_autocommit(owner->handle))
    return success();
  return execute(owner->handle, owner->path, "ROLLBACK", "rolling back", error);
}

FailureOr<TuneDbCounts> TuneDb::counts(std::string &error) {
  FailureOr<Statement> stmt = Statement::prepare(
      handle, path,
      "SELECT (SELECT count(*) FROM loop_op), (SELECT count(*) FROM tile_op), "
      "(SELECT count(*) FROM kernel_op), (SELECT count(*) FROM cuda_op), "
      "(SELECT count(*) FROM context), (SELECT count(*) FROM lowering), "
      "(SELECT count(*) FROM perf), "
      "(SELECT count(*) FROM perf WHERE status = 'ok'), "
      "(SELECT count(*) FROM best)",
      "counting rows", error);
  if (failed(stmt))
    return failure();
  FailureOr<bool> row = stmt->step(error);
  if (failed(row))
    return failure();
  TuneDbCounts counts;
  int64_t *fields[] = {&counts.loopOps, &counts.tileOps,  &counts.kernelOps,
                       &counts.cudaOps, &counts.contexts, &counts.lowerings,
                       &counts.perf,    &counts.perfOk,   &counts.best};
  for (auto [i, field] : llvm::enumerate(fields))
    *field = stmt->integer(static_cast<int>(i));
  return counts;
}

LogicalResult TuneDb::checkIntegrity(std::string &error) {
  FailureOr<std::string> problems =
      runIntegrityCheck(handle, path, "PRAGMA integrity_check(20)", error);
  if (failed(problems))
    return failure();
  if (problems->empty())
    return success();
  error = "tune database '" + path + "': is corrupt (" + *problems + ")";
  return failure();
}

FailureOr<std::string> TuneDb::getJournalMode(std::string &error) {
  return queryText(handle, path, "PRAGMA journal_mode", "reading journal mode",
                   error);
}
