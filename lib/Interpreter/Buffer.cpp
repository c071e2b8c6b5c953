//===- Buffer.cpp - Elements at their own width ---------------------------===//

#include "Deplodock/Interpreter/Buffer.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/ErrorHandling.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::interp;

deplodock::runtime::DType deplodock::interp::storageOf(Type type) {
  using runtime::DType;
  if (type.isIndex())
    return DType::I64;
  if (type.isF16())
    return DType::F16;
  if (type.isBF16())
    return DType::BF16;
  if (auto fp = dyn_cast<FloatType>(type))
    return fp.getWidth() <= 32 ? DType::F32 : DType::F64;
  unsigned width = cast<IntegerType>(type).getWidth();
  return width == 1    ? DType::I1
         : width <= 8  ? DType::I8
         : width <= 16 ? DType::I16
         : width <= 32 ? DType::I32
                       : DType::I64;
}

int64_t deplodock::interp::wrapToInt64Slow(double v) {
  double t = std::trunc(v);
  if (!std::isfinite(t))
    return 0;
  double m = std::fmod(t, 0x1p64); // Exact; |m| < 2^64.
  uint64_t bits = m >= 0 ? static_cast<uint64_t>(m)
                         : uint64_t(0) - static_cast<uint64_t>(-m);
  return static_cast<int64_t>(bits);
}

//===----------------------------------------------------------------------===//
// ElementArray
//===----------------------------------------------------------------------===//

ElementArray::ElementArray(runtime::DType storage, int64_t count,
                           Reservation reservation)
    : kind(storage), count(count), reservation(std::move(reservation)) {
  size_t n = static_cast<size_t>(count) * runtime::dtypeSize(storage);
  // calloc: the pages of a large buffer cost nothing until written.
  bytes.reset(std::calloc(std::max<size_t>(n, 1), 1));
  if (!bytes)
    llvm::report_bad_alloc_error("the interpreter could not allocate a "
                                 "buffer within its memory limit");
}

ElementArray::ElementArray(const ElementArray &other)
    : kind(other.kind), count(other.count) {
  size_t n = static_cast<size_t>(count) * runtime::dtypeSize(kind);
  reservation = Reservation::account(n);
  bytes.reset(std::malloc(std::max<size_t>(n, 1)));
  if (!bytes)
    llvm::report_bad_alloc_error("the interpreter could not copy a buffer");
  if (n)
    std::memcpy(bytes.get(), other.bytes.get(), n);
}

ElementArray &ElementArray::operator=(const ElementArray &other) {
  if (this != &other)
    *this = ElementArray(other);
  return *this;
}

void ElementArray::set(int64_t i, double v) {
  using runtime::DType;
  switch (kind) {
  case DType::I1:
    as<uint8_t>()[i] = static_cast<uint8_t>(wrapToInt64(v) & 1);
    return;
  case DType::I8:
    as<int8_t>()[i] = static_cast<int8_t>(wrapToInt64(v));
    return;
  case DType::I16:
    as<int16_t>()[i] = static_cast<int16_t>(wrapToInt64(v));
    return;
  case DType::I32:
    as<int32_t>()[i] = static_cast<int32_t>(wrapToInt64(v));
    return;
  case DType::I64:
    as<int64_t>()[i] = wrapToInt64(v);
    return;
  case DType::F16:
    as<uint16_t>()[i] = runtime::doubleToHalfBits(v);
    return;
  case DType::BF16:
    as<uint16_t>()[i] = runtime::doubleToBF16Bits(v);
    return;
  case DType::F32:
    as<float>()[i] = static_cast<float>(v);
    return;
  case DType::F64:
    as<double>()[i] = v;
    return;
  case DType::F8E4M3FN:
  case DType::F8E5M2:
    as<uint8_t>()[i] = runtime::doubleToF8Bits(kind, v);
    return;
  }
}

void ElementArray::fill(double v) {
  if (count == 0)
    return;
  set(0, v);
  // Every element gets the bytes of the first.
  size_t width = runtime::dtypeSize(kind);
  auto *first = static_cast<char *>(bytes.get());
  for (int64_t i = 1; i < count; ++i)
    std::memcpy(first + i * width, first, width);
}

void ElementArray::read(int64_t from, int64_t n, double *out) const {
  using runtime::DType;
  switch (kind) {
  case DType::F32:
    std::copy(as<float>() + from, as<float>() + from + n, out);
    return;
  case DType::F64:
    std::copy(as<double>() + from, as<double>() + from + n, out);
    return;
  default:
    for (int64_t i = 0; i < n; ++i)
      out[i] = get(from + i);
    return;
  }
}

std::vector<double> ElementArray::values() const {
  std::vector<double> out(static_cast<size_t>(count));
  read(0, count, out.data());
  return out;
}

void ElementArray::write(int64_t from, int64_t n, const double *values) {
  using runtime::DType;
  switch (kind) {
  case DType::F32:
    for (int64_t i = 0; i < n; ++i)
      as<float>()[from + i] = static_cast<float>(values[i]);
    return;
  case DType::F64:
    std::copy(values, values + n, as<double>() + from);
    return;
  default:
    for (int64_t i = 0; i < n; ++i)
      set(from + i, values[i]);
    return;
  }
}

ElementArray &ElementArray::operator=(std::initializer_list<double> values) {
  int64_t i = 0;
  for (double v : values)
    if (i < count)
      set(i++, v);
  return *this;
}

bool ElementArray::operator==(const ElementArray &other) const {
  if (count != other.count)
    return false;
  for (int64_t i = 0; i < count; ++i)
    if (get(i) != other.get(i))
      return false;
  return true;
}

//===----------------------------------------------------------------------===//
// Buffer
//===----------------------------------------------------------------------===//

Buffer::Buffer(ArrayRef<int64_t> shape, Type elementType)
    : shape(shape), elementType(elementType) {
  runtime::DType storage = storageOf(elementType);
  int64_t count = checkedNumElements(shape).value_or(0);
  data = ElementArray(storage, count,
                      Reservation::account(static_cast<uint64_t>(count) *
                                           runtime::dtypeSize(storage)));
}

/// "tensor<4x8xf32>".
static std::string typeName(ArrayRef<int64_t> shape, Type elementType) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << RankedTensorType::get(shape, elementType);
  return text;
}

llvm::Expected<Buffer> Buffer::allocate(ArrayRef<int64_t> shape,
                                        Type elementType, StringRef what) {
  std::string name = what.empty() ? typeName(shape, elementType) : what.str();
  runtime::DType storage = storageOf(elementType);
  std::optional<int64_t> count = checkedNumElements(shape);
  std::optional<int64_t> bytes =
      count ? checkedBytes(*count, runtime::dtypeSize(storage)) : std::nullopt;
  if (!bytes)
    return llvm::createStringError(
        name + " has more elements than a 64-bit size can count");
  llvm::Expected<Reservation> reservation =
      Reservation::reserve(static_cast<uint64_t>(*bytes), name);
  if (!reservation)
    return reservation.takeError();
  Buffer buffer;
  buffer.shape.assign(shape.begin(), shape.end());
  buffer.elementType = elementType;
  buffer.data = ElementArray(storage, *count, std::move(*reservation));
  return buffer;
}

llvm::Expected<Buffer> Buffer::clone() const {
  llvm::Expected<Buffer> copy = allocate(shape, elementType);
  if (!copy)
    return copy.takeError();
  size_t n = static_cast<size_t>(size()) * runtime::dtypeSize(data.storage());
  if (n)
    std::memcpy(copy->data.as<char>(), data.as<char>(), n);
  return copy;
}
