//===- VariantTest.cpp - Variants that lower to several kernels -----------===//
//
// A split-K through an f32 workspace lowers to two kernels: the split blocks
// store partial sums to a buffer the host allocates, @<kernel>_split_sum
// adds them into the output. The variant must hold both launches in order
// with the workspace between them, key them all, and make a request the
// fake device runs as one sequence.
//
//===----------------------------------------------------------------------===//

#include "LoopKernels.h"

#include "Deplodock/Runtime/Device.h"
#include "Deplodock/Runtime/Worker.h"
#include "Deplodock/Tuner/StructuralKey.h"
#include "Deplodock/Tuner/Variant.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::tuner;
using namespace deplodock::tuner::testing;

namespace {

class VariantTest : public LoopKernelsTest {
protected:
  dtile::Target sm90 = dtile::Target::lookup(&context, "sm_90");

  /// The terminal reached by taking, at every fork, the first option that
  /// `prefer` accepts, else option 0.
  FailureOr<dtile::ForkCursor>
  walk(StringRef name, llvm::function_ref<bool(dtile::KnobsAttr)> prefer) {
    FailureOr<dtile::ForkCursor> cursor =
        dtile::ForkCursor::start(kernel(name), sm90);
    while (succeeded(cursor) && !cursor->isDone()) {
      ArrayRef<dtile::KnobsAttr> options = cursor->getOptions();
      const dtile::KnobsAttr *pick = llvm::find_if(options, prefer);
      cursor = cursor->choose(pick == options.end() ? options.front() : *pick);
    }
    return cursor;
  }

  /// The terminal of K chunks of `chunk` split `splits` ways through the
  /// workspace, option 0 elsewhere.
  FailureOr<dtile::ForkCursor> workspaceSplit(int64_t chunk, int64_t splits) {
    return walk("matmul", [&](dtile::KnobsAttr knobs) {
      return knobs.getBK() == chunk ||
             (knobs.getSplitK() == splits &&
              knobs.getSplitWorkspace().value_or(false));
    });
  }

  Variant lower(const dtile::ForkCursor &terminal) {
    llvm::Expected<Variant> variant = lowerVariant(terminal, "key", sm90);
    EXPECT_TRUE(bool(variant)) << llvm::toString(variant.takeError());
    return variant ? std::move(*variant) : Variant();
  }
};

TEST_F(VariantTest, AWorkspaceSplitHoldsBothLaunchesAndTheWorkspace) {
  FailureOr<dtile::ForkCursor> terminal = workspaceSplit(32, 2);
  ASSERT_TRUE(succeeded(terminal));
  ASSERT_TRUE(terminal->getKnobs().getSplitWorkspace().value_or(false));
  Variant variant = lower(*terminal);
  ASSERT_EQ(variant.kernels.size(), 2u);
  EXPECT_TRUE(variant.hasSeveralKernels());
  EXPECT_EQ(variant.getMainKernel().getSymName(), "matmul");
  EXPECT_EQ(variant.kernels[1].getSymName(), "matmul_split_sum");

  // The arguments (a, b, the output), then the workspace of partial sums.
  const runtime::KernelProgram &program = variant.program;
  ASSERT_EQ(program.numArguments, 3u);
  ASSERT_EQ(program.buffers.size(), 4u);
  const runtime::BufferSpec &workspace = program.buffers[3];
  EXPECT_EQ(workspace.dtype, runtime::DType::F32);
  EXPECT_EQ(workspace.shape, (SmallVector<int64_t, 4>{2, 16, 64}));
  EXPECT_EQ(program.results, (std::vector<unsigned>{2}));
  ASSERT_EQ(program.launches.size(), 2u);
  EXPECT_EQ(program.launches[0].kernel, "matmul");
  EXPECT_EQ(program.launches[0].writes, (SmallVector<unsigned, 2>{3}));
  EXPECT_EQ(program.launches[1].kernel, "matmul_split_sum");
  EXPECT_EQ(program.launches[1].params[0].buffer, 3u);
  EXPECT_EQ(program.launches[1].writes, (SmallVector<unsigned, 2>{2}));

  // One source with both kernels; the keys cover both.
  EXPECT_NE(variant.cuda.find("matmul_split_sum"), std::string::npos);
  EXPECT_NE(variant.kernelText.find("@matmul_split_sum"), std::string::npos);
  CudaOpRow row = variant.getCudaOpRow();
  EXPECT_EQ(row.key, variant.cudaKey);
  ASSERT_EQ(row.argOrder.size(), 2u);
  EXPECT_EQ(row.argOrder[1].getAsObject()->getString("kernel"),
            "matmul_split_sum");

  // Another split of K through the workspace: other kernels, other keys.
  FailureOr<dtile::ForkCursor> other = workspaceSplit(16, 4);
  ASSERT_TRUE(succeeded(other));
  Variant split2 = lower(*other);
  ASSERT_EQ(split2.kernels.size(), 2u);
  EXPECT_NE(split2.cudaKey, variant.cudaKey);
  EXPECT_NE(split2.kernelKey, variant.kernelKey);

  // The request the cuda backend sends: the fake device runs both launches
  // and times them as one unit (its 10 us a kernel).
  runtime::BenchRequest request = runtime::makeBenchRequest(program, 1);
  ASSERT_EQ(request.outputs.size(), 1u);
  EXPECT_EQ(request.outputs[0].buffer, 2u);
  request.outputs[0].expected = std::vector<uint8_t>(16 * 64 * 4, 0);
  request.time.eachLaunch = false;
  request.timing.warmupMs = 1;
  request.timing.minTimeMs = 0;
  EXPECT_FALSE(bool(runtime::validateRequest(request)));
  llvm::Expected<std::unique_ptr<runtime::Device>> device =
      runtime::createFakeDevice({});
  ASSERT_TRUE(bool(device)) << llvm::toString(device.takeError());
  bool fatal = false;
  llvm::Expected<runtime::BenchResult> result = runtime::runBench(
      **device, request, [](StringRef) {}, fatal);
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(result->status, runtime::BenchStatus::Ok) << result->detail;
  EXPECT_TRUE(result->verified);
  ASSERT_EQ(result->kernels.size(), 2u);
  ASSERT_TRUE(result->timing(-1));
  EXPECT_NEAR(result->timing(-1)->stats.medianUs, 20, 0.1);
}

TEST_F(VariantTest, OneKernelKeepsItsOwnKeys) {
  FailureOr<dtile::ForkCursor> terminal =
      walk("matmul", [](auto) { return false; });
  ASSERT_TRUE(succeeded(terminal));
  Variant variant = lower(*terminal);
  ASSERT_EQ(variant.kernels.size(), 1u);
  EXPECT_FALSE(variant.hasSeveralKernels());
  EXPECT_EQ(variant.kernelKey, opKey(variant.getMainKernel()));
  // The output is the argument the kernel writes; nothing else is held.
  EXPECT_EQ(variant.program.buffers.size(), variant.program.numArguments);
  EXPECT_EQ(variant.program.results, (std::vector<unsigned>{2}));
  // The flat parameter list of one launch.
  CudaOpRow row = variant.getCudaOpRow();
  ASSERT_FALSE(row.argOrder.empty());
  EXPECT_TRUE(row.argOrder[0].getAsObject()->get("param"));
  EXPECT_FALSE(row.argOrder[0].getAsObject()->get("kernel"));
}

} // namespace
