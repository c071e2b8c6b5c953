//===- DTensorOpsTest.cpp - Tests of the dtensor C++ API ------------------===//
//
// Builds dtensor IR with the C++ builders, as an importer would, and checks
// that the verifiers accept what is well formed and reject what is not.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "Deplodock/Dialect/DTensor/IR/DTensorOps.h"
#include "Deplodock/InitAllDialects.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace deplodock;

namespace {

class DTensorOpsTest : public ::testing::Test {
protected:
  DTensorOpsTest() { loadDeplodockDialects(context); }

  std::string verifyMessage(Operation *op) {
    return test::firstVerifyError(op);
  }

  RankedTensorType tensorType(ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, Float32Type::get(&context));
  }

  MLIRContext context;
  OpBuilder builder{&context};
  Location loc = UnknownLoc::get(&context);
};

/// Builds `x * x` as an elementwise op with a body made in C++.
dtensor::ElementwiseOp buildSquare(OpBuilder &b, Location loc, Value x) {
  auto op = dtensor::ElementwiseOp::create(b, loc, x.getType(), ValueRange{x});
  Block *body = b.createBlock(&op.getBody());
  Type element = cast<ShapedType>(x.getType()).getElementType();
  Value arg = body->addArgument(element, loc);
  Value square = arith::MulFOp::create(b, loc, arg, arg);
  dtensor::YieldOp::create(b, loc, square);
  b.setInsertionPointAfter(op);
  return op;
}

TEST_F(DTensorOpsTest, BuildsRMSNormSumOfSquares) {
  auto module = ModuleOp::create(builder, loc);
  builder.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(
      builder, loc, "ss",
      builder.getFunctionType({tensorType({1, 32, 2048})}, {}));
  builder.setInsertionPointToEnd(func.addEntryBlock());
  Value x = func.getArgument(0);

  auto square = buildSquare(builder, loc, x);
  auto sum = dtensor::ReduceOp::create(
      builder, loc, tensorType({1, 32, 1}), square.getResult(), ReduceKind::add,
      builder.getDenseI64ArrayAttr({2}), /*keepdim=*/true);
  AffineExpr d0, d1, d2;
  bindDims(&context, d0, d1, d2);
  auto broadcast = AffineMap::get(
      3, 0, {d0, d1, getAffineConstantExpr(0, &context)}, &context);
  auto map = dtensor::IndexMapOp::create(
      builder, loc, tensorType({1, 32, 2048}), ValueRange{sum.getResult()},
      builder.getArrayAttr({AffineMapAttr::get(broadcast)}), ArrayAttr(),
      TypedAttr());
  func::ReturnOp::create(builder, loc);

  EXPECT_EQ(verifyMessage(module), "");
  EXPECT_EQ(sum.getKind(), ReduceKind::add);
  EXPECT_TRUE(sum.getKeepdim());
  EXPECT_EQ(map.getMap(0), broadcast);
  EXPECT_FALSE(map.getPredicate(0));
  EXPECT_TRUE(square.getYield().getValue().getDefiningOp<arith::MulFOp>());
  module->erase();
}

TEST_F(DTensorOpsTest, RejectsReduceWithWrongShape) {
  auto module = ModuleOp::create(builder, loc);
  builder.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(
      builder, loc, "bad", builder.getFunctionType({tensorType({4, 8})}, {}));
  builder.setInsertionPointToEnd(func.addEntryBlock());
  dtensor::ReduceOp::create(builder, loc, tensorType({4}), func.getArgument(0),
                            ReduceKind::max, builder.getDenseI64ArrayAttr({1}),
                            /*keepdim=*/true);
  func::ReturnOp::create(builder, loc);
  EXPECT_EQ(verifyMessage(module),
            "'dtensor.reduce' op expected result shape 'tensor<4x1xf32>', "
            "got 'tensor<4xf32>'");
  module->erase();
}

TEST_F(DTensorOpsTest, RejectsOutOfBoundsIndexMap) {
  auto module = ModuleOp::create(builder, loc);
  builder.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(
      builder, loc, "bad", builder.getFunctionType({tensorType({4, 8})}, {}));
  builder.setInsertionPointToEnd(func.addEntryBlock());
  AffineExpr d0, d1;
  bindDims(&context, d0, d1);
  // A transpose that forgets to swap the result shape.
  auto transpose = AffineMap::get(2, 0, {d1, d0}, &context);
  dtensor::IndexMapOp::create(
      builder, loc, tensorType({4, 8}), ValueRange{func.getArgument(0)},
      builder.getArrayAttr({AffineMapAttr::get(transpose)}), ArrayAttr(),
      TypedAttr());
  func::ReturnOp::create(builder, loc);
  EXPECT_EQ(verifyMessage(module),
            "'dtensor.index_map' op source #0 is read out of bounds: index 0 "
            "(d1) ranges over [0, 7] but the source has size 4");
  module->erase();
}

} // namespace
