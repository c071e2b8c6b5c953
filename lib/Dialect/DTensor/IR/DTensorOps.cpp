//===- DTensorOps.cpp - Deplodock tensor dialect ops ------------*- C++ -*-===//

#include "Deplodock/Dialect/DTensor/IR/DTensorOps.h"

#include "Deplodock/Dialect/Common/AffineBounds.h"
#include "Deplodock/Dialect/Common/Reductions.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtensor;

//===----------------------------------------------------------------------===//
// ElementwiseOp
//===----------------------------------------------------------------------===//

// (%a = %x : tensor<4xf32>, ...) -> tensor<4xf32> attributes {...} { body }
ParseResult ElementwiseOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::Argument> args;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SmallVector<Type> types;
  auto parseBinding = [&]() -> ParseResult {
    OpAsmParser::Argument arg;
    OpAsmParser::UnresolvedOperand operand;
    Type type;
    if (parser.parseArgument(arg) || parser.parseEqual() ||
        parser.parseOperand(operand) || parser.parseColonType(type))
      return failure();
    auto shaped = dyn_cast<ShapedType>(type);
    arg.type = shaped ? shaped.getElementType() : type;
    args.push_back(arg);
    operands.push_back(operand);
    types.push_back(type);
    return success();
  };
  Type resultType;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Paren,
                                     parseBinding) ||
      parser.resolveOperands(operands, types, loc, result.operands) ||
      parser.parseArrow() || parser.parseType(resultType) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  result.addTypes(resultType);
  Region *body = result.addRegion();
  return parser.parseRegion(*body, args);
}

void ElementwiseOp::print(OpAsmPrinter &p) {
  p << " (";
  Block &block = getBody().front();
  llvm::interleaveComma(
      llvm::zip(block.getArguments(), getInputs()), p, [&](auto pair) {
        auto [arg, input] = pair;
        p << arg << " = " << input << " : " << input.getType();
      });
  p << ") -> " << getType();
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs());
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

void ElementwiseOp::build(
    OpBuilder &b, OperationState &state, Type resultType, ValueRange inputs,
    function_ref<Value(OpBuilder &, Location, ValueRange)> bodyBuilder) {
  state.addOperands(inputs);
  state.addTypes(resultType);
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (Value input : inputs)
    block->addArgument(cast<ShapedType>(input.getType()).getElementType(),
                       state.location);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(block);
  Value result = bodyBuilder(b, state.location, block->getArguments());
  YieldOp::create(b, state.location, result);
}

YieldOp ElementwiseOp::getYield() {
  return cast<YieldOp>(getBody().front().getTerminator());
}

OpFoldResult ElementwiseOp::fold(FoldAdaptor) {
  // A body that yields one of its operands unchanged is a copy.
  auto arg = dyn_cast<BlockArgument>(getYield().getValue());
  if (!arg || arg.getOwner() != &getBody().front())
    return {};
  Value input = getInputs()[arg.getArgNumber()];
  return input.getType() == getType() ? input : Value();
}

LogicalResult ElementwiseOp::verify() {
  auto resultType = cast<RankedTensorType>(getType());
  for (auto [i, input] : llvm::enumerate(getInputs())) {
    auto type = cast<RankedTensorType>(input.getType());
    if (type.getShape() != resultType.getShape())
      return emitOpError("operand #")
             << i << " has shape " << type << " but the result is "
             << resultType << "; broadcasts must be explicit index maps";
  }
  return success();
}

LogicalResult ElementwiseOp::verifyRegions() {
  Block &block = getBody().front();
  if (block.getNumArguments() != getInputs().size())
    return emitOpError("body takes ")
           << block.getNumArguments() << " arguments but the op has "
           << getInputs().size() << " operands";
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(block.getArguments(), getInputs()))) {
    auto [arg, input] = pair;
    Type element = cast<ShapedType>(input.getType()).getElementType();
    if (arg.getType() != element)
      return emitOpError("body argument #")
             << i << " has type " << arg.getType() << ", expected " << element;
  }
  auto yield = block.empty() ? YieldOp() : dyn_cast<YieldOp>(block.back());
  if (!yield)
    return emitOpError("body must end with dtensor.yield");
  Type element = getType().getElementType();
  if (yield.getValue().getType() != element)
    return emitOpError("body yields ")
           << yield.getValue().getType() << " but the result elements are "
           << element;
  for (Operation &op : block.without_terminator()) {
    StringRef ns = op.getDialect() ? op.getDialect()->getNamespace() : "";
    if (ns != "arith" && ns != "math")
      return op.emitOpError("is not allowed in a dtensor.elementwise body; "
                            "only arith and math ops are");
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::verify() {
  auto inputType = cast<RankedTensorType>(getInput().getType());
  auto resultType = cast<RankedTensorType>(getType());
  ArrayRef<int64_t> axes = getAxes();
  if (axes.empty())
    return emitOpError("expected at least one axis");
  for (auto [i, axis] : llvm::enumerate(axes)) {
    if (axis < 0 || axis >= inputType.getRank())
      return emitOpError("axis ")
             << axis << " is out of range for rank " << inputType.getRank();
    if (i > 0 && axis <= axes[i - 1])
      return emitOpError("axes must be strictly increasing");
  }
  if (inputType.getElementType() != resultType.getElementType())
    return emitOpError("result element type ")
           << resultType.getElementType() << " differs from the input's "
           << inputType.getElementType();
  if (!inputType.getElementType().isIntOrFloat())
    return emitOpError("expected integer or float elements");
  if (failed(verifyReduceKind(*this, getKind(), inputType.getElementType())))
    return failure();
  SmallVector<int64_t> expected;
  for (auto [d, size] : llvm::enumerate(inputType.getShape())) {
    if (!llvm::is_contained(axes, static_cast<int64_t>(d)))
      expected.push_back(size);
    else if (getKeepdim())
      expected.push_back(1);
  }
  if (ArrayRef<int64_t>(expected) != resultType.getShape())
    return emitOpError("expected result shape ")
           << RankedTensorType::get(expected, resultType.getElementType())
           << ", got " << resultType;
  return success();
}

//===----------------------------------------------------------------------===//
// IndexMapOp
//===----------------------------------------------------------------------===//

void IndexMapOp::build(OpBuilder &b, OperationState &state, Type resultType,
                       Value source, AffineMap map) {
  build(b, state, resultType, ValueRange{source},
        b.getArrayAttr({AffineMapAttr::get(map)}), ArrayAttr(), TypedAttr());
}

AffineMap IndexMapOp::getMap(unsigned i) {
  return cast<AffineMapAttr>(getMaps()[i]).getValue();
}

IntegerSet IndexMapOp::getPredicate(unsigned i) {
  ArrayAttr predicates = getPredicatesAttr();
  if (!predicates)
    return {};
  auto set = dyn_cast<IntegerSetAttr>(predicates[i]);
  return set ? set.getValue() : IntegerSet();
}

OpFoldResult IndexMapOp::fold(FoldAdaptor) {
  // Reading every element where it already is.
  if (getSources().size() == 1 && !getPredicate(0) && getMap(0).isIdentity() &&
      getSources()[0].getType() == getType())
    return getSources()[0];
  return {};
}

namespace {
/// index_map(index_map(x)) reads x at the composed map, when neither has
/// predicates: the intermediate layout is never needed.
struct ComposeIndexMaps final : OpRewritePattern<IndexMapOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IndexMapOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getSources().size() != 1 || op.getPredicate(0))
      return failure();
    auto inner = op.getSources()[0].getDefiningOp<IndexMapOp>();
    if (!inner || inner.getSources().size() != 1 || inner.getPredicate(0))
      return failure();
    AffineMap composed = inner.getMap(0).compose(op.getMap(0));
    rewriter.replaceOpWithNewOp<IndexMapOp>(op, op.getType(),
                                            inner.getSources()[0], composed);
    return success();
  }
};
} // namespace

void IndexMapOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                             MLIRContext *context) {
  patterns.add<ComposeIndexMaps>(context);
}

// %a[map] if [set], %b[map] attributes {...}
//     : (tensor<..>, tensor<..>) -> tensor<..> padding 0.0
ParseResult IndexMapOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> sources;
  SmallVector<Attribute> maps, predicates;
  bool anyPredicate = false;
  auto parseSource = [&]() -> ParseResult {
    OpAsmParser::UnresolvedOperand source;
    AffineMap map;
    if (parser.parseOperand(source) || parser.parseLSquare() ||
        parser.parseAffineMap(map) || parser.parseRSquare())
      return failure();
    sources.push_back(source);
    maps.push_back(AffineMapAttr::get(map));
    if (succeeded(parser.parseOptionalKeyword("if"))) {
      IntegerSet set;
      if (parser.parseLSquare() || parser.parseIntegerSet(set) ||
          parser.parseRSquare())
        return failure();
      predicates.push_back(IntegerSetAttr::get(set));
      anyPredicate = true;
    } else {
      predicates.push_back(parser.getBuilder().getUnitAttr());
    }
    return success();
  };
  SmallVector<Type> sourceTypes;
  Type resultType;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseCommaSeparatedList(parseSource) ||
      parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() ||
      parser.parseLParen() || parser.parseTypeList(sourceTypes) ||
      parser.parseRParen() || parser.parseArrow() ||
      parser.parseType(resultType) ||
      parser.resolveOperands(sources, sourceTypes, loc, result.operands))
    return failure();
  result.addTypes(resultType);
  Properties &props = result.getOrAddProperties<Properties>();
  Builder &b = parser.getBuilder();
  props.maps = b.getArrayAttr(maps);
  if (anyPredicate)
    props.predicates = b.getArrayAttr(predicates);
  if (succeeded(parser.parseOptionalKeyword("padding"))) {
    Attribute padding;
    Type element = cast<ShapedType>(resultType).getElementType();
    if (parser.parseAttribute(padding, element))
      return failure();
    props.padding = cast<TypedAttr>(padding);
  }
  return success();
}

void IndexMapOp::print(OpAsmPrinter &p) {
  p << ' ';
  for (unsigned i = 0, e = getSources().size(); i < e; ++i) {
    if (i)
      p << ", ";
    p << getSources()[i] << '[';
    getMap(i).print(p.getStream());
    p << ']';
    if (IntegerSet set = getPredicate(i)) {
      p << " if [";
      set.print(p.getStream());
      p << ']';
    }
  }
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {"maps", "predicates", "padding"});
  p << " : (" << getSources().getTypes() << ") -> " << getType();
  if (getPadding()) {
    p << " padding ";
    p.printAttributeWithoutType(*getPadding());
  }
}

LogicalResult IndexMapOp::verify() {
  auto resultType = cast<RankedTensorType>(getType());
  unsigned rank = resultType.getRank();
  unsigned numSources = getSources().size();
  if (numSources == 0)
    return emitOpError("expected at least one source");
  if (getMaps().size() != numSources)
    return emitOpError("expected ")
           << numSources << " maps, one per source, got " << getMaps().size();
  ArrayAttr predicates = getPredicatesAttr();
  if (predicates && predicates.size() != numSources)
    return emitOpError("expected ")
           << numSources << " predicates, one per source, got "
           << predicates.size();
  if (predicates)
    for (Attribute pred : predicates)
      if (!isa<IntegerSetAttr, UnitAttr>(pred))
        return emitOpError("a predicate must be an integer set or unit");
  if (std::optional<TypedAttr> padding = getPadding())
    if (padding->getType() != resultType.getElementType())
      return emitOpError("padding has type ")
             << padding->getType() << ", expected "
             << resultType.getElementType();

  SmallVector<Interval> box = boxRanges(resultType.getShape());
  for (unsigned i = 0; i < numSources; ++i) {
    auto sourceType = cast<RankedTensorType>(getSources()[i].getType());
    if (sourceType.getElementType() != resultType.getElementType())
      return emitOpError("source #")
             << i << " has element type " << sourceType.getElementType()
             << ", expected " << resultType.getElementType();
    AffineMap map = getMap(i);
    if (map.getNumDims() != rank || map.getNumSymbols() != 0)
      return emitOpError("map of source #")
             << i << " must have " << rank
             << " dimensions (one per result axis) and no symbols";
    if (map.getNumResults() != sourceType.getRank())
      return emitOpError("map of source #")
             << i << " has " << map.getNumResults()
             << " results but the source has rank " << sourceType.getRank();
    // Source i is read only where its predicate holds and no earlier one does.
    SmallVector<Interval> dims = box;
    for (unsigned j = 0; j < i; ++j)
      excludeRanges(getPredicate(j), dims);
    if (IntegerSet set = getPredicate(i)) {
      if (set.getNumDims() != rank || set.getNumSymbols() != 0)
        return emitOpError("predicate of source #")
               << i << " must have " << rank << " dimensions and no symbols";
      narrowRanges(set, dims);
    } else if (i + 1 != numSources) {
      return emitOpError("source #") << i
                                     << " has no predicate, so the sources "
                                        "after it can never be read";
    }
    if (llvm::any_of(dims, [](const Interval &r) { return r.empty(); }))
      continue; // Never applies inside the result; nothing to read.
    for (auto [d, expr] : llvm::enumerate(map.getResults())) {
      std::optional<Interval> range = boundAffineExpr(expr, dims);
      Interval valid{0, sourceType.getDimSize(d) - 1};
      if (!range || valid.contains(*range))
        continue;
      std::string text;
      llvm::raw_string_ostream(text) << expr;
      return emitOpError("source #")
             << i << " is read out of bounds: index " << d << " (" << text
             << ") ranges over [" << range->lo << ", " << range->hi
             << "] but the source has size " << sourceType.getDimSize(d);
    }
  }
  if (getPredicate(numSources - 1) && !getPadding())
    return emitOpError("every source is predicated, so a padding value is "
                       "needed where none applies");
  return success();
}

//===----------------------------------------------------------------------===//
// GatherOp
//===----------------------------------------------------------------------===//

LogicalResult GatherOp::verify() {
  auto sourceType = cast<RankedTensorType>(getSource().getType());
  auto resultType = cast<RankedTensorType>(getType());
  if (sourceType.getElementType() != resultType.getElementType())
    return emitOpError("result element type ")
           << resultType.getElementType() << " differs from the source's "
           << sourceType.getElementType();
  if (static_cast<int64_t>(getIndices().size()) != sourceType.getRank())
    return emitOpError("expected ")
           << sourceType.getRank()
           << " index tensors, one per source axis, got "
           << getIndices().size();
  if (llvm::is_contained(sourceType.getShape(), 0))
    return emitOpError("gathers from an empty source");
  for (auto [i, index] : llvm::enumerate(getIndices())) {
    auto type = cast<RankedTensorType>(index.getType());
    if (type.getShape() != resultType.getShape() ||
        !type.getElementType().isIndex())
      return emitOpError("index tensor #")
             << i << " has type " << type << ", expected "
             << RankedTensorType::get(resultType.getShape(),
                                      IndexType::get(getContext()));
  }
  return success();
}

#define GET_OP_CLASSES
#include "Deplodock/Dialect/DTensor/IR/DTensorOps.cpp.inc"
