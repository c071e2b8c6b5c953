//===- DLoopOps.cpp - Deplodock loop dialect ops ----------------*- C++ -*-===//

#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"

#include "Deplodock/Dialect/Common/AxisInterface.h"
#include "Deplodock/Dialect/Common/KernelSyntax.h"
#include "Deplodock/Dialect/Common/Reductions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dloop;

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

void KernelOp::build(
    OpBuilder &builder, OperationState &state, StringRef name,
    ValueRange inputs, ValueRange outputs,
    function_ref<void(OpBuilder &, Location, ValueRange, ValueRange)>
        bodyBuilder) {
  state.addOperands(inputs);
  state.addOperands(outputs);
  Properties &props = state.getOrAddProperties<Properties>();
  props.setSymName(builder.getStringAttr(name));
  props.setOperandSegmentSizes({static_cast<int32_t>(inputs.size()),
                                static_cast<int32_t>(outputs.size())});
  Region *region = state.addRegion();
  OpBuilder::InsertionGuard guard(builder);
  SmallVector<Type> types(inputs.getTypes());
  llvm::append_range(types, outputs.getTypes());
  SmallVector<Location> locs(types.size(), state.location);
  Block *body = builder.createBlock(region, {}, types, locs);
  if (bodyBuilder)
    bodyBuilder(builder, state.location,
                body->getArguments().take_front(inputs.size()),
                body->getArguments().drop_front(inputs.size()));
  ensureTerminator(*region, builder, state.location);
}

Block::BlockArgListType KernelOp::getInputArgs() {
  return getBody()->getArguments().take_front(getInputs().size());
}

Block::BlockArgListType KernelOp::getOutputArgs() {
  return getBody()->getArguments().drop_front(getInputs().size());
}

// @name ins(%x = %arg0 : memref<..>, ...) outs(%y = %arg1 : memref<..>, ...)
//     attributes {...} { body }
ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr name;
  if (parser.parseSymbolName(name))
    return failure();
  SmallVector<OpAsmParser::Argument> args;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SmallVector<Type> types;
  SMLoc loc = parser.getCurrentLocation();
  if (parseBindings(parser, "ins", args, operands, types))
    return failure();
  auto numInputs = static_cast<int32_t>(args.size());
  if (parseBindings(parser, "outs", args, operands, types) ||
      parser.resolveOperands(operands, types, loc, result.operands) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  auto numOutputs = static_cast<int32_t>(args.size()) - numInputs;
  Properties &props = result.getOrAddProperties<Properties>();
  props.setSymName(name);
  props.setOperandSegmentSizes({numInputs, numOutputs});
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, args))
    return failure();
  ensureTerminator(*body, parser.getBuilder(), result.location);
  return success();
}

void KernelOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printSymbolName(getSymName());
  printBindings(p, "ins", getInputArgs(), getInputs());
  printBindings(p, "outs", getOutputArgs(), getOutputs());
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {"sym_name", "operandSegmentSizes"});
  p << ' ';
  p.printRegion(getRegion(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
}

void KernelOp::getAsmBlockArgumentNames(Region &region,
                                        OpAsmSetValueNameFn setNameFn) {
  nameKernelArgs(region, getInputs().size(), setNameFn);
}

LogicalResult KernelOp::verify() {
  return verifyKernelBuffers(*this, getSymName(), getBuffers(),
                             getOutputs().size());
}

/// Checks a private buffer of a kernel body: a static, plain local array
/// that only loads and stores of the body touch, so that it never escapes
/// the iteration that allocates it.
static LogicalResult verifyPrivateBuffer(memref::AllocaOp alloca) {
  MemRefType type = alloca.getType();
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      type.getMemorySpace())
    return alloca.emitOpError("in a dloop.kernel is a private buffer and "
                              "needs a static shape, the identity layout "
                              "and the default memory space, got ")
           << type;
  for (OpOperand &use : alloca->getUses()) {
    Operation *user = use.getOwner();
    bool access =
        isa<LoadOp>(user) ||
        (isa<StoreOp>(user) && cast<StoreOp>(user).getMemref() == use.get() &&
         cast<StoreOp>(user).getValue() != use.get());
    if (!access)
      return user->emitOpError("uses a private buffer of its kernel; only "
                               "dloop.load and dloop.store may");
  }
  return success();
}

LogicalResult KernelOp::verifyRegions() {
  if (failed(verifyKernelBody(*this, *getBody(), getBuffers(),
                              getInputs().size())))
    return failure();
  WalkResult result = walk([](memref::AllocaOp alloca) {
    return failed(verifyPrivateBuffer(alloca)) ? WalkResult::interrupt()
                                               : WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// ForOp
//===----------------------------------------------------------------------===//

void ForOp::build(
    OpBuilder &builder, OperationState &state, int64_t extent, LoopKind kind,
    StringRef axis, ValueRange initArgs,
    function_ref<void(OpBuilder &, Location, Value, ValueRange)> bodyBuilder) {
  state.addOperands(initArgs);
  state.addTypes(initArgs.getTypes());
  Properties &props = state.getOrAddProperties<Properties>();
  props.setExtent(extent);
  props.setKind(kind);
  props.setAxis(builder.getStringAttr(axis));
  Region *region = state.addRegion();
  OpBuilder::InsertionGuard guard(builder);
  SmallVector<Type> types{builder.getIndexType()};
  llvm::append_range(types, initArgs.getTypes());
  SmallVector<Location> locs(types.size(), state.location);
  Block *body = builder.createBlock(region, {}, types, locs);
  if (bodyBuilder)
    bodyBuilder(builder, state.location, body->getArgument(0),
                body->getArguments().drop_front());
  // A loop that carries values must be ended by the caller's yield.
  if (initArgs.empty())
    ensureTerminator(*region, builder, state.location);
}

YieldOp ForOp::getYield() { return cast<YieldOp>(getBody()->getTerminator()); }

// %iv = 0 to extent kind "axis" iter(%a = %init : type, ...) unroll n
//     { body } attr-dict
ParseResult ForOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &b = parser.getBuilder();
  SmallVector<OpAsmParser::Argument> args(1);
  if (parser.parseArgument(args[0]) || parser.parseEqual())
    return failure();
  args[0].type = b.getIndexType();

  // The lower bound is part of the syntax only so that loops read naturally.
  SMLoc lowerLoc = parser.getCurrentLocation();
  int64_t lower;
  OptionalParseResult lowerResult = parser.parseOptionalInteger(lower);
  if (lowerResult.has_value() && failed(*lowerResult))
    return failure();
  if (!lowerResult.has_value() || lower != 0)
    return parser.emitError(lowerLoc,
                            "expected the lower bound 0; dloop.for always "
                            "starts at 0");

  int64_t extent;
  StringRef kindName;
  SMLoc kindLoc;
  std::string axis;
  if (parser.parseKeyword("to") || parser.parseInteger(extent) ||
      parser.getCurrentLocation(&kindLoc) || parser.parseKeyword(&kindName) ||
      parser.parseString(&axis))
    return failure();
  std::optional<LoopKind> kind = symbolizeLoopKind(kindName);
  if (!kind)
    return parser.emitError(kindLoc, "expected loop kind 'free' or 'reduce'");

  SmallVector<OpAsmParser::UnresolvedOperand> inits;
  SmallVector<Type> types;
  SMLoc initsLoc = parser.getCurrentLocation();
  if (parseBindings(parser, "iter", args, inits, types) ||
      parser.resolveOperands(inits, types, initsLoc, result.operands))
    return failure();
  result.addTypes(types);

  Properties &props = result.getOrAddProperties<Properties>();
  props.setExtent(extent);
  props.setKind(*kind);
  props.setAxis(b.getStringAttr(axis));
  if (succeeded(parser.parseOptionalKeyword("unroll"))) {
    int64_t unroll;
    if (parser.parseInteger(unroll))
      return failure();
    props.setUnroll(unroll);
  }

  Region *body = result.addRegion();
  if (parser.parseRegion(*body, args))
    return failure();
  ensureTerminator(*body, b, result.location);
  return parser.parseOptionalAttrDict(result.attributes);
}

void ForOp::print(OpAsmPrinter &p) {
  p << ' ' << getInductionVar() << " = 0 to " << getExtent() << ' '
    << stringifyLoopKind(getKind()) << ' ';
  p.printString(getAxis());
  printBindings(p, "iter", getIterArgs(), getInitArgs());
  if (std::optional<int64_t> unroll = getUnroll())
    p << " unroll " << *unroll;
  p << ' ';
  p.printRegion(getRegion(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/!getInitArgs().empty());
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {"extent", "kind", "axis", "unroll"});
}

void ForOp::getAsmBlockArgumentNames(Region &region,
                                     OpAsmSetValueNameFn setNameFn) {
  if (region.empty() || region.front().getNumArguments() == 0)
    return;
  // The axis name is what people call the loop variable anyway.
  if (isIdentifier(getAxis()))
    setNameFn(region.front().getArgument(0), getAxis());
  for (BlockArgument arg : region.front().getArguments().drop_front())
    setNameFn(arg, "acc");
}

// Everything is checked here rather than in verifyRegions: the
// LoopLikeOpInterface verifier runs with the regions, before verifyRegions,
// and would report the same mistakes less clearly (or read past the body
// arguments when the induction variable is missing).
LogicalResult ForOp::verify() {
  if (getExtent() < 1)
    return emitOpError("extent must be at least 1, got ") << getExtent();
  if (!isIdentifier(getAxis()))
    return emitOpError("axis name \"")
           << getAxis() << "\" is not an identifier";
  if (std::optional<int64_t> unroll = getUnroll(); unroll && *unroll < 1)
    return emitOpError("unroll factor must be at least 1, got ") << *unroll;
  OperandRange inits = getInitArgs();
  if (getKind() == LoopKind::free && !inits.empty())
    return emitOpError("a free loop cannot carry values; use a reduce loop");

  Block &body = getRegion().front();
  // A missing or foreign terminator is reported by
  // SingleBlockImplicitTerminator.
  auto yield = body.empty() ? YieldOp() : dyn_cast<YieldOp>(body.back());
  if (failed(verifyLoopCarriedValues(
          *this, body, inits,
          yield ? std::optional<OperandRange>(yield.getValues())
                : std::nullopt)))
    return failure();
  if (isReduction() && inits.empty()) {
    WalkResult found = getRegion().walk([](StoreOp store) {
      return store.isReducing() ? WalkResult::interrupt()
                                : WalkResult::advance();
    });
    if (!found.wasInterrupted())
      return emitOpError("a reduce loop must carry an accumulator or contain "
                         "a reducing store");
  }
  // Axis names identify loops to later rules; an inner loop may not reuse
  // the name of a loop it is in (siblings may).
  return verifyAxisNotShadowed(*this, getAxis());
}

SmallVector<StringRef> ForOp::getAxisNames() { return {getAxis()}; }

std::optional<Interval> ForOp::getCoordRange(BlockArgument arg) {
  if (arg != getInductionVar())
    return std::nullopt;
  return Interval{0, getExtent() - 1};
}

SmallVector<Region *> ForOp::getLoopRegions() { return {&getRegion()}; }

std::optional<SmallVector<Value>> ForOp::getLoopInductionVars() {
  return SmallVector<Value>{getInductionVar()};
}

std::optional<SmallVector<OpFoldResult>> ForOp::getLoopLowerBounds() {
  return SmallVector<OpFoldResult>{Builder(getContext()).getIndexAttr(0)};
}

std::optional<SmallVector<OpFoldResult>> ForOp::getLoopUpperBounds() {
  return SmallVector<OpFoldResult>{
      Builder(getContext()).getIndexAttr(getExtent())};
}

std::optional<SmallVector<OpFoldResult>> ForOp::getLoopSteps() {
  return SmallVector<OpFoldResult>{Builder(getContext()).getIndexAttr(1)};
}

MutableArrayRef<OpOperand> ForOp::getInitsMutable() {
  return getInitArgsMutable();
}

Block::BlockArgListType ForOp::getRegionIterArgs() { return getIterArgs(); }

std::optional<MutableArrayRef<OpOperand>> ForOp::getYieldedValuesMutable() {
  return MutableArrayRef<OpOperand>(getYield().getValuesMutable());
}

std::optional<ResultRange> ForOp::getLoopResults() {
  return getOperation()->getResults();
}

std::optional<APInt> ForOp::getStaticTripCount() {
  return APInt(64, getExtent());
}

LogicalResult ForOp::promoteIfSingleIteration(RewriterBase &rewriter) {
  if (getExtent() != 1)
    return failure();
  // Results become the yielded values; the body arguments then become 0 and
  // the inits, which also rewrites results that yielded an iter arg.
  YieldOp yield = getYield();
  rewriter.replaceAllUsesWith(getResults(), yield.getValues());
  rewriter.setInsertionPoint(*this);
  SmallVector<Value> replacements{
      arith::ConstantIndexOp::create(rewriter, getLoc(), 0)};
  llvm::append_range(replacements, getInitArgs());
  rewriter.inlineBlockBefore(getBody(), getOperation(), replacements);
  rewriter.eraseOp(yield);
  rewriter.eraseOp(*this);
  return success();
}

//===----------------------------------------------------------------------===//
// LoadOp and StoreOp
//===----------------------------------------------------------------------===//

/// Parses `%memref[map of SSA ids] attr-dict : memref-type`; the memref and
/// its indices go to `operands`, the attribute dictionary to `attrs`.
static ParseResult parseAccess(OpAsmParser &parser, NamedAttrList &attrs,
                               SmallVectorImpl<Value> &operands,
                               AffineMapAttr &map, MemRefType &type) {
  OpAsmParser::UnresolvedOperand memref;
  SmallVector<OpAsmParser::UnresolvedOperand> indices;
  Attribute mapAttr;
  NamedAttrList mapHolder;
  if (parser.parseOperand(memref) ||
      parser.parseAffineMapOfSSAIds(indices, mapAttr, "map", mapHolder) ||
      parser.parseOptionalAttrDict(attrs) || parser.parseColonType(type) ||
      parser.resolveOperand(memref, type, operands) ||
      parser.resolveOperands(indices, parser.getBuilder().getIndexType(),
                             operands))
    return failure();
  map = cast<AffineMapAttr>(mapAttr);
  return success();
}

/// Prints `%memref[map of SSA ids] attr-dict : memref-type`.
static void printAccess(OpAsmPrinter &p, Operation *op, Value memref,
                        AffineMapAttr map, ValueRange indices,
                        ArrayRef<StringRef> elided) {
  p << memref << '[';
  p.printAffineMapOfSSAIds(map, indices);
  p << ']';
  p.printOptionalAttrDict(op->getAttrs(), elided);
  p << " : " << memref.getType();
}

/// Checks that `map` indexes `type` with `indices` and, where the ranges of
/// the indices are known, that it stays inside the buffer. `verb` says what
/// the op does to the buffer ("reads", "writes").
static LogicalResult verifyAccess(Operation *op, MemRefType type, AffineMap map,
                                  ValueRange indices, StringRef verb) {
  if (map.getNumResults() != static_cast<unsigned>(type.getRank()))
    return op->emitOpError("map has ")
           << map.getNumResults() << " results but the memref has rank "
           << type.getRank();
  if (map.getNumInputs() != indices.size())
    return op->emitOpError("map takes ")
           << map.getNumInputs() << " operands but " << indices.size()
           << " indices are given";

  for (auto [d, expr] : llvm::enumerate(map.getResults())) {
    if (type.isDynamicDim(d))
      continue;
    std::optional<Interval> range =
        getAccessRange(expr, map.getNumDims(), indices, op);
    int64_t size = type.getDimSize(d);
    if (!range || Interval{0, size - 1}.contains(*range))
      continue;
    std::string text;
    llvm::raw_string_ostream(text) << expr;
    return op->emitOpError()
           << verb << " out of bounds: index " << d << " (" << text
           << ") ranges over [" << range->lo << ", " << range->hi
           << "] but dimension " << d << " has size " << size;
  }
  return success();
}

void LoadOp::build(OpBuilder &builder, OperationState &state, Value memref,
                   AffineMap map, ValueRange indices) {
  auto type = cast<MemRefType>(memref.getType());
  build(builder, state, type.getElementType(), memref, indices,
        AffineMapAttr::get(map));
}

void LoadOp::build(OpBuilder &builder, OperationState &state, Value memref,
                   ValueRange indices) {
  build(builder, state, memref, builder.getMultiDimIdentityMap(indices.size()),
        indices);
}

// %memref[%i, %j + 1] attr-dict : memref-type
ParseResult LoadOp::parse(OpAsmParser &parser, OperationState &result) {
  AffineMapAttr map;
  MemRefType type;
  if (parseAccess(parser, result.attributes, result.operands, map, type))
    return failure();
  result.getOrAddProperties<Properties>().setMap(map);
  result.addTypes(type.getElementType());
  return success();
}

void LoadOp::print(OpAsmPrinter &p) {
  p << ' ';
  printAccess(p, *this, getMemref(), getMapAttr(), getIndices(), {"map"});
}

LogicalResult LoadOp::verify() {
  return verifyAccess(*this, getMemRefType(), getMap(), getIndices(), "reads");
}

void StoreOp::build(OpBuilder &builder, OperationState &state, Value value,
                    Value memref, AffineMap map, ValueRange indices,
                    std::optional<ReduceKind> reduceKind) {
  build(builder, state, value, memref, indices, AffineMapAttr::get(map),
        reduceKind);
}

void StoreOp::build(OpBuilder &builder, OperationState &state, Value value,
                    Value memref, ValueRange indices) {
  build(builder, state, value, memref,
        builder.getMultiDimIdentityMap(indices.size()), indices);
}

// [kind] %value, %memref[%i, %j + 1] attr-dict : memref-type
ParseResult StoreOp::parse(OpAsmParser &parser, OperationState &result) {
  Properties &props = result.getOrAddProperties<Properties>();
  StringRef kindName;
  SMLoc kindLoc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalKeyword(&kindName))) {
    std::optional<ReduceKind> kind = symbolizeReduceKind(kindName);
    if (!kind)
      return parser.emitError(kindLoc, "expected reduce kind 'add', 'mul', "
                                       "'max' or 'min'");
    props.setReduceKind(kind);
  }
  OpAsmParser::UnresolvedOperand value;
  AffineMapAttr map;
  MemRefType type;
  if (parser.parseOperand(value) || parser.parseComma())
    return failure();
  // The value comes first among the operands, but its type is only known
  // from the memref type at the end.
  SmallVector<Value> access;
  if (parseAccess(parser, result.attributes, access, map, type) ||
      parser.resolveOperand(value, type.getElementType(), result.operands))
    return failure();
  result.addOperands(access);
  props.setMap(map);
  return success();
}

void StoreOp::print(OpAsmPrinter &p) {
  p << ' ';
  if (std::optional<ReduceKind> kind = getReduceKind())
    p << stringifyReduceKind(*kind) << ' ';
  p << getValue() << ", ";
  printAccess(p, *this, getMemref(), getMapAttr(), getIndices(),
              {"map", "reduce_kind"});
}

LogicalResult StoreOp::verify() {
  MemRefType type = getMemRefType();
  if (isReducing() && !type.getElementType().isIntOrFloat())
    return emitOpError("a reducing store needs integer or float elements, "
                       "got ")
           << type.getElementType();
  if (std::optional<ReduceKind> kind = getReduceKind())
    if (failed(verifyReduceKind(*this, *kind, type.getElementType())))
      return failure();
  return verifyAccess(*this, type, getMap(), getIndices(), "writes");
}

void StoreOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // A reducing store reads the element it folds into.
  if (isReducing())
    effects.emplace_back(MemoryEffects::Read::get(), &getMemrefMutable(),
                         SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Write::get(), &getMemrefMutable(),
                       SideEffects::DefaultResource::get());
}

//===----------------------------------------------------------------------===//
// YieldOp
//===----------------------------------------------------------------------===//

LogicalResult YieldOp::verify() {
  if (isa<KernelOp>((*this)->getParentOp()) && !getValues().empty())
    return emitOpError("dloop.kernel body yields no values");
  return success();
}

#define GET_OP_CLASSES
#include "Deplodock/Dialect/DLoop/IR/DLoopOps.cpp.inc"
