//===- Protocol.cpp - Messages between BenchClient and the worker ---------===//
//
// Frames (header, JSON, blob) and the small messages: hello, progress,
// errors. Requests and results have their own codecs (RequestCodec.cpp,
// ResultCodec.cpp).
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Runtime/Protocol.h"

#include "JsonFields.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace deplodock::runtime;
using namespace deplodock::runtime::fields;
using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Path;
using llvm::json::Value;

//===----------------------------------------------------------------------===//
// Frames
//===----------------------------------------------------------------------===//

std::string deplodock::runtime::escapeText(llvm::StringRef text) {
  std::string escaped;
  llvm::raw_string_ostream os(escaped);
  llvm::printEscapedString(text.take_front(40), os);
  return escaped;
}

llvm::StringRef Frame::type() const {
  if (std::optional<llvm::StringRef> type = json.getString("type"))
    return *type;
  return "";
}

std::string Frame::serialize() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << Value(Object(json));
  std::string bytes = formatFrameHeader(text.size(), blob.size());
  bytes.reserve(bytes.size() + text.size() + blob.size());
  bytes += text;
  bytes += blob;
  return bytes;
}

std::string deplodock::runtime::formatFrameHeader(uint64_t jsonBytes,
                                                  uint64_t blobBytes) {
  return llvm::formatv("{0} {1} {2}\n", kFrameMagic, jsonBytes, blobBytes)
      .str();
}

llvm::Expected<std::pair<uint64_t, uint64_t>>
deplodock::runtime::parseFrameHeader(llvm::StringRef line) {
  llvm::SmallVector<llvm::StringRef, 4> words;
  line.split(words, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/true);
  uint64_t jsonBytes = 0, blobBytes = 0;
  if (words.size() != 3 || words[0] != kFrameMagic ||
      words[1].getAsInteger(10, jsonBytes) ||
      words[2].getAsInteger(10, blobBytes))
    return llvm::createStringError(
        "malformed frame header '" + escapeText(line) + "' (expected '" +
        kFrameMagic + " <json bytes> <blob bytes>')");
  if (jsonBytes == 0 || jsonBytes > kMaxFrameJsonBytes)
    return llvm::createStringError("frame JSON size %llu out of range",
                                   static_cast<unsigned long long>(jsonBytes));
  if (blobBytes > kMaxFrameBlobBytes)
    return llvm::createStringError("frame blob size %llu out of range",
                                   static_cast<unsigned long long>(blobBytes));
  return std::make_pair(jsonBytes, blobBytes);
}

/// Whether arrays and objects nest deeper than `limit` in `text` (brackets
/// inside strings do not count). Malformed text is left to the parser.
static bool nestsDeeperThan(llvm::StringRef text, unsigned limit) {
  unsigned depth = 0;
  bool inString = false, escaped = false;
  for (char c : text) {
    if (inString) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit)
        return true;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return false;
}

llvm::Expected<Object>
deplodock::runtime::parseFrameJson(llvm::StringRef text) {
  llvm::Expected<Value> value = parseBoundedJson(text, "frame");
  if (!value)
    return value.takeError();
  Object *object = value->getAsObject();
  if (!object || !object->getString("type"))
    return llvm::createStringError(
        "malformed frame JSON: not an object with a string \"type\"");
  return std::move(*object);
}

//===----------------------------------------------------------------------===//
// Hello, progress, errors
//===----------------------------------------------------------------------===//

Frame deplodock::runtime::encodeHello(const Hello &hello) {
  Frame frame;
  frame.json = Object{{"type", "hello"},
                      {"protocol", hello.protocol},
                      {"worker", hello.worker}};
  if (hello.device)
    frame.json["device"] = toJSON(*hello.device);
  if (!hello.error.empty())
    frame.json["error"] = hello.error;
  return frame;
}

llvm::Expected<Hello> deplodock::runtime::decodeHello(const Frame &frame) {
  if (frame.type() != "hello")
    return llvm::createStringError("expected a hello message, got '%s'",
                                   frame.type().str().c_str());
  Hello hello;
  llvm::json::Path::Root root("hello");
  Path path(root);
  bool ok = field(frame.json, "protocol", hello.protocol, path) &&
            optField(frame.json, "worker", hello.worker, path) &&
            optField(frame.json, "error", hello.error, path);
  if (ok)
    if (const Value *device = frame.json.get("device")) {
      hello.device.emplace();
      ok = fromJSON(*device, *hello.device, path.field("device"));
    }
  if (!ok)
    return root.getError();
  if (!hello.device && hello.error.empty())
    return llvm::createStringError("hello names neither a device nor an error");
  return hello;
}

Frame deplodock::runtime::encodeProgress(uint64_t id, llvm::StringRef phase) {
  Frame frame;
  frame.json = Object{{"type", "progress"}, {"id", id}, {"phase", phase}};
  return frame;
}

Frame deplodock::runtime::encodeError(llvm::StringRef message) {
  Frame frame;
  frame.json = Object{{"type", "error"}, {"message", message}};
  return frame;
}

//===----------------------------------------------------------------------===//
// Pieces the layer manifest shares
//===----------------------------------------------------------------------===//

bool deplodock::runtime::decodeBufferShape(const Object &object,
                                           BufferSpec &out, Path path) {
  return optField(object, "name", out.name, path) &&
         field(object, "dtype", out.dtype, path, readDType) &&
         readPlainArray(object.get("shape"), out.shape, path.field("shape"));
}

bool deplodock::runtime::decodeIndices(const Value *value,
                                       std::vector<unsigned> &out, Path path) {
  return readPlainArray(value, out, path);
}

llvm::Expected<Value>
deplodock::runtime::parseBoundedJson(llvm::StringRef text,
                                     llvm::StringRef what) {
  if (nestsDeeperThan(text, kMaxFrameJsonDepth))
    return llvm::createStringError(
        llvm::formatv("malformed {0} JSON: arrays and objects nested deeper "
                      "than {1} levels",
                      what, kMaxFrameJsonDepth)
            .str());
  llvm::Expected<Value> value = llvm::json::parse(text);
  if (!value)
    return llvm::createStringError(
        llvm::formatv("malformed {0} JSON: {1}", what,
                      llvm::toString(value.takeError()))
            .str());
  return value;
}
