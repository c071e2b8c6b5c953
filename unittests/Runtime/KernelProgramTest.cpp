//===- KernelProgramTest.cpp - Requests from Kernel IR --------------------===//
//
// Host functions and single kernels become buffers and launches: parameter
// order, outputs, zeroed outputs, TMA descriptors, results; anything else in
// a host function is a located error.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Runtime/KernelProgram.h"

#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"
#include "Deplodock/InitAllDialects.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <cstring>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::runtime;

namespace {

constexpr const char *kModule = R"mlir(
dkernel.func @split_k(%a: memref<4x8xf32>, %c: memref<4xf32>) outputs [1] zero_init [1] grid [1, 1, 2] block [4, 1, 1] smem 0 {
  %z = arith.constant 0.0 : f32
  %t = gpu.thread_id x
  dkernel.atomic_store add %z, %c[%t] : memref<4xf32>
  dkernel.return
}
dkernel.func @tma(%x: memref<64x32xf16>, %desc: !dkernel.tma_descriptor<16x32xf16, swizzle = 64>, %y: memref<4xf32>, %i: memref<2xi8>) outputs [2] grid [4, 1, 1] block [32, 1, 1] smem 1024 {
  dkernel.wait_prior_grids
  dkernel.tma_descriptor %desc describes %x : !dkernel.tma_descriptor<16x32xf16, swizzle = 64>, memref<64x32xf16>
  dkernel.return
}
func.func @host(%a: memref<4x8xf32>, %x: memref<64x32xf16>, %i: memref<2xi8>) -> (memref<4xf32>, memref<4xf32>) {
  %c = memref.alloc() : memref<4xf32>
  dkernel.launch @split_k(%a, %c) : memref<4x8xf32>, memref<4xf32>
  %y = memref.alloc() : memref<4xf32>
  dkernel.launch @tma(%x, %y, %i) : memref<64x32xf16>, memref<4xf32>, memref<2xi8>
  return %y, %c : memref<4xf32>, memref<4xf32>
}
)mlir";

class KernelProgramTest : public testing::Test {
protected:
  KernelProgramTest() {
    DialectRegistry registry;
    registerDeplodockDialects(registry);
    registerDeplodockInputDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }
  OwningOpRef<ModuleOp> parse(const char *text) {
    return parseSourceString<ModuleOp>(text, &context);
  }
  /// The diagnostics emitted while running `fn`.
  template <typename Fn> std::string diagnostics(Fn fn) {
    std::string messages;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
      messages += d.str();
      return success();
    });
    fn();
    return messages;
  }
  MLIRContext context;
};

TEST_F(KernelProgramTest, HostFunction) {
  OwningOpRef<ModuleOp> module = parse(kModule);
  ASSERT_TRUE(module);
  auto host = module->lookupSymbol<func::FuncOp>("host");
  FailureOr<KernelProgram> program = buildKernelProgram(host);
  ASSERT_TRUE(succeeded(program));
  EXPECT_NE(program->source.find("split_k("), std::string::npos);
  EXPECT_NE(program->source.find("CUtensorMap"), std::string::npos);
  ASSERT_EQ(program->buffers.size(), 5u);
  EXPECT_EQ(program->numArguments, 3u);
  EXPECT_EQ(program->buffers[0].name, "arg0");
  EXPECT_EQ(program->buffers[1].dtype, DType::F16);
  EXPECT_EQ(program->buffers[2].dtype, DType::I8);
  EXPECT_EQ(program->buffers[3].name, "alloc0");
  EXPECT_EQ(program->buffers[3].shape, (llvm::SmallVector<int64_t, 4>{4}));
  EXPECT_EQ(program->results, (std::vector<unsigned>{4, 3}));

  ASSERT_EQ(program->launches.size(), 2u);
  const LaunchSpec &splitK = program->launches[0];
  EXPECT_EQ(splitK.kernel, "split_k");
  EXPECT_EQ(splitK.grid, (std::array<uint32_t, 3>{1, 1, 2}));
  ASSERT_EQ(splitK.params.size(), 2u);
  EXPECT_EQ(splitK.params[0].buffer, 0u);
  EXPECT_EQ(splitK.params[1].buffer, 3u);
  EXPECT_EQ(splitK.zero, (llvm::SmallVector<unsigned, 2>{3}));
  EXPECT_EQ(splitK.writes, (llvm::SmallVector<unsigned, 2>{3}));
  EXPECT_FALSE(splitK.early);

  // The descriptor sits at its IR position and describes buffer 1 (%x).
  const LaunchSpec &tma = program->launches[1];
  EXPECT_EQ(tma.smemBytes, 1024u);
  ASSERT_EQ(tma.params.size(), 4u);
  EXPECT_EQ(tma.params[0].buffer, 1u);
  ASSERT_TRUE(tma.params[1].tma);
  EXPECT_EQ(tma.params[1].tma->buffer, 1u);
  EXPECT_EQ(tma.params[1].tma->box, (llvm::SmallVector<int64_t, 4>{16, 32}));
  EXPECT_EQ(tma.params[1].tma->swizzle, 64u);
  EXPECT_EQ(tma.params[2].buffer, 4u);
  EXPECT_EQ(tma.params[3].buffer, 2u);
  EXPECT_TRUE(tma.zero.empty());
  // It waits for the grids before it first: it may launch early.
  EXPECT_TRUE(tma.early);

  // Index elements are as wide as the emitter prints them.
  EXPECT_EQ(getDType(IndexType::get(&context)), DType::I32);
  EXPECT_EQ(getDType(IndexType::get(&context), 64), DType::I64);
  EXPECT_EQ(getDType(BFloat16Type::get(&context)), DType::BF16);
  EXPECT_FALSE(getDType(IntegerType::get(&context, 4)));
  EXPECT_EQ(getDType(Float8E4M3FNType::get(&context)), DType::F8E4M3FN);
  EXPECT_EQ(getDType(Float8E5M2Type::get(&context)), DType::F8E5M2);
  EXPECT_FALSE(getDType(Float8E4M3FNUZType::get(&context)));

  // The request: seeded arguments, poisoned allocations, one output per
  // distinct result, and it is valid.
  BenchRequest request = makeBenchRequest(*program, 5);
  EXPECT_EQ(request.buffers[1].init, InitKind::Seeded);
  EXPECT_EQ(request.buffers[1].seed, 5u);
  EXPECT_EQ(request.buffers[1].stream, 1u);
  EXPECT_EQ(request.buffers[3].init, InitKind::Poison);
  ASSERT_EQ(request.outputs.size(), 2u);
  EXPECT_EQ(request.outputs[0].buffer, 4u);
  EXPECT_FALSE(bool(validateRequest(request)));
}

TEST_F(KernelProgramTest, SingleKernel) {
  OwningOpRef<ModuleOp> module = parse(kModule);
  ASSERT_TRUE(module);
  auto kernel = module->lookupSymbol<dkernel::FuncOp>("tma");
  FailureOr<KernelProgram> program = buildKernelProgram(kernel);
  ASSERT_TRUE(succeeded(program));
  ASSERT_EQ(program->buffers.size(), 3u);
  EXPECT_EQ(program->numArguments, 3u);
  EXPECT_EQ(program->results, (std::vector<unsigned>{1}));
  ASSERT_EQ(program->launches.size(), 1u);
  EXPECT_EQ(program->launches[0].params[1].tma->buffer, 0u);
  EXPECT_EQ(program->launches[0].params[2].buffer, 1u);
}

TEST_F(KernelProgramTest, OnlyAllocationsLaunchesAndReturns) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
dkernel.func @k(%a: memref<4xf32>) outputs [0] grid [1, 1, 1] block [4, 1, 1] smem 0 {
  dkernel.return
}
func.func @copy(%a: memref<4xf32>) -> memref<4xf32> {
  %b = memref.alloc() : memref<4xf32>
  memref.copy %a, %b : memref<4xf32> to memref<4xf32>
  dkernel.launch @k(%b) : memref<4xf32>
  return %b : memref<4xf32>
}
func.func @scalar(%a: memref<4xf32>, %s: f32) {
  dkernel.launch @k(%a) : memref<4xf32>
  return
}
func.func @nothing(%a: memref<4xf32>) {
  return
}
func.func @strided(%a: memref<4xf32, strided<[2]>>) {
  return
}
)mlir");
  ASSERT_TRUE(module);
  auto error = [&](const char *name) {
    return diagnostics([&] {
      EXPECT_TRUE(
          failed(buildKernelProgram(module->lookupSymbol<func::FuncOp>(name))));
    });
  };
  EXPECT_EQ(error("copy"),
            "'memref.copy' op cannot run on the GPU runtime: a host function "
            "may only allocate buffers, read constant globals, launch "
            "dkernel.funcs and return buffers");
  EXPECT_EQ(error("scalar"),
            "cannot hold argument #1 of type 'f32' on the GPU: only "
            "statically shaped memrefs with the identity layout");
  // Nothing to launch is a valid program: no source, no launches.
  FailureOr<KernelProgram> nothing =
      buildKernelProgram(module->lookupSymbol<func::FuncOp>("nothing"));
  ASSERT_TRUE(succeeded(nothing));
  EXPECT_TRUE(nothing->launches.empty());
  EXPECT_TRUE(nothing->source.empty());
  EXPECT_EQ(nothing->numArguments, 1u);
  EXPECT_EQ(error("strided"),
            "cannot hold argument #0 of type 'memref<4xf32, strided<[2]>>' "
            "on the GPU: only statically shaped memrefs with the identity "
            "layout");
}

TEST_F(KernelProgramTest, ConstantGlobals) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
memref.global "private" constant @table : memref<2x2xf32> = dense<[[1.0, -2.0], [0.5, 3.0]]>
memref.global "private" constant @ids : memref<3xi64> = dense<[-1, 9007199254740993, 7]>
memref.global "private" constant @mask : memref<2xi1> = dense<[true, false]>
memref.global "private" constant @half : memref<4xf16> = dense<1.5>
memref.global "private" @mutable : memref<2xf32> = dense<0.0>
dkernel.func @k(%a: memref<2x2xf32>, %b: memref<3xi64>, %c: memref<2xi1>, %d: memref<4xf16>, %y: memref<4xf32>) outputs [4] grid [1, 1, 1] block [4, 1, 1] smem 0 {
  dkernel.return
}
dkernel.func @one(%a: memref<2xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  dkernel.return
}
func.func @host() -> memref<4xf32> {
  %t = memref.get_global @table : memref<2x2xf32>
  %i = memref.get_global @ids : memref<3xi64>
  %m = memref.get_global @mask : memref<2xi1>
  %h = memref.get_global @half : memref<4xf16>
  %again = memref.get_global @table : memref<2x2xf32>
  %y = memref.alloc() : memref<4xf32>
  dkernel.launch @k(%t, %i, %m, %h, %y) : memref<2x2xf32>, memref<3xi64>, memref<2xi1>, memref<4xf16>, memref<4xf32>
  dkernel.launch @k(%again, %i, %m, %h, %y) : memref<2x2xf32>, memref<3xi64>, memref<2xi1>, memref<4xf16>, memref<4xf32>
  return %y : memref<4xf32>
}
func.func @writable() {
  %g = memref.get_global @mutable : memref<2xf32>
  dkernel.launch @one(%g) : memref<2xf32>
  return
}
func.func @returned() -> memref<2x2xf32> {
  %t = memref.get_global @table : memref<2x2xf32>
  return %t : memref<2x2xf32>
}
)mlir");
  ASSERT_TRUE(module);
  FailureOr<KernelProgram> program =
      buildKernelProgram(module->lookupSymbol<func::FuncOp>("host"));
  ASSERT_TRUE(succeeded(program));
  // One buffer per global, whatever reads it.
  ASSERT_EQ(program->buffers.size(), 5u);
  EXPECT_EQ(program->launches[1].params[0].buffer,
            program->launches[0].params[0].buffer);
  const BufferSpec &table = program->buffers[0];
  EXPECT_EQ(table.name, "table");
  EXPECT_EQ(table.init, InitKind::Data);
  EXPECT_EQ(program->getRole(0), BufferRole::Constant);
  ASSERT_EQ(table.data.size(), 16u);
  EXPECT_EQ(readElement(DType::F32, table.data.data(), 1), -2.0);
  EXPECT_EQ(readElement(DType::F32, table.data.data(), 2), 0.5);
  // Integers bit for bit, past what a double holds.
  const BufferSpec &ids = program->buffers[1];
  ASSERT_EQ(ids.data.size(), 24u);
  int64_t second = 0, first = 0;
  std::memcpy(&first, ids.data.data(), 8);
  std::memcpy(&second, ids.data.data() + 8, 8);
  EXPECT_EQ(first, -1);
  EXPECT_EQ(second, 9007199254740993);
  EXPECT_EQ(program->buffers[2].data, (std::vector<uint8_t>{1, 0}));
  // A splat fills every element.
  EXPECT_EQ(program->buffers[3].data,
            (std::vector<uint8_t>{0, 0x3e, 0, 0x3e, 0, 0x3e, 0, 0x3e}));
  EXPECT_EQ(program->getRole(4), BufferRole::Output);
  EXPECT_EQ(program->getBindings(), (std::vector<unsigned>{4}));

  auto error = [&](const char *name) {
    return diagnostics([&] {
      EXPECT_TRUE(
          failed(buildKernelProgram(module->lookupSymbol<func::FuncOp>(name))));
    });
  };
  EXPECT_EQ(error("writable"),
            "'memref.get_global' op reads @mutable, which the GPU runtime "
            "cannot hold: only constant globals with a dense initial value of "
            "their own shape");
  EXPECT_EQ(error("returned"), "'func.return' op returns a constant global, "
                               "which the GPU runtime cannot return");
}

TEST_F(KernelProgramTest, BytesAndBuffers) {
  interp::Buffer buffer({2, 2}, Float16Type::get(&context));
  buffer.data = {1, -2, 0.5, 65504};
  std::vector<uint8_t> bytes = toBytes(buffer, DType::F16);
  ASSERT_EQ(bytes.size(), 8u);
  EXPECT_EQ(bytes[0], 0x00);
  EXPECT_EQ(bytes[1], 0x3c); // 1.0 is 0x3c00
  interp::Buffer back =
      fromBytes(bytes, DType::F16, {2, 2}, Float16Type::get(&context));
  EXPECT_EQ(back.data, buffer.data);
  EXPECT_EQ(back.shape, buffer.shape);
}

} // namespace
