//===- Memory.cpp - Sizes and the memory guard of the interpreter ---------===//

#include "Deplodock/Interpreter/Memory.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <atomic>
#include <cmath>

#include <sys/resource.h>
#include <unistd.h>

using namespace deplodock::interp;

std::optional<int64_t> deplodock::interp::checkedBytes(int64_t count,
                                                       int64_t elementBytes) {
  int64_t bytes;
  if (count < 0 || elementBytes < 0 ||
      llvm::MulOverflow(count, elementBytes, bytes))
    return std::nullopt;
  return bytes;
}

// The limit (0 until set or first read) and the bytes held.
static std::atomic<uint64_t> limitBytes{0};
static std::atomic<uint64_t> heldBytes{0};

/// A number read from the first line of `path`, if it holds one ("max" and
/// missing files give nullopt).
static std::optional<uint64_t> readLimitFile(const char *path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFileAsStream(path);
  if (!file)
    return std::nullopt;
  uint64_t value;
  if (llvm::StringRef((*file)->getBuffer()).trim().getAsInteger(10, value))
    return std::nullopt;
  return value;
}

uint64_t deplodock::interp::defaultMemoryLimit() {
  uint64_t usable = UINT64_MAX;
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  if (pages > 0 && pageSize > 0)
    usable = static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize);
  for (const char *path : {"/sys/fs/cgroup/memory.max",
                           "/sys/fs/cgroup/memory/memory.limit_in_bytes"})
    if (std::optional<uint64_t> cgroup = readLimitFile(path))
      usable = std::min(usable, *cgroup);
  for (int resource : {RLIMIT_AS, RLIMIT_DATA}) {
    struct rlimit limit;
    if (getrlimit(resource, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
      usable = std::min<uint64_t>(usable, limit.rlim_cur);
  }
  // The rest is for the compiler, the IR and whatever else runs.
  return usable == UINT64_MAX ? uint64_t(8) << 30 : usable / 2;
}

uint64_t deplodock::interp::getMemoryLimit() {
  uint64_t limit = limitBytes.load();
  if (limit == 0) {
    uint64_t fresh = defaultMemoryLimit();
    // Whoever set it first wins.
    limitBytes.compare_exchange_strong(limit, fresh);
    return limitBytes.load();
  }
  return limit;
}

void deplodock::interp::setMemoryLimit(uint64_t bytes) {
  limitBytes.store(std::max<uint64_t>(bytes, 1));
}

static std::atomic<uint64_t> threadLimit{kDefaultThreadLimit};

uint64_t deplodock::interp::getThreadLimit() { return threadLimit.load(); }

void deplodock::interp::setThreadLimit(uint64_t threads) {
  threadLimit.store(std::max<uint64_t>(threads, 1));
}

static std::atomic<uint64_t> workLimit{kDefaultWorkLimit};

uint64_t deplodock::interp::getWorkLimit() { return workLimit.load(); }

void deplodock::interp::setWorkLimit(uint64_t operations) {
  workLimit.store(std::max<uint64_t>(operations, 1));
}

llvm::Error deplodock::interp::checkWork(uint64_t spent, uint64_t more,
                                         bool estimate) {
  uint64_t limit = getWorkLimit();
  bool overflow = false;
  uint64_t total = llvm::SaturatingAdd(spent, more, &overflow);
  if (!overflow && total <= limit)
    return llvm::Error::success();
  std::string count = overflow ? "more than 2^64" : std::to_string(total);
  return llvm::createStringError(
      (estimate ? "would execute at least " : "has executed ") + count +
      " operations (counted per thread), more than the interpreter's work "
      "limit of " +
      std::to_string(limit) + " (deplodock-run --work-limit)");
}

static std::atomic<unsigned> cpuThreads{0};

unsigned deplodock::interp::getCpuThreads() { return cpuThreads.load(); }

void deplodock::interp::setCpuThreads(unsigned threads) {
  cpuThreads.store(threads);
}

llvm::Error deplodock::interp::checkThreadCount(llvm::ArrayRef<int64_t> grid,
                                                int64_t threadsPerBlock) {
  std::optional<int64_t> blocks = checkedNumElements(grid);
  std::optional<int64_t> threads =
      blocks ? checkedNumElements({*blocks, threadsPerBlock}) : std::nullopt;
  uint64_t limit = getThreadLimit();
  if (threads && *threads >= 0 && static_cast<uint64_t>(*threads) <= limit)
    return llvm::Error::success();
  std::string count = threads ? std::to_string(*threads) : "more than 2^63";
  return llvm::createStringError(
      "would simulate " + count + " threads (" +
      (blocks ? std::to_string(*blocks) : "too many") + " blocks of " +
      std::to_string(threadsPerBlock) +
      "), more than the interpreter's limit of " + std::to_string(limit) +
      " per launch (deplodock-run --thread-limit)");
}

uint64_t deplodock::interp::getHeldBytes() { return heldBytes.load(); }

llvm::Expected<uint64_t>
deplodock::interp::parseByteSize(llvm::StringRef text) {
  auto bad = [&] {
    return llvm::createStringError(
        "'" + text.str() +
        "' is not a size (bytes, or a number with K, M, G or T: 512M, 1.5G)");
  };
  llvm::StringRef number = text.trim();
  llvm::StringRef unit =
      number.drop_while([](char c) { return llvm::isDigit(c) || c == '.'; });
  number = number.drop_back(unit.size());
  unit = unit.trim();
  uint64_t scale = 1;
  if (!unit.empty()) {
    switch (llvm::toLower(unit.front())) {
    case 'k':
      scale = uint64_t(1) << 10;
      break;
    case 'm':
      scale = uint64_t(1) << 20;
      break;
    case 'g':
      scale = uint64_t(1) << 30;
      break;
    case 't':
      scale = uint64_t(1) << 40;
      break;
    case 'b':
      break;
    default:
      return bad();
    }
    llvm::StringRef rest = scale == 1 ? unit : unit.drop_front();
    if (!rest.empty() && !rest.equals_insensitive("b") &&
        !rest.equals_insensitive("ib"))
      return bad();
  }
  // Digits with at most one point: strtod would also take "1e3" or "inf".
  if (number.empty() || number.count('.') > 1 || number == ".")
    return bad();
  double value = std::strtod(number.str().c_str(), nullptr) * scale;
  if (!(value >= 1) || value >= 0x1p63)
    return llvm::createStringError("'" + text.str() +
                                   "' is not a size from 1 byte to 8 EiB");
  return static_cast<uint64_t>(value);
}

std::string deplodock::interp::formatBytes(uint64_t bytes) {
  static const char *units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024)
    return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
  double value = static_cast<double>(bytes);
  unsigned unit = 0;
  for (value /= 1024; value >= 1024 && unit + 1 < std::size(units); ++unit)
    value /= 1024;
  std::string text;
  llvm::raw_string_ostream(text)
      << llvm::format(value < 10 ? "%.2f %s" : "%.1f %s", value, units[unit]);
  return text;
}

llvm::Expected<Reservation> Reservation::reserve(uint64_t bytes,
                                                 llvm::StringRef what) {
  uint64_t limit = getMemoryLimit();
  uint64_t held = heldBytes.load();
  while (true) {
    if (bytes > limit || held > limit - bytes)
      return llvm::createStringError(
          what.str() + " needs " + formatBytes(bytes) +
          (held ? " (" + formatBytes(held) + " already held)" : "") +
          "; the limit is " + formatBytes(limit));
    if (heldBytes.compare_exchange_weak(held, held + bytes))
      return Reservation(bytes);
  }
}

Reservation Reservation::account(uint64_t bytes) {
  heldBytes.fetch_add(bytes);
  return Reservation(bytes);
}

Reservation &Reservation::operator=(Reservation &&other) {
  if (this != &other) {
    release();
    bytes = other.bytes;
    other.bytes = 0;
  }
  return *this;
}

void Reservation::release() {
  heldBytes.fetch_sub(bytes);
  bytes = 0;
}
