//===- DTileRulesTest.cpp - Tests of the Tile rules' fork interface -------===//
//
// Checks what the tuner relies on: the rule registry (order, names, the knobs
// each rule owns), the targets, the generated knob accessors and structs, the
// knobs option syntax (parse, print, round trip, errors), the choosers and
// the driver's choice of option, and the fork cursor: that
// exploring never touches the input IR, that enumerating, counting and
// sampling agree, and that every variant verifies and is reproduced exactly
// by dtile-lower from its knobs alone.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Dialect/DTile/IR/DTileKnobs.h"
#include "Deplodock/Dialect/DTile/Transforms/ForkCursor.h"
#include "Deplodock/Dialect/DTile/Transforms/OptionChooser.h"
#include "Deplodock/Dialect/DTile/Transforms/Passes.h"
#include "Deplodock/Dialect/DTile/Transforms/Rules.h"
#include "Deplodock/InitAllDialects.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

#include "gtest/gtest.h"

#include <functional>
#include <optional>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dtile;

namespace {

/// Loop-level kernels of every class (the same as the lit tests' Inputs),
/// and one that no rule applies to.
constexpr llvm::StringLiteral kKernels = R"mlir(
func.func @matmul(%arg0: memref<16x128xf32>, %arg1: memref<128x64xf32>) -> memref<16x64xf32> {
  %alloc = memref.alloc() : memref<16x64xf32>
  dloop.kernel @matmul_0_reduce ins(%in0 = %arg0 : memref<16x128xf32>, %in1 = %arg1 : memref<128x64xf32>) outs(%out0 = %alloc : memref<16x64xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dloop.for %d0 = 0 to 16 free "d0" {
      dloop.for %d1 = 0 to 64 free "d1" {
        %0 = dloop.for %r0 = 0 to 128 reduce "r0" iter(%acc = %cst : f32) {
          %1 = dloop.load %in0[%d0, %r0] : memref<16x128xf32>
          %2 = dloop.load %in1[%r0, %d1] : memref<128x64xf32>
          %3 = arith.mulf %1, %2 : f32
          %4 = arith.addf %acc, %3 : f32
          dloop.yield %4 : f32
        }
        dloop.store %0, %out0[%d0, %d1] : memref<16x64xf32>
      }
    }
  }
  return %alloc : memref<16x64xf32>
}
func.func @rowsum(%arg0: memref<8x512xf32>) -> memref<8x512xf32> {
  %alloc = memref.alloc() : memref<8x512xf32>
  dloop.kernel @rowsum_0_reduce ins(%in0 = %arg0 : memref<8x512xf32>) outs(%out0 = %alloc : memref<8x512xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dloop.for %d0 = 0 to 8 free "d0" {
      %0 = dloop.for %r0 = 0 to 512 reduce "r0" iter(%acc = %cst : f32) {
        %1 = dloop.load %in0[%d0, %r0] : memref<8x512xf32>
        %2 = arith.addf %acc, %1 : f32
        dloop.yield %2 : f32
      }
      dloop.for %d1 = 0 to 512 free "d1" {
        %1 = dloop.load %in0[%d0, %d1] : memref<8x512xf32>
        %2 = arith.divf %1, %0 : f32
        dloop.store %2, %out0[%d0, %d1] : memref<8x512xf32>
      }
    }
  }
  return %alloc : memref<8x512xf32>
}
func.func @scale(%arg0: memref<4x256xf32>) -> memref<4x256xf32> {
  %alloc = memref.alloc() : memref<4x256xf32>
  dloop.kernel @scale_0_pointwise ins(%in0 = %arg0 : memref<4x256xf32>) outs(%out0 = %alloc : memref<4x256xf32>) {
    %cst = arith.constant 2.000000e+00 : f32
    dloop.for %d0 = 0 to 4 free "d0" {
      dloop.for %d1 = 0 to 256 free "d1" {
        %0 = dloop.load %in0[%d0, %d1] : memref<4x256xf32>
        %1 = arith.mulf %0, %cst : f32
        dloop.store %1, %out0[%d0, %d1] : memref<4x256xf32>
      }
    }
  }
  return %alloc : memref<4x256xf32>
}
func.func @gemv(%arg0: memref<256x64xf32>, %arg1: memref<256xf32>) -> memref<64xf32> {
  %alloc = memref.alloc() : memref<64xf32>
  dloop.kernel @gemv_0_reduce ins(%in0 = %arg1 : memref<256xf32>, %in1 = %arg0 : memref<256x64xf32>) outs(%out0 = %alloc : memref<64xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dloop.for %d0 = 0 to 64 free "d0" {
      %0 = dloop.for %r0 = 0 to 256 reduce "r0" iter(%acc = %cst : f32) {
        %1 = dloop.load %in0[%r0] : memref<256xf32>
        %2 = dloop.load %in1[%r0, %d0] : memref<256x64xf32>
        %3 = arith.mulf %1, %2 : f32
        %4 = arith.addf %acc, %3 : f32
        dloop.yield %4 : f32
      }
      dloop.store %0, %out0[%d0] : memref<64xf32>
    }
  }
  return %alloc : memref<64xf32>
}
func.func @single(%arg0: memref<1xf32>) -> memref<1xf32> {
  %alloc = memref.alloc() : memref<1xf32>
  dloop.kernel @single_0_pointwise ins(%in0 = %arg0 : memref<1xf32>) outs(%out0 = %alloc : memref<1xf32>) {
    %0 = dloop.load %in0[0] : memref<1xf32>
    %1 = arith.negf %0 : f32
    dloop.store %1, %out0[0] : memref<1xf32>
  }
  return %alloc : memref<1xf32>
}
)mlir";

/// The kernels above that the rules map onto the GPU.
constexpr llvm::StringLiteral kForkingKernels[] = {
    "matmul_0_reduce", "rowsum_0_reduce", "scale_0_pointwise", "gemv_0_reduce"};

class DTileRulesTest : public ::testing::Test {
protected:
  DTileRulesTest() {
    loadDeplodockDialects(context);
    module = parseSourceString<ModuleOp>(kKernels, &context);
  }

  /// The Loop-level kernel called `name`.
  dloop::KernelOp getLoopKernel(StringRef name) {
    dloop::KernelOp found;
    module->walk([&](dloop::KernelOp kernel) {
      if (kernel.getSymName() == name)
        found = kernel;
    });
    return found;
  }

  /// `#dtile.knobs<text>`.
  KnobsAttr knobs(StringRef text) {
    return cast<KnobsAttr>(
        parseAttribute(("#dtile.knobs<" + text + ">").str(), &context));
  }

  /// The cursor at the root of `name`'s fork tree.
  ForkCursor start(StringRef name, Target target) {
    FailureOr<ForkCursor> cursor =
        ForkCursor::start(getLoopKernel(name), target);
    EXPECT_TRUE(succeeded(cursor)) << name.str();
    return std::move(*cursor);
  }

  /// `op` printed on its own (values from outside print alike everywhere).
  static std::string print(Operation *op) {
    std::string text;
    llvm::raw_string_ostream os(text);
    op->print(os, OpPrintingFlags().useLocalScope());
    return text;
  }

  /// `module` lowered by dtile-lower with `knobs` (a knobs option); the
  /// first diagnostic in `error`.
  OwningOpRef<ModuleOp> lower(StringRef target, StringRef knobs,
                              std::string *error = nullptr) {
    OwningOpRef<ModuleOp> lowered = module->clone();
    PassManager pm(&context);
    DTileLowerOptions options;
    options.target = target.str();
    options.knobs = knobs.str();
    pm.addPass(createDTileLower(options));
    std::string message;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      if (message.empty())
        message = diag.str();
      return success();
    });
    LogicalResult result = pm.run(*lowered);
    if (error)
      *error = message;
    EXPECT_TRUE(succeeded(result) || error) << message;
    return succeeded(result) ? std::move(lowered) : nullptr;
  }

  /// The Tile-level kernel called `name` in `op`.
  static KernelOp getTileKernel(Operation *op, StringRef name) {
    KernelOp found;
    op->walk([&](KernelOp kernel) {
      if (kernel.getSymName() == name)
        found = kernel;
    });
    return found;
  }

  /// Calls `visit` on every cursor of the tree below `cursor`, depth-first,
  /// up to `limit` leaves; fails the test where a choice fails.
  static void walk(const ForkCursor &cursor, size_t limit, size_t &leaves,
                   llvm::function_ref<void(const ForkCursor &)> visit) {
    if (leaves >= limit)
      return;
    visit(cursor);
    if (cursor.isDone()) {
      ++leaves;
      return;
    }
    for (KnobsAttr option : cursor.getOptions()) {
      FailureOr<ForkCursor> next = cursor.choose(option);
      ASSERT_TRUE(succeeded(next)) << cursor.getRule().getName().str() << " "
                                   << formatKnobsOption("", option);
      walk(*next, limit, leaves, visit);
    }
  }

  /// The leaf below `root` that the complete assignment `knobs` names.
  static FailureOr<ForkCursor> follow(const ForkCursor &root, KnobsAttr knobs) {
    // The option of `cursor`'s fork whose values `knobs` has, the one
    // setting the most knobs (an option without an optional knob matches
    // too).
    auto pick = [&](const ForkCursor &cursor) -> FailureOr<KnobsAttr> {
      KnobsAttr best;
      for (KnobsAttr option : cursor.getOptions())
        if (llvm::all_of(option.getEntries(),
                         [&](NamedAttribute entry) {
                           return knobs.getEntries().get(entry.getName()) ==
                                  entry.getValue();
                         }) &&
            (!best || option.getEntries().size() > best.getEntries().size()))
          best = option;
      if (!best)
        return failure();
      return best;
    };
    if (root.isDone())
      return failure();
    FailureOr<KnobsAttr> option = pick(root);
    if (failed(option))
      return failure();
    FailureOr<ForkCursor> cursor = root.choose(*option);
    while (succeeded(cursor) && !cursor->isDone()) {
      option = pick(*cursor);
      if (failed(option))
        return failure();
      cursor = cursor->choose(*option);
    }
    return cursor;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  Target sm80 = Target::lookup(&context, "sm_80");
  Target sm90 = Target::lookup(&context, "sm_90");
};

//===----------------------------------------------------------------------===//
// Registry and targets
//===----------------------------------------------------------------------===//

TEST_F(DTileRulesTest, RulesRunInPipelineOrder) {
  SmallVector<StringRef> names;
  for (const std::unique_ptr<Rule> &rule : getRules())
    names.push_back(rule->getName());
  // wgmma_async and mma_sync first, register_tile before stage_inputs: see
  // Rules.td.
  EXPECT_EQ(names, (SmallVector<StringRef>{"wgmma_async",
                                           "mma_sync",
                                           "chunk_matmul_k",
                                           "split_matmul_k",
                                           "cooperative_reduce",
                                           "attention_mma",
                                           "attention_blocks",
                                           "attention_split_d",
                                           "attention_rows",
                                           "blockify_launch",
                                           "chunk_reduce",
                                           "register_tile",
                                           "stage_inputs",
                                           "permute_register_tile",
                                           "transpose_a",
                                           "vector_reads",
                                           "vector_stores",
                                           "pad_smem",
                                           "double_buffer",
                                           "async_copy",
                                           "tma_copy",
                                           "vector_copy",
                                           "split_inner_for_swizzle",
                                           "causal_bound",
                                           "pipeline_k_outer",
                                           "warp_specialize",
                                           "cluster_multicast",
                                           "register_double_buffer",
                                           "mark_unroll",
                                           "persistent_tiles",
                                           "tile_order"}));
  llvm::StringSet<> unique;
  for (StringRef name : names)
    EXPECT_TRUE(unique.insert(name).second) << name.str();
}

TEST_F(DTileRulesTest, LookupRule) {
  for (const std::unique_ptr<Rule> &rule : getRules())
    EXPECT_EQ(lookupRule(rule->getName()), rule.get());
  EXPECT_EQ(lookupRule(""), nullptr);
  EXPECT_EQ(lookupRule("chunk-matmul-k"), nullptr);
  EXPECT_EQ(lookupRule("swizzle"), nullptr); // a knob, not a rule
}

TEST_F(DTileRulesTest, Targets) {
  EXPECT_EQ(sm80.getName(), "sm_80");
  EXPECT_EQ(sm80.getCapability(), 80);
  EXPECT_EQ(sm80.getSmCount(), 108);
  EXPECT_EQ(sm80.getSmemPerBlock(), 166912);
  EXPECT_TRUE(sm80.has(GpuFeature::cp_async));
  EXPECT_FALSE(sm80.has(GpuFeature::tma));
  EXPECT_EQ(sm90.getCapability(), 90);
  EXPECT_EQ(sm90.getSmCount(), 132);
  EXPECT_EQ(sm90.getSmemPerBlock(), 232448);
  EXPECT_TRUE(sm90.has(GpuFeature::tma));
  EXPECT_EQ(sm90.getThreadsPerBlock(), 1024);
  EXPECT_FALSE(Target::lookup(&context, "sm_70"));
  EXPECT_FALSE(Target::lookup(&context, ""));
  EXPECT_FALSE(Target::lookup(&context, "SM_90"));
  EXPECT_EQ(listGpuTargets(), "sm_80, sm_90 or sm_90a");
  // sm_90a is sm_90 with wgmma, compiled for by its own name.
  Target sm90a = Target::lookup(&context, "sm_90a");
  ASSERT_TRUE(sm90a);
  EXPECT_EQ(sm90a.getCapability(), 90);
  EXPECT_TRUE(sm90a.has(GpuFeature::wgmma));
  EXPECT_FALSE(sm90.has(GpuFeature::wgmma));
  EXPECT_EQ(getArchOption("sm_90a"), "--gpu-architecture=sm_90a");
  EXPECT_EQ(getArchOption("sm_90"), std::nullopt);
  EXPECT_EQ(getArchOption("sm_70"), std::nullopt);
  // The attribute is the table's entry, field by field.
  for (const GpuTargetSpec &spec : getGpuTargets()) {
    Target target = Target::lookup(&context, spec.name);
    ASSERT_TRUE(target) << spec.name.str();
    EXPECT_EQ(target.getSmemPerSM(), spec.smemPerSM);
    EXPECT_EQ(target.getRegistersPerThread(), spec.registersPerThread);
    EXPECT_EQ(target.getFeatures(), spec.features);
  }
  // Printed and parsed back, a target is the same attribute.
  std::string text;
  llvm::raw_string_ostream(text) << Attribute(sm90);
  EXPECT_EQ(parseAttribute(text, &context), Attribute(sm90)) << text;
}

/// The module's target: set once by the first pass that needs it, read by
/// every later one, and an option contradicting it is an error.
TEST_F(DTileRulesTest, ResolveTarget) {
  OwningOpRef<ModuleOp> m = ModuleOp::create(UnknownLoc::get(&context));
  EXPECT_FALSE(dkernel::getTarget(*m));
  EXPECT_EQ(dkernel::getTargetOrDefault(*m), sm90);
  // No option: the default, which needs no record.
  EXPECT_EQ(*dkernel::resolveTarget(*m, ""), sm90);
  EXPECT_FALSE(dkernel::getTarget(*m));
  EXPECT_EQ(*dkernel::resolveTarget(*m, "sm_80"), sm80);
  EXPECT_EQ(dkernel::getTarget(*m), sm80);
  EXPECT_EQ(*dkernel::resolveTarget(*m, ""), sm80);
  EXPECT_EQ(*dkernel::resolveTarget(*m, "sm_80"), sm80);
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  EXPECT_TRUE(failed(dkernel::resolveTarget(*m, "sm_90")));
  EXPECT_EQ(message,
            "target option 'sm_90' contradicts the module's target 'sm_80'");
  OwningOpRef<ModuleOp> other = ModuleOp::create(UnknownLoc::get(&context));
  EXPECT_TRUE(failed(dkernel::resolveTarget(*other, "sm_70")));
  EXPECT_EQ(message, "unknown target 'sm_70'; expected sm_80, sm_90 or sm_90a");
  EXPECT_FALSE(dkernel::getTarget(*other));
}

//===----------------------------------------------------------------------===//
// Generated knob accessors and structs
//===----------------------------------------------------------------------===//

TEST_F(DTileRulesTest, TypedKnobAccessors) {
  KnobsAttr k = knobs("BK = 32, stage = [0, 1], tma = true, split_k = 2");
  EXPECT_EQ(k.getBK(), 32);
  EXPECT_EQ(k.getSplitK(), 2);
  EXPECT_EQ(k.getTma(), true);
  EXPECT_EQ(*k.getStage(), ArrayRef<int64_t>({0, 1}));
  EXPECT_EQ(k.getBM(), std::nullopt);
  EXPECT_EQ(k.getAsyncCopy(), std::nullopt);
}

TEST_F(DTileRulesTest, KnobStructsRoundTrip) {
  EXPECT_EQ(ChunkMatmulKKnobs{32}.toAttr(&context), knobs("BK = 32"));
  EXPECT_EQ(knobs("BK = 32, BM = 4").get<ChunkMatmulKKnobs>(),
            ChunkMatmulKKnobs{32});
  EXPECT_EQ(knobs("BM = 4").get<ChunkMatmulKKnobs>(), std::nullopt);
  // Every required knob of the rule must be there.
  EXPECT_EQ(knobs("FM = 2").get<RegisterTileKnobs>(), std::nullopt);
  EXPECT_EQ(knobs("FM = 2, FN = 4").get<RegisterTileKnobs>(),
            (RegisterTileKnobs{2, 4}));
  EXPECT_EQ((StageInputsKnobs{{1, 0}}.toAttr(&context)),
            knobs("stage = [1, 0]"));
  // blockify_launch sets (BM, BN) or block_threads: optional fields.
  BlockifyLaunchKnobs threads;
  threads.blockThreads = 128;
  EXPECT_EQ(threads.toAttr(&context), knobs("block_threads = 128"));
  std::optional<BlockifyLaunchKnobs> tile =
      knobs("BM = 16, BN = 64").get<BlockifyLaunchKnobs>();
  ASSERT_TRUE(tile);
  EXPECT_EQ(tile->BM, 16);
  EXPECT_EQ(tile->BN, 64);
  EXPECT_EQ(tile->blockThreads, std::nullopt);
  EXPECT_EQ(ChunkMatmulKKnobs::getRuleName(), "chunk_matmul_k");
}

/// Every knob is owned by one rule of the registry, with a range its
/// declaration gives.
TEST_F(DTileRulesTest, KnobTableMatchesTheRules) {
  for (const KnobInfo &knob : getKnobTable()) {
    EXPECT_TRUE(lookupRule(knob.rule)) << knob.name.str();
    EXPECT_LE(knob.min, knob.max) << knob.name.str();
  }
  EXPECT_EQ(lookupKnob("threads")->max, 1024);
  EXPECT_EQ(lookupKnob("swizzle")->cost, KnobCost::NonZero);
  EXPECT_TRUE(lookupKnob("block_threads")->optional);
  EXPECT_FALSE(lookupKnob("BK")->optional);
}

//===----------------------------------------------------------------------===//
// The knobs option
//===----------------------------------------------------------------------===//

/// The knobs of a knobs option, or the error's message (as "error: ...").
class KnobsOptionTest : public DTileRulesTest {
protected:
  llvm::StringMap<KnobsAttr> parse(StringRef text) {
    llvm::Expected<llvm::StringMap<KnobsAttr>> parsed =
        parseKnobsOption(&context, text);
    if (!parsed) {
      ADD_FAILURE() << text.str() << ": " << llvm::toString(parsed.takeError());
      return {};
    }
    return std::move(*parsed);
  }
  std::string error(StringRef text) {
    llvm::Expected<llvm::StringMap<KnobsAttr>> parsed =
        parseKnobsOption(&context, text);
    if (parsed)
      return "parsed";
    return llvm::toString(parsed.takeError());
  }
};

TEST_F(KnobsOptionTest, ParseKnobsForEveryKernel) {
  llvm::StringMap<KnobsAttr> parsed = parse("BK=32,BM=16,stage=[0,1],tma=true");
  ASSERT_EQ(parsed.size(), 1u);
  EXPECT_EQ(parsed.lookup(""),
            knobs("BK = 32, BM = 16, stage = [0, 1], tma = true"));

  // The syntax of the attribute: blanks anywhere between tokens.
  EXPECT_EQ(parse(" BK = 16 , stage = [2, 0] ").lookup(""),
            knobs("BK = 16, stage = [2, 0]"));

  // Empty and one-element lists.
  EXPECT_EQ(parse("stage=[]").lookup("").getStage()->size(), 0u);
  EXPECT_EQ(*parse("stage=[1]").lookup("").getStage(), ArrayRef<int64_t>{1});

  // Nothing at all.
  EXPECT_TRUE(parse("").empty());
  EXPECT_TRUE(parse(";;").empty());
}

TEST_F(KnobsOptionTest, ParseKnobsPerKernel) {
  llvm::StringMap<KnobsAttr> parsed =
      parse("BK=32;matmul:BM=16,stage=[0,1];rowsum:threads=64;matmul:FM=2");
  ASSERT_EQ(parsed.size(), 3u);
  EXPECT_EQ(parsed.lookup(""), knobs("BK = 32"));
  // Groups naming the same kernel add up.
  EXPECT_EQ(parsed.lookup("matmul"), knobs("BM = 16, FM = 2, stage = [0, 1]"));
  EXPECT_EQ(parsed.lookup("rowsum"), knobs("threads = 64"));

  // An empty name is every kernel; a kernel with no knobs is kept.
  parsed = parse(":BK=16;k:");
  EXPECT_EQ(parsed.lookup(""), knobs("BK = 16"));
  ASSERT_TRUE(parsed.count("k"));
  EXPECT_TRUE(parsed.lookup("k").empty());
}

TEST_F(KnobsOptionTest, ParseKnobsErrors) {
  const std::pair<StringRef, std::string> cases[] = {
      {"BK", "expected '='"},
      {"BK=", "knob 'BK' expects an integer"},
      {"=32", "expected valid keyword or string"},
      {"XY=3", dtile::describeUnknownKnob("XY")},
      // A pass option written into the knobs.
      {"BM=4,list-forks=true", dtile::describeUnknownKnob("list")},
      {"BK=true", "knob 'BK' expects an integer"},
      {"BK=32x", "expected '>'"},
      {"tma=1", "knob 'tma' expects a boolean"},
      {"stage=[a]", "knob 'stage' expects a list of integers"},
      {"stage=[0,1", "unbalanced '[' character in pretty dialect name"},
      // The old list syntax is gone: one syntax everywhere.
      {"stage=[0:1]", "expected ']'"},
      {"BM=-4", "knob 'BM' must not be negative"},
      {"stage=[0,-1]", "knob 'stage' must not be negative"},
      {"threads=2048", "knob 'threads' must be in [1, 1024], got 2048"},
      {"FM=0", "knob 'FM' must be at least 1, got 0"},
      {"BK=16,BK=32", "knob 'BK' is set twice"},
      {"BK=16;BK=32", "knob 'BK' is set twice"},
      {"k:BK=16;k:BK=32", "knob 'BK' is set twice for kernel k"},
  };
  for (auto [text, message] : cases)
    EXPECT_EQ(error(text), message) << text.str();
}

TEST_F(DTileRulesTest, FormatKnobs) {
  EXPECT_EQ(formatKnobsOption("", knobs("BK = 32, stage = [0, 1], tma = true")),
            "BK=32,stage=[0,1],tma=true");
  EXPECT_EQ(formatKnobsOption("mm", knobs("stage = [2], tma = false")),
            "mm:stage=[2],tma=false");
  EXPECT_EQ(formatKnobsOption("", knobs("stage = []")), "stage=[]");
  EXPECT_EQ(formatKnobsOption("mm", knobs("")), "mm:");
  EXPECT_EQ(formatKnobsOption("", knobs("")), "");
}

TEST_F(KnobsOptionTest, FormatThenParseRoundTrips) {
  for (StringRef text :
       {"BK = 32, BM = 64, BN = 64, FM = 4, FN = 4, stage = [0, 1], "
        "unroll = 32",
        "stage = []", "stage = [1]", "tma = false, async_copy = true",
        "threads = 1", ""}) {
    KnobsAttr original = knobs(text);
    for (StringRef kernel : {"", "matmul_0_reduce"}) {
      std::string option = formatKnobsOption(kernel, original);
      llvm::StringMap<KnobsAttr> parsed = parse(option);
      // Empty knobs for every kernel print as nothing, which parses as no
      // group at all; the same request either way.
      if (kernel.empty() && original.empty()) {
        EXPECT_TRUE(parsed.empty()) << option;
        continue;
      }
      ASSERT_EQ(parsed.size(), 1u) << option;
      EXPECT_EQ(parsed.lookup(kernel), original) << option;
    }
  }
}

TEST_F(DTileRulesTest, DescribeOptions) {
  const Rule &chunk = *lookupRule("chunk_matmul_k");
  EXPECT_EQ(describeOptions(chunk, {knobs("BK = 32"), knobs("BK = 16")}),
            "chunk_matmul_k: BK in {32*, 16}");
  EXPECT_EQ(describeOptions(chunk, {}), "chunk_matmul_k: does not apply");
  EXPECT_EQ(
      describeOptions(*lookupRule("blockify_launch"),
                      {knobs("BM = 4, BN = 8"), knobs("BM = 1, BN = 32")}),
      "blockify_launch: (BM, BN) in {(4, 8)*, (1, 32)}");
  EXPECT_EQ(describeOptions(*lookupRule("stage_inputs"),
                            {knobs("stage = [0, 1]"), knobs("stage = [1]"),
                             knobs("stage = []")}),
            "stage_inputs: stage in {[0, 1]*, [1], []}");
  // Optional knobs: left out, an option reads as the leading knobs of the
  // widest; where no option sets every knob, all are named and "-" marks
  // the ones an option leaves unset.
  const Rule &pipeline = *lookupRule("pipeline_k_outer");
  EXPECT_EQ(describeOptions(pipeline, {knobs("pipeline = true, stages = 3"),
                                       knobs("pipeline = false")}),
            "pipeline_k_outer: (pipeline, stages) in {(true, 3)*, false}");
  EXPECT_EQ(
      describeOptions(pipeline,
                      {knobs("pipeline = true, stages = 4"),
                       knobs("pipeline = true, refill_late = true"),
                       knobs("pipeline = true, stages = 4, wgmma_wait = 1")}),
      "pipeline_k_outer: (pipeline, refill_late, stages, wgmma_wait) in "
      "{(true, -, 4, -)*, (true, true, -, -), (true, -, 4, 1)}");
}

//===----------------------------------------------------------------------===//
// Rules and the driver
//===----------------------------------------------------------------------===//

/// Every option of every rule sets the knobs that rule owns in the knob
/// table, the same required names for every option of a fork (optional
/// knobs may be absent), and no two options of a fork are equal.
TEST_F(DTileRulesTest, OptionsSetTheirRulesKnobs) {
  for (Target target : {sm80, sm90})
    for (StringRef name : kForkingKernels) {
      size_t leaves = 0;
      walk(start(name, target), 40, leaves, [&](const ForkCursor &cursor) {
        if (cursor.isDone())
          return;
        StringRef rule = cursor.getRule().getName();
        ArrayRef<KnobsAttr> options = cursor.getOptions();
        ASSERT_FALSE(options.empty()) << rule.str();
        llvm::DenseSet<Attribute> seen;
        for (KnobsAttr option : options) {
          EXPECT_TRUE(seen.insert(option).second)
              << rule.str() << " lists " << formatKnobsOption("", option)
              << " twice";
          for (NamedAttribute entry : option.getEntries()) {
            const KnobInfo *knob = lookupKnob(entry.getName());
            ASSERT_NE(knob, nullptr);
            EXPECT_EQ(knob->rule, rule) << entry.getName().str();
            EXPECT_TRUE(knob->optional ||
                        options.front().getEntries().get(entry.getName()));
          }
          for (NamedAttribute entry : options.front().getEntries())
            EXPECT_TRUE(lookupKnob(entry.getName())->optional ||
                        option.getEntries().get(entry.getName()))
                << rule.str() << " leaves " << entry.getName().str() << " out";
        }
      });
    }
}

/// A chooser that takes the last option of every fork and records the
/// hooks it saw: what a pipeline builder may pass to dtile-lower.
class LastOptionChooser final : public OptionChooser {
public:
  StringRef getName() const override { return "last"; }
  LogicalResult beginModule(ModuleOp, TargetAttr target,
                            ArrayRef<dloop::KernelOp> kernels) override {
    log.push_back("module " + target.getName().str() + " " +
                  std::to_string(kernels.size()));
    return success();
  }
  FailureOr<size_t> choose(const Rule &rule, KernelOp,
                           ArrayRef<KnobsAttr> options) override {
    log.push_back(rule.getName().str());
    return options.size() - 1;
  }
  LogicalResult endKernel(KernelOp kernel) override {
    log.push_back("end " + kernel.getSymName().str());
    return success();
  }
  std::vector<std::string> log;
};

TEST_F(DTileRulesTest, RunRuleChoosesTheRequestedOption) {
  FailureOr<KernelOp> kernel = tileify(getLoopKernel("matmul_0_reduce"));
  ASSERT_TRUE(succeeded(kernel));
  const Rule &rule = *lookupRule("chunk_matmul_k");
  std::unique_ptr<OptionChooser> heuristic = createHeuristicChooser();
  auto fixed = [&](StringRef text) {
    llvm::StringMap<KnobsAttr> requested;
    requested[""] = knobs(text);
    return createFixedKnobsChooser(std::move(requested), *heuristic,
                                   /*requireTaken=*/false);
  };

  // An illegal value is a located error listing the options; nothing
  // changes.
  std::string before = print(*kernel), message;
  {
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      message = diag.str();
      return success();
    });
    EXPECT_TRUE(failed(runRule(rule, *kernel, sm90, *fixed("BK = 48"),
                               /*listForks=*/false)));
  }
  EXPECT_EQ(message, "'dtile.kernel' op knobs BK=48 are not a legal option "
                     "of chunk_matmul_k: BK in {32*, 16, 64}");
  EXPECT_EQ(print(*kernel), before);

  // Knobs of other rules are ignored; the rule takes its own.
  ASSERT_TRUE(succeeded(runRule(rule, *kernel, sm90,
                                *fixed("BK = 64, BM = 3, threads = 7"),
                                /*listForks=*/false)));
  EXPECT_EQ(kernel->getKnobs(), knobs("BK = 64"));
  // The rule has decided: it offers nothing more.
  EXPECT_TRUE(hasDecided(rule, *kernel));
  EXPECT_TRUE(getForkOptions(rule, *kernel, sm90).empty());

  // A rule that does not apply succeeds without change; with list-forks it
  // says so.
  before = print(*kernel);
  message.clear();
  {
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      message = diag.str();
      return success();
    });
    ASSERT_TRUE(succeeded(runRule(*lookupRule("cooperative_reduce"), *kernel,
                                  sm90, *fixed("threads = 64"),
                                  /*listForks=*/true)));
  }
  EXPECT_EQ(message, "@matmul_0_reduce: cooperative_reduce: does not apply");
  EXPECT_EQ(print(*kernel), before);
}

/// Legality apart from policy: a fork is the legal options with the
/// heuristic's pick moved first, the rest in canonical order.
TEST_F(DTileRulesTest, ForkPutsTheHeuristicsPickFirst) {
  FailureOr<KernelOp> kernel = tileify(getLoopKernel("matmul_0_reduce"));
  ASSERT_TRUE(succeeded(kernel));
  const Rule &rule = *lookupRule("chunk_matmul_k");
  SmallVector<KnobsAttr> legal = rule.getLegalOptions(*kernel, sm90);
  EXPECT_EQ(legal, (SmallVector<KnobsAttr>{knobs("BK = 16"), knobs("BK = 32"),
                                           knobs("BK = 64")}));
  EXPECT_EQ(rule.chooseDefault(*kernel, legal, sm90), 1u);
  EXPECT_EQ(getForkOptions(rule, *kernel, sm90),
            (SmallVector<KnobsAttr>{knobs("BK = 32"), knobs("BK = 16"),
                                    knobs("BK = 64")}));
}

/// dtile-lower takes its chooser from whoever builds the pipeline; knobs=
/// still decides the forks it names.
TEST_F(DTileRulesTest, LowerTakesAnInjectedChooser) {
  auto chooser = std::make_shared<LastOptionChooser>();
  OwningOpRef<ModuleOp> lowered = module->clone();
  PassManager pm(&context);
  DTileLowerOptions options;
  options.target = "sm_80";
  options.knobs = "matmul_0_reduce:BK=32";
  pm.addPass(createDTileLowerPass(options, chooser));
  ASSERT_TRUE(succeeded(pm.run(*lowered)));
  EXPECT_EQ(chooser->log.front(), "module sm_80 5");
  EXPECT_EQ(chooser->log.back(), "end single_0_pointwise");
  // The matmul's chunk is the requested one; its later forks the last
  // option each: split_k in {2*, 1, (2, true)} takes the workspace split.
  KnobsAttr matmul = getTileKernel(*lowered, "matmul_0_reduce").getKnobs();
  EXPECT_EQ(matmul.getBK(), 32);
  EXPECT_FALSE(llvm::is_contained(chooser->log, "chunk_matmul_k"));
  EXPECT_TRUE(llvm::is_contained(chooser->log, "split_matmul_k"));
  EXPECT_EQ(matmul.getSplitK(), 2);
  EXPECT_EQ(matmul.getSplitWorkspace(), true);
  // The row sum: cooperative_reduce's last option is two rows of 256
  // threads per block.
  KnobsAttr rowsum = getTileKernel(*lowered, "rowsum_0_reduce").getKnobs();
  EXPECT_EQ(rowsum.getThreads(), 256);
  EXPECT_EQ(rowsum.getRows(), 2);

  // simplest and an injected chooser both decide the same forks.
  OwningOpRef<ModuleOp> again = module->clone();
  PassManager both(&context);
  options.simplest = true;
  both.addPass(createDTileLowerPass(options, chooser));
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  EXPECT_TRUE(failed(both.run(*again)));
  EXPECT_EQ(message, "simplest and last choose the same forks: pass one of "
                     "them");
}

TEST_F(DTileRulesTest, LowerReportsKnobsNoRuleTakes) {
  std::string error;
  EXPECT_FALSE(lower("sm_90", "swizzle=128", &error));
  EXPECT_EQ(error, "no rule took knob \"swizzle\" for any kernel");
  // A knob a rule can never meet on the target fails where it is asked.
  EXPECT_FALSE(lower("sm_80", "async_copy=false,tma=true", &error));
  EXPECT_EQ(error, "'dtile.kernel' op knob tma=true asks for TMA copies "
                   "(cp.async.bulk.tensor), which need the 'tma' feature; "
                   "target sm_80 lacks it");
  EXPECT_FALSE(lower("sm_90", "matmul_0_reduce:threads=64", &error));
  EXPECT_EQ(error, "'dtile.kernel' op no rule took knob \"threads\" for this "
                   "kernel");
  EXPECT_FALSE(lower("sm_90", "matmul:BK=16", &error));
  EXPECT_EQ(error, "no kernel @matmul to take knobs BK=16");
  EXPECT_FALSE(lower("sm_75", "", &error));
  EXPECT_EQ(error, "unknown target 'sm_75'; expected sm_80, sm_90 or sm_90a");
  EXPECT_FALSE(lower("sm_90", "BK=", &error));
  EXPECT_EQ(error, "bad knobs option 'BK=': knob 'BK' expects an integer");
}

//===----------------------------------------------------------------------===//
// ForkCursor
//===----------------------------------------------------------------------===//

TEST_F(DTileRulesTest, CursorStartsAtTheFirstRuleThatApplies) {
  ForkCursor matmul = start("matmul_0_reduce", sm90);
  ASSERT_FALSE(matmul.isDone());
  EXPECT_EQ(matmul.getRule().getName(), "chunk_matmul_k");
  EXPECT_EQ(SmallVector<KnobsAttr>(matmul.getOptions()),
            (SmallVector<KnobsAttr>{knobs("BK = 32"), knobs("BK = 16"),
                                    knobs("BK = 64")}));
  EXPECT_TRUE(matmul.getKnobs().empty());
  // The private copy is tileified.
  EXPECT_EQ(matmul.getKernel().getSymName(), "matmul_0_reduce");
  EXPECT_EQ(matmul.getKernel().getTile().getBlockExtents(),
            ArrayRef<int64_t>({16, 64}));

  EXPECT_EQ(start("rowsum_0_reduce", sm90).getRule().getName(),
            "cooperative_reduce");
  EXPECT_EQ(start("scale_0_pointwise", sm90).getRule().getName(),
            "blockify_launch");
  EXPECT_EQ(start("gemv_0_reduce", sm90).getRule().getName(),
            "cooperative_reduce");
}

TEST_F(DTileRulesTest, SearchOrderIsTheDefaultThenItsNeighbours) {
  // The options in the order a search tries them: the default, then the
  // next and the previous in canonical order, alternating outwards.
  auto searchOrder = [](const ForkCursor &cursor) {
    SmallVector<KnobsAttr> ordered;
    for (unsigned i : cursor.getSearchOrder())
      ordered.push_back(cursor.getOptions()[i]);
    return ordered;
  };
  // Canonical BK in {16, 32, 64}, the default 32.
  EXPECT_EQ(searchOrder(start("matmul_0_reduce", sm90)),
            (SmallVector<KnobsAttr>{knobs("BK = 32"), knobs("BK = 64"),
                                    knobs("BK = 16")}));
  // Canonical block_threads in {32, ..., 1024}, the default 256.
  EXPECT_EQ(searchOrder(start("scale_0_pointwise", sm90)),
            (SmallVector<KnobsAttr>{
                knobs("block_threads = 256"), knobs("block_threads = 512"),
                knobs("block_threads = 128"), knobs("block_threads = 1024"),
                knobs("block_threads = 64"), knobs("block_threads = 32")}));
  // A cursor past the last rule has nothing to order.
  ForkCursor done = start("scale_0_pointwise", sm90);
  while (!done.isDone()) {
    FailureOr<ForkCursor> next = done.choose(done.getOptions().front());
    ASSERT_TRUE(succeeded(next));
    done = std::move(*next);
  }
  EXPECT_TRUE(done.getSearchOrder().empty());
}

TEST_F(DTileRulesTest, CursorNeverTouchesTheInput) {
  std::string before = print(module->getOperation());
  {
    ForkCursor cursor = start("matmul_0_reduce", sm90);
    // The copy is self-contained: nothing of the input is used by it.
    for (auto func : module->getOps<func::FuncOp>())
      for (BlockArgument arg : func.getArguments())
        for (Operation *user : arg.getUsers())
          EXPECT_EQ(user->getParentOfType<ModuleOp>(), *module)
              << "the cursor's copy uses an argument of @"
              << func.getSymName().str();
    FailureOr<ForkCursor> next = cursor.choose(cursor.getOptions()[1]);
    ASSERT_TRUE(succeeded(next));
    ASSERT_TRUE(succeeded(next->enumerate(20)));
  }
  EXPECT_EQ(print(module->getOperation()), before);
  EXPECT_TRUE(succeeded(verify(*module)));
}

/// The tuner may keep cursors after the IR they came from is gone.
TEST_F(DTileRulesTest, CursorOutlivesItsInput) {
  std::optional<ForkCursor> cursor;
  {
    OwningOpRef<ModuleOp> input = module->clone();
    dloop::KernelOp kernel;
    input->walk([&](dloop::KernelOp op) {
      if (op.getSymName() == "gemv_0_reduce")
        kernel = op;
    });
    FailureOr<ForkCursor> root = ForkCursor::start(kernel, sm90);
    ASSERT_TRUE(succeeded(root));
    cursor.emplace(std::move(*root));
  }
  EXPECT_TRUE(
      succeeded(verify(cursor->getKernel()->getParentOfType<ModuleOp>())));
  EXPECT_EQ(*cursor->count(1000), 338u);
}

TEST_F(DTileRulesTest, ChooseLeavesTheParentUnchanged) {
  ForkCursor parent = start("matmul_0_reduce", sm90);
  std::string before = print(parent.getKernel());
  SmallVector<KnobsAttr> options(parent.getOptions());

  FailureOr<ForkCursor> child = parent.choose(knobs("BK = 16"));
  ASSERT_TRUE(succeeded(child));
  EXPECT_EQ(print(parent.getKernel()), before);
  EXPECT_EQ(SmallVector<KnobsAttr>(parent.getOptions()), options);
  EXPECT_EQ(parent.getRule().getName(), "chunk_matmul_k");
  EXPECT_TRUE(parent.getKnobs().empty());

  // The child took the option and moved on to the next fork (split_k:
  // eight chunks of 16 split over 2 or 4 blocks).
  EXPECT_EQ(child->getKnobs(), knobs("BK = 16"));
  EXPECT_NE(print(child->getKernel()), before);
  EXPECT_EQ(child->getRule().getName(), "split_matmul_k");

  // Two children of one parent are independent.
  FailureOr<ForkCursor> other = parent.choose(knobs("BK = 64"));
  ASSERT_TRUE(succeeded(other));
  EXPECT_EQ(other->getKnobs(), knobs("BK = 64"));
  EXPECT_EQ(child->getKnobs(), knobs("BK = 16"));
}

TEST_F(DTileRulesTest, KernelWithoutForks) {
  ForkCursor cursor = start("single_0_pointwise", sm90);
  EXPECT_TRUE(cursor.isDone());
  EXPECT_TRUE(cursor.getOptions().empty());
  EXPECT_EQ(*cursor.count(10), 1u);
  EXPECT_EQ(*cursor.count(0), 0u);
  FailureOr<SmallVector<KnobsAttr>> leaves = cursor.enumerate(10);
  ASSERT_TRUE(succeeded(leaves));
  ASSERT_EQ(leaves->size(), 1u);
  EXPECT_TRUE(leaves->front().empty());
  EXPECT_TRUE(cursor.enumerate(0)->empty());
  std::mt19937_64 rng(7);
  EXPECT_EQ(*cursor.sample(rng), knobs(""));
}

TEST_F(DTileRulesTest, EnumerateAgreesWithCount) {
  for (Target target : {sm80, sm90})
    for (StringRef name : kForkingKernels) {
      ForkCursor root = start(name, target);
      FailureOr<SmallVector<KnobsAttr>> all = root.enumerate(100000);
      ASSERT_TRUE(succeeded(all)) << name.str();
      EXPECT_EQ(*root.count(100000), all->size()) << name.str();
      // Leaves are distinct, complete assignments.
      llvm::DenseSet<Attribute> unique(all->begin(), all->end());
      EXPECT_EQ(unique.size(), all->size()) << name.str();
      for (size_t limit : {0, 1, 2, 5, 17}) {
        FailureOr<SmallVector<KnobsAttr>> some = root.enumerate(limit);
        ASSERT_TRUE(succeeded(some));
        EXPECT_EQ(some->size(), std::min(limit, all->size()))
            << name.str() << " limit " << limit;
        EXPECT_EQ(*root.count(limit), some->size())
            << name.str() << " limit " << limit;
        // Depth-first in option order: the first `limit` leaves.
        EXPECT_TRUE(std::equal(some->begin(), some->end(), all->begin()));
      }
      // Option 0 at every fork comes first.
      EXPECT_EQ(all->front(),
                getTileKernel(*lower(target.getName(), ""), name).getKnobs())
          << name.str();
    }
  // The tree sizes document the forks: the row sum has 5 cooperative
  // thread counts and 9 of several rows per block, and with one thread per
  // row 1 block size x 6 unrolls;
  // the scale 6 block sizes; the gemv 4 cooperative thread counts and 10
  // of several rows per block, and with
  // one thread per column 2 block sizes x 1 chunk x 6 unrolls x (no
  // staging, or staging with double buffering x (cp.async, TMA, or neither
  // with vector or element copies) x pipelining, TMA's also 3 deep, which
  // stages both of its chunks before the loop (9) or without double
  // buffering x (the same 4 copies) (4), each with its fragments of x
  // loaded a step ahead in registers or not). The matmul's tree (913,008
  // leaves on sm_90 when last counted whole: it also forks on the
  // bank-conflict rules, vector reads and stores, TMA swizzle widths and
  // atomic or workspace splits) takes minutes to count, so only its first
  // leaves are counted here, as the loop above enumerates them.
  EXPECT_EQ(*start("matmul_0_reduce", sm90).count(20000), 20000u);
  EXPECT_EQ(*start("rowsum_0_reduce", sm90).count(100000), 20u);
  EXPECT_EQ(*start("scale_0_pointwise", sm90).count(100000), 6u);
  EXPECT_EQ(*start("gemv_0_reduce", sm90).count(100000), 338u);
}

TEST_F(DTileRulesTest, SampleIsDeterministic) {
  ForkCursor root = start("matmul_0_reduce", sm90);
  auto draw = [&](uint64_t seed) {
    std::mt19937_64 rng(seed);
    SmallVector<KnobsAttr> samples;
    for (int i = 0; i < 12; ++i) {
      FailureOr<KnobsAttr> knobs = root.sample(rng);
      EXPECT_TRUE(succeeded(knobs));
      samples.push_back(*knobs);
    }
    return samples;
  };
  SmallVector<KnobsAttr> first = draw(42);
  EXPECT_EQ(first, draw(42));
  // Each draw is a leaf: its knobs alone lower the kernel to itself (the
  // tree is too large to enumerate here).
  for (KnobsAttr knobs : first) {
    std::string option = formatKnobsOption("matmul_0_reduce", knobs);
    OwningOpRef<ModuleOp> lowered = lower(sm90.getName(), option);
    ASSERT_TRUE(lowered) << option;
    KernelOp again = getTileKernel(*lowered, "matmul_0_reduce");
    ASSERT_TRUE(again) << option;
    EXPECT_EQ(again.getKnobs(), knobs) << option;
  }
  // Twelve draws from a tree this size are not all the same.
  EXPECT_GT(llvm::DenseSet<Attribute>(first.begin(), first.end()).size(), 1u);
}

/// Every variant (all of the small trees; the first leaves of the matmul's
/// and a seeded sample of the rest) verifies, and dtile-lower with its knobs
/// alone rebuilds the same kernel.
TEST_F(DTileRulesTest, EveryLeafVerifiesAndReproduces) {
  auto check = [&](StringRef name, Target target, const ForkCursor &leaf) {
    KernelOp kernel = leaf.getKernel();
    std::string option = formatKnobsOption(name, leaf.getKnobs());
    EXPECT_TRUE(succeeded(verify(kernel->getParentOfType<ModuleOp>())))
        << target.getName().str() << " " << option;
    OwningOpRef<ModuleOp> lowered = lower(target.getName(), option);
    ASSERT_TRUE(lowered) << option;
    KernelOp again = getTileKernel(*lowered, name);
    ASSERT_TRUE(again) << option;
    EXPECT_EQ(again.getKnobs(), leaf.getKnobs()) << option;
    EXPECT_EQ(print(again), print(kernel))
        << target.getName().str() << " " << option;
  };
  for (Target target : {sm80, sm90}) {
    for (StringRef name : kForkingKernels) {
      size_t leaves = 0;
      walk(start(name, target), 60, leaves, [&](const ForkCursor &cursor) {
        if (cursor.isDone())
          check(name, target, cursor);
      });
      EXPECT_GT(leaves, 0u);
    }
    ForkCursor root = start("matmul_0_reduce", target);
    std::mt19937_64 rng(1);
    for (int i = 0; i < 25; ++i) {
      FailureOr<KnobsAttr> knobs = root.sample(rng);
      ASSERT_TRUE(succeeded(knobs));
      FailureOr<ForkCursor> leaf = follow(root, *knobs);
      ASSERT_TRUE(succeeded(leaf)) << formatKnobsOption("", *knobs);
      EXPECT_EQ(leaf->getKnobs(), *knobs);
      check("matmul_0_reduce", target, *leaf);
    }
  }
}

} // namespace
