//===- BufferIO.cpp - Read and write interpreter buffers --------*- C++ -*-===//

#include "Deplodock/Interpreter/BufferIO.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace deplodock::interp;

/// The NumPy descr of `type`, or "" if .npy cannot hold it. NumPy has no
/// bf16 nor 8-bit floats: they are written as f32, which holds each of their
/// values exactly.
static std::string descrOf(Type type) {
  if (type.isF16())
    return "<f2";
  if (type.isF32() || type.isBF16() ||
      isa<Float8E4M3FNType, Float8E5M2Type>(type))
    return "<f4";
  if (type.isF64())
    return "<f8";
  if (type.isInteger(1))
    return "|b1";
  if (type.isInteger(8))
    return "|i1";
  if (type.isInteger(16))
    return "<i2";
  if (type.isInteger(32))
    return "<i4";
  if (type.isInteger(64) || type.isIndex())
    return "<i8";
  return "";
}

/// The element type and width in bytes of a NumPy descr, or a null type.
static std::pair<Type, size_t> typeOf(StringRef descr, Builder &b) {
  return llvm::StringSwitch<std::pair<Type, size_t>>(descr)
      .Case("<f2", {b.getF16Type(), 2})
      .Case("<f4", {b.getF32Type(), 4})
      .Case("<f8", {b.getF64Type(), 8})
      .Case("|b1", {b.getI1Type(), 1})
      .Case("|i1", {b.getIntegerType(8), 1})
      .Case("|u1", {b.getIntegerType(8), 1})
      .Case("<i2", {b.getIntegerType(16), 2})
      .Case("<u2", {b.getIntegerType(16), 2})
      .Case("<i4", {b.getI32Type(), 4})
      .Case("<i8", {b.getI64Type(), 8})
      .Default({Type(), 0});
}

template <typename T> static void appendRaw(std::string &out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

template <typename T> static T readRaw(const char *p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

LogicalResult deplodock::interp::writeNpy(const Buffer &buffer, StringRef path,
                                          std::string &error) {
  std::string descr = descrOf(buffer.elementType);
  if (descr.empty()) {
    std::string type;
    llvm::raw_string_ostream os(type);
    os << buffer.elementType;
    error = "cannot write elements of type " + type + " to .npy";
    return failure();
  }
  std::string shape;
  for (int64_t s : buffer.shape)
    shape += std::to_string(s) + ", ";
  std::string header = "{'descr': '" + descr +
                       "', 'fortran_order': False, 'shape': (" + shape + "), }";
  // Pad so that magic (6) + version (2) + length (2) + header is 64-aligned.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  appendRaw<uint16_t>(out, static_cast<uint16_t>(header.size()));
  out += header;
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec) {
    error = ec.message();
    return failure();
  }
  os << out;
  // The elements, a chunk at a time.
  int64_t n = buffer.size();
  for (int64_t start = 0; start < n; start += 4096) {
    out.clear();
    for (int64_t i = start, e = std::min<int64_t>(n, start + 4096); i < e;
         ++i) {
      double v = buffer.get(i);
      if (descr == "<f2")
        appendRaw<uint16_t>(out, runtime::doubleToHalfBits(v));
      else if (descr == "<f4")
        appendRaw<float>(out, static_cast<float>(v));
      else if (descr == "<f8")
        appendRaw<double>(out, v);
      else if (descr == "|b1")
        appendRaw<uint8_t>(out, v != 0);
      else if (descr == "|i1")
        appendRaw<int8_t>(out, static_cast<int8_t>(v));
      else if (descr == "<i2")
        appendRaw<int16_t>(out, static_cast<int16_t>(v));
      else if (descr == "<i4")
        appendRaw<int32_t>(out, static_cast<int32_t>(v));
      else
        appendRaw<int64_t>(out, static_cast<int64_t>(v));
    }
    os << out;
  }
  os.close();
  if (os.has_error()) {
    error = os.error().message();
    os.clear_error();
    return failure();
  }
  return success();
}

/// The value of `key` in a .npy header dict, up to the next top-level comma.
static StringRef headerValue(StringRef header, StringRef key) {
  size_t at = header.find(("'" + key + "'").str());
  if (at == StringRef::npos)
    return "";
  StringRef rest = header.drop_front(at + key.size() + 2).ltrim(" :");
  if (rest.starts_with("("))
    return rest.take_until([](char c) { return c == ')'; }).drop_front();
  return rest.take_until([](char c) { return c == ',' || c == '}'; }).trim();
}

FailureOr<Buffer> deplodock::interp::readNpy(StringRef path,
                                             MLIRContext *context,
                                             std::string &error) {
  auto file = llvm::MemoryBuffer::getFile(path);
  if (!file) {
    error = file.getError().message();
    return failure();
  }
  StringRef bytes = (*file)->getBuffer();
  if (bytes.size() < 10 || !bytes.starts_with("\x93NUMPY")) {
    error = "not a .npy file";
    return failure();
  }
  // Version 1 has a 2-byte header length, versions 2 and 3 a 4-byte one.
  unsigned major = static_cast<uint8_t>(bytes[6]);
  if (major < 1 || major > 3) {
    error = "unsupported .npy version " + std::to_string(major);
    return failure();
  }
  size_t lengthBytes = major == 1 ? 2 : 4;
  if (bytes.size() < 8 + lengthBytes) {
    error = "truncated .npy header";
    return failure();
  }
  uint32_t headerLength = major == 1 ? readRaw<uint16_t>(bytes.data() + 8)
                                     : readRaw<uint32_t>(bytes.data() + 8);
  size_t dataStart = 8 + lengthBytes + headerLength;
  if (bytes.size() < dataStart) {
    error = "truncated .npy header";
    return failure();
  }
  StringRef header = bytes.substr(8 + lengthBytes, headerLength);
  StringRef descr = headerValue(header, "descr").trim("'\"");
  if (headerValue(header, "fortran_order") != "False") {
    error = "Fortran-ordered .npy files are not supported";
    return failure();
  }
  Builder b(context);
  auto [element, width] = typeOf(descr, b);
  if (!element) {
    error = ("unsupported .npy element type '" + descr + "'").str();
    return failure();
  }
  SmallVector<int64_t> shape;
  SmallVector<StringRef> dims;
  headerValue(header, "shape").split(dims, ',', -1, /*KeepEmpty=*/false);
  // Check the sizes against the data before allocating anything.
  uint64_t nonzero = 1;
  bool empty = false, overflow = false;
  for (StringRef dim : dims) {
    // "(2, 3, )" as this file writes it, "(3,)" as NumPy does.
    dim = dim.trim();
    if (dim.empty())
      continue;
    uint64_t size;
    if (dim.getAsInteger(10, size)) {
      error = "bad shape in .npy header";
      return failure();
    }
    shape.push_back(static_cast<int64_t>(size));
    if (size == 0)
      empty = true;
    else
      nonzero = llvm::SaturatingMultiply(nonzero, size, &overflow);
  }
  if (overflow || nonzero > static_cast<uint64_t>(INT64_MAX)) {
    error = "bad shape in .npy header";
    return failure();
  }
  if (!empty && nonzero > (bytes.size() - dataStart) / width) {
    error = "truncated .npy data";
    return failure();
  }
  llvm::Expected<Buffer> allocated = Buffer::allocate(shape, element);
  if (!allocated) {
    error = llvm::toString(allocated.takeError());
    return failure();
  }
  Buffer buffer = std::move(*allocated);
  const char *p = bytes.data() + dataStart;
  for (int64_t i = 0, n = buffer.size(); i < n; ++i) {
    double v;
    if (descr == "<f2")
      v = runtime::halfBitsToDouble(readRaw<uint16_t>(p));
    else if (descr == "<f4")
      v = readRaw<float>(p);
    else if (descr == "<f8")
      v = readRaw<double>(p);
    else if (descr == "|b1")
      v = *p != 0;
    else if (descr == "|i1" || descr == "|u1") // u1 as i8 holds it: wrapped.
      v = readRaw<int8_t>(p);
    else if (descr == "<i2")
      v = readRaw<int16_t>(p);
    else if (descr == "<u2") // As i16 holds it: wrapped, sign extended.
      v = static_cast<int16_t>(readRaw<uint16_t>(p));
    else if (descr == "<i4")
      v = readRaw<int32_t>(p);
    else
      v = static_cast<double>(readRaw<int64_t>(p));
    buffer.set(i, v);
    p += width;
  }
  return buffer;
}

void deplodock::interp::adaptElementType(Buffer &buffer, Type expected) {
  Type got = buffer.elementType;
  if (expected.isIndex() && got.isInteger(64)) {
    buffer.elementType = expected;
  } else if (expected.isBF16() && (got.isInteger(16) || got.isF32())) {
    // The bits of bf16 values (int16 or uint16), or floats to round.
    Buffer adapted(buffer.shape, expected);
    for (int64_t i = 0, n = buffer.size(); i < n; ++i) {
      double v = buffer.get(i);
      adapted.set(i, got.isF32() ? v
                                 : runtime::bf16BitsToDouble(
                                       static_cast<uint16_t>(wrapToInt64(v))));
    }
    buffer = std::move(adapted);
  } else if (isa<Float8E4M3FNType, Float8E5M2Type>(expected) &&
             (got.isInteger(8) || got.isF32())) {
    // The bits of 8-bit float values (uint8 or int8, as torch's
    // .view(torch.uint8) gives them), or floats to round.
    runtime::DType dtype = isa<Float8E4M3FNType>(expected)
                               ? runtime::DType::F8E4M3FN
                               : runtime::DType::F8E5M2;
    Buffer adapted(buffer.shape, expected);
    for (int64_t i = 0, n = buffer.size(); i < n; ++i) {
      double v = buffer.get(i);
      adapted.set(i, got.isF32()
                         ? v
                         : runtime::f8BitsToDouble(
                               dtype, static_cast<uint8_t>(wrapToInt64(v))));
    }
    buffer = std::move(adapted);
  }
}

void deplodock::interp::printBuffer(const Buffer &buffer, StringRef title,
                                    llvm::raw_ostream &os) {
  os << title << ": " << RankedTensorType::get(buffer.shape, buffer.elementType)
     << "\n";
  // Integers print exactly; floats with the digits that read back the same
  // value (9 significant digits for f32 and narrower, 17 for f64).
  bool isFloat = isa<FloatType>(buffer.elementType);
  const char *format = buffer.elementType.isF64() ? "%.17g" : "%.9g";
  int64_t row = buffer.shape.empty() ? 1 : buffer.shape.back();
  for (int64_t i = 0, n = buffer.size(); i < n; ++i) {
    double v = buffer.get(i);
    if (std::isnan(v))
      os << "nan"; // Whatever its sign, which printf would show.
    else if (isFloat)
      os << llvm::format(format, v);
    else
      os << static_cast<int64_t>(v);
    os << ((row == 0 || (i + 1) % row == 0) ? '\n' : ' ');
  }
}
