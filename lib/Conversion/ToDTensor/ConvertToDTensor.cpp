//===- ConvertToDTensor.cpp - Import a layer into dtensor -------*- C++ -*-===//

#include "Deplodock/Conversion/Passes.h"
#include "Importers.h"

#include "Deplodock/Dialect/DTensor/IR/DTensorOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace deplodock {
#define GEN_PASS_DEF_CONVERTTODTENSOR
#include "Deplodock/Conversion/Passes.h.inc"
} // namespace deplodock

using namespace mlir;
using namespace deplodock;
using namespace deplodock::importer;

/// Whether `type` is a tensor or memref without a static shape.
static bool isDynamic(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped && isa<TensorType, MemRefType>(type) &&
         !(shaped.hasRank() && shaped.hasStaticShape());
}

/// Emits an error at `op` for its first dynamically shaped value.
static LogicalResult checkStaticShapes(Operation *op) {
  auto refuse = [&](StringRef what, unsigned i, Type type) {
    return op->emitOpError()
           << what << " #" << i << " has type " << type
           << "; dynamic shapes are not supported by " << kPassName;
  };
  if (auto func = dyn_cast<func::FuncOp>(op)) {
    for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
      if (isDynamic(type))
        return refuse("argument", i, type);
    for (auto [i, type] : llvm::enumerate(func.getResultTypes()))
      if (isDynamic(type))
        return refuse("result", i, type);
  }
  for (auto [i, type] : llvm::enumerate(op->getResultTypes()))
    if (isDynamic(type))
      return refuse("result", i, type);
  return success();
}

/// Whether `op` reads or produces a tensor.
static bool touchesTensors(Operation *op) {
  auto isTensor = [](Type t) { return isa<TensorType>(t); };
  return llvm::any_of(op->getOperandTypes(), isTensor) ||
         llvm::any_of(op->getResultTypes(), isTensor);
}

/// Replaces one op of the function body; fails after a located error.
static LogicalResult importOp(IRRewriter &rewriter, Operation *op) {
  rewriter.setInsertionPoint(op);
  if (isa<dtensor::DTensorDialect>(op->getDialect()) ||
      isa<func::ReturnOp, tensor::EmptyOp>(op))
    return success();
  if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
    FailureOr<SmallVector<Value>> results = importGeneric(rewriter, generic);
    if (failed(results))
      return failure();
    rewriter.replaceOp(op, *results);
    return success();
  }
  if (!touchesTensors(op))
    return success(); // Scalar code the layer needs, e.g. constants.
  FailureOr<Value> result = failure();
  if (isa<tensor::TensorDialect>(op->getDialect()))
    result = importTensorOp(rewriter, op);
  else if (isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
    result = importScalarOp(rewriter, op);
  else if (isa<tosa::TosaDialect>(op->getDialect()))
    return op->emitOpError("is not supported by ")
           << kPassName << "; lower TOSA with the tosa-to-linalg pipelines "
           << "first (lower-to-tensor does)";
  else
    return op->emitOpError("is not supported by ") << kPassName;
  if (failed(result))
    return failure();
  if (*result != op->getResult(0))
    rewriter.replaceOp(op, *result);
  return success();
}

namespace {
struct ConvertToDTensorPass final
    : deplodock::impl::ConvertToDTensorBase<ConvertToDTensorPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

void ConvertToDTensorPass::runOnOperation() {
  ModuleOp module = getOperation();
  IRRewriter rewriter(&getContext());

  WalkResult shapes = module.walk<WalkOrder::PreOrder>([](Operation *op) {
    return failed(checkStaticShapes(op)) ? WalkResult::interrupt()
                                         : WalkResult::advance();
  });
  if (shapes.wasInterrupted())
    return signalPassFailure();

  // Integer powers (x.pow(2) arrives as math.fpowi) become multiplications,
  // which every level below knows.
  // Only math ops are rewritten, and nothing else is folded.
  RewritePatternSet simplify(&getContext());
  populateMathAlgebraicSimplificationPatterns(simplify);
  SmallVector<Operation *> mathOps;
  module.walk([&](Operation *op) {
    if (isa<math::MathDialect>(op->getDialect()))
      mathOps.push_back(op);
  });
  GreedyRewriteConfig config;
  config.enableFolding(false).enableConstantCSE(false).setStrictness(
      GreedyRewriteStrictness::ExistingOps);
  (void)applyOpPatternsGreedily(mathOps, std::move(simplify), config);

  // Softmax decomposes into generics; every named op generalizes to one.
  SmallVector<linalg::SoftmaxOp> softmaxes;
  module.walk([&](linalg::SoftmaxOp op) { softmaxes.push_back(op); });
  for (linalg::SoftmaxOp op : softmaxes) {
    rewriter.setInsertionPoint(op);
    FailureOr<SmallVector<Value>> parts = op.decomposeOperation(rewriter);
    if (failed(parts)) {
      op.emitOpError("could not be decomposed by ") << kPassName;
      return signalPassFailure();
    }
    rewriter.replaceOp(op, *parts);
  }
  SmallVector<linalg::LinalgOp> named;
  module.walk([&](linalg::LinalgOp op) {
    if (!isa<linalg::GenericOp>(op))
      named.push_back(op);
  });
  for (linalg::LinalgOp op : named) {
    rewriter.setInsertionPoint(op);
    if (failed(linalg::generalizeNamedOp(rewriter, op))) {
      op.emitOpError("cannot be generalized, so it is not supported by ")
          << kPassName;
      return signalPassFailure();
    }
  }

  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    for (Block &block : func.getBody())
      for (Operation &op : llvm::make_early_inc_range(block))
        if (failed(importOp(rewriter, &op)))
          return signalPassFailure();
    // Initial tensors whose contents nobody reads any more, and scalar
    // reads their users (inserts, pad values) took over.
    func.walk([&](Operation *op) {
      if (isa<tensor::EmptyOp, tensor::ExtractOp>(op) && op->use_empty())
        rewriter.eraseOp(op);
    });
  }
}
