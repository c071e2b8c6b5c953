//===- StageOp.cpp - dtile.stage: operands staged in shared memory ------===//
//
// Parsing, printing and verifying dtile.stage, the Tile op with the most
// properties (slab shape, padding, swizzle, transport, transpose): its
// checks are the bulk of the dialect's verifier.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Dialect/DTile/IR/DTileOps.h"

#include "Deplodock/Dialect/Common/AffineBounds.h"
#include "Deplodock/Dialect/Common/Swizzle.h"
#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

SmallVector<int64_t> StageOp::getPadding() {
  if (std::optional<ArrayRef<int64_t>> pad = getPad())
    return SmallVector<int64_t>(*pad);
  return SmallVector<int64_t>(getBox().size(), 0);
}

std::optional<int64_t> StageOp::getCpAsyncRunBytes() {
  // A computed slab passes through registers: no copy bypasses them.
  if (isComputed())
    return std::nullopt;
  // A transposed slab is written one element at a time (a source row
  // scatters down a slab column): only 4-byte elements fit cp.async.
  if (!getTranspose())
    return getAlignedRunBytes();
  if (cast<MemRefType>(getSource().getType()).getElementTypeBitWidth() != 32)
    return std::nullopt;
  return 4;
}

bool StageOp::mayOverhang(unsigned dim) {
  AffineMap map = getMap();
  std::optional<Interval> range = dloop::getAccessRange(
      map.getResult(dim), map.getNumDims(), getOrigin(), *this);
  // hi + box > size, without a sum that may pass 64 bits.
  return !range ||
         range->hi > cast<MemRefType>(getSource().getType()).getDimSize(dim) -
                         getBox()[dim];
}

std::optional<int64_t> StageOp::getAlignedRunBytes() {
  if (getTranspose())
    return std::nullopt;
  auto source = cast<MemRefType>(getSource().getType());
  int64_t elementBytes =
      (source.getElementType().getIntOrFloatBitWidth() + 7) / 8;
  ArrayRef<int64_t> box = getBox();
  bool scalar = box.empty();
  int64_t innerBox = scalar ? 1 : box.back();
  int64_t innerSource = scalar ? 1 : source.getShape().back();
  int64_t innerSlab = scalar ? 1 : box.back() + getPadding().back();
  AffineExpr innerOrigin = scalar ? getAffineConstantExpr(0, getContext())
                                  : getMap().getResults().back();
  for (int64_t run : {16, 8, 4}) {
    if (run % elementBytes != 0)
      continue;
    int64_t n = run / elementBytes;
    if (innerBox % n == 0 && innerSource % n == 0 && innerSlab % n == 0 &&
        innerOrigin.isMultipleOf(n))
      return run;
  }
  return std::nullopt;
}

// %src[map] box [..] zero_fill pad [..] buffers N slot %s transport T
//     swizzle S multicast attributes {...} : memref<..> -> memref<..>
//     (apply(%in : memref<..>, ...) { region })?
ParseResult StageOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &b = parser.getBuilder();
  OpAsmParser::UnresolvedOperand source, slot;
  SmallVector<OpAsmParser::UnresolvedOperand> origin;
  Properties &props = result.getOrAddProperties<Properties>();
  NamedAttrList mapAttrs;
  SmallVector<int64_t> box, pad;
  bool hasSlot = false;
  if (parser.parseOperand(source) ||
      parser.parseAffineMapOfSSAIds(origin, props.map, "map", mapAttrs) ||
      parser.parseKeyword("box") ||
      parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, [&]() {
        return parser.parseInteger(box.emplace_back());
      }))
    return failure();
  props.map = cast<AffineMapAttr>(mapAttrs.get("map"));
  props.box = b.getDenseI64ArrayAttr(box);
  props.transpose = succeeded(parser.parseOptionalKeyword("transpose"));
  props.zero_fill = succeeded(parser.parseOptionalKeyword("zero_fill"));
  if (succeeded(parser.parseOptionalKeyword("pad"))) {
    if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, [&]() {
          return parser.parseInteger(pad.emplace_back());
        }))
      return failure();
    props.pad = b.getDenseI64ArrayAttr(pad);
  }
  if (succeeded(parser.parseOptionalKeyword("buffers"))) {
    if (parser.parseInteger(props.buffers) || parser.parseKeyword("slot") ||
        parser.parseOperand(slot))
      return failure();
    hasSlot = true;
  }
  if (succeeded(parser.parseOptionalKeyword("transport"))) {
    std::string name;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeywordOrString(&name))
      return failure();
    std::optional<Transport> transport = symbolizeTransport(name);
    if (!transport)
      return parser.emitError(loc, "expected 'sync', 'cp_async' or 'tma'");
    props.transport = *transport;
  }
  if (succeeded(parser.parseOptionalKeyword("swizzle")) &&
      parser.parseInteger(props.swizzle))
    return failure();
  props.multicast = succeeded(parser.parseOptionalKeyword("multicast"));
  Type sourceType, resultType;
  Type index = b.getIndexType();
  if (parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(sourceType) || parser.parseArrow() ||
      parser.parseType(resultType) ||
      parser.resolveOperand(source, sourceType, result.operands) ||
      parser.resolveOperands(origin, index, result.operands) ||
      (hasSlot && parser.resolveOperand(slot, index, result.operands)))
    return failure();
  Region *body = result.addRegion();
  int32_t numInputs = 0;
  if (succeeded(parser.parseOptionalKeyword("apply"))) {
    SmallVector<OpAsmParser::UnresolvedOperand> inputs;
    SmallVector<Type> inputTypes;
    if (parser.parseLParen())
      return failure();
    if (failed(parser.parseOptionalRParen())) {
      if (parser.parseCommaSeparatedList([&]() {
            return failure(parser.parseOperand(inputs.emplace_back()) ||
                           parser.parseColonType(inputTypes.emplace_back()));
          }) ||
          parser.parseRParen())
        return failure();
    }
    if (parser.resolveOperands(inputs, inputTypes, parser.getNameLoc(),
                               result.operands) ||
        parser.parseRegion(*body))
      return failure();
    numInputs = static_cast<int32_t>(inputs.size());
  }
  props.operandSegmentSizes = {1, static_cast<int32_t>(origin.size()),
                               hasSlot ? 1 : 0, numInputs};
  result.addTypes(resultType);
  return success();
}

void StageOp::print(OpAsmPrinter &p) {
  p << ' ' << getSource() << '[';
  p.printAffineMapOfSSAIds(getMapAttr(), getOrigin());
  p << "] box [" << getBox() << ']';
  if (getTranspose())
    p << " transpose";
  if (getZeroFill())
    p << " zero_fill";
  if (getPad())
    p << " pad [" << *getPad() << ']';
  if (getSlot())
    p << " buffers " << getBuffers() << " slot " << getSlot();
  if (getTransport() != Transport::sync)
    p << " transport " << stringifyTransport(getTransport());
  if (getSwizzle() != 0)
    p << " swizzle " << getSwizzle();
  if (getMulticast())
    p << " multicast";
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {"map", "box", "pad", "buffers", "transport",
                           "swizzle", "zero_fill", "transpose", "multicast",
                           "operandSegmentSizes"});
  p << " : " << getSource().getType() << " -> " << getType();
  if (!isComputed())
    return;
  p << " apply(";
  llvm::interleaveComma(getInputs(), p, [&](Value input) {
    p << input << " : " << input.getType();
  });
  p << ") ";
  p.printRegion(getBody(), /*printEntryBlockArgs=*/true);
}

/// Checks, where the values of its indices are known exactly, that the box
/// of `op` lies inside its source (or, zero-filled, starts in it) and its
/// slot inside its buffers.
static LogicalResult verifyStageBounds(StageOp op) {
  auto sourceType = cast<MemRefType>(op.getSource().getType());
  AffineMap map = op.getMap();
  ArrayRef<int64_t> box = op.getBox();
  for (auto [d, expr] : llvm::enumerate(map.getResults())) {
    if (op.getZeroFill()) {
      // Past the end reads zeros, but the box must start inside.
      std::optional<Interval> range =
          dloop::getAccessRange(expr, map.getNumDims(), op.getOrigin(), op);
      int64_t size = sourceType.getDimSize(d);
      if (!range || Interval{0, size - 1}.contains(*range))
        continue;
      std::string text;
      llvm::raw_string_ostream(text) << expr;
      return op.emitOpError("origin ")
             << d << " (" << text << ") ranges over [" << range->lo << ", "
             << range->hi << "], outside the dimension of size " << size;
    }
    std::optional<Interval> range =
        dloop::getAccessRange(expr, map.getNumDims(), op.getOrigin(), op);
    int64_t size = sourceType.getDimSize(d);
    Interval origins{0, size - box[d]};
    if (!range || origins.contains(*range))
      continue;
    std::string text;
    llvm::raw_string_ostream(text) << expr;
    return op.emitOpError("origin ")
           << d << " (" << text << ") ranges over [" << range->lo << ", "
           << range->hi << "], but a box of extent " << box[d]
           << " in a dimension of size " << size << " must start in [0, "
           << origins.hi << "]";
  }
  if (Value slot = op.getSlot()) {
    std::optional<Interval> range = dloop::getIndexRange(slot, op);
    if (range && !Interval{0, op.getBuffers() - 1}.contains(*range))
      return op.emitOpError("slot ranges over [")
             << range->lo << ", " << range->hi << "] but the stage has "
             << op.getBuffers() << " buffers";
  }
  return success();
}

/// Whether `value` is computed (within `tile`) from `coord`.
static bool dependsOn(Value value, BlockArgument coord, TileOp tile) {
  SmallVector<Value> work = {value};
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (v == coord)
      return true;
    Operation *def = v.getDefiningOp();
    if (!seen.insert(v).second || !def || !tile->isAncestor(def))
      continue;
    llvm::append_range(work, def->getOperands());
  }
  return false;
}

bool dtile::stageOriginDependsOn(StageOp stage, BlockArgument coord,
                                 TileOp tile) {
  AffineMap map = stage.getMap();
  for (auto [j, index] : llvm::enumerate(stage.getOrigin())) {
    bool used = j < map.getNumDims()
                    ? map.isFunctionOfDim(j)
                    : map.isFunctionOfSymbol(j - map.getNumDims());
    if (used && dependsOn(index, coord, tile))
      return true;
  }
  return false;
}

/// A multicast stage is shared by the blocks of a cluster: they must all
/// stage the same box, by TMA.
static LogicalResult verifyMulticast(StageOp op, TileOp tile) {
  if (op.getTransport() != Transport::tma)
    return op.emitOpError("a multicast stage travels by TMA, not ")
           << stringifyTransport(op.getTransport());
  bool clustered = false;
  for (unsigned i = 0, e = tile.getBlockExtents().size(); i < e; ++i) {
    if (tile.getClusterExtent(i) == 1)
      continue;
    clustered = true;
    if (stageOriginDependsOn(op, tile.getBlockCoord(i), tile))
      return op.emitOpError("is multicast to the blocks of a cluster along "
                            "block axis \"")
             << cast<StringAttr>(tile.getBlockAxes()[i]).getValue()
             << "\", but its origin depends on that axis";
  }
  if (!clustered)
    return op.emitOpError("is multicast, but its dtile.tile is not launched "
                          "in clusters of several blocks");
  return success();
}

/// Checks the `apply` region of a computed stage; returns the slab's element
/// type (what the region yields).
static FailureOr<Type> verifyApply(StageOp op) {
  auto sourceType = cast<MemRefType>(op.getSource().getType());
  if (!op.getBody().hasOneBlock())
    return op.emitOpError("apply region must have one block");
  Block &block = op.getBody().front();
  SmallVector<Type> expected{sourceType.getElementType()};
  for (auto [i, input] : llvm::enumerate(op.getInputs())) {
    auto type = cast<MemRefType>(input.getType());
    if (type.getShape() != sourceType.getShape())
      return op.emitOpError("apply buffer ")
             << i << " has shape " << type << ", not the source's "
             << sourceType;
    expected.push_back(type.getElementType());
  }
  if (block.getArgumentTypes() != TypeRange(expected))
    return op.emitOpError("apply region takes one element of the source and "
                          "of each apply buffer, ")
           << expected.size() << " arguments of their element types";
  auto scalar = [](Type type) { return type.isIntOrIndexOrFloat(); };
  for (Operation &inner : block.without_terminator())
    if (inner.getNumRegions() != 0 || !isMemoryEffectFree(&inner) ||
        !llvm::all_of(inner.getOperandTypes(), scalar) ||
        !llvm::all_of(inner.getResultTypes(), scalar))
      return inner.emitOpError("cannot compute a stage's slab: an apply "
                               "region holds only scalar computations");
  auto yield = block.mightHaveTerminator()
                   ? dyn_cast<YieldOp>(block.getTerminator())
                   : YieldOp();
  if (!yield || yield.getValues().size() != 1)
    return op.emitOpError("apply region must yield one element");
  if (op.getTransport() != Transport::sync)
    return op.emitOpError("a computed stage passes its values through "
                          "registers: its transport must be sync, not ")
           << stringifyTransport(op.getTransport());
  if (op.getMulticast())
    return op.emitOpError("a computed stage cannot be multicast");
  return yield.getValues()[0].getType();
}

LogicalResult StageOp::verify() {
  auto sourceType = cast<MemRefType>(getSource().getType());
  auto resultType = cast<MemRefType>(getType());
  int64_t rank = sourceType.getRank();
  AffineMap map = getMap();
  if (map.getNumResults() != rank)
    return emitOpError("origin map has ")
           << map.getNumResults() << " results for a rank-" << rank
           << " source";
  if (map.getNumInputs() != getOrigin().size())
    return emitOpError("origin map takes ")
           << map.getNumInputs() << " indices but " << getOrigin().size()
           << " are given";
  ArrayRef<int64_t> box = getBox();
  if (static_cast<int64_t>(box.size()) != rank)
    return emitOpError("box has rank ")
           << box.size() << " but the source has rank " << rank;
  for (auto [d, extent] : llvm::enumerate(box)) {
    if (extent < 1)
      return emitOpError("box extent ")
             << extent << " of dimension " << d << " is not positive";
    // A zero-filled box may overhang a source smaller than the tile.
    if (!getZeroFill() && extent > sourceType.getDimSize(d))
      return emitOpError("box extent ")
             << extent << " of dimension " << d << " is outside [1, "
             << sourceType.getDimSize(d) << "]";
  }
  if (std::optional<ArrayRef<int64_t>> pad = getPad()) {
    if (pad->size() != box.size())
      return emitOpError("expected one padding per box dimension");
    if (llvm::any_of(*pad, [](int64_t v) { return v < 0; }))
      return emitOpError("padding must not be negative");
  }
  if (getBuffers() < 1)
    return emitOpError("expected at least one buffer");
  {
    // No GPU has 4 GiB of shared memory: a count past it is a typo, and
    // would make every consumer of the stage allocate that many slabs.
    int64_t bytes = (sourceType.getElementTypeBitWidth() + 7) / 8;
    bool overflow = llvm::MulOverflow(bytes, getBuffers(), bytes);
    for (int64_t extent : box)
      overflow |= llvm::MulOverflow(bytes, extent, bytes);
    if (overflow || bytes > (int64_t(1) << 32))
      return emitOpError("holds ")
             << getBuffers()
             << " buffers of its box, more than 4 GiB of shared memory";
  }
  if ((getBuffers() > 1) != static_cast<bool>(getSlot()))
    return emitOpError("a slot operand is needed exactly when there are "
                       "several buffers");
  int64_t swizzle = getSwizzle();
  if (!isSwizzleWidth(swizzle))
    return emitOpError("swizzle must be 0, 32, 64 or 128 bytes, got ")
           << swizzle;
  if (swizzle != 0 &&
      llvm::any_of(getPadding(), [](int64_t v) { return v != 0; }))
    return emitOpError("a swizzled stage cannot be padded: the swizzle "
                       "already spreads its rows over the banks");
  if (getTransport() == Transport::vector) {
    // Every run must be whole and aligned, and read inside the source.
    std::optional<int64_t> run = getCpAsyncRunBytes();
    if (!run || *run < 8)
      return emitOpError("a vector stage needs rows that allow aligned runs "
                         "of 8 or 16 bytes in the source and the slab");
    if (getZeroFill())
      return emitOpError("a vector stage cannot zero-fill");
  }
  if (swizzle != 0) {
    // The slab is cut into swizzle-wide segments of whole pattern repeats.
    int64_t innerBytes =
        box.back() * ((sourceType.getElementTypeBitWidth() + 7) / 8);
    if (innerBytes % swizzle != 0)
      return emitOpError("a ")
             << swizzle << "-byte swizzle splits the inner box dimension into "
             << swizzle << "-byte segments, but its rows are " << innerBytes
             << " bytes";
    int64_t rows = 1;
    for (int64_t extent : box.drop_back())
      rows *= extent;
    if (rows % 8 != 0)
      return emitOpError("a swizzled box needs a multiple of 8 rows (the "
                         "pattern repeats every 8), got ")
             << rows;
  }
  if (getTransport() == Transport::tma &&
      llvm::any_of(getPadding(), [](int64_t v) { return v != 0; }))
    return emitOpError("a tma stage cannot be padded: TMA writes the box "
                       "densely; swizzle it instead");
  auto space =
      dyn_cast_or_null<gpu::AddressSpaceAttr>(resultType.getMemorySpace());
  if (!space || space.getValue() != gpu::AddressSpace::Workgroup)
    return emitOpError("result must live in workgroup memory");
  Type element = sourceType.getElementType();
  if (isComputed()) {
    FailureOr<Type> computed = verifyApply(*this);
    if (failed(computed))
      return failure();
    element = *computed;
  } else if (!getInputs().empty()) {
    return emitOpError("has apply buffers but no apply region");
  }
  SmallVector<int64_t> slabShape(box);
  if (getTranspose()) {
    if (rank < 2)
      return emitOpError("transposes the two innermost dimensions of its "
                         "box, which needs a rank of 2 or more, got ")
             << rank;
    if (getTransport() == Transport::tma || getTransport() == Transport::vector)
      return emitOpError("a transposed stage is copied one element at a "
                         "time, which transport ")
             << stringifyTransport(getTransport()) << " cannot do";
    if (swizzle != 0)
      return emitOpError("a transposed stage cannot be swizzled");
    if (getTransport() == Transport::cp_async && !getCpAsyncRunBytes())
      return emitOpError("a transposed cp_async stage copies 4-byte "
                         "elements one at a time, but its elements are ")
             << (sourceType.getElementTypeBitWidth() + 7) / 8 << " bytes";
    std::swap(slabShape[rank - 1], slabShape[rank - 2]);
  }
  auto expected =
      MemRefType::get(slabShape, element, MemRefLayoutAttrInterface(), space);
  if (resultType != expected)
    return emitOpError(getTranspose()
                           ? "result must be the box of the source with its "
                             "two innermost dimensions swapped, "
                           : "result must be the box of the source, ")
           << expected;
  auto tile = (*this)->getParentOfType<TileOp>();
  if (!tile)
    return emitOpError("must be inside a dtile.tile");
  if (getMulticast() && failed(verifyMulticast(*this, tile)))
    return failure();
  return verifyStageBounds(*this);
}

void StageOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getSourceMutable());
  for (OpOperand &input : getInputsMutable())
    effects.emplace_back(MemoryEffects::Read::get(), &input);
  effects.emplace_back(MemoryEffects::Allocate::get(),
                       llvm::cast<OpResult>(getResult()));
  effects.emplace_back(MemoryEffects::Write::get(),
                       llvm::cast<OpResult>(getResult()));
}
