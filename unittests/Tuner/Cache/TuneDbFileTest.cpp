//===- TuneDbFileTest.cpp - The tune cache on disk, across processes ------===//
//
// Files: creation, schema version and journal mode, writers killed in the
// middle of a transaction, two processes writing at once, damaged, foreign
// and future-version files, unwritable locations and the default path.
// Child processes are made with fork(); the parent never holds a connection
// across a fork, as SQLite requires.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Tuner/TuneDb.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <sqlite3.h>

#include "../ErrorSupport.h"
#include <csignal>
#include <cstdlib>
#include <random>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace deplodock::tuner;
using namespace deplodock::tuner::testing;
using llvm::json::Object;
namespace fs = llvm::sys::fs;

namespace {

/// A fresh directory, removed (with its contents) at the end of the test.
class TempDir {
public:
  TempDir() {
    llvm::SmallString<128> dir;
    std::error_code ec = fs::createUniqueDirectory("deplodock-tunedb", dir);
    EXPECT_FALSE(ec) << ec.message();
    path = std::string(dir);
  }
  ~TempDir() {
    ::chmod(path.c_str(), 0755);
    (void)fs::remove_directories(path);
  }
  /// The path of `name` inside the directory.
  std::string file(llvm::StringRef name) const {
    llvm::SmallString<128> result(path);
    llvm::sys::path::append(result, name);
    return std::string(result);
  }
  std::string path;
};

/// Sets (or, with nullopt, unsets) an environment variable for one scope.
class ScopedEnv {
public:
  ScopedEnv(const char *name, std::optional<std::string> value) : name(name) {
    if (const char *old = std::getenv(name))
      saved = old;
    if (value)
      ::setenv(name, value->c_str(), 1);
    else
      ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (saved)
      ::setenv(name, saved->c_str(), 1);
    else
      ::unsetenv(name);
  }

private:
  const char *name;
  std::optional<std::string> saved;
};

DeviceContext makeContext(llvm::StringRef key) {
  DeviceContext context;
  context.key = key.str();
  context.gpuName = "NVIDIA H100 80GB HBM3";
  context.ccMajor = 9;
  context.smCount = 132;
  context.l2Bytes = 52428800;
  context.driverVersion = "570.86";
  context.cudaVersion = "12.8";
  context.nvrtcVersion = "12.8";
  context.compilerVersion = "test";
  return context;
}

PerfRow okRow(llvm::StringRef opKey, double median, Object knobs = Object{}) {
  PerfRow row;
  row.contextKey = "ctx";
  row.opKey = opKey.str();
  row.backend = "cuda";
  row.stats = PerfStats{median, median, median, median, 0, 10};
  row.knobs = std::move(knobs);
  return row;
}

/// Creates a database at `path` holding context "ctx" and `rows` perf rows
/// "op<i>" (with a kilobyte of CUDA source each), then closes it.
void createDb(const std::string &path, int rows = 0) {
  std::string error;
  auto db = check(TuneDb::open(path, TuneDbOptions()), error);
  ASSERT_TRUE(succeeded(db)) << error;
  ASSERT_TRUE(succeeded(check(db->recordContext(makeContext("ctx")), error)))
      << error;
  auto txn = check(db->beginTransaction(), error);
  ASSERT_TRUE(succeeded(txn)) << error;
  for (int i = 0; i < rows; ++i) {
    std::string key = "op" + std::to_string(i);
    CudaOpRow op;
    op.key = key;
    op.source = std::string(1024, 'a' + i % 26);
    ASSERT_TRUE(succeeded(check(db->recordCudaOp(op), error))) << error;
    ASSERT_TRUE(succeeded(check(db->recordPerf(okRow(key, 1.0 + i)), error)))
        << error;
  }
  ASSERT_TRUE(succeeded(check(txn->commit(), error))) << error;
}

/// Runs `sql` on `path` with plain SQLite, bypassing TuneDb.
void rawExec(const std::string &path, const std::string &sql) {
  sqlite3 *db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char *message = nullptr;
  int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message);
  EXPECT_EQ(rc, SQLITE_OK) << (message ? message : "");
  sqlite3_free(message);
  sqlite3_close(db);
}

/// The first column of the first row of `sql` on `path`, as text.
std::string rawQuery(const std::string &path, const std::string &sql) {
  sqlite3 *db = nullptr;
  std::string result = "<error>";
  if (sqlite3_open(path.c_str(), &db) == SQLITE_OK) {
    sqlite3_stmt *stmt = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW) {
      const unsigned char *text = sqlite3_column_text(stmt, 0);
      result = text ? reinterpret_cast<const char *>(text) : "<null>";
    }
    sqlite3_finalize(stmt);
  }
  sqlite3_close(db);
  return result;
}

/// Writes `bytes` to `path`.
void writeFile(const std::string &path, llvm::StringRef bytes) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  ASSERT_FALSE(ec) << ec.message();
  os << bytes;
}

/// Expects `open` of `path` to fail with a message containing `fragment`.
void expectOpenFails(const std::string &path, llvm::StringRef fragment,
                     TuneDbOptions options = TuneDbOptions()) {
  std::string error;
  auto db = check(TuneDb::open(path, options), error);
  EXPECT_TRUE(failed(db)) << "opening " << path << " should fail";
  if (std::getenv("TUNEDB_TEST_PRINT"))
    llvm::outs() << "message: " << error << "\n";
  EXPECT_NE(error.find(fragment.str()), std::string::npos)
      << "message: " << error;
  EXPECT_NE(error.find(path), std::string::npos)
      << "the message names the file: " << error;
}

/// Waits for `pid`; returns its wait status.
int waitFor(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

/// In a child process: prints `error` and exits with `code`.
[[noreturn]] void childFail(int code, const std::string &error) {
  llvm::errs() << "child " << ::getpid() << ": " << error << "\n";
  llvm::errs().flush();
  ::_exit(code);
}

//===----------------------------------------------------------------------===//
// Files
//===----------------------------------------------------------------------===//

TEST(TuneCacheFile, CreatesAVersionedWalFileAndItsDirectories) {
  TempDir dir;
  std::string path = dir.file("a/b/tune.db");
  {
    std::string error;
    auto db = check(TuneDb::open(path, TuneDbOptions()), error);
    ASSERT_TRUE(succeeded(db)) << error;
    EXPECT_EQ(db->getPath(), path);
    auto mode = check(db->getJournalMode(), error);
    ASSERT_TRUE(succeeded(mode)) << error;
    EXPECT_EQ(*mode, "wal");
    ASSERT_TRUE(succeeded(check(db->recordContext(makeContext("ctx")), error)))
        << error;
    Object knobs;
    knobs["FN"] = 2;
    knobs["BM"] = 64;
    knobs["stage"] = llvm::json::Array{0, 1};
    ASSERT_TRUE(
        succeeded(check(db->recordPerf(okRow("op", 3.5, knobs)), error)))
        << error;
  }
  EXPECT_TRUE(fs::exists(path));
  EXPECT_EQ(rawQuery(path, "PRAGMA user_version"),
            std::to_string(kTuneDbSchemaVersion));
  EXPECT_EQ(rawQuery(path, "PRAGMA application_id"),
            std::to_string(kTuneDbApplicationId));
  EXPECT_EQ(rawQuery(path, "PRAGMA journal_mode"), "wal");
  EXPECT_EQ(rawQuery(path, "SELECT knobs FROM perf"),
            R"({"BM":64,"FN":2,"stage":[0,1]})");
  EXPECT_EQ(rawQuery(path, "SELECT measured_at FROM perf").size(),
            std::string("2025-01-01T00:00:00.000Z").size());

  std::string error;
  auto reopened = check(TuneDb::open(path, TuneDbOptions()), error);
  ASSERT_TRUE(succeeded(reopened)) << error;
  auto row = check(reopened->lookupPerf("ctx", "op", "cuda"), error);
  ASSERT_TRUE(succeeded(row)) << error;
  ASSERT_TRUE(row->has_value());
  EXPECT_EQ((*row)->stats->medianUs, 3.5);
  EXPECT_TRUE(succeeded(check(reopened->checkIntegrity(), error))) << error;
}

TEST(TuneCacheFile, AnEmptyFileIsInitialized) {
  TempDir dir;
  std::string path = dir.file("empty.db");
  writeFile(path, "");
  std::string error;
  auto db = check(TuneDb::open(path, TuneDbOptions()), error);
  ASSERT_TRUE(succeeded(db)) << error;
  auto counts = check(db->counts(), error);
  ASSERT_TRUE(succeeded(counts)) << error;
  EXPECT_EQ(counts->perf, 0);
}

TEST(TuneCacheFile, ReadOnlyOpensExistingFilesOnly) {
  TempDir dir;
  std::string path = dir.file("tune.db");
  TuneDbOptions readOnly;
  readOnly.readOnly = true;
  expectOpenFails(path, "no such file", readOnly);
  TuneDbOptions mustExist;
  mustExist.mustExist = true;
  expectOpenFails(path, "no such file", mustExist);
  EXPECT_FALSE(fs::exists(path)) << "a failed open creates nothing";

  createDb(path, 3);
  std::string error;
  auto db = check(TuneDb::open(path, readOnly), error);
  ASSERT_TRUE(succeeded(db)) << error;
  auto rows = check(db->allPerf("ctx"), error);
  ASSERT_TRUE(succeeded(rows)) << error;
  EXPECT_EQ(rows->size(), 3u);
  EXPECT_TRUE(failed(check(db->recordPerf(okRow("new", 1.0)), error)));
  EXPECT_NE(error.find("readonly"), std::string::npos) << error;
  EXPECT_NE(error.find(path), std::string::npos) << error;
}

//===----------------------------------------------------------------------===//
// Processes
//===----------------------------------------------------------------------===//

TEST(TuneCacheFile, AWriterKilledMidTransactionLeavesOnlyCommittedData) {
  TempDir dir;
  std::string path = dir.file("tune.db");
  createDb(path);
  {
    std::string error;
    auto db = check(TuneDb::open(path, TuneDbOptions()), error);
    ASSERT_TRUE(succeeded(db)) << error;
    ASSERT_TRUE(succeeded(check(db->recordPerf(okRow("before", 10.0)), error)))
        << error;
  } // Closed: no connection crosses the fork.

  int ready[2], go[2];
  ASSERT_EQ(::pipe(ready), 0);
  ASSERT_EQ(::pipe(go), 0);
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::close(ready[0]);
    ::close(go[1]);
    std::string error;
    auto db = check(TuneDb::open(path, TuneDbOptions()), error);
    if (failed(db))
      childFail(2, error);
    if (failed(check(db->recordPerf(okRow("committed", 5.0)), error)))
      childFail(3, error);
    auto txn = check(db->beginTransaction(), error);
    if (failed(txn))
      childFail(4, error);
    // More than SQLite's page cache, so uncommitted pages spill into the
    // write-ahead log before the kill.
    for (int i = 0; i < 4000; ++i) {
      CudaOpRow op;
      op.key = "uncommitted" + std::to_string(i);
      op.source = std::string(2048, 'x');
      if (failed(check(db->recordCudaOp(op), error)) ||
          failed(check(db->recordPerf(okRow(op.key, 1.0)), error)))
        childFail(5, error);
    }
    if (failed(check(db->recordPerf(okRow("before", 0.5)), error)))
      childFail(6, error);
    char byte = 'r';
    if (::write(ready[1], &byte, 1) != 1)
      childFail(7, "cannot signal the parent");
    // Hold the write lock until the parent has looked, then die.
    (void)::read(go[0], &byte, 1);
    ::kill(::getpid(), SIGKILL);
    ::_exit(8);
  }
  ::close(ready[1]);
  ::close(go[0]);
  char byte = 0;
  bool childReady = ::read(ready[0], &byte, 1) == 1;
  EXPECT_TRUE(childReady) << "the child died before its transaction";

  auto checkRows = [&](llvm::StringRef when) {
    SCOPED_TRACE(when.str());
    std::string error;
    auto db = check(TuneDb::open(path, TuneDbOptions()), error);
    ASSERT_TRUE(succeeded(db)) << error;
    auto counts = check(db->counts(), error);
    ASSERT_TRUE(succeeded(counts)) << error;
    EXPECT_EQ(counts->perf, 2) << "'before' and 'committed' only";
    EXPECT_EQ(counts->cudaOps, 0);
    auto before = check(db->lookupPerf("ctx", "before", "cuda"), error);
    ASSERT_TRUE(succeeded(before) && before->has_value()) << error;
    EXPECT_EQ((*before)->stats->medianUs, 10.0);
    auto committed = check(db->lookupPerf("ctx", "committed", "cuda"), error);
    ASSERT_TRUE(succeeded(committed)) << error;
    EXPECT_TRUE(committed->has_value());
  };
  // While the writer holds its lock, readers see the committed state.
  if (childReady)
    checkRows("during the writer's transaction");
  ASSERT_EQ(::write(go[1], &byte, 1), 1);
  int status = waitFor(pid);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
      << "child exited with status " << WEXITSTATUS(status);
  ::close(ready[0]);
  ::close(go[1]);

  checkRows("after the kill");
  std::string error;
  auto db = check(TuneDb::open(path, TuneDbOptions()), error);
  ASSERT_TRUE(succeeded(db)) << error;
  EXPECT_TRUE(succeeded(check(db->checkIntegrity(), error))) << error;
  auto written = check(db->recordPerf(okRow("after", 2.0)), error);
  ASSERT_TRUE(succeeded(written)) << error;
  EXPECT_TRUE(*written);
  auto txn = check(db->beginTransaction(), error);
  ASSERT_TRUE(succeeded(txn)) << "the dead writer's lock is gone: " << error;
  ASSERT_TRUE(succeeded(check(db->recordPerf(okRow("before", 0.5)), error)))
      << error;
  ASSERT_TRUE(succeeded(check(txn->commit(), error))) << error;
  auto before = check(db->lookupPerf("ctx", "before", "cuda"), error);
  ASSERT_TRUE(succeeded(before) && before->has_value()) << error;
  EXPECT_EQ((*before)->stats->medianUs, 0.5);
}

/// The body of a concurrent writer: rows "w<id>-<j>", competing rows
/// "shared-<j>" (the fast one is writer j % 2's) and, every tenth row, a
/// small transaction. Returns an exit code.
int concurrentWriter(const std::string &path, int id, int rows, int startFd) {
  char byte;
  if (::read(startFd, &byte, 1) != 0)
    childFail(2, "expected the start pipe to close");
  std::string error;
  auto db = check(TuneDb::open(path, TuneDbOptions()), error);
  if (failed(db))
    childFail(3, error);
  for (int j = 0; j < rows; ++j) {
    std::string own = "w" + std::to_string(id) + "-" + std::to_string(j);
    if (failed(check(db->recordOp(OpLevel::Kernel, own, "pretty"), error)))
      childFail(4, error);
    PerfRow row = okRow(own, 1.0 + j);
    row.kernelKey = "kernel";
    if (failed(check(db->recordPerf(row), error)))
      childFail(5, error);
    PerfRow shared = okRow("shared-" + std::to_string(j),
                           j % 2 == id ? 5.0 : 9.0, Object{{"writer", id}});
    if (failed(check(db->recordPerf(shared), error)))
      childFail(6, error);
    if (j % 10 == 0) {
      auto txn = check(db->beginTransaction(), error);
      if (failed(txn))
        childFail(7, error);
      for (int k = 0; k < 5; ++k) {
        std::string key = own + "-t" + std::to_string(k);
        if (failed(check(db->recordOp(OpLevel::Tile, key, "pretty"), error)))
          childFail(8, error);
      }
      if (failed(check(txn->commit(), error)))
        childFail(9, error);
    }
  }
  return 0;
}

TEST(TuneCacheFile, TwoWritersAtOnceLoseNothing) {
  TempDir dir;
  std::string path = dir.file("tune.db");
  createDb(path);
  constexpr int kRows = 300;
  int start[2];
  ASSERT_EQ(::pipe(start), 0);
  pid_t pids[2];
  for (int id = 0; id < 2; ++id) {
    pids[id] = ::fork();
    ASSERT_GE(pids[id], 0);
    if (pids[id] == 0) {
      ::close(start[1]);
      ::_exit(concurrentWriter(path, id, kRows, start[0]));
    }
  }
  ::close(start[0]);
  ::close(start[1]); // Both start now.
  for (pid_t pid : pids) {
    int status = waitFor(pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
        << "a writer failed; see its message above";
  }

  std::string error;
  auto db = check(TuneDb::open(path, TuneDbOptions()), error);
  ASSERT_TRUE(succeeded(db)) << error;
  auto counts = check(db->counts(), error);
  ASSERT_TRUE(succeeded(counts)) << error;
  EXPECT_EQ(counts->kernelOps, 2 * kRows);
  EXPECT_EQ(counts->tileOps, 2 * (kRows / 10) * 5);
  EXPECT_EQ(counts->perf, 2 * kRows + kRows);
  for (int j = 0; j < kRows; ++j) {
    auto shared = check(
        db->lookupPerf("ctx", "shared-" + std::to_string(j), "cuda"), error);
    ASSERT_TRUE(succeeded(shared) && shared->has_value()) << error;
    EXPECT_EQ((*shared)->stats->medianUs, 5.0) << j;
    EXPECT_EQ((*shared)->knobs, (Object{{"writer", j % 2}})) << j;
  }
  auto best = check(db->bestKnobs("ctx", "kernel", "cuda"), error);
  ASSERT_TRUE(succeeded(best) && best->has_value()) << error;
  EXPECT_EQ((*best)->medianUs, 1.0);
  EXPECT_TRUE((*best)->opKey == "w0-0" || (*best)->opKey == "w1-0")
      << (*best)->opKey;
  EXPECT_TRUE(succeeded(check(db->checkIntegrity(), error))) << error;
}

TEST(TuneCacheFile, ProcessesCreatingOneNewFileAtOnceAllSucceed) {
  TempDir dir;
  std::string path = dir.file("new/tune.db");
  constexpr int kProcesses = 4;
  int start[2];
  ASSERT_EQ(::pipe(start), 0);
  std::vector<pid_t> pids;
  for (int id = 0; id < kProcesses; ++id) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::close(start[1]);
      char byte;
      (void)::read(start[0], &byte, 1);
      std::string error;
      auto db = check(TuneDb::open(path, TuneDbOptions()), error);
      if (failed(db))
        childFail(2, error);
      if (failed(check(db->recordContext(makeContext("ctx")), error)))
        childFail(3, error);
      if (failed(check(db->recordPerf(okRow("op" + std::to_string(id), 1.0)),
                       error)))
        childFail(4, error);
      ::_exit(0);
    }
    pids.push_back(pid);
  }
  ::close(start[0]);
  ::close(start[1]);
  for (pid_t pid : pids) {
    int status = waitFor(pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  std::string error;
  auto db = check(TuneDb::open(path, TuneDbOptions()), error);
  ASSERT_TRUE(succeeded(db)) << error;
  auto counts = check(db->counts(), error);
  ASSERT_TRUE(succeeded(counts)) << error;
  EXPECT_EQ(counts->perf, kProcesses);
  EXPECT_EQ(counts->contexts, 1);
}

//===----------------------------------------------------------------------===//
// Damaged, foreign and future files
//===----------------------------------------------------------------------===//

TEST(TuneCacheFile, RandomBytesAreNotADatabase) {
  TempDir dir;
  std::string path = dir.file("random.db");
  std::mt19937 rng(42);
  std::string bytes(16384, '\0');
  for (char &c : bytes)
    c = static_cast<char>(rng());
  writeFile(path, bytes);
  expectOpenFails(path, "is not an SQLite database");
  TuneDbOptions readOnly;
  readOnly.readOnly = true;
  expectOpenFails(path, "is not an SQLite database", readOnly);
}

TEST(TuneCacheFile, ATextFileIsNotADatabase) {
  TempDir dir;
  std::string path = dir.file("notes.txt");
  writeFile(path, "# tuning notes\nBM=64 BN=64 looked best on the H100\n");
  expectOpenFails(path, "is not an SQLite database");
  EXPECT_EQ(rawQuery(path, "SELECT count(*) FROM sqlite_schema"), "<error>")
      << "SQLite itself refuses the file";
}

TEST(TuneCacheFile, ATruncatedDatabaseIsReportedCorrupt) {
  TempDir dir;
  std::string path = dir.file("tune.db");
  createDb(path, 1500);
  ASSERT_FALSE(fs::exists(path + "-wal"))
      << "closing the last connection checkpoints the log";
  uint64_t size = 0;
  ASSERT_FALSE(fs::file_size(path, size));
  ASSERT_GT(size, 1000000u);
  ASSERT_EQ(::truncate(path.c_str(), size / 2), 0);
  expectOpenFails(path, "corrupt");

  // Without the check on open, queries report it instead; none crashes.
  TuneDbOptions unchecked;
  unchecked.checkIntegrity = false;
  std::string error;
  auto db = check(TuneDb::open(path, unchecked), error);
  if (succeeded(db)) {
    auto rows = check(db->allPerf("ctx"), error);
    if (failed(rows))
      EXPECT_NE(error.find("corrupt"), std::string::npos) << error;
    EXPECT_TRUE(failed(check(db->checkIntegrity(), error)));
    EXPECT_NE(error.find("corrupt"), std::string::npos) << error;
  } else {
    EXPECT_NE(error.find("corrupt"), std::string::npos) << error;
  }

  // Cut inside the header.
  ASSERT_EQ(::truncate(path.c_str(), 50), 0);
  expectOpenFails(path, "corrupt");
}

TEST(TuneCacheFile, AFutureSchemaVersionIsRejected) {
  TempDir dir;
  std::string path = dir.file("tune.db");
  createDb(path, 2);
  rawExec(path,
          "PRAGMA user_version = " + std::to_string(kTuneDbSchemaVersion + 1));
  expectOpenFails(path, "has schema version " +
                            std::to_string(kTuneDbSchemaVersion + 1) +
                            ", written by a newer deplodock");
  TuneDbOptions readOnly;
  readOnly.readOnly = true;
  expectOpenFails(path, "written by a newer deplodock", readOnly);
}

TEST(TuneCacheFile, AVersionOneFileIsMigrated) {
  // A version-1 file: today's schema without kernel_family.
  TempDir dir;
  std::string path = dir.file("tune.db");
  createDb(path, 2);
  rawExec(path, "DROP TABLE kernel_family; PRAGMA user_version = 1");
  // Read-only, it is read as it is: the rows are there, no family.
  TuneDbOptions readOnly;
  readOnly.readOnly = true;
  std::string error;
  {
    auto db = check(TuneDb::open(path, readOnly), error);
    ASSERT_TRUE(succeeded(db)) << error;
    auto counts = check(db->counts(), error);
    ASSERT_TRUE(succeeded(counts)) << error;
    EXPECT_EQ(counts->perf, 2);
  }
  EXPECT_EQ(rawQuery(path, "PRAGMA user_version"), "1");
  // Writable, it is migrated, rows kept.
  auto db = check(TuneDb::open(path, TuneDbOptions()), error);
  ASSERT_TRUE(succeeded(db)) << error;
  EXPECT_EQ(rawQuery(path, "PRAGMA user_version"),
            std::to_string(kTuneDbSchemaVersion));
  EXPECT_TRUE(succeeded(check(db->recordFamily("k", "f"), error))) << error;
  auto counts = check(db->counts(), error);
  ASSERT_TRUE(succeeded(counts)) << error;
  EXPECT_EQ(counts->perf, 2);
}

TEST(TuneCacheFile, AnOlderSchemaVersionIsRejected) {
  TempDir dir;
  std::string path = dir.file("tune.db");
  rawExec(path,
          "PRAGMA application_id = " + std::to_string(kTuneDbApplicationId) +
              "; CREATE TABLE perf (x);");
  expectOpenFails(path, "has schema version 0, older than this build's");
}

TEST(TuneCacheFile, ForeignDatabasesAreLeftAlone) {
  TempDir dir;
  std::string other = dir.file("other.db");
  rawExec(other, "CREATE TABLE users (name TEXT); INSERT INTO users "
                 "VALUES ('ada');");
  expectOpenFails(other, "another application");
  EXPECT_EQ(rawQuery(other, "PRAGMA journal_mode"), "delete")
      << "the file was not switched to WAL";
  EXPECT_EQ(rawQuery(other, "SELECT name FROM users"), "ada");

  // The Python original's layout: perf and lowering, no version.
  std::string python = dir.file("python.db");
  rawExec(python,
          "CREATE TABLE lowering (parent_key TEXT PRIMARY KEY, parent_dialect "
          "TEXT NOT NULL, child_key TEXT NOT NULL, child_dialect TEXT NOT "
          "NULL, knobs TEXT NOT NULL DEFAULT '{}', best_median_us REAL); "
          "CREATE TABLE perf (context_key TEXT NOT NULL, op_key TEXT NOT NULL, "
          "backend TEXT NOT NULL, status TEXT NOT NULL, PRIMARY KEY "
          "(context_key, op_key, backend));");
  expectOpenFails(python, "Python deplodock");
}

//===----------------------------------------------------------------------===//
// Locations
//===----------------------------------------------------------------------===//

TEST(TuneCacheFile, UncreatableLocationsAreReported) {
  TempDir dir;
  std::string plain = dir.file("plain");
  writeFile(plain, "a file, not a directory");
  expectOpenFails(dir.file("plain/sub/tune.db"), "cannot create directory");
  expectOpenFails(dir.file("plain/tune.db"), "is not a directory");
  expectOpenFails(dir.path, "is a directory");
  expectOpenFails("", "the path is empty");
}

TEST(TuneCacheFile, AnUnwritableDirectoryIsReported) {
  TempDir dir;
  std::string locked = dir.file("locked");
  ASSERT_FALSE(fs::create_directory(locked));
  // Characters that mean something in an SQLite URI.
  std::string existing = locked + "/existing %41?#.db";
  createDb(existing, 1);
  ASSERT_EQ(::chmod(locked.c_str(), 0555), 0);
  if (::access(locked.c_str(), W_OK) == 0)
    GTEST_SKIP() << "running as root: permission bits do not stop writes";
  expectOpenFails(locked + "/tune.db", "is not writable");
  expectOpenFails(existing, "is not writable");
  // Reading still works.
  TuneDbOptions readOnly;
  readOnly.readOnly = true;
  std::string error;
  auto db = check(TuneDb::open(existing, readOnly), error);
  ASSERT_TRUE(succeeded(db)) << error;
}

TEST(TuneCacheFile, DefaultPathComesFromTheEnvironment) {
  TempDir dir;
  std::string error;
  {
    std::string explicitPath = dir.file("explicit/tune.db");
    ScopedEnv env(kTuneDbEnvVar.data(), explicitPath);
    auto path = check(getDefaultTuneDbPath(), error);
    ASSERT_TRUE(succeeded(path)) << error;
    EXPECT_EQ(*path, explicitPath);
    auto db = check(TuneDb::openDefault(TuneDbOptions()), error);
    ASSERT_TRUE(succeeded(db)) << error;
    EXPECT_TRUE(fs::exists(explicitPath));
  }
  std::string home = dir.file("home");
  std::string expected = home + "/.cache/deplodock/autotune.db";
  for (std::optional<std::string> unset :
       {std::optional<std::string>(), std::optional<std::string>("")}) {
    ScopedEnv env(kTuneDbEnvVar.data(), unset);
    ScopedEnv homeEnv("HOME", home);
    auto path = check(getDefaultTuneDbPath(), error);
    ASSERT_TRUE(succeeded(path)) << error;
    EXPECT_EQ(*path, expected);
    EXPECT_FALSE(fs::exists(expected)) << "resolving creates nothing";
  }
  ScopedEnv env(kTuneDbEnvVar.data(), std::nullopt);
  ScopedEnv homeEnv("HOME", home);
  auto db = check(TuneDb::openDefault(TuneDbOptions()), error);
  ASSERT_TRUE(succeeded(db)) << error;
  EXPECT_EQ(db->getPath(), expected);
  EXPECT_TRUE(fs::is_directory(home + "/.cache/deplodock"));
  EXPECT_TRUE(fs::exists(expected));
}

} // namespace
