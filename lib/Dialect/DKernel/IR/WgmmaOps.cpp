//===- WgmmaOps.cpp - Warpgroup matrix ops (sm_90a) -------------*- C++ -*-===//
//
// wgmma.mma_async and what orders it: matrix descriptors, fences, commit
// groups and waits. The accumulators are plain f32 SSA values, N / 2 per
// thread of a 128-thread warpgroup, in the PTX ISA's layout.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Dialect/Common/Swizzle.h"
#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"

#include "Deplodock/Dialect/DKernel/IR/Target.h"

#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dkernel;

/// The threads of a warpgroup.
static constexpr int64_t kWarpgroupThreads = 128;
/// LBO and SBO are 14-bit fields in units of 16 bytes.
static constexpr int64_t kDescOffsetLimit = int64_t(1) << 18;

//===----------------------------------------------------------------------===//
// WgmmaDescOp
//===----------------------------------------------------------------------===//

/// The descriptor's 2-bit swizzle mode for a swizzle of `bytes`.
static uint64_t swizzleMode(int64_t bytes) {
  switch (bytes) {
  case 128:
    return 1;
  case 64:
    return 2;
  case 32:
    return 3;
  default:
    return 0;
  }
}

uint64_t WgmmaDescOp::getConstantBits() {
  return (static_cast<uint64_t>(getLbo() >> 4) << 16) |
         (static_cast<uint64_t>(getSbo() >> 4) << 32) |
         (swizzleMode(getSwizzle()) << 62);
}

LogicalResult WgmmaDescOp::verify() {
  if (failed(verifySharedMatrixSource(*this, getSrc(), getIndices(),
                                      /*allowF8=*/true)))
    return failure();
  auto type = cast<MemRefType>(getSrc().getType());
  if (!isSwizzleWidth(getSwizzle()))
    return emitOpError("swizzle must be 0, 32, 64 or 128 bytes, got ")
           << getSwizzle();
  for (auto [name, value] :
       {std::pair<StringRef, int64_t>{"lbo", getLbo()}, {"sbo", getSbo()}})
    if (value < 0 || value >= kDescOffsetLimit || value % 16 != 0)
      return emitOpError() << name << " must be a multiple of 16 in [0, "
                           << kDescOffsetLimit << "), got " << value;
  // Each operand row is 16 elements of K in one row of the buffer (or, with
  // a swizzle, one S-byte row of the TMA box).
  if (type.getRank() == 0 || type.getShape().back() < 8)
    return emitOpError("source rows must hold at least 8 elements, got ")
           << type;
  for (Operation *user : getResult().getUsers())
    if (!isa<WgmmaMmaAsyncOp>(user))
      return emitOpError("result may only be an operand of "
                         "dkernel.wgmma_mma_async, not of ")
             << user->getName();
  return success();
}

//===----------------------------------------------------------------------===//
// WgmmaWaitGroupOp
//===----------------------------------------------------------------------===//

LogicalResult WgmmaWaitGroupOp::verify() {
  if (getPending() < 0 || getPending() > 7)
    return emitOpError("pending group count must be in [0, 7], got ")
           << getPending();
  // A loop may carry accumulators in flight (a wait_group 1 in its body):
  // its results are then waited for after it.
  for (Value acc : getAccumulators())
    if (!acc.getDefiningOp<WgmmaMmaAsyncOp>() &&
        !acc.getDefiningOp<LoopLikeOpInterface>())
      return emitOpError("passes through only wgmma_mma_async results (or "
                         "the results of a loop carrying them)");
  return success();
}

// 0 [%d#0, %d#1]
void WgmmaWaitGroupOp::print(OpAsmPrinter &p) {
  p << " " << getPending();
  if (!getAccumulators().empty())
    p << " [" << getAccumulators() << "]";
  p.printOptionalAttrDict((*this)->getAttrs(), {"pending"});
}

ParseResult WgmmaWaitGroupOp::parse(OpAsmParser &parser,
                                    OperationState &result) {
  int64_t pending = 0;
  SmallVector<OpAsmParser::UnresolvedOperand> accumulators;
  Type f32 = parser.getBuilder().getF32Type();
  if (parser.parseInteger(pending) ||
      parser.parseOperandList(accumulators,
                              OpAsmParser::Delimiter::OptionalSquare) ||
      parser.parseOptionalAttrDict(result.attributes) ||
      parser.resolveOperands(accumulators, f32, result.operands))
    return failure();
  result.getOrAddProperties<Properties>().pending = pending;
  result.addTypes(SmallVector<Type>(accumulators.size(), f32));
  return success();
}

/// Verifies what every warpgroup op of sm_90a needs: a target with the
/// `wgmma` feature (`what` names it in the error) and, in a kernel, blocks
/// of whole warpgroups.
static LogicalResult verifyWarpgroupOp(Operation *op, StringRef what) {
  TargetAttr target = getTargetOrDefault(op);
  if (!target.has(GpuFeature::wgmma))
    return op->emitOpError("needs ") << what << ", not " << target.getName();
  if (auto func = op->getParentOfType<FuncOp>();
      func && func.getNumThreads() % kWarpgroupThreads != 0)
    return op->emitOpError("runs in blocks of whole 128-thread warpgroups; "
                           "the kernel's block has ")
           << func.getNumThreads() << " threads";
  return success();
}

//===----------------------------------------------------------------------===//
// WgmmaMmaAsyncOp
//===----------------------------------------------------------------------===//

LogicalResult WgmmaMmaAsyncOp::verify() {
  int64_t n = getN();
  if (n < 8 || n > 256 || n % 8 != 0)
    return emitOpError("n must be a multiple of 8 from 8 to 256, got ") << n;
  int64_t count = n / 2;
  if (static_cast<int64_t>(getResults().size()) != count)
    return emitOpError("m64n") << n << "k" << getK() << " has " << count
                               << " accumulators a thread, got "
                               << getResults().size() << " results";
  if (!getC().empty() && static_cast<int64_t>(getC().size()) != count)
    return emitOpError("takes none or ")
           << count << " accumulators of C, got " << getC().size();
  // 16-bit multiplicands are of one type; 8-bit ones may mix e4m3 and e5m2.
  bool f8 = isWgmmaF8(getElementType());
  if (f8 != isWgmmaF8(getBElementType()) ||
      (!f8 && getElementType() != getBElementType()))
    return emitOpError("multiplies ")
           << getElementType() << " by " << getBElementType()
           << ": both f16, both bf16 or both 8-bit floats";
  struct Operand {
    StringRef name;
    Value desc;
    WgmmaMajor major;
    int64_t extent; // of M or N
    Type element;
  };
  for (const Operand &op :
       {Operand{"a", getA(), getMajorA(), 64, getElementType()},
        Operand{"b", getB(), getMajorB(), n, getBElementType()}}) {
    auto def = op.desc.getDefiningOp<WgmmaDescOp>();
    if (!def)
      return emitOpError("operand ")
             << op.name << " must be a dkernel.wgmma_desc result";
    Type got = cast<MemRefType>(def.getSrc().getType()).getElementType();
    if (got != op.element)
      return emitOpError("operand ")
             << op.name << " holds " << got << " elements, not " << op.element;
    if (f8 && op.major == WgmmaMajor::mn)
      return emitOpError("operand ")
             << op.name
             << " is MN-major, but 8-bit operands are read K-major only";
    // An MN-major operand's atoms are S / 2 elements of M or N wide (8
    // without a swizzle); the instruction reads whole ones.
    int64_t atom = def.getSwizzle() == 0 ? 8 : def.getSwizzle() / 2;
    if (op.major == WgmmaMajor::mn && op.extent % atom != 0)
      return emitOpError("MN-major operand ")
             << op.name << " spans " << op.extent
             << " elements, not whole atoms of " << atom
             << " (its descriptor's swizzle is " << def.getSwizzle() << ")";
  }
  // The accumulators stay in flight until their wait: only the next op of
  // the chain, the wait or the yield of a loop carrying them to the next
  // step's chain reads them.
  for (Value result : getResults())
    for (Operation *user : result.getUsers())
      if (!isa<WgmmaMmaAsyncOp, WgmmaWaitGroupOp>(user) &&
          !(user->hasTrait<OpTrait::IsTerminator>() &&
            isa<LoopLikeOpInterface>(user->getParentOp())))
        return emitOpError("accumulators may only be read by "
                           "dkernel.wgmma_mma_async, "
                           "dkernel.wgmma_wait_group or a loop's yield, not "
                           "by ")
               << user->getName();
  return verifyWarpgroupOp(*this, "a target with wgmma (sm_90a)");
}

// %a, %b, [%c0, ...] n 8 (major_a mn)? (major_b mn)? : bf16
void WgmmaMmaAsyncOp::print(OpAsmPrinter &p) {
  p << " " << getA() << ", " << getB() << ", [" << getC() << "] n " << getN();
  if (getMajorA() != WgmmaMajor::k)
    p << " major_a " << stringifyWgmmaMajor(getMajorA());
  if (getMajorB() != WgmmaMajor::k)
    p << " major_b " << stringifyWgmmaMajor(getMajorB());
  p.printOptionalAttrDict(
      (*this)->getAttrs(),
      {"n", "elementType", "elementTypeB", "majorA", "majorB"});
  p << " : " << getElementType();
  if (getElementTypeB())
    p << ", " << *getElementTypeB();
}

ParseResult WgmmaMmaAsyncOp::parse(OpAsmParser &parser,
                                   OperationState &result) {
  OpAsmParser::UnresolvedOperand a, b;
  SmallVector<OpAsmParser::UnresolvedOperand> c;
  int64_t n = 0;
  Type element;
  if (parser.parseOperand(a) || parser.parseComma() || parser.parseOperand(b) ||
      parser.parseComma() ||
      parser.parseOperandList(c, OpAsmParser::Delimiter::Square) ||
      parser.parseKeyword("n") || parser.parseInteger(n))
    return failure();
  auto &props = result.getOrAddProperties<Properties>();
  for (auto [keyword, major] :
       {std::pair<StringRef, WgmmaMajor *>{"major_a", &props.majorA},
        {"major_b", &props.majorB}}) {
    if (failed(parser.parseOptionalKeyword(keyword)))
      continue;
    StringRef name;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&name))
      return failure();
    std::optional<WgmmaMajor> parsed = symbolizeWgmmaMajor(name);
    if (!parsed)
      return parser.emitError(loc, "expected 'k' or 'mn' after ")
             << keyword << ", got '" << name << "'";
    *major = *parsed;
  }
  Type elementB;
  if (parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(element) ||
      (succeeded(parser.parseOptionalComma()) && parser.parseType(elementB)))
    return failure();
  Builder &b64 = parser.getBuilder();
  if (parser.resolveOperand(a, b64.getI64Type(), result.operands) ||
      parser.resolveOperand(b, b64.getI64Type(), result.operands) ||
      parser.resolveOperands(c, b64.getF32Type(), result.operands))
    return failure();
  props.n = n;
  props.elementType = TypeAttr::get(element);
  if (elementB)
    props.elementTypeB = TypeAttr::get(elementB);
  // The verifier checks n; a nonsensical one gets no results here.
  int64_t count = n >= 8 && n <= 256 && n % 8 == 0 ? n / 2 : 0;
  result.addTypes(SmallVector<Type>(count, b64.getF32Type()));
  return success();
}

//===----------------------------------------------------------------------===//
// SetMaxNRegOp
//===----------------------------------------------------------------------===//

LogicalResult SetMaxNRegOp::verify() {
  int64_t count = getCount();
  if (count < 24 || count > 256 || count % 8 != 0)
    return emitOpError("register count must be a multiple of 8 in [24, 256], "
                       "got ")
           << count;
  return verifyWarpgroupOp(
      *this, "a target with the arch-specific sm_90a features (wgmma)");
}

// dec 40
void SetMaxNRegOp::print(OpAsmPrinter &p) {
  p << " " << stringifyRegisterChange(getChange()) << " " << getCount();
  p.printOptionalAttrDict((*this)->getAttrs(), {"change", "count"});
}

ParseResult SetMaxNRegOp::parse(OpAsmParser &parser, OperationState &result) {
  StringRef keyword;
  int64_t count = 0;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<RegisterChange> change = symbolizeRegisterChange(keyword);
  if (!change)
    return parser.emitError(loc, "expected 'inc' or 'dec', got '")
           << keyword << "'";
  if (parser.parseInteger(count) ||
      parser.parseOptionalAttrDict(result.attributes))
    return failure();
  auto &props = result.getOrAddProperties<Properties>();
  props.change = *change;
  props.count = count;
  return success();
}
