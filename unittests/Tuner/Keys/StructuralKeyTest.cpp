//===- StructuralKeyTest.cpp - Tests of structural kernel keys ------------===//
//
// The article's Op A and Op B must share a key; a different constant,
// extent, element type, reduction or load index must not.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Tuner/StructuralKey.h"
#include "Deplodock/InitAllDialects.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace deplodock;

namespace {

class StructuralKeyTest : public ::testing::Test {
protected:
  StructuralKeyTest() { loadDeplodockDialects(context); }

  /// The key of the only dloop.kernel in `source`.
  std::string key(StringRef source) {
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module) << source.str();
    if (!module)
      return "";
    std::string result;
    module->walk([&](dloop::KernelOp k) { result = tuner::structuralKey(k); });
    return result;
  }
  std::string familyKey(StringRef source) {
    OwningOpRef<ModuleOp> module =
        parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module) << source.str();
    std::string result;
    if (module)
      module->walk(
          [&](dloop::KernelOp k) { result = tuner::structuralFamilyKey(k); });
    return result;
  }

  MLIRContext context;
};

/// Op A: a degenerate axis, original buffer names, an add.
constexpr StringLiteral kOpA = R"mlir(
func.func @a(%x: memref<16xf32>, %bias: memref<16xf32>, %y: memref<16x1xf32>) {
  dloop.kernel @a ins(%X = %x : memref<16xf32>, %B = %bias : memref<16xf32>) outs(%Y = %y : memref<16x1xf32>) {
    dloop.for %i = 0 to 16 free "i" {
      dloop.for %j = 0 to 1 free "j" {
        %tmp = dloop.load %X[%i] : memref<16xf32>
        %b = dloop.load %B[%i] : memref<16xf32>
        %r = arith.addf %tmp, %b : f32
        dloop.store %r, %Y[%i, %j] : memref<16x1xf32>
      }
    }
  }
  return
}
)mlir";

/// Op B: other names, no degenerate axis, a subtract.
constexpr StringLiteral kOpB = R"mlir(
func.func @b(%p: memref<16xf32>, %q: memref<16xf32>, %o: memref<16xf32>) {
  dloop.kernel @b ins(%in0 = %p : memref<16xf32>, %in1 = %q : memref<16xf32>) outs(%out0 = %o : memref<16xf32>) {
    dloop.for %k = 0 to 16 free "k" {
      %a = dloop.load %in0[%k] : memref<16xf32>
      %c = dloop.load %in1[%k] : memref<16xf32>
      %d = arith.subf %a, %c : f32
      dloop.store %d, %out0[%k] : memref<16xf32>
    }
  }
  return
}
)mlir";

TEST_F(StructuralKeyTest, ArticleOpsAAndBShareAKey) {
  std::string a = key(kOpA), b = key(kOpB);
  EXPECT_EQ(a.size(), 64u);
  EXPECT_EQ(a, b);
}

/// Op B with `from` replaced by `to`.
std::string variant(StringRef from, StringRef to) {
  std::string text = kOpB.str();
  size_t at = text.find(from.str());
  EXPECT_NE(at, std::string::npos) << from.str();
  text.replace(at, from.size(), to.str());
  return text;
}

TEST_F(StructuralKeyTest, DifferentConstantExtentTypeReductionOrIndex) {
  std::string base = key(kOpB);
  // A constant operand instead of the second load.
  EXPECT_NE(base, key(variant("%c = dloop.load %in1[%k] : memref<16xf32>",
                              "%c = arith.constant 2.0 : f32")));
  EXPECT_NE(key(variant("%c = dloop.load %in1[%k] : memref<16xf32>",
                        "%c = arith.constant 2.0 : f32")),
            key(variant("%c = dloop.load %in1[%k] : memref<16xf32>",
                        "%c = arith.constant 3.0 : f32")));
  // The extent.
  std::string longer = kOpB.str();
  for (size_t at; (at = longer.find("16")) != std::string::npos;)
    longer.replace(at, 2, "32");
  EXPECT_NE(base, key(longer));
  // The element type.
  std::string half = kOpB.str();
  for (size_t at; (at = half.find("f32")) != std::string::npos;)
    half.replace(at, 3, "f16");
  EXPECT_NE(base, key(half));
  // The load index.
  EXPECT_NE(base,
            key(variant("dloop.load %in1[%k]", "dloop.load %in1[15 - %k]")));
  // A different op cluster.
  EXPECT_NE(base, key(variant("arith.subf", "arith.divf")));
}

TEST_F(StructuralKeyTest, FamiliesIgnoreExtentsOnly) {
  // Other extents: another kernel, the same family.
  std::string longer = kOpB.str();
  for (size_t at; (at = longer.find("16")) != std::string::npos;)
    longer.replace(at, 2, "32");
  EXPECT_NE(key(kOpB), key(longer));
  EXPECT_EQ(familyKey(kOpB), familyKey(longer));
  EXPECT_NE(familyKey(kOpB), key(kOpB));
  // Another element type or op cluster: another family.
  std::string half = kOpB.str();
  for (size_t at; (at = half.find("f32")) != std::string::npos;)
    half.replace(at, 3, "f16");
  EXPECT_NE(familyKey(kOpB), familyKey(half));
  EXPECT_NE(familyKey(kOpB), familyKey(variant("arith.subf", "arith.divf")));
}

TEST_F(StructuralKeyTest, ReductionDiffersFromItsPointwiseSibling) {
  constexpr StringLiteral sum = R"mlir(
func.func @s(%p: memref<16xf32>, %o: memref<1xf32>) {
  dloop.kernel @s ins(%in0 = %p : memref<16xf32>) outs(%out0 = %o : memref<1xf32>) {
    %z = arith.constant 0.0 : f32
    %r = dloop.for %k = 0 to 16 reduce "k" iter(%acc = %z : f32) {
      %a = dloop.load %in0[%k] : memref<16xf32>
      %n = arith.addf %acc, %a : f32
      dloop.yield %n : f32
    }
    dloop.store %r, %out0[0] : memref<1xf32>
  }
  return
}
)mlir";
  constexpr StringLiteral max = R"mlir(
func.func @s(%p: memref<16xf32>, %o: memref<1xf32>) {
  dloop.kernel @s ins(%in0 = %p : memref<16xf32>) outs(%out0 = %o : memref<1xf32>) {
    %z = arith.constant 0.0 : f32
    dloop.for %k = 0 to 16 free "k" {
      %a = dloop.load %in0[%k] : memref<16xf32>
      dloop.store %a, %out0[0] : memref<1xf32>
    }
  }
  return
}
)mlir";
  EXPECT_NE(key(sum), key(max));
}

TEST_F(StructuralKeyTest, FreeLoopOrderAndBufferOrderDoNotMatter) {
  constexpr StringLiteral mn = R"mlir(
func.func @t(%p: memref<4x8xf32>, %q: memref<8xf32>, %o: memref<4x8xf32>) {
  dloop.kernel @t ins(%in0 = %p : memref<4x8xf32>, %in1 = %q : memref<8xf32>) outs(%out0 = %o : memref<4x8xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      dloop.for %j = 0 to 8 free "j" {
        %a = dloop.load %in0[%i, %j] : memref<4x8xf32>
        %b = dloop.load %in1[%j] : memref<8xf32>
        %c = arith.mulf %a, %b : f32
        dloop.store %c, %out0[%i, %j] : memref<4x8xf32>
      }
    }
  }
  return
}
)mlir";
  // Loops swapped, inputs passed the other way round, operands swapped.
  constexpr StringLiteral nm = R"mlir(
func.func @t(%q: memref<8xf32>, %p: memref<4x8xf32>, %o: memref<4x8xf32>) {
  dloop.kernel @t ins(%in0 = %q : memref<8xf32>, %in1 = %p : memref<4x8xf32>) outs(%out0 = %o : memref<4x8xf32>) {
    dloop.for %j = 0 to 8 free "j" {
      dloop.for %i = 0 to 4 free "i" {
        %a = dloop.load %in1[%i, %j] : memref<4x8xf32>
        %b = dloop.load %in0[%j] : memref<8xf32>
        %c = arith.mulf %b, %a : f32
        dloop.store %c, %out0[%i, %j] : memref<4x8xf32>
      }
    }
  }
  return
}
)mlir";
  EXPECT_EQ(key(mn), key(nm));
}

TEST_F(StructuralKeyTest, KeysAreStableAcrossRuns) {
  // The canonical text is deterministic: hashing twice gives one key.
  EXPECT_EQ(key(kOpA), key(kOpA));
  EXPECT_EQ(tuner::sha256Hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

} // namespace
