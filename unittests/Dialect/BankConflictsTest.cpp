//===- BankConflictsTest.cpp - Tests of the bank-conflict analysis --------===//
//
// The conflict degree of a warp's shared-memory access: broadcasts, strides,
// sub-word elements; and the degree of the reads of a parsed slab, with and
// without padding, as pad_smem and permute_register_tile see them.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Dialect/DTile/Transforms/BankConflicts.h"
#include "Deplodock/InitAllDialects.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

/// The byte addresses of 32 lanes reading 4-byte words `stride` apart.
SmallVector<int64_t> strided(int64_t stride, int64_t lanes = 32) {
  SmallVector<int64_t> addresses;
  for (int64_t lane = 0; lane < lanes; ++lane)
    addresses.push_back(lane * stride * 4);
  return addresses;
}

TEST(BankConflictDegree, ContiguousWordsAreConflictFree) {
  EXPECT_EQ(bankConflictDegree(strided(1)), 1);
}

TEST(BankConflictDegree, EmptyAndSingleLane) {
  EXPECT_EQ(bankConflictDegree({}), 1);
  EXPECT_EQ(bankConflictDegree({128}), 1);
}

TEST(BankConflictDegree, SameWordBroadcasts) {
  EXPECT_EQ(bankConflictDegree(SmallVector<int64_t>(32, 64)), 1);
  // Bytes of one word are one word.
  EXPECT_EQ(bankConflictDegree({0, 1, 2, 3}), 1);
}

TEST(BankConflictDegree, EvenStridesConflict) {
  // Stride s words puts 32 lanes on 32 / gcd(s, 32) banks.
  EXPECT_EQ(bankConflictDegree(strided(2)), 2);
  EXPECT_EQ(bankConflictDegree(strided(4)), 4); // FN = 4 columns per thread.
  EXPECT_EQ(bankConflictDegree(strided(32)), 32);
  EXPECT_EQ(bankConflictDegree(strided(64)), 32);
  // Odd strides (a padded row) reach every bank.
  EXPECT_EQ(bankConflictDegree(strided(33)), 1);
  EXPECT_EQ(bankConflictDegree(strided(3)), 1);
}

TEST(BankConflictDegree, HalfWarpStride4) {
  // 16 lanes 4 words apart cover 64 words: 2 per bank used.
  EXPECT_EQ(bankConflictDegree(strided(4, 16)), 2);
}

TEST(BankConflictDegree, SubWordElements) {
  // f16 lanes reading consecutive halves: two lanes per word, no conflict.
  SmallVector<int64_t> halves;
  for (int64_t lane = 0; lane < 32; ++lane)
    halves.push_back(lane * 2);
  EXPECT_EQ(bankConflictDegree(halves), 1);
  // f16 rows 32 halves (16 words) apart: 2 rows per bank.
  SmallVector<int64_t> rows;
  for (int64_t lane = 0; lane < 32; ++lane)
    rows.push_back(lane * 64);
  EXPECT_EQ(bankConflictDegree(rows), 16);
}

/// A 4 x 8 thread block (one warp) reading a 4 x 32 slab of A down its
/// rows, and a 32 x 8 slab of B along its columns.
constexpr llvm::StringLiteral kSlabs = R"mlir(
func.func @matmul(%arg0: memref<16x128xf32>, %arg1: memref<128x64xf32>) -> memref<16x64xf32> {
  %alloc = memref.alloc() : memref<16x64xf32>
  dtile.kernel @k knobs<> ins(%in0 = %arg0 : memref<16x128xf32>, %in1 = %arg1 : memref<128x64xf32>) outs(%out0 = %alloc : memref<16x64xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dtile.tile blocks(%mo : 4 "mo", %no : 8 "no") threads(%mi : 4 "mi", %ni : 8 "ni") {
      %0 = dloop.for %ko = 0 to 4 reduce "ko" iter(%acc = %cst : f32) {
        %1 = dtile.stage %in0[%mo * 4, %ko * 32] box [4, 32] : memref<16x128xf32> -> memref<4x32xf32, #gpu.address_space<workgroup>>
        %2 = dtile.stage %in1[%ko * 32, %no * 8] box [32, 8] : memref<128x64xf32> -> memref<32x8xf32, #gpu.address_space<workgroup>>
        %3 = dloop.for %ki = 0 to 32 reduce "ki" iter(%acc_0 = %acc : f32) {
          %4 = dloop.load %1[%mi, %ki] : memref<4x32xf32, #gpu.address_space<workgroup>>
          %5 = dloop.load %2[%ki, %ni] : memref<32x8xf32, #gpu.address_space<workgroup>>
          %6 = arith.mulf %4, %5 : f32
          %7 = arith.addf %acc_0, %6 : f32
          dloop.yield %7 : f32
        }
        dloop.yield %3 : f32
      }
      dloop.store %0, %out0[%mo * 4 + %mi, %no * 8 + %ni] : memref<16x64xf32>
    }
  }
  return %alloc : memref<16x64xf32>
}
)mlir";

TEST(SlabReadConflicts, PaddingStaggersRows) {
  MLIRContext context;
  loadDeplodockDialects(context);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(kSlabs, &context);
  ASSERT_TRUE(module);
  SmallVector<StageOp> stages;
  module->walk([&](StageOp stage) { stages.push_back(stage); });
  ASSERT_EQ(stages.size(), 2u);
  auto readOf = [](StageOp stage) {
    return cast<dloop::LoadOp>(*stage.getResult().getUsers().begin());
  };
  // A: four rows of 32 words, each read by 8 lanes (broadcast): 4-way.
  EXPECT_EQ(slabReadConflicts(stages[0], readOf(stages[0]), {0, 0}), 4);
  EXPECT_EQ(slabReadConflicts(stages[0], readOf(stages[0]), {0, 1}), 1);
  EXPECT_EQ(slabReadConflicts(stages[0], readOf(stages[0]), {0, 2}), 1);
  // A pad of a whole bank row changes nothing.
  EXPECT_EQ(slabReadConflicts(stages[0], readOf(stages[0]), {0, 32}), 4);
  // B: eight consecutive words, shared by the four rows of threads.
  EXPECT_EQ(slabReadConflicts(stages[1], readOf(stages[1]), {0, 0}), 1);
  EXPECT_EQ(slabReadConflicts(stages[1], readOf(stages[1]), {0, 1}), 1);
}

/// 32 lanes reading down a column of a 32 x 32 f32 TMA slab.
constexpr llvm::StringLiteral kColumn = R"mlir(
func.func @column(%arg0: memref<64x128xf32>, %arg1: memref<64xf32>) {
  dtile.kernel @column ins(%x = %arg0 : memref<64x128xf32>) outs(%y = %arg1 : memref<64xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%b : 2 "b") threads(%t : 32 "t") {
      %r = dloop.for %ko = 0 to 4 reduce "k_o" iter(%acc = %zero : f32) {
        %s = dtile.stage %x[%b * 32, %ko * 32] box [32, 32] transport tma : memref<64x128xf32> -> memref<32x32xf32, #gpu.address_space<workgroup>>
        dtile.async_wait keep 0
        %p = dloop.for %ki = 0 to 32 reduce "k_i" iter(%a = %acc : f32) {
          %v = dloop.load %s[%t, %ki] : memref<32x32xf32, #gpu.address_space<workgroup>>
          %n = arith.addf %a, %v : f32
          dloop.yield %n : f32
        }
        dloop.yield %p : f32
      }
      dloop.store %r, %y[%b * 32 + %t] : memref<64xf32>
    }
  }
  return
}
)mlir";

TEST(SlabReadConflicts, SwizzleSpreadsColumns) {
  MLIRContext context;
  loadDeplodockDialects(context);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(kColumn, &context);
  ASSERT_TRUE(module);
  StageOp stage;
  module->walk([&](StageOp s) { stage = s; });
  ASSERT_TRUE(stage);
  auto read = cast<dloop::LoadOp>(*stage.getResult().getUsers().begin());
  // Dense 128-byte rows: one bank for the whole column.
  EXPECT_EQ(slabReadConflicts(stage, read, {0, 0}), 32);
  // 128: the chunk moves with the row over 8 chunks. 64 and 32: segments
  // of 64 or 32 bytes already spread rows over 2 or 4 chunk positions,
  // and the XOR over the rest.
  EXPECT_EQ(slabReadConflicts(stage, read, {0, 0}, 128), 4);
  EXPECT_EQ(slabReadConflicts(stage, read, {0, 0}, 64), 4);
  EXPECT_EQ(slabReadConflicts(stage, read, {0, 0}, 32), 4);
  // A padded layout is not a swizzled one.
  EXPECT_EQ(slabReadConflicts(stage, read, {0, 1}, 128), std::nullopt);
}

} // namespace
