//===- SqliteSupport.h - SQLite plumbing of the tune database ---*- C++ -*-===//
//
// Private to lib/Tuner/Cache: prepared statements, atomic write scopes,
// errors that say what to do about an SQLite failure, and the JSON and row
// helpers the opening, writing and querying parts of TuneDb share.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_LIB_TUNER_CACHE_SQLITESUPPORT_H
#define DEPLODOCK_LIB_TUNER_CACHE_SQLITESUPPORT_H

#include "Deplodock/Tuner/TuneDb.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <sqlite3.h>

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

/// The SQL expression of the current time, UTC ISO-8601 with milliseconds.
#define DEPLODOCK_NOW "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"

namespace deplodock::tuner::sqlite {

using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

/// An error with `message`.
inline Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Compact JSON text of `value`; llvm::json prints object keys sorted.
inline std::string formatJson(llvm::json::Value value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << value;
  return text;
}

/// Parses `text` as a JSON object; `what` names it in the message.
inline Expected<llvm::json::Object> parseJsonObject(StringRef text,
                                                    StringRef what) {
  Expected<llvm::json::Value> value = llvm::json::parse(text);
  if (!value)
    return makeError(
        what + " is not valid JSON: " + llvm::toString(value.takeError()));
  llvm::json::Object *object = value->getAsObject();
  if (!object)
    return makeError(what + " must be a JSON object, got '" + text + "'");
  return std::move(*object);
}

/// Formats the error `rc` of `db` while doing `what` to the database at
/// `path`, with a hint for the errors a user can act on.
inline Error describeError(sqlite3 *db, StringRef path, StringRef what,
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
  return makeError(message);
}

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
  static Expected<Statement> prepare(sqlite3 *db, StringRef path, StringRef sql,
                                     StringRef what) {
    sqlite3_stmt *stmt = nullptr;
    int rc = sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()),
                                &stmt, nullptr);
    if (rc != SQLITE_OK) {
      sqlite3_finalize(stmt);
      return describeError(db, path, what, rc);
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
  Expected<bool> step() {
    if (bindRc != SQLITE_OK)
      return describeError(db, path, what, bindRc);
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_ROW)
      return true;
    if (rc == SQLITE_DONE)
      return false;
    return describeError(db, path, what, sqlite3_extended_errcode(db));
  }

  /// Runs the statement to completion, ignoring any rows.
  Error run() {
    while (true) {
      Expected<bool> row = step();
      if (!row)
        return row.takeError();
      if (!*row)
        return Error::success();
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

  /// An error about a malformed value in column `column`.
  Error malformed(int column, const llvm::Twine &why) const {
    return makeError("tune database '" + path + "': " + what + ": column '" +
                     sqlite3_column_name(stmt, column) + "' " + why);
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
inline Error execute(sqlite3 *db, StringRef path, const char *sql,
                     StringRef what) {
  char *message = nullptr;
  int rc = sqlite3_exec(db, sql, nullptr, nullptr, &message);
  sqlite3_free(message);
  if (rc == SQLITE_OK)
    return Error::success();
  return describeError(db, path, what, sqlite3_extended_errcode(db));
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
    llvm::consumeError(execute(db, path,
                               nested ? "ROLLBACK TO deplodock_write; "
                                        "RELEASE deplodock_write"
                                      : "ROLLBACK",
                               "rolling back"));
  }

  static Expected<WriteScope> begin(sqlite3 *db, StringRef path) {
    bool nested = !sqlite3_get_autocommit(db);
    if (Error e = execute(
            db, path, nested ? "SAVEPOINT deplodock_write" : "BEGIN IMMEDIATE",
            "beginning a write"))
      return std::move(e);
    return WriteScope(db, path, nested);
  }

  Error commit() {
    if (Error e =
            execute(db, path, nested ? "RELEASE deplodock_write" : "COMMIT",
                    "committing"))
      return e;
    done = true;
    return Error::success();
  }

private:
  WriteScope(sqlite3 *db, StringRef path, bool nested)
      : db(db), path(path.str()), nested(nested) {}

  sqlite3 *db;
  std::string path;
  bool nested;
  bool done = false;
};

/// An error unless `value` is a finite, non-negative number.
inline Error checkNonNegative(double value, StringRef name, StringRef what) {
  if (std::isfinite(value) && value >= 0)
    return Error::success();
  std::string text;
  llvm::raw_string_ostream(text) << value;
  return makeError(what + ": " + name +
                   " must be a finite, non-negative number, got " + text);
}

/// An error when `key` is empty.
inline Error checkKey(StringRef key, StringRef name, StringRef what) {
  if (!key.empty())
    return Error::success();
  return makeError(what + ": " + name + " must not be empty");
}

/// Reads a JSON-object column.
inline Expected<llvm::json::Object> readObject(const Statement &stmt,
                                               int column) {
  Expected<llvm::json::Object> object =
      parseJsonObject(stmt.text(column), "value");
  if (!object)
    return stmt.malformed(column, llvm::toString(object.takeError()));
  return object;
}

/// Reads a JSON column holding three integers.
inline Expected<std::array<int64_t, 3>> readDim3(const Statement &stmt,
                                                 int column) {
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
  if (!ok)
    return stmt.malformed(column, "is not a list of three integers: " + text);
  return dims;
}

/// Formats three integers as a JSON list.
inline std::string formatDim3(const std::array<int64_t, 3> &dims) {
  return formatJson(llvm::json::Array{dims[0], dims[1], dims[2]});
}

/// The inventory table of `level`.
inline StringRef tableOf(OpLevel level) {
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

/// The columns of `context`, in the order of the queries below.
inline constexpr StringRef kContextColumns =
    "context_key, gpu_name, cc_major, cc_minor, sm_count, l2_bytes, "
    "driver_version, cuda_version, nvrtc_version, compiler_version, extra, "
    "created_at";

/// Reads a context row selected with kContextColumns.
inline Expected<DeviceContext> readContext(const Statement &stmt) {
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
  Expected<llvm::json::Object> extra = readObject(stmt, 10);
  if (!extra)
    return extra.takeError();
  context.extra = std::move(*extra);
  context.createdAt = stmt.text(11);
  return context;
}

/// Reads one row of `stmt` with `read`: none when the query has no row.
template <typename T>
Expected<std::optional<T>>
readOptionalRow(Statement &stmt,
                llvm::function_ref<Expected<T>(const Statement &)> read) {
  Expected<bool> row = stmt.step();
  if (!row)
    return row.takeError();
  if (!*row)
    return std::optional<T>();
  Expected<T> value = read(stmt);
  if (!value)
    return value.takeError();
  return std::optional<T>(std::move(*value));
}

/// Reads every row of `stmt` with `read`.
template <typename T>
Expected<std::vector<T>>
readAllRows(Statement &stmt,
            llvm::function_ref<Expected<T>(const Statement &)> read) {
  std::vector<T> rows;
  while (true) {
    Expected<bool> row = stmt.step();
    if (!row)
      return row.takeError();
    if (!*row)
      return rows;
    Expected<T> value = read(stmt);
    if (!value)
      return value.takeError();
    rows.push_back(std::move(*value));
  }
}

} // namespace deplodock::tuner::sqlite

#endif // DEPLODOCK_LIB_TUNER_CACHE_SQLITESUPPORT_H
