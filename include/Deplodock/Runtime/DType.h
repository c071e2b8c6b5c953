//===- DType.h - Element types of GPU buffers -------------------*- C++ -*-===//
//
// The element types a benchmark request names ("f32", "bf16", "i1"...), their
// byte sizes and their encoding in memory, as the CUDA emitter prints them
// (i1 is a one-byte `bool`, index is int or long long). Conversions to and
// from double round to nearest even, like the reference interpreter, and the
// seeded generator draws the same values as interp::randomInputs, so a worker
// can make a request's inputs itself instead of receiving them.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_RUNTIME_DTYPE_H
#define DEPLODOCK_RUNTIME_DTYPE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace deplodock::runtime {

/// An element type of a device buffer.
enum class DType : uint8_t {
  F16,
  BF16,
  F32,
  F64,
  I1,
  I8,
  I16,
  I32,
  I64,
  F8E4M3FN,
  F8E5M2
};

/// The spelling of `dtype` in requests: "f16", "bf16", "f32", "f64", "i1",
/// "i8", "i16", "i32", "i64", "f8e4m3fn" or "f8e5m2".
llvm::StringRef dtypeName(DType dtype);

/// The dtype spelled `name`, if any.
std::optional<DType> parseDType(llvm::StringRef name);

/// Bytes of one element in device memory.
unsigned dtypeSize(DType dtype);

/// Whether `dtype` is a floating-point type.
bool isFloat(DType dtype);

/// The bits of the f16 (IEEE binary16) nearest to `v`, ties to even.
uint16_t doubleToHalfBits(double v);
/// The bits of the bf16 nearest to `v`, ties to even.
uint16_t doubleToBF16Bits(double v);
/// The value of f16 bits.
double halfBitsToDouble(uint16_t bits);
/// The value of bf16 bits.
double bf16BitsToDouble(uint16_t bits);
/// The bits of the 8-bit float `dtype` (F8E4M3FN or F8E5M2) nearest to `v`,
/// ties to even; out of range is NaN (e4m3fn, which has no infinity) or
/// infinity (e5m2), as MLIR's arith.truncf rounds.
uint8_t doubleToF8Bits(DType dtype, double v);
/// The value of 8-bit float bits of `dtype`.
double f8BitsToDouble(DType dtype, uint8_t bits);

/// Reads element `index` of `bytes`, a buffer of `dtype`, as a double.
double readElement(DType dtype, const uint8_t *bytes, int64_t index);

/// Writes `v`, rounded to `dtype` (floats to nearest even, integers
/// truncated towards zero and wrapped, i1 to 0 or 1), to element `index`.
void writeElement(DType dtype, uint8_t *bytes, int64_t index, double v);

/// Fills `bytes` (a buffer of `dtype`) with the seeded values that
/// interp::randomInputs gives argument `argIndex` for `seed`: floats uniform
/// in [-1, 1), integers uniform in [0, 8), i1 fair coin flips.
void fillSeeded(DType dtype, llvm::MutableArrayRef<uint8_t> bytes,
                uint64_t seed, uint64_t argIndex);

} // namespace deplodock::runtime

#endif // DEPLODOCK_RUNTIME_DTYPE_H
