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

#include <chrono>
#include <optional>

namespace deplodock::runtime {

using Clock = std::chrono::steady_clock;
/// When to give up; none waits forever.
using Deadline = std::optional<Clock::time_point>;

/// The deadline `seconds` from now.
inline Deadline deadlineIn(double seconds) {
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(
                            std::chrono::duration<double>(seconds));
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
  /// malformed.
  llvm::Expected<std::optional<Frame>> read(Deadline deadline);

  /// Writes `frame` whole.
  llvm::Error write(const Frame &frame, Deadline deadline);

  /// The last 16 KiB read from `side`.
  const std::string &sideOutput() const { return sideTail; }
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
};

} // namespace deplodock::runtime

#endif // DEPLODOCK_LIB_RUNTIME_CHANNEL_H
