//===- BufferIO.cpp - Read and write interpreter buffers --------*- C++ -*-===//

#include "Deplodock/Interpreter/BufferIO.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;
using namespace deplodock::interp;

/// The NumPy descr of `type`, or "" if .npy cannot hold it.
static std::string descrOf(Type type) {
  if (type.isF32())
    return "<f4";
  if (type.isF64())
    return "<f8";
  if (type.isInteger(1))
    return "|b1";
  if (type.isInteger(32))
    return "<i4";
  if (type.isInteger(64) || type.isIndex())
    return "<i8";
  return "";
}

template <typename T>
static void appendRaw(std::string &out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

LogicalResult deplodock::interp::writeNpy(const Buffer &buffer,
                                          StringRef path, std::string &error) {
  std::string descr = descrOf(buffer.elementType);
  if (descr.empty()) {
    error = "cannot write elements of this type to .npy";
    return failure();
  }
  std::string shape;
  for (int64_t s : buffer.shape)
    shape += std::to_string(s) + ", ";
  std::string header = "{'descr': '" + descr +
                       "', 'fortran_order': False, 'shape': (" + shape +
                       "), }";
  // Pad so that magic (6) + version (2) + length (2) + header is 64-aligned.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  appendRaw<uint16_t>(out, static_cast<uint16_t>(header.size()));
  out += header;
  for (double v : buffer.data) {
    if (descr == "<f4")
      appendRaw<float>(out, static_cast<float>(v));
    else if (descr == "<f8")
      appendRaw<double>(out, v);
    else if (descr == "|b1")
      appendRaw<uint8_t>(out, v != 0);
    else if (descr == "<i4")
      appendRaw<int32_t>(out, static_cast<int32_t>(v));
    else
      appendRaw<int64_t>(out, static_cast<int64_t>(v));
  }
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec) {
    error = ec.message();
    return failure();
  }
  os << out;
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
  unsigned major = static_cast<uint8_t>(bytes[6]);
  size_t lengthBytes = major == 1 ? 2 : 4;
  uint32_t headerLength = 0;
  std::memcpy(&headerLength, bytes.data() + 8, lengthBytes);
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
  SmallVector<int64_t> shape;
  SmallVector<StringRef> dims;
  headerValue(header, "shape").split(dims, ',', -1, /*KeepEmpty=*/false);
  for (StringRef dim : dims) {
    int64_t size;
    if (dim.trim().getAsInteger(10, size)) {
      error = "bad shape in .npy header";
      return failure();
    }
    shape.push_back(size);
  }
  Builder b(context);
  Type element;
  size_t width = 0;
  if (descr == "<f4")
    element = b.getF32Type(), width = 4;
  else if (descr == "<f8")
    element = b.getF64Type(), width = 8;
  else if (descr == "|b1")
    element = b.getI1Type(), width = 1;
  else if (descr == "<i4")
    element = b.getI32Type(), width = 4;
  else if (descr == "<i8")
    element = b.getI64Type(), width = 8;
  else {
    error = ("unsupported .npy element type '" + descr + "'").str();
    return failure();
  }
  Buffer buffer(shape, element);
  if (bytes.size() - dataStart < buffer.data.size() * width) {
    error = "truncated .npy data";
    return failure();
  }
  const char *p = bytes.data() + dataStart;
  for (double &v : buffer.data) {
    if (descr == "<f4") {
      float f;
      std::memcpy(&f, p, 4);
      v = f;
    } else if (descr == "<f8") {
      std::memcpy(&v, p, 8);
    } else if (descr == "|b1") {
      v = *p != 0;
    } else if (descr == "<i4") {
      int32_t i;
      std::memcpy(&i, p, 4);
      v = i;
    } else {
      int64_t i;
      std::memcpy(&i, p, 8);
      v = static_cast<double>(i);
    }
    p += width;
  }
  return buffer;
}

void deplodock::interp::printBuffer(const Buffer &buffer, StringRef title,
                                    llvm::raw_ostream &os) {
  os << title << ": "
     << RankedTensorType::get(buffer.shape, buffer.elementType) << "\n";
  int64_t row = buffer.shape.empty() ? 1 : buffer.shape.back();
  for (int64_t i = 0, n = buffer.size(); i < n; ++i) {
    os << llvm::format("%.9g", buffer.data[i]);
    os << ((row == 0 || (i + 1) % row == 0) ? '\n' : ' ');
  }
}
