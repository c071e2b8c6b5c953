//===- TuneDb.cpp - The tuner's SQLite cache --------------------*- C++ -*-===//
//
// Each write is one SQL statement (an UPSERT whose WHERE clause is the
// keep-best rule) or one transaction, so concurrent writers serialize on
// SQLite's write lock instead of racing a read-modify-write. Multi-statement
// writes start with BEGIN IMMEDIATE (or a SAVEPOINT inside a caller's
// transaction) so that the lock is taken, with the busy timeout, before any
// read.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Tuner/TuneDb.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <sqlite3.h>

#include <cmath>
#include <cstdlib>

using namespace mlir;
using namespace deplodock::tuner;
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

/// The SQL expression of the current time, UTC ISO-8601 with milliseconds.
#define DEPLODOCK_NOW "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"

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

/// Compact JSON text of `value`; llvm::json prints object keys sorted.
static std::string formatJson(llvm::json::Value value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << value;
  return text;
}

std::string deplodock::tuner::formatKnobs(const llvm::json::Object &knobs) {
  return formatJson(llvm::json::Object(knobs));
}

/// Parses `text` as a JSON object; `what` names it in the message.
static FailureOr<llvm::json::Object>
parseJsonObject(StringRef text, StringRef what, std::string &error) {
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(text);
  if (!value) {
    error = (what + " is not valid JSON: " + llvm::toString(value.takeError()))
                .str();
    return failure();
  }
  llvm::json::Object *object = value->getAsObject();
  if (!object) {
    error = (what + " must be a JSON object, got '" + text + "'").str();
    return failure();
  }
  return std::move(*object);
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
// SQLite helpers
//===----------------------------------------------------------------------===//

/// Formats the error `rc` of `db` while doing `what` to the database at
/// `path`, with a hint for the errors a user can act on.
static std::string describeError(sqlite3 *db, StringRef path, StringRef what,
                                 int rc) {
  std::string message;
  llvm::raw_string_ostream os(message);
  os << "tune database '" << path << "': " << what << ": "
     << (db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
  switch (rc & 0xff) {
  case SQLITE_NOTADB:
    os << " (the file is not an SQLite database; move it away or choose "
          "another path)";
    break;
  case SQLITE_CORRUPT:
    os << " (the file is corrupt; move it away to start a fresh cache)";
    break;
  case SQLITE_BUSY:
  case SQLITE_LOCKED:
    os << " (another connection held the lock longer than the busy timeout)";
    break;
  case SQLITE_READONLY:
    os << " (the file or its directory is not writable)";
    break;
  case SQLITE_CANTOPEN:
    os << " (check that the file and its directory exist and are accessible)";
    break;
  case SQLITE_FULL:
    os << " (the disk is full)";
    break;
  default:
    break;
  }
  if (rc == SQLITE_CONSTRAINT_FOREIGNKEY)
    os << " (the context key is not recorded; call recordContext first)";
  return message;
}

namespace {

/// A prepared statement of one connection, finalized on destruction. Bind
/// errors are kept and reported by the next step().
class Statement {
public:
  Statement(Statement &&other) noexcept
      : stmt(other.stmt), db(other.db), path(other.path), what(other.what),
        bindRc(other.bindRc) {
    other.stmt = nullptr;
  }
  Statement &operator=(Statement &&) = delete;
  ~Statement() { sqlite3_finalize(stmt); }

  /// Prepares `sql` on `db`; `what` names the operation in messages.
  static FailureOr<Statement> prepare(sqlite3 *db, StringRef path,
                                      StringRef sql, StringRef what,
                                      std::string &error) {
    sqlite3_stmt *stmt = nullptr;
    int rc = sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()),
                                &stmt, nullptr);
    if (rc != SQLITE_OK) {
      error = describeError(db, path, what, rc);
      sqlite3_finalize(stmt);
      return failure();
    }
    return Statement(stmt, db, path, what);
  }

  Statement &bind(int index, StringRef text) {
    // A null data pointer would bind NULL rather than "".
    return check(sqlite3_bind_text(stmt, index, text.data() ? text.data() : "",
                                   static_cast<int>(text.size()),
                                   SQLITE_TRANSIENT));
  }
  Statement &bind(int index, int64_t value) {
    return check(sqlite3_bind_int64(stmt, index, value));
  }
  Statement &bind(int index, double value) {
    return check(sqlite3_bind_double(stmt, index, value));
  }
  Statement &bindNull(int index) {
    return check(sqlite3_bind_null(stmt, index));
  }
  Statement &bind(int index, std::optional<double> value) {
    return value ? bind(index, *value) : bindNull(index);
  }
  /// Binds `text`, or NULL when it is empty.
  Statement &bindOrNull(int index, StringRef text) {
    return text.empty() ? bindNull(index) : bind(index, text);
  }

  /// Runs one step: true when it produced a row, false when done.
  FailureOr<bool> step(std::string &error) {
    if (bindRc != SQLITE_OK) {
      error = describeError(db, path, what, bindRc);
      return failure();
    }
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW)
      return true;
    if (rc == SQLITE_DONE)
      return false;
    error = describeError(db, path, what, sqlite3_extended_errcode(db));
    return failure();
  }

  /// Runs the statement to completion, ignoring any rows.
  LogicalResult run(std::string &error) {
    while (true) {
      FailureOr<bool> row = step(error);
      if (failed(row))
        return failure();
      if (!*row)
        return success();
    }
  }

  bool isNull(int column) const {
    return sqlite3_column_type(stmt, column) == SQLITE_NULL;
  }
  std::string text(int column) const {
    const unsigned char *data = sqlite3_column_text(stmt, column);
    if (!data)
      return "";
    return std::string(reinterpret_cast<const char *>(data),
                       sqlite3_column_bytes(stmt, column));
  }
  int64_t integer(int column) const {
    return sqlite3_column_int64(stmt, column);
  }
  double real(int column) const { return sqlite3_column_double(stmt, column); }
  std::optional<double> optionalReal(int column) const {
    if (isNull(column))
      return std::nullopt;
    return real(column);
  }

  /// A message about a malformed value in column `column`.
  std::string malformed(int column, StringRef why) const {
    return ("tune database '" + path + "': " + what + ": column '" +
            sqlite3_column_name(stmt, column) + "' " + why)
        .str();
  }

private:
  Statement(sqlite3_stmt *stmt, sqlite3 *db, StringRef path, StringRef what)
      : stmt(stmt), db(db), path(path.str()), what(what.str()) {}

  Statement &check(int rc) {
    if (rc != SQLITE_OK && bindRc == SQLITE_OK)
      bindRc = rc;
    return *this;
  }

  sqlite3_stmt *stmt;
  sqlite3 *db;
  std::string path;
  std::string what;
  int bindRc = SQLITE_OK;
};

/// Runs `sql` (one or more statements, no results) on `db`.
LogicalResult execute(sqlite3 *db, StringRef path, const char *sql,
                      StringRef what, std::string &error) {
  char *message = nullptr;
  int rc = sqlite3_exec(db, sql, nullptr, nullptr, &message);
  sqlite3_free(message);
  if (rc == SQLITE_OK)
    return success();
  error = describeError(db, path, what, sqlite3_extended_errcode(db));
  return failure();
}

/// A write of several statements, atomic: a BEGIN IMMEDIATE transaction, or
/// a savepoint inside a transaction the caller already opened. Rolled back
/// when destroyed uncommitted.
class WriteScope {
public:
  WriteScope(WriteScope &&other) noexcept
      : db(other.db), path(other.path), nested(other.nested), done(other.done) {
    other.done = true;
  }
  WriteScope &operator=(WriteScope &&) = delete;
  ~WriteScope() {
    if (done)
      return;
    std::string ignored;
    (void)execute(db, path,
                  nested ? "ROLLBACK TO deplodock_write; "
                           "RELEASE deplodock_write"
                         : "ROLLBACK",
                  "rolling back", ignored);
  }

  static FailureOr<WriteScope> begin(sqlite3 *db, StringRef path,
                                     std::string &error) {
    bool nested = !sqlite3_get_autocommit(db);
    if (failed(execute(db, path,
                       nested ? "SAVEPOINT deplodock_write" : "BEGIN IMMEDIATE",
                       "beginning a write", error)))
      return failure();
    return WriteScope(db, path, nested);
  }

  LogicalResult commit(std::string &error) {
    if (failed(execute(db, path, nested ? "RELEASE deplodock_write" : "COMMIT",
                       "committing", error)))
      return failure();
    done = true;
    return success();
  }

private:
  WriteScope(sqlite3 *db, StringRef path, bool nested)
      : db(db), path(path.str()), nested(nested) {}

  sqlite3 *db;
  std::string path;
  bool nested;
  bool done = false;
};

} // namespace

/// Fails with a message unless `value` is a finite, non-negative number.
static LogicalResult checkNonNegative(double value, StringRef name,
                                      StringRef what, std::string &error) {
  if (std::isfinite(value) && value >= 0)
    return success();
  std::string text;
  llvm::raw_string_ostream(text) << value;
  error = (what + ": " + name + " must be a finite, non-negative number, got " +
           text)
              .str();
  return failure();
}

/// Fails with a message when `key` is empty.
static LogicalResult checkKey(StringRef key, StringRef name, StringRef what,
                              std::string &error) {
  if (!key.empty())
    return success();
  error = (what + ": " + name + " must not be empty").str();
  return failure();
}

/// Reads a JSON-object column.
static FailureOr<llvm::json::Object>
readObject(const Statement &stmt, int column, std::string &error) {
  std::string text = stmt.text(column);
  std::string why;
  FailureOr<llvm::json::Object> object = parseJsonObject(text, "value", why);
  if (failed(object))
    error = stmt.malformed(column, why);
  return object;
}

/// Reads a JSON column holding three integers.
static FailureOr<std::array<int64_t, 3>>
readDim3(const Statement &stmt, int column, std::string &error) {
  std::string text = stmt.text(column);
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(text);
  std::array<int64_t, 3> dims = {0, 0, 0};
  const llvm::json::Array *array = value ? value->getAsArray() : nullptr;
  if (!value)
    llvm::consumeError(value.takeError());
  bool ok = array && array->size() == 3;
  for (size_t i = 0; ok && i < 3; ++i) {
    std::optional<int64_t> dim = (*array)[i].getAsInteger();
    ok = dim.has_value();
    if (ok)
      dims[i] = *dim;
  }
  if (!ok) {
    error = stmt.malformed(column, "is not a list of three integers: " + text);
    return failure();
  }
  return dims;
}

/// Formats three integers as a JSON list.
static std::string formatDim3(const std::array<int64_t, 3> &dims) {
  return formatJson(llvm::json::Array{dims[0], dims[1], dims[2]});
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

//===----------------------------------------------------------------------===//
// Writes
//===----------------------------------------------------------------------===//

/// The inventory table of `level`.
static StringRef tableOf(OpLevel level) {
  switch (level) {
  case OpLevel::Loop:
    return "loop_op";
  case OpLevel::Tile:
    return "tile_op";
  case OpLevel::Kernel:
    return "kernel_op";
  case OpLevel::Cuda:
    return "cuda_op";
  }
  llvm_unreachable("unknown op level");
}

FailureOr<bool> TuneDb::recordOp(OpLevel level, StringRef key, StringRef pretty,
                                 std::string &error) {
  if (level == OpLevel::Cuda) {
    error = "recordOp: record CUDA kernels with recordCudaOp";
    return failure();
  }
  if (failed(checkKey(key, "the key", "recordOp", error)))
    return failure();
  std::string sql = ("INSERT INTO " + tableOf(level) +
                     " (key, pretty) VALUES (?1, ?2) "
                     "ON CONFLICT (key) DO NOTHING")
                        .str();
  FailureOr<Statement> stmt =
      Statement::prepare(handle, path, sql, "recording an op", error);
  if (failed(stmt))
    return failure();
  stmt->bind(1, key).bind(2, pretty);
  if (failed(stmt->run(error)))
    return failure();
  return sqlite3_changes(handle) > 0;
}

FailureOr<bool> TuneDb::recordCudaOp(const CudaOpRow &op, std::string &error) {
  if (failed(checkKey(op.key, "the key", "recordCudaOp", error)))
    return failure();
  if (op.smemBytes < 0) {
    error = "recordCudaOp: smemBytes must not be negative";
    return failure();
  }
  FailureOr<Statement> stmt = Statement::prepare(
      handle, path,
      "INSERT INTO cuda_op (key, pretty, source, kernel_name, grid, block, "
      "smem_bytes, arg_order) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) "
      "ON CONFLICT (key) DO NOTHING",
      "recording a CUDA kernel", error);
  if (failed(stmt))
    return failure();
  stmt->bind(1, op.key)
      .bind(2, op.pretty)
      .bind(3, op.source)
      .bind(4, op.kernelName)
      .bind(5, formatDim3(op.grid))
      .bind(6, formatDim3(op.block))
      .bind(7, op.smemBytes)
      .bind(8, formatJson(llvm::json::Array(op.argOrder)));
  if (failed(stmt->run(error)))
    return failure();
  return sqlite3_changes(handle) > 0;
}

/// The columns of `context`, in the order of the queries below.
static constexpr StringRef kContextColumns =
    "context_key, gpu_name, cc_major, cc_minor, sm_count, l2_bytes, "
    "driver_version, cuda_version, nvrtc_version, compiler_version, extra, "
    "created_at";

/// Reads a context row selected with kContextColumns.
static FailureOr<DeviceContext> readContext(const Statement &stmt,
                                            std::string &error) {
  DeviceContext context;
  context.key = stmt.text(0);
  context.gpuName = stmt.text(1);
  context.ccMajor = stmt.integer(2);
  context.ccMinor = stmt.integer(3);
  context.smCount = stmt.integer(4);
  context.l2Bytes = stmt.integer(5);
  context.driverVersion = stmt.text(6);
  context.cudaVersion = stmt.text(7);
  context.nvrtcVersion = stmt.text(8);
  context.compilerVersion = stmt.text(9);
  FailureOr<llvm::json::Object> extra = readObject(stmt, 10, error);
  if (failed(extra))
    return failure();
  context.extra = std::move(*extra);
  context.createdAt = stmt.text(11);
  return context;
}

LogicalResult TuneDb::recordContext(const DeviceContext &context,
                                    std::string &error) {
  if (failed(checkKey(context.key, "the context key", "recordContext", error)))
    return failure();
  std::string extra = formatKnobs(context.extra);
  FailureOr<Statement> insert = Statement::prepare(
      handle, path,
      "INSERT INTO context (context_key, gpu_name, cc_major, cc_minor, "
      "sm_count, l2_bytes, driver_version, cuda_version, nvrtc_version, "
      "compiler_version, extra, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, "
      "?7, ?8, ?9, ?10, ?11, " DEPLODOCK_NOW ") "
      "ON CONFLICT (context_key) DO NOTHING",
      "recording a context", error);
  if (failed(insert))
    return failure();
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
  if (failed(insert->run(error)))
    return failure();
  if (sqlite3_changes(handle) > 0)
    return success();

  // Already there: context rows never change, so no lock is needed to
  // compare.
  FailureOr<std::optional<DeviceContext>> stored =
      lookupContext(context.key, error);
  if (failed(stored))
    return failure();
  if (!*stored) {
    error = "tune database '" + path + "': context '" + context.key +
            "' vanished while being recorded";
    return failure();
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
    return success();
  error = "tune database '" + path + "': context key '" + context.key +
          "' is already recorded with a different fingerprint (" + diff +
          "); the key must hash every field";
  return failure();
}

FailureOr<bool> TuneDb::recordLowering(const LoweringRow &row,
                                       std::string &error) {
  StringRef what = "recordLowering";
  if (failed(checkKey(row.contextKey, "the context key", what, error)) ||
      failed(checkKey(row.parentKey, "the parent key", what, error)) ||
      failed(checkKey(row.childKey, "the child key", what, error)))
    return failure();
  if (row.bestMedianUs &&
      failed(checkNonNegative(*row.bestMedianUs, "the median", what, error)))
    return failure();
  // Insert, or replace only with a strictly lower non-null median.
  FailureOr<Statement> stmt = Statement::prepare(
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
      "recording a lowering", error);
  if (failed(stmt))
    return failure();
  stmt->bind(1, row.contextKey)
      .bind(2, row.parentKey)
      .bind(3, stringifyOpLevel(row.parentLevel))
      .bind(4, row.childKey)
      .bind(5, stringifyOpLevel(row.childLevel))
      .bind(6, formatKnobs(row.knobs))
      .bind(7, row.bestMedianUs);
  if (failed(stmt->run(error)))
    return failure();
  return sqlite3_changes(handle) > 0;
}

/// Checks the statistics of a perf row.
static LogicalResult checkStats(const PerfStats &stats, std::string &error) {
  StringRef what = "recordPerf";
  if (failed(checkNonNegative(stats.medianUs, "the median", what, error)) ||
      failed(checkNonNegative(stats.minUs, "the minimum", what, error)) ||
      failed(checkNonNegative(stats.maxUs, "the maximum", what, error)) ||
      failed(checkNonNegative(stats.meanUs, "the mean", what, error)) ||
      failed(checkNonNegative(stats.varianceUs2, "the variance", what, error)))
    return failure();
  if (stats.numSamples < 0) {
    error = "recordPerf: the sample count must not be negative";
    return failure();
  }
  return success();
}

FailureOr<bool> TuneDb::recordPerf(const PerfRow &row, std::string &error) {
  StringRef what = "recordPerf";
  if (failed(checkKey(row.contextKey, "the context key", what, error)) ||
      failed(checkKey(row.opKey, "the op key", what, error)) ||
      failed(checkKey(row.backend, "the backend", what, error)))
    return failure();
  bool ok = row.status == MeasureStatus::Ok;
  if (ok && (!row.stats || row.stats->numSamples < 1)) {
    error = "recordPerf: an ok row needs statistics of at least one sample";
    return failure();
  }
  if (row.stats && failed(checkStats(*row.stats, error)))
    return failure();
  std::string knobs = formatKnobs(row.knobs);

  FailureOr<WriteScope> scope = WriteScope::begin(handle, path, error);
  if (failed(scope))
    return failure();
  // Keep-best: an ok row replaces a failure or a slower ok row; a failure
  // replaces only a failure.
  FailureOr<Statement> perf = Statement::prepare(
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
      "recording a measurement", error);
  if (failed(perf))
    return failure();
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
  if (failed(perf->run(error)))
    return failure();
  bool written = sqlite3_changes(handle) > 0;

  if (ok && !row.kernelKey.empty()) {
    FailureOr<Statement> best = Statement::prepare(
        handle, path,
        "INSERT INTO best (context_key, kernel_key, backend, op_key, knobs, "
        "median_us, measured_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, " DEPLODOCK_NOW
        ") ON CONFLICT (context_key, kernel_key, backend) DO UPDATE SET "
        "op_key = excluded.op_key, knobs = excluded.knobs, "
        "median_us = excluded.median_us, measured_at = excluded.measured_at "
        "WHERE excluded.median_us < best.median_us",
        "recording a kernel's best variant", error);
    if (failed(best))
      return failure();
    best->bind(1, row.contextKey)
        .bind(2, row.kernelKey)
        .bind(3, row.backend)
        .bind(4, row.opKey)
        .bind(5, knobs)
        .bind(6, row.stats->medianUs);
    if (failed(best->run(error)))
      return failure();
  }
  if (failed(scope->commit(error)))
    return failure();
  return written;
}

FailureOr<bool> TuneDb::eraseContext(StringRef contextKey, std::string &error) {
  // One statement: the foreign keys cascade to lowering, perf and best.
  FailureOr<Statement> stmt = Statement::prepare(
      handle, path, "DELETE FROM context WHERE context_key = ?1",
      "erasing a context", error);
  if (failed(stmt))
    return failure();
  stmt->bind(1, contextKey);
  if (failed(stmt->run(error)))
    return failure();
  return sqlite3_changes(handle) > 0;
}

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
  FailureOr<bool> row = stmt->step(error);
  if (failed(row))
    return failure();
  if (!*row)
    return std::optional<std::string>();
  return std::optional<std::string>(stmt->text(0));
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
  FailureOr<bool> row = stmt->step(error);
  if (failed(row))
    return failure();
  if (!*row)
    return std::optional<CudaOpRow>();
  CudaOpRow op;
  op.key = stmt->text(0);
  op.pretty = stmt->text(1);
  op.source = stmt->text(2);
  op.kernelName = stmt->text(3);
  FailureOr<std::array<int64_t, 3>> grid = readDim3(*stmt, 4, error);
  if (failed(grid))
    return failure();
  FailureOr<std::array<int64_t, 3>> block = readDim3(*stmt, 5, error);
  if (failed(block))
    return failure();
  op.grid = *grid;
  op.block = *block;
  op.smemBytes = stmt->integer(6);
  std::string argText = stmt->text(7);
  llvm::Expected<llvm::json::Value> args = llvm::json::parse(argText);
  if (!args || !args->getAsArray()) {
    if (!args)
      llvm::consumeError(args.takeError());
    error = stmt->malformed(7, "is not a JSON list: " + argText);
    return failure();
  }
  op.argOrder = std::move(*args->getAsArray());
  return std::optional<CudaOpRow>(std::move(op));
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
  FailureOr<bool> row = stmt->step(error);
  if (failed(row))
    return failure();
  if (!*row)
    return std::optional<DeviceContext>();
  FailureOr<DeviceContext> context = readContext(*stmt, error);
  if (failed(context))
    return failure();
  return std::optional<DeviceContext>(std::move(*context));
}

FailureOr<std::vector<DeviceContext>> TuneDb::allContexts(std::string &error) {
  std::string sql =
      ("SELECT " + kContextColumns + " FROM context ORDER BY context_key")
          .str();
  FailureOr<Statement> stmt =
      Statement::prepare(handle, path, sql, "listing contexts", error);
  if (failed(stmt))
    return failure();
  std::vector<DeviceContext> contexts;
  while (true) {
    FailureOr<bool> row = stmt->step(error);
    if (failed(row))
      return failure();
    if (!*row)
      return contexts;
    FailureOr<DeviceContext> context = readContext(*stmt, error);
    if (failed(context))
      return failure();
    contexts.push_back(std::move(*context));
  }
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
  FailureOr<bool> row = stmt->step(error);
  if (failed(row))
    return failure();
  if (!*row)
    return std::optional<LoweringRow>();
  FailureOr<LoweringRow> lowering = readLowering(*stmt, error);
  if (failed(lowering))
    return failure();
  return std::optional<LoweringRow>(std::move(*lowering));
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
  std::vector<LoweringRow> rows;
  while (true) {
    FailureOr<bool> row = stmt->step(error);
    if (failed(row))
      return failure();
    if (!*row)
      return rows;
    FailureOr<LoweringRow> lowering = readLowering(*stmt, error);
    if (failed(lowering))
      return failure();
    rows.push_back(std::move(*lowering));
  }
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
  FailureOr<bool> row = stmt->step(error);
  if (failed(row))
    return failure();
  if (!*row)
    return std::optional<PerfRow>();
  FailureOr<PerfRow> perf = readPerf(*stmt, error);
  if (failed(perf))
    return failure();
  return std::optional<PerfRow>(std::move(*perf));
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
  std::vector<PerfRow> rows;
  while (true) {
    FailureOr<bool> row = stmt->step(error);
    if (failed(row))
      return failure();
    if (!*row)
      return rows;
    FailureOr<PerfRow> perf = readPerf(*stmt, error);
    if (failed(perf))
      return failure();
    rows.push_back(std::move(*perf));
  }
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
  FailureOr<bool> row = stmt->step(error);
  if (failed(row))
    return failure();
  if (!*row)
    return std::optional<BestRow>();
  FailureOr<BestRow> best = readBest(*stmt, error);
  if (failed(best))
    return failure();
  return std::optional<BestRow>(std::move(*best));
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
  std::vector<BestRow> rows;
  while (true) {
    FailureOr<bool> row = stmt->step(error);
    if (failed(row))
      return failure();
    if (!*row)
      return rows;
    FailureOr<BestRow> best = readBest(*stmt, error);
    if (failed(best))
      return failure();
    rows.push_back(std::move(*best));
  }
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
