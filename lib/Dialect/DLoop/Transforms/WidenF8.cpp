//===- WidenF8.cpp - Arithmetic on 8-bit floats computed in f32 -----------===//
//
// Every arith or math op touching f8E4M3FN or f8E5M2 values, other than the
// conversions, constants and selects Kernel IR prints directly, is rebuilt
// on f32: operands extended, 8-bit results rounded back.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Dialect/DLoop/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"

namespace deplodock::dloop {
#define GEN_PASS_DEF_DLOOPWIDENF8
#include "Deplodock/Dialect/DLoop/Transforms/Passes.h.inc"
} // namespace deplodock::dloop

using namespace mlir;

static bool isF8(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

/// Whether `op` computes on 8-bit floats: an arith or math op with an 8-bit
/// float operand or result that is not one Kernel IR holds as it is.
static bool computesOnF8(Operation *op) {
  if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
      isa<arith::ConstantOp, arith::SelectOp, arith::ExtFOp, arith::TruncFOp,
          arith::BitcastOp, arith::FPToSIOp, arith::FPToUIOp, arith::SIToFPOp,
          arith::UIToFPOp>(op))
    return false;
  return llvm::any_of(op->getOperandTypes(), isF8) ||
         llvm::any_of(op->getResultTypes(), isF8);
}

/// Rebuilds `op` on f32 values, rounding its 8-bit results back.
static void widen(Operation *op) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  Type f32 = b.getF32Type();
  SmallVector<Value> operands;
  for (Value operand : op->getOperands())
    operands.push_back(isF8(operand.getType())
                           ? arith::ExtFOp::create(b, loc, f32, operand)
                           : operand);
  OperationState state(loc, op->getName());
  state.addOperands(operands);
  state.addAttributes(op->getAttrs());
  for (Type type : op->getResultTypes())
    state.addTypes(isF8(type) ? f32 : type);
  Operation *wide = b.create(state);
  for (auto [old, result] : llvm::zip(op->getResults(), wide->getResults()))
    old.replaceAllUsesWith(
        isF8(old.getType())
            ? arith::TruncFOp::create(b, loc, old.getType(), result).getResult()
            : result);
  op->erase();
}

namespace {
struct DLoopWidenF8Pass final
    : deplodock::dloop::impl::DLoopWidenF8Base<DLoopWidenF8Pass> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (computesOnF8(op) && op->getNumRegions() == 0)
        ops.push_back(op);
    });
    for (Operation *op : ops)
      widen(op);
  }
};
} // namespace
