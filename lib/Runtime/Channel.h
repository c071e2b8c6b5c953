//===- Channel.h - Frames over file descriptors -----------------*- C++ -*-===//
//
// Reads and writes protocol frames on a pair of file descriptors, with an
// optional deadline, while draining a third one (the worker's stderr) so
// that a chatty worker never blocks on a full pipe. Used by the worker
// (stdin/stdout, no deadline) and by BenchClient (a socket, deadlines).
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_LIB_RUNTIME_CHANNEL_H
#define DEPLODOCK_LIB_RUNTIME_CHANNEL_H

#include "Deplodock/Runtime/Protocol.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>

namespace deplodock::runtime {

using Clock = std::chrono::steady_clock;
/// When to give up; none waits forever.
using Deadline = std::optional<Clock::time_point>;

/// The deadline `seconds` from now; a year at most, so that no budget can
/// overflow the clock into a deadline in the past.
inline Deadline deadlineIn(double seconds) {
  double bounded = std::isnan(seconds) ? 0 : std::clamp(seconds, 0.0, 3.2e7);
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(
                            std::chrono::duration<double>(bounded));
}

/// The peer did not answer in time.
class TimeoutError : public llvm::ErrorInfo<TimeoutError> {
public:
  static char ID;
  explicit TimeoutError(std::string message) : text(std::move(message)) {}
  void log(llvm::raw_ostream &os) const override { os << text; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  std::string text;
};

/// The peer closed the connection (in the middle of a frame, or before one
/// the caller needed).
class ClosedError : public llvm::ErrorInfo<ClosedError> {
public:
  static char ID;
  explicit ClosedError(std::string message) : text(std::move(message)) {}
  void log(llvm::raw_ostream &os) const override { os << text; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }

private:
  std::string text;
};

class Channel {
public:
  /// Frames are read from `in` and written to `out`; `side`, when not -1,
  /// is drained into sideOutput() whenever the channel waits.
  Channel(int in, int out, int side = -1) : in(in), out(out), side(side) {}

  /// The next frame; none when the peer closed the connection cleanly
  /// between frames. Fails with TimeoutError past the deadline, ClosedError
  /// when the connection ends inside a frame, or an error naming what is
  /// malformed, such as a blob larger than `maxBlobBytes` (what the caller
  /// can expect; nothing of it is read).
  llvm::Expected<std::optional<Frame>>
  read(Deadline deadline, uint64_t maxBlobBytes = kMaxFrameBlobBytes);

  /// Writes `frame` whole.
  llvm::Error write(const Frame &frame, Deadline deadline);

  /// The last 16 KiB read from `side`.
  const std::string &sideOutput() const { return sideTail; }
  /// How many bytes were read from `side` so far: a mark for
  /// sideOutputSince.
  uint64_t sideMark() const { return sideTotal; }
  /// What is kept (of the last 16 KiB) of the bytes read from `side` after
  /// `mark`.
  llvm::StringRef sideOutputSince(uint64_t mark) const {
    uint64_t dropped = sideTotal - sideTail.size();
    return llvm::StringRef(sideTail).drop_front(
        mark > dropped ? static_cast<size_t>(mark - dropped) : 0);
  }
  /// Reads what `side` still holds, without waiting.
  void drainSide();

private:
  /// Fills `buffer` with exactly `size` bytes.
  llvm::Error readExactly(char *buffer, size_t size, Deadline deadline,
                          bool &sawEof);
  /// Waits until `fd` is ready for `events`, draining `side` meanwhile.
  llvm::Error wait(int fd, short events, Deadline deadline);

  int in, out, side;
  std::string sideTail;
  uint64_t sideTotal = 0;
};

} // namespace deplodock::runtime

#endif // DEPLODOCK_LIB_RUNTIME_CHANNEL_H
