//===- SharedReadsTest.cpp - DRAM traffic of operands shared by blocks ----===//
//
// A matmul-shaped kernel reads A by rows of tiles and B by columns. Its
// blocks launched row by row read a different column of B each, so with B
// larger than the L2 every wave reads all of B from DRAM again; launched
// column by column, the blocks of a column run side by side and share its
// slab, and B moves once. The same kernel with a B the L2 holds moves each
// buffer once in either order.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/CostModel/RooflineModel.h"
#include "Deplodock/InitAllDialects.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <string>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::costmodel;

namespace {

/// 8 rows of 64 tile columns of 128: block (x, y) of @NAME reads A's row
/// tile ROW and B's column tile COL (B is 4096 x COLS f32); one block an SM
/// (its shared memory).
constexpr llvm::StringLiteral kTiles = R"mlir(
dkernel.func @NAME(%a: memref<64x4096xf32>, %b: memref<4096xCOLSxf32>, %out: memref<64xCOLSxf32>) outputs [2] grid [GRID, 1] block [128, 1, 1] smem 200000 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  %c4096 = arith.constant 4096 : index
  %zero = arith.constant 0.0 : f32
  %x = gpu.block_id x
  %y = gpu.block_id y
  %tid = gpu.thread_id x
  %row0 = arith.muli ROW, %c8 : index
  %col0 = arith.muli COL, %c128 : index
  %col = arith.addi %col0, %tid : index
  %sum = scf.for %k = %c0 to %c4096 step %c1 iter_args(%acc = %zero) -> (f32) {
    %va = memref.load %a[%row0, %k] : memref<64x4096xf32>
    %vb = memref.load %b[%k, %col] : memref<4096xCOLSxf32>
    %p = arith.mulf %va, %vb : f32
    %s = arith.addf %acc, %p : f32
    scf.yield %s : f32
  }
  memref.store %sum, %out[%row0, %col] : memref<64xCOLSxf32>
  dkernel.return
}
)mlir";

/// kTiles as @name over `cols` columns of B, launched row by row (the
/// columns on x, fastest) or column by column.
std::string tiles(llvm::StringRef name, int64_t cols, bool byRows) {
  std::string text = kTiles.str();
  std::string tilesX = std::to_string(cols / 128);
  auto replace = [&](llvm::StringRef from, const std::string &to) {
    for (size_t at; (at = text.find(from.str())) != std::string::npos;)
      text.replace(at, from.size(), to);
  };
  replace("NAME", name.str());
  replace("COLS", std::to_string(cols));
  replace("GRID", byRows ? tilesX + ", 8" : "8, " + tilesX);
  replace("ROW", byRows ? "%y" : "%x");
  replace("COL", byRows ? "%x" : "%y");
  return text;
}

class SharedReadsTest : public ::testing::Test {
protected:
  SharedReadsTest() {
    DialectRegistry registry;
    registerDeplodockDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    // B of 128 MB (8192 columns) and of 8 MB (512).
    module = parseSourceString<ModuleOp>(
        tiles("big_rows", 8192, true) + tiles("big_columns", 8192, false) +
            tiles("small_rows", 512, true) + tiles("small_columns", 512, false),
        &context);
    EXPECT_TRUE(module);
    h100 = *getDeviceModel("sm_90");
  }

  KernelProfile profile(llvm::StringRef name) {
    auto func = module->lookupSymbol<dkernel::FuncOp>(name);
    EXPECT_TRUE(func) << name.str();
    return profileKernel(func);
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  DeviceModel h100;
};

TEST_F(SharedReadsTest, RowsOfTilesReadALargeBOncePerWave) {
  KernelProfile rows = profile("big_rows");
  KernelProfile columns = profile("big_columns");
  double a = 64.0 * 4096 * 4, b = 4096.0 * 8192 * 4, out = 64.0 * 8192 * 4;
  // A (1 MB) in its 8 row tiles and B in its 64 column tiles are traced;
  // the output moves once.
  EXPECT_DOUBLE_EQ(rows.uniqueBytes, a + b + out);
  ASSERT_EQ(rows.sharedReads.size(), 2u);
  EXPECT_DOUBLE_EQ(rows.sharedReads[0].regionBytes, a / 8);
  EXPECT_DOUBLE_EQ(rows.sharedReads[1].regionBytes, b / 64);
  // 512 blocks, 132 a wave: waves 0-2 read all 64 columns of B, wave 3
  // the 116 blocks from row 6's column 12 on: 52 columns and the 64 of row
  // 7. A's rows move once each, but for the three a wave starts that the
  // one before began (rows 2, 4 and 6): 128 MB of B came between.
  double rowOrder = dramBytes(rows, 132, h100.l2Bytes);
  EXPECT_DOUBLE_EQ(rowOrder,
                   out + (8 + 3) * (a / 8) + (3 * 64 + 64) * (b / 64));
  // Column by column every slab of B moves once: each buffer once.
  EXPECT_DOUBLE_EQ(dramBytes(columns, 132, h100.l2Bytes), columns.uniqueBytes);
  // The estimate follows: a DRAM time four times as long.
  RooflineEstimate slow = estimateLatency(rows, h100);
  RooflineEstimate fast = estimateLatency(columns, h100);
  EXPECT_NEAR(slow.dramUs / fast.dramUs, rowOrder / columns.uniqueBytes, 1e-9);
  EXPECT_GT(slow.dramUs, 3.5 * fast.dramUs);
}

TEST_F(SharedReadsTest, AnOperandTheL2HoldsMovesOnce) {
  for (llvm::StringRef name : {"small_rows", "small_columns"}) {
    KernelProfile p = profile(name);
    // B (8 MB) fits the H100's 50 MB: a later wave finds it in L2.
    EXPECT_DOUBLE_EQ(dramBytes(p, 132, h100.l2Bytes), p.uniqueBytes)
        << name.str();
    // In an L2 of 4 MB it does not, read row by row in waves of 8 blocks
    // (two rows of 4 columns): each wave reads all of B again.
    double b = 4096.0 * 512 * 4;
    if (name == "small_rows")
      EXPECT_DOUBLE_EQ(dramBytes(p, 8, 4 << 20), p.uniqueBytes + 3 * b);
    else
      EXPECT_DOUBLE_EQ(dramBytes(p, 8, 4 << 20), p.uniqueBytes);
  }
}

TEST_F(SharedReadsTest, OneWaveSharesEverything) {
  KernelProfile rows = profile("big_rows");
  EXPECT_DOUBLE_EQ(dramBytes(rows, 512, h100.l2Bytes), rows.uniqueBytes);
}

} // namespace
