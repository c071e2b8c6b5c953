//===- ScalarOps.cpp - Semantics of scalar arith and math ops ---*- C++ -*-===//

#include "Program.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace deplodock::interp;

/// Bit width of an integer-like type (index is 64 bits).
static unsigned widthOf(Type type) {
  return type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
}

/// `v`, truncated towards zero and wrapped modulo 2^64, as the bits of a
/// 64-bit integer.
static uint64_t wrapTo64(double v) {
  return static_cast<uint64_t>(wrapToInt64(v));
}

/// `v` as a signed integer of `type`'s width: wrapped to the width and sign
/// extended, so i1 true is -1 and i8 200 is -56.
static int64_t toInt(Type type, double v) {
  uint64_t x = wrapTo64(v);
  unsigned w = widthOf(type);
  if (w < 64)
    x = static_cast<uint64_t>(static_cast<int64_t>(x << (64 - w)) >> (64 - w));
  return static_cast<int64_t>(x);
}

/// `v` as an unsigned integer of `type`'s width.
static uint64_t toUnsigned(Type type, double v) {
  unsigned w = widthOf(type);
  uint64_t x = wrapTo64(v);
  return w == 64 ? x : x & ((uint64_t(1) << w) - 1);
}

/// The bits `x` of an integer result of `type` as a value: wrapped to the
/// width and sign extended in integer arithmetic (i1 as 0 or 1), so that a
/// wide intermediate (an i32 product of 62 bits) is not rounded on its way
/// through a double, and an unsigned result of 2^63 or more not clamped.
static double fromBits(Type type, uint64_t x) {
  unsigned w = widthOf(type);
  if (w < 64)
    x = static_cast<uint64_t>(static_cast<int64_t>(x << (64 - w)) >> (64 - w));
  if (w == 1)
    x &= 1;
  return static_cast<double>(static_cast<int64_t>(x));
}

int64_t deplodock::interp::signedValue(Type type, double v) {
  return toInt(type, v);
}

double deplodock::interp::poisonValue(Type type) {
  if (isa<FloatType>(type))
    return std::numeric_limits<double>::quiet_NaN();
  return roundTo(type, static_cast<double>(0xDEADBEEFu));
}

double deplodock::interp::reduceIdentity(ReduceKind kind, Type type) {
  if (isa<FloatType>(type)) {
    switch (kind) {
    case ReduceKind::add:
      return 0;
    case ReduceKind::mul:
      return 1;
    case ReduceKind::max:
      return -std::numeric_limits<double>::infinity();
    case ReduceKind::min:
      return std::numeric_limits<double>::infinity();
    case ReduceKind::maxnum:
    case ReduceKind::minnum:
      return std::numeric_limits<double>::quiet_NaN();
    }
  }
  unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
  switch (kind) {
  case ReduceKind::add:
    return 0;
  case ReduceKind::mul:
    return 1;
  case ReduceKind::max:
  case ReduceKind::maxnum:
    return roundTo(type, static_cast<double>(
                             APInt::getSignedMinValue(width).getSExtValue()));
  case ReduceKind::min:
  case ReduceKind::minnum:
    return roundTo(type, static_cast<double>(
                             APInt::getSignedMaxValue(width).getSExtValue()));
  }
  return 0;
}

double deplodock::interp::reduceCombine(ReduceKind kind, Type type, double a,
                                        double b) {
  bool isFloat = isa<FloatType>(type);
  bool isMax = kind == ReduceKind::max || kind == ReduceKind::maxnum;
  double r = 0;
  switch (kind) {
  case ReduceKind::add:
    r = a + b;
    break;
  case ReduceKind::mul:
    r = a * b;
    break;
  case ReduceKind::max:
  case ReduceKind::min:
  case ReduceKind::maxnum:
  case ReduceKind::minnum:
    if (!isFloat) {
      bool aWins = isMax ? signedValue(type, a) >= signedValue(type, b)
                         : signedValue(type, a) <= signedValue(type, b);
      return aWins ? a : b;
    }
    if (std::isnan(a) || std::isnan(b)) {
      // maximumf/minimumf propagate a NaN, maxnumf/minnumf ignore one.
      if (kind == ReduceKind::max || kind == ReduceKind::min)
        return roundTo(type, a + b);
      return roundTo(type, std::isnan(a) ? b : a);
    }
    r = isMax ? std::max(a, b) : std::min(a, b);
    break;
  }
  return roundTo(type, r);
}

bool deplodock::interp::isSupportedElementType(Type type) {
  if (type.isIndex() || isa<FloatType>(type))
    return true;
  auto integer = dyn_cast<IntegerType>(type);
  return integer && integer.getWidth() <= 64;
}

double deplodock::interp::roundTo(Type type, double v) {
  if (isF32(type))
    return static_cast<double>(static_cast<float>(v));
  if (type.isF64())
    return v;
  // Integers before the FloatType interface cast, which is slower.
  if (type.isIndex())
    return static_cast<double>(toInt(type, v));
  if (type.isF16())
    return runtime::halfBitsToDouble(runtime::doubleToHalfBits(v));
  if (type.isBF16())
    return runtime::bf16BitsToDouble(runtime::doubleToBF16Bits(v));
  if (!isa<IntegerType>(type)) {
    auto fp = cast<FloatType>(type);
    APFloat value(v);
    bool lost;
    value.convert(fp.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
    value.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
    return value.convertToDouble();
  }
  // Integers are stored wrapped to their width and sign extended, except i1,
  // which is stored as 0 or 1 (as NumPy's bool, and as printed).
  int64_t x = toInt(type, v);
  return static_cast<double>(widthOf(type) == 1 ? x & 1 : x);
}

/// Compares two floats under an arith.cmpf predicate.
static bool compareFloats(arith::CmpFPredicate p, double a, double b) {
  using P = arith::CmpFPredicate;
  bool unordered = std::isnan(a) || std::isnan(b);
  switch (p) {
  case P::AlwaysFalse:
    return false;
  case P::OEQ:
    return !unordered && a == b;
  case P::OGT:
    return !unordered && a > b;
  case P::OGE:
    return !unordered && a >= b;
  case P::OLT:
    return !unordered && a < b;
  case P::OLE:
    return !unordered && a <= b;
  case P::ONE:
    return !unordered && a != b;
  case P::ORD:
    return !unordered;
  case P::UEQ:
    return unordered || a == b;
  case P::UGT:
    return unordered || a > b;
  case P::UGE:
    return unordered || a >= b;
  case P::ULT:
    return unordered || a < b;
  case P::ULE:
    return unordered || a <= b;
  case P::UNE:
    return unordered || a != b;
  case P::UNO:
    return unordered;
  case P::AlwaysTrue:
    return true;
  }
  return false;
}

/// Compares two integers of `type` under an arith.cmpi predicate.
static bool compareInts(arith::CmpIPredicate p, Type type, double a, double b) {
  using P = arith::CmpIPredicate;
  int64_t x = toInt(type, a), y = toInt(type, b);
  uint64_t ux = toUnsigned(type, a), uy = toUnsigned(type, b);
  switch (p) {
  case P::eq:
    return x == y;
  case P::ne:
    return x != y;
  case P::slt:
    return x < y;
  case P::sle:
    return x <= y;
  case P::sgt:
    return x > y;
  case P::sge:
    return x >= y;
  case P::ult:
    return ux < uy;
  case P::ule:
    return ux <= uy;
  case P::ugt:
    return ux > uy;
  case P::uge:
    return ux >= uy;
  }
  return false;
}

/// NaN-propagating maximum and minimum (arith.maximumf / minimumf).
static double maximumF(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  if (a == 0 && b == 0)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
static double minimumF(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  if (a == 0 && b == 0)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

/// `v` rounded to the float type `type` in rounding `mode` (arith.truncf).
static double truncF(Type type, arith::RoundingMode mode, double v) {
  using M = arith::RoundingMode;
  llvm::RoundingMode rounding = llvm::RoundingMode::NearestTiesToEven;
  switch (mode) {
  case M::to_nearest_even:
    return roundTo(type, v);
  case M::downward:
    rounding = llvm::RoundingMode::TowardNegative;
    break;
  case M::upward:
    rounding = llvm::RoundingMode::TowardPositive;
    break;
  case M::toward_zero:
    rounding = llvm::RoundingMode::TowardZero;
    break;
  case M::to_nearest_away:
    rounding = llvm::RoundingMode::NearestTiesToAway;
    break;
  }
  APFloat value(v);
  bool lost;
  value.convert(cast<FloatType>(type).getFloatSemantics(), rounding, &lost);
  value.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
  return value.convertToDouble();
}

/// The value of `type` with the bits of `v`, a value of `from`, of the same
/// width (arith.bitcast).
static double bitcast(Type from, Type type, double v) {
  unsigned width = from.getIntOrFloatBitWidth();
  APInt bits;
  if (auto fp = dyn_cast<FloatType>(from)) {
    APFloat value(v);
    bool lost;
    value.convert(fp.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
    bits = value.bitcastToAPInt();
  } else {
    bits = APInt(width, toUnsigned(from, v), /*isSigned=*/false,
                 /*implicitTrunc=*/true);
  }
  if (auto fp = dyn_cast<FloatType>(type)) {
    APFloat value(fp.getFloatSemantics(), bits);
    bool lost;
    value.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
    return value.convertToDouble();
  }
  return roundTo(type, fromBits(type, bits.getZExtValue()));
}

void deplodock::interp::setScalarDetails(Operation *op, Instr &instr) {
  if (auto cmp = dyn_cast<arith::CmpFOp>(op))
    instr.predicate = static_cast<int64_t>(cmp.getPredicate());
  if (auto cmp = dyn_cast<arith::CmpIOp>(op))
    instr.predicate = static_cast<int64_t>(cmp.getPredicate());
  if (isa<arith::CmpFOp, arith::CmpIOp>(op))
    instr.type = op->getOperand(0).getType();
  if (auto trunc = dyn_cast<arith::TruncFOp>(op))
    if (arith::RoundingModeAttr mode = trunc.getRoundingModeAttr())
      instr.predicate = static_cast<int64_t>(mode.getValue());
}

double deplodock::interp::evalScalar(const Instr &instr, const double *x) {
  Type t = instr.type;
  auto in = [&](unsigned i) { return instr.op->getOperand(i).getType(); };
  auto i64 = [&](unsigned k) { return toInt(t, x[k]); };
  auto u64 = [&](unsigned k) { return toUnsigned(t, x[k]); };
  double r = 0;
  switch (instr.code) {
  case Opcode::Constant:
    return instr.constant;
  case Opcode::AddF:
    r = x[0] + x[1];
    break;
  case Opcode::SubF:
    r = x[0] - x[1];
    break;
  case Opcode::MulF:
    r = x[0] * x[1];
    break;
  case Opcode::DivF:
    r = x[0] / x[1];
    break;
  case Opcode::RemF:
    r = std::fmod(x[0], x[1]);
    break;
  case Opcode::NegF:
    r = -x[0];
    break;
  case Opcode::MaximumF:
    r = maximumF(x[0], x[1]);
    break;
  case Opcode::MinimumF:
    r = minimumF(x[0], x[1]);
    break;
  // The other operand when one is NaN; otherwise as maximumf and minimumf,
  // -0 below +0 (fmax may return either).
  case Opcode::MaxNumF:
    r = std::isnan(x[0])   ? x[1]
        : std::isnan(x[1]) ? x[0]
                           : maximumF(x[0], x[1]);
    break;
  case Opcode::MinNumF:
    r = std::isnan(x[0])   ? x[1]
        : std::isnan(x[1]) ? x[0]
                           : minimumF(x[0], x[1]);
    break;
  case Opcode::AddI:
    r = fromBits(t, u64(0) + u64(1));
    break;
  case Opcode::SubI:
    r = fromBits(t, u64(0) - u64(1));
    break;
  case Opcode::MulI:
    r = fromBits(t, u64(0) * u64(1));
    break;
  // Division by zero is undefined behaviour; it gives 0 here. So does the
  // remainder of INT64_MIN / -1, whose quotient wraps (C++ would trap).
  case Opcode::DivSI:
    r = i64(1) == 0 ? 0
        : i64(1) == -1
            ? fromBits(t, uint64_t(0) - static_cast<uint64_t>(i64(0)))
            : static_cast<double>(i64(0) / i64(1));
    break;
  case Opcode::DivUI:
    r = u64(1) == 0 ? 0 : fromBits(t, u64(0) / u64(1));
    break;
  case Opcode::RemSI:
    r = i64(1) == 0 || i64(1) == -1 ? 0 : static_cast<double>(i64(0) % i64(1));
    break;
  case Opcode::RemUI:
    r = u64(1) == 0 ? 0 : fromBits(t, u64(0) % u64(1));
    break;
  case Opcode::AndI:
    r = static_cast<double>(i64(0) & i64(1));
    break;
  case Opcode::OrI:
    r = static_cast<double>(i64(0) | i64(1));
    break;
  case Opcode::XOrI:
    r = static_cast<double>(i64(0) ^ i64(1));
    break;
  // Shifting by the width or more is poison; the amount is taken modulo 64.
  case Opcode::ShLI:
    r = fromBits(t, u64(0) << (u64(1) & 63));
    break;
  case Opcode::ShRSI:
    r = static_cast<double>(i64(0) >> (u64(1) & 63));
    break;
  case Opcode::ShRUI:
    r = fromBits(t, u64(0) >> (u64(1) & 63));
    break;
  case Opcode::MaxSI:
    r = static_cast<double>(std::max(i64(0), i64(1)));
    break;
  case Opcode::MinSI:
    r = static_cast<double>(std::min(i64(0), i64(1)));
    break;
  case Opcode::MaxUI:
    r = fromBits(t, std::max(u64(0), u64(1)));
    break;
  case Opcode::MinUI:
    r = fromBits(t, std::min(u64(0), u64(1)));
    break;
  case Opcode::CmpF:
    return compareFloats(static_cast<arith::CmpFPredicate>(instr.predicate),
                         x[0], x[1]);
  case Opcode::CmpI:
    return compareInts(static_cast<arith::CmpIPredicate>(instr.predicate),
                       in(0), x[0], x[1]);
  case Opcode::Select:
    return x[0] != 0 ? x[1] : x[2];
  case Opcode::SIToFP:
    r = static_cast<double>(toInt(in(0), x[0]));
    break;
  case Opcode::UIToFP:
    r = static_cast<double>(toUnsigned(in(0), x[0]));
    break;
  case Opcode::FPToSI:
    r = std::trunc(x[0]);
    break;
  case Opcode::FPToUI:
    r = std::trunc(x[0]);
    break;
  case Opcode::ExtF:
    r = x[0];
    break;
  case Opcode::TruncF:
    return truncF(t, static_cast<arith::RoundingMode>(instr.predicate), x[0]);
  case Opcode::ExtSI:
  case Opcode::IndexCast:
  case Opcode::TruncI:
    r = static_cast<double>(toInt(in(0), x[0]));
    break;
  case Opcode::ExtUI:
  case Opcode::IndexCastUI:
    r = fromBits(t, toUnsigned(in(0), x[0]));
    break;
  case Opcode::Bitcast:
    return bitcast(in(0), t, x[0]);
  case Opcode::Exp:
    r = std::exp(x[0]);
    break;
  case Opcode::Exp2:
    r = std::exp2(x[0]);
    break;
  case Opcode::Log:
    r = std::log(x[0]);
    break;
  case Opcode::Log2:
    r = std::log2(x[0]);
    break;
  case Opcode::Log1p:
    r = std::log1p(x[0]);
    break;
  case Opcode::Sqrt:
    r = std::sqrt(x[0]);
    break;
  case Opcode::Rsqrt:
    r = 1.0 / std::sqrt(x[0]);
    break;
  case Opcode::Tanh:
    r = std::tanh(x[0]);
    break;
  case Opcode::Erf:
    r = std::erf(x[0]);
    break;
  case Opcode::Sin:
    r = std::sin(x[0]);
    break;
  case Opcode::Cos:
    r = std::cos(x[0]);
    break;
  case Opcode::AbsF:
    r = std::fabs(x[0]);
    break;
  case Opcode::AbsI:
    r = fromBits(t, i64(0) < 0 ? uint64_t(0) - static_cast<uint64_t>(i64(0))
                               : static_cast<uint64_t>(i64(0)));
    break;
  case Opcode::Fma:
    r = std::fma(x[0], x[1], x[2]);
    break;
  case Opcode::PowF:
    r = std::pow(x[0], x[1]);
    break;
  case Opcode::Floor:
    r = std::floor(x[0]);
    break;
  case Opcode::Ceil:
    r = std::ceil(x[0]);
    break;
  default:
    return 0;
  }
  return roundTo(t, r);
}
