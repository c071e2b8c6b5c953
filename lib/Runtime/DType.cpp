//===- DType.cpp - Element types of GPU buffers ---------------------------===//

#include "Deplodock/Runtime/DType.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/bit.h"

#include <cmath>
#include <cstring>

using namespace deplodock::runtime;

llvm::StringRef deplodock::runtime::dtypeName(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
  case DType::I1:
    return "i1";
  case DType::I8:
    return "i8";
  case DType::I16:
    return "i16";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::F8E4M3FN:
    return "f8e4m3fn";
  case DType::F8E5M2:
    return "f8e5m2";
  }
  return "?";
}

std::optional<DType> deplodock::runtime::parseDType(llvm::StringRef name) {
  for (DType dtype :
       {DType::F16, DType::BF16, DType::F32, DType::F64, DType::I1, DType::I8,
        DType::I16, DType::I32, DType::I64, DType::F8E4M3FN, DType::F8E5M2})
    if (dtypeName(dtype) == name)
      return dtype;
  return std::nullopt;
}

unsigned deplodock::runtime::dtypeSize(DType dtype) {
  switch (dtype) {
  case DType::I1:
  case DType::I8:
  case DType::F8E4M3FN:
  case DType::F8E5M2:
    return 1;
  case DType::F16:
  case DType::BF16:
  case DType::I16:
    return 2;
  case DType::F32:
  case DType::I32:
    return 4;
  case DType::F64:
  case DType::I64:
    return 8;
  }
  return 1;
}

bool deplodock::runtime::isFloat(DType dtype) {
  return dtype == DType::F16 || dtype == DType::BF16 || dtype == DType::F32 ||
         dtype == DType::F64 || dtype == DType::F8E4M3FN ||
         dtype == DType::F8E5M2;
}

/// The bits of the binary float with `expBits` exponent and `mantBits`
/// mantissa bits nearest to `v`, ties to even, rounded once from the double
/// (rounding through f32 first could round twice).
static uint16_t narrowFloatBits(double v, unsigned expBits, unsigned mantBits) {
  uint64_t bits = llvm::bit_cast<uint64_t>(v);
  uint16_t sign = static_cast<uint16_t>((bits >> 63) << (expBits + mantBits));
  uint64_t magnitude = bits & ~(uint64_t(1) << 63);
  uint16_t expMask = static_cast<uint16_t>(((1u << expBits) - 1) << mantBits);
  if (magnitude >= 0x7ff0000000000000ull) {
    // Infinity, or a quiet NaN.
    bool nan = magnitude > 0x7ff0000000000000ull;
    return sign | expMask | (nan ? uint16_t(1u << (mantBits - 1)) : 0);
  }
  if (magnitude == 0)
    return sign;
  int bias = (1 << (expBits - 1)) - 1;
  int exp = static_cast<int>(magnitude >> 52) - 1023;
  uint64_t full = (magnitude & ((uint64_t(1) << 52) - 1)) |
                  (exp == -1023 ? 0 : uint64_t(1) << 52);
  if (exp == -1023)
    exp = -1022; // A double subnormal: far below any narrow subnormal.
  // Normal results keep mantBits + 1 significant bits; subnormal ones the
  // bits above 2^(1 - bias - mantBits).
  int shift = 52 - static_cast<int>(mantBits);
  int biased = exp + bias;
  if (biased < 1)
    shift += 1 - biased;
  if (shift >= 54)
    return sign; // Below half the smallest subnormal: rounds to zero.
  uint64_t kept = full >> shift;
  uint64_t rest = full & ((uint64_t(1) << shift) - 1);
  uint64_t half = uint64_t(1) << (shift - 1);
  if (rest > half || (rest == half && (kept & 1)))
    ++kept;
  if (biased < 1)
    return sign | static_cast<uint16_t>(kept); // May carry into the exponent.
  if (kept >> (mantBits + 1)) { // The rounding carried: 1.11..1 -> 10.0.
    kept >>= 1;
    ++biased;
  }
  if (biased >= (1 << expBits) - 1)
    return sign | expMask; // Overflow: infinity.
  return sign | static_cast<uint16_t>(biased << mantBits) |
         static_cast<uint16_t>(kept & ((1u << mantBits) - 1));
}

/// The value of narrow float bits (see narrowFloatBits).
static double narrowFloatValue(uint16_t bits, unsigned expBits,
                               unsigned mantBits) {
  bool negative = bits >> (expBits + mantBits);
  int exp = (bits >> mantBits) & ((1 << expBits) - 1);
  int mant = bits & ((1 << mantBits) - 1);
  int bias = (1 << (expBits - 1)) - 1;
  double v;
  if (exp == (1 << expBits) - 1)
    v = mant ? NAN : INFINITY;
  else if (exp == 0)
    v = std::ldexp(static_cast<double>(mant), 1 - bias - mantBits);
  else
    v = std::ldexp(static_cast<double>(mant | (1 << mantBits)),
                   exp - bias - static_cast<int>(mantBits));
  return negative ? -v : v;
}

uint16_t deplodock::runtime::doubleToHalfBits(double v) {
  return narrowFloatBits(v, 5, 10);
}

uint16_t deplodock::runtime::doubleToBF16Bits(double v) {
  return narrowFloatBits(v, 8, 7);
}

double deplodock::runtime::halfBitsToDouble(uint16_t bits) {
  return narrowFloatValue(bits, 5, 10);
}

double deplodock::runtime::bf16BitsToDouble(uint16_t bits) {
  return narrowFloatValue(bits, 8, 7);
}

/// The APFloat semantics of an 8-bit float dtype.
static const llvm::fltSemantics &f8Semantics(DType dtype) {
  return dtype == DType::F8E4M3FN ? llvm::APFloat::Float8E4M3FN()
                                  : llvm::APFloat::Float8E5M2();
}

uint8_t deplodock::runtime::doubleToF8Bits(DType dtype, double v) {
  llvm::APFloat value(v);
  bool losesInfo = false;
  value.convert(f8Semantics(dtype), llvm::APFloat::rmNearestTiesToEven,
                &losesInfo);
  return static_cast<uint8_t>(value.bitcastToAPInt().getZExtValue());
}

double deplodock::runtime::f8BitsToDouble(DType dtype, uint8_t bits) {
  llvm::APFloat value(f8Semantics(dtype), llvm::APInt(8, bits));
  bool losesInfo = false;
  value.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
                &losesInfo);
  return value.convertToDouble();
}

template <typename T> static T load(const uint8_t *bytes, int64_t index) {
  T value;
  std::memcpy(&value, bytes + index * sizeof(T), sizeof(T));
  return value;
}

template <typename T>
static void store(uint8_t *bytes, int64_t index, T value) {
  std::memcpy(bytes + index * sizeof(T), &value, sizeof(T));
}

double deplodock::runtime::readElement(DType dtype, const uint8_t *bytes,
                                       int64_t index) {
  switch (dtype) {
  case DType::F16:
    return halfBitsToDouble(load<uint16_t>(bytes, index));
  case DType::BF16:
    return bf16BitsToDouble(load<uint16_t>(bytes, index));
  case DType::F32:
    return load<float>(bytes, index);
  case DType::F64:
    return load<double>(bytes, index);
  case DType::I1:
    return load<uint8_t>(bytes, index) != 0;
  case DType::I8:
    return load<int8_t>(bytes, index);
  case DType::I16:
    return load<int16_t>(bytes, index);
  case DType::I32:
    return load<int32_t>(bytes, index);
  case DType::I64:
    return static_cast<double>(load<int64_t>(bytes, index));
  case DType::F8E4M3FN:
  case DType::F8E5M2:
    return f8BitsToDouble(dtype, load<uint8_t>(bytes, index));
  }
  return 0;
}

/// `v` truncated towards zero and wrapped to 64 bits; NaN is 0.
static uint64_t toWrappedInt(double v) {
  if (std::isnan(v))
    return 0;
  double t = std::trunc(v);
  if (std::fabs(t) < 0x1p63)
    return static_cast<uint64_t>(static_cast<int64_t>(t));
  double r = std::fmod(t, 0x1p64); // Exact: the low bits of a huge value.
  if (r < 0)
    r += 0x1p64;
  return r >= 0x1p64 ? 0 : static_cast<uint64_t>(r);
}

void deplodock::runtime::writeElement(DType dtype, uint8_t *bytes,
                                      int64_t index, double v) {
  switch (dtype) {
  case DType::F16:
    return store(bytes, index, doubleToHalfBits(v));
  case DType::BF16:
    return store(bytes, index, doubleToBF16Bits(v));
  case DType::F32:
    return store(bytes, index, static_cast<float>(v));
  case DType::F64:
    return store(bytes, index, v);
  case DType::I1:
    return store(bytes, index, static_cast<uint8_t>(toWrappedInt(v) & 1));
  case DType::I8:
    return store(bytes, index, static_cast<uint8_t>(toWrappedInt(v)));
  case DType::I16:
    return store(bytes, index, static_cast<uint16_t>(toWrappedInt(v)));
  case DType::I32:
    return store(bytes, index, static_cast<uint32_t>(toWrappedInt(v)));
  case DType::I64:
    return store(bytes, index, toWrappedInt(v));
  case DType::F8E4M3FN:
  case DType::F8E5M2:
    return store(bytes, index, doubleToF8Bits(dtype, v));
  }
}

/// SplitMix64, as the reference interpreter draws its inputs.
static uint64_t splitMix(uint64_t &state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void deplodock::runtime::fillSeeded(DType dtype,
                                    llvm::MutableArrayRef<uint8_t> bytes,
                                    uint64_t seed, uint64_t argIndex) {
  uint64_t state = seed * 0x100000001b3ull + argIndex;
  int64_t n = bytes.size() / dtypeSize(dtype);
  for (int64_t i = 0; i < n; ++i) {
    uint64_t bits = splitMix(state);
    double v;
    if (isFloat(dtype)) {
      double unit = static_cast<double>(bits >> 11) * 0x1.0p-53;
      v = 2.0 * unit - 1.0;
    } else if (dtype == DType::I1) {
      v = static_cast<double>(bits & 1);
    } else {
      v = static_cast<double>(bits & 7);
    }
    writeElement(dtype, bytes.data(), i, v);
  }
}
