//===- SimtTest.cpp - Tests of the SIMT engine ----------------------------===//
//
// Tile IR and Kernel IR parsed from strings, run with runFunction on the CPU
// thread by thread, and checked against values computed here by hand:
// pointwise maps over 2-D blocks and threads, cooperative reductions over
// several thread counts, staged matmul tiles, divergence, strided loops with
// uneven trip counts, shuffles and warp/tree reductions of every kind,
// atomics, cp.async and TMA pipelines (a missing wait gives NaN), and the
// errors: barriers under divergence, races, out-of-bounds accesses.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/InitAllDialects.h"
#include "Deplodock/Interpreter/Interpreter.h"
#include "Deplodock/Interpreter/Memory.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <chrono>
#include <cmath>
#include <ctime>
#include <functional>

using namespace mlir;
using namespace deplodock;
using interp::Buffer;

namespace {

/// `text` with every `key` replaced by `value`.
std::string
substitute(std::string text,
           llvm::ArrayRef<std::pair<std::string, std::string>> keys) {
  for (const auto &[key, value] : keys)
    for (size_t at = text.find(key); at != std::string::npos;
         at = text.find(key, at + value.size()))
      text.replace(at, key.size(), value);
  return text;
}

class SimtTest : public ::testing::Test {
protected:
  SimtTest() { loadDeplodockDialects(context); }

  /// Parses `source` and runs its function `name` on `inputs`; diagnostics
  /// go to `errors`.
  FailureOr<SmallVector<Buffer>> run(const std::string &source, StringRef name,
                                     ArrayRef<Buffer> inputs = {}) {
    errors.clear();
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error)
        errors += diag.str() + "\n";
      return success();
    });
    module = parseSourceString<ModuleOp>(source, &context);
    if (!module) {
      ADD_FAILURE() << "cannot parse:\n" << errors;
      return failure();
    }
    auto func = module->lookupSymbol<func::FuncOp>(name);
    if (!func) {
      ADD_FAILURE() << "no function @" << name.str();
      return failure();
    }
    return interp::runFunction(func, inputs);
  }

  /// A buffer of `shape` and `type` with element i = f(i).
  Buffer buffer(ArrayRef<int64_t> shape, Type type,
                const std::function<double(int64_t)> &f) {
    Buffer b(shape, type);
    for (int64_t i = 0; i < b.size(); ++i)
      b.data[i] = interp::roundTo(type, f(i));
    return b;
  }

  Type f32() { return Float32Type::get(&context); }
  Type f64() { return Float64Type::get(&context); }
  Type i32() { return IntegerType::get(&context, 32); }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::string errors;
};

//===----------------------------------------------------------------------===//
// Pointwise kernels, blocks and threads
//===----------------------------------------------------------------------===//

/// Tile IR: 2 x 3 blocks of 4 x 8 threads cover an 8 x 24 array; every
/// element gets 2 x + 1 (an element nobody wrote would be NaN).
TEST_F(SimtTest, TilePointwise2D) {
  std::string source = R"mlir(
func.func @f(%arg0: memref<8x24xf32>) -> memref<8x24xf32> {
  %out = memref.alloc() : memref<8x24xf32>
  dtile.kernel @k ins(%x = %arg0 : memref<8x24xf32>) outs(%y = %out : memref<8x24xf32>) {
    %two = arith.constant 2.0 : f32
    %one = arith.constant 1.0 : f32
    dtile.tile blocks(%bi : 2 "bi", %bj : 3 "bj") threads(%ti : 4 "ti", %tj : 8 "tj") {
      %v = dloop.load %x[%bi * 4 + %ti, %bj * 8 + %tj] : memref<8x24xf32>
      %m = arith.mulf %v, %two : f32
      %a = arith.addf %m, %one : f32
      dloop.store %a, %y[%bi * 4 + %ti, %bj * 8 + %tj] : memref<8x24xf32>
    }
  }
  return %out : memref<8x24xf32>
}
)mlir";
  Buffer x = buffer({8, 24}, f32(), [](int64_t i) { return i * 0.5; });
  auto results = run(source, "f", {x});
  ASSERT_TRUE(succeeded(results)) << errors;
  for (int64_t i = 0; i < 8 * 24; ++i)
    EXPECT_EQ((*results)[0].data[i], 2 * (i * 0.5) + 1) << "element " << i;
}

/// Kernel IR: a 3 x 2 grid of 16 x 4 blocks. Every thread stores its
/// coordinates; gpu.shuffle idx 0 reads lane 0 of the thread's warp, which
/// shows that the linear thread index x + 16 y groups lanes into warps.
TEST_F(SimtTest, KernelPointwise2D) {
  std::string source = R"mlir(
dkernel.func @k(%y: memref<8x48xf32>, %w: memref<8x48xf32>) outputs [0, 1] grid [3, 2, 1] block [16, 4, 1] smem 0 {
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c10 = arith.constant 10 : index
  %c100 = arith.constant 100 : index
  %c1000 = arith.constant 1000 : index
  %zero = arith.constant 0 : i32
  %width = arith.constant 32 : i32
  %tx = gpu.thread_id x
  %ty = gpu.thread_id y
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %a = arith.muli %ty, %c10 : index
  %b = arith.muli %bx, %c100 : index
  %c = arith.muli %by, %c1000 : index
  %s0 = arith.addi %tx, %a : index
  %s1 = arith.addi %s0, %b : index
  %s2 = arith.addi %s1, %c : index
  %i = arith.index_cast %s2 : index to i32
  %v = arith.sitofp %i : i32 to f32
  %r0 = arith.muli %by, %c4 : index
  %row = arith.addi %r0, %ty : index
  %c0 = arith.muli %bx, %c16 : index
  %col = arith.addi %c0, %tx : index
  memref.store %v, %y[%row, %col] : memref<8x48xf32>
  %lane0, %valid = gpu.shuffle idx %v, %zero, %width : f32
  memref.store %lane0, %w[%row, %col] : memref<8x48xf32>
  dkernel.return
}
func.func @f() -> (memref<8x48xf32>, memref<8x48xf32>) {
  %y = memref.alloc() : memref<8x48xf32>
  %w = memref.alloc() : memref<8x48xf32>
  dkernel.launch @k(%y, %w) : memref<8x48xf32>, memref<8x48xf32>
  return %y, %w : memref<8x48xf32>, memref<8x48xf32>
}
)mlir";
  auto results = run(source, "f");
  ASSERT_TRUE(succeeded(results)) << errors;
  for (int64_t row = 0; row < 8; ++row)
    for (int64_t col = 0; col < 48; ++col) {
      int64_t by = row / 4, ty = row % 4, bx = col / 16, tx = col % 16;
      double base = 100 * bx + 1000 * by;
      EXPECT_EQ((*results)[0].data[row * 48 + col], tx + 10 * ty + base);
      // Warp 0 holds ty 0 and 1, warp 1 ty 2 and 3.
      EXPECT_EQ((*results)[1].data[row * 48 + col], (ty < 2 ? 0 : 20) + base);
    }
}

//===----------------------------------------------------------------------===//
// Cooperative reductions
//===----------------------------------------------------------------------===//

/// strided_for + combine over thread counts that do and do not divide the
/// extent (1000): block b folds (b + 1) x[k] by add and max.
TEST_F(SimtTest, CooperativeReductionOverThreadCounts) {
  std::string source = R"mlir(
func.func @f(%arg0: memref<1000xf32>) -> memref<2x3xf32> {
  %out = memref.alloc() : memref<2x3xf32>
  dtile.kernel @k ins(%x = %arg0 : memref<1000xf32>) outs(%y = %out : memref<2x3xf32>) {
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %one = arith.constant 1.0 : f32
    %c0 = arith.constant 0 : index
    dtile.tile blocks(%b : 3 "b") threads(%t : @T@ "t") {
      %bi = arith.index_cast %b : index to i32
      %bf = arith.sitofp %bi : i32 to f32
      %scale = arith.addf %bf, %one : f32
      %p:2 = dtile.strided_for %k = %t to 1000 step @T@ reduce "k" iter(%s = %zero : f32, %m = %ninf : f32) {
        %v = dloop.load %x[%k] : memref<1000xf32>
        %sv = arith.mulf %v, %scale : f32
        %s2 = arith.addf %s, %sv : f32
        %m2 = arith.maximumf %m, %sv : f32
        dtile.yield %s2, %m2 : f32, f32
      }
      %sum = dtile.combine add %p#0 over ["t"] : f32
      %max = dtile.combine max %p#1 over ["t"] : f32
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        dloop.store %sum, %y[0, %b] : memref<2x3xf32>
        dloop.store %max, %y[1, %b] : memref<2x3xf32>
      }
    }
  }
  return %out : memref<2x3xf32>
}
)mlir";
  Buffer x = buffer({1000}, f32(), [](int64_t i) { return i; });
  for (int threads : {1, 7, 32, 33, 64, 100, 256, 1000, 1024}) {
    auto results =
        run(substitute(source, {{"@T@", std::to_string(threads)}}), "f", {x});
    ASSERT_TRUE(succeeded(results)) << threads << " threads: " << errors;
    for (int b = 0; b < 3; ++b) {
      EXPECT_EQ((*results)[0].data[b], 499500.0 * (b + 1))
          << threads << " threads, block " << b;
      EXPECT_EQ((*results)[0].data[3 + b], 999.0 * (b + 1))
          << threads << " threads, block " << b;
    }
  }
}

/// Combines over some thread axes keep the others apart: threads (ty, tx)
/// of 3 x 5; over ["tx"] sums rows, over ["ty"] columns, over both all.
TEST_F(SimtTest, CombineOverSomeAxes) {
  std::string source = R"mlir(
func.func @f() -> memref<3x3x5xi32> {
  %out = memref.alloc() : memref<3x3x5xi32>
  dtile.kernel @k ins() outs(%y = %out : memref<3x3x5xi32>) {
    %c5 = arith.constant 5 : index
    dtile.tile threads(%ty : 3 "ty", %tx : 5 "tx") {
      %a = arith.muli %ty, %c5 : index
      %t = arith.addi %a, %tx : index
      %v = arith.index_cast %t : index to i32
      %rows = dtile.combine add %v over ["tx"] : i32
      %cols = dtile.combine add %v over ["ty"] : i32
      %all = dtile.combine max %v over ["ty", "tx"] : i32
      dloop.store %rows, %y[0, %ty, %tx] : memref<3x3x5xi32>
      dloop.store %cols, %y[1, %ty, %tx] : memref<3x3x5xi32>
      dloop.store %all, %y[2, %ty, %tx] : memref<3x3x5xi32>
    }
  }
  return %out : memref<3x3x5xi32>
}
)mlir";
  auto results = run(source, "f");
  ASSERT_TRUE(succeeded(results)) << errors;
  const Buffer &y = (*results)[0];
  for (int ty = 0; ty < 3; ++ty)
    for (int tx = 0; tx < 5; ++tx) {
      EXPECT_EQ(y.data[0 * 15 + ty * 5 + tx], 5 * (5 * ty) + 10);
      EXPECT_EQ(y.data[1 * 15 + ty * 5 + tx], 15 + 3 * tx);
      EXPECT_EQ(y.data[2 * 15 + ty * 5 + tx], 14);
    }
}

//===----------------------------------------------------------------------===//
// Staged matmul tiles
//===----------------------------------------------------------------------===//

namespace {
/// Small integers, so every f32 sum is exact whatever the order.
double aAt(int64_t i, int64_t k) { return (i + 2 * k) % 7 - 3; }
double bAt(int64_t k, int64_t j) { return (3 * k + j) % 5 - 2; }
} // namespace

/// A 32 x 32 x 16 matmul: 16 x 16 output tiles per block, K in chunks of 8
/// staged synchronously into shared slabs, one output element per thread.
TEST_F(SimtTest, MatmulSyncStage) {
  std::string source = R"mlir(
func.func @f(%arg0: memref<32x32xf32>, %arg1: memref<32x16xf32>) -> memref<32x16xf32> {
  %out = memref.alloc() : memref<32x16xf32>
  dtile.kernel @matmul ins(%a = %arg0 : memref<32x32xf32>, %b = %arg1 : memref<32x16xf32>) outs(%c = %out : memref<32x16xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%mo : 2 "m_o") threads(%mi : 16 "m_i", %ni : 16 "n_i") {
      %sum = dloop.for %ko = 0 to 4 reduce "k_o" iter(%acc = %zero : f32) {
        %as = dtile.stage %a[%mo * 16, %ko * 8] box [16, 8] pad [0, 1] : memref<32x32xf32> -> memref<16x8xf32, #gpu.address_space<workgroup>>
        %bs = dtile.stage %b[%ko * 8, 0] box [8, 16] : memref<32x16xf32> -> memref<8x16xf32, #gpu.address_space<workgroup>>
        %part = dloop.for %ki = 0 to 8 reduce "k_i" iter(%acc2 = %acc : f32) {
          %av = dloop.load %as[%mi, %ki] : memref<16x8xf32, #gpu.address_space<workgroup>>
          %bv = dloop.load %bs[%ki, %ni] : memref<8x16xf32, #gpu.address_space<workgroup>>
          %prod = arith.mulf %av, %bv : f32
          %next = arith.addf %acc2, %prod : f32
          dloop.yield %next : f32
        }
        dloop.yield %part : f32
      }
      dloop.store %sum, %c[%mo * 16 + %mi, %ni] : memref<32x16xf32>
    }
  }
  return %out : memref<32x16xf32>
}
)mlir";
  Buffer a =
      buffer({32, 32}, f32(), [](int64_t e) { return aAt(e / 32, e % 32); });
  Buffer b =
      buffer({32, 16}, f32(), [](int64_t e) { return bAt(e / 16, e % 16); });
  auto results = run(source, "f", {a, b});
  ASSERT_TRUE(succeeded(results)) << errors;
  for (int64_t i = 0; i < 32; ++i)
    for (int64_t j = 0; j < 16; ++j) {
      double want = 0;
      for (int64_t k = 0; k < 32; ++k)
        want += aAt(i, k) * bAt(k, j);
      EXPECT_EQ((*results)[0].data[i * 16 + j], want) << i << ", " << j;
    }
}

/// Tile IR double buffering with cp_async stages: with the async_wait the
/// result is right; without it the slabs are read in flight (NaN).
TEST_F(SimtTest, TileCpAsyncNeedsItsWait) {
  std::string source = R"mlir(
func.func @f(%arg0: memref<16x64xf32>) -> memref<16xf32> {
  %out = memref.alloc() : memref<16xf32>
  dtile.kernel @k ins(%x = %arg0 : memref<16x64xf32>) outs(%y = %out : memref<16xf32>) {
    %zero = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    dtile.tile threads(%t : 16 "t") {
      %s0 = dtile.stage %x[0, 0] box [16, 16] buffers 2 slot %c0 transport cp_async : memref<16x64xf32> -> memref<16x16xf32, #gpu.address_space<workgroup>>
      %res:2 = dloop.for %ko = 0 to 4 reduce "k_o" iter(%acc = %zero : f32, %cur = %s0 : memref<16x16xf32, #gpu.address_space<workgroup>>) {
        @WAIT@
        %more = arith.cmpi ult, %ko, %c3 : index
        %next = scf.if %more -> (memref<16x16xf32, #gpu.address_space<workgroup>>) {
          %slot = affine.apply affine_map<(d0) -> ((d0 + 1) mod 2)>(%ko)
          %n = dtile.stage %x[0, %ko * 16 + 16] box [16, 16] buffers 2 slot %slot transport cp_async : memref<16x64xf32> -> memref<16x16xf32, #gpu.address_space<workgroup>>
          scf.yield %n : memref<16x16xf32, #gpu.address_space<workgroup>>
        } else {
          scf.yield %cur : memref<16x16xf32, #gpu.address_space<workgroup>>
        }
        %part = dloop.for %ki = 0 to 16 reduce "k_i" iter(%acc2 = %acc : f32) {
          %v = dloop.load %cur[%t, %ki] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %s = arith.addf %acc2, %v : f32
          dloop.yield %s : f32
        }
        dloop.yield %part, %next : f32, memref<16x16xf32, #gpu.address_space<workgroup>>
      }
      dloop.store %res#0, %y[%t] : memref<16xf32>
    }
  }
  return %out : memref<16xf32>
}
)mlir";
  Buffer x = buffer({16, 64}, f32(), [](int64_t e) { return e % 64; });
  auto good = run(substitute(source, {{"@WAIT@", "dtile.async_wait keep 0"}}),
                  "f", {x});
  ASSERT_TRUE(succeeded(good)) << errors;
  for (int64_t t = 0; t < 16; ++t)
    EXPECT_EQ((*good)[0].data[t], 63 * 64 / 2);
  auto bad = run(substitute(source, {{"@WAIT@", ""}}), "f", {x});
  ASSERT_TRUE(succeeded(bad)) << errors;
  EXPECT_TRUE(std::isnan((*bad)[0].data[0]));
}

/// Index arithmetic on thread coordinates runs lane by lane in int64 when
/// every operand is in [0, 2^31) (powers of two as shifts and masks); one
/// negative or huge lane, or a zero divisor, must send the whole op through
/// the general semantics. Each row is one op over 64 threads, checked
/// against C++ arithmetic.
TEST_F(SimtTest, IndexArithmeticOnLanes) {
  std::string source = R"mlir(
dkernel.func @k(%out: memref<14x64xi64>) outputs [0] grid [1, 1, 1] block [64, 1, 1] smem 0 {
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %cbig = arith.constant 67108864 : index
  %tx = gpu.thread_id x
  %n = arith.subi %tx, %c32 : index
  %big = arith.muli %tx, %cbig : index
  %d = arith.addi %tx, %c1 : index
  %r0 = arith.divui %tx, %c3 : index
  %r1 = arith.remui %tx, %c8 : index
  %r2 = arith.divui %tx, %c8 : index
  %r3 = arith.remui %tx, %d : index
  %r4 = arith.divsi %n, %c8 : index
  %r5 = arith.remsi %n, %c3 : index
  %r6 = arith.muli %big, %c3 : index
  %r7 = arith.xori %tx, %c3 : index
  %r8 = arith.subi %tx, %c8 : index
  %u = arith.cmpi ult, %n, %c8 : index
  %s = arith.cmpi slt, %n, %c8 : index
  %r9 = arith.index_cast %u : i1 to index
  %r10 = arith.index_cast %s : i1 to index
  %r11 = arith.divui %big, %c8 : index
  %r12 = arith.maxsi %n, %c3 : index
  %r13 = arith.divsi %d, %r1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c9 = arith.constant 9 : index
  %c10 = arith.constant 10 : index
  %c11 = arith.constant 11 : index
  %c12 = arith.constant 12 : index
  %c13 = arith.constant 13 : index
  %v0 = arith.index_cast %r0 : index to i64
  memref.store %v0, %out[%c0, %tx] : memref<14x64xi64>
  %v1 = arith.index_cast %r1 : index to i64
  memref.store %v1, %out[%c1, %tx] : memref<14x64xi64>
  %v2 = arith.index_cast %r2 : index to i64
  memref.store %v2, %out[%c2, %tx] : memref<14x64xi64>
  %v3 = arith.index_cast %r3 : index to i64
  memref.store %v3, %out[%c3, %tx] : memref<14x64xi64>
  %v4 = arith.index_cast %r4 : index to i64
  memref.store %v4, %out[%c4, %tx] : memref<14x64xi64>
  %v5 = arith.index_cast %r5 : index to i64
  memref.store %v5, %out[%c5, %tx] : memref<14x64xi64>
  %v6 = arith.index_cast %r6 : index to i64
  memref.store %v6, %out[%c6, %tx] : memref<14x64xi64>
  %v7 = arith.index_cast %r7 : index to i64
  memref.store %v7, %out[%c7, %tx] : memref<14x64xi64>
  %v8 = arith.index_cast %r8 : index to i64
  memref.store %v8, %out[%c8, %tx] : memref<14x64xi64>
  %v9 = arith.index_cast %r9 : index to i64
  memref.store %v9, %out[%c9, %tx] : memref<14x64xi64>
  %v10 = arith.index_cast %r10 : index to i64
  memref.store %v10, %out[%c10, %tx] : memref<14x64xi64>
  %v11 = arith.index_cast %r11 : index to i64
  memref.store %v11, %out[%c11, %tx] : memref<14x64xi64>
  %v12 = arith.index_cast %r12 : index to i64
  memref.store %v12, %out[%c12, %tx] : memref<14x64xi64>
  %v13 = arith.index_cast %r13 : index to i64
  memref.store %v13, %out[%c13, %tx] : memref<14x64xi64>
  dkernel.return
}
func.func @f() -> memref<14x64xi64> {
  %out = memref.alloc() : memref<14x64xi64>
  dkernel.launch @k(%out) : memref<14x64xi64>
  return %out : memref<14x64xi64>
}
)mlir";
  auto results = run(source, "f");
  ASSERT_TRUE(succeeded(results)) << errors;
  const Buffer &out = (*results)[0];
  for (int64_t t = 0; t < 64; ++t) {
    int64_t n = t - 32, big = t * 67108864, rem8 = t % 8;
    // index_cast sign-extends i1 (true is -1); arith.divsi by zero is
    // undefined, the interpreter gives 0.
    int64_t expected[14] = {t / 3,         t % 8,
                            t / 8,         t % (t + 1),
                            n / 8,         n % 3,
                            big * 3,       t ^ 3,
                            t - 8,         -(n >= 0 && n < 8),
                            -(n < 8),      big / 8,
                            n > 3 ? n : 3, rem8 ? (t + 1) / rem8 : 0};
    for (int64_t row = 0; row < 14; ++row)
      EXPECT_EQ(out.data[row * 64 + t], static_cast<double>(expected[row]))
          << "row " << row << ", thread " << t;
  }
}

//===----------------------------------------------------------------------===//
// Divergence and loops
//===----------------------------------------------------------------------===//

/// scf.if on the thread id, nested, with results merged lane by lane.
TEST_F(SimtTest, Divergence) {
  std::string source = R"mlir(
dkernel.func @k(%y: memref<64xf32>) outputs [0] grid [1, 1, 1] block [64, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c10 = arith.constant 10 : index
  %thousand = arith.constant 1000.0 : f32
  %t = gpu.thread_id x
  %ti = arith.index_cast %t : index to i32
  %tf = arith.sitofp %ti : i32 to f32
  %r = arith.remui %t, %c3 : index
  %third = arith.cmpi eq, %r, %c0 : index
  %v = scf.if %third -> (f32) {
    %d = arith.addf %tf, %tf : f32
    scf.yield %d : f32
  } else {
    %small = arith.cmpi ult, %t, %c10 : index
    %w = scf.if %small -> (f32) {
      %a = arith.addf %tf, %thousand : f32
      scf.yield %a : f32
    } else {
      %n = arith.negf %tf : f32
      scf.yield %n : f32
    }
    scf.yield %w : f32
  }
  memref.store %v, %y[%t] : memref<64xf32>
  dkernel.return
}
func.func @f() -> memref<64xf32> {
  %y = memref.alloc() : memref<64xf32>
  dkernel.launch @k(%y) : memref<64xf32>
  return %y : memref<64xf32>
}
)mlir";
  auto results = run(source, "f");
  ASSERT_TRUE(succeeded(results)) << errors;
  for (int t = 0; t < 64; ++t) {
    double want = t % 3 == 0 ? 2.0 * t : t < 10 ? 1000.0 + t : -t;
    EXPECT_EQ((*results)[0].data[t], want) << "thread " << t;
  }
}

/// Loops whose bounds differ across lanes: scf.for from the thread id with
/// the block size as step, and an inner loop whose bound depends on the
/// outer induction variable; plus a Tile strided loop whose extent the
/// thread count does not divide.
TEST_F(SimtTest, StridedLoopsWithUnevenTripCounts) {
  std::string source = R"mlir(
dkernel.func @k(%n: memref<48xi32>, %s: memref<48xi32>) outputs [0, 1] grid [1, 1, 1] block [48, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c48 = arith.constant 48 : index
  %c100 = arith.constant 100 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %t = gpu.thread_id x
  %r:2 = scf.for %k = %t to %c100 step %c48 iter_args(%count = %zero, %sum = %zero) -> (i32, i32) {
    %c = arith.addi %count, %one : i32
    %lim = arith.remui %k, %c5 : index
    %inner = scf.for %j = %c0 to %lim step %c1 iter_args(%acc = %sum) -> (i32) {
      %ji = arith.index_cast %j : index to i32
      %a = arith.addi %acc, %ji : i32
      scf.yield %a : i32
    }
    scf.yield %c, %inner : i32, i32
  }
  memref.store %r#0, %n[%t] : memref<48xi32>
  memref.store %r#1, %s[%t] : memref<48xi32>
  dkernel.return
}
func.func @f() -> (memref<48xi32>, memref<48xi32>, memref<48xi32>) {
  %n = memref.alloc() : memref<48xi32>
  %s = memref.alloc() : memref<48xi32>
  dkernel.launch @k(%n, %s) : memref<48xi32>, memref<48xi32>
  %m = memref.alloc() : memref<48xi32>
  dtile.kernel @tile ins() outs(%y = %m : memref<48xi32>) {
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    dtile.tile threads(%t : 48 "t") {
      %c = dtile.strided_for %k = %t to 100 step 48 reduce "k" iter(%acc = %zero : i32) {
        %a = arith.addi %acc, %one : i32
        dtile.yield %a : i32
      }
      dloop.store %c, %y[%t] : memref<48xi32>
    }
  }
  return %n, %s, %m : memref<48xi32>, memref<48xi32>, memref<48xi32>
}
)mlir";
  auto results = run(source, "f");
  ASSERT_TRUE(succeeded(results)) << errors;
  for (int t = 0; t < 48; ++t) {
    int count = 0, sum = 0;
    for (int k = t; k < 100; k += 48) {
      ++count;
      for (int j = 0; j < k % 5; ++j)
        sum += j;
    }
    EXPECT_EQ((*results)[0].data[t], count) << "thread " << t;
    EXPECT_EQ((*results)[1].data[t], sum) << "thread " << t;
    EXPECT_EQ((*results)[2].data[t], count) << "thread " << t;
  }
}

/// memref.alloca is a per-thread array.
TEST_F(SimtTest, AllocaIsPerThread) {
  std::string source = R"mlir(
dkernel.func @k(%y: memref<32xf32>) outputs [0] grid [1, 1, 1] block [32, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %t = gpu.thread_id x
  %ti = arith.index_cast %t : index to i32
  %tf = arith.sitofp %ti : i32 to f32
  %regs = memref.alloca() : memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %if = arith.sitofp %ii : i32 to f32
    %v = arith.mulf %tf, %if : f32
    memref.store %v, %regs[%i] : memref<4xf32>
  }
  %sum = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f32) {
    %v = memref.load %regs[%i] : memref<4xf32>
    %a = arith.addf %acc, %v : f32
    scf.yield %a : f32
  }
  memref.store %sum, %y[%t] : memref<32xf32>
  dkernel.return
}
func.func @f() -> memref<32xf32> {
  %y = memref.alloc() : memref<32xf32>
  dkernel.launch @k(%y) : memref<32xf32>
  return %y : memref<32xf32>
}
)mlir";
  auto results = run(source, "f");
  ASSERT_TRUE(succeeded(results)) << errors;
  for (int t = 0; t < 32; ++t)
    EXPECT_EQ((*results)[0].data[t], 6.0 * t);
}

//===----------------------------------------------------------------------===//
// Shuffles, warp and tree reductions
//===----------------------------------------------------------------------===//

/// gpu.shuffle in every mode, with CUDA's segment rules: a lane reading
/// outside its `width` segment (above it for xor and down, below it for up)
/// keeps its own value and gets valid = false.
TEST_F(SimtTest, ShuffleModes) {
  std::string source = R"mlir(
dkernel.func @k(%y: memref<4x64xi32>, %ok: memref<4x64xi32>) outputs [0, 1] grid [1, 1, 1] block [64, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %off = arith.constant 5 : i32
  %width = arith.constant 8 : i32
  %t = gpu.thread_id x
  %v = arith.index_cast %t : index to i32
  %x, %xv = gpu.shuffle xor %v, %off, %width : i32
  %u, %uv = gpu.shuffle up %v, %off, %width : i32
  %d, %dv = gpu.shuffle down %v, %off, %width : i32
  %i, %iv = gpu.shuffle idx %v, %off, %width : i32
  memref.store %x, %y[%c0, %t] : memref<4x64xi32>
  memref.store %u, %y[%c1, %t] : memref<4x64xi32>
  memref.store %d, %y[%c2, %t] : memref<4x64xi32>
  memref.store %i, %y[%c3, %t] : memref<4x64xi32>
  %xe = arith.extui %xv : i1 to i32
  %ue = arith.extui %uv : i1 to i32
  %de = arith.extui %dv : i1 to i32
  %ie = arith.extui %iv : i1 to i32
  memref.store %xe, %ok[%c0, %t] : memref<4x64xi32>
  memref.store %ue, %ok[%c1, %t] : memref<4x64xi32>
  memref.store %de, %ok[%c2, %t] : memref<4x64xi32>
  memref.store %ie, %ok[%c3, %t] : memref<4x64xi32>
  dkernel.return
}
func.func @f() -> (memref<4x64xi32>, memref<4x64xi32>) {
  %y = memref.alloc() : memref<4x64xi32>
  %ok = memref.alloc() : memref<4x64xi32>
  dkernel.launch @k(%y, %ok) : memref<4x64xi32>, memref<4x64xi32>
  return %y, %ok : memref<4x64xi32>, memref<4x64xi32>
}
)mlir";
  auto results = run(source, "f");
  ASSERT_TRUE(succeeded(results)) << errors;
  for (int t = 0; t < 64; ++t) {
    int lane = t % 32, base = t - lane, first = lane / 8 * 8;
    int xs = lane ^ 5;
    bool xok = xs / 8 <= lane / 8;
    int us = lane - 5;
    bool uok = us >= first;
    int ds = lane + 5;
    bool dok = ds < first + 8;
    int is = first + 5;
    int want[4] = {base + (xok ? xs : lane), base + (uok ? us : lane),
                   base + (dok ? ds : lane), base + is};
    int valid[4] = {xok, uok, dok, 1};
    for (int m = 0; m < 4; ++m) {
      EXPECT_EQ((*results)[0].data[m * 64 + t], want[m])
          << "mode " << m << ", thread " << t;
      EXPECT_EQ((*results)[1].data[m * 64 + t], valid[m])
          << "mode " << m << ", thread " << t;
    }
  }
}

/// dkernel.warp_reduce of every kind, on integers and floats, over groups
/// of 2 to 32 lanes.
TEST_F(SimtTest, WarpReduceKinds) {
  std::string source = R"mlir(
dkernel.func @k(%y: memref<6x64xf64>) outputs [0] grid [1, 1, 1] block [64, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c13 = arith.constant 13 : index
  %t = gpu.thread_id x
  %t1 = arith.addi %t, %c1 : index
  %vi = arith.index_cast %t1 : index to i32
  %m3 = arith.remui %t, %c3 : index
  %m3p = arith.addi %m3, %c1 : index
  %vl = arith.index_cast %m3p : index to i64
  %s7 = arith.muli %t, %c7 : index
  %m13 = arith.remui %s7, %c13 : index
  %mi = arith.index_cast %m13 : index to i32
  %vf = arith.sitofp %mi : i32 to f32
  %vh = arith.sitofp %mi : i32 to f16
  %add = dkernel.warp_reduce add %vi width 2 : i32
  %mul = dkernel.warp_reduce mul %vl width 4 : i64
  %max = dkernel.warp_reduce max %vf width 8 : f32
  %min = dkernel.warp_reduce min %vf width 16 : f32
  %hadd = dkernel.warp_reduce add %vh width 32 : f16
  %iadd = dkernel.warp_reduce add %vi width 32 : i32
  %r0 = arith.sitofp %add : i32 to f64
  %r1 = arith.sitofp %mul : i64 to f64
  %r2 = arith.extf %max : f32 to f64
  %r3 = arith.extf %min : f32 to f64
  %r4 = arith.extf %hadd : f16 to f64
  %r5 = arith.sitofp %iadd : i32 to f64
  memref.store %r0, %y[%c0, %t] : memref<6x64xf64>
  memref.store %r1, %y[%c1, %t] : memref<6x64xf64>
  memref.store %r2, %y[%c2, %t] : memref<6x64xf64>
  memref.store %r3, %y[%c3, %t] : memref<6x64xf64>
  memref.store %r4, %y[%c4, %t] : memref<6x64xf64>
  memref.store %r5, %y[%c5, %t] : memref<6x64xf64>
  dkernel.return
}
func.func @f() -> memref<6x64xf64> {
  %y = memref.alloc() : memref<6x64xf64>
  dkernel.launch @k(%y) : memref<6x64xf64>
  return %y : memref<6x64xf64>
}
)mlir";
  auto results = run(source, "f");
  ASSERT_TRUE(succeeded(results)) << errors;
  auto group = [](int t, int w, const std::function<double(int)> &v,
                  const std::function<double(double, double)> &op) {
    int first = t / w * w;
    double acc = v(first);
    for (int l = first + 1; l < first + w; ++l)
      acc = op(acc, v(l));
    return acc;
  };
  auto vi = [](int t) { return t + 1.0; };
  auto vl = [](int t) { return t % 3 + 1.0; };
  auto vf = [](int t) { return (t * 7 % 13) * 1.0; };
  auto add = [](double a, double b) { return a + b; };
  auto mul = [](double a, double b) { return a * b; };
  auto max = [](double a, double b) { return std::max(a, b); };
  auto min = [](double a, double b) { return std::min(a, b); };
  const Buffer &y = (*results)[0];
  for (int t = 0; t < 64; ++t) {
    EXPECT_EQ(y.data[0 * 64 + t], group(t, 2, vi, add)) << t;
    EXPECT_EQ(y.data[1 * 64 + t], group(t, 4, vl, mul)) << t;
    EXPECT_EQ(y.data[2 * 64 + t], group(t, 8, vf, max)) << t;
    EXPECT_EQ(y.data[3 * 64 + t], group(t, 16, vf, min)) << t;
    EXPECT_EQ(y.data[4 * 64 + t], group(t, 32, vf, add)) << t;
    EXPECT_EQ(y.data[5 * 64 + t], group(t, 32, vi, add)) << t;
  }
}

/// dkernel.tree_reduce of every kind over a shared buffer, after a barrier.
TEST_F(SimtTest, TreeReduceKinds) {
  std::string source = R"mlir(
dkernel.func @k(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [64, 1, 1] smem 256 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c11 = arith.constant 11 : index
  %buf = dkernel.alloc_shared offset 0 : memref<64xf32, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x
  %s = arith.muli %t, %c5 : index
  %m = arith.remui %s, %c11 : index
  %mi = arith.index_cast %m : index to i32
  %v = arith.sitofp %mi : i32 to f32
  memref.store %v, %buf[%t] : memref<64xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %sum = dkernel.tree_reduce add %buf length 64 : memref<64xf32, #gpu.address_space<workgroup>> -> f32
  gpu.barrier
  memref.store %v, %buf[%t] : memref<64xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %max = dkernel.tree_reduce max %buf length 32 : memref<64xf32, #gpu.address_space<workgroup>> -> f32
  gpu.barrier
  memref.store %v, %buf[%t] : memref<64xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %min = dkernel.tree_reduce min %buf length 16 : memref<64xf32, #gpu.address_space<workgroup>> -> f32
  gpu.barrier
  memref.store %v, %buf[%t] : memref<64xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %mul = dkernel.tree_reduce mul %buf length 4 : memref<64xf32, #gpu.address_space<workgroup>> -> f32
  %last = arith.constant 63 : index
  %leader = arith.cmpi eq, %t, %last : index
  scf.if %leader {
    memref.store %sum, %y[%c0] : memref<4xf32>
    memref.store %max, %y[%c1] : memref<4xf32>
    memref.store %min, %y[%c2] : memref<4xf32>
    memref.store %mul, %y[%c3] : memref<4xf32>
  }
  dkernel.return
}
func.func @f() -> memref<4xf32> {
  %y = memref.alloc() : memref<4xf32>
  dkernel.launch @k(%y) : memref<4xf32>
  return %y : memref<4xf32>
}
)mlir";
  auto results = run(source, "f");
  ASSERT_TRUE(succeeded(results)) << errors;
  double sum = 0, max = -1, min = 100, mul = 1;
  for (int t = 0; t < 64; ++t) {
    double v = t * 5 % 11;
    sum += v;
    if (t < 32)
      max = std::max(max, v);
    if (t < 16)
      min = std::min(min, v);
    if (t < 4)
      mul *= v;
  }
  EXPECT_EQ((*results)[0].data[0], sum);
  EXPECT_EQ((*results)[0].data[1], max);
  EXPECT_EQ((*results)[0].data[2], min);
  EXPECT_EQ((*results)[0].data[3], mul);
}

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

/// Split-K: 4 K chunks (grid z) add their partial dot products atomically
/// into an output the launch zeroes (memref.alloc poisons it with NaN).
/// Atomics of the other kinds fold thread after thread.
TEST_F(SimtTest, AtomicsSplitK) {
  std::string source = R"mlir(
dkernel.func @split_k(%a: memref<8x64xf32>, %b: memref<64x16xf32>, %c: memref<8x16xf32>) outputs [2] zero_init [2] grid [1, 8, 4] block [16, 1, 1] smem 0 {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.000000e+00 : f32
  %row = gpu.block_id y
  %chunk = gpu.block_id z
  %col = gpu.thread_id x
  %k0 = arith.muli %chunk, %c16 : index
  %k1 = arith.addi %k0, %c16 : index
  %part = scf.for %k = %k0 to %k1 step %c1 iter_args(%acc = %zero) -> (f32) {
    %av = memref.load %a[%row, %k] : memref<8x64xf32>
    %bv = memref.load %b[%k, %col] : memref<64x16xf32>
    %f = math.fma %av, %bv, %acc : f32
    scf.yield %f : f32
  } {dkernel.unroll = 4 : i64}
  dkernel.atomic_store add %part, %c[%row, %col] : memref<8x16xf32>
  dkernel.return
}
dkernel.func @kinds(%i: memref<16xi32>, %f: memref<f32>, %d: memref<4x4xf64>) outputs [0, 1, 2] zero_init [1] grid [1, 1, 1] block [16, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %t = gpu.thread_id x
  %vi = arith.index_cast %t : index to i32
  %vf = arith.constant -1.500000e+00 : f32
  %vd = arith.constant 2.000000e+00 : f64
  %r = arith.remui %t, %c4 : index
  dkernel.atomic_store max %vi, %i[%r] : memref<16xi32>
  dkernel.atomic_store min %vf, %f[] : memref<f32>
  dkernel.atomic_store mul %vd, %d[%c0, %r] : memref<4x4xf64>
  dkernel.return
}
func.func @f(%a: memref<8x64xf32>, %b: memref<64x16xf32>, %i: memref<16xi32>, %d: memref<4x4xf64>) -> (memref<8x16xf32>, memref<16xi32>, memref<f32>, memref<4x4xf64>) {
  %c = memref.alloc() : memref<8x16xf32>
  dkernel.launch @split_k(%a, %b, %c) : memref<8x64xf32>, memref<64x16xf32>, memref<8x16xf32>
  %f = memref.alloc() : memref<f32>
  dkernel.launch @kinds(%i, %f, %d) : memref<16xi32>, memref<f32>, memref<4x4xf64>
  return %c, %i, %f, %d : memref<8x16xf32>, memref<16xi32>, memref<f32>, memref<4x4xf64>
}
)mlir";
  Buffer a =
      buffer({8, 64}, f32(), [](int64_t e) { return aAt(e / 64, e % 64); });
  Buffer b =
      buffer({64, 16}, f32(), [](int64_t e) { return bAt(e / 16, e % 16); });
  Buffer i = buffer({16}, i32(), [](int64_t e) { return e == 1 ? 100 : -5; });
  Buffer d = buffer({4, 4}, f64(), [](int64_t e) { return 1.5; });
  auto results = run(source, "f", {a, b, i, d});
  ASSERT_TRUE(succeeded(results)) << errors;
  for (int64_t r = 0; r < 8; ++r)
    for (int64_t c = 0; c < 16; ++c) {
      double want = 0;
      for (int64_t k = 0; k < 64; ++k)
        want += aAt(r, k) * bAt(k, c);
      EXPECT_EQ((*results)[0].data[r * 16 + c], want);
    }
  // Threads t = r, r + 4, r + 8, r + 12 fold into element r.
  for (int e = 0; e < 16; ++e)
    EXPECT_EQ((*results)[1].data[e], e == 1 ? 100 : e < 4 ? 12 + e : -5);
  EXPECT_EQ((*results)[2].data[0], -1.5);
  for (int e = 0; e < 16; ++e)
    EXPECT_EQ((*results)[3].data[e], e < 4 ? 1.5 * 16 : 1.5);
}

//===----------------------------------------------------------------------===//
// cp.async and TMA
//===----------------------------------------------------------------------===//

/// The cp.async double-buffered matmul of test/Dialect/DKernel/ops.mlir:
/// `cp_async_wait 1` (all but the prefetch just issued) is right;
/// `cp_async_wait 2`, or no wait at all, lets the chunk being computed on
/// still be in flight, whose shared memory holds NaN until it lands.
TEST_F(SimtTest, CpAsyncDoubleBuffering) {
  std::string source = R"mlir(
dkernel.func @matmul_cp_async(%a: memref<64x256xf32>, %b: memref<256x64xf32>, %c: memref<64x64xf32>) outputs [2] grid [4, 4, 1] block [16, 16, 1] smem 4096 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.000000e+00 : f32
  %as = dkernel.alloc_shared offset 0 : memref<2x16x16xf32, #gpu.address_space<workgroup>>
  %bs = dkernel.alloc_shared offset 2048 : memref<2x16x16xf32, #gpu.address_space<workgroup>>
  %tx = gpu.thread_id x
  %ty = gpu.thread_id y
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %row0 = arith.muli %by, %c16 : index
  %row = arith.addi %row0, %ty : index
  %col0 = arith.muli %bx, %c16 : index
  %col = arith.addi %col0, %tx : index
  dkernel.cp_async %a[%row, %tx], %as[%c0, %ty, %tx], 4 : memref<64x256xf32>, memref<2x16x16xf32, #gpu.address_space<workgroup>>
  dkernel.cp_async %b[%ty, %col], %bs[%c0, %ty, %tx], 4 : memref<256x64xf32>, memref<2x16x16xf32, #gpu.address_space<workgroup>>
  dkernel.cp_async_commit
  %sum = scf.for %kt = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
    %stage = arith.remui %kt, %c2 : index
    %next = arith.addi %kt, %c1 : index
    %has_next = arith.cmpi ult, %next, %c16 : index
    scf.if %has_next {
      %other = arith.subi %c1, %stage : index
      %k0 = arith.muli %next, %c16 : index
      %ka = arith.addi %k0, %tx : index
      %kb = arith.addi %k0, %ty : index
      dkernel.cp_async %a[%row, %ka], %as[%other, %ty, %tx], 4 : memref<64x256xf32>, memref<2x16x16xf32, #gpu.address_space<workgroup>>
      dkernel.cp_async %b[%kb, %col], %bs[%other, %ty, %tx], 4 : memref<256x64xf32>, memref<2x16x16xf32, #gpu.address_space<workgroup>>
    }
    dkernel.cp_async_commit
    dkernel.cp_async_wait @N@
    gpu.barrier
    %part = scf.for %k = %c0 to %c16 step %c1 iter_args(%inner = %acc) -> (f32) {
      %av = memref.load %as[%stage, %ty, %k] : memref<2x16x16xf32, #gpu.address_space<workgroup>>
      %bv = memref.load %bs[%stage, %k, %tx] : memref<2x16x16xf32, #gpu.address_space<workgroup>>
      %f = math.fma %av, %bv, %inner : f32
      scf.yield %f : f32
    } {dkernel.unroll = 16 : i64}
    gpu.barrier
    scf.yield %part : f32
  }
  memref.store %sum, %c[%row, %col] : memref<64x64xf32>
  dkernel.return
}
func.func @f(%a: memref<64x256xf32>, %b: memref<256x64xf32>) -> memref<64x64xf32> {
  %c = memref.alloc() : memref<64x64xf32>
  dkernel.launch @matmul_cp_async(%a, %b, %c) : memref<64x256xf32>, memref<256x64xf32>, memref<64x64xf32>
  return %c : memref<64x64xf32>
}
)mlir";
  Buffer a =
      buffer({64, 256}, f32(), [](int64_t e) { return aAt(e / 256, e % 256); });
  Buffer b =
      buffer({256, 64}, f32(), [](int64_t e) { return bAt(e / 64, e % 64); });
  auto good = run(substitute(source, {{"@N@", "1"}}), "f", {a, b});
  ASSERT_TRUE(succeeded(good)) << errors;
  for (int64_t i = 0; i < 64; ++i)
    for (int64_t j = 0; j < 64; ++j) {
      double want = 0;
      for (int64_t k = 0; k < 256; ++k)
        want += aAt(i, k) * bAt(k, j);
      ASSERT_EQ((*good)[0].data[i * 64 + j], want) << i << ", " << j;
    }
  auto shortWait = run(substitute(source, {{"@N@", "2"}}), "f", {a, b});
  ASSERT_TRUE(succeeded(shortWait)) << errors;
  EXPECT_TRUE(std::isnan((*shortWait)[0].data[0]));
  auto noWait =
      run(substitute(source, {{"dkernel.cp_async_wait @N@", ""}}), "f", {a, b});
  ASSERT_TRUE(succeeded(noWait)) << errors;
  EXPECT_TRUE(std::isnan((*noWait)[0].data[0]));
}

/// A TMA load signalled on an mbarrier: thread 0 initialises it, expects
/// the box's bytes and issues the load; every thread waits for phase 0.
/// Out-of-range box elements are zeros. Without the wait the tile is NaN.
TEST_F(SimtTest, TmaAndMbarrier) {
  std::string source = R"mlir(
dkernel.func @k(%x: memref<20x40xf32>, %desc: !dkernel.tma_descriptor<16x8xf32, swizzle = 0>, %y: memref<32x48xf32>) outputs [2] grid [6, 2, 1] block [128, 1, 1] smem 528 {
  dkernel.tma_descriptor %desc describes %x : !dkernel.tma_descriptor<16x8xf32, swizzle = 0>, memref<20x40xf32>
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %tile = dkernel.alloc_shared offset 0 : memref<16x8xf32, #gpu.address_space<workgroup>>
  %mb = dkernel.alloc_shared offset 512 : memref<1xi64, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %row0 = arith.muli %by, %c16 : index
  %col0 = arith.muli %bx, %c8 : index
  %leader = arith.cmpi eq, %t, %c0 : index
  scf.if %leader {
    dkernel.mbarrier_init %mb[%c0], 1 : memref<1xi64, #gpu.address_space<workgroup>>
  }
  gpu.barrier
  scf.if %leader {
    dkernel.mbarrier_arrive_expect_tx %mb[%c0], 512 : memref<1xi64, #gpu.address_space<workgroup>>
    dkernel.tma_load %desc[%row0, %col0] -> %tile, %mb[%c0] : !dkernel.tma_descriptor<16x8xf32, swizzle = 0>, memref<16x8xf32, #gpu.address_space<workgroup>>, memref<1xi64, #gpu.address_space<workgroup>>
  }
  @WAIT@
  %r = arith.divui %t, %c8 : index
  %c = arith.remui %t, %c8 : index
  %v = memref.load %tile[%r, %c] : memref<16x8xf32, #gpu.address_space<workgroup>>
  %gr = arith.addi %row0, %r : index
  %gc = arith.addi %col0, %c : index
  memref.store %v, %y[%gr, %gc] : memref<32x48xf32>
  dkernel.return
}
func.func @f(%x: memref<20x40xf32>) -> memref<32x48xf32> {
  %y = memref.alloc() : memref<32x48xf32>
  dkernel.launch @k(%x, %y) : memref<20x40xf32>, memref<32x48xf32>
  return %y : memref<32x48xf32>
}
)mlir";
  Buffer x = buffer({20, 40}, f32(), [](int64_t e) { return e + 1; });
  auto good = run(
      substitute(source,
                 {{"@WAIT@", "dkernel.mbarrier_wait %mb[%c0], %c0 : "
                             "memref<1xi64, #gpu.address_space<workgroup>>"}}),
      "f", {x});
  ASSERT_TRUE(succeeded(good)) << errors;
  for (int64_t r = 0; r < 32; ++r)
    for (int64_t c = 0; c < 48; ++c)
      EXPECT_EQ((*good)[0].data[r * 48 + c],
                r < 20 && c < 40 ? r * 40 + c + 1 : 0.0)
          << r << ", " << c;
  auto bad = run(substitute(source, {{"@WAIT@", ""}}), "f", {x});
  ASSERT_TRUE(succeeded(bad)) << errors;
  EXPECT_TRUE(std::isnan((*bad)[0].data[0]));
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

/// A barrier inside a branch only some threads take is an error naming how
/// many threads reached it, not a hang.
TEST_F(SimtTest, BarrierUnderDivergence) {
  std::string source = R"mlir(
dkernel.func @k(%y: memref<256xf32>) outputs [0] grid [2, 1, 1] block [256, 1, 1] smem 0 {
  %c37 = arith.constant 37 : index
  %one = arith.constant 1.0 : f32
  %t = gpu.thread_id x
  %early = arith.cmpi ult, %t, %c37 : index
  scf.if %early {
    gpu.barrier
  }
  memref.store %one, %y[%t] : memref<256xf32>
  dkernel.return
}
func.func @f() -> memref<256xf32> {
  %y = memref.alloc() : memref<256xf32>
  dkernel.launch @k(%y) : memref<256xf32>
  return %y : memref<256xf32>
}
)mlir";
  EXPECT_TRUE(failed(run(source, "f")));
  EXPECT_NE(errors.find("'gpu.barrier' op reached by 37 of the 256 threads "
                        "of block (0, 0, 0)"),
            std::string::npos)
      << errors;
}

/// Per-lane loop bounds that leave some threads out of a barrier.
TEST_F(SimtTest, BarrierInUnevenLoop) {
  std::string source = R"mlir(
func.func @f(%arg0: memref<100xf32>) -> memref<64xf32> {
  %out = memref.alloc() : memref<64xf32>
  dtile.kernel @k ins(%x = %arg0 : memref<100xf32>) outs(%y = %out : memref<64xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile threads(%t : 64 "t") {
      %p = dtile.strided_for %k = %t to 100 step 64 reduce "k" iter(%acc = %zero : f32) {
        %v = dloop.load %x[%k] : memref<100xf32>
        %s = dtile.combine add %v over ["t"] : f32
        %n = arith.addf %acc, %s : f32
        dtile.yield %n : f32
      }
      dloop.store %p, %y[%t] : memref<64xf32>
    }
  }
  return %out : memref<64xf32>
}
)mlir";
  Buffer x = buffer({100}, f32(), [](int64_t e) { return e; });
  EXPECT_TRUE(failed(run(source, "f", {x})));
  EXPECT_NE(errors.find("'dtile.combine' op reached by 36 of the 64 threads"),
            std::string::npos)
      << errors;
}

/// Shared memory written by one thread and read by another with no
/// barrier between is a race.
TEST_F(SimtTest, SharedMemoryRace) {
  std::string source = R"mlir(
dkernel.func @k(%y: memref<64xf32>) outputs [0] grid [1, 1, 1] block [64, 1, 1] smem 256 {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %buf = dkernel.alloc_shared offset 0 : memref<64xf32, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x
  %ti = arith.index_cast %t : index to i32
  %v = arith.sitofp %ti : i32 to f32
  memref.store %v, %buf[%t] : memref<64xf32, #gpu.address_space<workgroup>>
  @SYNC@
  %n0 = arith.addi %t, %c1 : index
  %n = arith.remui %n0, %c64 : index
  %w = memref.load %buf[%n] : memref<64xf32, #gpu.address_space<workgroup>>
  memref.store %w, %y[%t] : memref<64xf32>
  dkernel.return
}
func.func @f() -> memref<64xf32> {
  %y = memref.alloc() : memref<64xf32>
  dkernel.launch @k(%y) : memref<64xf32>
  return %y : memref<64xf32>
}
)mlir";
  auto good = run(substitute(source, {{"@SYNC@", "gpu.barrier"}}), "f");
  ASSERT_TRUE(succeeded(good)) << errors;
  for (int t = 0; t < 64; ++t)
    EXPECT_EQ((*good)[0].data[t], (t + 1) % 64);
  EXPECT_TRUE(failed(run(substitute(source, {{"@SYNC@", ""}}), "f")));
  EXPECT_NE(errors.find("'memref.load' op reads shared memory (pool byte 4) "
                        "that thread 1 wrote with no barrier between in "
                        "thread 0 of block (0, 0, 0)"),
            std::string::npos)
      << errors;
}

/// Out-of-bounds accesses name the op, the index, the size and the thread.
TEST_F(SimtTest, OutOfBounds) {
  std::string source = R"mlir(
dkernel.func @k(%x: memref<400xf32>, %y: memref<512xf32>) outputs [1] grid [4, 1, 1] block [128, 1, 1] smem 0 {
  %c101 = arith.constant 101 : index
  %b = gpu.block_id x
  %t = gpu.thread_id x
  %base = arith.muli %b, %c101 : index
  %i = arith.addi %base, %t : index
  %v = memref.load %x[%i] : memref<400xf32>
  memref.store %v, %y[%i] : memref<512xf32>
  dkernel.return
}
func.func @f(%x: memref<400xf32>) -> memref<512xf32> {
  %y = memref.alloc() : memref<512xf32>
  dkernel.launch @k(%x, %y) : memref<400xf32>, memref<512xf32>
  return %y : memref<512xf32>
}
)mlir";
  Buffer x = buffer({400}, f32(), [](int64_t e) { return e; });
  EXPECT_TRUE(failed(run(source, "f", {x})));
  EXPECT_NE(errors.find("'memref.load' op accesses index 400 of dimension 0 "
                        "of size 400 in thread 97 of block (3, 0, 0)"),
            std::string::npos)
      << errors;
}

/// The blocks of a launch that cannot see each other run on several CPU
/// threads: the results are those of one thread, and of several failing
/// blocks the first in grid order is reported, as one thread reports it.
TEST_F(SimtTest, BlocksOnSeveralCpuThreads) {
  std::string source = R"mlir(
dkernel.func @k(%x: memref<LENxf32>, %y: memref<2048xf32>) outputs [1] grid [16, 2, 1] block [64, 1, 1] smem 256 {
  %c64 = arith.constant 64 : index
  %c1024 = arith.constant 1024 : index
  %c3 = arith.constant 3.0 : f32
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %t = gpu.thread_id x
  %s = dkernel.alloc_shared offset 0 : memref<64xf32, #gpu.address_space<workgroup>>
  %row = arith.muli %by, %c1024 : index
  %col = arith.muli %bx, %c64 : index
  %base = arith.addi %row, %col : index
  %i = arith.addi %base, %t : index
  %v = memref.load %x[%i] : memref<LENxf32>
  memref.store %v, %s[%t] : memref<64xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %c63 = arith.constant 63 : index
  %j = arith.subi %c63, %t : index
  %w = memref.load %s[%j] : memref<64xf32, #gpu.address_space<workgroup>>
  %r = arith.mulf %w, %c3 : f32
  memref.store %r, %y[%i] : memref<2048xf32>
  dkernel.return
}
func.func @f(%x: memref<LENxf32>) -> memref<2048xf32> {
  %y = memref.alloc() : memref<2048xf32>
  dkernel.launch @k(%x, %y) : memref<LENxf32>, memref<2048xf32>
  return %y : memref<2048xf32>
}
)mlir";
  struct Restore {
    unsigned threads = interp::getCpuThreads();
    ~Restore() { interp::setCpuThreads(threads); }
  } restore;
  // Every block reverses its 64 elements through shared memory.
  std::string fits = substitute(source, {{"LEN", "2048"}});
  Buffer x = buffer({2048}, f32(), [](int64_t e) { return e * 0.5; });
  for (unsigned threads : {1u, 4u}) {
    interp::setCpuThreads(threads);
    auto results = run(fits, "f", {x});
    ASSERT_TRUE(succeeded(results)) << errors;
    for (int64_t e = 0; e < 2048; ++e) {
      int64_t mirrored = e - e % 64 + (63 - e % 64);
      ASSERT_EQ((*results)[0].data[e], mirrored * 0.5 * 3) << "element " << e;
    }
  }
  // 1100 elements: blocks 1100 / 64 = 17 (block (1, 1, 0)) and later read
  // past the end; thread 12 of block 17 is the first out of bounds.
  std::string tooShort = substitute(source, {{"LEN", "1100"}});
  Buffer shortX = buffer({1100}, f32(), [](int64_t e) { return e; });
  for (unsigned threads : {1u, 4u}) {
    interp::setCpuThreads(threads);
    EXPECT_TRUE(failed(run(tooShort, "f", {shortX})));
    EXPECT_EQ(std::count(errors.begin(), errors.end(), '\n'), 1) << errors;
    EXPECT_NE(errors.find("'memref.load' op accesses index 1100 of dimension "
                          "0 of size 1100 in thread 12 of block (1, 1, 0)"),
              std::string::npos)
        << threads << " CPU threads: " << errors;
  }
}

//===----------------------------------------------------------------------===//
// Tensor cores: ldmatrix and mma.sync m16n8k16
//===----------------------------------------------------------------------===//

namespace {

/// One warp: A (16 x 16) and B (16 x 8, k x n) staged in shared memory,
/// loaded with ldmatrix (B transposed), D = A B + C by one mma.sync, each
/// lane storing its accumulators where the PTX ISA places them.
const char *const mmaKernel = R"mlir(
dkernel.func @mma(%a: memref<16x16xELT>, %b: memref<16x8xELT>, %c: memref<16x8xf32>, %d: memref<16x8xf32>) outputs [3] grid [1, 1, 1] block [32, 1, 1] smem 768 {
  %sa = dkernel.alloc_shared offset 0 : memref<16x16xELT, #gpu.address_space<workgroup>>
  %sb = dkernel.alloc_shared offset 512 : memref<16x8xELT, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %t = gpu.thread_id x
  // Thread t copies rows t / 2 of A (8 elements) and t / 2 of B (4).
  %c32 = arith.constant 32 : index
  %copies = arith.cmpi ult, %t, %c32 : index
  %row = arith.divui %t, %c2 : index
  %half = arith.remui %t, %c2 : index
  %acol = arith.muli %half, %c8 : index
  %bcol = arith.muli %half, %c4 : index
  scf.if %copies {
    scf.for %i = %c0 to %c8 step %c1 {
      %j = arith.addi %acol, %i : index
      %v = memref.load %a[%row, %j] : memref<16x16xELT>
      memref.store %v, %sa[%row, %j] : memref<16x16xELT, #gpu.address_space<workgroup>>
    }
    scf.for %i = %c0 to %c4 step %c1 {
      %j = arith.addi %bcol, %i : index
      %v = memref.load %b[%row, %j] : memref<16x8xELT>
      memref.store %v, %sb[%row, %j] : memref<16x8xELT, #gpu.address_space<workgroup>>
    }
  }
  gpu.barrier
  // A: lanes 8m..8m+7 name the rows of matrix m = A[8 (m % 2):, 8 (m / 2):].
  %lane = arith.remui %t, %c16 : index
  %m = arith.divui %t, %c8 : index
  %r = arith.remui %t, %c8 : index
  %mlo = arith.remui %m, %c2 : index
  %mhi = arith.divui %m, %c2 : index
  %arow0 = arith.muli %mlo, %c8 : index
  %arow = arith.addi %arow0, %r : index
  %acol0 = arith.muli %mhi, %c8 : index
  %a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7 = dkernel.ldmatrix %sa[%arow, %acol0] : memref<16x16xELT, #gpu.address_space<workgroup>> -> ELT, ELT, ELT, ELT, ELT, ELT, ELT, ELT
  // B (k x n, row-major): two matrices, rows k of 0-7 and 8-15, transposed.
  %b0, %b1, %b2, %b3 = dkernel.ldmatrix trans %sb[%lane, %c0] : memref<16x8xELT, #gpu.address_space<workgroup>> -> ELT, ELT, ELT, ELT
  // C and D: c[i] is C[g + 8 (i / 2)][2 t + i % 2].
  %g = arith.divui %t, %c4 : index
  %q = arith.remui %t, %c4 : index
  %g8 = arith.addi %g, %c8 : index
  %col = arith.muli %q, %c2 : index
  %col1 = arith.addi %col, %c1 : index
  %x0 = memref.load %c[%g, %col] : memref<16x8xf32>
  %x1 = memref.load %c[%g, %col1] : memref<16x8xf32>
  %x2 = memref.load %c[%g8, %col] : memref<16x8xf32>
  %x3 = memref.load %c[%g8, %col1] : memref<16x8xf32>
  %d0, %d1, %d2, %d3 = dkernel.mma_sync [%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7], [%b0, %b1, %b2, %b3], [%x0, %x1, %x2, %x3] : ELT
  memref.store %d0, %d[%g, %col] : memref<16x8xf32>
  memref.store %d1, %d[%g, %col1] : memref<16x8xf32>
  memref.store %d2, %d[%g8, %col] : memref<16x8xf32>
  memref.store %d3, %d[%g8, %col1] : memref<16x8xf32>
  dkernel.return
}
)mlir";

const char *const mmaHost = R"mlir(
func.func @f(%a: memref<16x16xELT>, %b: memref<16x8xELT>, %c: memref<16x8xf32>) -> memref<16x8xf32> {
  %d = memref.alloc() : memref<16x8xf32>
  dkernel.launch @mma(%a, %b, %c, %d) : memref<16x16xELT>, memref<16x8xELT>, memref<16x8xf32>, memref<16x8xf32>
  return %d : memref<16x8xf32>
}
)mlir";

} // namespace

/// The fragments of ldmatrix and mma.sync, in f16 and bf16, against a
/// scalar matmul: every element of A, B and C is distinct, so a lane or
/// register out of place changes the result.
TEST_F(SimtTest, MmaSyncMatchesScalarMatmul) {
  for (const char *elt : {"f16", "bf16"}) {
    std::string source =
        substitute(std::string(mmaKernel) + mmaHost, {{"ELT", elt}});
    Type type = std::string(elt) == "f16" ? Type(Float16Type::get(&context))
                                          : Type(BFloat16Type::get(&context));
    Buffer a = buffer({16, 16}, type,
                      [](int64_t e) { return std::sin(0.7 * e + 0.1) * 2; });
    Buffer b = buffer({16, 8}, type,
                      [](int64_t e) { return std::cos(1.3 * e) * 1.5; });
    Buffer c = buffer({16, 8}, f32(), [](int64_t e) { return e * 0.25 - 3; });
    auto results = run(source, "f", {a, b, c});
    ASSERT_TRUE(succeeded(results)) << elt << ": " << errors;
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 8; ++j) {
        double want = c.data[i * 8 + j];
        for (int k = 0; k < 16; ++k)
          want += a.data[i * 16 + k] * b.data[k * 8 + j];
        EXPECT_FLOAT_EQ((*results)[0].data[i * 8 + j], want)
            << elt << " D[" << i << "][" << j << "]";
      }
  }
}

/// ldmatrix rows are 16-byte aligned, and both ops need a whole warp.
TEST_F(SimtTest, MmaSyncMisuse) {
  std::string source =
      substitute(std::string(mmaKernel) + mmaHost,
                 {{"ELT", "f16"}, {"%sb[%lane, %c0]", "%sb[%lane, %c1]"}});
  Buffer a =
      buffer({16, 16}, Float16Type::get(&context), [](int64_t e) { return e; });
  Buffer b =
      buffer({16, 8}, Float16Type::get(&context), [](int64_t e) { return e; });
  Buffer c = buffer({16, 8}, f32(), [](int64_t e) { return e; });
  EXPECT_TRUE(failed(run(source, "f", {a, b, c})));
  EXPECT_NE(errors.find("'dkernel.ldmatrix' op names a row at element 1, "
                        "which is not 16-byte aligned in thread 0"),
            std::string::npos)
      << errors;

  source =
      substitute(std::string(mmaKernel) + mmaHost,
                 {{"ELT", "f16"}, {"block [32, 1, 1]", "block [48, 1, 1]"}});
  EXPECT_TRUE(failed(run(source, "f", {a, b, c})));
  EXPECT_NE(errors.find("runs in a block of 48 threads; it needs whole warps"),
            std::string::npos)
      << errors;
}

//===----------------------------------------------------------------------===//
// Speed
//===----------------------------------------------------------------------===//

/// A 256 x 256 x 256 matmul in Tile IR (sync stages, 16 x 16 threads per
/// block): reports multiply-adds per second, and checks a few elements.
TEST_F(SimtTest, MatmulTileSpeed) {
  std::string source = R"mlir(
func.func @f(%arg0: memref<256x256xf32>, %arg1: memref<256x256xf32>) -> memref<256x256xf32> {
  %out = memref.alloc() : memref<256x256xf32>
  dtile.kernel @matmul ins(%a = %arg0 : memref<256x256xf32>, %b = %arg1 : memref<256x256xf32>) outs(%c = %out : memref<256x256xf32>) {
    %zero = arith.constant 0.0 : f32
    dtile.tile blocks(%mo : 16 "m_o", %no : 16 "n_o") threads(%mi : 16 "m_i", %ni : 16 "n_i") {
      %sum = dloop.for %ko = 0 to 8 reduce "k_o" iter(%acc = %zero : f32) {
        %as = dtile.stage %a[%mo * 16, %ko * 32] box [16, 32] : memref<256x256xf32> -> memref<16x32xf32, #gpu.address_space<workgroup>>
        %bs = dtile.stage %b[%ko * 32, %no * 16] box [32, 16] : memref<256x256xf32> -> memref<32x16xf32, #gpu.address_space<workgroup>>
        %part = dloop.for %ki = 0 to 32 reduce "k_i" iter(%acc2 = %acc : f32) unroll 4 {
          %av = dloop.load %as[%mi, %ki] : memref<16x32xf32, #gpu.address_space<workgroup>>
          %bv = dloop.load %bs[%ki, %ni] : memref<32x16xf32, #gpu.address_space<workgroup>>
          %prod = arith.mulf %av, %bv : f32
          %next = arith.addf %acc2, %prod : f32
          dloop.yield %next : f32
        }
        dloop.yield %part : f32
      }
      dloop.store %sum, %c[%mo * 16 + %mi, %no * 16 + %ni] : memref<256x256xf32>
    }
  }
  return %out : memref<256x256xf32>
}
)mlir";
  Buffer a = buffer({256, 256}, f32(),
                    [](int64_t e) { return aAt(e / 256, e % 256); });
  Buffer b = buffer({256, 256}, f32(),
                    [](int64_t e) { return bAt(e / 256, e % 256); });
  auto start = std::chrono::steady_clock::now();
  std::clock_t cpuStart = std::clock();
  auto results = run(source, "f", {a, b});
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  double cpu = static_cast<double>(std::clock() - cpuStart) / CLOCKS_PER_SEC;
  ASSERT_TRUE(succeeded(results)) << errors;
  for (int64_t i : {0, 17, 255})
    for (int64_t j : {0, 100, 255}) {
      double want = 0;
      for (int64_t k = 0; k < 256; ++k)
        want += aAt(i, k) * bAt(k, j);
      EXPECT_EQ((*results)[0].data[i * 256 + j], want);
    }
  std::printf("[ speed    ] 256^3 Tile matmul: %.3f s wall, %.3f s CPU, "
              "%.1f M multiply-adds per CPU second\n",
              seconds, cpu, 256.0 * 256 * 256 / cpu / 1e6);
}

} // namespace
