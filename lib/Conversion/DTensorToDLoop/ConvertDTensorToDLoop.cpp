//===- ConvertDTensorToDLoop.cpp - Lift dtensor ops to kernels --*- C++ -*-===//
//
// Each dtensor op becomes one dloop.kernel that writes a fresh buffer: the
// loop nest of the op's own semantics and nothing more. Fusion merges them.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Conversion/Passes.h"

#include "Deplodock/Dialect/Common/Reductions.h"
#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "Deplodock/Dialect/DTensor/IR/Constants.h"
#include "Deplodock/Dialect/DTensor/IR/DTensorOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/TypeSwitch.h"

namespace deplodock {
#define GEN_PASS_DEF_CONVERTDTENSORTODLOOP
#include "Deplodock/Conversion/Passes.h.inc"
} // namespace deplodock

using namespace mlir;
using namespace deplodock;

namespace {

/// How a kernel reads one tensor operand.
struct Operand {
  /// The buffer to pass to the kernel, or null when the value is computed.
  Value buffer;
  /// A splat constant: every element is this scalar.
  TypedAttr splat;
  /// An iota constant (0, 1, ..., n-1 of index type): the element is its
  /// own index.
  bool iota = false;
};

/// Lifts the dtensor ops of one function.
class Lifter {
public:
  Lifter(func::FuncOp func, SymbolTable &symbols)
      : func(func), symbols(symbols), b(func.getContext()) {}

  LogicalResult run();

private:
  LogicalResult liftOp(Operation *op);
  Value liftConstant(arith::ConstantOp op, DenseElementsAttr dense);
  void liftElementwise(dtensor::ElementwiseOp op);
  void liftReduce(dtensor::ReduceOp op);
  void liftIndexMap(dtensor::IndexMapOp op);
  void liftGather(dtensor::GatherOp op);

  /// A new output buffer for `tensor`.
  Value allocate(Value tensor);
  /// A kernel named after `kind` that reads `operands` (by buffer, each
  /// once) and writes `output`; `body` fills it given the body argument of
  /// each operand (null for computed ones) and of the output.
  void
  buildKernel(Location loc, StringRef kind, ArrayRef<Operand> operands,
              Value output,
              function_ref<void(OpBuilder &, ArrayRef<Value>, Value)> body);
  /// Reads element `map(indices)` of an operand inside a kernel.
  Value read(OpBuilder &b, Location loc, const Operand &operand, Value arg,
             AffineMap map, ValueRange indices);

  func::FuncOp func;
  SymbolTable &symbols;
  OpBuilder b;
  IRMapping buffers;
  llvm::DenseMap<Value, Operand> operands;
  unsigned kernelCount = 0;
};

} // namespace

/// Free loops over `shape` (none for size-1 axes, whose index is 0) around
/// `body`, which receives one index per axis. Loops are named `prefix<d>`.
static void buildNest(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                      StringRef prefix,
                      function_ref<void(OpBuilder &, ValueRange)> body,
                      SmallVector<Value> ivs = {}) {
  unsigned d = ivs.size();
  if (d == shape.size()) {
    body(b, ivs);
    return;
  }
  if (shape[d] == 1) {
    ivs.push_back(arith::ConstantIndexOp::create(b, loc, 0));
    buildNest(b, loc, shape, prefix, body, ivs);
    return;
  }
  dloop::ForOp::create(b, loc, shape[d], LoopKind::free,
                       (prefix + Twine(d)).str(), ValueRange{},
                       [&](OpBuilder &b, Location loc, Value iv, ValueRange) {
                         SmallVector<Value> inner = ivs;
                         inner.push_back(iv);
                         buildNest(b, loc, shape, prefix, body, inner);
                       });
}

/// How `value` (a tensor already lifted) is read.
static bool isIota(DenseElementsAttr dense) {
  auto type = cast<ShapedType>(dense.getType());
  if (type.getRank() != 1 || !type.getElementType().isIndex())
    return false;
  int64_t i = 0;
  for (APInt v : dense.getValues<APInt>())
    if (v.getSExtValue() != i++)
      return false;
  return true;
}

Value Lifter::allocate(Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  return memref::AllocOp::create(
      b, tensor.getLoc(),
      MemRefType::get(type.getShape(), type.getElementType()));
}

Value Lifter::liftConstant(arith::ConstantOp op, DenseElementsAttr dense) {
  auto type = cast<RankedTensorType>(op.getType());
  auto memrefType = MemRefType::get(type.getShape(), type.getElementType());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(func);
  auto global = memref::GlobalOp::create(
      b, op.getLoc(), "__constant", b.getStringAttr("private"), memrefType,
      dense, /*constant=*/true, /*alignment=*/nullptr);
  symbols.insert(global); // Renames it if the name is taken.
  b.setInsertionPoint(op);
  return memref::GetGlobalOp::create(b, op.getLoc(), memrefType,
                                     global.getSymName());
}

Value Lifter::read(OpBuilder &b, Location loc, const Operand &operand,
                   Value arg, AffineMap map, ValueRange indices) {
  if (operand.splat)
    return arith::ConstantOp::create(b, loc, operand.splat);
  if (operand.iota)
    return affine::AffineApplyOp::create(b, loc, map, indices);
  return dloop::LoadOp::create(b, loc, arg, map, indices);
}

void Lifter::buildKernel(
    Location loc, StringRef kind, ArrayRef<Operand> reads, Value output,
    function_ref<void(OpBuilder &, ArrayRef<Value>, Value)> body) {
  // An empty output has no element to compute: no kernel.
  if (cast<MemRefType>(output.getType()).getNumElements() == 0)
    return;
  // Each buffer is passed once, however often it is read.
  SmallVector<Value> inputs;
  for (const Operand &operand : reads)
    if (operand.buffer && !llvm::is_contained(inputs, operand.buffer))
      inputs.push_back(operand.buffer);
  std::string name =
      (func.getSymName() + "_" + kind + Twine(kernelCount++)).str();
  dloop::KernelOp::create(
      b, loc, name, inputs, ValueRange{output},
      [&](OpBuilder &b, Location, ValueRange inputArgs, ValueRange outputArgs) {
        SmallVector<Value> args;
        for (const Operand &operand : reads) {
          if (!operand.buffer) {
            args.push_back(Value());
            continue;
          }
          auto it = llvm::find(inputs, operand.buffer);
          args.push_back(inputArgs[it - inputs.begin()]);
        }
        body(b, args, outputArgs[0]);
      });
}

void Lifter::liftElementwise(dtensor::ElementwiseOp op) {
  Location loc = op.getLoc();
  SmallVector<Operand> reads;
  for (Value input : op.getInputs())
    reads.push_back(operands.lookup(input));
  Value output = allocate(op.getResult());
  ArrayRef<int64_t> shape = op.getType().getShape();
  buildKernel(
      loc, "elementwise", reads, output,
      [&](OpBuilder &b, ArrayRef<Value> args, Value out) {
        buildNest(b, loc, shape, "d", [&](OpBuilder &b, ValueRange ivs) {
          AffineMap identity = b.getMultiDimIdentityMap(shape.size());
          IRMapping mapping;
          Block &body = op.getBody().front();
          for (auto [arg, read, value] :
               llvm::zip(body.getArguments(), reads, args))
            mapping.map(arg, this->read(b, loc, read, value, identity, ivs));
          for (Operation &bodyOp : body.without_terminator())
            b.clone(bodyOp, mapping);
          Value result = mapping.lookup(op.getYield().getValue());
          dloop::StoreOp::create(b, loc, result, out, ivs);
        });
      });
  buffers.map(op.getResult(), output);
  operands[op.getResult()] = Operand{output, {}, false};
}

void Lifter::liftReduce(dtensor::ReduceOp op) {
  Location loc = op.getLoc();
  auto inputType = cast<RankedTensorType>(op.getInput().getType());
  ArrayRef<int64_t> shape = inputType.getShape();
  ArrayRef<int64_t> axes = op.getAxes();
  Type element = inputType.getElementType();
  SmallVector<int64_t> keptShape;
  for (auto [d, size] : llvm::enumerate(shape))
    if (!llvm::is_contained(axes, static_cast<int64_t>(d)))
      keptShape.push_back(size);
  Operand input = operands.lookup(op.getInput());
  Value output = allocate(op.getResult());
  bool keepdim = op.getKeepdim();
  ReduceKind kind = op.getKind();
  buildKernel(
      loc, "reduce", {input}, output,
      [&](OpBuilder &b, ArrayRef<Value> args, Value out) {
        buildNest(b, loc, keptShape, "d", [&](OpBuilder &b, ValueRange kept) {
          Value init = arith::ConstantOp::create(
              b, loc, getReduceIdentity(kind, element));
          // Reduce loops, outermost reduced axis first, carry the
          // accumulator; the innermost loads and folds one element.
          SmallVector<Value> reduced;
          std::function<Value(OpBuilder &, unsigned, Value)> loop =
              [&](OpBuilder &b, unsigned level, Value acc) -> Value {
            if (level == axes.size()) {
              SmallVector<Value> index;
              unsigned k = 0, r = 0;
              for (unsigned d = 0; d < shape.size(); ++d)
                index.push_back(llvm::is_contained(axes, d) ? reduced[r++]
                                                            : kept[k++]);
              AffineMap identity = b.getMultiDimIdentityMap(shape.size());
              Value v = read(b, loc, input, args[0], identity, index);
              return buildCombiner(b, loc, kind, acc, v);
            }
            int64_t extent = shape[axes[level]];
            if (extent == 0) // Nothing to fold: the identity stays.
              return acc;
            if (extent == 1) {
              reduced.push_back(arith::ConstantIndexOp::create(b, loc, 0));
              Value r = loop(b, level + 1, acc);
              reduced.pop_back();
              return r;
            }
            auto forOp = dloop::ForOp::create(
                b, loc, extent, LoopKind::reduce, ("r" + Twine(level)).str(),
                ValueRange{acc},
                [&](OpBuilder &b, Location loc, Value iv, ValueRange iters) {
                  reduced.push_back(iv);
                  Value next = loop(b, level + 1, iters[0]);
                  reduced.pop_back();
                  dloop::YieldOp::create(b, loc, next);
                });
            return forOp.getResult(0);
          };
          Value sum = loop(b, 0, init);
          SmallVector<Value> index;
          unsigned k = 0;
          for (unsigned d = 0; d < shape.size(); ++d) {
            if (!llvm::is_contained(axes, d))
              index.push_back(kept[k++]);
            else if (keepdim)
              index.push_back(arith::ConstantIndexOp::create(b, loc, 0));
          }
          dloop::StoreOp::create(b, loc, sum, out, index);
        });
      });
  buffers.map(op.getResult(), output);
  operands[op.getResult()] = Operand{output, {}, false};
}

/// `coeff * d + constant` when `expr` has that form with coeff = +-1.
static bool matchUnitDim(AffineExpr expr, unsigned &pos, int64_t &coeff,
                         int64_t &constant) {
  auto add = dyn_cast<AffineBinaryOpExpr>(expr);
  constant = 0;
  if (add && add.getKind() == AffineExprKind::Add) {
    auto c = dyn_cast<AffineConstantExpr>(add.getRHS());
    if (!c)
      return false;
    constant = c.getValue();
    expr = add.getLHS();
  }
  coeff = 1;
  if (auto mul = dyn_cast<AffineBinaryOpExpr>(expr);
      mul && mul.getKind() == AffineExprKind::Mul) {
    auto c = dyn_cast<AffineConstantExpr>(mul.getRHS());
    if (!c || (c.getValue() != 1 && c.getValue() != -1))
      return false;
    coeff = c.getValue();
    expr = mul.getLHS();
  }
  auto dim = dyn_cast<AffineDimExpr>(expr);
  if (!dim)
    return false;
  pos = dim.getPosition();
  return true;
}

/// The i1 value of `set` at `ivs`. One-dimension bounds compare the loop
/// variable with a constant directly, the form the dloop verifier uses to
/// bound the guarded loads.
static Value predicate(OpBuilder &b, Location loc, IntegerSet set,
                       ValueRange ivs) {
  Value all;
  for (unsigned i = 0, e = set.getNumConstraints(); i < e; ++i) {
    AffineExpr expr = set.getConstraint(i);
    unsigned pos;
    int64_t coeff, constant;
    Value cond;
    if (matchUnitDim(expr, pos, coeff, constant)) {
      // coeff * d + constant >= 0 (== 0).
      Value bound = arith::ConstantIndexOp::create(
          b, loc, coeff > 0 ? -constant : constant);
      auto pred = set.isEq(i) ? arith::CmpIPredicate::eq
                  : coeff > 0 ? arith::CmpIPredicate::sge
                              : arith::CmpIPredicate::sle;
      cond = arith::CmpIOp::create(b, loc, pred, ivs[pos], bound);
    } else {
      Value v = affine::AffineApplyOp::create(
          b, loc, AffineMap::get(set.getNumDims(), 0, expr), ivs);
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      cond = arith::CmpIOp::create(b, loc,
                                   set.isEq(i) ? arith::CmpIPredicate::eq
                                               : arith::CmpIPredicate::sge,
                                   v, zero);
    }
    all = all ? arith::AndIOp::create(b, loc, all, cond).getResult() : cond;
  }
  return all ? all : arith::ConstantIntOp::create(b, loc, 1, 1).getResult();
}

void Lifter::liftIndexMap(dtensor::IndexMapOp op) {
  Location loc = op.getLoc();
  SmallVector<Operand> reads;
  for (Value source : op.getSources())
    reads.push_back(operands.lookup(source));
  Value output = allocate(op.getResult());
  RankedTensorType type = op.getType();
  unsigned numSources = reads.size();
  buildKernel(
      loc, "index_map", reads, output,
      [&](OpBuilder &b, ArrayRef<Value> args, Value out) {
        buildNest(
            b, loc, type.getShape(), "d", [&](OpBuilder &b, ValueRange ivs) {
              // The first source whose predicate holds, else the padding.
              std::function<Value(OpBuilder &, unsigned)> value =
                  [&](OpBuilder &b, unsigned i) -> Value {
                if (i == numSources)
                  return arith::ConstantOp::create(b, loc, *op.getPadding());
                IntegerSet set = op.getPredicate(i);
                if (!set)
                  return read(b, loc, reads[i], args[i], op.getMap(i), ivs);
                Value cond = predicate(b, loc, set, ivs);
                auto ifOp = scf::IfOp::create(
                    b, loc, TypeRange{type.getElementType()}, cond,
                    /*withElseRegion=*/true);
                OpBuilder::InsertionGuard guard(b);
                b.setInsertionPointToStart(&ifOp.getThenRegion().front());
                scf::YieldOp::create(
                    b, loc, read(b, loc, reads[i], args[i], op.getMap(i), ivs));
                b.setInsertionPointToStart(&ifOp.getElseRegion().front());
                scf::YieldOp::create(b, loc, value(b, i + 1));
                return ifOp.getResult(0);
              };
              dloop::StoreOp::create(b, loc, value(b, 0), out, ivs);
            });
      });
  buffers.map(op.getResult(), output);
  operands[op.getResult()] = Operand{output, {}, false};
}

void Lifter::liftGather(dtensor::GatherOp op) {
  Location loc = op.getLoc();
  SmallVector<Operand> reads{operands.lookup(op.getSource())};
  for (Value index : op.getIndices())
    reads.push_back(operands.lookup(index));
  Value output = allocate(op.getResult());
  RankedTensorType type = op.getType();
  ArrayRef<int64_t> sourceShape = op.getSource().getType().getShape();
  buildKernel(
      loc, "gather", reads, output,
      [&](OpBuilder &b, ArrayRef<Value> args, Value out) {
        buildNest(
            b, loc, type.getShape(), "d", [&](OpBuilder &b, ValueRange ivs) {
              AffineMap identity = b.getMultiDimIdentityMap(ivs.size());
              // Each index, clamped into its axis of the source.
              SmallVector<Value> at;
              for (unsigned i = 1; i < reads.size(); ++i) {
                Value index = read(b, loc, reads[i], args[i], identity, ivs);
                Value lo = arith::ConstantIndexOp::create(b, loc, 0);
                Value hi = arith::ConstantIndexOp::create(
                    b, loc, sourceShape[i - 1] - 1);
                index = arith::MaxSIOp::create(b, loc, index, lo);
                at.push_back(arith::MinSIOp::create(b, loc, index, hi));
              }
              Value value =
                  read(b, loc, reads[0], args[0],
                       b.getMultiDimIdentityMap(sourceShape.size()), at);
              dloop::StoreOp::create(b, loc, value, out, ivs);
            });
      });
  buffers.map(op.getResult(), output);
  operands[op.getResult()] = Operand{output, {}, false};
}

LogicalResult Lifter::liftOp(Operation *op) {
  b.setInsertionPoint(op);
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](arith::ConstantOp cst) -> LogicalResult {
        auto elements = dyn_cast<ElementsAttr>(cst.getValue());
        if (!elements)
          return success(); // Scalar constants stay.
        FailureOr<DenseElementsAttr> denseOr =
            dtensor::getDenseElements(cst.getLoc(), elements);
        if (failed(denseOr))
          return failure();
        DenseElementsAttr dense = *denseOr;
        if (dense.isSplat()) {
          operands[cst.getResult()] =
              Operand{Value(),
                      cast<TypedAttr>(dense.getSplatValue<Attribute>()), false};
          return success();
        }
        if (isIota(dense)) {
          operands[cst.getResult()] = Operand{Value(), {}, true};
          return success();
        }
        Value global = liftConstant(cst, dense);
        buffers.map(cst.getResult(), global);
        operands[cst.getResult()] = Operand{global, {}, false};
        return success();
      })
      .Case([&](dtensor::ElementwiseOp op) {
        liftElementwise(op);
        return success();
      })
      .Case([&](dtensor::ReduceOp op) {
        liftReduce(op);
        return success();
      })
      .Case([&](dtensor::IndexMapOp op) {
        liftIndexMap(op);
        return success();
      })
      .Case([&](dtensor::GatherOp op) {
        liftGather(op);
        return success();
      })
      .Case([&](func::ReturnOp ret) -> LogicalResult {
        SmallVector<Value> results;
        for (Value v : ret.getOperands()) {
          Value buffer = buffers.lookupOrNull(v);
          if (!buffer)
            return ret.emitOpError("returns a constant or computed value "
                                   "that convert-dtensor-to-dloop cannot "
                                   "turn into a buffer");
          results.push_back(buffer);
        }
        ret->setOperands(results);
        return success();
      })
      .Default([&](Operation *op) -> LogicalResult {
        // Function arguments are already buffers: a tensor operand is one
        // that has a lifted form.
        auto isTensor = [](Type t) { return isa<TensorType>(t); };
        auto isLifted = [&](Value v) { return operands.count(v) != 0; };
        if (llvm::any_of(op->getOperandTypes(), isTensor) ||
            llvm::any_of(op->getOperands(), isLifted) ||
            llvm::any_of(op->getResultTypes(), isTensor))
          return op->emitOpError("is not supported by "
                                 "convert-dtensor-to-dloop; import it into "
                                 "dtensor first");
        return success();
      });
}

LogicalResult Lifter::run() {
  Block &entry = func.getBody().front();
  auto toMemRef = [](Type type) -> Type {
    if (auto tensor = dyn_cast<RankedTensorType>(type))
      return MemRefType::get(tensor.getShape(), tensor.getElementType());
    return type;
  };
  for (BlockArgument arg : entry.getArguments()) {
    if (!isa<RankedTensorType>(arg.getType()))
      continue;
    // Arguments keep their SSA value; only the type changes.
    arg.setType(toMemRef(arg.getType()));
    buffers.map(arg, arg);
    operands[arg] = Operand{arg, {}, false};
  }
  SmallVector<Operation *> ops;
  for (Operation &op : entry)
    ops.push_back(&op);
  for (Operation *op : ops)
    if (failed(liftOp(op)))
      return failure();
  // The tensor ops are dead now: erase them, users first.
  for (Operation *op : llvm::reverse(ops)) {
    if (isa<func::ReturnOp>(op))
      continue;
    bool isTensorOp = llvm::any_of(op->getResultTypes(),
                                   [](Type t) { return isa<TensorType>(t); });
    if (isTensorOp) {
      op->dropAllUses();
      op->erase();
    }
  }
  SmallVector<Type> inputs, results;
  for (Type t : func.getArgumentTypes())
    inputs.push_back(toMemRef(t));
  for (Type t : func.getResultTypes())
    results.push_back(toMemRef(t));
  func.setFunctionType(FunctionType::get(func.getContext(), inputs, results));
  return success();
}

namespace {
struct ConvertDTensorToDLoopPass final
    : deplodock::impl::ConvertDTensorToDLoopBase<ConvertDTensorToDLoopPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    for (func::FuncOp func : funcs) {
      if (func.isExternal())
        continue;
      if (!func.getBody().hasOneBlock()) {
        func.emitOpError("has several blocks, which "
                         "convert-dtensor-to-dloop cannot lift");
        return signalPassFailure();
      }
      if (failed(Lifter(func, symbols).run()))
        return signalPassFailure();
    }
  }
};
} // namespace
