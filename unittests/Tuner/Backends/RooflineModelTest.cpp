//===- RooflineModelTest.cpp - Tests of the model backend -----------------===//
//
// The roofline model must order obvious cases the way a GPU would: one
// thread per block is slower than 256, a strided (uncoalesced) read slower
// than a contiguous one, a bank-conflicted shared read slower than a clean
// one, a private array indexed by a loop not unrolled (local memory)
// slower than one in registers, a slower GPU slower. Counting must follow trip
// counts and the threads that take a branch, and a block that cannot launch is
// a launch failure, not a latency. The backend records in a context of its own.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/CostModel/RooflineModel.h"
#include "Deplodock/InitAllDialects.h"
#include "Deplodock/Tuner/Backend.h"
#include "Deplodock/Tuner/Replay.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "../ErrorSupport.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::tuner;
using namespace deplodock::costmodel;
using namespace deplodock::tuner::testing;

namespace {

constexpr llvm::StringLiteral kKernels = R"mlir(
dkernel.func @wide(%in: memref<1048576xf32>, %out: memref<1048576xf32>) outputs [1] grid [4096, 1, 1] block [256, 1, 1] smem 0 {
  %c256 = arith.constant 256 : index
  %bid = gpu.block_id x
  %tid = gpu.thread_id x
  %base = arith.muli %bid, %c256 : index
  %i = arith.addi %base, %tid : index
  %v = memref.load %in[%i] : memref<1048576xf32>
  %w = arith.mulf %v, %v : f32
  memref.store %w, %out[%i] : memref<1048576xf32>
  dkernel.return
}
dkernel.func @narrow(%in: memref<1048576xf32>, %out: memref<1048576xf32>) outputs [1] grid [1048576, 1, 1] block [1, 1, 1] smem 0 {
  %bid = gpu.block_id x
  %v = memref.load %in[%bid] : memref<1048576xf32>
  %w = arith.mulf %v, %v : f32
  memref.store %w, %out[%bid] : memref<1048576xf32>
  dkernel.return
}
dkernel.func @rows(%in: memref<1024x1024xf32>, %out: memref<1024x1024xf32>) outputs [1] grid [1024, 1, 1] block [1024, 1, 1] smem 0 {
  %bid = gpu.block_id x
  %tid = gpu.thread_id x
  %v = memref.load %in[%bid, %tid] : memref<1024x1024xf32>
  memref.store %v, %out[%bid, %tid] : memref<1024x1024xf32>
  dkernel.return
}
dkernel.func @columns(%in: memref<1024x1024xf32>, %out: memref<1024x1024xf32>) outputs [1] grid [1024, 1, 1] block [1024, 1, 1] smem 0 {
  %bid = gpu.block_id x
  %tid = gpu.thread_id x
  %v = memref.load %in[%tid, %bid] : memref<1024x1024xf32>
  memref.store %v, %out[%bid, %tid] : memref<1024x1024xf32>
  dkernel.return
}
dkernel.func @loop(%in: memref<256xf32>, %out: memref<256xf32>) outputs [1] grid [1, 1, 1] block [256, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c100 = arith.constant 100 : index
  %zero = arith.constant 0.0 : f32
  %tid = gpu.thread_id x
  %v = memref.load %in[%tid] : memref<256xf32>
  %sum = scf.for %k = %c0 to %c100 step %c1 iter_args(%acc = %zero) -> (f32) {
    %p = arith.mulf %v, %v : f32
    %s = arith.addf %acc, %p : f32
    scf.yield %s : f32
  }
  %few = arith.cmpi ult, %tid, %c16 : index
  scf.if %few {
    memref.store %sum, %out[%tid] : memref<256xf32>
  }
  dkernel.return
}
dkernel.func @shared_clean(%out: memref<256xf32>) outputs [0] grid [1024, 1, 1] block [256, 1, 1] smem 32768 {
  %s = dkernel.alloc_shared offset 0 : memref<256x32xf32, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %tid = gpu.thread_id x
  %v = memref.load %s[%c0, %tid] : memref<256x32xf32, #gpu.address_space<workgroup>>
  memref.store %v, %out[%tid] : memref<256xf32>
  dkernel.return
}
dkernel.func @shared_conflicted(%out: memref<256xf32>) outputs [0] grid [1024, 1, 1] block [256, 1, 1] smem 32768 {
  %s = dkernel.alloc_shared offset 0 : memref<256x32xf32, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %tid = gpu.thread_id x
  %v = memref.load %s[%tid, %c0] : memref<256x32xf32, #gpu.address_space<workgroup>>
  memref.store %v, %out[%tid] : memref<256xf32>
  dkernel.return
}
dkernel.func @shared_conflicted_carried(%out: memref<256xf32>) outputs [0] grid [1024, 1, 1] block [256, 1, 1] smem 65536 {
  %s = dkernel.alloc_shared offset 0 : memref<2x256x32xf32, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %tid = gpu.thread_id x
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero, %slot = %c0) -> (f32, index) {
    %v = memref.load %s[%slot, %tid, %c0] : memref<2x256x32xf32, #gpu.address_space<workgroup>>
    %a = arith.addf %acc, %v : f32
    %next = arith.subi %c1, %slot : index
    scf.yield %a, %next : f32, index
  }
  memref.store %r#0, %out[%tid] : memref<256xf32>
  dkernel.return
}
dkernel.func @huge_smem(%out: memref<256xf32>) outputs [0] grid [1, 1, 1] block [256, 1, 1] smem 200000 {
  %tid = gpu.thread_id x
  %zero = arith.constant 0.0 : f32
  memref.store %zero, %out[%tid] : memref<256xf32>
  dkernel.return
}
)mlir";

/// A private array written and read by loops unrolled by UNROLL: fully
/// (64, registers) or not (local memory).
constexpr llvm::StringLiteral kPrivateArray = R"mlir(
dkernel.func @NAME(%out: memref<256xf32>) outputs [0] grid [1, 1, 1] block [256, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %tid = gpu.thread_id x
  %a = memref.alloca() : memref<64xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    memref.store %zero, %a[%i] : memref<64xf32>
  } {dkernel.unroll = UNROLL : i64}
  %sum = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (f32) {
    %v = memref.load %a[%i] : memref<64xf32>
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  } {dkernel.unroll = UNROLL : i64}
  memref.store %sum, %out[%tid] : memref<256xf32>
  dkernel.return
}
)mlir";

/// A warp per block running TRIPS steps of one mma.sync of TYPE (f16:
/// m16n8k16 on 8 + 4 operands; f32: TF32 m16n8k8 on 4 + 2) on registers.
constexpr llvm::StringLiteral kMmaLoop = R"mlir(
dkernel.func @NAME(%out: memref<4096xf32>) outputs [0] grid [1056, 1, 1] block [32, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant TRIPS : index
  %zero = arith.constant 0.0 : f32
  %x = arith.constant 1.0 : TYPE
  %tid = gpu.thread_id x
  %d:4 = scf.for %k = %c0 to %n step %c1 iter_args(%c0_ = %zero, %c1_ = %zero, %c2_ = %zero, %c3_ = %zero) -> (f32, f32, f32, f32) {
    %r:4 = dkernel.mma_sync [OPERANDS], [%c0_, %c1_, %c2_, %c3_] : TYPE
    scf.yield %r#0, %r#1, %r#2, %r#3 : f32, f32, f32, f32
  }
  memref.store %d#0, %out[%tid] : memref<4096xf32>
  dkernel.return
}
)mlir";

/// `pattern` with every occurrence of each placeholder replaced.
std::string instantiate(StringRef pattern,
                        ArrayRef<std::pair<StringRef, std::string>> values) {
  std::string text = pattern.str();
  for (const auto &[from, to] : values)
    for (size_t at = text.find(from); at != std::string::npos;
         at = text.find(from, at + to.size()))
      text.replace(at, from.size(), to);
  return text;
}

/// kMmaLoop as kernel `name` on `type` operands, `trips` steps long.
std::string mmaLoopKernel(StringRef name, StringRef type, int64_t trips) {
  std::string operands = type == "f32" ? "%x, %x, %x, %x], [%x, %x"
                                       : "%x, %x, %x, %x, %x, %x, %x, %x], "
                                         "[%x, %x, %x, %x";
  return instantiate(kMmaLoop, {{"NAME", name.str()},
                                {"TYPE", type.str()},
                                {"TRIPS", std::to_string(trips)},
                                {"OPERANDS", operands}});
}

/// kPrivateArray as kernel `name`, its loops unrolled by `unroll`.
std::string privateArrayKernel(StringRef name, int64_t unroll) {
  return instantiate(kPrivateArray, {{"NAME", name.str()},
                                     {"UNROLL", std::to_string(unroll)}});
}

class RooflineModelTest : public ::testing::Test {
protected:
  RooflineModelTest() {
    DialectRegistry registry;
    registerDeplodockDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    module = parseSourceString<ModuleOp>(
        kKernels.str() + privateArrayKernel("private_unrolled", 64) +
            privateArrayKernel("private_dynamic", 4) +
            mmaLoopKernel("mma_f16", "f16", 4096) +
            mmaLoopKernel("mma_tf32", "f32", 4096) +
            mmaLoopKernel("mma_f16_short", "f16", 16),
        &context);
    EXPECT_TRUE(module);
    h100 = *getDeviceModel("sm_90");
    a100 = *getDeviceModel("sm_80");
  }

  dkernel::FuncOp kernel(StringRef name) {
    auto func = module->lookupSymbol<dkernel::FuncOp>(name);
    EXPECT_TRUE(func) << name.str();
    return func;
  }

  RooflineEstimate estimate(StringRef name, const DeviceModel &device) {
    return estimateLatency(profileKernel(kernel(name)), device);
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  DeviceModel h100, a100;
};

TEST_F(RooflineModelTest, MmaSyncRunsAtTheTensorCoreRate) {
  RooflineEstimate f16 = estimate("mma_f16", h100);
  EXPECT_EQ(f16.bound, "tensor") << f16.describe();
  // 1056 warps x 4096 m16n8k16 (4096 operations each) at 60% of the H100's
  // 989.4 TFLOP/s, 8 blocks on each of the 132 SMs at once.
  double flops = 1056.0 * 4096 * 4096;
  EXPECT_NEAR(f16.tensorUs, flops / (0.6 * 989.4e6), 0.01 * f16.tensorUs);
  // TF32 m16n8k8 does half the work at half the rate: the same time.
  EXPECT_DOUBLE_EQ(estimate("mma_tf32", h100).tensorUs, f16.tensorUs);
  // Fewer steps, less time; the A100 (312 TFLOP/s over 108 SMs, all of it
  // through mma.sync) is slower per SM than the H100's share.
  EXPECT_LT(estimate("mma_f16_short", h100).tensorUs, f16.tensorUs);
  EXPECT_GT(estimate("mma_f16", a100).tensorUs, f16.tensorUs);
  // No FP32 work was counted for it.
  EXPECT_LT(f16.computeUs, 0.01 * f16.tensorUs);
}

TEST_F(RooflineModelTest, OneThreadPerBlockIsSlower) {
  RooflineEstimate wide = estimate("wide", h100);
  RooflineEstimate narrow = estimate("narrow", h100);
  ASSERT_TRUE(wide.launchable && narrow.launchable);
  EXPECT_GT(narrow.us, 4 * wide.us)
      << wide.describe() << " vs " << narrow.describe();
  // 8 MB through HBM3 at 3.35 TB/s is about 2.5 us; the wide copy is near it.
  EXPECT_NEAR(wide.dramUs, 8.0 * 1048576 / 3.35e12 * 1e6, 0.01);
  EXPECT_LT(wide.us, 4 * (wide.dramUs + h100.launchUs));
}

TEST_F(RooflineModelTest, StridedReadsCostMoreSectors) {
  KernelProfile rows = profileKernel(kernel("rows"));
  KernelProfile columns = profileKernel(kernel("columns"));
  // A warp reading a row needs 4 sectors; reading a column, 32 (plus the
  // coalesced store in both).
  EXPECT_DOUBLE_EQ(rows.l2BytesPerBlock, 32 * (4 + 4) * 32.0);
  EXPECT_DOUBLE_EQ(columns.l2BytesPerBlock, 32 * (32 + 4) * 32.0);
  EXPECT_GT(estimate("columns", h100).us, estimate("rows", h100).us);
}

TEST_F(RooflineModelTest, BankConflictsCostWavefronts) {
  KernelProfile clean = profileKernel(kernel("shared_clean"));
  KernelProfile conflicted = profileKernel(kernel("shared_conflicted"));
  EXPECT_DOUBLE_EQ(clean.sharedBytesPerBlock, 8 * 1 * 128.0);
  EXPECT_DOUBLE_EQ(conflicted.sharedBytesPerBlock, 8 * 32 * 128.0);
  EXPECT_GT(estimate("shared_conflicted", h100).sharedUs,
            estimate("shared_clean", h100).sharedUs);
}

/// A double buffer's slot carried by its loop does not hide the lanes'
/// pattern: the carried index is taken at its first value, and the column
/// read through it conflicts 32 ways every trip, as without the slot.
TEST_F(RooflineModelTest, CarriedIndicesKeepTheirBankConflicts) {
  KernelProfile carried = profileKernel(kernel("shared_conflicted_carried"));
  EXPECT_DOUBLE_EQ(carried.sharedBytesPerBlock, 4 * 8 * 32 * 128.0);
  // Its four loads a thread, each waited for alone where registers run out.
  EXPECT_DOUBLE_EQ(carried.unoverlappedSharedLoads, 4.0);
  EXPECT_LE(carried.serialSharedLoads, carried.unoverlappedSharedLoads);
}

TEST_F(RooflineModelTest, CountsFollowLoopsAndBranches) {
  KernelProfile p = profileKernel(kernel("loop"));
  EXPECT_EQ(p.threadsPerBlock, 256);
  EXPECT_EQ(p.numBlocks, 1);
  // 100 trips of a mul and an add on 256 threads.
  EXPECT_DOUBLE_EQ(p.flopsPerBlock, 100 * 2 * 256.0);
  // The load by every warp (4 sectors each), the store by 16 threads of
  // 256: each of the 8 warps is charged 1/16 of a 4-sector store.
  EXPECT_DOUBLE_EQ(p.l2BytesPerBlock, 8 * 4 * 32.0 + 8 * 4 * 32.0 / 16);
  EXPECT_DOUBLE_EQ(p.uniqueBytes, 2 * 256 * 4.0);
}

TEST_F(RooflineModelTest, DynamicallyIndexedPrivateArraysAreLocalMemory) {
  KernelProfile registers = profileKernel(kernel("private_unrolled"));
  KernelProfile local = profileKernel(kernel("private_dynamic"));
  // Unrolled fully, every index is a constant: registers, only the output
  // store (4 sectors per warp) moves. Unrolled by 4, the 64 stores and 64
  // loads of each thread go to local memory, 4 sectors per warp each.
  EXPECT_DOUBLE_EQ(registers.l2BytesPerBlock, 8 * 4 * 32.0);
  EXPECT_DOUBLE_EQ(local.l2BytesPerBlock, 8 * 4 * 32.0 * (1 + 2 * 64));
  EXPECT_GT(local.serialGlobalLoads, registers.serialGlobalLoads);
  EXPECT_GT(estimate("private_dynamic", h100).us,
            estimate("private_unrolled", h100).us);
}

/// A thread whose private arrays take more registers than it may have
/// keeps no shared load in flight: each waits alone (FP32 attention with a
/// head-dim-128 row a thread, measured 4.1x its overlapped estimate).
TEST_F(RooflineModelTest, StarvedRegistersWaitForSharedLoadsOneByOne) {
  KernelProfile p;
  p.numBlocks = 132;
  p.threadsPerBlock = 256;
  p.serialSharedLoads = 10;
  p.unoverlappedSharedLoads = 160;
  p.serialGlobalLoads = 2;
  p.registers = 200;
  RooflineEstimate fits = estimateLatency(p, h100);
  // 256 threads a block may take 255 registers each.
  p.registers = 300;
  RooflineEstimate starved = estimateLatency(p, h100);
  double spill = 300.0 / 255.0;
  double overlapped =
      2 * h100.globalLatencyClocks + 10 * h100.sharedLatencyClocks;
  double alone = 2 * h100.globalLatencyClocks + 160 * h100.sharedLatencyClocks;
  EXPECT_NEAR(starved.latencyUs / fits.latencyUs, alone / overlapped * spill,
              1e-9);
}

TEST_F(RooflineModelTest, ABlockThatDoesNotFitCannotLaunch) {
  RooflineEstimate a = estimate("huge_smem", a100);
  EXPECT_FALSE(a.launchable);
  EXPECT_NE(a.reason.find("shared memory"), std::string::npos) << a.reason;
  EXPECT_NE(a.describe().find("cannot launch"), std::string::npos);
  // 200000 bytes fit an H100 block.
  EXPECT_TRUE(estimate("huge_smem", h100).launchable);
}

TEST_F(RooflineModelTest, KernelsInSequenceAddUp) {
  // Each kernel alone, its launch included, summed; the slowest describes
  // the bound.
  RooflineEstimate wide = estimate("wide", h100);
  RooflineEstimate narrow = estimate("narrow", h100);
  RooflineEstimate both =
      estimateKernels({kernel("wide"), kernel("narrow")}, h100);
  ASSERT_TRUE(both.launchable);
  EXPECT_DOUBLE_EQ(both.us, wide.us + narrow.us);
  EXPECT_EQ(both.kernels, 2u);
  EXPECT_DOUBLE_EQ(both.slowestUs, narrow.us);
  EXPECT_EQ(both.bound, narrow.bound);
  EXPECT_EQ(both.describe().rfind("2 kernels, ", 0), 0u) << both.describe();
  // One kernel is estimateLatency's estimate.
  EXPECT_EQ(estimateKernels({kernel("wide")}, h100).describe(),
            wide.describe());
  // One that cannot launch fails the sequence, named.
  RooflineEstimate bad =
      estimateKernels({kernel("wide"), kernel("huge_smem")}, a100);
  EXPECT_FALSE(bad.launchable);
  EXPECT_EQ(bad.reason.rfind("@huge_smem: ", 0), 0u) << bad.reason;
  EXPECT_FALSE(estimateKernels({}, h100).launchable);
}

TEST_F(RooflineModelTest, TheA100IsSlowerThanTheH100) {
  for (StringRef name : {"wide", "rows", "loop"})
    EXPECT_GT(estimate(name, a100).us, estimate(name, h100).us) << name.str();
}

TEST_F(RooflineModelTest, DevicesAreTheTargetsReferenceParts) {
  EXPECT_EQ(h100.numSMs, 132);
  EXPECT_EQ(a100.numSMs, 108);
  EXPECT_EQ(h100.maxSharedBytesPerBlock, 232448);
  EXPECT_EQ(a100.maxSharedBytesPerBlock, 166912);
  // Peak FP32: 67 and 19.5 TFLOPS.
  EXPECT_NEAR(h100.numSMs * h100.flopsPerSMPerClock * h100.clockGHz / 1e3, 67.0,
              0.5);
  EXPECT_NEAR(a100.numSMs * a100.flopsPerSMPerClock * a100.clockGHz / 1e3, 19.5,
              0.1);
  EXPECT_TRUE(failed(getDeviceModel("sm_70")));
}

TEST_F(RooflineModelTest, Sm90aIsTheH100OfSm90) {
  // An arch-specific target is modelled as its reference part, not refused
  // for a name the model does not spell out.
  FailureOr<DeviceModel> sm90a = getDeviceModel("sm_90a");
  ASSERT_TRUE(succeeded(sm90a));
  EXPECT_EQ(sm90a->target, "sm_90a");
  EXPECT_EQ(sm90a->capability, 90);
  EXPECT_EQ(sm90a->gpuName, h100.gpuName);
  EXPECT_EQ(sm90a->clockGHz, h100.clockGHz);
  EXPECT_EQ(sm90a->dramGBs, h100.dramGBs);
  for (StringRef name : {"wide", "rows", "loop"})
    EXPECT_EQ(estimate(name, *sm90a).us, estimate(name, h100).us) << name.str();
}

TEST_F(RooflineModelTest, TheBackendSaysItEstimates) {
  std::string error;
  FailureOr<std::unique_ptr<Backend>> backend =
      check(createModelBackend("sm_90"), error);
  ASSERT_TRUE(succeeded(backend)) << error;
  EXPECT_TRUE((*backend)->isEstimate());
  EXPECT_EQ((*backend)->getName(), "model");
  const DeviceContext &context = (*backend)->getContext();
  EXPECT_EQ(context.key, modelContextKey("sm_90"));
  EXPECT_EQ(context.key, "model-sm_90-v12");
  EXPECT_EQ(contextBackend(context), "model");
  EXPECT_FALSE(contextAllowsTf32(context));
  EXPECT_EQ(context.ccMajor, 9);
  EXPECT_EQ(context.smCount, 132);

  // TF32 estimates live in a context of their own.
  FailureOr<std::unique_ptr<Backend>> tf32 =
      check(createModelBackend("sm_90", /*tf32=*/true), error);
  ASSERT_TRUE(succeeded(tf32)) << error;
  EXPECT_EQ((*tf32)->getContext().key, modelContextKey("sm_90", true));
  EXPECT_EQ((*tf32)->getContext().key, "model-sm_90-v12-tf32");
  EXPECT_TRUE(contextAllowsTf32((*tf32)->getContext()));

  Variant variant;
  variant.kernels = {kernel("wide")};
  FailureOr<BackendResult> result = check((*backend)->measure(variant), error);
  ASSERT_TRUE(succeeded(result)) << error;
  EXPECT_TRUE(result->measurement.isValid());
  EXPECT_EQ(result->measurement.samples, 1u);
  EXPECT_DOUBLE_EQ(result->measurement.medianUs, estimate("wide", h100).us);
  EXPECT_EQ(result->detail.rfind("estimated: ", 0), 0u) << result->detail;

  variant.kernels = {kernel("huge_smem")};
  FailureOr<std::unique_ptr<Backend>> old =
      check(createModelBackend("sm_80"), error);
  ASSERT_TRUE(succeeded(old)) << error;
  result = check((*old)->measure(variant), error);
  ASSERT_TRUE(succeeded(result)) << error;
  EXPECT_EQ(result->measurement.status, MeasureStatus::LaunchFail);

  // A variant of several kernels (a split through a workspace) is their sum.
  variant.kernels = {kernel("wide"), kernel("narrow")};
  result = check((*backend)->measure(variant), error);
  ASSERT_TRUE(succeeded(result)) << error;
  EXPECT_DOUBLE_EQ(result->measurement.medianUs,
                   estimate("wide", h100).us + estimate("narrow", h100).us);
  EXPECT_EQ(result->detail.rfind("estimated: 2 kernels, ", 0), 0u)
      << result->detail;

  EXPECT_TRUE(failed(check(createModelBackend("sm_75"), error)));
  EXPECT_NE(error.find("sm_75"), std::string::npos) << error;
}

} // namespace
