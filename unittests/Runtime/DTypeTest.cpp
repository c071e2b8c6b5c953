//===- DTypeTest.cpp - Element types, conversions, seeded inputs ----------===//
//
// The runtime rounds and draws values on its own, without MLIR: these tests
// hold it to what the reference interpreter does (APFloat rounding,
// interp::randomInputs), since a difference would fail every verification.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Runtime/DType.h"
#include "Deplodock/Runtime/KernelProgram.h"

#include "Deplodock/InitAllDialects.h"
#include "Deplodock/Interpreter/Interpreter.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/bit.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>

using namespace deplodock::runtime;

namespace {

TEST(DType, NamesParseBack) {
  for (DType dtype : {DType::F16, DType::BF16, DType::F32, DType::F64,
                      DType::I1, DType::I8, DType::I16, DType::I32, DType::I64})
    EXPECT_EQ(parseDType(dtypeName(dtype)), dtype);
  EXPECT_FALSE(parseDType("f8"));
  EXPECT_FALSE(parseDType(""));
  EXPECT_EQ(dtypeSize(DType::BF16), 2u);
  EXPECT_EQ(dtypeSize(DType::I1), 1u);
  EXPECT_EQ(dtypeSize(DType::I64), 8u);
  EXPECT_TRUE(isFloat(DType::BF16));
  EXPECT_FALSE(isFloat(DType::I32));
}

/// The bits APFloat gives rounding `v` to `semantics`, ties to even.
uint16_t apfloatBits(double v, const llvm::fltSemantics &semantics) {
  llvm::APFloat value(v);
  bool lost;
  value.convert(semantics, llvm::APFloat::rmNearestTiesToEven, &lost);
  return static_cast<uint16_t>(value.bitcastToAPInt().getZExtValue());
}

TEST(DType, NarrowFloatsRoundLikeAPFloat) {
  std::vector<double> values = {
      0.0,       -0.0,      1.0,          -1.0,          0.1,           65504.0,
      65519.99,  65520.0,   1e6,          -1e6,          6.1e-5,        5.96e-8,
      2.98e-8,   2.99e-8,   1e-10,        3.0e38,        3.4e38,        1e39,
      INFINITY,  -INFINITY, 1.0009765625, 1.00048828125, 1.00146484375, 0x1p-24,
      0x1.8p-25, 0x1p-25,   0x1p-133,     0x1.8p-134};
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> unit(-1, 1);
  std::uniform_int_distribution<int> exponent(-140, 130);
  for (int i = 0; i < 20000; ++i)
    values.push_back(std::ldexp(unit(rng), exponent(rng)));
  for (double v : values) {
    EXPECT_EQ(doubleToHalfBits(v), apfloatBits(v, llvm::APFloat::IEEEhalf()))
        << v;
    EXPECT_EQ(doubleToBF16Bits(v), apfloatBits(v, llvm::APFloat::BFloat()))
        << v;
  }
  EXPECT_TRUE(std::isnan(halfBitsToDouble(doubleToHalfBits(NAN))));
  EXPECT_TRUE(std::isnan(bf16BitsToDouble(doubleToBF16Bits(NAN))));
}

TEST(DType, NarrowFloatsReadBackExactly) {
  // Every finite f16 and bf16 bit pattern survives a round trip.
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    double h = halfBitsToDouble(bits);
    if (!std::isnan(h))
      EXPECT_EQ(doubleToHalfBits(h), bits) << bits;
    double b = bf16BitsToDouble(bits);
    if (!std::isnan(b))
      EXPECT_EQ(doubleToBF16Bits(b), bits) << bits;
  }
  EXPECT_EQ(halfBitsToDouble(0x3c00), 1.0);
  EXPECT_EQ(halfBitsToDouble(0x0001), 0x1p-24);
  EXPECT_EQ(bf16BitsToDouble(0xbf80), -1.0);
}

TEST(DType, IntegersTruncateAndWrap) {
  uint8_t bytes[8];
  writeElement(DType::I8, bytes, 0, 200);
  EXPECT_EQ(readElement(DType::I8, bytes, 0), -56);
  writeElement(DType::I32, bytes, 0, -7.9);
  EXPECT_EQ(readElement(DType::I32, bytes, 0), -7);
  writeElement(DType::I16, bytes, 0, 65537);
  EXPECT_EQ(readElement(DType::I16, bytes, 0), 1);
  writeElement(DType::I1, bytes, 0, 3);
  EXPECT_EQ(readElement(DType::I1, bytes, 0), 1);
  writeElement(DType::I1, bytes, 0, 2);
  EXPECT_EQ(readElement(DType::I1, bytes, 0), 0);
  writeElement(DType::I64, bytes, 0, -0x1p62);
  EXPECT_EQ(readElement(DType::I64, bytes, 0), -0x1p62);
  writeElement(DType::I64, bytes, 0, NAN);
  EXPECT_EQ(readElement(DType::I64, bytes, 0), 0);
  writeElement(DType::F32, bytes, 0, 0.1);
  EXPECT_EQ(readElement(DType::F32, bytes, 0), static_cast<float>(0.1));
}

/// The worker's seeded inputs are the interpreter's, bit for bit, in every
/// dtype: otherwise a CPU reference would not match the GPU run.
TEST(DType, SeededValuesAreTheInterpretersValues) {
  mlir::DialectRegistry registry;
  deplodock::registerDeplodockDialects(registry);
  deplodock::registerDeplodockInputDialects(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(
          "func.func @f(%a: memref<3x5xf16>, %b: memref<17xbf16>, "
          "%c: memref<4x4xf32>, %d: memref<9xf64>, %e: memref<33xi1>, "
          "%f: memref<8xi8>, %g: memref<8xi16>, %h: memref<8xi32>, "
          "%i: memref<8xi64>, %j: memref<8xindex>) { return }",
          &context);
  ASSERT_TRUE(module);
  auto func = *module->getOps<mlir::func::FuncOp>().begin();
  for (uint64_t seed : {0, 1, 12345}) {
    mlir::FailureOr<llvm::SmallVector<deplodock::interp::Buffer>> inputs =
        deplodock::interp::randomInputs(func, seed);
    ASSERT_TRUE(succeeded(inputs));
    for (auto [i, buffer] : llvm::enumerate(*inputs)) {
      std::optional<DType> dtype = getDType(buffer.elementType);
      ASSERT_TRUE(dtype);
      std::vector<uint8_t> bytes(buffer.size() * dtypeSize(*dtype));
      fillSeeded(*dtype, bytes, seed, i);
      EXPECT_EQ(bytes, toBytes(buffer, *dtype))
          << "argument " << i << " seed " << seed;
    }
  }
}

} // namespace
