//===- Channel.cpp - Frames over file descriptors -------------------------===//

#include "Channel.h"

#include "llvm/ADT/StringExtras.h"

#include <cerrno>
#include <cstring>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace deplodock::runtime;

char TimeoutError::ID = 0;
char ClosedError::ID = 0;

/// Milliseconds until `deadline` for poll(): -1 for none, at least 0.
static int pollTimeout(Deadline deadline) {
  if (!deadline)
    return -1;
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                  *deadline - Clock::now())
                  .count();
  return static_cast<int>(std::clamp<int64_t>(left + 1, 0, 1 << 30));
}

void Channel::drainSide() {
  if (side < 0)
    return;
  char chunk[4096];
  while (true) {
    struct pollfd fd = {side, POLLIN, 0};
    if (poll(&fd, 1, 0) <= 0 || !(fd.revents & (POLLIN | POLLHUP)))
      return;
    ssize_t n = ::read(side, chunk, sizeof(chunk));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      side = -1; // Closed: the worker has exited.
      return;
    }
    sideTail.append(chunk, n);
    sideTotal += n;
    constexpr size_t kKeep = 16 << 10;
    if (sideTail.size() > kKeep)
      sideTail.erase(0, sideTail.size() - kKeep);
  }
}

llvm::Error Channel::wait(int fd, short events, Deadline deadline) {
  while (true) {
    struct pollfd fds[2] = {{fd, events, 0}, {side, POLLIN, 0}};
    int count = poll(fds, side >= 0 ? 2 : 1, pollTimeout(deadline));
    if (count < 0) {
      if (errno == EINTR)
        continue;
      return llvm::createStringError("poll failed: %s", strerror(errno));
    }
    if (side >= 0 && fds[1].revents)
      drainSide();
    if (fds[0].revents)
      return llvm::Error::success();
    if (deadline && Clock::now() >= *deadline)
      return llvm::make_error<TimeoutError>("no answer before the deadline");
  }
}

llvm::Error Channel::readExactly(char *buffer, size_t size, Deadline deadline,
                                 bool &sawEof) {
  sawEof = false;
  while (size > 0) {
    if (llvm::Error error = wait(in, POLLIN, deadline))
      return error;
    ssize_t n = ::read(in, buffer, size);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
      continue;
    if (n < 0)
      return llvm::createStringError("read failed: %s", strerror(errno));
    if (n == 0) {
      sawEof = true;
      return llvm::Error::success();
    }
    buffer += n;
    size -= n;
  }
  return llvm::Error::success();
}

llvm::Expected<std::optional<Frame>> Channel::read(Deadline deadline,
                                                   uint64_t maxBlobBytes) {
  // The header, a byte at a time: it is short, and reading no further keeps
  // the rest of the stream where it is.
  std::string line;
  while (true) {
    char c;
    bool eof;
    if (llvm::Error error = readExactly(&c, 1, deadline, eof))
      return std::move(error);
    if (eof) {
      if (line.empty())
        return std::nullopt;
      return llvm::make_error<ClosedError>(
          "connection closed inside a frame header");
    }
    if (c == '\n')
      break;
    line.push_back(c);
    if (line.size() >= kMaxFrameHeaderBytes)
      return llvm::createStringError("malformed frame header '" +
                                     escapeText(line) + "...' (too long)");
  }
  llvm::Expected<std::pair<uint64_t, uint64_t>> sizes = parseFrameHeader(line);
  if (!sizes)
    return sizes.takeError();
  auto [jsonBytes, blobBytes] = *sizes;
  if (blobBytes > maxBlobBytes)
    return llvm::createStringError(
        "frame blob of %llu bytes, more than the %llu this message can carry",
        static_cast<unsigned long long>(blobBytes),
        static_cast<unsigned long long>(maxBlobBytes));

  std::string json(jsonBytes, '\0');
  bool eof;
  if (llvm::Error error = readExactly(json.data(), jsonBytes, deadline, eof))
    return std::move(error);
  if (eof)
    return llvm::make_error<ClosedError>("connection closed inside a frame");
  Frame frame;
  // The blob grows as it arrives, so a header announcing a huge size costs
  // nothing until the bytes come.
  constexpr size_t kChunk = 1 << 20;
  while (frame.blob.size() < blobBytes) {
    size_t before = frame.blob.size();
    size_t chunk = std::min<uint64_t>(kChunk, blobBytes - before);
    frame.blob.resize(before + chunk);
    if (llvm::Error error =
            readExactly(frame.blob.data() + before, chunk, deadline, eof))
      return std::move(error);
    if (eof)
      return llvm::make_error<ClosedError>("connection closed inside a frame");
  }
  llvm::Expected<llvm::json::Object> object = parseFrameJson(json);
  if (!object)
    return object.takeError();
  frame.json = std::move(*object);
  return frame;
}

llvm::Error Channel::write(const Frame &frame, Deadline deadline) {
  std::string bytes = frame.serialize();
  const char *data = bytes.data();
  size_t size = bytes.size();
  bool socket = true;
  while (size > 0) {
    if (llvm::Error error = wait(out, POLLOUT, deadline))
      return error;
    // send() on a socket, so that a closed peer is an error, not SIGPIPE.
    ssize_t n = socket ? ::send(out, data, size, MSG_NOSIGNAL) : -1;
    if (n < 0 && socket && errno == ENOTSOCK) {
      socket = false;
      continue;
    }
    if (!socket)
      n = ::write(out, data, size);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
      continue;
    if (n < 0 && (errno == EPIPE || errno == ECONNRESET))
      return llvm::make_error<ClosedError>("the peer closed the connection");
    if (n < 0)
      return llvm::createStringError("write failed: %s", strerror(errno));
    data += n;
    size -= n;
  }
  return llvm::Error::success();
}
