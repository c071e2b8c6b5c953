//===- MmaFragments.cpp - Pieces the mma.sync rules share -----------------===//

#include "MmaFragments.h"

#include "TileUtils.h"

#include "Deplodock/Dialect/Common/Swizzle.h"
#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace deplodock;

llvm::Error dtile::refuseMma(const Twine &why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), why);
}

Value dtile::skipExtend(Value value) {
  if (auto ext = value.getDefiningOp<arith::ExtFOp>())
    return ext.getIn();
  return value;
}

Value dtile::applyOver(OpBuilder &b, Location loc, AffineExpr expr,
                       ValueRange coords, ValueRange extra) {
  SmallVector<Value> operands(coords);
  llvm::append_range(operands, extra);
  return affine::AffineApplyOp::create(
      b, loc, AffineMap::get(operands.size(), 0, expr), operands);
}

int64_t dtile::slabSwizzle(ArrayRef<int64_t> shape, Type element) {
  return getWidestSwizzle(shape.back() * element.getIntOrFloatBitWidth() / 8,
                          product(shape.drop_back()));
}

SmallVector<Value> dtile::loadMatrices(OpBuilder &b, Location loc, Value slab,
                                       Value row, Value col, Type element,
                                       unsigned matrices, bool trans) {
  int64_t rank = cast<MemRefType>(slab.getType()).getRank();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  SmallVector<Value> indices(rank - 2, zero);
  indices.push_back(row);
  indices.push_back(col);
  auto op = dkernel::LdMatrixOp::create(
      b, loc, SmallVector<Type>(2 * matrices, element), trans, slab, indices);
  return SmallVector<Value>(op.getResults());
}
