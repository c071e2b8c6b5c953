//===- SimtSmallInts.cpp - Index arithmetic on small values, lane by lane -===//
//
// Thread and element coordinates are index values in [0, 2^31): there,
// every arith op on index means what it means on unbounded integers (no
// wrapping, signed and unsigned agree), so it runs as plain int64 arithmetic
// over the lanes, specialised per opcode so the loops stay tight. Anything
// else (a negative or huge operand, a division by zero) goes back to
// evalScalar, which implements the full semantics.
//
//===----------------------------------------------------------------------===//

#include "SimtMachine.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace deplodock::interp;
using namespace deplodock::interp::simt;

namespace {
/// Whether a stored value is an integer in [0, 2^31).
inline bool isSmall(double v) { return v >= 0 && v < 0x1p31; }

/// Whether every lane of `x` under `mask` is small (and non-zero if
/// `nonZero`).
bool allSmall(const LaneValue &x, const Mask &mask, uint32_t n, bool nonZero) {
  auto ok = [&](double v) { return isSmall(v) && (!nonZero || v != 0); };
  if (x.uniform)
    return ok(x.u);
  bool all = true;
  if (mask.full) {
    for (uint32_t l = 0; l < n; ++l)
      all &= ok(x.v[l]);
  } else {
    for (uint32_t i = 0; i < mask.count; ++i)
      all &= ok(x.v[mask.lanes[i]]);
  }
  return all;
}

/// `out = f(a, b)` on the active lanes, at least one operand varying.
template <typename F>
void apply(const LaneValue &a, const LaneValue &b, LaneValue &out,
           const Mask &mask, uint32_t n, F f) {
  auto at = [](double v) { return static_cast<int64_t>(v); };
  out.uniform = false;
  if (!mask.full) {
    for (uint32_t i = 0; i < mask.count; ++i) {
      uint32_t l = mask.lanes[i];
      out.v[l] = static_cast<double>(f(at(a.at(l)), at(b.at(l))));
    }
    return;
  }
  if (b.uniform) {
    int64_t y = at(b.u);
    for (uint32_t l = 0; l < n; ++l)
      out.v[l] = static_cast<double>(f(at(a.v[l]), y));
  } else if (a.uniform) {
    int64_t x = at(a.u);
    for (uint32_t l = 0; l < n; ++l)
      out.v[l] = static_cast<double>(f(x, at(b.v[l])));
  } else {
    for (uint32_t l = 0; l < n; ++l)
      out.v[l] = static_cast<double>(f(at(a.v[l]), at(b.v[l])));
  }
}

/// Quotient and remainder of small values in 32 bits, which divides faster.
inline int64_t quot(int64_t x, int64_t y) {
  return static_cast<uint32_t>(x) / static_cast<uint32_t>(y);
}
inline int64_t rem(int64_t x, int64_t y) {
  return static_cast<uint32_t>(x) % static_cast<uint32_t>(y);
}
} // namespace

bool Machine::execSmallInt(const SInstr &instr, const Mask &mask) {
  const LaneValue &a = frame[instr.in[0]], &b = frame[instr.in[1]];
  LaneValue &out = frame[instr.out[0]];
  uint32_t n = numThreads;
  Opcode code = instr.scalar.code;
  bool divides = code == Opcode::DivUI || code == Opcode::DivSI ||
                 code == Opcode::RemUI || code == Opcode::RemSI;
  if (!allSmall(a, mask, n, false) || !allSmall(b, mask, n, divides))
    return false;
  using P = arith::CmpIPredicate;
  switch (code) {
  case Opcode::AddI:
    apply(a, b, out, mask, n, [](int64_t x, int64_t y) { return x + y; });
    return true;
  case Opcode::SubI:
    apply(a, b, out, mask, n, [](int64_t x, int64_t y) { return x - y; });
    return true;
  case Opcode::MulI:
    apply(a, b, out, mask, n, [](int64_t x, int64_t y) { return x * y; });
    return true;
  case Opcode::DivUI:
  case Opcode::DivSI:
    // Tile extents are mostly powers of two: a shift, not a division.
    if (b.uniform && llvm::isPowerOf2_64(static_cast<uint64_t>(b.u))) {
      int64_t shift = llvm::Log2_64(static_cast<uint64_t>(b.u));
      apply(a, b, out, mask, n,
            [shift](int64_t x, int64_t) { return x >> shift; });
      return true;
    }
    apply(a, b, out, mask, n, quot);
    return true;
  case Opcode::RemUI:
  case Opcode::RemSI:
    if (b.uniform && llvm::isPowerOf2_64(static_cast<uint64_t>(b.u))) {
      int64_t low = static_cast<int64_t>(b.u) - 1;
      apply(a, b, out, mask, n, [low](int64_t x, int64_t) { return x & low; });
      return true;
    }
    apply(a, b, out, mask, n, rem);
    return true;
  case Opcode::AndI:
    apply(a, b, out, mask, n, [](int64_t x, int64_t y) { return x & y; });
    return true;
  case Opcode::OrI:
    apply(a, b, out, mask, n, [](int64_t x, int64_t y) { return x | y; });
    return true;
  case Opcode::XOrI:
    apply(a, b, out, mask, n, [](int64_t x, int64_t y) { return x ^ y; });
    return true;
  case Opcode::MinSI:
  case Opcode::MinUI:
    apply(a, b, out, mask, n,
          [](int64_t x, int64_t y) { return std::min(x, y); });
    return true;
  case Opcode::MaxSI:
  case Opcode::MaxUI:
    apply(a, b, out, mask, n,
          [](int64_t x, int64_t y) { return std::max(x, y); });
    return true;
  case Opcode::CmpI:
    // Signed and unsigned predicates agree on non-negative values.
    switch (static_cast<P>(instr.scalar.predicate)) {
    case P::eq:
      apply(a, b, out, mask, n, [](int64_t x, int64_t y) { return x == y; });
      return true;
    case P::ne:
      apply(a, b, out, mask, n, [](int64_t x, int64_t y) { return x != y; });
      return true;
    case P::slt:
    case P::ult:
      apply(a, b, out, mask, n, [](int64_t x, int64_t y) { return x < y; });
      return true;
    case P::sle:
    case P::ule:
      apply(a, b, out, mask, n, [](int64_t x, int64_t y) { return x <= y; });
      return true;
    case P::sgt:
    case P::ugt:
      apply(a, b, out, mask, n, [](int64_t x, int64_t y) { return x > y; });
      return true;
    case P::sge:
    case P::uge:
      apply(a, b, out, mask, n, [](int64_t x, int64_t y) { return x >= y; });
      return true;
    }
    return false;
  default:
    return false;
  }
}
