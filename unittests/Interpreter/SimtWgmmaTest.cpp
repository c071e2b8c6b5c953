//===- SimtWgmmaTest.cpp - The SIMT interpreter's wgmma semantics ---------===//
//
// One warpgroup stages A (64 x K) and B (N x K, K-major) in shared memory in
// the layout a descriptor of each swizzle mode names (the 16-byte chunks
// XORed as a TMA box with that swizzle writes them), multiplies them with a
// chain of wgmma_mma_async ops, one per 32 bytes of K (16 halves or 32
// 8-bit floats), and stores its accumulators where the PTX ISA's layout puts
// them: the result must be the scalar matmul.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/InitAllDialects.h"
#include "Deplodock/Interpreter/Interpreter.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include "gtest/gtest.h"

#include <cmath>
#include <set>

using namespace mlir;
using namespace deplodock;
using interp::Buffer;

namespace {

/// What one generated kernel exercises.
struct Case {
  int64_t swizzle;
  int64_t n;
  const char *element;
  /// Accumulate into C from global memory, or start from zero (scale-d 0).
  bool withC;
  /// B's element where it differs from A's (8-bit floats may mix).
  const char *elementB = nullptr;
};

const char *getElementB(const Case &c) {
  return c.elementB ? c.elementB : c.element;
}
/// Bytes of an element: 1 for the 8-bit floats, else 2.
int64_t getBytes(const Case &c) {
  return llvm::StringRef(c.element).starts_with("f8") ? 1 : 2;
}
/// K of one wgmma: 32 bytes of elements.
int64_t getInstrK(const Case &c) { return 32 / getBytes(c); }
/// K: one swizzle row (S bytes), or two wgmma steps without swizzle.
int64_t getK(const Case &c) {
  return c.swizzle ? c.swizzle / getBytes(c) : 2 * getInstrK(c);
}
/// The byte offset between 8-row groups, and (no swizzle) between core
/// matrices along K.
int64_t getSbo(const Case &c) {
  return c.swizzle ? 8 * c.swizzle : 8 * getK(c) * getBytes(c);
}
constexpr int64_t kLbo = 128;

/// Kernel IR text builder: fresh SSA names and index constants.
class Builder {
public:
  std::string name() { return "%v" + std::to_string(next++); }
  std::string cst(int64_t value) {
    std::string n = "%c" + std::to_string(value);
    if (consts.insert(value).second)
      header += "  " + n + " = arith.constant " + std::to_string(value) +
                " : index\n";
    return n;
  }
  std::string op(const char *opName, const std::string &a,
                 const std::string &b) {
    std::string n = name();
    body +=
        llvm::formatv("  {0} = arith.{1} {2}, {3} : index\n", n, opName, a, b)
            .str();
    return n;
  }

  /// The element of row `r`, column `k` in the shared buffer of `c`'s
  /// layout (core-matrix rows of 16 bytes, `row` elements each).
  std::string sharedElement(const Case &c, const std::string &r,
                            const std::string &k) {
    int64_t bytes = getBytes(c), row = 16 / bytes;
    if (c.swizzle == 0) {
      std::string lin = op("muli", op("divui", r, cst(8)), cst(getSbo(c)));
      lin = op("addi", lin, op("muli", op("divui", k, cst(row)), cst(kLbo)));
      lin = op("addi", lin, op("muli", op("remui", r, cst(8)), cst(16)));
      lin = op("addi", lin, op("muli", op("remui", k, cst(row)), cst(bytes)));
      return op("divui", lin, cst(bytes));
    }
    std::string lin =
        op("addi", op("muli", r, cst(c.swizzle)), op("muli", k, cst(bytes)));
    std::string bits =
        op("andi", op("shrui", lin, cst(7)), cst(c.swizzle / 16 - 1));
    return op("divui", op("xori", lin, op("shli", bits, cst(4))), cst(bytes));
  }

  std::string header, body;

private:
  unsigned next = 0;
  std::set<int64_t> consts;
};

/// The kernel and its host function for `c`.
std::string makeKernel(const Case &c) {
  int64_t k = getK(c), n = c.n, aBytes = 64 * k * getBytes(c),
          bBytes = n * k * getBytes(c);
  std::string elt = c.element, eltB = getElementB(c);
  std::string sa = llvm::formatv("memref<{0}x{1}, #gpu.address_space<"
                                 "workgroup>>",
                                 64 * k, elt);
  std::string sb = llvm::formatv("memref<{0}x{1}, #gpu.address_space<"
                                 "workgroup>>",
                                 n * k, eltB);
  Builder b;
  std::string t = b.name();
  b.body += "  " + t + " = gpu.thread_id x\n";
  // Each thread copies every 128th element of A and B into place.
  for (auto [global, shared, rows, type] :
       {std::tuple<std::string, std::string, int64_t, std::string>{"%a", "%sa",
                                                                   64, elt},
        {"%bt", "%sb", n, eltB}}) {
    std::string i = b.name();
    b.body += llvm::formatv("  scf.for {0} = {1} to {2} step {3} {{\n", i, t,
                            b.cst(rows * k), b.cst(128))
                  .str();
    std::string r = b.op("divui", i, b.cst(k)),
                col = b.op("remui", i, b.cst(k));
    std::string v = b.name();
    b.body += llvm::formatv("  {0} = memref.load {1}[{2}, {3}] : "
                            "memref<{4}x{5}x{6}>\n",
                            v, global, r, col, rows, k, type)
                  .str();
    std::string e = b.sharedElement(c, r, col);
    b.body += llvm::formatv("  memref.store {0}, {1}[{2}] : {3}\n  }\n", v,
                            shared, e, shared == "%sa" ? sa : sb)
                  .str();
  }
  b.body += "  gpu.barrier\n  dkernel.fence_proxy_async\n"
            "  dkernel.wgmma_fence\n";
  // Thread t holds D[16 w + g + 8 (i / 2)][8 j + 2 q + i % 2] in
  // accumulator 4 j + i.
  std::string lane = b.op("remui", t, b.cst(32));
  std::string rowBase =
      b.op("addi", b.op("muli", b.op("divui", t, b.cst(32)), b.cst(16)),
           b.op("divui", lane, b.cst(4)));
  std::string colBase = b.op("muli", b.op("remui", lane, b.cst(4)), b.cst(2));
  std::vector<std::pair<std::string, std::string>> where;
  for (int64_t x = 0; x < n / 2; ++x) {
    int64_t j = x / 4, i = x % 4;
    where.emplace_back(b.op("addi", rowBase, b.cst(8 * (i / 2))),
                       b.op("addi", colBase, b.cst(8 * j + i % 2)));
  }
  std::vector<std::string> acc;
  if (c.withC)
    for (auto &[row, col] : where) {
      acc.push_back(b.name());
      b.body += llvm::formatv("  {0} = memref.load %c[{1}, {2}] : "
                              "memref<64x{3}xf32>\n",
                              acc.back(), row, col, n)
                    .str();
    }
  // One wgmma per 32 bytes of K: the descriptors step 32 bytes along a
  // swizzled row, or two core matrices (2 LBO) without swizzle.
  int64_t stepBytes = c.swizzle ? 32 : 2 * kLbo;
  std::string types = elt == eltB ? elt : elt + ", " + eltB;
  for (int64_t s = 0; s < k / getInstrK(c); ++s) {
    std::string da = b.name(), db = b.name();
    for (auto [d, buf, type] :
         {std::tuple<std::string, std::string, std::string>{da, "%sa", sa},
          {db, "%sb", sb}})
      b.body += llvm::formatv("  {0} = dkernel.wgmma_desc {1}[{2}] swizzle {3} "
                              "lbo {4} sbo {5} : {6}\n",
                              d, buf, b.cst(s * stepBytes / getBytes(c)),
                              c.swizzle, c.swizzle ? 0 : kLbo, getSbo(c), type)
                    .str();
    std::string d = b.name();
    b.body += llvm::formatv("  {0}:{1} = dkernel.wgmma_mma_async {2}, {3}, "
                            "[{4}] n {5} : {6}\n",
                            d, n / 2, da, db, llvm::join(acc, ", "), n, types)
                  .str();
    acc.clear();
    for (int64_t x = 0; x < n / 2; ++x)
      acc.push_back(d + "#" + std::to_string(x));
  }
  b.body += "  dkernel.wgmma_commit_group\n";
  std::string r = b.name();
  b.body += llvm::formatv("  {0}:{1} = dkernel.wgmma_wait_group 0 [{2}]\n", r,
                          n / 2, llvm::join(acc, ", "))
                .str();
  for (auto [x, rc] : llvm::enumerate(where))
    b.body += llvm::formatv("  memref.store {0}#{1}, %d[{2}, {3}] : "
                            "memref<64x{4}xf32>\n",
                            r, x, rc.first, rc.second, n)
                  .str();

  std::string params = llvm::formatv("memref<64x{0}x{2}>, memref<{1}x{0}x{3}>, "
                                     "memref<64x{1}xf32>, memref<64x{1}xf32>",
                                     k, n, elt, eltB);
  return llvm::formatv(
             R"mlir(module attributes {{dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {{
dkernel.func @wgmma(%a: memref<64x{0}x{1}>, %bt: memref<{2}x{0}x{10}>, %c: memref<64x{2}xf32>, %d: memref<64x{2}xf32>) outputs [3] grid [1, 1, 1] block [128, 1, 1] smem {3} {{
  %sa = dkernel.alloc_shared offset 0 : {4}
  %sb = dkernel.alloc_shared offset {5} : {6}
{7}{8}  dkernel.return
}
func.func @f(%a: memref<64x{0}x{1}>, %bt: memref<{2}x{0}x{10}>, %c: memref<64x{2}xf32>) -> memref<64x{2}xf32> {{
  %d = memref.alloc() : memref<64x{2}xf32>
  dkernel.launch @wgmma(%a, %bt, %c, %d) : {9}
  return %d : memref<64x{2}xf32>
}
}
)mlir",
             k, elt, n, aBytes + bBytes, sa, aBytes, sb, b.header, b.body,
             params, eltB)
      .str();
}

class SimtWgmmaTest : public ::testing::Test {
protected:
  SimtWgmmaTest() { loadDeplodockDialects(context); }

  /// Runs `source`'s @f on `inputs`; error diagnostics go to `errors`.
  FailureOr<SmallVector<Buffer>> run(const std::string &source,
                                     ArrayRef<Buffer> inputs) {
    errors.clear();
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error)
        errors += diag.str() + "\n";
      return success();
    });
    module = parseSourceString<ModuleOp>(source, &context);
    if (!module)
      return failure();
    return interp::runFunction(module->lookupSymbol<func::FuncOp>("f"), inputs);
  }

  /// A buffer of `shape` and `type` with element i = f(i), rounded.
  static Buffer buffer(ArrayRef<int64_t> shape, Type type,
                       double (*f)(int64_t)) {
    Buffer b(shape, type);
    for (int64_t i = 0; i < b.size(); ++i)
      b.data[i] = interp::roundTo(type, f(i));
    return b;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::string errors;
};

} // namespace

/// Every swizzle mode, a few N, f16, bf16 and the 8-bit floats (e4m3 by
/// e4m3, e5m2 by e4m3), with and without C: the accumulators equal the
/// scalar matmul (the elements vary along rows and columns, so a misplaced
/// element or accumulator changes the result).
TEST_F(SimtWgmmaTest, WgmmaMatchesScalarMatmul) {
  Type f32 = Float32Type::get(&context);
  auto typeOf = [&](StringRef name) { return parseType(name, &context); };
  for (int64_t swizzle : {0, 32, 64, 128})
    for (int64_t n : {8, 24, 64, 256})
      for (auto [element, elementB] :
           {std::pair<const char *, const char *>{"f16", nullptr},
            {"bf16", nullptr},
            {"f8E4M3FN", nullptr},
            {"f8E5M2", "f8E4M3FN"}}) {
        Case c{swizzle, n, element, n != 24, elementB};
        std::string label = llvm::formatv("swizzle {0}, n {1}, {2} x {3}",
                                          swizzle, n, element, getElementB(c));
        int64_t k = getK(c), instrK = getInstrK(c);
        Buffer a = buffer({64, k}, typeOf(element), [](int64_t e) {
          return std::sin(0.7 * e + 0.1) * 2;
        });
        Buffer b = buffer({n, k}, typeOf(getElementB(c)),
                          [](int64_t e) { return std::cos(1.3 * e) * 1.5; });
        Buffer acc =
            buffer({64, n}, f32, [](int64_t e) { return e * 0.25 - 3; });
        FailureOr<SmallVector<Buffer>> results =
            run(makeKernel(c), {a, b, acc});
        ASSERT_TRUE(succeeded(results)) << label << ": " << errors;
        for (int64_t i = 0; i < 64; ++i)
          for (int64_t j = 0; j < n; ++j) {
            double want = c.withC ? double(acc.data[i * n + j]) : 0.0;
            // Each wgmma sums its exact products and rounds once.
            for (int64_t s = 0; s < k; s += instrK) {
              double sum = want;
              for (int64_t x = s; x < s + instrK; ++x)
                sum += a.data[i * k + x] * b.data[j * k + x];
              want = interp::roundTo(f32, sum);
            }
            ASSERT_EQ((*results)[0].data[i * n + j], want)
                << label << ": D[" << i << "][" << j << "]";
          }
      }
}

/// The asynchronous rules: a fence before the first wgmma, accumulators
/// read only once their group is committed and complete, and whole
/// warpgroups.
TEST_F(SimtWgmmaTest, WgmmaMisuse) {
  Case c{128, 8, "bf16", true};
  Type bf16 = BFloat16Type::get(&context), f32 = Float32Type::get(&context);
  Buffer a = buffer({64, 64}, bf16, [](int64_t e) { return e * 0.5; });
  Buffer b = buffer({8, 64}, bf16, [](int64_t e) { return e * 0.25; });
  Buffer acc = buffer({64, 8}, f32, [](int64_t e) { return e * 1.0; });
  std::string good = makeKernel(c);
  ASSERT_TRUE(succeeded(run(good, {a, b, acc}))) << errors;

  auto expectError = [&](const std::string &from, const std::string &to,
                         const std::string &message) {
    std::string source = good;
    size_t at = source.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    source.replace(at, from.size(), to);
    EXPECT_TRUE(failed(run(source, {a, b, acc}))) << message;
    EXPECT_NE(errors.find(message), std::string::npos) << errors;
  };
  expectError("  dkernel.wgmma_fence\n", "",
              "'dkernel.wgmma_mma_async' op issued with no wgmma_fence since "
              "the last wgmma_wait_group in thread 0");
  expectError("  dkernel.wgmma_commit_group\n", "",
              "'dkernel.wgmma_wait_group' op reads accumulator #0 of a "
              "wgmma_mma_async that no wgmma_commit_group has committed");
  expectError("dkernel.wgmma_wait_group 0", "dkernel.wgmma_wait_group 1",
              "'dkernel.wgmma_wait_group' op reads accumulator #0 of a wgmma "
              "group still in flight (wait_group 1 leaves 1 pending)");
  // The verifier already refuses a block of partial warpgroups.
  expectError("block [128, 1, 1]", "block [192, 1, 1]",
              "runs in blocks of whole 128-thread warpgroups; the kernel's "
              "block has 192 threads");
}

/// The operands as a TMA copy with a 128-byte swizzle lands them: A (64 x
/// 64) and B (N x 64, K-major) one box each, read by four wgmma k-steps
/// whose descriptors advance 32 bytes along the swizzled rows.
TEST_F(SimtWgmmaTest, WgmmaReadsTmaSwizzledBoxes) {
  std::string source = R"mlir(
module attributes {dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {
dkernel.func @k(%a: memref<64x64xbf16>, %da: !dkernel.tma_descriptor<64x64xbf16, swizzle = 128>, %bt: memref<16x64xbf16>, %db: !dkernel.tma_descriptor<16x64xbf16, swizzle = 128>, %d: memref<64x16xf32>) outputs [4] grid [1, 1, 1] block [128, 1, 1] smem 10248 {
  dkernel.tma_descriptor %da describes %a : !dkernel.tma_descriptor<64x64xbf16, swizzle = 128>, memref<64x64xbf16>
  dkernel.tma_descriptor %db describes %bt : !dkernel.tma_descriptor<16x64xbf16, swizzle = 128>, memref<16x64xbf16>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c48 = arith.constant 48 : index
  %sa = dkernel.alloc_shared offset 0 : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %sb = dkernel.alloc_shared offset 8192 : memref<16x64xbf16, #gpu.address_space<workgroup>>
  %mb = dkernel.alloc_shared offset 10240 : memref<1xi64, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x
  %leader = arith.cmpi eq, %t, %c0 : index
  scf.if %leader {
    dkernel.mbarrier_init %mb[%c0], 1 : memref<1xi64, #gpu.address_space<workgroup>>
  }
  gpu.barrier
  scf.if %leader {
    dkernel.mbarrier_arrive_expect_tx %mb[%c0], 10240 : memref<1xi64, #gpu.address_space<workgroup>>
    dkernel.tma_load %da[%c0, %c0] -> %sa, %mb[%c0] : !dkernel.tma_descriptor<64x64xbf16, swizzle = 128>, memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<1xi64, #gpu.address_space<workgroup>>
    dkernel.tma_load %db[%c0, %c0] -> %sb, %mb[%c0] : !dkernel.tma_descriptor<16x64xbf16, swizzle = 128>, memref<16x64xbf16, #gpu.address_space<workgroup>>, memref<1xi64, #gpu.address_space<workgroup>>
  }
  dkernel.mbarrier_wait %mb[%c0], %c0 : memref<1xi64, #gpu.address_space<workgroup>>
  dkernel.wgmma_fence
  %a0 = dkernel.wgmma_desc %sa[%c0, %c0] swizzle 128 lbo 0 sbo 1024 : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %b0 = dkernel.wgmma_desc %sb[%c0, %c0] swizzle 128 lbo 0 sbo 1024 : memref<16x64xbf16, #gpu.address_space<workgroup>>
  %m0:8 = dkernel.wgmma_mma_async %a0, %b0, [] n 16 : bf16
  %a1 = dkernel.wgmma_desc %sa[%c0, %c16] swizzle 128 lbo 0 sbo 1024 : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %b1 = dkernel.wgmma_desc %sb[%c0, %c16] swizzle 128 lbo 0 sbo 1024 : memref<16x64xbf16, #gpu.address_space<workgroup>>
  %m1:8 = dkernel.wgmma_mma_async %a1, %b1, [%m0#0, %m0#1, %m0#2, %m0#3, %m0#4, %m0#5, %m0#6, %m0#7] n 16 : bf16
  %a2 = dkernel.wgmma_desc %sa[%c0, %c32] swizzle 128 lbo 0 sbo 1024 : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %b2 = dkernel.wgmma_desc %sb[%c0, %c32] swizzle 128 lbo 0 sbo 1024 : memref<16x64xbf16, #gpu.address_space<workgroup>>
  %m2:8 = dkernel.wgmma_mma_async %a2, %b2, [%m1#0, %m1#1, %m1#2, %m1#3, %m1#4, %m1#5, %m1#6, %m1#7] n 16 : bf16
  %a3 = dkernel.wgmma_desc %sa[%c0, %c48] swizzle 128 lbo 0 sbo 1024 : memref<64x64xbf16, #gpu.address_space<workgroup>>
  %b3 = dkernel.wgmma_desc %sb[%c0, %c48] swizzle 128 lbo 0 sbo 1024 : memref<16x64xbf16, #gpu.address_space<workgroup>>
  %m3:8 = dkernel.wgmma_mma_async %a3, %b3, [%m2#0, %m2#1, %m2#2, %m2#3, %m2#4, %m2#5, %m2#6, %m2#7] n 16 : bf16
  dkernel.wgmma_commit_group
  %r:8 = dkernel.wgmma_wait_group 0 [%m3#0, %m3#1, %m3#2, %m3#3, %m3#4, %m3#5, %m3#6, %m3#7]
  // Accumulator 4 j + i: D[16 w + g + 8 (i / 2)][8 j + 2 q + i % 2].
  %w = arith.divui %t, %c32 : index
  %lane = arith.remui %t, %c32 : index
  %g = arith.divui %lane, %c4 : index
  %q = arith.remui %lane, %c4 : index
  %w16 = arith.muli %w, %c16 : index
  %row0 = arith.addi %w16, %g : index
  %row1 = arith.addi %row0, %c8 : index
  %col0 = arith.muli %q, %c2 : index
  %col1 = arith.addi %col0, %c1 : index
  %col8 = arith.addi %col0, %c8 : index
  %col9 = arith.addi %col1, %c8 : index
  memref.store %r#0, %d[%row0, %col0] : memref<64x16xf32>
  memref.store %r#1, %d[%row0, %col1] : memref<64x16xf32>
  memref.store %r#2, %d[%row1, %col0] : memref<64x16xf32>
  memref.store %r#3, %d[%row1, %col1] : memref<64x16xf32>
  memref.store %r#4, %d[%row0, %col8] : memref<64x16xf32>
  memref.store %r#5, %d[%row0, %col9] : memref<64x16xf32>
  memref.store %r#6, %d[%row1, %col8] : memref<64x16xf32>
  memref.store %r#7, %d[%row1, %col9] : memref<64x16xf32>
  dkernel.return
}
func.func @f(%a: memref<64x64xbf16>, %bt: memref<16x64xbf16>) -> memref<64x16xf32> {
  %d = memref.alloc() : memref<64x16xf32>
  dkernel.launch @k(%a, %bt, %d) : memref<64x64xbf16>, memref<16x64xbf16>, memref<64x16xf32>
  return %d : memref<64x16xf32>
}
}
)mlir";
  Type bf16 = BFloat16Type::get(&context);
  Buffer a = buffer({64, 64}, bf16,
                    [](int64_t e) { return std::sin(0.7 * e + 0.1) * 2; });
  Buffer b =
      buffer({16, 64}, bf16, [](int64_t e) { return std::cos(1.3 * e) * 1.5; });
  FailureOr<SmallVector<Buffer>> results = run(source, {a, b});
  ASSERT_TRUE(succeeded(results)) << errors;
  for (int64_t i = 0; i < 64; ++i)
    for (int64_t j = 0; j < 16; ++j) {
      // Four chained wgmma: each sums 16 exact products and rounds once.
      double want = 0;
      for (int64_t s = 0; s < 64; s += 16) {
        double sum = want;
        for (int64_t x = s; x < s + 16; ++x)
          sum += a.data[i * 64 + x] * b.data[j * 64 + x];
        want = interp::roundTo(Float32Type::get(&context), sum);
      }
      ASSERT_EQ((*results)[0].data[i * 16 + j], want)
          << "D[" << i << "][" << j << "]";
    }
}

namespace {

/// A kernel multiplying A (64 x 64, held M x K, or K x M with `aMnMajor`)
/// by B held K x N (MN-major) as TMA copies land them: A one
/// 128-byte-swizzled box, B one box per `swizzle`-byte segment of N (64 K
/// rows each, `64 * swizzle` bytes apart). Four wgmma k-steps with major_b
/// mn read B through descriptors whose LBO is the segment stride and SBO 8
/// K rows; an MN-major A's descriptor starts at K row 16 s instead of
/// column 16 s.
std::string makeMnMajorKernel(const char *elt, int64_t n, int64_t swizzle,
                              bool aMnMajor) {
  int64_t width = swizzle / 2, segments = n / width, segBytes = 64 * swizzle;
  int64_t bBase = 8192, mbOffset = bBase + segments * segBytes;
  std::string sa = llvm::formatv("memref<64x64x{0}, #gpu.address_space<"
                                 "workgroup>>",
                                 elt);
  std::string seg = llvm::formatv("memref<64x{0}x{1}, #gpu.address_space<"
                                  "workgroup>>",
                                  width, elt);
  std::string flat = llvm::formatv("memref<{0}x{1}, #gpu.address_space<"
                                   "workgroup>>",
                                   64 * n, elt);
  std::string mb = "memref<1xi64, #gpu.address_space<workgroup>>";
  std::string descA =
      llvm::formatv("!dkernel.tma_descriptor<64x64x{0}, swizzle = 128>", elt);
  std::string descB =
      llvm::formatv("!dkernel.tma_descriptor<64x{0}x{1}, swizzle = {2}>", width,
                    elt, swizzle);
  Builder b;
  std::string body;
  body += llvm::formatv("  dkernel.tma_descriptor %da describes %a : {0}, "
                        "memref<64x64x{1}>\n",
                        descA, elt);
  body += llvm::formatv("  dkernel.tma_descriptor %db describes %b : {0}, "
                        "memref<64x{1}x{2}>\n",
                        descB, n, elt);
  body += llvm::formatv("  %sa = dkernel.alloc_shared offset 0 : {0}\n", sa);
  body += llvm::formatv("  %sb = dkernel.alloc_shared offset {0} : {1}\n",
                        bBase, flat);
  for (int64_t s = 0; s < segments; ++s)
    body += llvm::formatv("  %sb{0} = dkernel.alloc_shared offset {1} : {2}\n",
                          s, bBase + s * segBytes, seg);
  body += llvm::formatv("  %mb = dkernel.alloc_shared offset {0} : {1}\n",
                        mbOffset, mb);
  std::string c0 = b.cst(0);
  body += "  %t = gpu.thread_id x\n";
  body += "  %leader = arith.cmpi eq, %t, " + c0 + " : index\n";
  body += "  scf.if %leader {\n    dkernel.mbarrier_init %mb[" + c0 +
          "], 1 : " + mb + "\n  }\n  gpu.barrier\n";
  body += llvm::formatv("  scf.if %leader {{\n    "
                        "dkernel.mbarrier_arrive_expect_tx %mb[{0}], {1} : "
                        "{2}\n",
                        c0, mbOffset, mb);
  body += llvm::formatv("    dkernel.tma_load %da[{0}, {0}] -> %sa, %mb[{0}] "
                        ": {1}, {2}, {3}\n",
                        c0, descA, sa, mb);
  for (int64_t s = 0; s < segments; ++s)
    body += llvm::formatv("    dkernel.tma_load %db[{0}, {1}] -> %sb{2}, "
                          "%mb[{0}] : {3}, {4}, {5}\n",
                          c0, b.cst(s * width), s, descB, seg, mb);
  body += "  }\n";
  body += "  dkernel.mbarrier_wait %mb[" + c0 + "], " + c0 + " : " + mb + "\n";
  body += "  dkernel.wgmma_fence\n";
  std::vector<std::string> acc;
  for (int64_t s = 0; s < 4; ++s) {
    std::string da = b.name(), db = b.name(), d = b.name();
    std::string k = b.cst(16 * s);
    body += llvm::formatv("  {0} = dkernel.wgmma_desc %sa[{1}, {2}] swizzle "
                          "128 lbo {3} sbo 1024 : {4}\n",
                          da, aMnMajor ? k : c0, aMnMajor ? c0 : k,
                          aMnMajor ? 8192 : 16, sa);
    body += llvm::formatv("  {0} = dkernel.wgmma_desc %sb[{1}] swizzle {2} "
                          "lbo {3} sbo {4} : {5}\n",
                          db, b.cst(16 * s * width), swizzle, segBytes,
                          8 * swizzle, flat);
    body += llvm::formatv("  {0}:{1} = dkernel.wgmma_mma_async {2}, {3}, "
                          "[{4}] n {5}{6} major_b mn : {7}\n",
                          d, n / 2, da, db, llvm::join(acc, ", "), n,
                          aMnMajor ? " major_a mn" : "", elt);
    acc.clear();
    for (int64_t x = 0; x < n / 2; ++x)
      acc.push_back(d + "#" + std::to_string(x));
  }
  body += "  dkernel.wgmma_commit_group\n";
  std::string r = b.name();
  body += llvm::formatv("  {0}:{1} = dkernel.wgmma_wait_group 0 [{2}]\n", r,
                        n / 2, llvm::join(acc, ", "));
  // Accumulator 4 j + i: D[16 w + g + 8 (i / 2)][8 j + 2 q + i % 2].
  std::string lane = b.op("remui", "%t", b.cst(32));
  std::string rowBase =
      b.op("addi", b.op("muli", b.op("divui", "%t", b.cst(32)), b.cst(16)),
           b.op("divui", lane, b.cst(4)));
  std::string colBase = b.op("muli", b.op("remui", lane, b.cst(4)), b.cst(2));
  for (int64_t x = 0; x < n / 2; ++x) {
    int64_t j = x / 4, i = x % 4;
    std::string row = b.op("addi", rowBase, b.cst(8 * (i / 2)));
    std::string col = b.op("addi", colBase, b.cst(8 * j + i % 2));
    b.body += llvm::formatv("  memref.store {0}#{1}, %d[{2}, {3}] : "
                            "memref<64x{4}xf32>\n",
                            r, x, row, col, n)
                  .str();
  }
  return llvm::formatv(
             R"mlir(module attributes {{dkernel.target = #dkernel.target<"sm_90a", capability = 90, sm_count = 132, smem_per_block = 232448, smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800, features = [cp_async, mma_sync, tma, wgmma]>} {{
dkernel.func @k(%a: memref<64x64x{0}>, %da: {1}, %b: memref<64x{2}x{0}>, %db: {3}, %d: memref<64x{2}xf32>) outputs [4] grid [1, 1, 1] block [128, 1, 1] smem {4} {{
{5}{6}{7}  dkernel.return
}
func.func @f(%a: memref<64x64x{0}>, %b: memref<64x{2}x{0}>) -> memref<64x{2}xf32> {{
  %d = memref.alloc() : memref<64x{2}xf32>
  dkernel.launch @k(%a, %b, %d) : memref<64x64x{0}>, memref<64x{2}x{0}>, memref<64x{2}xf32>
  return %d : memref<64x{2}xf32>
}
}
)mlir",
             elt, descA, n, descB, mbOffset + 8, b.header, body, b.body)
      .str();
}

} // namespace

/// B held K x N, as TMA lands it in 128-byte (and, 32 wide, 64-byte)
/// swizzle segments, read MN-major (and A held K x M as well): the
/// accumulators equal the scalar matmul; N of 128 and 256 span two and four
/// atoms, so a wrong LBO reads another segment's columns.
TEST_F(SimtWgmmaTest, WgmmaReadsMnMajorTmaBoxes) {
  Type f32 = Float32Type::get(&context);
  for (auto [element, n, swizzle, aMnMajor] :
       {std::tuple<const char *, int64_t, int64_t, bool>{"bf16", 128, 128,
                                                         false},
        {"f16", 256, 128, false},
        {"f16", 32, 64, false},
        {"bf16", 64, 128, false},
        {"f16", 128, 128, true},
        {"bf16", 32, 64, true}}) {
    std::string label = llvm::formatv("{0}, n {1}, swizzle {2}, A {3}", element,
                                      n, swizzle, aMnMajor ? "K x M" : "M x K");
    Type type = std::string(element) == "f16"
                    ? Type(Float16Type::get(&context))
                    : Type(BFloat16Type::get(&context));
    Buffer a = buffer({64, 64}, type,
                      [](int64_t e) { return std::sin(0.7 * e + 0.1) * 2; });
    Buffer b = buffer({64, n}, type,
                      [](int64_t e) { return std::cos(1.3 * e) * 1.5; });
    FailureOr<SmallVector<Buffer>> results =
        run(makeMnMajorKernel(element, n, swizzle, aMnMajor), {a, b});
    ASSERT_TRUE(succeeded(results)) << label << ": " << errors;
    for (int64_t i = 0; i < 64; ++i)
      for (int64_t j = 0; j < n; ++j) {
        // Four chained wgmma: each sums 16 exact products and rounds once.
        double want = 0;
        for (int64_t s = 0; s < 64; s += 16) {
          double sum = want;
          for (int64_t x = s; x < s + 16; ++x)
            sum +=
                a.data[aMnMajor ? x * 64 + i : i * 64 + x] * b.data[x * n + j];
          want = interp::roundTo(f32, sum);
        }
        ASSERT_EQ((*results)[0].data[i * n + j], want)
            << label << ": D[" << i << "][" << j << "]";
      }
  }
}
