//===- MatrixOps.cpp - Warp-level matrix ops (tensor cores) -----*- C++ -*-===//
//
// ldmatrix, mma.sync m16n8k16 and its tf32 m16n8k8: fragments are plain
// registers, one SSA scalar per element, laid out across the warp as the PTX
// ISA specifies.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"

#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dkernel;

//===----------------------------------------------------------------------===//
// LdMatrixOp
//===----------------------------------------------------------------------===//

LogicalResult LdMatrixOp::verify() {
  if (failed(verifySharedMatrixSource(*this, getSrc(), getIndices())))
    return failure();
  auto type = cast<MemRefType>(getSrc().getType());
  // Each lane's row is 8 contiguous elements of the innermost dimension.
  if (type.getRank() == 0 || type.getShape().back() < 8)
    return emitOpError("source rows must hold at least 8 elements, got ")
           << type;
  size_t n = getResults().size();
  if (n != 2 && n != 4 && n != 8)
    return emitOpError("loads 1, 2 or 4 matrices, so it has 2, 4 or 8 "
                       "results, got ")
           << n;
  for (Type result : getResultTypes())
    if (result != type.getElementType())
      return emitOpError("result type ")
             << result << " differs from the source's element type "
             << type.getElementType();
  return success();
}

//===----------------------------------------------------------------------===//
// MmaSyncOp
//===----------------------------------------------------------------------===//

LogicalResult MmaSyncOp::verify() {
  if (getA().empty())
    return emitOpError("takes values of A");
  // tf32 m16n8k8 holds one element per register, m16n8k16 two.
  bool tf32 = isTf32();
  size_t a = tf32 ? 4 : 8, b = tf32 ? 2 : 4;
  if (getA().size() != a || getB().size() != b || getC().size() != 4)
    return emitOpError(tf32 ? "m16n8k8 (tf32) takes " : "m16n8k16 takes ")
           << a << " values of A, " << b << " of B and 4 of C, got "
           << getA().size() << ", " << getB().size() << " and "
           << getC().size();
  Type element = getElementType();
  for (Value v : llvm::concat<Value>(getA(), getB()))
    if (v.getType() != element)
      return emitOpError("multiplicands mix ")
             << element << " and " << v.getType();
  return success();
}

// [%a0, ..., %a7], [%b0, ..., %b3], [%c0, ..., %c3] : f16
void MmaSyncOp::print(OpAsmPrinter &p) {
  p << " [" << getA() << "], [" << getB() << "], [" << getC() << "]";
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getOperandSegmentSizesAttrName()});
  p << " : " << getElementType();
}

ParseResult MmaSyncOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> a, b, c;
  Type element;
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.parseOperandList(a, OpAsmParser::Delimiter::Square) ||
      parser.parseComma() ||
      parser.parseOperandList(b, OpAsmParser::Delimiter::Square) ||
      parser.parseComma() ||
      parser.parseOperandList(c, OpAsmParser::Delimiter::Square) ||
      parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(element))
    return failure();
  Type f32 = parser.getBuilder().getF32Type();
  if (parser.resolveOperands(a, element, loc, result.operands) ||
      parser.resolveOperands(b, element, loc, result.operands) ||
      parser.resolveOperands(c, f32, loc, result.operands))
    return failure();
  result.getOrAddProperties<Properties>().operandSegmentSizes = {
      static_cast<int32_t>(a.size()), static_cast<int32_t>(b.size()),
      static_cast<int32_t>(c.size())};
  result.addTypes({f32, f32, f32, f32});
  return success();
}
