//===- Swizzle.h - The shared-memory layout of TMA swizzles -----*- C++ -*-===//
//
// A TMA copy with an S-byte swizzle (S = 32, 64 or 128) permutes the 16-byte
// chunks of shared memory: the chunk index within each 128-byte line is
// XORed with the line index modulo S / 16 (CUTLASS's Swizzle<log2(S/16),
// 4, 3>). The hardware applies it to address bits, so the pattern repeats
// every 8 * S bytes and a swizzled box must start at a multiple of that.
//
// A swizzled slab holds its box in segments: the inner dimension is split
// into S-byte pieces, each a dense [rows x S bytes] box of its own (TMA
// copies one box per segment, as the swizzle requires inner rows of at most
// S bytes). The Tile rules (bank-conflict analysis), the Kernel lowering
// (slab reads) and the interpreter (tma_load) share these functions.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_DIALECT_COMMON_SWIZZLE_H
#define DEPLODOCK_DIALECT_COMMON_SWIZZLE_H

#include <cstdint>

namespace deplodock {

/// Whether `swizzle` is a TMA swizzle width (0: none).
constexpr bool isSwizzleWidth(int64_t swizzle) {
  return swizzle == 0 || swizzle == 32 || swizzle == 64 || swizzle == 128;
}

/// The widest swizzle (32, 64 or 128 bytes, at most `limit`) a slab of
/// `rows` rows of `innerBytes` bytes can be held in: its rows split into
/// whole segments and the pattern repeats over whole groups of 8 rows. 0 if
/// none.
constexpr int64_t getWidestSwizzle(int64_t innerBytes, int64_t rows,
                                   int64_t limit = 128) {
  if (rows % 8 != 0)
    return 0;
  int64_t best = 0;
  for (int64_t width = 32; width <= 128 && width <= limit; width *= 2)
    if (innerBytes % width == 0)
      best = width;
  return best;
}

/// The bytes after which the pattern of an S-byte swizzle repeats: what a
/// swizzled box's shared address must be a multiple of.
constexpr int64_t getSwizzleRepeatBytes(int64_t swizzle) {
  return swizzle == 0 ? 1 : 8 * swizzle;
}

/// What the shared address of a TMA box written with `swizzle` must be a
/// multiple of: 128 bytes, or the swizzle's repeat if larger.
constexpr int64_t getTmaBoxAlignment(int64_t swizzle) {
  return getSwizzleRepeatBytes(swizzle) > 128 ? getSwizzleRepeatBytes(swizzle)
                                              : 128;
}

/// Where the hardware puts byte `offset` (from a repeat-aligned base) of a
/// box written with `swizzle`.
constexpr int64_t swizzleByteOffset(int64_t offset, int64_t swizzle) {
  if (swizzle == 0)
    return offset;
  return offset ^ (((offset >> 7) & (swizzle / 16 - 1)) << 4);
}

/// The element offset, in a segmented slab of `rows` rows (the product of
/// the box's outer extents) written with `swizzle`, of row `row` and inner
/// coordinate `inner`; elements are `elementBytes` wide (1, 2, 4 or 8).
constexpr int64_t getSwizzledSlabOffset(int64_t row, int64_t inner,
                                        int64_t rows, int64_t swizzle,
                                        int64_t elementBytes) {
  int64_t perSegment = swizzle / elementBytes;
  int64_t dense = (inner / perSegment) * rows * perSegment + row * perSegment +
                  inner % perSegment;
  return swizzleByteOffset(dense * elementBytes, swizzle) / elementBytes;
}

} // namespace deplodock

#endif // DEPLODOCK_DIALECT_COMMON_SWIZZLE_H
