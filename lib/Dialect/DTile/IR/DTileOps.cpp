//===- DTileOps.cpp - Deplodock tile dialect ops ----------------*- C++ -*-===//

#include "Deplodock/Dialect/DTile/IR/DTileOps.h"

#include "Deplodock/Dialect/Common/AffineBounds.h"
#include "Deplodock/Dialect/Common/AxisInterface.h"
#include "Deplodock/Dialect/Common/KernelSyntax.h"
#include "Deplodock/Dialect/Common/Reductions.h"
#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/StringSet.h"

#include <limits>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

void KernelOp::build(OpBuilder &b, OperationState &state, StringRef name,
                     KnobsAttr knobs, ValueRange ins, ValueRange outs) {
  state.addOperands(ins);
  state.addOperands(outs);
  Properties &props = state.getOrAddProperties<Properties>();
  props.sym_name = b.getStringAttr(name);
  props.knobs =
      knobs ? knobs
            : KnobsAttr::get(b.getContext(), ArrayRef<NamedAttribute>{});
  props.operandSegmentSizes = {static_cast<int32_t>(ins.size()),
                               static_cast<int32_t>(outs.size())};
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (Value v : ins)
    block->addArgument(v.getType(), state.location);
  for (Value v : outs)
    block->addArgument(v.getType(), state.location);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(block);
  YieldOp::create(b, state.location);
}

// @name knobs<...> ins(...) outs(...) attributes {...} { body }
ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr name;
  if (parser.parseSymbolName(name))
    return failure();
  Properties &props = result.getOrAddProperties<Properties>();
  props.sym_name = name;
  if (succeeded(parser.parseOptionalKeyword("knobs"))) {
    Attribute knobs = KnobsAttr::parse(parser, Type());
    if (!knobs)
      return failure();
    props.knobs = cast<KnobsAttr>(knobs);
  } else {
    props.knobs =
        KnobsAttr::get(parser.getContext(), ArrayRef<NamedAttribute>{});
  }
  if (succeeded(parser.parseOptionalKeyword("zero_init"))) {
    SmallVector<int64_t> zeroInit;
    if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, [&]() {
          return parser.parseInteger(zeroInit.emplace_back());
        }))
      return failure();
    props.zero_init = parser.getBuilder().getDenseI64ArrayAttr(zeroInit);
  }
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
  props.operandSegmentSizes = {numInputs,
                               static_cast<int32_t>(args.size()) - numInputs};
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, args))
    return failure();
  KernelOp::ensureTerminator(*body, parser.getBuilder(), result.location);
  return success();
}

void KernelOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printSymbolName(getSymName());
  if (!getKnobs().empty()) {
    p << " knobs";
    getKnobs().print(p);
  }
  if (std::optional<ArrayRef<int64_t>> zeroInit = getZeroInit())
    p << " zero_init [" << *zeroInit << ']';
  printBindings(p, "ins", getInputArgs(), getInputs());
  printBindings(p, "outs", getOutputArgs(), getOutputs());
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      {"sym_name", "knobs", "zero_init", "operandSegmentSizes"});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
}

Block::BlockArgListType KernelOp::getInputArgs() {
  return getBody().front().getArguments().take_front(getInputs().size());
}

Block::BlockArgListType KernelOp::getOutputArgs() {
  return getBody().front().getArguments().drop_front(getInputs().size());
}

void KernelOp::getAsmBlockArgumentNames(Region &region,
                                        OpAsmSetValueNameFn setNameFn) {
  nameKernelArgs(region, getInputs().size(), setNameFn);
}

TileOp KernelOp::getTile() {
  auto tiles = getBody().front().getOps<TileOp>();
  return tiles.empty() ? TileOp() : *tiles.begin();
}

bool KernelOp::isZeroInit(unsigned i) {
  std::optional<ArrayRef<int64_t>> zeroInit = getZeroInit();
  return zeroInit && llvm::is_contained(*zeroInit, static_cast<int64_t>(i));
}

LogicalResult KernelOp::verify() {
  if (failed(verifyKernelBuffers(*this, getSymName(), getBuffers(),
                                 getOutputs().size())))
    return failure();
  if (std::optional<ArrayRef<int64_t>> zeroInit = getZeroInit()) {
    int64_t previous = -1;
    for (int64_t i : *zeroInit) {
      if (i < 0 || i >= static_cast<int64_t>(getOutputs().size()))
        return emitOpError("zero_init index ")
               << i << " is not an output (the kernel has "
               << getOutputs().size() << ")";
      if (i <= previous)
        return emitOpError("zero_init indices must be strictly increasing");
      previous = i;
    }
  }
  return success();
}

LogicalResult KernelOp::verifyRegions() {
  if (failed(verifyKernelBody(*this, getBody().front(), getBuffers(),
                              getInputs().size())))
    return failure();
  auto tiles = getBody().front().getOps<TileOp>();
  if (std::distance(tiles.begin(), tiles.end()) > 1)
    return emitOpError("expected at most one dtile.tile in a kernel");
  return success();
}

//===----------------------------------------------------------------------===//
// Axis names
//===----------------------------------------------------------------------===//

/// Sanitises an axis name into an SSA name hint.
static std::string axisNameHint(StringRef axis) {
  return isIdentifier(axis) ? axis.str() : std::string("i");
}

//===----------------------------------------------------------------------===//
// TileOp
//===----------------------------------------------------------------------===//

void TileOp::build(OpBuilder &b, OperationState &state,
                   ArrayRef<StringRef> blockAxes,
                   ArrayRef<int64_t> blockExtents,
                   ArrayRef<StringRef> threadAxes,
                   ArrayRef<int64_t> threadExtents) {
  Properties &props = state.getOrAddProperties<Properties>();
  props.block_axes = b.getStrArrayAttr(blockAxes);
  props.block_extents = b.getDenseI64ArrayAttr(blockExtents);
  props.thread_axes = b.getStrArrayAttr(threadAxes);
  props.thread_extents = b.getDenseI64ArrayAttr(threadExtents);
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (size_t i = 0, e = blockAxes.size() + threadAxes.size(); i < e; ++i)
    block->addArgument(b.getIndexType(), state.location);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(block);
  YieldOp::create(b, state.location);
}

/// Parses `keyword(%a : 32 "a", ...)`, or nothing when `keyword` is absent.
static ParseResult parseAxes(OpAsmParser &parser, StringRef keyword,
                             SmallVectorImpl<OpAsmParser::Argument> &args,
                             SmallVectorImpl<Attribute> &names,
                             SmallVectorImpl<int64_t> &extents) {
  if (failed(parser.parseOptionalKeyword(keyword)))
    return success();
  return parser.parseCommaSeparatedList(
      OpAsmParser::Delimiter::Paren, [&]() -> ParseResult {
        OpAsmParser::Argument arg;
        std::string name;
        if (parser.parseArgument(arg) || parser.parseColon() ||
            parser.parseInteger(extents.emplace_back()) ||
            parser.parseString(&name))
          return failure();
        arg.type = parser.getBuilder().getIndexType();
        args.push_back(arg);
        names.push_back(parser.getBuilder().getStringAttr(name));
        return success();
      });
}

// blocks(%r : 32 "r") cluster [2] threads(%t : 256 "t") attributes {...}
//     { body }
ParseResult TileOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::Argument> args;
  SmallVector<Attribute> blockNames, threadNames;
  SmallVector<int64_t> blockExtents, threadExtents, cluster;
  Builder &b = parser.getBuilder();
  Properties &props = result.getOrAddProperties<Properties>();
  if (parseAxes(parser, "blocks", args, blockNames, blockExtents))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("cluster"))) {
    if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, [&]() {
          return parser.parseInteger(cluster.emplace_back());
        }))
      return failure();
    props.cluster = b.getDenseI64ArrayAttr(cluster);
  }
  if (parseAxes(parser, "threads", args, threadNames, threadExtents) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  props.block_axes = b.getArrayAttr(blockNames);
  props.block_extents = b.getDenseI64ArrayAttr(blockExtents);
  props.thread_axes = b.getArrayAttr(threadNames);
  props.thread_extents = b.getDenseI64ArrayAttr(threadExtents);
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, args))
    return failure();
  TileOp::ensureTerminator(*body, b, result.location);
  return success();
}

void TileOp::print(OpAsmPrinter &p) {
  auto printAxes = [&](StringRef keyword, ArrayAttr names,
                       ArrayRef<int64_t> extents,
                       ArrayRef<BlockArgument> coords) {
    if (names.empty())
      return;
    p << ' ' << keyword << '(';
    for (unsigned i = 0, e = names.size(); i < e; ++i) {
      if (i)
        p << ", ";
      p << coords[i] << " : " << extents[i] << ' ';
      p.printString(cast<StringAttr>(names[i]).getValue());
    }
    p << ')';
  };
  ArrayRef<BlockArgument> coords = getBody().front().getArguments();
  unsigned numBlock = getBlockAxes().size();
  printAxes("blocks", getBlockAxes(), getBlockExtents(),
            coords.take_front(numBlock));
  if (std::optional<ArrayRef<int64_t>> cluster = getCluster())
    p << " cluster [" << *cluster << ']';
  printAxes("threads", getThreadAxes(), getThreadExtents(),
            coords.drop_front(numBlock));
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {"block_axes", "block_extents", "thread_axes",
                            "thread_extents", "cluster"});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/false);
}

void TileOp::getAsmBlockArgumentNames(Region &region,
                                      OpAsmSetValueNameFn setNameFn) {
  unsigned i = 0;
  for (ArrayAttr names : {getBlockAxes(), getThreadAxes()})
    for (Attribute name : names)
      setNameFn(region.getArgument(i++),
                axisNameHint(cast<StringAttr>(name).getValue()));
}

SmallVector<StringRef> TileOp::getAxisNames() {
  SmallVector<StringRef> names;
  for (ArrayAttr group : {getBlockAxes(), getThreadAxes()})
    for (Attribute name : group)
      names.push_back(cast<StringAttr>(name).getValue());
  return names;
}

std::optional<Interval> TileOp::getCoordRange(BlockArgument arg) {
  if (arg.getOwner()->getParentOp() != getOperation())
    return std::nullopt;
  unsigned i = arg.getArgNumber(), numBlock = getBlockExtents().size();
  int64_t extent =
      i < numBlock ? getBlockExtents()[i] : getThreadExtents()[i - numBlock];
  return Interval{0, extent - 1};
}

BlockArgument TileOp::getBlockCoord(unsigned i) {
  return getBody().getArgument(i);
}

BlockArgument TileOp::getThreadCoord(unsigned i) {
  return getBody().getArgument(getBlockAxes().size() + i);
}

BlockArgument TileOp::getCoord(StringRef name) {
  unsigned i = 0;
  for (ArrayAttr names : {getBlockAxes(), getThreadAxes()})
    for (Attribute axis : names) {
      if (cast<StringAttr>(axis).getValue() == name)
        return getBody().getArgument(i);
      ++i;
    }
  return {};
}

/// The product of `extents`, saturating at INT64_MAX: huge extents must
/// fail the thread limit, not wrap around below it.
static int64_t saturatingProduct(ArrayRef<int64_t> extents) {
  int64_t n = 1;
  for (int64_t e : extents)
    if (llvm::MulOverflow(n, e, n))
      return std::numeric_limits<int64_t>::max();
  return n;
}

int64_t TileOp::getNumThreads() {
  return saturatingProduct(getThreadExtents());
}

int64_t TileOp::getNumBlocks() { return saturatingProduct(getBlockExtents()); }

int64_t TileOp::getClusterExtent(unsigned i) {
  std::optional<ArrayRef<int64_t>> cluster = getCluster();
  return cluster && i < cluster->size() ? (*cluster)[i] : 1;
}

bool TileOp::isThreadAxis(StringRef name) {
  return llvm::any_of(getThreadAxes(), [&](Attribute axis) {
    return cast<StringAttr>(axis).getValue() == name;
  });
}

LogicalResult TileOp::verify() {
  if (getBlockAxes().size() != getBlockExtents().size() ||
      getThreadAxes().size() != getThreadExtents().size())
    return emitOpError("expected one extent per axis");
  unsigned numAxes = getBlockAxes().size() + getThreadAxes().size();
  if (numAxes == 0)
    return emitOpError("expected at least one block or thread axis");
  Block &block = getBody().front();
  if (block.getNumArguments() != numAxes ||
      !llvm::all_of(block.getArgumentTypes(),
                    [](Type t) { return t.isIndex(); }))
    return emitOpError("expected one index block argument per axis");
  llvm::StringSet<> seen;
  for (ArrayAttr names : {getBlockAxes(), getThreadAxes()})
    for (Attribute name : names) {
      StringRef axis = cast<StringAttr>(name).getValue();
      if (!isIdentifier(axis))
        return emitOpError("axis name \"") << axis << "\" is not an identifier";
      if (!seen.insert(axis).second)
        return emitOpError("axis \"") << axis << "\" is bound twice";
    }
  for (ArrayRef<int64_t> extents : {getBlockExtents(), getThreadExtents()})
    for (int64_t e : extents)
      if (e < 1)
        return emitOpError("axis extents must be at least 1, got ") << e;
  if (int64_t threads = getNumThreads(); threads > 1024) {
    InFlightDiagnostic diag = emitOpError("binds ");
    if (threads == std::numeric_limits<int64_t>::max())
      diag << "more than " << threads;
    else
      diag << threads;
    return diag << " threads per block; the limit is 1024";
  }
  if (std::optional<ArrayRef<int64_t>> cluster = getCluster()) {
    if (cluster->size() != getBlockExtents().size())
      return emitOpError("cluster has ")
             << cluster->size() << " extents for " << getBlockExtents().size()
             << " block axes";
    int64_t blocks = 1;
    for (auto [extent, axis] : llvm::zip(*cluster, getBlockExtents())) {
      if (extent < 1 || axis % extent != 0)
        return emitOpError("cluster extent ")
               << extent << " does not divide its block axis of extent "
               << axis;
      blocks *= extent;
    }
    // The portable cluster size of every GPU with clusters.
    if (blocks > 8)
      return emitOpError("cluster of ")
             << blocks << " blocks; a cluster has at most 8";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// StridedForOp
//===----------------------------------------------------------------------===//

void StridedForOp::build(OpBuilder &b, OperationState &state, Value start,
                         int64_t extent, int64_t step, LoopKind kind,
                         StringRef axis, ValueRange inits) {
  state.addOperands(start);
  state.addOperands(inits);
  state.addTypes(inits.getTypes());
  Properties &props = state.getOrAddProperties<Properties>();
  props.extent = extent;
  props.step = step;
  props.kind = kind;
  props.axis = b.getStringAttr(axis);
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  block->addArgument(b.getIndexType(), state.location);
  for (Value init : inits)
    block->addArgument(init.getType(), state.location);
  if (inits.empty()) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(block);
    YieldOp::create(b, state.location);
  }
}

// %i = %start to 2048 step 256 reduce "k" iter(...) unroll 4 { body } attrs
ParseResult StridedForOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::Argument iv;
  OpAsmParser::UnresolvedOperand start;
  int64_t extent, step;
  std::string kindName, axis;
  Builder &b = parser.getBuilder();
  if (parser.parseArgument(iv) || parser.parseEqual() ||
      parser.parseOperand(start) || parser.parseKeyword("to") ||
      parser.parseInteger(extent) || parser.parseKeyword("step") ||
      parser.parseInteger(step) ||
      parser.resolveOperand(start, b.getIndexType(), result.operands))
    return failure();
  SMLoc kindLoc = parser.getCurrentLocation();
  if (parser.parseKeywordOrString(&kindName) || parser.parseString(&axis))
    return failure();
  std::optional<LoopKind> kind = symbolizeLoopKind(kindName);
  if (!kind)
    return parser.emitError(kindLoc, "expected 'free' or 'reduce'");
  Properties &props = result.getOrAddProperties<Properties>();
  props.extent = extent;
  props.step = step;
  props.kind = *kind;
  props.axis = b.getStringAttr(axis);
  iv.type = b.getIndexType();
  SmallVector<OpAsmParser::Argument> args{iv};
  SmallVector<OpAsmParser::UnresolvedOperand> inits;
  SmallVector<Type> types;
  SMLoc initsLoc = parser.getCurrentLocation();
  if (parseBindings(parser, "iter", args, inits, types) ||
      parser.resolveOperands(inits, types, initsLoc, result.operands))
    return failure();
  result.addTypes(types);
  if (succeeded(parser.parseOptionalKeyword("unroll"))) {
    int64_t unroll;
    if (parser.parseInteger(unroll))
      return failure();
    props.unroll = b.getI64IntegerAttr(unroll);
  }
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, args))
    return failure();
  StridedForOp::ensureTerminator(*body, b, result.location);
  return parser.parseOptionalAttrDict(result.attributes);
}

void StridedForOp::print(OpAsmPrinter &p) {
  p << ' ' << getInductionVar() << " = " << getStart() << " to " << getExtent()
    << " step " << getStep() << ' ' << stringifyLoopKind(getKind()) << ' ';
  p.printString(getAxis());
  printBindings(p, "iter", getIterArgs(), getInitArgs());
  if (std::optional<uint64_t> unroll = getUnroll())
    p << " unroll " << *unroll;
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/!getInitArgs().empty());
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {"extent", "step", "kind", "axis", "unroll"});
}

void StridedForOp::getAsmBlockArgumentNames(Region &region,
                                            OpAsmSetValueNameFn setNameFn) {
  setNameFn(getInductionVar(), axisNameHint(getAxis()));
  for (BlockArgument arg : getIterArgs())
    setNameFn(arg, "acc");
}

SmallVector<StringRef> StridedForOp::getAxisNames() { return {getAxis()}; }

std::optional<Interval> StridedForOp::getCoordRange(BlockArgument arg) {
  if (arg != getInductionVar())
    return std::nullopt;
  // Starts at a coordinate of at least 0 and stays below the extent.
  return Interval{0, getExtent() - 1};
}

// Everything is checked here rather than in verifyRegions: the
// LoopLikeOpInterface verifier runs with the regions, before verifyRegions,
// and would report the same mistakes less clearly (or read past the body
// arguments when the induction variable is missing).
LogicalResult StridedForOp::verify() {
  if (getExtent() < 1)
    return emitOpError("extent must be at least 1, got ") << getExtent();
  if (getStep() < 1)
    return emitOpError("step must be at least 1, got ") << getStep();
  if (std::optional<uint64_t> unroll = getUnroll();
      unroll && static_cast<int64_t>(*unroll) < 1)
    return emitOpError("unroll factor must be at least 1, got ")
           << static_cast<int64_t>(*unroll);
  if (!isIdentifier(getAxis()))
    return emitOpError("axis name \"")
           << getAxis() << "\" is not an identifier";
  OperandRange inits = getInitArgs();
  if (!isReduction() && !inits.empty())
    return emitOpError("a free loop cannot carry values; use a reduce loop");

  Block &body = getBody().front();
  // A missing or foreign terminator is reported by
  // SingleBlockImplicitTerminator.
  auto yield = body.empty() ? YieldOp() : dyn_cast<YieldOp>(body.back());
  if (failed(verifyLoopCarriedValues(
          *this, body, inits,
          yield ? std::optional<OperandRange>(yield.getValues())
                : std::nullopt)))
    return failure();
  if (isReduction() && inits.empty()) {
    WalkResult found = getBody().walk([](dloop::StoreOp store) {
      return store.isReducing() ? WalkResult::interrupt()
                                : WalkResult::advance();
    });
    if (!found.wasInterrupted())
      return emitOpError("a reduce loop must carry an accumulator or contain "
                         "a reducing store");
  }
  return verifyAxisNotShadowed(*this, getAxis());
}

SmallVector<Region *> StridedForOp::getLoopRegions() { return {&getBody()}; }

std::optional<SmallVector<Value>> StridedForOp::getLoopInductionVars() {
  return SmallVector<Value>{getInductionVar()};
}

std::optional<SmallVector<OpFoldResult>> StridedForOp::getLoopLowerBounds() {
  return SmallVector<OpFoldResult>{getStart()};
}

std::optional<SmallVector<OpFoldResult>> StridedForOp::getLoopUpperBounds() {
  return SmallVector<OpFoldResult>{
      Builder(getContext()).getIndexAttr(getExtent())};
}

std::optional<SmallVector<OpFoldResult>> StridedForOp::getLoopSteps() {
  return SmallVector<OpFoldResult>{
      Builder(getContext()).getIndexAttr(getStep())};
}

std::optional<ResultRange> StridedForOp::getLoopResults() {
  return getResults();
}

Block::BlockArgListType StridedForOp::getRegionIterArgs() {
  return getIterArgs();
}

MutableArrayRef<OpOperand> StridedForOp::getInitsMutable() {
  return getInitArgsMutable();
}

std::optional<MutableArrayRef<OpOperand>>
StridedForOp::getYieldedValuesMutable() {
  return cast<YieldOp>(getBody().front().getTerminator()).getValuesMutable();
}

//===----------------------------------------------------------------------===//
// CombineOp
//===----------------------------------------------------------------------===//

LogicalResult CombineOp::verify() {
  if (!getValue().getType().isIntOrFloat())
    return emitOpError("expected an integer or float value");
  if (failed(verifyReduceKind(*this, getKind(), getValue().getType())))
    return failure();
  auto tile = (*this)->getParentOfType<TileOp>();
  if (!tile)
    return emitOpError("must be inside a dtile.tile");
  if (getOver().empty())
    return emitOpError("expected at least one thread axis to combine over");
  llvm::StringSet<> seen;
  for (Attribute name : getOver()) {
    StringRef axis = cast<StringAttr>(name).getValue();
    if (!tile.isThreadAxis(axis))
      return emitOpError("\"") << axis << "\" is not a thread axis of the tile";
    if (!seen.insert(axis).second)
      return emitOpError("axis \"") << axis << "\" is listed twice";
  }
  return success();
}

void CombineOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // A block-wide exchange through shared memory with barriers: model it as
  // reading and writing unknown memory, so that no cleanup sinks it into a
  // branch some threads skip, hoists it out of a loop or merges two of them.
  effects.emplace_back(MemoryEffects::Read::get());
  effects.emplace_back(MemoryEffects::Write::get());
}

//===----------------------------------------------------------------------===//
// AsyncWaitOp
//===----------------------------------------------------------------------===//

LogicalResult AsyncWaitOp::verify() {
  if (getKeep() < 0)
    return emitOpError("keep must not be negative");
  // Named slabs are waited for whole; a count would be ambiguous with them.
  if (!getSlabs().empty() && getKeep() != 0)
    return emitOpError("naming slabs needs keep 0");
  if (!(*this)->getParentOfType<TileOp>())
    return emitOpError("must be inside a dtile.tile");
  return success();
}

void AsyncWaitOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // Orders the block's shared-memory traffic: model as read + write.
  effects.emplace_back(MemoryEffects::Read::get());
  effects.emplace_back(MemoryEffects::Write::get());
}

//===----------------------------------------------------------------------===//
// YieldOp
//===----------------------------------------------------------------------===//

LogicalResult YieldOp::verify() {
  // The printer elides these terminators, so values on them would be lost.
  Operation *parent = (*this)->getParentOp();
  if (isa<KernelOp, TileOp>(parent) && !getValues().empty())
    return emitOpError() << parent->getName() << " body yields no values";
  return success();
}

#define GET_OP_CLASSES
#include "Deplodock/Dialect/DTile/IR/DTileOps.cpp.inc"
