//===- Protocol.h - Messages between BenchClient and the worker -*- C++ -*-===//
//
// The worker reads requests on stdin and writes answers on stdout, one frame
// each:
//
//   DPLK1 <json bytes> <blob bytes>\n<JSON object><blob>
//
// The JSON object's "type" says what it is; bulk data (buffer contents) sits
// in the blob, referred to from the JSON as {"offset": o, "bytes": n}.
// Messages: worker -> parent "hello" (once, first: the device or why there
// is none), "progress" (the phase a request reached), "result", "error" (a
// request the worker could not read); parent -> worker "bench", "info",
// "shutdown". docs/Runtime.md has the fields.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_RUNTIME_PROTOCOL_H
#define DEPLODOCK_RUNTIME_PROTOCOL_H

#include "Deplodock/Runtime/BenchRequest.h"
#include "Deplodock/Runtime/BenchResult.h"
#include "Deplodock/Runtime/DeviceInfo.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <utility>

namespace deplodock::runtime {

/// The protocol version in "hello"; a client refuses another.
constexpr int64_t kProtocolVersion = 1;

/// The first word of every frame header.
constexpr llvm::StringLiteral kFrameMagic = "DPLK1";

/// The longest header line, newline included.
constexpr size_t kMaxFrameHeaderBytes = 64;
/// The largest JSON part a reader accepts.
constexpr uint64_t kMaxFrameJsonBytes = uint64_t(1) << 30;
/// The largest blob a reader accepts.
constexpr uint64_t kMaxFrameBlobBytes = uint64_t(1) << 35;
/// The deepest nesting of arrays and objects a reader accepts (the messages
/// need 7; the JSON parser recurses once per level).
constexpr unsigned kMaxFrameJsonDepth = 64;

/// How the worker starts each line it writes to stderr itself (as opposed
/// to a library's or a stack dump's): the client quotes its last one when
/// the worker dies.
constexpr llvm::StringLiteral kWorkerMessagePrefix = "deplodock-bench-worker: ";

/// One message.
struct Frame {
  llvm::json::Object json;
  std::string blob;

  /// The message type ("bench", "result"...), or "" when missing.
  llvm::StringRef type() const;
  /// The whole frame as bytes: header, JSON, blob.
  std::string serialize() const;
};

/// The header line of a frame with these part sizes.
std::string formatFrameHeader(uint64_t jsonBytes, uint64_t blobBytes);

/// The part sizes a header line (without its newline) announces; fails on
/// anything but "DPLK1 <n> <m>" with sizes under the limits.
llvm::Expected<std::pair<uint64_t, uint64_t>>
parseFrameHeader(llvm::StringRef line);

/// The first 40 bytes of `text` with non-printable ones escaped, for error
/// messages about malformed input.
std::string escapeText(llvm::StringRef text);

/// Parses the JSON part of a frame: it must be an object with a string
/// "type", nested at most kMaxFrameJsonDepth deep.
llvm::Expected<llvm::json::Object> parseFrameJson(llvm::StringRef text);

//===----------------------------------------------------------------------===//
// Messages
//===----------------------------------------------------------------------===//

Frame encodeRequest(const BenchRequest &request);
/// Fails with a message naming the field on a malformed request.
llvm::Expected<BenchRequest> decodeRequest(const Frame &frame);

Frame encodeResult(const BenchResult &result);
llvm::Expected<BenchResult> decodeResult(const Frame &frame);

/// What the worker says first.
struct Hello {
  int64_t protocol = kProtocolVersion;
  /// The worker's name and version.
  std::string worker;
  /// The device, when there is one.
  std::optional<DeviceInfo> device;
  /// Why there is none ("no CUDA driver: ..."), otherwise empty.
  std::string error;
};

Frame encodeHello(const Hello &hello);
llvm::Expected<Hello> decodeHello(const Frame &frame);

/// A phase of a request ("compile", "verify", "time"): a worker that dies
/// during compile is a compile failure, later a launch failure.
Frame encodeProgress(uint64_t id, llvm::StringRef phase);

/// The answer to a request the worker could not read or understand.
Frame encodeError(llvm::StringRef message);

//===----------------------------------------------------------------------===//
// Pieces the layer manifest (LayerManifest.h) shares
//===----------------------------------------------------------------------===//

/// Parses JSON nested at most kMaxFrameJsonDepth deep (the parser recurses
/// once per level); errors start with "malformed <what> JSON: ".
llvm::Expected<llvm::json::Value> parseBoundedJson(llvm::StringRef text,
                                                   llvm::StringRef what);

/// A launch as a request's "launches" hold it.
llvm::json::Value encodeLaunch(const LaunchSpec &launch);
/// Reads a launch; reports a malformed field at `path`.
bool decodeLaunch(const llvm::json::Value &value, LaunchSpec &out,
                  llvm::json::Path path);
/// Reads a buffer's "name" (optional), "dtype" and "shape" of a request's
/// "buffers" entry.
bool decodeBufferShape(const llvm::json::Object &object, BufferSpec &out,
                       llvm::json::Path path);
/// Reads an array of buffer indices (0 to 2^32-1).
bool decodeIndices(const llvm::json::Value *value, std::vector<unsigned> &out,
                   llvm::json::Path path);

} // namespace deplodock::runtime

#endif // DEPLODOCK_RUNTIME_PROTOCOL_H
