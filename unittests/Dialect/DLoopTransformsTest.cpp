//===- DLoopTransformsTest.cpp - Tests of the dloop rewrite mechanisms ----===//
//
// Calls the functions behind the dloop passes (Transforms.h) one at a time on
// small kernels: the cost model fusion's guards compare, the edits it makes
// to kernel signatures and loop names, invariant hoisting and deduplication,
// and fuseProducerInto itself, which must leave the IR untouched when it
// declines.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "Deplodock/Dialect/DLoop/Transforms/Transforms.h"
#include "Deplodock/InitAllDialects.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dloop;

namespace {

class DLoopTransformsTest : public ::testing::Test {
protected:
  DLoopTransformsTest() { loadDeplodockDialects(context); }

  /// Parses `source` into `module` and returns its first function.
  func::FuncOp parse(StringRef source) {
    module = parseSourceString<ModuleOp>(source, ParserConfig(&context));
    EXPECT_TRUE(module);
    if (!module)
      return {};
    auto funcs = module->getOps<func::FuncOp>();
    EXPECT_FALSE(funcs.empty());
    return funcs.empty() ? func::FuncOp() : *funcs.begin();
  }

  /// The kernels of `func`, in order.
  static SmallVector<KernelOp> kernels(func::FuncOp func) {
    return llvm::to_vector(func.getOps<KernelOp>());
  }

  /// The text of `op` in generic form, numbered as if it stood alone.
  static std::string print(Operation *op) {
    std::string text;
    llvm::raw_string_ostream os(text);
    op->print(os, OpPrintingFlags().printGenericOpForm().useLocalScope());
    return text;
  }

  std::string verifyMessage(Operation *op) {
    return test::firstVerifyError(op);
  }

  /// How many ops named `name` `op` contains.
  static size_t count(Operation *op, StringRef name) {
    size_t n = 0;
    op->walk([&](Operation *nested) {
      n += nested->getName().getStringRef() == name;
    });
    return n;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

//===----------------------------------------------------------------------===//
// measureKernel
//===----------------------------------------------------------------------===//

TEST_F(DLoopTransformsTest, MeasuresWorkAndReadsPerIteration) {
  // C[m, n] = 0.5 * sum_k A[m, k] * B[k, n], 32x64 times 64x16, built with
  // the C++ builders. Constants and index arithmetic are free; every other
  // arith/math op and every load counts once per iteration around it.
  OpBuilder b(&context);
  Location loc = b.getUnknownLoc();
  module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  Type f32 = b.getF32Type();
  auto func =
      func::FuncOp::create(b, loc, "matmul",
                           b.getFunctionType({MemRefType::get({32, 64}, f32),
                                              MemRefType::get({64, 16}, f32),
                                              MemRefType::get({32, 16}, f32)},
                                             {}));
  b.setInsertionPointToEnd(func.addEntryBlock());
  auto kernel = KernelOp::create(
      b, loc, "matmul", ValueRange{func.getArgument(0), func.getArgument(1)},
      ValueRange{func.getArgument(2)},
      [&](OpBuilder &b, Location loc, ValueRange ins, ValueRange outs) {
        Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
        Value one = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(1));
        Value two = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(2));
        Value half = arith::DivFOp::create(b, loc, one, two); // 1 op.
        ForOp::create(
            b, loc, 32, LoopKind::free, "m", {},
            [&](OpBuilder &b, Location loc, Value m, ValueRange) {
              ForOp::create(
                  b, loc, 16, LoopKind::free, "n", {},
                  [&](OpBuilder &b, Location loc, Value n, ValueRange) {
                    // Index arithmetic is not work.
                    arith::AddIOp::create(b, loc, m, n);
                    auto k = ForOp::create(
                        b, loc, 64, LoopKind::reduce, "k", ValueRange{zero},
                        [&](OpBuilder &b, Location loc, Value k,
                            ValueRange acc) {
                          Value av =
                              LoadOp::create(b, loc, ins[0], ValueRange{m, k});
                          Value bv =
                              LoadOp::create(b, loc, ins[1], ValueRange{k, n});
                          Value p = arith::MulFOp::create(b, loc, av, bv);
                          Value s = arith::AddFOp::create(b, loc, acc[0], p);
                          YieldOp::create(b, loc, ValueRange{s});
                        });
                    Value scaled =
                        arith::MulFOp::create(b, loc, k.getResult(0), half);
                    StoreOp::create(b, loc, scaled, outs[0], ValueRange{m, n});
                  });
            });
      });
  func::ReturnOp::create(b, loc);
  ASSERT_EQ(verifyMessage(*module), "");

  KernelCost cost = measureKernel(kernel);
  EXPECT_EQ(cost.work, 1 + 32.0 * 16 * (64 * 2 + 1));
  EXPECT_EQ(cost.reads, 32.0 * 16 * 64 * 2);
}

TEST_F(DLoopTransformsTest, MeasuresLoadsUnderIfsAndEmptyKernels) {
  func::FuncOp func = parse(R"mlir(
func.func @f(%a: memref<8xf32>, %b: memref<8xf32>) {
  dloop.kernel @empty outs(%o = %b : memref<8xf32>) {
  }
  dloop.kernel @guarded ins(%x = %a : memref<8xf32>) outs(%o = %b : memref<8xf32>) {
    %c4 = arith.constant 4 : index
    dloop.for %i = 0 to 8 free "i" {
      %c = arith.cmpi slt, %i, %c4 : index
      %v = scf.if %c -> (f32) {
        %l = dloop.load %x[%i] : memref<8xf32>
        scf.yield %l : f32
      } else {
        %l = dloop.load %x[7 - %i] : memref<8xf32>
        %n = arith.negf %l : f32
        scf.yield %n : f32
      }
      dloop.store %v, %o[%i] : memref<8xf32>
    }
  }
  return
}
)mlir");
  ASSERT_TRUE(func);
  SmallVector<KernelOp> ks = kernels(func);
  ASSERT_EQ(ks.size(), 2u);
  KernelCost empty = measureKernel(ks[0]);
  EXPECT_EQ(empty.work, 0);
  EXPECT_EQ(empty.reads, 0);
  // Both branches count in full: the comparison (an i1, not an index) and
  // the negation are work, both loads are reads.
  KernelCost guarded = measureKernel(ks[1]);
  EXPECT_EQ(guarded.work, 16);
  EXPECT_EQ(guarded.reads, 16);
}

//===----------------------------------------------------------------------===//
// addInput, dropUnusedInputs, renameAxes
//===----------------------------------------------------------------------===//

constexpr StringLiteral kTwoInputs = R"mlir(
func.func @f(%a: memref<8xf32>, %b: memref<8xf32>, %c: memref<4xf32>, %d: memref<8xf32>) {
  dloop.kernel @k ins(%x = %a : memref<8xf32>, %unused = %b : memref<8xf32>) outs(%o = %d : memref<8xf32>) {
    dloop.for %i = 0 to 8 free "i" {
      %v = dloop.load %x[%i] : memref<8xf32>
      dloop.store %v, %o[%i] : memref<8xf32>
    }
  }
  return
}
)mlir";

TEST_F(DLoopTransformsTest, AddsInputsOnce) {
  func::FuncOp func = parse(kTwoInputs);
  ASSERT_TRUE(func);
  KernelOp kernel = kernels(func)[0];
  Value a = func.getArgument(0), c = func.getArgument(2);

  // A buffer already bound gives back its argument and changes nothing.
  BlockArgument existing = addInput(kernel, a);
  EXPECT_EQ(existing, kernel.getInputArgs()[0]);
  EXPECT_EQ(kernel.getInputs().size(), 2u);

  // A new one goes after the inputs, before the outputs, with its type.
  BlockArgument added = addInput(kernel, c);
  ASSERT_EQ(kernel.getInputs().size(), 3u);
  ASSERT_EQ(kernel.getOutputs().size(), 1u);
  EXPECT_EQ(kernel.getInputs()[2], c);
  EXPECT_EQ(added, kernel.getInputArgs()[2]);
  EXPECT_EQ(added.getType(), c.getType());
  EXPECT_EQ(kernel.getOutputs()[0], func.getArgument(3));
  EXPECT_EQ(kernel.getOutputArgs()[0].getType(), func.getArgument(3).getType());
  EXPECT_EQ(addInput(kernel, c), added);
  EXPECT_EQ(verifyMessage(func), "");
}

TEST_F(DLoopTransformsTest, DropsUnusedInputsOnly) {
  func::FuncOp func = parse(kTwoInputs);
  ASSERT_TRUE(func);
  KernelOp kernel = kernels(func)[0];
  BlockArgument out = kernel.getOutputArgs()[0];
  addInput(kernel, func.getArgument(2)); // Unused as well.
  dropUnusedInputs(kernel);
  ASSERT_EQ(kernel.getInputs().size(), 1u);
  EXPECT_EQ(kernel.getInputs()[0], func.getArgument(0));
  ASSERT_EQ(kernel.getOutputs().size(), 1u);
  EXPECT_EQ(kernel.getOutputs()[0], func.getArgument(3));
  // The used arguments stay, with their uses.
  EXPECT_EQ(kernel.getOutputArgs()[0], out);
  EXPECT_FALSE(kernel.getInputArgs()[0].use_empty());
  EXPECT_EQ(verifyMessage(func), "");
  // Nothing left to drop.
  dropUnusedInputs(kernel);
  EXPECT_EQ(kernel.getInputs().size(), 1u);
}

TEST_F(DLoopTransformsTest, RenamesAxesInPreOrder) {
  func::FuncOp func = parse(R"mlir(
func.func @f(%a: memref<4x8xf32>, %b: memref<4x8xf32>) {
  dloop.kernel @k ins(%x = %a : memref<4x8xf32>) outs(%o = %b : memref<4x8xf32>) {
    %zero = arith.constant 0.0 : f32
    dloop.for %row = 0 to 4 free "row" {
      %s = dloop.for %k = 0 to 8 reduce "k" iter(%acc = %zero : f32) {
        %v = dloop.load %x[%row, %k] : memref<4x8xf32>
        %n = arith.addf %acc, %v : f32
        dloop.yield %n : f32
      }
      %m = dloop.for %k = 0 to 8 reduce "k" iter(%acc = %zero : f32) {
        %v = dloop.load %x[%row, %k] : memref<4x8xf32>
        %n = arith.maximumf %acc, %v : f32
        dloop.yield %n : f32
      }
      dloop.for %col = 0 to 8 free "col" {
        %v = dloop.load %x[%row, %col] : memref<4x8xf32>
        %d = arith.subf %v, %m : f32
        %q = arith.divf %d, %s : f32
        dloop.store %q, %o[%row, %col] : memref<4x8xf32>
      }
    }
  }
  return
}
)mlir");
  ASSERT_TRUE(func);
  KernelOp kernel = kernels(func)[0];
  renameAxes(kernel);
  SmallVector<std::string> names;
  kernel.walk<WalkOrder::PreOrder>(
      [&](ForOp loop) { names.push_back(loop.getAxis().str()); });
  EXPECT_EQ(names, (SmallVector<std::string>{"d0", "r0", "r1", "d1"}));
  EXPECT_EQ(verifyMessage(func), "");
}

//===----------------------------------------------------------------------===//
// dedupeComputations, hoistLoopInvariants
//===----------------------------------------------------------------------===//

TEST_F(DLoopTransformsTest, DedupesReadOnlyComputations) {
  func::FuncOp func = parse(R"mlir(
func.func @f(%a: memref<4x8xf32>, %b: memref<4xf32>) {
  dloop.kernel @k ins(%x = %a : memref<4x8xf32>) outs(%o = %b : memref<4xf32>) {
    %zero = arith.constant 0.0 : f32
    %zero2 = arith.constant 0.0 : f32
    dloop.for %i = 0 to 4 free "i" {
      %s1 = dloop.for %k = 0 to 8 reduce "k" iter(%acc = %zero : f32) {
        %v = dloop.load %x[%i, %k] : memref<4x8xf32>
        %n = arith.addf %acc, %v : f32
        dloop.yield %n : f32
      }
      %s2 = dloop.for %k = 0 to 8 reduce "k" iter(%acc = %zero : f32) {
        %v = dloop.load %x[%i, %k] : memref<4x8xf32>
        %n = arith.addf %acc, %v : f32
        dloop.yield %n : f32
      }
      %m = dloop.for %k = 0 to 8 reduce "k" iter(%acc = %zero : f32) {
        %v = dloop.load %x[%i, %k] : memref<4x8xf32>
        %n = arith.maximumf %acc, %v : f32
        dloop.yield %n : f32
      }
      %l1 = dloop.load %x[%i, 0] : memref<4x8xf32>
      %l2 = dloop.load %x[%i, 0] : memref<4x8xf32>
      %l3 = dloop.load %x[%i, 1] : memref<4x8xf32>
      %t1 = arith.addf %s1, %s2 : f32
      %t2 = arith.addf %t1, %m : f32
      %t3 = arith.addf %t2, %l1 : f32
      %t4 = arith.addf %t3, %l2 : f32
      %t5 = arith.addf %t4, %l3 : f32
      dloop.store %t5, %o[%i] : memref<4xf32>
      %p1 = dloop.load %o[%i] : memref<4xf32>
      dloop.store %p1, %o[%i] : memref<4xf32>
      %p2 = dloop.load %o[%i] : memref<4xf32>
      dloop.store %p2, %o[%i] : memref<4xf32>
    }
  }
  return
}
)mlir");
  ASSERT_TRUE(func);
  KernelOp kernel = kernels(func)[0];
  // The second sum, the second load of x[i, 0] and the second zero go; the
  // max, x[i, 1] and the loads of the output (a store lies between) stay.
  EXPECT_EQ(dedupeComputations(kernel), 3u);
  EXPECT_EQ(count(kernel, "dloop.for"), 3u);
  EXPECT_EQ(count(kernel, "dloop.load"), 6u);
  EXPECT_EQ(count(kernel, "arith.constant"), 1u);
  EXPECT_EQ(verifyMessage(func), "");
  EXPECT_EQ(dedupeComputations(kernel), 0u);
}

TEST_F(DLoopTransformsTest, HoistsInvariantsAndCountsMoves) {
  func::FuncOp func = parse(R"mlir(
func.func @f(%a: memref<4x8xf32>, %b: memref<4xf32>, %c: memref<4x8xf32>) {
  dloop.kernel @k ins(%x = %a : memref<4x8xf32>, %s = %b : memref<4xf32>) outs(%o = %c : memref<4x8xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      dloop.for %j = 0 to 8 free "j" {
        %one = arith.constant 1.0 : f32
        %n = arith.constant 8.0 : f32
        %inv = arith.divf %one, %n : f32
        %sv = dloop.load %s[%i] : memref<4xf32>
        %e = math.exp %sv : f32
        %ov = dloop.load %o[%i, 0] : memref<4x8xf32>
        %xv = dloop.load %x[%i, %j] : memref<4x8xf32>
        %p = arith.mulf %xv, %e : f32
        %q = arith.mulf %p, %inv : f32
        %r = arith.addf %q, %ov : f32
        dloop.store %r, %o[%i, %j] : memref<4x8xf32>
      }
    }
  }
  return
}
)mlir");
  ASSERT_TRUE(func);
  KernelOp kernel = kernels(func)[0];
  // Out of j: the two constants, the divf, the load of s and the exp (5);
  // then out of i: the constants and the divf again (3). The load of the
  // output stays: the kernel writes that buffer.
  EXPECT_EQ(hoistLoopInvariants(kernel), 8u);
  EXPECT_EQ(verifyMessage(func), "");
  EXPECT_EQ(hoistLoopInvariants(kernel), 0u);
  SmallVector<ForOp> loops = llvm::to_vector(kernel.getOps<ForOp>());
  ASSERT_EQ(loops.size(), 1u);
  // What stays in i: the load of s, the exp and the j loop.
  EXPECT_EQ(loops[0].getBody()->getOperations().size(), 4u);
  kernel.walk([&](LoadOp load) {
    if (load.getMemRef() == kernel.getOutputArgs()[0])
      EXPECT_EQ(load->getParentOfType<ForOp>().getAxis(), "j");
  });
}

//===----------------------------------------------------------------------===//
// fuseProducerInto
//===----------------------------------------------------------------------===//

TEST_F(DLoopTransformsTest, FusesProducerIntoConsumer) {
  func::FuncOp func = parse(R"mlir(
func.func @f(%a: memref<4x8xf32>, %b: memref<8x4xf32>) -> memref<8x4xf32> {
  %t = memref.alloc() : memref<8x4xf32>
  dloop.kernel @producer ins(%x = %a : memref<4x8xf32>) outs(%o = %t : memref<8x4xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      dloop.for %j = 0 to 8 free "j" {
        %v = dloop.load %x[%i, %j] : memref<4x8xf32>
        %e = math.exp %v : f32
        dloop.store %e, %o[%j, %i] : memref<8x4xf32>
      }
    }
  }
  %y = memref.alloc() : memref<8x4xf32>
  dloop.kernel @consumer ins(%p = %t : memref<8x4xf32>, %q = %b : memref<8x4xf32>) outs(%o = %y : memref<8x4xf32>) {
    dloop.for %m = 0 to 8 free "m" {
      dloop.for %n = 0 to 4 free "n" {
        %v = dloop.load %p[%m, %n] : memref<8x4xf32>
        %w = dloop.load %q[%m, %n] : memref<8x4xf32>
        %s = arith.addf %v, %w : f32
        dloop.store %s, %o[%m, %n] : memref<8x4xf32>
      }
    }
  }
  return %y : memref<8x4xf32>
}
)mlir");
  ASSERT_TRUE(func);
  SmallVector<KernelOp> ks = kernels(func);
  ASSERT_EQ(ks.size(), 2u);
  Value t = ks[0].getOutputs()[0];
  std::string producerBefore = print(ks[0]);
  ASSERT_TRUE(succeeded(fuseProducerInto(ks[0], t, ks[1])));

  // The consumer reads a and b, not t, and computes the exp itself at the
  // transposed index; its loops are renamed.
  KernelOp consumer = ks[1];
  ASSERT_EQ(consumer.getInputs().size(), 2u);
  EXPECT_EQ(consumer.getInputs()[0], func.getArgument(1));
  EXPECT_EQ(consumer.getInputs()[1], func.getArgument(0));
  EXPECT_EQ(count(consumer, "math.exp"), 1u);
  EXPECT_EQ(count(consumer, "affine.apply"), 0u);
  bool transposed = false;
  consumer.walk([&](LoadOp load) {
    if (load.getMemRef() != consumer.getInputArgs()[1])
      return;
    ForOp n = load->getParentOfType<ForOp>();
    ForOp m = n->getParentOfType<ForOp>();
    transposed = load.getMap().isPermutation() &&
                 load.getIndices()[0] == n.getInductionVar() &&
                 load.getIndices()[1] == m.getInductionVar();
  });
  EXPECT_TRUE(transposed) << print(consumer);
  SmallVector<std::string> names;
  consumer.walk<WalkOrder::PreOrder>(
      [&](ForOp loop) { names.push_back(loop.getAxis().str()); });
  EXPECT_EQ(names, (SmallVector<std::string>{"d0", "d1"}));
  // The producer is left for the caller to erase, unchanged.
  EXPECT_EQ(print(ks[0]), producerBefore);
  EXPECT_EQ(verifyMessage(func), "");
}

/// Every case below must fail and change nothing.
constexpr StringLiteral kDeclined = R"mlir(
func.func @f(%a: memref<4x8xf32>, %b: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>, memref<4xf32>, memref<4xf32>, memref<4xf32>) {
  // 0: a reducing store.
  %s = memref.alloc() : memref<4xf32>
  dloop.kernel @accumulate ins(%x = %a : memref<4x8xf32>) outs(%o = %s : memref<4xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      dloop.for %k = 0 to 8 reduce "k" {
        %v = dloop.load %x[%i, %k] : memref<4x8xf32>
        dloop.store add %v, %o[%i] : memref<4xf32>
      }
    }
  }
  // 1: reads %s, writes %b.
  %y = memref.alloc() : memref<4xf32>
  dloop.kernel @consumer ins(%p = %s : memref<4xf32>) outs(%o = %y : memref<4xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      %v = dloop.load %p[%i] : memref<4xf32>
      %e = math.sqrt %v : f32
      dloop.store %e, %o[%i] : memref<4xf32>
    }
  }
  // 2: two outputs; the stored value is computed from the other one.
  %u = memref.alloc() : memref<4xf32>
  %w = memref.alloc() : memref<4xf32>
  dloop.kernel @two_outputs ins(%x = %b : memref<4xf32>) outs(%o1 = %u : memref<4xf32>, %o2 = %w : memref<4xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      %v = dloop.load %x[%i] : memref<4xf32>
      dloop.store %v, %o2[%i] : memref<4xf32>
      %r = dloop.load %o2[%i] : memref<4xf32>
      %e = math.exp %r : f32
      dloop.store %e, %o1[%i] : memref<4xf32>
    }
  }
  // 3: reads %u.
  %z = memref.alloc() : memref<4xf32>
  dloop.kernel @reads_u ins(%p = %u : memref<4xf32>) outs(%o = %z : memref<4xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      %v = dloop.load %p[%i] : memref<4xf32>
      dloop.store %v, %o[%i] : memref<4xf32>
    }
  }
  // 4: a plain producer reading %b.
  %e = memref.alloc() : memref<4xf32>
  dloop.kernel @exp ins(%x = %b : memref<4xf32>) outs(%o = %e : memref<4xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      %v = dloop.load %x[%i] : memref<4xf32>
      %n = math.exp %v : f32
      dloop.store %n, %o[%i] : memref<4xf32>
    }
  }
  // 5: reads %e and writes %b, which the producer reads.
  dloop.kernel @in_place ins(%p = %e : memref<4xf32>) outs(%o = %b : memref<4xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      %v = dloop.load %p[%i] : memref<4xf32>
      dloop.store %v, %o[%i] : memref<4xf32>
    }
  }
  // 6: two outputs; the reduction behind the stored value also folds into
  // the other one.
  %v = memref.alloc() : memref<4xf32>
  %partial = memref.alloc() : memref<4xf32>
  dloop.kernel @sum_and_partial ins(%x = %a : memref<4x8xf32>) outs(%o1 = %v : memref<4xf32>, %o2 = %partial : memref<4xf32>) {
    %zero = arith.constant 0.0 : f32
    dloop.for %i = 0 to 4 free "i" {
      %r = dloop.for %k = 0 to 8 reduce "k" iter(%acc = %zero : f32) {
        %l = dloop.load %x[%i, %k] : memref<4x8xf32>
        dloop.store add %l, %o2[%i] : memref<4xf32>
        %n = arith.addf %acc, %l : f32
        dloop.yield %n : f32
      }
      dloop.store %r, %o1[%i] : memref<4xf32>
    }
  }
  // 7: reads %v.
  %q = memref.alloc() : memref<4xf32>
  dloop.kernel @reads_v ins(%p = %v : memref<4xf32>) outs(%o = %q : memref<4xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      %l = dloop.load %p[%i] : memref<4xf32>
      dloop.store %l, %o[%i] : memref<4xf32>
    }
  }
  return %y, %z, %w, %q, %partial : memref<4xf32>, memref<4xf32>, memref<4xf32>, memref<4xf32>, memref<4xf32>
}
)mlir";

TEST_F(DLoopTransformsTest, DeclinesWithoutChangingAnything) {
  func::FuncOp func = parse(kDeclined);
  ASSERT_TRUE(func);
  ASSERT_EQ(verifyMessage(func), "");
  SmallVector<KernelOp> ks = kernels(func);
  ASSERT_EQ(ks.size(), 8u);
  std::string before = print(func);
  auto declines = [&](KernelOp producer, Value buffer, KernelOp consumer) {
    EXPECT_TRUE(failed(fuseProducerInto(producer, buffer, consumer)));
    EXPECT_EQ(print(func), before);
  };
  Value s = ks[0].getOutputs()[0];
  // The producer folds into its output: not one element per iteration.
  declines(ks[0], s, ks[1]);
  // The buffer is not an output of the producer, or not read by the
  // consumer.
  declines(ks[1], s, ks[1]);
  declines(ks[0], s, ks[3]);
  // The stored value reads the producer's other output.
  declines(ks[2], ks[2].getOutputs()[0], ks[3]);
  // The consumer overwrites what the producer reads.
  declines(ks[4], ks[4].getOutputs()[0], ks[5]);
  // Cloning the reduction would clone a store into another output.
  declines(ks[6], ks[6].getOutputs()[0], ks[7]);
}

TEST_F(DLoopTransformsTest, IsReadOnlyComputation) {
  func::FuncOp func = parse(kDeclined);
  ASSERT_TRUE(func);
  KernelOp twoOutputs = kernels(func)[2];
  SmallVector<Operation *> ops;
  twoOutputs.walk([&](Operation *op) {
    if (!isa<KernelOp>(op))
      ops.push_back(op);
  });
  // Loads of the input and the exp only compute; the load of an output,
  // the stores and the loop holding them do not.
  for (Operation *op : ops) {
    bool expected = isa<math::ExpOp>(op) ||
                    (isa<LoadOp>(op) && cast<LoadOp>(op).getMemRef() ==
                                            twoOutputs.getInputArgs()[0]) ||
                    isa<YieldOp>(op);
    EXPECT_EQ(isReadOnlyComputation(op, twoOutputs), expected) << print(op);
  }
}

} // namespace
