//===- SimtWgmmaOps.cpp - Kernel IR: warpgroup MMA (wgmma) ------*- C++ -*-===//
//
// wgmma.mma_async with the PTX ISA's semantics on the lock-step machine:
//
// * a descriptor is a lane value holding the start address, LBO and SBO
//   fields of the PTX descriptor (bits 0-45) and the swizzle width in bits
//   46-47 instead of 62-63, so that it stays an exact double;
// * the multiplicands are read from the shared pool through the descriptor,
//   K-major or MN-major as the op's major_a / major_b say, swizzled as a
//   TMA box with the same swizzle writes them (swizzleByteOffset on the
//   pool address), through the race tracker;
// * the products (of 16-bit or 8-bit floats, 32 bytes of K) are exact,
//   summed in double and rounded once to f32, and land in the accumulators
//   in the warpgroup layout;
// * the op is asynchronous: each thread needs a wgmma_fence since its last
//   wait, its ops belong to the group its next commit closes, and a
//   wgmma_wait_group fails for an accumulator whose group is not complete;
// * the shared bytes a group read stay its operands until the group
//   completes: a write to them before (a store, a copy, a TMA refill) is an
//   error, as the tensor cores may still be reading them.
//
//===----------------------------------------------------------------------===//

#include "SimtMachine.h"

#include "Deplodock/Dialect/Common/Swizzle.h"

#include <algorithm>
#include <vector>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::interp;
using namespace deplodock::interp::simt;

namespace {

constexpr uint32_t kWarpgroup = 128;

/// A descriptor's fields, in bytes.
struct Descriptor {
  int64_t start = 0, lbo = 0, sbo = 0, swizzle = 0;
};

/// The swizzle widths by the 2-bit code the lane value carries.
constexpr int64_t kSwizzleByCode[] = {0, 32, 64, 128};

double encode(const Descriptor &d) {
  uint64_t code = d.swizzle == 0    ? 0
                  : d.swizzle == 32 ? 1
                  : d.swizzle == 64 ? 2
                                    : 3;
  uint64_t bits = static_cast<uint64_t>(d.start >> 4) |
                  (static_cast<uint64_t>(d.lbo >> 4) << 16) |
                  (static_cast<uint64_t>(d.sbo >> 4) << 32) | (code << 46);
  return static_cast<double>(bits);
}

Descriptor decode(double value) {
  auto bits = static_cast<uint64_t>(value);
  Descriptor d;
  d.start = static_cast<int64_t>(bits & 0x3fff) << 4;
  d.lbo = static_cast<int64_t>((bits >> 16) & 0x3fff) << 4;
  d.sbo = static_cast<int64_t>((bits >> 32) & 0x3fff) << 4;
  d.swizzle = kSwizzleByCode[(bits >> 46) & 3];
  return d;
}

/// The pool byte of element `r` of M or N and `k` (0 to 32 / `bytes` - 1)
/// of K of an operand of `bytes`-byte elements, K-major or (`mnMajor`, 2-byte
/// elements only) MN-major.
int64_t operandByte(const Descriptor &d, int64_t r, int64_t k, bool mnMajor,
                    int64_t bytes) {
  // A 16-byte core-matrix row holds `row` elements of K.
  int64_t row = 16 / bytes;
  if (d.swizzle == 0)
    return mnMajor ? d.start + (r / 8) * d.sbo + (k / 8) * d.lbo +
                         (k % 8) * 16 + 2 * (r % 8)
                   : d.start + (r / 8) * d.sbo + (k / row) * d.lbo +
                         (r % 8) * 16 + bytes * (k % row);
  // Swizzled, a K-major row of S bytes holds K; an MN-major one holds an
  // atom of S / 2 elements of M or N, atoms LBO apart.
  int64_t atom = d.swizzle / 2;
  int64_t linear =
      mnMajor ? d.start + (r / atom) * d.lbo + (k / 8) * d.sbo +
                    (k % 8) * d.swizzle + 2 * (r % atom)
              : d.start + (r / 8) * d.sbo + (r % 8) * d.swizzle + bytes * k;
  return swizzleByteOffset(linear, d.swizzle);
}

} // namespace

void WgmmaState::reset(uint32_t numThreads) {
  fenced.assign(numThreads, 0);
  committed.assign(numThreads, 0);
  completed.assign(numThreads, 0);
  groupOfSlot.clear();
  readBy.clear();
}

/// The readBy code of a read by `group` of `warpgroup`, and back.
constexpr int64_t kReaderWarpgroups = 16;

LogicalResult Machine::checkWgmmaReaders(const SInstr &instr, int64_t byte,
                                         int32_t lane) {
  if (wgmma.readBy.empty() || wgmma.readBy[byte] == 0)
    return success();
  int64_t code = wgmma.readBy[byte] - 1;
  int64_t group = code / kReaderWarpgroups;
  uint32_t warpgroup = code % kReaderWarpgroups;
  if (group <= wgmma.completed[warpgroup * kWarpgroup])
    return success();
  InFlightDiagnostic diag =
      error(instr) << "overwrites shared memory (pool byte " << byte
                   << ") that wgmma group " << group << " of warpgroup "
                   << warpgroup
                   << " still reads: no wgmma_wait_group has retired it";
  if (lane >= 0)
    diag << where(static_cast<uint32_t>(lane));
  return diag;
}

/// Fails unless the block is whole warpgroups, each all active or idle.
static LogicalResult requireWarpgroups(Machine &m, const SInstr &instr,
                                       const Mask &mask) {
  if (m.numThreads % kWarpgroup != 0)
    return m.error(instr) << "runs in a block of " << m.numThreads
                          << " threads; it needs whole warpgroups of 128";
  SmallVector<uint32_t, 8> active(m.numThreads / kWarpgroup, 0);
  for (uint32_t i = 0; i < mask.count; ++i)
    ++active[mask.lanes[i] / kWarpgroup];
  for (auto [group, count] : llvm::enumerate(active))
    if (count != 0 && count != kWarpgroup)
      return m.error(instr)
             << "reached by " << count << " of the 128 threads of warpgroup "
             << group << m.whichBlock() << "; the whole warpgroup executes it";
  return success();
}

LogicalResult Machine::execWgmma(const SInstr &instr, const Mask &mask) {
  if (wgmma.fenced.size() != numThreads)
    wgmma.reset(numThreads);
  switch (instr.kind) {
  case Kind::WgmmaDesc:
    return execWgmmaDesc(instr, mask);
  case Kind::WgmmaFence:
    if (failed(requireWarpgroups(*this, instr, mask)))
      return failure();
    for (uint32_t i = 0; i < mask.count; ++i)
      wgmma.fenced[mask.lanes[i]] = 1;
    return success();
  case Kind::WgmmaCommit:
    if (failed(requireWarpgroups(*this, instr, mask)))
      return failure();
    for (uint32_t i = 0; i < mask.count; ++i)
      ++wgmma.committed[mask.lanes[i]];
    return success();
  case Kind::WgmmaWait:
    return execWgmmaWait(instr, mask);
  case Kind::WgmmaMma:
    return execWgmmaMma(instr, mask);
  case Kind::SetMaxNReg:
    // No register file to resize: only the warpgroup must be whole.
    return requireWarpgroups(*this, instr, mask);
  default:
    return error(instr) << "is not a wgmma op";
  }
}

LogicalResult Machine::execWgmmaDesc(const SInstr &instr, const Mask &mask) {
  const View &src = *frame[instr.in[0]].view;
  if (src.space != Space::Shared)
    return error(instr) << "needs a buffer of the shared pool";
  LaneValue &out = frame[instr.out[0]];
  out.uniform = false;
  Descriptor d;
  d.lbo = instr.b;
  d.sbo = instr.c;
  d.swizzle = instr.a;
  for (uint32_t i = 0; i < mask.count; ++i) {
    uint32_t l = mask.lanes[i];
    FailureOr<int64_t> e = element(instr, src, l);
    if (failed(e))
      return failure();
    d.start = address(src, *e, l);
    if (d.start % 16 != 0)
      return error(instr) << "starts at pool byte " << d.start
                          << ", which is not 16-byte aligned" << where(l);
    if (d.start >= (int64_t(1) << 18))
      return error(instr) << "starts at pool byte " << d.start
                          << ", past the 18 bits a descriptor holds"
                          << where(l);
    out.v[l] = encode(d);
  }
  return success();
}

LogicalResult Machine::execWgmmaWait(const SInstr &instr, const Mask &mask) {
  if (failed(requireWarpgroups(*this, instr, mask)))
    return failure();
  int64_t pending = instr.a;
  for (uint32_t i = 0; i < mask.count; ++i) {
    uint32_t l = mask.lanes[i];
    wgmma.completed[l] =
        std::max(wgmma.completed[l], wgmma.committed[l] - pending);
    wgmma.fenced[l] = 0;
  }
  uint32_t first = mask.count ? mask.lanes[0] : 0;
  for (auto [j, slot] : llvm::enumerate(instr.in)) {
    auto it = wgmma.groupOfSlot.find(slot);
    int64_t group = it == wgmma.groupOfSlot.end() ? 0 : it->second;
    if (mask.count && group > wgmma.committed[first])
      return error(instr) << "reads accumulator #" << j
                          << " of a wgmma_mma_async that no "
                             "wgmma_commit_group has committed"
                          << where(first);
    if (mask.count && group > wgmma.completed[first])
      return error(instr) << "reads accumulator #" << j
                          << " of a wgmma group still in flight (wait_group "
                          << pending << " leaves "
                          << wgmma.committed[first] - wgmma.completed[first]
                          << " pending)" << where(first);
    assignLanes(frame[instr.out[j]], frame[slot], mask);
  }
  return success();
}

LogicalResult Machine::execWgmmaMma(const SInstr &instr, const Mask &mask) {
  if (failed(requireWarpgroups(*this, instr, mask)))
    return failure();
  auto n = static_cast<uint32_t>(instr.a);
  // K of the instruction: 32 bytes of the multiplicands' elements.
  int64_t bytes = instr.d;
  auto depth = static_cast<uint32_t>(32 / bytes);
  bool accumulate = instr.in.size() > 2;
  const LaneValue &descA = frame[instr.in[0]], &descB = frame[instr.in[1]];
  std::vector<double> a(64 * depth), b(static_cast<size_t>(n) * depth),
      d(64 * n);
  std::vector<double> results(static_cast<size_t>(n / 2) * kWarpgroup);
  for (uint32_t i = 0; i < mask.count; ++i) {
    // Whole warpgroups are active: each from its first thread.
    uint32_t base = mask.lanes[i];
    if (base % kWarpgroup != 0)
      continue;
    for (uint32_t t = base; t < base + kWarpgroup; ++t) {
      if (!wgmma.fenced[t])
        return error(instr) << "issued with no wgmma_fence since the last "
                               "wgmma_wait_group"
                            << where(t);
      if (descA.at(t) != descA.at(base) || descB.at(t) != descB.at(base))
        return error(instr) << "has descriptors that differ across the "
                               "warpgroup"
                            << where(t);
    }
    if (wgmma.readBy.size() != pool.size())
      wgmma.readBy.assign(pool.size(), 0);
    int64_t reader =
        (wgmma.committed[base] + 1) * kReaderWarpgroups + base / kWarpgroup + 1;
    // The multiplicands, read as the warpgroup's first thread.
    auto fetch = [&](const Descriptor &desc, uint32_t rows, bool mnMajor,
                     std::vector<double> &into) -> LogicalResult {
      for (uint32_t r = 0; r < rows; ++r)
        for (uint32_t k = 0; k < depth; ++k) {
          int64_t byte = operandByte(desc, r, k, mnMajor, bytes);
          if (byte < 0 || byte + bytes > static_cast<int64_t>(pool.size()))
            return error(instr)
                   << "reads pool byte " << byte << ", past the shared pool of "
                   << pool.size() << " bytes" << where(base);
          if (failed(trackRead(instr, byte, base)))
            return failure();
          // The tensor cores may read it until the group completes.
          std::fill_n(wgmma.readBy.begin() + byte, bytes, reader);
          into[r * depth + k] = pool[byte];
        }
      return success();
    };
    if (failed(fetch(decode(descA.at(base)), 64, instr.b != 0, a)) ||
        failed(fetch(decode(descB.at(base)), n, instr.c != 0, b)))
      return failure();
    for (uint32_t r = 0; r < 64; ++r)
      for (uint32_t c = 0; c < n; ++c) {
        double sum = 0;
        for (uint32_t k = 0; k < depth; ++k)
          sum += a[r * depth + k] * b[c * depth + k];
        d[r * n + c] = sum;
      }
    // Thread t of warp w holds D[16 w + g + 8 (i / 2)][8 j + 2 t + i % 2]
    // in accumulator 4 j + i (g = lane / 4, t = lane % 4).
    for (uint32_t t = base; t < base + kWarpgroup; ++t) {
      uint32_t w = (t - base) / 32, lane = t % 32, g = lane / 4, q = lane % 4;
      for (uint32_t x = 0; x < n / 2; ++x) {
        uint32_t j = x / 4, k = x % 4;
        uint32_t row = 16 * w + g + 8 * (k / 2), col = 8 * j + 2 * q + k % 2;
        double sum = d[row * n + col];
        if (accumulate)
          sum += frame[instr.in[2 + x]].at(t);
        results[x * kWarpgroup + (t - base)] = roundTo(instr.element, sum);
      }
    }
    for (uint32_t x = 0; x < n / 2; ++x) {
      LaneValue &out = frame[instr.out[x]];
      materialize(out);
      for (uint32_t t = 0; t < kWarpgroup; ++t)
        out.v[base + t] = results[x * kWarpgroup + t];
    }
  }
  // The results belong to the group the next commit closes.
  if (mask.count)
    for (unsigned slot : instr.out)
      wgmma.groupOfSlot[slot] = wgmma.committed[mask.lanes[0]] + 1;
  return success();
}
