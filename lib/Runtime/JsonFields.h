//===- JsonFields.h - Reading and writing protocol fields -----------------===//
//
// What the protocol codecs (Protocol.cpp, RequestCodec.cpp, ResultCodec.cpp)
// share: blobs, range-checked integers, numbers that may be NaN or infinite,
// required and optional fields. Readers report through llvm::json::Path.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_LIB_RUNTIME_JSONFIELDS_H
#define DEPLODOCK_LIB_RUNTIME_JSONFIELDS_H

#include "Deplodock/Runtime/BenchResult.h"
#include "Deplodock/Runtime/DType.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/JSON.h"

#include <array>
#include <cmath>
#include <limits>
#include <type_traits>

namespace deplodock::runtime::fields {

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Path;
using llvm::json::Value;

/// Appends byte arrays to a frame's blob.
class BlobWriter {
public:
  explicit BlobWriter(std::string &blob) : blob(blob) {}
  Value add(llvm::ArrayRef<uint8_t> bytes) {
    Object ref{{"offset", static_cast<int64_t>(blob.size())},
               {"bytes", static_cast<int64_t>(bytes.size())}};
    blob.append(reinterpret_cast<const char *>(bytes.data()), bytes.size());
    return ref;
  }

private:
  std::string &blob;
};

/// Reads the byte arrays a frame's JSON refers to.
class BlobReader {
public:
  explicit BlobReader(llvm::StringRef blob) : blob(blob) {}
  bool read(const Value &value, std::vector<uint8_t> &out, Path path) const {
    const Object *ref = value.getAsObject();
    std::optional<int64_t> offset, bytes;
    if (ref) {
      offset = ref->getInteger("offset");
      bytes = ref->getInteger("bytes");
    }
    if (!offset || !bytes) {
      path.report("expected {\"offset\": o, \"bytes\": n}");
      return false;
    }
    if (*offset < 0 || *bytes < 0 ||
        static_cast<uint64_t>(*offset) + static_cast<uint64_t>(*bytes) >
            blob.size()) {
      path.report("refers past the end of the frame's blob");
      return false;
    }
    out.assign(blob.bytes_begin() + *offset,
               blob.bytes_begin() + *offset + *bytes);
    return true;
  }

private:
  llvm::StringRef blob;
};

/// A double as JSON: a number, or "nan", "inf", "-inf", which JSON lacks.
Value number(double v);

/// Reads a number or one of "nan", "inf", "-inf".
bool readNumber(const Value &value, double &out, Path path);

/// What a field of integer type T must hold (Path::report keeps only
/// literals).
template <typename T> constexpr llvm::StringLiteral integerRange() {
  if constexpr (std::is_same_v<T, uint32_t>)
    return "expected an integer from 0 to 4294967295";
  else if constexpr (std::is_same_v<T, int32_t>)
    return "expected an integer from -2147483648 to 2147483647";
  else if constexpr (std::is_same_v<T, uint64_t>)
    return "expected an integer from 0 to 18446744073709551615";
  else
    return "expected an integer from -9223372036854775808 to "
           "9223372036854775807";
}

/// An integer read as 64 bits and checked against the range of T, so that
/// 2^32 is an error rather than buffer 0.
template <typename T> bool readInteger(const Value &value, T &out, Path path) {
  static_assert(std::is_same_v<T, uint32_t> || std::is_same_v<T, int32_t> ||
                std::is_same_v<T, uint64_t> || std::is_same_v<T, int64_t>);
  using Limits = std::numeric_limits<T>;
  if constexpr (std::is_signed_v<T>) {
    std::optional<int64_t> v = value.getAsInteger();
    if (v && *v >= Limits::min() && *v <= Limits::max()) {
      out = static_cast<T>(*v);
      return true;
    }
  } else {
    std::optional<uint64_t> v = value.getAsUINT64();
    if (!v)
      if (std::optional<int64_t> i = value.getAsInteger(); i && *i >= 0)
        v = static_cast<uint64_t>(*i);
    if (v && *v <= Limits::max()) {
      out = static_cast<T>(*v);
      return true;
    }
  }
  path.report(integerRange<T>());
  return false;
}

/// Reads a plain value: integers range-checked, anything else with
/// llvm::json::fromJSON.
template <typename T> bool readValue(const Value &value, T &out, Path path) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    return readInteger(value, out, path);
  } else {
    using llvm::json::fromJSON;
    return fromJSON(value, out, path);
  }
}

/// Whether `v` can be a duration: finite and not negative.
inline bool isTime(double v) { return std::isfinite(v) && v >= 0; }

template <typename T> Array toArray(llvm::ArrayRef<T> values) {
  Array array;
  for (const T &v : values)
    array.push_back(v);
  return array;
}

/// Reads `value` (an array) into `out` element by element with `read`.
template <typename Vec, typename Fn>
bool readArray(const Value *value, Vec &out, Path path, Fn read) {
  const Array *array = value ? value->getAsArray() : nullptr;
  if (!array) {
    path.report("expected an array");
    return false;
  }
  out.clear();
  for (auto [i, element] : llvm::enumerate(*array)) {
    out.emplace_back();
    if (!read(element, out.back(), path.index(i)))
      return false;
  }
  return true;
}

template <typename Vec>
bool readPlainArray(const Value *value, Vec &out, Path path) {
  return readArray(value, out, path, [](const Value &v, auto &x, Path p) {
    return readValue(v, x, p);
  });
}

/// A required field read with `read`.
template <typename T, typename Fn>
bool field(const Object &object, llvm::StringLiteral name, T &out, Path path,
           Fn read) {
  const Value *value = object.get(name);
  if (!value) {
    path.field(name).report("missing");
    return false;
  }
  return read(*value, out, path.field(name));
}

template <typename T>
bool field(const Object &object, llvm::StringLiteral name, T &out, Path path) {
  return field(object, name, out, path,
               [](const Value &v, T &x, Path p) { return readValue(v, x, p); });
}

/// An optional field: keeps `out` when missing.
template <typename T>
bool optField(const Object &object, llvm::StringLiteral name, T &out,
              Path path) {
  if (!object.get(name))
    return true;
  return field(object, name, out, path);
}

/// `value` as an object, or null after reporting that it is not one.
inline const Object *readObject(const Value &value, Path path) {
  const Object *object = value.getAsObject();
  if (!object)
    path.report("expected an object");
  return object;
}

/// Reads a message id: 0 to 2^63 - 1, so that a reader holding JSON
/// integers as signed 64-bit values can echo it.
bool readId(const Value &value, uint64_t &out, Path path);

/// Reads a dtype name (f32, bf16, ...).
bool readDType(const Value &value, DType &out, Path path);

/// Reads a 3-element grid or block size.
bool readDims(const Value &value, std::array<uint32_t, 3> &out, Path path);

Value toleranceToJSON(const Tolerance &tolerance);
bool readTolerance(const Value &value, Tolerance &out, Path path);

} // namespace deplodock::runtime::fields

#endif // DEPLODOCK_LIB_RUNTIME_JSONFIELDS_H
