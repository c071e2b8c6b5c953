//===- Buffer.cpp - Elements at their own width ---------------------------===//

#include "Deplodock/Interpreter/Buffer.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/ErrorHandling.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace deplodock::interp;

Storage deplodock::interp::storageOf(Type type) {
  if (type.isIndex())
    return Storage::I64;
  if (type.isF16())
    return Storage::F16;
  if (type.isBF16())
    return Storage::BF16;
  if (auto fp = dyn_cast<FloatType>(type))
    return fp.getWidth() <= 32 ? Storage::F32 : Storage::F64;
  unsigned width = cast<IntegerType>(type).getWidth();
  return width == 1    ? Storage::I1
         : width <= 8  ? Storage::I8
         : width <= 16 ? Storage::I16
         : width <= 32 ? Storage::I32
                       : Storage::I64;
}

unsigned deplodock::interp::storageBytes(Storage storage) {
  switch (storage) {
  case Storage::I1:
  case Storage::I8:
    return 1;
  case Storage::I16:
  case Storage::F16:
  case Storage::BF16:
    return 2;
  case Storage::I32:
  case Storage::F32:
    return 4;
  case Storage::I64:
  case Storage::F64:
    return 8;
  }
  return 8;
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
// 16-bit floats
//===----------------------------------------------------------------------===//

namespace {
/// A binary float format of 16 bits: `mantissa` stored bits, exponent bias
/// and smallest normal exponent.
struct Format16 {
  int mantissa, bias, minExponent;
};
constexpr Format16 kHalf{10, 15, -14};
constexpr Format16 kBfloat16{7, 127, -126};
} // namespace

/// The float of `format` nearest `v`, ties to even, rounded once from the
/// exact double.
static uint16_t roundToFormat(double v, Format16 f) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof(bits));
  auto sign = static_cast<uint16_t>((bits >> 48) & 0x8000);
  int exponentBits = 15 - f.mantissa;
  auto infinity =
      static_cast<uint16_t>(((1u << exponentBits) - 1) << f.mantissa);
  int biased = static_cast<int>((bits >> 52) & 0x7ff);
  uint64_t fraction = bits & ((uint64_t(1) << 52) - 1);
  if (biased == 0x7ff) // A quiet NaN keeps no payload.
    return fraction ? infinity | (1u << (f.mantissa - 1)) | sign
                    : infinity | sign;
  if (biased == 0) // Zero and double subnormals are far below the format.
    return sign;
  int e = biased - 1023;
  // The result is q * 2^quantum with an integer q.
  int quantum = std::max(e, f.minExponent) - f.mantissa;
  int shift = 52 - e + quantum;
  uint64_t full = fraction | (uint64_t(1) << 52);
  if (shift >= 64)
    return sign;
  uint64_t q = full >> shift;
  uint64_t rest = full & ((uint64_t(1) << shift) - 1);
  uint64_t half = uint64_t(1) << (shift - 1);
  if (rest > half || (rest == half && (q & 1)))
    ++q;
  uint64_t implicit = uint64_t(1) << f.mantissa;
  if (e < f.minExponent) // Subnormal; q == implicit is the smallest normal.
    return static_cast<uint16_t>(q) | sign;
  if (q == 2 * implicit) {
    q = implicit;
    ++e;
  }
  int stored = e + f.bias;
  if (stored >= (1 << exponentBits) - 1)
    return infinity | sign;
  return static_cast<uint16_t>((stored << f.mantissa) | (q - implicit)) | sign;
}

static double fromFormat(uint16_t bits, Format16 f) {
  int exponentBits = 15 - f.mantissa;
  int stored = (bits >> f.mantissa) & ((1 << exponentBits) - 1);
  int fraction = bits & ((1 << f.mantissa) - 1);
  double magnitude;
  if (stored == (1 << exponentBits) - 1)
    magnitude = fraction ? std::numeric_limits<double>::quiet_NaN()
                         : std::numeric_limits<double>::infinity();
  else if (stored == 0)
    magnitude = std::ldexp(fraction, f.minExponent - f.mantissa);
  else
    magnitude = std::ldexp(fraction | (1 << f.mantissa),
                           stored - f.bias - f.mantissa);
  return bits & 0x8000 ? -magnitude : magnitude;
}

uint16_t deplodock::interp::toHalf(double v) { return roundToFormat(v, kHalf); }
double deplodock::interp::fromHalf(uint16_t bits) {
  return fromFormat(bits, kHalf);
}
uint16_t deplodock::interp::toBfloat16(double v) {
  return roundToFormat(v, kBfloat16);
}
double deplodock::interp::fromBfloat16(uint16_t bits) {
  // The upper half of an f32.
  uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float f;
  std::memcpy(&f, &wide, sizeof(f));
  return f;
}

//===----------------------------------------------------------------------===//
// ElementArray
//===----------------------------------------------------------------------===//

ElementArray::ElementArray(Storage storage, int64_t count,
                           Reservation reservation)
    : kind(storage), count(count), reservation(std::move(reservation)) {
  size_t n = static_cast<size_t>(count) * storageBytes(storage);
  // calloc: the pages of a large buffer cost nothing until written.
  bytes.reset(std::calloc(std::max<size_t>(n, 1), 1));
  if (!bytes)
    llvm::report_bad_alloc_error("the interpreter could not allocate a "
                                 "buffer within its memory limit");
}

ElementArray::ElementArray(const ElementArray &other)
    : kind(other.kind), count(other.count) {
  size_t n = static_cast<size_t>(count) * storageBytes(kind);
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
  switch (kind) {
  case Storage::I1:
    as<uint8_t>()[i] = static_cast<uint8_t>(wrapToInt64(v) & 1);
    return;
  case Storage::I8:
    as<int8_t>()[i] = static_cast<int8_t>(wrapToInt64(v));
    return;
  case Storage::I16:
    as<int16_t>()[i] = static_cast<int16_t>(wrapToInt64(v));
    return;
  case Storage::I32:
    as<int32_t>()[i] = static_cast<int32_t>(wrapToInt64(v));
    return;
  case Storage::I64:
    as<int64_t>()[i] = wrapToInt64(v);
    return;
  case Storage::F16:
    as<uint16_t>()[i] = toHalf(v);
    return;
  case Storage::BF16:
    as<uint16_t>()[i] = toBfloat16(v);
    return;
  case Storage::F32:
    as<float>()[i] = static_cast<float>(v);
    return;
  case Storage::F64:
    as<double>()[i] = v;
    return;
  }
}

void ElementArray::fill(double v) {
  if (count == 0)
    return;
  set(0, v);
  // Every element gets the bytes of the first.
  size_t width = storageBytes(kind);
  auto *first = static_cast<char *>(bytes.get());
  for (int64_t i = 1; i < count; ++i)
    std::memcpy(first + i * width, first, width);
}

void ElementArray::read(int64_t from, int64_t n, double *out) const {
  switch (kind) {
  case Storage::F32:
    std::copy(as<float>() + from, as<float>() + from + n, out);
    return;
  case Storage::F64:
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
  switch (kind) {
  case Storage::F32:
    for (int64_t i = 0; i < n; ++i)
      as<float>()[from + i] = static_cast<float>(values[i]);
    return;
  case Storage::F64:
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
  Storage storage = storageOf(elementType);
  int64_t count = checkedNumElements(shape).value_or(0);
  data = ElementArray(
      storage, count,
      Reservation::account(static_cast<uint64_t>(count) *
                           storageBytes(storage)));
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
  Storage storage = storageOf(elementType);
  std::optional<int64_t> count = checkedNumElements(shape);
  std::optional<int64_t> bytes =
      count ? checkedBytes(*count, storageBytes(storage)) : std::nullopt;
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
  size_t n = static_cast<size_t>(size()) * storageBytes(data.storage());
  if (n)
    std::memcpy(copy->data.as<char>(), data.as<char>(), n);
  return copy;
}
