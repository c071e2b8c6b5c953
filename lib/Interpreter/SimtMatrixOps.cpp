//===- SimtMatrixOps.cpp - Kernel IR: ldmatrix and mma.sync -----*- C++ -*-===//
//
// The warp-level matrix ops, executed with the register layouts of the PTX
// ISA: every lane's fragment registers are plain lane values, one element
// each. Both ops need every lane of whole 32-thread warps. ldmatrix reads
// each row from the address its lane named, through the race tracker like
// any other shared read; mma.sync sums the exact products in double and
// rounds once to f32. Its tf32 form (f32 multiplicands, m16n8k8) first
// rounds each operand to tf32 as cvt.rna does.
//
//===----------------------------------------------------------------------===//

#include "SimtMachine.h"

#include "llvm/ADT/bit.h"

#include <cstdint>
#include <vector>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::interp;
using namespace deplodock::interp::simt;

/// Fails unless the block is whole warps, all of them active.
static LogicalResult requireFullWarps(Machine &m, const SInstr &instr,
                                      const Mask &mask, uint32_t numThreads) {
  if (numThreads % 32 != 0)
    return m.error(instr) << "runs in a block of " << numThreads
                          << " threads; it needs whole warps of 32";
  return m.requireWholeWarps(instr, mask);
}

LogicalResult Machine::execLdMatrix(const SInstr &instr, const Mask &mask) {
  if (failed(requireFullWarps(*this, instr, mask, numThreads)))
    return failure();
  const View &src = *frame[instr.in[0]].view;
  bool trans = instr.a != 0;
  auto matrices = static_cast<uint32_t>(instr.out.size() / 2);
  // The row each lane names: the first of its 8 contiguous elements.
  double *rows = scratch.data();
  for (uint32_t i = 0; i < mask.count; ++i) {
    uint32_t l = mask.lanes[i];
    FailureOr<int64_t> e = element(instr, src, l);
    if (failed(e))
      return failure();
    if (*e % 8 != 0 && src.space == Space::Shared)
      return error(instr) << "names a row at element " << *e
                          << ", which is not 16-byte aligned" << where(l);
    if (*e + 8 > src.numElements())
      return error(instr) << "reads a row past the end of its source"
                          << where(l);
    rows[l] = static_cast<double>(*e);
  }
  for (uint32_t j = 0; j < instr.out.size(); ++j) {
    LaneValue &out = frame[instr.out[j]];
    out.uniform = false;
  }
  for (uint32_t i = 0; i < mask.count; ++i) {
    uint32_t l = mask.lanes[i], base = l - l % 32, lane = l % 32;
    for (uint32_t m = 0; m < matrices; ++m)
      for (uint32_t k = 0; k < 2; ++k) {
        // Row r, column c of matrix m; transposed, the lane reads the
        // transpose's element, row c of column r.
        uint32_t r = lane / 4, c = 2 * (lane % 4) + k;
        if (trans)
          std::swap(r, c);
        uint32_t owner = base + m * 8 + r;
        FailureOr<double> v =
            read(instr, src, static_cast<int64_t>(rows[owner]) + c, l);
        if (failed(v))
          return failure();
        frame[instr.out[2 * m + k]].v[l] = *v;
      }
  }
  for (uint32_t i = 0; i < mask.count; i += 32)
    warpSync(mask.lanes[i] / 32);
  return success();
}

/// `v` (an f32 value) rounded to tf32 as cvt.rna.tf32.f32 does: 10 mantissa
/// bits, to nearest with ties away from zero (adding half of the dropped
/// unit to the magnitude, then truncating). Infinities and NaNs pass.
static double roundToTf32(double v) {
  auto bits = llvm::bit_cast<uint32_t>(static_cast<float>(v));
  if ((bits & 0x7f800000u) == 0x7f800000u)
    return v;
  bits = (bits + 0x1000u) & ~0x1fffu;
  return llvm::bit_cast<float>(bits);
}

/// D = A B + C for every active lane, summed exactly: `a` and `b` give an
/// element of A and B (the warp's first lane, row, column), C is operands
/// [c, c + 4) and K is `depth`.
template <typename ReadA, typename ReadB>
static void accumulate(const SInstr &instr, llvm::ArrayRef<LaneValue> frame,
                       const Mask &mask, uint32_t c, uint32_t depth, ReadA a,
                       ReadB b, std::vector<double> &d) {
  for (uint32_t i = 0; i < mask.count; ++i) {
    uint32_t l = mask.lanes[i], base = l - l % 32, lane = l % 32;
    uint32_t g = lane / 4, t = lane % 4;
    for (uint32_t k = 0; k < 4; ++k) {
      // c[k] and d[k] are C[g + 8 (k / 2)][2 t + k % 2].
      uint32_t row = g + 8 * (k / 2), col = 2 * t + k % 2;
      double sum = frame[instr.in[c + k]].at(l);
      for (uint32_t x = 0; x < depth; ++x)
        sum += a(base, row, x) * b(base, x, col);
      d[4 * l + k] = sum;
    }
  }
}

/// m16n8k8 with f32 multiplicands taken as tf32: a[0..4), b[4..6), c[6..10).
static void mmaTf32(const SInstr &instr, llvm::ArrayRef<LaneValue> frame,
                    const Mask &mask, std::vector<double> &d) {
  auto a = [&](uint32_t base, uint32_t row, uint32_t col) {
    // a[i] is A[g + 8 (i % 2)][t + 4 (i / 2)].
    uint32_t i = (col / 4) * 2 + row / 8;
    uint32_t lane = (row % 8) * 4 + col % 4;
    return roundToTf32(frame[instr.in[i]].at(base + lane));
  };
  auto b = [&](uint32_t base, uint32_t row, uint32_t col) {
    // b[i] is B[t + 4 i][g].
    uint32_t lane = col * 4 + row % 4;
    return roundToTf32(frame[instr.in[4 + row / 4]].at(base + lane));
  };
  accumulate(instr, frame, mask, 6, 8, a, b, d);
}

/// m16n8k16 with f16 or bf16 multiplicands: a[0..8), b[8..12), c[12..16).
static void mma16(const SInstr &instr, llvm::ArrayRef<LaneValue> frame,
                  const Mask &mask, std::vector<double> &d) {
  auto a = [&](uint32_t base, uint32_t row, uint32_t col) {
    // a[i] is A[g + 8 ((i / 2) % 2)][2 t + i % 2 + 8 (i / 4)].
    uint32_t i = (col / 8) * 4 + (row / 8) * 2 + col % 2;
    uint32_t lane = (row % 8) * 4 + (col % 8) / 2;
    return frame[instr.in[i]].at(base + lane);
  };
  auto b = [&](uint32_t base, uint32_t row, uint32_t col) {
    // b[i] is B[2 t + i % 2 + 8 (i / 2)][g].
    uint32_t i = (row / 8) * 2 + row % 2;
    uint32_t lane = col * 4 + (row % 8) / 2;
    return frame[instr.in[8 + i]].at(base + lane);
  };
  accumulate(instr, frame, mask, 12, 16, a, b, d);
}

LogicalResult Machine::execMma(const SInstr &instr, const Mask &mask) {
  if (failed(requireFullWarps(*this, instr, mask, numThreads)))
    return failure();
  // The exact sums, each rounded once to f32.
  std::vector<double> d(4 * static_cast<size_t>(numThreads));
  if (instr.element.isF32())
    mmaTf32(instr, frame, mask, d);
  else
    mma16(instr, frame, mask, d);
  Type f32 = Float32Type::get(instr.element.getContext());
  for (uint32_t k = 0; k < 4; ++k) {
    LaneValue &out = frame[instr.out[k]];
    out.uniform = false;
    for (uint32_t i = 0; i < mask.count; ++i)
      out.v[mask.lanes[i]] = roundTo(f32, d[4 * mask.lanes[i] + k]);
  }
  for (uint32_t i = 0; i < mask.count; i += 32)
    warpSync(mask.lanes[i] / 32);
  return success();
}
