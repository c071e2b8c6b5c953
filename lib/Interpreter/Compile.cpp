//===- Compile.cpp - Compile a function for interpretation ------*- C++ -*-===//

#include "Program.h"
#include "Simt.h"

#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"
#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "Deplodock/Dialect/DTensor/IR/DTensorOps.h"
#include "Deplodock/Dialect/DTile/IR/DTileOps.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::interp;

namespace {

class Compiler {
public:
  FailureOr<std::unique_ptr<Program>> run(func::FuncOp func);

private:
  LogicalResult compileBlock(mlir::Block &block, interp::Block &out);
  LogicalResult compileOp(Operation *op, Instr &instr);
  unsigned slotOf(Value v) {
    auto [it, inserted] = slots.try_emplace(v, numSlots);
    if (inserted)
      ++numSlots;
    return it->second;
  }

  llvm::DenseMap<Value, unsigned> slots;
  unsigned numSlots = 0;
  /// The buffer of each memref.global read, shared by every get_global of
  /// it.
  llvm::DenseMap<Operation *, std::shared_ptr<Buffer>> globals;
};

} // namespace

std::optional<Opcode> interp::scalarOpcode(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<Opcode>>(op)
      .Case([](arith::AddFOp) { return Opcode::AddF; })
      .Case([](arith::SubFOp) { return Opcode::SubF; })
      .Case([](arith::MulFOp) { return Opcode::MulF; })
      .Case([](arith::DivFOp) { return Opcode::DivF; })
      .Case([](arith::RemFOp) { return Opcode::RemF; })
      .Case([](arith::NegFOp) { return Opcode::NegF; })
      .Case([](arith::MaximumFOp) { return Opcode::MaximumF; })
      .Case([](arith::MinimumFOp) { return Opcode::MinimumF; })
      .Case([](arith::MaxNumFOp) { return Opcode::MaxNumF; })
      .Case([](arith::MinNumFOp) { return Opcode::MinNumF; })
      .Case([](arith::AddIOp) { return Opcode::AddI; })
      .Case([](arith::SubIOp) { return Opcode::SubI; })
      .Case([](arith::MulIOp) { return Opcode::MulI; })
      .Case([](arith::DivSIOp) { return Opcode::DivSI; })
      .Case([](arith::DivUIOp) { return Opcode::DivUI; })
      .Case([](arith::RemSIOp) { return Opcode::RemSI; })
      .Case([](arith::RemUIOp) { return Opcode::RemUI; })
      .Case([](arith::AndIOp) { return Opcode::AndI; })
      .Case([](arith::OrIOp) { return Opcode::OrI; })
      .Case([](arith::XOrIOp) { return Opcode::XOrI; })
      .Case([](arith::ShLIOp) { return Opcode::ShLI; })
      .Case([](arith::ShRSIOp) { return Opcode::ShRSI; })
      .Case([](arith::ShRUIOp) { return Opcode::ShRUI; })
      .Case([](arith::MaxSIOp) { return Opcode::MaxSI; })
      .Case([](arith::MinSIOp) { return Opcode::MinSI; })
      .Case([](arith::MaxUIOp) { return Opcode::MaxUI; })
      .Case([](arith::MinUIOp) { return Opcode::MinUI; })
      .Case([](arith::CmpFOp) { return Opcode::CmpF; })
      .Case([](arith::CmpIOp) { return Opcode::CmpI; })
      .Case([](arith::SelectOp) { return Opcode::Select; })
      .Case([](arith::SIToFPOp) { return Opcode::SIToFP; })
      .Case([](arith::UIToFPOp) { return Opcode::UIToFP; })
      .Case([](arith::FPToSIOp) { return Opcode::FPToSI; })
      .Case([](arith::FPToUIOp) { return Opcode::FPToUI; })
      .Case([](arith::ExtFOp) { return Opcode::ExtF; })
      .Case([](arith::TruncFOp) { return Opcode::TruncF; })
      .Case([](arith::ExtSIOp) { return Opcode::ExtSI; })
      .Case([](arith::ExtUIOp) { return Opcode::ExtUI; })
      .Case([](arith::TruncIOp) { return Opcode::TruncI; })
      .Case([](arith::IndexCastOp) { return Opcode::IndexCast; })
      .Case([](arith::IndexCastUIOp) { return Opcode::IndexCastUI; })
      .Case([](arith::BitcastOp) { return Opcode::Bitcast; })
      .Case([](math::ExpOp) { return Opcode::Exp; })
      .Case([](math::Exp2Op) { return Opcode::Exp2; })
      .Case([](math::LogOp) { return Opcode::Log; })
      .Case([](math::Log2Op) { return Opcode::Log2; })
      .Case([](math::Log1pOp) { return Opcode::Log1p; })
      .Case([](math::SqrtOp) { return Opcode::Sqrt; })
      .Case([](math::RsqrtOp) { return Opcode::Rsqrt; })
      .Case([](math::TanhOp) { return Opcode::Tanh; })
      .Case([](math::ErfOp) { return Opcode::Erf; })
      .Case([](math::SinOp) { return Opcode::Sin; })
      .Case([](math::CosOp) { return Opcode::Cos; })
      .Case([](math::AbsFOp) { return Opcode::AbsF; })
      .Case([](math::AbsIOp) { return Opcode::AbsI; })
      .Case([](math::FmaOp) { return Opcode::Fma; })
      .Case([](math::PowFOp) { return Opcode::PowF; })
      .Case([](math::FloorOp) { return Opcode::Floor; })
      .Case([](math::CeilOp) { return Opcode::Ceil; })
      .Case([](affine::AffineApplyOp) { return Opcode::AffineApply; })
      .Default([](Operation *) { return std::nullopt; });
}

/// The value of every element of the splat `dense`, rounded to its type.
static double splatValue(DenseElementsAttr dense) {
  Type element = dense.getElementType();
  return roundTo(
      element,
      isa<FloatType>(element)
          ? dense.getSplatValue<APFloat>().convertToDouble()
          : static_cast<double>(dense.getSplatValue<APInt>().getSExtValue()));
}

/// The elements of a dense constant as a buffer, reserved against the memory
/// limit; errors are reported at `op`.
static FailureOr<std::shared_ptr<Buffer>> denseBuffer(Operation *op,
                                                      DenseElementsAttr dense) {
  auto type = cast<ShapedType>(dense.getType());
  Type element = type.getElementType();
  FailureOr<std::shared_ptr<Buffer>> buffer = allocateFor(op, type);
  if (failed(buffer))
    return failure();
  Buffer &b = **buffer;
  if (dense.isSplat()) {
    b.data.fill(splatValue(dense));
    return buffer;
  }
  int64_t i = 0;
  if (isa<FloatType>(element)) {
    for (APFloat v : dense.getValues<APFloat>())
      b.set(i++, roundTo(element, v.convertToDouble()));
  } else {
    for (APInt v : dense.getValues<APInt>())
      b.set(i++, roundTo(element, static_cast<double>(v.getSExtValue())));
  }
  return buffer;
}

std::optional<std::string> interp::uninterpretable(Type type) {
  if (auto memref = dyn_cast<MemRefType>(type))
    if (!memref.getLayout().isIdentity())
      return std::string("which cannot be interpreted");
  if (isa<RankedTensorType, MemRefType>(type)) {
    auto shaped = cast<ShapedType>(type);
    if (!shaped.hasStaticShape() ||
        !isSupportedElementType(shaped.getElementType()))
      return std::string("which cannot be interpreted");
    std::optional<int64_t> count = checkedNumElements(shaped.getShape());
    if (!count || !checkedBytes(*count, runtime::dtypeSize(storageOf(
                                            shaped.getElementType()))))
      return std::string(
          "which has more elements than a 64-bit size can count");
    return std::nullopt;
  }
  if (!isSupportedElementType(type))
    return std::string("which cannot be interpreted");
  return std::nullopt;
}

bool interp::isInterpretableType(Type type) { return !uninterpretable(type); }

/// Whether the one user of `op`'s result reads each of its elements once, in
/// order: an elementwise op or a reduction in the same block.
static bool readOnceInOrder(Operation *op) {
  Value result = op->getResult(0);
  if (!result.hasOneUse())
    return false;
  Operation *user = *result.getUsers().begin();
  return user->getBlock() == op->getBlock() &&
         isa<dtensor::ElementwiseOp, dtensor::ReduceOp>(user);
}

LogicalResult Compiler::compileOp(Operation *op, Instr &instr) {
  instr.op = op;
  for (auto [i, type] : llvm::enumerate(op->getResultTypes()))
    if (std::optional<std::string> why = uninterpretable(type))
      return op->emitOpError("result #")
             << i << " has type " << type << ", " << *why;
  for (Value operand : op->getOperands())
    instr.in.push_back(slotOf(operand));
  for (Value result : op->getResults())
    instr.out.push_back(slotOf(result));
  if (op->getNumResults() == 1)
    instr.type = op->getResult(0).getType();

  if (std::optional<Opcode> code = scalarOpcode(op)) {
    instr.code = *code;
    setScalarDetails(op, instr);
    if (isa<VectorType, TensorType, MemRefType>(instr.type))
      return op->emitOpError("on shaped values cannot be interpreted; "
                             "import it into dtensor first");
    return success();
  }

  LogicalResult result =
      llvm::TypeSwitch<Operation *, LogicalResult>(op)
          .Case([&](arith::ConstantOp cst) -> LogicalResult {
            if (auto dense = dyn_cast<DenseElementsAttr>(cst.getValue())) {
              instr.code = Opcode::DenseConstant;
              // A splat takes no memory, however large.
              if (dense.isSplat() && isa<RankedTensorType>(dense.getType())) {
                auto type = cast<ShapedType>(dense.getType());
                instr.splat =
                    makeSplat(op, type.getShape(), type.getElementType(),
                              splatValue(dense));
                return success();
              }
              FailureOr<std::shared_ptr<Buffer>> data = denseBuffer(op, dense);
              if (failed(data))
                return failure();
              instr.data = *data;
              return success();
            }
            instr.code = Opcode::Constant;
            if (auto fp = dyn_cast<FloatAttr>(cst.getValue()))
              instr.constant = fp.getValueAsDouble();
            else if (auto integer = dyn_cast<IntegerAttr>(cst.getValue()))
              instr.constant =
                  roundTo(instr.type, static_cast<double>(integer.getInt()));
            else
              return cst.emitOpError("cannot be interpreted");
            return success();
          })
          .Case([&](ub::PoisonOp) -> LogicalResult {
            if (auto shaped = dyn_cast<ShapedType>(instr.type)) {
              instr.code = Opcode::DenseConstant;
              Type element = shaped.getElementType();
              if (isa<RankedTensorType>(shaped)) {
                instr.splat = makeSplat(op, shaped.getShape(), element,
                                        poisonValue(element));
                return success();
              }
              FailureOr<std::shared_ptr<Buffer>> data = allocateFor(op, shaped);
              if (failed(data))
                return failure();
              (*data)->data.fill(poisonValue(element));
              instr.data = *data;
              return success();
            }
            instr.code = Opcode::Constant;
            instr.constant = poisonValue(instr.type);
            return success();
          })
          .Case([&](tensor::EmptyOp) {
            instr.code = Opcode::TensorEmpty;
            return success();
          })
          .Case([&](dtensor::ElementwiseOp) {
            instr.code = Opcode::Elementwise;
            return success();
          })
          .Case([&](dtensor::ReduceOp) {
            instr.code = Opcode::Reduce;
            return success();
          })
          .Case([&](dtensor::IndexMapOp) {
            instr.code = Opcode::IndexMap;
            return success();
          })
          .Case([&](memref::AllocOp) {
            instr.code = Opcode::Alloc;
            return success();
          })
          .Case([&](memref::AllocaOp) {
            instr.code = Opcode::Alloc;
            return success();
          })
          .Case([&](memref::DeallocOp) {
            instr.code = Opcode::Nop;
            return success();
          })
          .Case([&](memref::GetGlobalOp get) -> LogicalResult {
            auto global =
                SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
                    get, get.getNameAttr());
            auto init = global ? dyn_cast_or_null<DenseElementsAttr>(
                                     global.getInitialValueAttr())
                               : DenseElementsAttr();
            if (!init)
              return get.emitOpError("reads a global without a dense "
                                     "initial value, which cannot be "
                                     "interpreted");
            instr.code = Opcode::GetGlobal;
            std::shared_ptr<Buffer> &data = globals[global];
            if (!data) {
              FailureOr<std::shared_ptr<Buffer>> held = denseBuffer(
                  get, init.reshape(cast<ShapedType>(init.getType())
                                        .clone(global.getType().getShape())));
              if (failed(held))
                return failure();
              data = *held;
            }
            instr.data = data;
            return success();
          })
          .Case([&](memref::LoadOp load) {
            instr.code = Opcode::MemLoad;
            instr.access = indexAccess(1, load.getIndices().size());
            return success();
          })
          .Case([&](memref::StoreOp store) {
            instr.code = Opcode::MemStore;
            instr.access = indexAccess(2, store.getIndices().size());
            return success();
          })
          .Case([&](scf::ForOp) {
            instr.code = Opcode::ScfFor;
            return success();
          })
          .Case([&](scf::IfOp) {
            instr.code = Opcode::ScfIf;
            return success();
          })
          .Case([&](func::ReturnOp) {
            instr.code = Opcode::Return;
            return success();
          })
          .Case([&](dloop::KernelOp) {
            instr.code = Opcode::LoopKernel;
            return success();
          })
          .Case([&](dloop::ForOp loop) {
            instr.code = Opcode::LoopFor;
            instr.extent = loop.getExtent();
            return success();
          })
          .Case([&](dloop::LoadOp load) {
            instr.code = Opcode::LoopLoad;
            instr.access =
                affineAccess(load.getMap(), 1, load.getIndices().size());
            return success();
          })
          .Case([&](dloop::StoreOp store) {
            instr.code = Opcode::LoopStore;
            instr.type = store.getValue().getType();
            instr.access =
                affineAccess(store.getMap(), 2, store.getIndices().size());
            instr.reduce = store.getReduceKind();
            return success();
          })
          .Case([&](dtile::KernelOp) {
            instr.code = Opcode::TileKernel;
            return simt::compile(op, instr);
          })
          .Case([&](dkernel::LaunchOp) {
            instr.code = Opcode::KernelLaunch;
            return simt::compile(op, instr);
          })
          .Default([&](Operation *op) {
            return op->emitOpError("cannot be interpreted");
          });
  if (failed(result))
    return failure();
  if (instr.simt) // The SIMT engine compiled the kernel's regions.
    return success();

  for (Region &region : op->getRegions()) {
    if (region.empty()) {
      instr.regions.push_back(std::make_unique<interp::Block>());
      continue;
    }
    if (!region.hasOneBlock())
      return op->emitOpError("has a region with several blocks, which "
                             "cannot be interpreted");
    auto block = std::make_unique<interp::Block>();
    if (failed(compileBlock(region.front(), *block)))
      return failure();
    instr.regions.push_back(std::move(block));
  }
  // A dloop.kernel whose free loop can run as lanes runs on the SIMT engine
  // (its sequential body stays compiled, for the checks above).
  if (instr.code == Opcode::LoopKernel)
    if (Operation *laneLoop = simt::chooseLaneLoop(op))
      simt::compileLoopKernel(op, laneLoop, instr);
  if (instr.code == Opcode::Elementwise) {
    FailureOr<std::shared_ptr<const LaneBody>> lanes =
        compileLanes(*instr.regions[0]);
    if (failed(lanes))
      return op->emitOpError("has a body the interpreter cannot run over "
                             "many elements at once");
    instr.lanes = *lanes;
    instr.fused = readOnceInOrder(op);
  }
  return success();
}

/// See Block::minWork. Saturates.
static uint64_t computeMinWork(const interp::Block &block) {
  uint64_t work = 0;
  for (const Instr &instr : block.instrs) {
    uint64_t own = 1, trips = 0;
    if (instr.code == Opcode::LoopFor)
      trips = static_cast<uint64_t>(std::max<int64_t>(instr.extent, 0));
    else if (auto loop = dyn_cast<scf::ForOp>(instr.op))
      if (std::optional<APInt> count = loop.getStaticTripCount();
          count && count->getActiveBits() <= 64)
        trips = count->getZExtValue();
    if (instr.code == Opcode::LoopFor || instr.code == Opcode::ScfFor)
      own = llvm::SaturatingMultiplyAdd(trips, instr.regions[0]->minWork, own);
    else if (instr.code == Opcode::ScfIf)
      own = llvm::SaturatingAdd(
          own, std::min(instr.regions[0]->minWork, instr.regions[1]->minWork));
    else if (instr.code == Opcode::LoopKernel && !instr.regions.empty())
      own = llvm::SaturatingAdd(own, instr.regions[0]->minWork);
    work = llvm::SaturatingAdd(work, own);
  }
  return work;
}

LogicalResult Compiler::compileBlock(mlir::Block &block, interp::Block &out) {
  for (BlockArgument arg : block.getArguments()) {
    if (std::optional<std::string> why = uninterpretable(arg.getType()))
      return block.getParentOp()->emitOpError("has a block argument of type ")
             << arg.getType() << ", " << *why;
    out.args.push_back(slotOf(arg));
  }
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::IsTerminator>() && !isa<func::ReturnOp>(op)) {
      for (Value v : op.getOperands())
        out.yields.push_back(slotOf(v));
      continue;
    }
    Instr instr;
    if (failed(compileOp(&op, instr)))
      return failure();
    out.instrs.push_back(std::move(instr));
  }
  out.minWork = computeMinWork(out);
  return success();
}

FailureOr<std::unique_ptr<Program>> Compiler::run(func::FuncOp func) {
  auto program = std::make_unique<Program>();
  if (func.isExternal())
    return func.emitOpError("has no body to interpret");
  if (!func.getBody().hasOneBlock())
    return func.emitOpError("has several blocks, which cannot be "
                            "interpreted");
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
    if (std::optional<std::string> why = uninterpretable(type))
      return func.emitOpError("argument #")
             << i << " has type " << type << ", " << *why;
  for (auto [i, type] : llvm::enumerate(func.getResultTypes()))
    if (std::optional<std::string> why = uninterpretable(type))
      return func.emitOpError("result #")
             << i << " has type " << type << ", " << *why;
  if (failed(compileBlock(func.getBody().front(), program->body)))
    return failure();
  program->numSlots = numSlots;
  return program;
}

FailureOr<std::unique_ptr<Program>> interp::compile(Operation *func) {
  return Compiler().run(cast<func::FuncOp>(func));
}
