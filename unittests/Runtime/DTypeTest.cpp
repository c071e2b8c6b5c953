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
  for (DType dtype :
       {DType::F16, DType::BF16, DType::F32, DType::F64, DType::I1, DType::I8,
        DType::I16, DType::I32, DType::I64, DType::F8E4M3FN, DType::F8E5M2})
    EXPECT_EQ(parseDType(dtypeName(dtype)), dtype);
  EXPECT_EQ(dtypeName(DType::F8E4M3FN), "f8e4m3fn");
  EXPECT_FALSE(parseDType("f8"));
  EXPECT_FALSE(parseDType(""));
  EXPECT_EQ(dtypeSize(DType::BF16), 2u);
  EXPECT_EQ(dtypeSize(DType::I1), 1u);
  EXPECT_EQ(dtypeSize(DType::I64), 8u);
  EXPECT_EQ(dtypeSize(DType::F8E5M2), 1u);
  EXPECT_TRUE(isFloat(DType::BF16));
  EXPECT_TRUE(isFloat(DType::F8E4M3FN));
  EXPECT_FALSE(isFloat(DType::I32));
}

/// The OCP 8-bit formats' landmarks: e4m3fn has no infinity (out of range is
/// NaN, 0x7f) and tops out at 448; e5m2 is IEEE-like, up to 57344.
TEST(DType, EightBitFloatsRoundToTheirFormats) {
  struct Case {
    DType dtype;
    double value;
    uint8_t bits;
  };
  for (Case c : std::initializer_list<Case>{
           {DType::F8E4M3FN, 1.0, 0x38},
           {DType::F8E4M3FN, -2.0, 0xc0},
           {DType::F8E4M3FN, 448.0, 0x7e},
           {DType::F8E4M3FN, 464.0, 0x7e}, // The tie with 480: to even.
           {DType::F8E4M3FN, 465.0, 0x7f}, // Nearer 480, which is NaN.
           {DType::F8E4M3FN, 1e9, 0x7f},
           {DType::F8E4M3FN, 0x1p-9, 0x01},  // The smallest subnormal.
           {DType::F8E4M3FN, 0x1p-10, 0x00}, // Half of it: ties to even.
           {DType::F8E4M3FN, 1.0625, 0x38},  // Tie between 1 and 1.125.
           {DType::F8E4M3FN, 1.1875, 0x3a},  // Tie between 1.125 and 1.25.
           {DType::F8E5M2, 1.0, 0x3c},
           {DType::F8E5M2, 57344.0, 0x7b},
           {DType::F8E5M2, 61440.0, 0x7c}, // The tie with 2^16: infinity.
           {DType::F8E5M2, -INFINITY, 0xfc},
           {DType::F8E5M2, 0x1p-16, 0x01},
           {DType::F8E5M2, 1.125, 0x3c}, // Tie between 1 and 1.25.
       }) {
    EXPECT_EQ(doubleToF8Bits(c.dtype, c.value), c.bits)
        << dtypeName(c.dtype).str() << " " << c.value;
  }
  EXPECT_TRUE(std::isnan(f8BitsToDouble(DType::F8E4M3FN, 0x7f)));
  EXPECT_TRUE(std::isnan(f8BitsToDouble(DType::F8E5M2, 0x7e)));
  EXPECT_EQ(f8BitsToDouble(DType::F8E5M2, 0x7c), INFINITY);
  // Every finite bit pattern survives a round trip through the buffer.
  for (DType dtype : {DType::F8E4M3FN, DType::F8E5M2})
    for (uint32_t bits = 0; bits < 0x100; ++bits) {
      uint8_t byte = static_cast<uint8_t>(bits);
      double v = f8BitsToDouble(dtype, byte);
      if (std::isnan(v))
        continue;
      uint8_t buffer[1];
      writeElement(dtype, buffer, 0, v);
      EXPECT_EQ(buffer[0], byte) << dtypeName(dtype).str();
      EXPECT_EQ(readElement(dtype, buffer, 0), v);
    }
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
          "%i: memref<8xi64>, %j: memref<8xindex>, %k: memref<8xf8E4M3FN>, "
          "%l: memref<8xf8E5M2>) { return }",
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
