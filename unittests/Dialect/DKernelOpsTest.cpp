//===- DKernelOpsTest.cpp - Tests of the dkernel C++ API ------------------===//
//
// Builds kernels and host launches with the C++ builders, as the Tile-to-
// Kernel lowering would, checks the accessors the CUDA emitter reads, and
// checks that the verifiers reject what is malformed.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"
#include "Deplodock/InitAllDialects.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace deplodock;

namespace {

class DKernelOpsTest : public ::testing::Test {
protected:
  DKernelOpsTest() {
    loadDeplodockDialects(context);
    module = ModuleOp::create(builder, loc);
    builder.setInsertionPointToEnd(module->getBody());
  }

  std::string verifyMessage(Operation *op) {
    return test::firstVerifyError(op);
  }

  /// A global f32 buffer.
  MemRefType global(ArrayRef<int64_t> shape) {
    return MemRefType::get(shape, builder.getF32Type());
  }

  /// A shared buffer of `element`.
  MemRefType shared(ArrayRef<int64_t> shape, Type element) {
    auto space =
        gpu::AddressSpaceAttr::get(&context, gpu::AddressSpace::Workgroup);
    return MemRefType::get(shape, element, MemRefLayoutAttrInterface(), space);
  }

  /// Starts a kernel and leaves the builder in its body.
  dkernel::FuncOp beginKernel(StringRef name, TypeRange params,
                              ArrayRef<int64_t> grid, ArrayRef<int64_t> block,
                              int64_t smem, ArrayRef<int64_t> outputs,
                              ArrayRef<int64_t> zeroInit = {}) {
    builder.setInsertionPointToEnd(module->getBody());
    auto kernel = dkernel::FuncOp::create(builder, loc, name,
                                          builder.getFunctionType(params, {}),
                                          grid, block, smem, outputs, zeroInit);
    builder.setInsertionPointToEnd(kernel.addEntryBlock());
    return kernel;
  }

  MLIRContext context;
  OpBuilder builder{&context};
  Location loc = UnknownLoc::get(&context);
  OwningOpRef<ModuleOp> module;
};

/// The block-sum kernel of RMSNorm in miniature: a strided partial sum, a
/// warp reduction, warp partials in shared memory and a tree reduction, then
/// a host function that launches it.
TEST_F(DKernelOpsTest, BuildsKernelAndLaunch) {
  MemRefType x = global({32, 2048}), y = global({32});
  auto kernel = beginKernel("row_sum", {x, y}, {32, 1, 1}, {256, 1, 1},
                            /*smem=*/32, /*outputs=*/{1});
  Value c32 = arith::ConstantIndexOp::create(builder, loc, 32);
  Value c256 = arith::ConstantIndexOp::create(builder, loc, 256);
  Value c2048 = arith::ConstantIndexOp::create(builder, loc, 2048);
  Value zero = arith::ConstantFloatOp::create(
      builder, loc, builder.getF32Type(), APFloat(0.0f));
  auto partials = dkernel::AllocSharedOp::create(
      builder, loc, shared({8}, builder.getF32Type()), /*offset=*/0);
  Value row = gpu::BlockIdOp::create(builder, loc, gpu::Dimension::x);
  Value tid = gpu::ThreadIdOp::create(builder, loc, gpu::Dimension::x);
  auto loop = scf::ForOp::create(
      builder, loc, tid, c2048, c256, ValueRange{zero},
      [&](OpBuilder &b, Location l, Value k, ValueRange acc) {
        Value v = memref::LoadOp::create(b, l, kernel.getArgument(0),
                                         ValueRange{row, k});
        Value sum = arith::AddFOp::create(b, l, acc[0], v);
        scf::YieldOp::create(b, l, sum);
      });
  dkernel::setUnrollFactor(loop, 4);
  auto warpSum = dkernel::WarpReduceOp::create(builder, loc, ReduceKind::add,
                                               loop.getResult(0), /*width=*/32);
  Value warp = arith::DivUIOp::create(builder, loc, tid, c32);
  memref::StoreOp::create(builder, loc, warpSum, partials, ValueRange{warp});
  gpu::BarrierOp::create(builder, loc);
  auto total = dkernel::TreeReduceOp::create(builder, loc, ReduceKind::add,
                                             partials, /*length=*/8);
  dkernel::AtomicStoreOp::create(builder, loc, ReduceKind::add, total,
                                 kernel.getArgument(1), ValueRange{row});
  dkernel::ReturnOp::create(builder, loc);

  builder.setInsertionPointToEnd(module->getBody());
  auto host = func::FuncOp::create(builder, loc, "forward",
                                   builder.getFunctionType({x, y}, {}));
  builder.setInsertionPointToEnd(host.addEntryBlock());
  auto launch =
      dkernel::LaunchOp::create(builder, loc, kernel, host.getArguments());
  func::ReturnOp::create(builder, loc);

  EXPECT_EQ(verifyMessage(*module), "");
  EXPECT_EQ(kernel.getGrid(), ArrayRef<int64_t>({32, 1, 1}));
  EXPECT_EQ(kernel.getBlock(), ArrayRef<int64_t>({256, 1, 1}));
  EXPECT_EQ(kernel.getNumThreads(), 256);
  EXPECT_EQ(kernel.getSmem(), 32);
  EXPECT_EQ(kernel.getOutputs(), ArrayRef<int64_t>({1}));
  EXPECT_FALSE(kernel.isOutput(0));
  EXPECT_TRUE(kernel.isOutput(1));
  EXPECT_FALSE(kernel.isZeroInit(1));
  EXPECT_FALSE(kernel.getZeroInit());
  EXPECT_EQ(kernel.getBufferTypes(), SmallVector<Type>({x, y}));
  EXPECT_TRUE(kernel.getReturn());
  EXPECT_EQ(partials.getSizeInBytes(), 32);
  EXPECT_EQ(warpSum.getType(), builder.getF32Type());
  EXPECT_EQ(total.getType(), builder.getF32Type());
  EXPECT_EQ(total.getKind(), ReduceKind::add);
  EXPECT_EQ(dkernel::getUnrollFactor(loop), 4);
  EXPECT_EQ(dkernel::getUnrollFactor(host), std::nullopt);
  EXPECT_EQ(launch.getCallee(), "row_sum");
}

/// A TMA kernel: the descriptor is a parameter the launch does not pass, and
/// the descriptor op names the buffer the runtime encodes it from.
TEST_F(DKernelOpsTest, BuildsTmaKernel) {
  auto descType = dkernel::TmaDescriptorType::get(
      &context, {64, 32}, builder.getF32Type(), /*swizzle=*/128);
  MemRefType x = global({128, 2048}), y = global({128, 2048});
  auto kernel = beginKernel("tma", {x, descType, y}, {64, 2, 1}, {128, 1, 1},
                            /*smem=*/8208, /*outputs=*/{2},
                            /*zeroInit=*/{2});
  dkernel::TmaDescriptorOp::create(builder, loc, kernel.getArgument(1),
                                   kernel.getArgument(0));
  Value c0 = arith::ConstantIndexOp::create(builder, loc, 0);
  Value tile = dkernel::AllocSharedOp::create(
      builder, loc, shared({64, 32}, builder.getF32Type()), 0);
  Value mbarriers = dkernel::AllocSharedOp::create(
      builder, loc, shared({2}, builder.getI64Type()), 8192);
  dkernel::MbarrierInitOp::create(builder, loc, mbarriers, c0, /*count=*/1);
  dkernel::MbarrierArriveExpectTxOp::create(builder, loc, mbarriers, c0,
                                            descType.getBoxBytes());
  dkernel::TmaLoadOp::create(builder, loc, kernel.getArgument(1),
                             ValueRange{c0, c0}, tile, mbarriers, c0,
                             /*multicast=*/Value());
  dkernel::MbarrierWaitOp::create(builder, loc, mbarriers, c0, c0);
  dkernel::ReturnOp::create(builder, loc);

  EXPECT_EQ(verifyMessage(*module), "");
  EXPECT_EQ(descType.getBoxShape(), ArrayRef<int64_t>({64, 32}));
  EXPECT_EQ(descType.getElementType(), builder.getF32Type());
  EXPECT_EQ(descType.getSwizzle(), 128);
  EXPECT_EQ(descType.getRank(), 2u);
  EXPECT_EQ(descType.getBoxBytes(), 8192);
  EXPECT_TRUE(kernel.isTmaDescriptor(1));
  EXPECT_FALSE(kernel.isTmaDescriptor(0));
  EXPECT_TRUE(kernel.isZeroInit(2));
  dkernel::TmaDescriptorOp desc = kernel.getTmaDescriptorOp(1);
  ASSERT_TRUE(desc);
  EXPECT_EQ(desc.getDescriptorIndex(), 1u);
  EXPECT_EQ(desc.getBufferIndex(), 0u);
  EXPECT_FALSE(kernel.getTmaDescriptorOp(0));
  SmallVector<BlockArgument> buffers = kernel.getBufferArguments();
  ASSERT_EQ(buffers.size(), 2u);
  EXPECT_EQ(buffers[0].getArgNumber(), 0u);
  EXPECT_EQ(buffers[1].getArgNumber(), 2u);
}

/// A descriptor type the hardware cannot encode is refused when built.
TEST_F(DKernelOpsTest, RejectsBadDescriptorType) {
  std::string message;
  auto emitDiag = [&] { return emitError(loc); };
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  auto type = dkernel::TmaDescriptorType::getChecked(
      emitDiag, &context, {8, 64}, builder.getF32Type(), /*swizzle=*/64);
  EXPECT_FALSE(type);
  EXPECT_EQ(message, "the innermost TMA box extent spans 256 bytes, more "
                     "than the 64-byte swizzle span");
}

TEST_F(DKernelOpsTest, RejectsOversizedBlock) {
  beginKernel("big", {global({4})}, {1, 1, 1}, {64, 32, 1}, 0, {0});
  dkernel::ReturnOp::create(builder, loc);
  EXPECT_EQ(verifyMessage(*module),
            "'dkernel.func' op block has 2048 threads, more than the 1024 a "
            "block may have on sm_90");
}

TEST_F(DKernelOpsTest, RejectsSharedSliceOutsidePool) {
  beginKernel("small_pool", {global({4})}, {1, 1, 1}, {32, 1, 1},
              /*smem=*/64, {0});
  dkernel::AllocSharedOp::create(builder, loc,
                                 shared({32}, builder.getF32Type()), 16);
  dkernel::ReturnOp::create(builder, loc);
  EXPECT_EQ(verifyMessage(*module),
            "'dkernel.alloc_shared' op bytes [16, 144) exceed the kernel's "
            "64 bytes of shared memory");
}

TEST_F(DKernelOpsTest, RejectsLaunchWithWrongBuffer) {
  auto kernel = beginKernel("k", {global({4}), global({8})}, {1, 1, 1},
                            {32, 1, 1}, 0, {1});
  dkernel::ReturnOp::create(builder, loc);
  builder.setInsertionPointToEnd(module->getBody());
  auto host = func::FuncOp::create(
      builder, loc, "host",
      builder.getFunctionType({global({4}), global({4})}, {}));
  builder.setInsertionPointToEnd(host.addEntryBlock());
  dkernel::LaunchOp::create(builder, loc, kernel, host.getArguments());
  func::ReturnOp::create(builder, loc);
  EXPECT_EQ(verifyMessage(*module),
            "'dkernel.launch' op argument #1 has type 'memref<4xf32>' but "
            "parameter #1 of @k is 'memref<8xf32>'");
}

TEST_F(DKernelOpsTest, RejectsUnrollOutsideLoops) {
  auto kernel = beginKernel("k", {global({4})}, {1, 1, 1}, {32, 1, 1}, 0, {0});
  dkernel::ReturnOp::create(builder, loc);
  dkernel::setUnrollFactor(kernel, 2);
  EXPECT_EQ(verifyMessage(*module),
            "'dkernel.func' op 'dkernel.unroll' is only valid on scf.for");
}

} // namespace
