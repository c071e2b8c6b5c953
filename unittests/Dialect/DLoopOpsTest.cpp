//===- DLoopOpsTest.cpp - Tests of the dloop C++ API ----------------------===//
//
// Builds dloop kernels with the C++ builders, as the Tensor-to-Loop lowering
// will, checks the accessors and interfaces later passes rely on (LICM,
// memory effects, index ranges), and checks that the verifiers reject what is
// not well formed.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "Deplodock/InitAllDialects.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace deplodock;

namespace {

class DLoopOpsTest : public ::testing::Test {
protected:
  DLoopOpsTest() {
    loadDeplodockDialects(context);
    module = ModuleOp::create(builder, loc);
  }

  ~DLoopOpsTest() override { module->erase(); }

  std::string verifyMessage(Operation *op) {
    return test::firstVerifyError(op);
  }

  MemRefType memrefType(ArrayRef<int64_t> shape) {
    return MemRefType::get(shape, builder.getF32Type());
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

  /// The body of a kernel or loop, with the builder before its terminator.
  void enter(Block *body) { builder.setInsertionPoint(body->getTerminator()); }

  MLIRContext context;
  OpBuilder builder{&context};
  Location loc = UnknownLoc::get(&context);
  ModuleOp module;
};

/// The pieces of the matmul kernel built below, for the tests to inspect.
struct Matmul {
  dloop::KernelOp kernel;
  dloop::ForOp m, n, k;
  dloop::LoadOp loadA;
  dloop::StoreOp store;
};

/// Builds `C[m, n] = sum_k A[m, k] * B[k, n]` for 32x64 * 64x16 with the
/// C++ builders and body-builder callbacks.
Matmul buildMatmul(OpBuilder &b, Location loc, Value a, Value bMat, Value c) {
  Matmul mm;
  mm.kernel = dloop::KernelOp::create(
      b, loc, "matmul", ValueRange{a, bMat}, ValueRange{c},
      [&](OpBuilder &b, Location loc, ValueRange ins, ValueRange outs) {
        Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
        mm.m = dloop::ForOp::create(
            b, loc, 32, LoopKind::free, "m", {},
            [&](OpBuilder &b, Location loc, Value i, ValueRange) {
              mm.n = dloop::ForOp::create(
                  b, loc, 16, LoopKind::free, "n", {},
                  [&](OpBuilder &b, Location loc, Value j, ValueRange) {
                    mm.k = dloop::ForOp::create(
                        b, loc, 64, LoopKind::reduce, "k", ValueRange{zero},
                        [&](OpBuilder &b, Location loc, Value k,
                            ValueRange acc) {
                          mm.loadA = dloop::LoadOp::create(b, loc, ins[0],
                                                           ValueRange{i, k});
                          Value bv = dloop::LoadOp::create(b, loc, ins[1],
                                                           ValueRange{k, j});
                          Value p = arith::MulFOp::create(b, loc, mm.loadA, bv);
                          Value next = arith::AddFOp::create(b, loc, acc[0], p);
                          dloop::YieldOp::create(b, loc, ValueRange{next});
                        });
                    mm.store = dloop::StoreOp::create(
                        b, loc, mm.k.getResult(0), outs[0], ValueRange{i, j});
                  });
            });
      });
  return mm;
}

TEST_F(DLoopOpsTest, BuildsMatmulKernel) {
  func::FuncOp func = startFunc("matmul", {{32, 64}, {64, 16}, {32, 16}});
  Matmul mm = buildMatmul(builder, loc, func.getArgument(0),
                          func.getArgument(1), func.getArgument(2));
  ASSERT_EQ(verifyMessage(module), "");

  // The kernel binds its buffers to body arguments of the same types.
  EXPECT_EQ(mm.kernel.getSymName(), "matmul");
  ASSERT_EQ(mm.kernel.getInputArgs().size(), 2u);
  ASSERT_EQ(mm.kernel.getOutputArgs().size(), 1u);
  EXPECT_EQ(mm.kernel.getOutputs()[0], func.getArgument(2));
  EXPECT_EQ(mm.kernel.getOutputArgs()[0].getType(), memrefType({32, 16}));
  EXPECT_EQ(mm.kernel.getBuffers().size(), 3u);

  // Loops: extent, kind, axis, induction variable and iter args.
  EXPECT_EQ(mm.m.getExtent(), 32);
  EXPECT_EQ(mm.m.getKind(), LoopKind::free);
  EXPECT_FALSE(mm.m.isReduction());
  EXPECT_TRUE(mm.m.getIterArgs().empty());
  EXPECT_EQ(mm.k.getAxis(), "k");
  EXPECT_TRUE(mm.k.isReduction());
  EXPECT_TRUE(mm.k.getInductionVar().getType().isIndex());
  ASSERT_EQ(mm.k.getIterArgs().size(), 1u);
  EXPECT_EQ(mm.k.getYield().getValues().size(), 1u);
  EXPECT_FALSE(mm.k.getUnroll().has_value());
  mm.k.setUnroll(4);
  EXPECT_EQ(mm.k.getUnroll(), 4);

  // Loads and stores: identity maps over their index operands.
  EXPECT_EQ(mm.loadA.getMemRef(), mm.kernel.getInputArgs()[0]);
  EXPECT_EQ(mm.loadA.getMap(), builder.getMultiDimIdentityMap(2));
  EXPECT_EQ(mm.loadA.getIndices()[0], mm.m.getInductionVar());
  EXPECT_EQ(mm.loadA.getType(), builder.getF32Type());
  EXPECT_EQ(mm.store.getMemRef(), mm.kernel.getOutputArgs()[0]);
  EXPECT_EQ(mm.store.getValue(), mm.k.getResult(0));
  EXPECT_FALSE(mm.store.getReduceKind().has_value());

  // What LoopLikeOpInterface users see.
  auto loopLike = cast<LoopLikeOpInterface>(mm.k.getOperation());
  EXPECT_EQ(loopLike.getSingleInductionVar(), mm.k.getInductionVar());
  EXPECT_EQ(getConstantIntValue(*loopLike.getSingleLowerBound()), 0);
  EXPECT_EQ(getConstantIntValue(*loopLike.getSingleUpperBound()), 64);
  EXPECT_EQ(getConstantIntValue(*loopLike.getSingleStep()), 1);
  EXPECT_EQ(loopLike.getStaticTripCount()->getZExtValue(), 64u);
  EXPECT_EQ(loopLike.getInits().size(), 1u);
  EXPECT_EQ(loopLike.getRegionIterArgs().size(), 1u);
  EXPECT_EQ(loopLike.getYieldedValues().size(), 1u);
  EXPECT_EQ(loopLike.getLoopResults()->size(), 1u);
}

TEST_F(DLoopOpsTest, PrintsReadableSyntax) {
  func::FuncOp func = startFunc("matmul", {{32, 64}, {64, 16}, {32, 16}});
  buildMatmul(builder, loc, func.getArgument(0), func.getArgument(1),
              func.getArgument(2));
  std::string text;
  llvm::raw_string_ostream os(text);
  func.print(os);
  EXPECT_NE(text.find("dloop.kernel @matmul ins(%in0 = %arg0 : "
                      "memref<32x64xf32>, %in1 = %arg1 : memref<64x16xf32>) "
                      "outs(%out0 = %arg2 : memref<32x16xf32>) {"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("dloop.for %m = 0 to 32 free \"m\" {"), std::string::npos)
      << text;
  EXPECT_NE(text.find("= dloop.for %k = 0 to 64 reduce \"k\" iter(%acc = "),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("dloop.load %in0[%m, %k] : memref<32x64xf32>"),
            std::string::npos)
      << text;
}

TEST_F(DLoopOpsTest, HoistsInvariantCodeWithLICM) {
  func::FuncOp func = startFunc("scale", {{8, 4}, {8, 4}});
  arith::MulFOp invariant;
  dloop::LoadOp load;
  dloop::ForOp inner;
  dloop::KernelOp::create(
      builder, loc, "scale", ValueRange{func.getArgument(0)},
      ValueRange{func.getArgument(1)},
      [&](OpBuilder &b, Location loc, ValueRange ins, ValueRange outs) {
        Value two = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(2));
        dloop::ForOp::create(
            b, loc, 8, LoopKind::free, "i", {},
            [&](OpBuilder &b, Location loc, Value i, ValueRange) {
              inner = dloop::ForOp::create(
                  b, loc, 4, LoopKind::free, "j", {},
                  [&](OpBuilder &b, Location loc, Value j, ValueRange) {
                    // Depends on nothing in the loop: LICM hoists it.
                    invariant = arith::MulFOp::create(b, loc, two, two);
                    // Reads memory with the loop variables: it stays.
                    load =
                        dloop::LoadOp::create(b, loc, ins[0], ValueRange{i, j});
                    Value v = arith::MulFOp::create(b, loc, load, invariant);
                    dloop::StoreOp::create(b, loc, v, outs[0],
                                           ValueRange{i, j});
                  });
            });
      });
  ASSERT_EQ(verifyMessage(module), "");

  size_t moved = moveLoopInvariantCode(cast<LoopLikeOpInterface>(*inner));
  EXPECT_EQ(moved, 1u);
  EXPECT_EQ(invariant->getParentOp(), inner->getParentOp());
  EXPECT_TRUE(invariant->isBeforeInBlock(inner));
  EXPECT_EQ(load->getParentOp(), inner.getOperation());
  EXPECT_EQ(verifyMessage(module), "");
}

TEST_F(DLoopOpsTest, PromotesSingleIterationLoop) {
  func::FuncOp func = startFunc("row", {{1, 8}, {8}});
  dloop::ForOp single;
  dloop::KernelOp::create(
      builder, loc, "row", ValueRange{func.getArgument(0)},
      ValueRange{func.getArgument(1)},
      [&](OpBuilder &b, Location loc, ValueRange ins, ValueRange outs) {
        Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
        dloop::ForOp::create(
            b, loc, 8, LoopKind::free, "c", {},
            [&](OpBuilder &b, Location loc, Value c, ValueRange) {
              single = dloop::ForOp::create(
                  b, loc, 1, LoopKind::reduce, "r", ValueRange{zero},
                  [&](OpBuilder &b, Location loc, Value r, ValueRange acc) {
                    Value v =
                        dloop::LoadOp::create(b, loc, ins[0], ValueRange{r, c});
                    Value s = arith::AddFOp::create(b, loc, acc[0], v);
                    dloop::YieldOp::create(b, loc, ValueRange{s});
                  });
              dloop::StoreOp::create(b, loc, single.getResult(0), outs[0],
                                     ValueRange{c});
            });
      });
  ASSERT_EQ(verifyMessage(module), "");

  IRRewriter rewriter(&context);
  ASSERT_TRUE(succeeded(single.promoteIfSingleIteration(rewriter)));
  EXPECT_EQ(verifyMessage(module), "");
  int loops = 0;
  func.walk([&](dloop::ForOp) { ++loops; });
  EXPECT_EQ(loops, 1);
  dloop::StoreOp store;
  func.walk([&](dloop::StoreOp op) { store = op; });
  EXPECT_TRUE(store.getValue().getDefiningOp<arith::AddFOp>());
}

TEST_F(DLoopOpsTest, ReportsMemoryEffects) {
  func::FuncOp func = startFunc("acc", {{4}, {4}});
  dloop::KernelOp kernel;
  dloop::StoreOp store;
  kernel = dloop::KernelOp::create(
      builder, loc, "acc", ValueRange{func.getArgument(0)},
      ValueRange{func.getArgument(1)},
      [&](OpBuilder &b, Location loc, ValueRange ins, ValueRange outs) {
        dloop::ForOp::create(
            b, loc, 4, LoopKind::reduce, "k", {},
            [&](OpBuilder &b, Location loc, Value k, ValueRange) {
              Value v = dloop::LoadOp::create(b, loc, ins[0], ValueRange{k});
              store = dloop::StoreOp::create(b, loc, v, outs[0],
                                             b.getMultiDimIdentityMap(1),
                                             ValueRange{k}, ReduceKind::max);
            });
      });
  ASSERT_EQ(verifyMessage(module), "");
  EXPECT_EQ(store.getReduceKind(), ReduceKind::max);
  EXPECT_TRUE(store.isReducing());

  // The kernel reads its input and reads and writes its output.
  auto effects = cast<MemoryEffectOpInterface>(kernel.getOperation());
  EXPECT_TRUE(effects.hasEffect<MemoryEffects::Read>());
  EXPECT_TRUE(effects.hasEffect<MemoryEffects::Write>());
  SmallVector<MemoryEffects::EffectInstance> onInput;
  effects.getEffectsOnValue(func.getArgument(0), onInput);
  ASSERT_EQ(onInput.size(), 1u);
  EXPECT_TRUE(isa<MemoryEffects::Read>(onInput[0].getEffect()));

  // A reducing store reads the element it folds into.
  auto storeEffects = cast<MemoryEffectOpInterface>(store.getOperation());
  EXPECT_TRUE(storeEffects.hasEffect<MemoryEffects::Read>());
  EXPECT_TRUE(storeEffects.hasEffect<MemoryEffects::Write>());
}

TEST_F(DLoopOpsTest, ComputesIndexRanges) {
  func::FuncOp func = startFunc("ranges", {{8}});
  Value iv, constant, applied, unknown;
  dloop::KernelOp::create(
      builder, loc, "ranges", ValueRange{}, ValueRange{func.getArgument(0)},
      [&](OpBuilder &b, Location loc, ValueRange, ValueRange outs) {
        unknown = arith::IndexCastOp::create(
            b, loc, b.getIndexType(),
            arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(3)));
        dloop::ForOp::create(
            b, loc, 4, LoopKind::free, "i", {},
            [&](OpBuilder &b, Location loc, Value i, ValueRange) {
              iv = i;
              constant = arith::ConstantIndexOp::create(b, loc, 3);
              AffineExpr d0, s0;
              bindDims(b.getContext(), d0);
              bindSymbols(b.getContext(), s0);
              // 2 * i + s - 3 with the symbol s = 3: ranges over [0, 6].
              applied = affine::AffineApplyOp::create(
                  b, loc, AffineMap::get(1, 1, d0 * 2 + s0 - 3),
                  ValueRange{i, constant});
              Value zero =
                  arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
              dloop::StoreOp::create(b, loc, zero, outs[0],
                                     ValueRange{applied});
            });
      });
  ASSERT_EQ(verifyMessage(module), "");

  auto expectRange = [](std::optional<Interval> range, int64_t lo, int64_t hi) {
    ASSERT_TRUE(range.has_value());
    EXPECT_EQ(range->lo, lo);
    EXPECT_EQ(range->hi, hi);
  };
  expectRange(dloop::getIndexRange(iv), 0, 3);
  expectRange(dloop::getIndexRange(constant), 3, 3);
  expectRange(dloop::getIndexRange(applied), 0, 6);
  EXPECT_FALSE(dloop::getIndexRange(unknown).has_value());
}

TEST_F(DLoopOpsTest, RejectsShadowedAxis) {
  func::FuncOp func = startFunc("bad", {{4, 4}});
  dloop::KernelOp::create(
      builder, loc, "bad", ValueRange{}, ValueRange{func.getArgument(0)},
      [&](OpBuilder &b, Location loc, ValueRange, ValueRange outs) {
        Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
        dloop::ForOp::create(
            b, loc, 4, LoopKind::free, "i", {},
            [&](OpBuilder &b, Location loc, Value i, ValueRange) {
              dloop::ForOp::create(
                  b, loc, 4, LoopKind::free, "i", {},
                  [&](OpBuilder &b, Location loc, Value j, ValueRange) {
                    dloop::StoreOp::create(b, loc, zero, outs[0],
                                           ValueRange{i, j});
                  });
            });
      });
  EXPECT_EQ(verifyMessage(module),
            "'dloop.for' op axis \"i\" shadows an enclosing axis");
}

TEST_F(DLoopOpsTest, RejectsOutOfBoundsStore) {
  func::FuncOp func = startFunc("bad", {{8}, {4}});
  dloop::KernelOp::create(
      builder, loc, "bad", ValueRange{func.getArgument(0)},
      ValueRange{func.getArgument(1)},
      [&](OpBuilder &b, Location loc, ValueRange ins, ValueRange outs) {
        // A loop over the input's extent writes past the smaller output.
        dloop::ForOp::create(
            b, loc, 8, LoopKind::free, "i", {},
            [&](OpBuilder &b, Location loc, Value i, ValueRange) {
              Value v = dloop::LoadOp::create(b, loc, ins[0], ValueRange{i});
              dloop::StoreOp::create(b, loc, v, outs[0], ValueRange{i});
            });
      });
  EXPECT_EQ(verifyMessage(module),
            "'dloop.store' op writes out of bounds: index 0 (d0) ranges over "
            "[0, 7] but dimension 0 has size 4");
}

TEST_F(DLoopOpsTest, RejectsKernelWithoutOutputs) {
  func::FuncOp func = startFunc("bad", {{4}});
  dloop::KernelOp::create(builder, loc, "bad", ValueRange{func.getArgument(0)},
                          ValueRange{});
  EXPECT_EQ(verifyMessage(module),
            "'dloop.kernel' op expected at least one output buffer");
}

} // namespace
