//===- Reductions.cpp - What a reduction kind computes --------------------===//

#include "Deplodock/Dialect/Common/Reductions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace deplodock;

std::optional<ReduceKind> deplodock::getCombinerKind(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<ReduceKind>>(op)
      .Case<arith::AddFOp, arith::AddIOp>([](auto) { return ReduceKind::add; })
      .Case<arith::MulFOp, arith::MulIOp>([](auto) { return ReduceKind::mul; })
      .Case<arith::MaximumFOp, arith::MaxSIOp>(
          [](auto) { return ReduceKind::max; })
      .Case<arith::MinimumFOp, arith::MinSIOp>(
          [](auto) { return ReduceKind::min; })
      .Case([](arith::MaxNumFOp) { return ReduceKind::maxnum; })
      .Case([](arith::MinNumFOp) { return ReduceKind::minnum; })
      .Default([](Operation *) { return std::nullopt; });
}

bool deplodock::isReduceKindLegal(ReduceKind kind, Type type) {
  if (kind == ReduceKind::maxnum || kind == ReduceKind::minnum)
    return isa<FloatType>(type);
  return type.isIntOrIndexOrFloat();
}

LogicalResult deplodock::verifyReduceKind(Operation *op, ReduceKind kind,
                                          Type type) {
  if (isReduceKindLegal(kind, type))
    return success();
  return op->emitOpError("a ")
         << stringifyReduceKind(kind) << " reduction needs float elements, got "
         << type;
}

Value deplodock::buildCombiner(OpBuilder &b, Location loc, ReduceKind kind,
                               Value lhs, Value rhs) {
  bool isFloat = isa<FloatType>(lhs.getType());
  switch (kind) {
  case ReduceKind::add:
    return isFloat ? Value(arith::AddFOp::create(b, loc, lhs, rhs))
                   : Value(arith::AddIOp::create(b, loc, lhs, rhs));
  case ReduceKind::mul:
    return isFloat ? Value(arith::MulFOp::create(b, loc, lhs, rhs))
                   : Value(arith::MulIOp::create(b, loc, lhs, rhs));
  case ReduceKind::max:
    return isFloat ? Value(arith::MaximumFOp::create(b, loc, lhs, rhs))
                   : Value(arith::MaxSIOp::create(b, loc, lhs, rhs));
  case ReduceKind::min:
    return isFloat ? Value(arith::MinimumFOp::create(b, loc, lhs, rhs))
                   : Value(arith::MinSIOp::create(b, loc, lhs, rhs));
  case ReduceKind::maxnum:
    return arith::MaxNumFOp::create(b, loc, lhs, rhs);
  case ReduceKind::minnum:
    return arith::MinNumFOp::create(b, loc, lhs, rhs);
  }
  llvm_unreachable("unknown reduce kind");
}

TypedAttr deplodock::getReduceIdentity(ReduceKind kind, Type type) {
  if (auto fp = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = fp.getFloatSemantics();
    switch (kind) {
    case ReduceKind::add:
      return FloatAttr::get(type, APFloat::getZero(sem));
    case ReduceKind::mul:
      return FloatAttr::get(type, APFloat::getOne(sem));
    case ReduceKind::max:
      return FloatAttr::get(type, APFloat::getInf(sem, /*Negative=*/true));
    case ReduceKind::min:
      return FloatAttr::get(type, APFloat::getInf(sem, /*Negative=*/false));
    case ReduceKind::maxnum:
    case ReduceKind::minnum:
      return FloatAttr::get(type, APFloat::getQNaN(sem));
    }
  }
  unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
  switch (kind) {
  case ReduceKind::add:
    return IntegerAttr::get(type, APInt::getZero(width));
  case ReduceKind::mul:
    return IntegerAttr::get(type, APInt(width, 1));
  case ReduceKind::max:
    return IntegerAttr::get(type, APInt::getSignedMinValue(width));
  case ReduceKind::min:
    return IntegerAttr::get(type, APInt::getSignedMaxValue(width));
  case ReduceKind::maxnum:
  case ReduceKind::minnum:
    return {};
  }
  llvm_unreachable("unknown reduce kind");
}

bool deplodock::isReduceIdentity(Attribute attr, ReduceKind kind) {
  if (auto fp = dyn_cast<FloatAttr>(attr)) {
    APFloat v = fp.getValue();
    switch (kind) {
    case ReduceKind::add:
      return v.isZero();
    case ReduceKind::mul:
      return v.isExactlyValue(1.0);
    case ReduceKind::max:
      return v.isInfinity() && v.isNegative();
    case ReduceKind::min:
      return v.isInfinity() && !v.isNegative();
    case ReduceKind::maxnum:
    case ReduceKind::minnum:
      return v.isNaN();
    }
  }
  if (auto integer = dyn_cast<IntegerAttr>(attr)) {
    APInt v = integer.getValue();
    switch (kind) {
    case ReduceKind::add:
      return v.isZero();
    case ReduceKind::mul:
      return v.isOne();
    case ReduceKind::max:
      return v.isMinSignedValue();
    case ReduceKind::min:
      return v.isMaxSignedValue();
    case ReduceKind::maxnum:
    case ReduceKind::minnum:
      return false;
    }
  }
  return false;
}
