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
)sql"
                                     // Version 2.
                                     R"sql(
CREATE TABLE kernel_family (
  kernel_key TEXT PRIMARY KEY NOT NULL,
  family_key TEXT NOT NULL) STRICT;
CREATE INDEX kernel_family_by_family ON kernel_family (family_key);
)sql";

/// What turns a version-1 file into version 2.
static constexpr StringRef kMigrationFrom1 = R"sql(
CREATE TABLE IF NOT EXISTS kernel_family (
  kernel_key TEXT PRIMARY KEY NOT NULL,
  family_key TEXT NOT NULL) STRICT;
CREATE INDEX IF NOT EXISTS kernel_family_by_family
  ON kernel_family (family_key);
PRAGMA user_version = 2;
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

Expected<std::string> deplodock::tuner::canonicalizeKnobs(StringRef text) {
  Expected<llvm::json::Object> knobs = parseJsonObject(text, "knobs");
  if (!knobs)
    return knobs.takeError();
  return formatKnobs(*knobs);
}

Expected<std::string> deplodock::tuner::getDefaultTuneDbPath() {
  if (const char *env = std::getenv(kTuneDbEnvVar.data()); env && *env)
    return std::string(env);
  llvm::SmallString<256> path;
  if (!llvm::sys::path::home_directory(path))
    return makeError("cannot find the home directory for the default tune "
                     "database; set $HOME or $" +
                     kTuneDbEnvVar);
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

Expected<TuneDb> TuneDb::open(StringRef path, const TuneDbOptions &options) {
  namespace fs = llvm::sys::fs;
  auto fail = [&](const llvm::Twine &why) {
    return makeError("tune database '" + path + "': " + why);
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
                    /*inMemory=*/false);
  }
  int flags = options.readOnly ? SQLITE_OPEN_READONLY
                               : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  return openImpl(path, path, flags, options, /*inMemory=*/false);
}

Expected<TuneDb> TuneDb::openDefault(const TuneDbOptions &options) {
  Expected<std::string> path = getDefaultTuneDbPath();
  if (!path)
    return path.takeError();
  return open(*path, options);
}

Expected<TuneDb> TuneDb::openInMemory() {
  return openImpl(
      ":memory:", ":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
      TuneDbOptions(), /*inMemory=*/true);
}

Expected<TuneDb> TuneDb::openImpl(StringRef path, StringRef filename, int flags,
                                  const TuneDbOptions &options, bool inMemory) {
  sqlite3 *handle = nullptr;
  std::string filenameText = filename.str();
  int rc = sqlite3_open_v2(filenameText.c_str(), &handle,
                           flags | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE,
                           nullptr);
  if (rc != SQLITE_OK) {
    Error error = describeError(handle, path, "opening", rc);
    sqlite3_close_v2(handle);
    return std::move(error);
  }
  // From here on the TuneDb owns the handle and closes it on failure.
  TuneDb db(handle, path.str());
  sqlite3_extended_result_codes(handle, 1);
  sqlite3_busy_timeout(handle, options.busyTimeoutMs);
  if (Error error = db.initialize(options, inMemory))
    return std::move(error);
  return std::move(db);
}

/// Reads one text value from `sql`.
static Expected<std::string> queryText(sqlite3 *db, StringRef path,
                                       StringRef sql, StringRef what) {
  Expected<Statement> stmt = Statement::prepare(db, path, sql, what);
  if (!stmt)
    return stmt.takeError();
  Expected<bool> row = stmt->step();
  if (!row)
    return row.takeError();
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
static Expected<FileIdentity> readIdentity(sqlite3 *db, StringRef path) {
  Expected<Statement> stmt = Statement::prepare(
      db, path,
      "SELECT (SELECT application_id FROM pragma_application_id), "
      "(SELECT user_version FROM pragma_user_version), "
      "(SELECT count(*) FROM sqlite_schema)",
      "reading the file header");
  if (!stmt)
    return stmt.takeError();
  Expected<bool> row = stmt->step();
  if (!row)
    return row.takeError();
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
  Expected<Statement> stmt = Statement::prepare(
      db, path, "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?",
      "reading the schema");
  if (!stmt) {
    llvm::consumeError(stmt.takeError());
    return false;
  }
  stmt->bind(1, name);
  Expected<bool> row = stmt->step();
  if (!row) {
    llvm::consumeError(row.takeError());
    return false;
  }
  return *row;
}

/// Runs an integrity-check pragma; returns the problems it found, joined
/// by "; ", or "" when the file is sound.
static Expected<std::string> runIntegrityCheck(sqlite3 *db, StringRef path,
                                               StringRef pragma) {
  Expected<Statement> stmt =
      Statement::prepare(db, path, pragma, "checking integrity");
  if (!stmt)
    return stmt.takeError();
  std::string problems;
  while (true) {
    Expected<bool> row = stmt->step();
    if (!row)
      return row.takeError();
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
static Error enableWal(sqlite3 *db, StringRef path, int timeoutMs) {
  Expected<std::string> mode =
      queryText(db, path, "PRAGMA journal_mode", "reading the journal mode");
  if (!mode)
    return mode.takeError();
  if (*mode == "wal")
    return Error::success();
  constexpr int kRetryMs = 5;
  for (int waited = 0;; waited += kRetryMs) {
    Expected<Statement> stmt = Statement::prepare(
        db, path, "PRAGMA journal_mode = WAL", "enabling the write-ahead log");
    if (!stmt)
      return stmt.takeError();
    Expected<bool> stepped = stmt->step();
    if (stepped)
      return Error::success();
    if ((sqlite3_extended_errcode(db) & 0xff) != SQLITE_BUSY ||
        waited >= timeoutMs)
      return stepped.takeError();
    llvm::consumeError(stepped.takeError());
    sqlite3_sleep(kRetryMs);
  }
}

Error TuneDb::initialize(const TuneDbOptions &options, bool inMemory) {
  auto fail = [&](const llvm::Twine &why) {
    return makeError("tune database '" + path + "': " + why);
  };
  Expected<FileIdentity> id = readIdentity(handle, path);
  if (!id)
    return id.takeError();
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
    // the previous version here, run under BEGIN IMMEDIATE. Version 2 added
    // kernel_family; a read-only version-1 file is read as it is (it has no
    // families).
    if (id->version == 1 && !options.readOnly) {
      Expected<WriteScope> scope = WriteScope::begin(handle, path);
      if (!scope)
        return scope.takeError();
      Expected<FileIdentity> again = readIdentity(handle, path);
      if (!again)
        return again.takeError();
      if (again->version == 1)
        if (Error e = execute(handle, path, kMigrationFrom1.data(),
                              "migrating from version 1"))
          return e;
      if (Error e = scope->commit())
        return e;
    } else if (id->version < kTuneDbSchemaVersion &&
               !(id->version == 1 && options.readOnly)) {
      return fail("has schema version " + llvm::Twine(id->version) +
                  ", older than this build's " +
                  llvm::Twine(kTuneDbSchemaVersion) +
                  ", and no migration exists: move it away and re-tune");
    }
  } else if (options.readOnly) {
    return fail("is empty, not a tune database");
  }

  if (Error e = execute(handle, path, "PRAGMA foreign_keys = ON",
                        "enabling foreign keys"))
    return e;
  if (!options.readOnly && !inMemory) {
    // Persistent: WAL lets readers proceed while one process writes. Where
    // the file system cannot share memory, SQLite keeps its rollback journal
    // and the busy timeout still serializes writers.
    if (Error e = enableWal(handle, path, options.busyTimeoutMs))
      return e;
    if (Error e = execute(handle, path, "PRAGMA synchronous = NORMAL",
                          "setting synchronous mode"))
      return e;
  }

  if (fresh) {
    // Another process may be initializing the same new file: take the
    // write lock, then look again.
    Expected<WriteScope> scope = WriteScope::begin(handle, path);
    if (!scope)
      return scope.takeError();
    id = readIdentity(handle, path);
    if (!id)
      return id.takeError();
    if (id->version == 0 && id->objects == 0) {
      std::string sql = kSchema.str();
      sql +=
          "PRAGMA application_id = " + std::to_string(kTuneDbApplicationId) +
          ";\nPRAGMA user_version = " + std::to_string(kTuneDbSchemaVersion) +
          ";\n";
      if (Error e = execute(handle, path, sql.c_str(), "creating the schema"))
        return e;
    } else if (id->applicationId != kTuneDbApplicationId ||
               id->version != kTuneDbSchemaVersion) {
      return fail("was initialized concurrently by another program");
    }
    return scope->commit();
  }

  if (!options.checkIntegrity)
    return Error::success();
  Expected<std::string> problems =
      runIntegrityCheck(handle, path, "PRAGMA quick_check(5)");
  if (!problems)
    return problems.takeError();
  if (!problems->empty())
    return fail("is corrupt (" + *problems +
                "); move it away to start a fresh cache");
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Transactions
//===----------------------------------------------------------------------===//

Expected<TuneDb::Transaction> TuneDb::beginTransaction() {
  if (!sqlite3_get_autocommit(handle))
    return makeError("tune database '" + path +
                     "': a transaction is already open");
  if (Error e =
          execute(handle, path, "BEGIN IMMEDIATE", "beginning a transaction"))
    return std::move(e);
  return Transaction(this);
}

TuneDb::Transaction::Transaction(Transaction &&other) noexcept : db(other.db) {
  other.db = nullptr;
}

TuneDb::Transaction::~Transaction() {
  if (db)
    llvm::consumeError(rollback());
}

Error TuneDb::Transaction::commit() {
  if (!db)
    return makeError("the transaction is already finished");
  if (Error e = execute(db->handle, db->path, "COMMIT", "committing"))
    return e;
  db = nullptr;
  return Error::success();
}

Error TuneDb::Transaction::rollback() {
  if (!db)
    return makeError("the transaction is already finished");
  TuneDb *owner = db;
  db = nullptr;
  // After some errors SQLite has already rolled back.
  if (sqlite3_get_autocommit(owner->handle))
    return Error::success();
  return execute(owner->handle, owner->path, "ROLLBACK", "rolling back");
}

Expected<TuneDbCounts> TuneDb::counts() {
  Expected<Statement> stmt = Statement::prepare(
      handle, path,
      "SELECT (SELECT count(*) FROM loop_op), (SELECT count(*) FROM tile_op), "
      "(SELECT count(*) FROM kernel_op), (SELECT count(*) FROM cuda_op), "
      "(SELECT count(*) FROM context), (SELECT count(*) FROM lowering), "
      "(SELECT count(*) FROM perf), "
      "(SELECT count(*) FROM perf WHERE status = 'ok'), "
      "(SELECT count(*) FROM best)",
      "counting rows");
  if (!stmt)
    return stmt.takeError();
  Expected<bool> row = stmt->step();
  if (!row)
    return row.takeError();
  TuneDbCounts counts;
  int64_t *fields[] = {&counts.loopOps, &counts.tileOps,  &counts.kernelOps,
                       &counts.cudaOps, &counts.contexts, &counts.lowerings,
                       &counts.perf,    &counts.perfOk,   &counts.best};
  for (auto [i, field] : llvm::enumerate(fields))
    *field = stmt->integer(static_cast<int>(i));
  return counts;
}

Error TuneDb::checkIntegrity() {
  Expected<std::string> problems =
      runIntegrityCheck(handle, path, "PRAGMA integrity_check(20)");
  if (!problems)
    return problems.takeError();
  if (problems->empty())
    return Error::success();
  return makeError("tune database '" + path + "': is corrupt (" + *problems +
                   ")");
}

Expected<std::string> TuneDb::getJournalMode() {
  return queryText(handle, path, "PRAGMA journal_mode", "reading journal mode");
}
