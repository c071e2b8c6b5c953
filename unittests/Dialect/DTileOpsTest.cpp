//===- DTileOpsTest.cpp - Tests of the DTile C++ API ----------------------===//
//
// Builds Tile kernels with the C++ builders, as the Tile rules will, checks
// the accessors and interfaces the rules and the Tile-to-Kernel lowering rely
// on (launch sizes, axis coordinates and their ranges, knobs, memory
// effects), checks the knob table, and checks that the verifiers reject what
// is not well formed.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "Deplodock/Dialect/Common/KernelSyntax.h"
#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "Deplodock/Dialect/DTile/IR/DTileKnobs.h"
#include "Deplodock/Dialect/DTile/IR/DTileOps.h"
#include "Deplodock/InitAllDialects.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/StringSet.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace deplodock;

namespace {

class DTileOpsTest : public ::testing::Test {
protected:
  DTileOpsTest() {
    loadDeplodockDialects(context);
    module = ModuleOp::create(builder, loc);
  }

  ~DTileOpsTest() override { module->erase(); }

  std::string verifyMessage(Operation *op) {
    return test::firstVerifyError(op);
  }

  /// A global f32 buffer.
  MemRefType memrefType(ArrayRef<int64_t> shape) {
    return MemRefType::get(shape, builder.getF32Type());
  }

  /// A shared-memory f32 slab.
  MemRefType slabType(ArrayRef<int64_t> shape) {
    return MemRefType::get(
        shape, builder.getF32Type(), MemRefLayoutAttrInterface(),
        gpu::AddressSpaceAttr::get(&context, gpu::AddressSpace::Workgroup));
  }

  /// Starts a function over memrefs of `shapes` in the module and leaves the
  /// builder before its return.
  func::FuncOp startFunc(StringRef name,
                         ArrayRef<SmallVector<int64_t>> shapes) {
    builder.setInsertionPointToEnd(module.getBody());
    SmallVector<Type> types;
    for (ArrayRef<int64_t> shape : shapes)
      types.push_back(memrefType(shape));
    auto func = func::FuncOp::create(builder, loc, name,
                                     builder.getFunctionType(types, {}));
    builder.setInsertionPointToEnd(func.addEntryBlock());
    auto ret = func::ReturnOp::create(builder, loc);
    builder.setInsertionPoint(ret);
    return func;
  }

  /// Knobs from (name, value) pairs.
  dtile::KnobsAttr knobs(ArrayRef<NamedAttribute> entries) {
    return dtile::KnobsAttr::get(&context, entries);
  }

  /// The body of a kernel, tile or loop, with the builder before its
  /// terminator.
  void enter(Block &body) { builder.setInsertionPoint(body.getTerminator()); }

  MLIRContext context;
  OpBuilder builder{&context};
  Location loc = UnknownLoc::get(&context);
  ModuleOp module;
};

/// The pieces of the RMSNorm Tile kernel built below.
struct RmsNorm {
  dtile::KernelOp kernel;
  dtile::TileOp tile;
  dtile::StridedForOp reduce, store;
  dtile::CombineOp combine;
  dloop::LoadOp load;
};

/// Builds the RMSNorm Tile kernel of WALKTHROUGH.md (rows to blocks, 256
/// threads per row, strided reduce, combine, strided store).
RmsNorm buildRmsNorm(OpBuilder &b, Location loc, dtile::KnobsAttr knobs,
                     Value x, Value w, Value y) {
  RmsNorm rn;
  rn.kernel = dtile::KernelOp::create(b, loc, "rmsnorm", knobs,
                                      ValueRange{x, w}, ValueRange{y});
  OpBuilder::InsertionGuard guard(b);
  Block &body = rn.kernel.getBody().front();
  b.setInsertionPoint(body.getTerminator());
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
  Value n = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(2048));
  Value eps = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(1e-6f));
  rn.tile = dtile::TileOp::create(b, loc, {"r"}, {32}, {"t"}, {256});
  b.setInsertionPoint(rn.tile.getBody().front().getTerminator());
  Value r = rn.tile.getBlockCoord(0), t = rn.tile.getThreadCoord(0);
  Value in = rn.kernel.getInputArgs()[0], gain = rn.kernel.getInputArgs()[1];
  Value out = rn.kernel.getOutputArgs()[0];
  Value c0 = arith::ConstantIndexOp::create(b, loc, 0);

  rn.reduce = dtile::StridedForOp::create(b, loc, t, 2048, 256,
                                          LoopKind::reduce, "k", {zero});
  {
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToEnd(&rn.reduce.getBody().front());
    Value k = rn.reduce.getInductionVar();
    rn.load = dloop::LoadOp::create(b, loc, in, ValueRange{c0, r, k});
    Value sq = arith::MulFOp::create(b, loc, rn.load, rn.load);
    Value next = arith::AddFOp::create(b, loc, rn.reduce.getIterArgs()[0], sq);
    dtile::YieldOp::create(b, loc, ValueRange{next});
  }
  rn.combine =
      dtile::CombineOp::create(b, loc, rn.reduce.getResult(0), ReduceKind::add,
                               b.getStrArrayAttr({"t"}));
  Value mean = arith::DivFOp::create(b, loc, rn.combine, n);
  Value inv =
      math::RsqrtOp::create(b, loc, arith::AddFOp::create(b, loc, mean, eps));

  rn.store = dtile::StridedForOp::create(b, loc, t, 2048, 256, LoopKind::free,
                                         "c", {});
  b.setInsertionPoint(rn.store.getBody().front().getTerminator());
  Value c = rn.store.getInductionVar();
  Value xv = dloop::LoadOp::create(b, loc, in, ValueRange{c0, r, c});
  Value g = dloop::LoadOp::create(b, loc, gain, ValueRange{c});
  Value o =
      arith::MulFOp::create(b, loc, arith::MulFOp::create(b, loc, xv, inv), g);
  dloop::StoreOp::create(b, loc, o, out, ValueRange{c0, r, c});
  return rn;
}

TEST_F(DTileOpsTest, BuildsRmsNormKernel) {
  func::FuncOp func =
      startFunc("rmsnorm", {{1, 32, 2048}, {2048}, {1, 32, 2048}});
  RmsNorm rn = buildRmsNorm(
      builder, loc,
      knobs({builder.getNamedAttr("threads", builder.getI64IntegerAttr(256))}),
      func.getArgument(0), func.getArgument(1), func.getArgument(2));
  ASSERT_EQ(verifyMessage(module), "");

  // The kernel binds its buffers and holds one tile.
  EXPECT_EQ(rn.kernel.getSymName(), "rmsnorm");
  EXPECT_EQ(rn.kernel.getInputArgs().size(), 2u);
  EXPECT_EQ(rn.kernel.getOutputArgs().size(), 1u);
  EXPECT_EQ(rn.kernel.getBuffers().size(), 3u);
  EXPECT_EQ(rn.kernel.getTile(), rn.tile);
  EXPECT_EQ(rn.kernel.getKnobs().getInt("threads"), 256);

  // Launch sizes and coordinates.
  EXPECT_EQ(rn.tile.getNumBlocks(), 32);
  EXPECT_EQ(rn.tile.getNumThreads(), 256);
  EXPECT_EQ(rn.tile.getCoord("r"), rn.tile.getBlockCoord(0));
  EXPECT_EQ(rn.tile.getCoord("t"), rn.tile.getThreadCoord(0));
  EXPECT_FALSE(rn.tile.getCoord("k"));
  EXPECT_TRUE(rn.tile.isThreadAxis("t"));
  EXPECT_FALSE(rn.tile.isThreadAxis("r"));
  EXPECT_FALSE(rn.tile.isThreadAxis("k"));

  // Strided loops.
  EXPECT_TRUE(rn.reduce.isReduction());
  EXPECT_FALSE(rn.store.isReduction());
  EXPECT_EQ(rn.reduce.getStart(), rn.tile.getThreadCoord(0));
  EXPECT_EQ(rn.reduce.getExtent(), 2048);
  EXPECT_EQ(rn.reduce.getStep(), 256);
  EXPECT_EQ(rn.reduce.getAxis(), "k");
  EXPECT_EQ(rn.reduce.getIterArgs().size(), 1u);
  EXPECT_TRUE(rn.store.getIterArgs().empty());
  EXPECT_FALSE(rn.reduce.getUnroll().has_value());
  EXPECT_EQ(rn.load.getIndices()[2], rn.reduce.getInductionVar());

  // What LoopLikeOpInterface users see: the start is the thread coordinate.
  auto loopLike = cast<LoopLikeOpInterface>(rn.reduce.getOperation());
  EXPECT_EQ(loopLike.getSingleInductionVar(), rn.reduce.getInductionVar());
  EXPECT_EQ(dyn_cast<Value>(*loopLike.getSingleLowerBound()),
            rn.tile.getThreadCoord(0));
  EXPECT_EQ(getConstantIntValue(*loopLike.getSingleUpperBound()), 2048);
  EXPECT_EQ(getConstantIntValue(*loopLike.getSingleStep()), 256);
  EXPECT_EQ(loopLike.getInits().size(), 1u);
  EXPECT_EQ(loopLike.getRegionIterArgs().size(), 1u);
  EXPECT_EQ(loopLike.getYieldedValues().size(), 1u);
  EXPECT_EQ(loopLike.getLoopResults()->size(), 1u);

  // Combine.
  EXPECT_EQ(rn.combine.getKind(), ReduceKind::add);
  ASSERT_EQ(rn.combine.getOver().size(), 1u);
  EXPECT_EQ(cast<StringAttr>(rn.combine.getOver()[0]).getValue(), "t");
  EXPECT_EQ(rn.combine.getType(), builder.getF32Type());
}

TEST_F(DTileOpsTest, ReportsAxesAndCoordinateRanges) {
  func::FuncOp func =
      startFunc("rmsnorm", {{1, 32, 2048}, {2048}, {1, 32, 2048}});
  RmsNorm rn =
      buildRmsNorm(builder, loc, dtile::KnobsAttr(), func.getArgument(0),
                   func.getArgument(1), func.getArgument(2));
  ASSERT_EQ(verifyMessage(module), "");
  // A null knobs attribute builds an empty one.
  EXPECT_TRUE(rn.kernel.getKnobs().empty());

  auto expectRange = [](std::optional<Interval> range, int64_t lo, int64_t hi) {
    ASSERT_TRUE(range.has_value());
    EXPECT_EQ(range->lo, lo);
    EXPECT_EQ(range->hi, hi);
  };
  auto tileAxes = cast<AxisOpInterface>(rn.tile.getOperation());
  EXPECT_EQ(tileAxes.getAxisNames(), (SmallVector<StringRef>{"r", "t"}));
  expectRange(tileAxes.getCoordRange(rn.tile.getBlockCoord(0)), 0, 31);
  expectRange(tileAxes.getCoordRange(rn.tile.getThreadCoord(0)), 0, 255);
  // Not a coordinate of this op.
  EXPECT_FALSE(tileAxes.getCoordRange(rn.reduce.getInductionVar()).has_value());

  auto loopAxes = cast<AxisOpInterface>(rn.reduce.getOperation());
  EXPECT_EQ(loopAxes.getAxisNames(), (SmallVector<StringRef>{"k"}));
  expectRange(loopAxes.getCoordRange(rn.reduce.getInductionVar()), 0, 2047);
  EXPECT_FALSE(loopAxes.getCoordRange(rn.reduce.getIterArgs()[0]).has_value());

  // The free functions see through the interface, which is what bounds the
  // loads of a Tile kernel.
  expectRange(getCoordRange(rn.tile.getThreadCoord(0)), 0, 255);
  expectRange(dloop::getIndexRange(rn.store.getInductionVar()), 0, 2047);
  EXPECT_FALSE(getCoordRange(rn.combine.getResult()).has_value());
}

TEST_F(DTileOpsTest, BuildsStagedMatmul) {
  func::FuncOp func = startFunc("matmul", {{128, 256}, {256, 64}, {128, 64}});
  dtile::KnobsAttr decisions = knobs(
      {builder.getNamedAttr("BK", builder.getI64IntegerAttr(32)),
       builder.getNamedAttr("async_copy", builder.getBoolAttr(true)),
       builder.getNamedAttr("stage", builder.getDenseI64ArrayAttr({0, 1}))});
  auto kernel = dtile::KernelOp::create(
      builder, loc, "matmul", decisions,
      ValueRange{func.getArgument(0), func.getArgument(1)},
      ValueRange{func.getArgument(2)});
  enter(kernel.getBody().front());
  Value zero =
      arith::ConstantOp::create(builder, loc, builder.getF32FloatAttr(0));
  auto tile = dtile::TileOp::create(builder, loc, {"m_o", "n_o"}, {8, 4},
                                    {"m_i", "n_i"}, {16, 16});
  enter(tile.getBody().front());
  Value mo = tile.getCoord("m_o"), no = tile.getCoord("n_o");
  Value mi = tile.getCoord("m_i"), ni = tile.getCoord("n_i");

  auto chunks = dloop::ForOp::create(builder, loc, 8, LoopKind::reduce, "k_o",
                                     ValueRange{zero});
  builder.setInsertionPointToEnd(chunks.getBody());
  Value ko = chunks.getInductionVar();
  AffineExpr d0, d1;
  bindDims(&context, d0, d1);
  // A[m_o * 16, k_o * 32] and B[k_o * 32, n_o * 16], 16x32 and 32x16.
  auto stageA = dtile::StageOp::create(
      builder, loc, slabType({16, 32}), kernel.getInputArgs()[0],
      ValueRange{mo, ko}, Value(), ValueRange(),
      AffineMap::get(2, 0, {d0 * 16, d1 * 32}, &context),
      ArrayRef<int64_t>{16, 32}, builder.getDenseI64ArrayAttr({0, 1}),
      /*buffers=*/1, dtile::Transport::cp_async);
  auto stageB = dtile::StageOp::create(
      builder, loc, slabType({32, 16}), kernel.getInputArgs()[1],
      ValueRange{ko, no}, Value(), ValueRange(),
      AffineMap::get(2, 0, {d0 * 32, d1 * 16}, &context),
      ArrayRef<int64_t>{32, 16}, DenseI64ArrayAttr(), /*buffers=*/1,
      dtile::Transport::cp_async);
  dtile::AsyncWaitOp::create(builder, loc, 0);
  auto inner = dloop::ForOp::create(
      builder, loc, 32, LoopKind::reduce, "k_i",
      ValueRange{chunks.getIterArgs()[0]},
      [&](OpBuilder &b, Location loc, Value ki, ValueRange acc) {
        Value av = dloop::LoadOp::create(b, loc, stageA, ValueRange{mi, ki});
        Value bv = dloop::LoadOp::create(b, loc, stageB, ValueRange{ki, ni});
        Value p = arith::MulFOp::create(b, loc, av, bv);
        dloop::YieldOp::create(
            b, loc, ValueRange{arith::AddFOp::create(b, loc, acc[0], p)});
      });
  dloop::YieldOp::create(builder, loc, inner.getResults());
  builder.setInsertionPointAfter(chunks);
  // C[m_o * 16 + m_i, n_o * 16 + n_i].
  AffineExpr e0, e1, e2, e3;
  bindDims(&context, e0, e1, e2, e3);
  dloop::StoreOp::create(
      builder, loc, chunks.getResult(0), kernel.getOutputArgs()[0],
      AffineMap::get(4, 0, {e0 * 16 + e1, e2 * 16 + e3}, &context),
      ValueRange{mo, mi, no, ni});
  ASSERT_EQ(verifyMessage(module), "");

  // Launch sizes multiply over the axes of each group.
  EXPECT_EQ(tile.getNumBlocks(), 32);
  EXPECT_EQ(tile.getNumThreads(), 256);
  EXPECT_EQ(tile.getCoord("n_o"), tile.getBlockCoord(1));
  EXPECT_EQ(tile.getCoord("n_i"), tile.getThreadCoord(1));
  EXPECT_EQ(tile.getBody().front().getNumArguments(), 4u);
  EXPECT_TRUE(tile.isThreadAxis("m_i"));
  EXPECT_FALSE(tile.isThreadAxis("m_o"));

  // Stage accessors, with and without padding.
  EXPECT_EQ(stageA.getSource(), kernel.getInputArgs()[0]);
  EXPECT_EQ(stageA.getBox(), (ArrayRef<int64_t>{16, 32}));
  EXPECT_EQ(stageA.getPadding(), (SmallVector<int64_t>{0, 1}));
  EXPECT_EQ(stageB.getPadding(), (SmallVector<int64_t>{0, 0}));
  EXPECT_EQ(stageA.getBuffers(), 1);
  EXPECT_FALSE(stageA.getSlot());
  EXPECT_EQ(stageA.getTransport(), dtile::Transport::cp_async);
  EXPECT_EQ(stageA.getSwizzle(), 0);

  // The knobs the kernel carries.
  EXPECT_EQ(kernel.getKnobs().getInt("BK"), 32);
  EXPECT_EQ(kernel.getKnobs().getBool("async_copy"), true);
  EXPECT_EQ(kernel.getKnobs().getList("stage"), (ArrayRef<int64_t>{0, 1}));
}

TEST_F(DTileOpsTest, PrintsReadableSyntax) {
  func::FuncOp func =
      startFunc("rmsnorm", {{1, 32, 2048}, {2048}, {1, 32, 2048}});
  buildRmsNorm(
      builder, loc,
      knobs({builder.getNamedAttr("threads", builder.getI64IntegerAttr(256))}),
      func.getArgument(0), func.getArgument(1), func.getArgument(2));
  std::string text;
  llvm::raw_string_ostream os(text);
  func.print(os);
  for (StringRef expected :
       {"dtile.kernel @rmsnorm knobs<threads = 256> ins(%in0 = %arg0 : "
        "memref<1x32x2048xf32>, %in1 = %arg1 : memref<2048xf32>) outs(%out0 "
        "= %arg2 : memref<1x32x2048xf32>) {",
        "dtile.tile blocks(%r : 32 \"r\") threads(%t : 256 \"t\") {",
        "= dtile.strided_for %k = %t to 2048 step 256 reduce \"k\" iter(%acc "
        "= ",
        "dtile.combine add %", " over [\"t\"] : f32",
        "dtile.strided_for %c = %t to 2048 step 256 free \"c\" {"})
    EXPECT_NE(text.find(expected.str()), std::string::npos)
        << expected.str() << "\nnot in\n"
        << text;
}

TEST_F(DTileOpsTest, ReadsAndMergesKnobs) {
  dtile::KnobsAttr base =
      knobs({builder.getNamedAttr("BM", builder.getI64IntegerAttr(64)),
             builder.getNamedAttr("tma", builder.getBoolAttr(false)),
             builder.getNamedAttr("stage", builder.getDenseI64ArrayAttr({1}))});
  EXPECT_FALSE(base.empty());
  EXPECT_EQ(base.getInt("BM"), 64);
  EXPECT_EQ(base.getBool("tma"), false);
  EXPECT_EQ(base.getList("stage"), (ArrayRef<int64_t>{1}));
  // Absent knobs and knobs of another kind read as unset.
  EXPECT_FALSE(base.getInt("BN").has_value());
  EXPECT_FALSE(base.getInt("tma").has_value());
  EXPECT_FALSE(base.getBool("BM").has_value());
  EXPECT_FALSE(base.getList("BM").has_value());

  // The other side wins on a clash; the result is sorted and uniqued.
  dtile::KnobsAttr later =
      knobs({builder.getNamedAttr("tma", builder.getBoolAttr(true)),
             builder.getNamedAttr("BK", builder.getI64IntegerAttr(32))});
  dtile::KnobsAttr merged = base.merge(later);
  EXPECT_EQ(merged.getInt("BM"), 64);
  EXPECT_EQ(merged.getInt("BK"), 32);
  EXPECT_EQ(merged.getBool("tma"), true);
  EXPECT_EQ(merged.getEntries().size(), 4u);
  EXPECT_EQ(
      merged,
      knobs({builder.getNamedAttr("tma", builder.getBoolAttr(true)),
             builder.getNamedAttr("stage", builder.getDenseI64ArrayAttr({1})),
             builder.getNamedAttr("BM", builder.getI64IntegerAttr(64)),
             builder.getNamedAttr("BK", builder.getI64IntegerAttr(32))}));
  dtile::KnobsAttr none = knobs({});
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none.merge(base), base);
  EXPECT_EQ(base.merge(none), base);

  std::string text;
  llvm::raw_string_ostream(text) << Attribute(merged);
  EXPECT_EQ(text, "#dtile.knobs<BK = 32, BM = 64, stage = [1], tma = true>");
}

// An unknown knob's error lists the valid ones, so that a typo can be fixed
// without reading Rules.td.
TEST(DTileKnobsTest, UnknownKnobListsTheKnobs) {
  std::string message = dtile::describeUnknownKnob("BQ");
  StringRef text = message;
  ASSERT_TRUE(text.consume_front("unknown knob 'BQ' (knobs: ")) << message;
  ASSERT_TRUE(text.consume_back(")")) << message;
  SmallVector<StringRef> listed;
  text.split(listed, ", ");
  ArrayRef<dtile::KnobInfo> table = dtile::getKnobTable();
  ASSERT_EQ(listed.size(), table.size()) << message;
  for (auto [name, knob] : llvm::zip(listed, table))
    EXPECT_EQ(name, knob.name);
}

TEST_F(DTileOpsTest, VerifiesKnobs) {
  auto checked = [&](ArrayRef<NamedAttribute> entries) {
    std::string message;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      message = diag.str();
      return success();
    });
    (void)dtile::KnobsAttr::getChecked([&] { return emitError(loc); }, &context,
                                       DictionaryAttr::get(&context, entries));
    return message;
  };
  EXPECT_EQ(checked({builder.getNamedAttr("BK", builder.getI64IntegerAttr(8))}),
            "");
  EXPECT_EQ(checked({builder.getNamedAttr("bk", builder.getI64IntegerAttr(8))}),
            dtile::describeUnknownKnob("bk"));
  EXPECT_EQ(checked({builder.getNamedAttr("BK", builder.getF32FloatAttr(8))}),
            "knob 'BK' expects an integer");
  EXPECT_EQ(
      checked({builder.getNamedAttr("pad", builder.getI64IntegerAttr(1))}),
      "knob 'pad' expects a boolean");
  EXPECT_EQ(
      checked({builder.getNamedAttr("stage", builder.getI64ArrayAttr({0}))}),
      "knob 'stage' expects a list of integers");
  EXPECT_EQ(
      checked({builder.getNamedAttr("FM", builder.getI64IntegerAttr(-4))}),
      "knob 'FM' must not be negative");
}

TEST_F(DTileOpsTest, KnobTableHasUniqueNames) {
  llvm::StringSet<> names;
  ASSERT_FALSE(dtile::getKnobTable().empty());
  for (const dtile::KnobInfo &knob : dtile::getKnobTable()) {
    EXPECT_TRUE(names.insert(knob.name).second)
        << "knob '" << knob.name.str() << "' is listed twice";
    EXPECT_TRUE(isIdentifier(knob.name)) << knob.name.str();
    EXPECT_FALSE(knob.rule.empty()) << knob.name.str();
    EXPECT_FALSE(knob.summary.empty()) << knob.name.str();
    EXPECT_EQ(dtile::lookupKnob(knob.name), &knob);
  }
  EXPECT_EQ(dtile::lookupKnob("no_such_knob"), nullptr);
  EXPECT_EQ(dtile::lookupKnob("BK")->kind, dtile::KnobKind::Int);
  EXPECT_EQ(dtile::lookupKnob("tma")->kind, dtile::KnobKind::Bool);
  EXPECT_EQ(dtile::lookupKnob("stage")->kind, dtile::KnobKind::IntList);
  EXPECT_EQ(dtile::describeKnobKind(dtile::KnobKind::Int), "an integer");
  EXPECT_EQ(dtile::describeKnobKind(dtile::KnobKind::Bool), "a boolean");
  EXPECT_EQ(dtile::describeKnobKind(dtile::KnobKind::IntList),
            "a list of integers");
}

TEST_F(DTileOpsTest, ReportsMemoryEffects) {
  func::FuncOp func =
      startFunc("rmsnorm", {{1, 32, 2048}, {2048}, {1, 32, 2048}});
  RmsNorm rn =
      buildRmsNorm(builder, loc, dtile::KnobsAttr(), func.getArgument(0),
                   func.getArgument(1), func.getArgument(2));
  builder.setInsertionPoint(rn.store);
  auto stage = dtile::StageOp::create(
      builder, loc, slabType({2048}), rn.kernel.getInputArgs()[1], ValueRange{},
      Value(), ValueRange(), AffineMap::getConstantMap(0, &context),
      ArrayRef<int64_t>{2048}, DenseI64ArrayAttr());
  auto wait = dtile::AsyncWaitOp::create(builder, loc, 0);
  ASSERT_EQ(verifyMessage(module), "");

  // A combine synchronises the block, so it is not pure: nothing may sink,
  // hoist, merge or speculate it.
  EXPECT_FALSE(isPure(rn.combine));
  EXPECT_FALSE(isMemoryEffectFree(rn.combine));
  auto combineEffects =
      cast<MemoryEffectOpInterface>(rn.combine.getOperation());
  EXPECT_TRUE(combineEffects.hasEffect<MemoryEffects::Read>());
  EXPECT_TRUE(combineEffects.hasEffect<MemoryEffects::Write>());
  EXPECT_FALSE(isMemoryEffectFree(wait));

  // A stage reads its source and allocates and writes its slab.
  auto stageEffects = cast<MemoryEffectOpInterface>(stage.getOperation());
  SmallVector<MemoryEffects::EffectInstance> onSource, onSlab;
  stageEffects.getEffectsOnValue(stage.getSource(), onSource);
  ASSERT_EQ(onSource.size(), 1u);
  EXPECT_TRUE(isa<MemoryEffects::Read>(onSource[0].getEffect()));
  stageEffects.getEffectsOnValue(stage.getResult(), onSlab);
  ASSERT_EQ(onSlab.size(), 2u);
  EXPECT_TRUE(isa<MemoryEffects::Allocate>(onSlab[0].getEffect()));
  EXPECT_TRUE(isa<MemoryEffects::Write>(onSlab[1].getEffect()));

  // The tile and the strided loops have the effects of their bodies.
  for (Operation *op : {rn.tile.getOperation(), rn.store.getOperation()}) {
    EXPECT_FALSE(isMemoryEffectFree(op));
    std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
        getEffectsRecursively(op);
    ASSERT_TRUE(effects.has_value());
    EXPECT_TRUE(llvm::any_of(*effects, [](auto &e) {
      return isa<MemoryEffects::Write>(e.getEffect());
    }));
  }
}

TEST_F(DTileOpsTest, RejectsCombineOverBlockAxis) {
  func::FuncOp func =
      startFunc("rmsnorm", {{1, 32, 2048}, {2048}, {1, 32, 2048}});
  RmsNorm rn =
      buildRmsNorm(builder, loc, dtile::KnobsAttr(), func.getArgument(0),
                   func.getArgument(1), func.getArgument(2));
  rn.combine.setOverAttr(builder.getStrArrayAttr({"r"}));
  EXPECT_EQ(verifyMessage(module),
            "'dtile.combine' op \"r\" is not a thread axis of the tile");
}

TEST_F(DTileOpsTest, RejectsShadowedAxis) {
  func::FuncOp func =
      startFunc("rmsnorm", {{1, 32, 2048}, {2048}, {1, 32, 2048}});
  RmsNorm rn =
      buildRmsNorm(builder, loc, dtile::KnobsAttr(), func.getArgument(0),
                   func.getArgument(1), func.getArgument(2));
  rn.store.setAxis("r");
  EXPECT_EQ(verifyMessage(module),
            "'dtile.strided_for' op axis \"r\" shadows an enclosing axis");
}

TEST_F(DTileOpsTest, RejectsTooManyThreads) {
  func::FuncOp func = startFunc("big", {{4}});
  auto kernel =
      dtile::KernelOp::create(builder, loc, "big", dtile::KnobsAttr(),
                              ValueRange{}, ValueRange{func.getArgument(0)});
  enter(kernel.getBody().front());
  auto tile =
      dtile::TileOp::create(builder, loc, {}, {}, {"ty", "tx"}, {64, 32});
  EXPECT_EQ(tile.getNumBlocks(), 1);
  EXPECT_EQ(tile.getNumThreads(), 2048);
  EXPECT_EQ(verifyMessage(module),
            "'dtile.tile' op binds 2048 threads per block; the limit is 1024");
}

TEST_F(DTileOpsTest, RejectsStageOutOfBounds) {
  func::FuncOp func = startFunc("slab", {{64, 64}, {4}});
  auto kernel = dtile::KernelOp::create(
      builder, loc, "slab", dtile::KnobsAttr(), ValueRange{func.getArgument(0)},
      ValueRange{func.getArgument(1)});
  enter(kernel.getBody().front());
  auto tile = dtile::TileOp::create(builder, loc, {"b"}, {4}, {"t"}, {32});
  enter(tile.getBody().front());
  AffineExpr d0;
  bindDims(&context, d0);
  // Block 3 would copy rows 48..79 of 64.
  dtile::StageOp::create(
      builder, loc, slabType({32, 64}), kernel.getInputArgs()[0],
      ValueRange{tile.getBlockCoord(0)}, Value(), ValueRange(),
      AffineMap::get(1, 0, {d0 * 16, getAffineConstantExpr(0, &context)},
                     &context),
      ArrayRef<int64_t>{32, 64}, DenseI64ArrayAttr());
  EXPECT_EQ(verifyMessage(module),
            "'dtile.stage' op origin 0 (d0 * 16) ranges over [0, 48], but a "
            "box of extent 32 in a dimension of size 64 must start in [0, 32]");
}

TEST_F(DTileOpsTest, RejectsKernelWithoutOutputs) {
  func::FuncOp func = startFunc("bad", {{4}});
  dtile::KernelOp::create(builder, loc, "bad", dtile::KnobsAttr(),
                          ValueRange{func.getArgument(0)}, ValueRange{});
  EXPECT_EQ(verifyMessage(module),
            "'dtile.kernel' op expected at least one output buffer");
}

} // namespace
