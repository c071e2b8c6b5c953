//===- IndexEvaluator.cpp - Index values of one thread, concretely --------===//

#include "IndexEvaluator.h"

#include "Deplodock/Dialect/Common/AffineBounds.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::costmodel;

IndexEvaluator::IndexEvaluator(dkernel::FuncOp kernel) {
  for (auto [i, extent] : llvm::enumerate(kernel.getGrid()))
    if (i < 3)
      grid[i] = extent;
  for (int i = 0; i < 3; ++i)
    blockId[i] = grid[i] / 2;
  for (auto [i, extent] : llvm::enumerate(kernel.getBlock()))
    if (i < 3)
      block[i] = extent;
}

std::optional<int64_t> IndexEvaluator::eval(Value value) {
  auto it = cache.find(value);
  if (it != cache.end())
    return it->second;
  std::optional<int64_t> result = compute(value);
  cache[value] = result;
  return result;
}

std::optional<int64_t> IndexEvaluator::tripCount(scf::ForOp loop) {
  std::optional<int64_t> lb = eval(loop.getLowerBound());
  std::optional<int64_t> ub = eval(loop.getUpperBound());
  std::optional<int64_t> step = eval(loop.getStep());
  if (!lb || !ub || !step || *step <= 0)
    return std::nullopt;
  // A grid-stride loop (a persistent grid's loop over tiles: from the block
  // id, the grid's blocks apart) counts the trips of block 0, the busiest:
  // with one round of blocks the kernel ends with its slowest block, and
  // the middle block would miss the tail (296 tiles on 132 blocks: 2 trips
  // at block 66, 3 at block 0).
  if (auto id = loop.getLowerBound().getDefiningOp<gpu::BlockIdOp>())
    if (*step == grid[static_cast<unsigned>(id.getDimension())])
      lb = 0;
  if (*ub <= *lb)
    return 0;
  int64_t span;
  if (llvm::SubOverflow(*ub, *lb, span))
    return std::nullopt;
  return llvm::divideCeil(span, *step);
}

// Index arithmetic of a kernel whose values a 64-bit integer cannot hold
// (a mutated constant, say) is unknown: the model then assumes what it
// assumes of any index it cannot evaluate.
using Result = std::optional<int64_t>;

static Result checkedAdd(int64_t a, int64_t b) {
  int64_t r;
  return llvm::AddOverflow(a, b, r) ? std::nullopt : Result(r);
}

static Result checkedSub(int64_t a, int64_t b) {
  int64_t r;
  return llvm::SubOverflow(a, b, r) ? std::nullopt : Result(r);
}

static Result checkedMul(int64_t a, int64_t b) {
  int64_t r;
  return llvm::MulOverflow(a, b, r) ? std::nullopt : Result(r);
}

/// Whether `a / b` is defined: no division by 0, nor of the most negative
/// value by -1.
static bool divides(int64_t a, int64_t b) {
  return b != 0 && !(b == -1 && a == std::numeric_limits<int64_t>::min());
}

std::optional<int64_t> IndexEvaluator::compute(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    // The induction variable at the middle iteration; iteration arguments
    // and parameters are data (but an address takes an iteration argument's
    // first value).
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (loop && iterArgsAtFirst && arg != loop.getInductionVar())
      if (OpOperand *init = loop.getTiedLoopInit(arg))
        return eval(init->get());
    if (!loop || arg != loop.getInductionVar())
      return std::nullopt;
    std::optional<int64_t> trips = tripCount(loop);
    std::optional<int64_t> lb = eval(loop.getLowerBound());
    std::optional<int64_t> step = eval(loop.getStep());
    if (!trips || !lb || !step)
      return std::nullopt;
    Result offset = checkedMul(*step, std::max<int64_t>(*trips, 1) - 1);
    return offset ? checkedAdd(*lb, *offset / 2) : std::nullopt;
  }
  Operation *op = value.getDefiningOp();
  auto operand = [&](unsigned i) { return eval(op->getOperand(i)); };
  auto binary = [&](auto fn) -> std::optional<int64_t> {
    std::optional<int64_t> a = operand(0), b = operand(1);
    if (!a || !b)
      return std::nullopt;
    return fn(*a, *b);
  };
  return llvm::TypeSwitch<Operation *, Result>(op)
      .Case([&](arith::ConstantOp c) -> Result {
        if (auto attr = dyn_cast<IntegerAttr>(c.getValue()))
          return attr.getValue().getSExtValue();
        return std::nullopt;
      })
      .Case([&](arith::AddIOp) { return binary(checkedAdd); })
      .Case([&](arith::SubIOp) { return binary(checkedSub); })
      .Case([&](arith::MulIOp) { return binary(checkedMul); })
      .Case<arith::DivUIOp, arith::DivSIOp>([&](auto) {
        return binary([](int64_t a, int64_t b) -> Result {
          return divides(a, b) ? Result(a / b) : std::nullopt;
        });
      })
      .Case<arith::RemUIOp, arith::RemSIOp>([&](auto) {
        return binary([](int64_t a, int64_t b) -> Result {
          return divides(a, b) ? Result(a % b) : std::nullopt;
        });
      })
      .Case([&](arith::FloorDivSIOp) {
        return binary([](int64_t a, int64_t b) -> Result {
          return divides(a, b) ? Result(llvm::divideFloorSigned(a, b))
                               : std::nullopt;
        });
      })
      .Case([&](arith::CeilDivSIOp) {
        return binary([](int64_t a, int64_t b) -> Result {
          return divides(a, b) ? Result(llvm::divideCeilSigned(a, b))
                               : std::nullopt;
        });
      })
      .Case<arith::MaxSIOp, arith::MaxUIOp>([&](auto) {
        return binary(
            [](int64_t a, int64_t b) -> Result { return std::max(a, b); });
      })
      .Case<arith::MinSIOp, arith::MinUIOp>([&](auto) {
        return binary(
            [](int64_t a, int64_t b) -> Result { return std::min(a, b); });
      })
      .Case([&](arith::AndIOp) {
        return binary([](int64_t a, int64_t b) -> Result { return a & b; });
      })
      .Case([&](arith::OrIOp) {
        return binary([](int64_t a, int64_t b) -> Result { return a | b; });
      })
      .Case([&](arith::XOrIOp) {
        return binary([](int64_t a, int64_t b) -> Result { return a ^ b; });
      })
      .Case([&](arith::ShLIOp) {
        return binary([](int64_t a, int64_t b) -> Result {
          return b >= 0 && b < 63 ? checkedMul(a, int64_t(1) << b)
                                  : std::nullopt;
        });
      })
      .Case<arith::ShRUIOp, arith::ShRSIOp>([&](auto) {
        return binary([](int64_t a, int64_t b) -> Result {
          return b >= 0 && b < 63 ? Result(a >> b) : std::nullopt;
        });
      })
      .Case<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
            arith::ExtUIOp, arith::TruncIOp>([&](auto) { return operand(0); })
      .Case([&](arith::CmpIOp cmp) -> Result {
        std::optional<int64_t> a = operand(0), b = operand(1);
        if (!a || !b)
          return std::nullopt;
        switch (cmp.getPredicate()) {
        case arith::CmpIPredicate::eq:
          return *a == *b;
        case arith::CmpIPredicate::ne:
          return *a != *b;
        case arith::CmpIPredicate::slt:
        case arith::CmpIPredicate::ult:
          return *a < *b;
        case arith::CmpIPredicate::sle:
        case arith::CmpIPredicate::ule:
          return *a <= *b;
        case arith::CmpIPredicate::sgt:
        case arith::CmpIPredicate::ugt:
          return *a > *b;
        case arith::CmpIPredicate::sge:
        case arith::CmpIPredicate::uge:
          return *a >= *b;
        }
        return std::nullopt;
      })
      .Case([&](arith::SelectOp select) -> Result {
        std::optional<int64_t> cond = operand(0);
        if (!cond)
          return std::nullopt;
        return *cond ? operand(1) : operand(2);
      })
      .Case([&](gpu::ThreadIdOp id) -> Result {
        return id.getDimension() == gpu::Dimension::x ? thread : 0;
      })
      .Case([&](gpu::BlockIdOp id) -> Result {
        return blockId[static_cast<unsigned>(id.getDimension())];
      })
      .Case([&](gpu::BlockDimOp dim) -> Result {
        return block[static_cast<unsigned>(dim.getDimension())];
      })
      .Case([&](gpu::GridDimOp dim) -> Result {
        return grid[static_cast<unsigned>(dim.getDimension())];
      })
      .Case([&](affine::AffineApplyOp apply) -> Result {
        SmallVector<int64_t> operands;
        for (Value v : apply.getMapOperands()) {
          std::optional<int64_t> x = eval(v);
          if (!x)
            return std::nullopt;
          operands.push_back(*x);
        }
        AffineMap map = apply.getAffineMap();
        return evaluateAffineExpr(map.getResult(0), operands, map.getNumDims());
      })
      .Default([](Operation *) { return std::nullopt; });
}
