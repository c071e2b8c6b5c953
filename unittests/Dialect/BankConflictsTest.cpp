//===- BankConflictsTest.cpp - Tests of the bank-conflict analysis --------===//
//
// The conflict degree of a warp's shared-memory access: broadcasts, strides,
// sub-word elements; and the degree of the reads of a parsed slab, with and
// without padding, as pad_smem and permute_register_tile see them; the
// scattered writes of a transposed slab's copy (transpose_a); and the
// ldmatrix reads of the mma_sync rule's slabs in each of their layouts.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Dialect/DTile/Transforms/BankConflicts.h"
#include "Deplodock/Dialect/DTile/Transforms/Passes.h"
#include "Deplodock/InitAllDialects.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

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

/// One warp of 4 x 8 threads, each holding FM = 4 rows of A: A's 16 x 32
/// box held transposed (transpose_a), a slab row per K, so a thread's four
/// rows at one K are adjacent words.
constexpr llvm::StringLiteral kTransposedA = R"mlir(
func.func @matmul(%arg0: memref<64x128xf32>, %arg1: memref<64x8xf32>) {
  dtile.kernel @k ins(%in0 = %arg0 : memref<64x128xf32>) outs(%out0 = %arg1 : memref<64x8xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dtile.tile blocks(%mo : 4 "mo") threads(%mi : 4 "mi", %ni : 8 "ni") {
      %0 = dloop.for %ko = 0 to 4 reduce "ko" iter(%acc = %cst : f32) {
        %1 = dtile.stage %in0[%mo * 16, %ko * 32] box [16, 32] transpose : memref<64x128xf32> -> memref<32x16xf32, #gpu.address_space<workgroup>>
        %2 = dloop.for %ki = 0 to 32 reduce "ki" iter(%acc_0 = %acc : f32) {
          %3 = dloop.load %1[%ki, %mi * 4] : memref<32x16xf32, #gpu.address_space<workgroup>>
          %4 = arith.addf %acc_0, %3 : f32
          dloop.yield %4 : f32
        }
        dloop.yield %2 : f32
      }
      dloop.store %0, %out0[%mo * 16 + %mi * 4, %ni] : memref<64x8xf32>
    }
  }
  return
}
)mlir";

TEST(TransposedWriteConflicts, PaddingStaggersTheScatteredWrite) {
  MLIRContext context;
  loadDeplodockDialects(context);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kTransposedA, &context);
  ASSERT_TRUE(module);
  StageOp stage;
  module->walk([&](StageOp s) { stage = s; });
  ASSERT_TRUE(stage);
  // A warp copies one source row (32 K values of one m) down a slab
  // column, 16 + pad words apart: 16 words put the 32 lanes on 2 banks.
  EXPECT_EQ(transposedWriteConflicts(stage, {0, 0}), 16);
  // An odd row length reaches every bank.
  EXPECT_EQ(transposedWriteConflicts(stage, {0, 1}), 1);
  // A pad of one float4 (what vector reads of the slab allow): 20 words,
  // 8 banks, 4 lanes each; two float4s: 24 words, 4 banks.
  EXPECT_EQ(transposedWriteConflicts(stage, {0, 4}), 4);
  EXPECT_EQ(transposedWriteConflicts(stage, {0, 8}), 8);
  EXPECT_EQ(transposedWriteConflicts(stage, {0, 16}), 32);
  // The reads: the four threads' rows at one K are 4 words apart in one
  // slab row, on four banks, whatever the pad.
  auto read = cast<dloop::LoadOp>(*stage.getResult().getUsers().begin());
  EXPECT_EQ(slabReadConflicts(stage, read, {0, 0}), 1);
  EXPECT_EQ(slabReadConflicts(stage, read, {0, 4}), 1);
}

TEST(TransposedWriteConflicts, OnlyTransposedStagesScatter) {
  MLIRContext context;
  loadDeplodockDialects(context);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(kSlabs, &context);
  ASSERT_TRUE(module);
  module->walk([&](StageOp stage) {
    EXPECT_EQ(transposedWriteConflicts(stage, {0, 0}), std::nullopt);
  });
}

/// A 64 x 128 x 64 f16 matmul, A stored M x K and B K x N, on sm_80.
constexpr llvm::StringLiteral kHalfMatmul = R"mlir(
module attributes {dkernel.target = #dkernel.target<"sm_80", capability = 80, sm_count = 108, smem_per_block = 166912, smem_per_sm = 167936, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 41943040, features = [cp_async, mma_sync]>} {
  func.func @mm(%arg0: memref<64x128xf16>, %arg1: memref<128x64xf16>) -> memref<64x64xf32> {
    %alloc = memref.alloc() : memref<64x64xf32>
    dloop.kernel @mm ins(%in0 = %arg0 : memref<64x128xf16>, %in1 = %arg1 : memref<128x64xf16>) outs(%out0 = %alloc : memref<64x64xf32>) {
      %cst = arith.constant 0.000000e+00 : f32
      dloop.for %d0 = 0 to 64 free "d0" {
        dloop.for %d1 = 0 to 64 free "d1" {
          %0 = dloop.for %r0 = 0 to 128 reduce "r0" iter(%acc = %cst : f32) {
            %1 = dloop.load %in0[%d0, %r0] : memref<64x128xf16>
            %2 = dloop.load %in1[%r0, %d1] : memref<128x64xf16>
            %3 = arith.extf %1 : f16 to f32
            %4 = arith.extf %2 : f16 to f32
            %5 = arith.mulf %3, %4 : f32
            %6 = arith.addf %acc, %5 : f32
            dloop.yield %6 : f32
          }
          dloop.store %0, %out0[%d0, %d1] : memref<64x64xf32>
        }
      }
    }
    return %alloc : memref<64x64xf32>
  }
}
)mlir";

/// The worst ldmatrix conflict degree over the slabs `rule` gives the Loop
/// IR `source` (each slab in the layout the rule gave it), of those
/// `counted` (all by default).
std::optional<int64_t> ldmatrixDegree(
    StringRef source, llvm::function_ref<std::unique_ptr<Pass>()> rule,
    llvm::function_ref<bool(StageOp)> counted = [](StageOp) { return true; }) {
  MLIRContext context;
  loadDeplodockDialects(context);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
  if (!module)
    return std::nullopt;
  PassManager pm(&context);
  pm.addPass(createDTileTileify());
  pm.addPass(rule());
  if (failed(pm.run(*module)))
    return std::nullopt;
  int64_t worst = 0;
  bool analysed = true;
  module->walk([&](dkernel::LdMatrixOp read) {
    auto stage = read.getSrc().getDefiningOp<StageOp>();
    if (stage && !counted(stage))
      return;
    std::optional<int64_t> degree =
        stage ? ldmatrixConflicts(stage, read, stage.getPadding(),
                                  stage.getSwizzle())
              : std::nullopt;
    analysed &= degree.has_value();
    worst = std::max(worst, degree.value_or(0));
  });
  if (!analysed || worst == 0)
    return std::nullopt;
  return worst;
}

/// The same over the mma_sync rule's slabs with `knobs`.
std::optional<int64_t> mmaLdmatrixDegree(StringRef knobs) {
  return ldmatrixDegree(kHalfMatmul, [&] {
    DTileMmaSyncOptions options;
    options.knobs = knobs.str();
    return createDTileMmaSync(options);
  });
}

/// 64-deep chunks make both slabs' rows 128 bytes: plain, the eight rows
/// of every 8 x 8 matrix share their banks; swizzled (128-byte segments,
/// chunk XOR row) or padded by 16 bytes, no matrix has a conflict.
TEST(LdmatrixConflicts, MmaSlabLayouts) {
  StringRef tile = "tensor_cores=true,WM=32,WN=32,warps=4,mma_k=64,";
  EXPECT_EQ(mmaLdmatrixDegree((tile + "mma_pad=false,mma_swizzle=false").str()),
            8);
  EXPECT_EQ(mmaLdmatrixDegree((tile + "mma_pad=false,mma_swizzle=true").str()),
            1);
  EXPECT_EQ(mmaLdmatrixDegree((tile + "mma_pad=true,mma_swizzle=false").str()),
            1);
}

/// Every swizzle width the rule picks is conflict-free: 32-deep chunks
/// (64-byte rows, 64-byte segments) and 16-deep ones (32-byte rows).
TEST(LdmatrixConflicts, NarrowSwizzles) {
  for (StringRef step : {"mma_k=32,", "mma_k=16,"}) {
    std::string knobs = ("tensor_cores=true,WM=32,WN=32,warps=4," + step).str();
    EXPECT_GT(mmaLdmatrixDegree(knobs + "mma_pad=false,mma_swizzle=false")
                  .value_or(0),
              1)
        << step.str();
    EXPECT_EQ(mmaLdmatrixDegree(knobs + "mma_pad=false,mma_swizzle=true"), 1)
        << step.str();
  }
}

/// Causal f16 attention over 64 keys with a head of 64 (128-byte rows), on
/// sm_80: dloop-fuse-attention's online-softmax kernel.
constexpr llvm::StringLiteral kHalfAttention = R"mlir(
module attributes {dkernel.target = #dkernel.target<"sm_80", capability = 80, sm_count = 108, smem_per_block = 166912, smem_per_sm = 167936, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 41943040, features = [cp_async, mma_sync]>} {
  func.func @sdpa(%arg0: memref<1x1x64x64xf16>, %arg1: memref<1x1x64x64xf16>, %arg2: memref<1x1x64x64xf16>) -> memref<1x1x64x64xf16> {
    %alloc = memref.alloc() : memref<1x1x64x64xf16>
    dloop.kernel @sdpa ins(%in0 = %arg2 : memref<1x1x64x64xf16>, %in1 = %arg0 : memref<1x1x64x64xf16>, %in2 = %arg1 : memref<1x1x64x64xf16>) outs(%out0 = %alloc : memref<1x1x64x64xf16>) {
      %cst = arith.constant 1.250000e-01 : f32
      %c0 = arith.constant 0 : index
      %cst_0 = arith.constant 0xFF800000 : f32
      %cst_1 = arith.constant 0.000000e+00 : f32
      dloop.for %d0 = 0 to 64 free "d0" {
        %alloca = memref.alloca() : memref<64xf32>
        dloop.for %d1 = 0 to 64 free "d1" {
          dloop.store %cst_1, %alloca[%d1] : memref<64xf32>
        }
        %0:2 = dloop.for %r0 = 0 to 64 reduce "r0" iter(%acc = %cst_0 : f32, %acc_2 = %cst_1 : f32) {
          %1 = dloop.for %r1 = 0 to 64 reduce "r1" iter(%acc_3 = %cst_1 : f32) {
            %17 = dloop.load %in1[0, 0, %d0, %r1] : memref<1x1x64x64xf16>
            %18 = dloop.load %in2[0, 0, %r0, %r1] : memref<1x1x64x64xf16>
            %19 = arith.extf %17 : f16 to f32
            %20 = arith.extf %18 : f16 to f32
            %21 = arith.mulf %19, %20 : f32
            %22 = arith.addf %acc_3, %21 : f32
            dloop.yield %22 : f32
          }
          %2 = affine.apply affine_map<(d0, d1) -> (-d0 + d1 - 1)>(%d0, %r0)
          %3 = arith.cmpi sge, %2, %c0 : index
          %4 = arith.mulf %1, %cst : f32
          %5 = arith.select %3, %cst_0, %4 : f32
          %6 = arith.maxnumf %acc, %5 : f32
          %7 = arith.cmpf oeq, %6, %cst_0 : f32
          %8 = arith.select %7, %cst_1, %6 : f32
          %9 = arith.subf %acc, %8 : f32
          %10 = math.exp %9 : f32
          %11 = arith.subf %5, %8 : f32
          %12 = math.exp %11 : f32
          %13 = arith.mulf %acc_2, %10 : f32
          %14 = arith.addf %13, %12 : f32
          %15 = arith.truncf %12 : f32 to f16
          %16 = arith.extf %15 : f16 to f32
          dloop.for %d2 = 0 to 64 free "d2" {
            %17 = dloop.load %alloca[%d2] : memref<64xf32>
            %18 = arith.mulf %17, %10 : f32
            %19 = dloop.load %in0[0, 0, %r0, %d2] : memref<1x1x64x64xf16>
            %20 = arith.extf %19 : f16 to f32
            %21 = arith.mulf %16, %20 : f32
            %22 = arith.addf %18, %21 : f32
            dloop.store %22, %alloca[%d2] : memref<64xf32>
          }
          dloop.yield %6, %14 : f32, f32
        }
        dloop.for %d3 = 0 to 64 free "d3" {
          %1 = dloop.load %alloca[%d3] : memref<64xf32>
          %2 = arith.divf %1, %0#1 : f32
          %3 = arith.truncf %2 : f32 to f16
          dloop.store %3, %out0[0, 0, %d0, %d3] : memref<1x1x64x64xf16>
        }
      }
    }
    return %alloc : memref<1x1x64x64xf16>
  }
}
)mlir";

/// The worst ldmatrix conflict degree over attention_mma's k and v slabs
/// (q's is read once per block, and never swizzled) with `knobs`.
std::optional<int64_t> attentionLdmatrixDegree(StringRef knobs) {
  return ldmatrixDegree(
      kHalfAttention,
      [&] {
        DTileAttentionMmaOptions options;
        options.knobs = knobs.str();
        return createDTileAttentionMma(options);
      },
      // k and v are staged inside the key loop, q before it.
      [](StageOp stage) { return stage->getParentOfType<dloop::ForOp>(); });
}

/// A head of 64 halves makes the k and v rows 128 bytes: plain, the eight
/// rows of every 8 x 8 matrix (k's, and v's read transposed) share their
/// banks; swizzled, none does, for every key step.
TEST(LdmatrixConflicts, AttentionSlabLayouts) {
  for (StringRef bkv : {"16", "32", "64"}) {
    std::string knobs =
        ("attention_tensor_cores=true,attention_warps=4,attention_bkv=" + bkv)
            .str();
    EXPECT_EQ(attentionLdmatrixDegree(knobs + ",attention_swizzle=false"), 8)
        << bkv.str();
    EXPECT_EQ(attentionLdmatrixDegree(knobs + ",attention_swizzle=true"), 1)
        << bkv.str();
  }
}

/// One warp of 32 column threads reading a 4 x 256 f32 slab row: FN = 8
/// columns a thread, as scalars or as float4 runs, the columns adjacent
/// (8n + j) or dealt in 4-wide runs (4n + j, 4n + 128 + j: vector_reads'
/// 4 x 4 sub-tiles).
constexpr llvm::StringLiteral kVectorReads = R"mlir(
func.func @reads(%arg0: memref<4x256xf32>, %arg1: memref<256xf32>) {
  dtile.kernel @reads ins(%x = %arg0 : memref<4x256xf32>) outs(%y = %arg1 : memref<256xf32>) {
    dtile.tile blocks(%b : 1 "b") threads(%n : 32 "n") {
      %s = dtile.stage %x[0, 0] box [4, 256] : memref<4x256xf32> -> memref<4x256xf32, #gpu.address_space<workgroup>>
      %k = arith.constant 1 : index
      %adjacent = affine.apply affine_map<(d0) -> (d0 * 8)>(%n)
      %subtile = affine.apply affine_map<(d0) -> (d0 * 4 + 128)>(%n)
      %a:4 = dkernel.vector_load %s[%k, %adjacent] : memref<4x256xf32, #gpu.address_space<workgroup>> -> f32, f32, f32, f32
      %c:4 = dkernel.vector_load %s[%k, %subtile] : memref<4x256xf32, #gpu.address_space<workgroup>> -> f32, f32, f32, f32
      %d:2 = dkernel.vector_load %s[%k, %adjacent] : memref<4x256xf32, #gpu.address_space<workgroup>> -> f32, f32
      %e = dloop.load %s[%k, %n * 8] : memref<4x256xf32, #gpu.address_space<workgroup>>
      %f = dloop.load %s[%k, %n * 4] : memref<4x256xf32, #gpu.address_space<workgroup>>
      %sum = arith.addf %a#0, %c#0 : f32
      dloop.store %sum, %y[%n] : memref<256xf32>
    }
  }
  return
}
)mlir";

TEST(VectorReadConflicts, SubTilesAreConflictFree) {
  MLIRContext context;
  loadDeplodockDialects(context);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kVectorReads, &context);
  ASSERT_TRUE(module);
  StageOp stage;
  SmallVector<dkernel::VectorLoadOp> vectors;
  SmallVector<dloop::LoadOp> scalars;
  module->walk([&](Operation *op) {
    if (auto s = dyn_cast<StageOp>(op))
      stage = s;
    if (auto v = dyn_cast<dkernel::VectorLoadOp>(op))
      vectors.push_back(v);
    if (auto l = dyn_cast<dloop::LoadOp>(op))
      scalars.push_back(l);
  });
  ASSERT_TRUE(stage);
  ASSERT_EQ(vectors.size(), 3u);
  ASSERT_EQ(scalars.size(), 2u);
  // float4 at 8n: a quarter-warp's 8 runs span 256 bytes, 2 per bank.
  EXPECT_EQ(vectorReadConflicts(stage, vectors[0], {0, 0}), 2);
  // float4 at 4n (+ 128): a quarter-warp reads 32 consecutive words.
  EXPECT_EQ(vectorReadConflicts(stage, vectors[1], {0, 0}), 1);
  // float2 at 8n: a half-warp's 16 runs span 512 bytes, 4 per bank.
  EXPECT_EQ(vectorReadConflicts(stage, vectors[2], {0, 0}), 4);
  // Scalars 8 and 4 words apart (FN adjacent columns): 8 and 4-way.
  EXPECT_EQ(slabReadConflicts(stage, scalars[0], {0, 0}), 8);
  EXPECT_EQ(slabReadConflicts(stage, scalars[1], {0, 0}), 4);
  // A 4-word pad keeps runs aligned and the rows' banks where they were.
  EXPECT_EQ(vectorReadConflicts(stage, vectors[1], {0, 4}), 1);
  // The slab's cost sums every read, vector or scalar.
  EXPECT_EQ(slabReadCost(stage, {0, 0}), 2 + 1 + 4 + 8 + 4);
}

} // namespace
