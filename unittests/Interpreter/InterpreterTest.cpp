//===- InterpreterTest.cpp - Tests of the reference interpreter -----------===//
//
// Calls the interpreter as a library, as deplodock-run and the tuner do: the
// rounding of values to their element types, affine index arithmetic, the
// comparison of results, seeded inputs, .npy files, and runFunction on small
// dtensor, dloop and scalar functions parsed from strings, with values
// computed by hand, and on every error it reports.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "Deplodock/Interpreter/BufferIO.h"
#include "Deplodock/Interpreter/Interpreter.h"
#include "Program.h"

#include "Deplodock/InitAllDialects.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::interp;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

class InterpreterTest : public ::testing::Test {
protected:
  InterpreterTest() : b(&context) { loadDeplodockDialects(context); }

  OwningOpRef<ModuleOp> parse(StringRef source) {
    return test::parseModule(context, source);
  }

  /// The first function of `module`.
  static func::FuncOp firstFunc(ModuleOp module) {
    auto funcs = module.getOps<func::FuncOp>();
    return funcs.empty() ? func::FuncOp() : *funcs.begin();
  }

  /// Runs the first function of `module` on `inputs`, collecting the first
  /// diagnostic in `message`.
  FailureOr<SmallVector<Buffer>> run(ModuleOp module, ArrayRef<Buffer> inputs) {
    message.clear();
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      if (message.empty())
        message = diag.str();
      return success();
    });
    return runFunction(firstFunc(module), inputs);
  }

  /// A buffer of `shape` and `type` holding `values`.
  static Buffer buffer(ArrayRef<int64_t> shape, Type type,
                       ArrayRef<double> values) {
    Buffer result(shape, type);
    EXPECT_EQ(static_cast<size_t>(result.size()), values.size());
    result.data.write(0, values.size(), values.data());
    return result;
  }

  /// Runs a module whose first function takes and returns scalars on
  /// `inputs`; returns the scalar results.
  SmallVector<double> runScalars(StringRef source, ArrayRef<Buffer> inputs) {
    OwningOpRef<ModuleOp> module = parse(source);
    if (!module)
      return {};
    FailureOr<SmallVector<Buffer>> results = run(*module, inputs);
    EXPECT_TRUE(succeeded(results)) << message;
    SmallVector<double> values;
    if (succeeded(results))
      for (const Buffer &r : *results) {
        EXPECT_TRUE(r.shape.empty());
        values.push_back(r.data[0]);
      }
    return values;
  }

  /// A 0-d buffer of `type` holding `v`.
  static Buffer scalar(Type type, double v) { return buffer({}, type, {v}); }

  MLIRContext context;
  Builder b;
  std::string message;
};

//===----------------------------------------------------------------------===//
// roundTo
//===----------------------------------------------------------------------===//

/// Floats round to nearest, ties to even, and overflow to infinity.
TEST_F(InterpreterTest, RoundsFloats) {
  Type f32 = b.getF32Type(), f16 = b.getF16Type(), bf16 = b.getBF16Type();
  EXPECT_EQ(roundTo(f32, 0.1), static_cast<double>(0.1f));
  EXPECT_NE(roundTo(f32, 0.1), 0.1);
  EXPECT_EQ(roundTo(f32, 1.0 + 0x1p-30), 1.0);
  EXPECT_EQ(roundTo(f32, 1e39), kInf);
  EXPECT_EQ(roundTo(f32, -1e39), -kInf);
  EXPECT_TRUE(std::isnan(roundTo(f32, kNaN)));
  EXPECT_EQ(roundTo(b.getF64Type(), 0.1), 0.1);

  EXPECT_EQ(roundTo(f16, 0.1), 0.0999755859375);
  EXPECT_EQ(roundTo(f16, 65504.0), 65504.0);
  EXPECT_EQ(roundTo(f16, 65520.0), kInf); // Halfway past the largest half.
  EXPECT_EQ(roundTo(f16, 0x1p-25), 0.0);  // Half the smallest subnormal.
  EXPECT_EQ(roundTo(f16, 0x1.8p-25), 0x1p-24);

  // bf16 keeps 8 significant bits: 1 + 2^-8 is a tie, rounded to even (1);
  // 1 + 3 * 2^-8 is a tie rounded up to 1 + 2^-6.
  EXPECT_EQ(roundTo(bf16, 1.0 + 0x1p-8), 1.0);
  EXPECT_EQ(roundTo(bf16, 1.0 + 3 * 0x1p-8), 1.0 + 0x1p-6);
  EXPECT_EQ(roundTo(bf16, 3.3895313892515355e38), 3.3895313892515355e38);
  EXPECT_EQ(roundTo(bf16, 3.4e38), kInf);
}

/// Integers truncate towards zero, wrap to their width and sign extend;
/// i1 is stored as 0 or 1.
TEST_F(InterpreterTest, RoundsIntegers) {
  Type i1 = b.getI1Type(), i8 = b.getIntegerType(8), i32 = b.getI32Type();
  Type i64 = b.getI64Type(), index = b.getIndexType();
  EXPECT_EQ(roundTo(i1, 0), 0);
  EXPECT_EQ(roundTo(i1, 1), 1);
  EXPECT_EQ(roundTo(i1, 2), 0);
  EXPECT_EQ(roundTo(i1, 3), 1);
  EXPECT_EQ(roundTo(i1, -1), 1);
  EXPECT_EQ(roundTo(i1, 0.9), 0);

  EXPECT_EQ(roundTo(i8, 127), 127);
  EXPECT_EQ(roundTo(i8, 128), -128);
  EXPECT_EQ(roundTo(i8, 200), -56);
  EXPECT_EQ(roundTo(i8, 255), -1);
  EXPECT_EQ(roundTo(i8, 256), 0);
  EXPECT_EQ(roundTo(i8, -129), 127);
  EXPECT_EQ(roundTo(i8, 3.7), 3);
  EXPECT_EQ(roundTo(i8, -3.7), -3);

  EXPECT_EQ(roundTo(i32, 0x1p31), -0x1p31);
  EXPECT_EQ(roundTo(i32, 0x1p32 + 5), 5);
  EXPECT_EQ(roundTo(i32, -0x1p31 - 1), 0x1p31 - 1);
  EXPECT_EQ(roundTo(i32, 3000000000.0), -1294967296.0);

  // 64-bit values wrap too; -2^63 is exact (it was once clamped).
  EXPECT_EQ(roundTo(i64, -0x1p63), -0x1p63);
  EXPECT_EQ(roundTo(i64, 0x1p63), -0x1p63);
  EXPECT_EQ(roundTo(index, 0x1p64 + 0x1p12), 0x1p12);
  EXPECT_EQ(roundTo(index, 0x1p53), 0x1p53);
  EXPECT_EQ(roundTo(index, -7.5), -7);
  // Poison from an out-of-range fptosi: no undefined behaviour.
  EXPECT_EQ(roundTo(i32, kNaN), 0);
  EXPECT_EQ(roundTo(i32, kInf), 0);
}

TEST_F(InterpreterTest, KnowsSupportedTypes) {
  EXPECT_TRUE(isSupportedElementType(b.getF32Type()));
  EXPECT_TRUE(isSupportedElementType(b.getBF16Type()));
  EXPECT_TRUE(isSupportedElementType(b.getI1Type()));
  EXPECT_TRUE(isSupportedElementType(b.getIntegerType(64)));
  EXPECT_TRUE(isSupportedElementType(b.getIndexType()));
  EXPECT_FALSE(isSupportedElementType(b.getIntegerType(128)));
  EXPECT_FALSE(isSupportedElementType(ComplexType::get(b.getF32Type())));
  EXPECT_TRUE(isInterpretableType(MemRefType::get({2, 3}, b.getF32Type())));
  EXPECT_FALSE(isInterpretableType(
      RankedTensorType::get({ShapedType::kDynamic}, b.getF32Type())));
  EXPECT_FALSE(isInterpretableType(UnrankedTensorType::get(b.getF32Type())));
  EXPECT_FALSE(isInterpretableType(MemRefType::get(
      {2, 3}, b.getF32Type(),
      AffineMap::getPermutationMap(ArrayRef<unsigned>{1, 0}, &context))));
  EXPECT_FALSE(isInterpretableType(VectorType::get({4}, b.getF32Type())));
}

//===----------------------------------------------------------------------===//
// evaluateAffineExpr
//===----------------------------------------------------------------------===//

/// Floordiv and ceildiv round towards -inf and +inf, mod is never negative;
/// symbols follow the dimensions.
TEST_F(InterpreterTest, EvaluatesAffineExpressions) {
  AffineExpr d0 = b.getAffineDimExpr(0), d1 = b.getAffineDimExpr(1);
  AffineExpr s0 = b.getAffineSymbolExpr(0), s1 = b.getAffineSymbolExpr(1);
  auto eval = [](AffineExpr e, ArrayRef<int64_t> operands, unsigned numDims) {
    return evaluateAffineExpr(e, operands, numDims);
  };
  EXPECT_EQ(eval(d0.floorDiv(4), {7}, 1), 1);
  EXPECT_EQ(eval(d0.floorDiv(4), {-1}, 1), -1);
  EXPECT_EQ(eval(d0.floorDiv(4), {-8}, 1), -2);
  EXPECT_EQ(eval(d0.floorDiv(4), {-9}, 1), -3);
  EXPECT_EQ(eval(d0.ceilDiv(4), {7}, 1), 2);
  EXPECT_EQ(eval(d0.ceilDiv(4), {-5}, 1), -1);
  EXPECT_EQ(eval(d0.ceilDiv(4), {-4}, 1), -1);
  EXPECT_EQ(eval(d0 % 4, {-1}, 1), 3);
  EXPECT_EQ(eval(d0 % 4, {-8}, 1), 0);
  EXPECT_EQ(eval(d0 % 4, {13}, 1), 1);
  EXPECT_EQ(eval(d0 * 3 - d1 + 5, {2, 4}, 2), 7);
  // (d0)[s0, s1]: s0 is operands[1], s1 operands[2].
  EXPECT_EQ(eval(d0 + s0 * 3, {2, 5, 100}, 1), 17);
  EXPECT_EQ(eval(d0.floorDiv(s1) + s0, {-7, 1, 2}, 1), -3);
  EXPECT_EQ(eval(d0 % s0, {-7, 3}, 1), 2);
  // A divisor that is not positive makes the expression undefined.
  EXPECT_EQ(eval(d0.floorDiv(s0), {7, 0}, 1), std::nullopt);
  EXPECT_EQ(eval(d0.ceilDiv(s0), {7, -2}, 1), std::nullopt);
  EXPECT_EQ(eval(d0 % s0, {7, 0}, 1), std::nullopt);
  EXPECT_EQ(eval((d0 % s0) + 1, {7, 0}, 1), std::nullopt);
}

//===----------------------------------------------------------------------===//
// compare
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, ComparesWithinTolerances) {
  // f64 buffers hold the decimal values below (an f32 one rounds them).
  Type f64 = b.getF64Type();
  Buffer expected = buffer({4}, f64, {1, -2, 100, 0});
  Comparison same = compare(expected, expected, 0, 0);
  EXPECT_TRUE(same.ok);
  EXPECT_TRUE(same.typesMatch);
  EXPECT_EQ(same.maxAbsError, 0);
  EXPECT_EQ(same.maxRelError, 0);

  // 100.01 is off by 1e-4 relative: within rtol 2e-4, not 5e-5.
  Buffer actual = buffer({4}, f64, {1, -2, 100.01, 0});
  Comparison loose = compare(expected, actual, 2e-4, 0);
  EXPECT_TRUE(loose.ok);
  EXPECT_NEAR(loose.maxAbsError, 0.01, 1e-9);
  EXPECT_NEAR(loose.maxRelError, 1e-4, 1e-9);
  Comparison tight = compare(expected, actual, 5e-5, 0);
  EXPECT_FALSE(tight.ok);
  EXPECT_EQ(tight.worst, 2);
  // atol alone covers it too.
  EXPECT_TRUE(compare(expected, actual, 0, 0.02).ok);

  // Next to an expected 0 only atol helps; the relative error is the
  // absolute one.
  Buffer off0 = buffer({4}, f64, {1, -2, 100, 1e-6});
  Comparison zero = compare(expected, off0, 1, 0);
  EXPECT_FALSE(zero.ok);
  EXPECT_EQ(zero.worst, 3);
  EXPECT_EQ(zero.maxRelError, 1e-6);
  EXPECT_TRUE(compare(expected, off0, 0, 1e-6).ok);

  // The worst element is the one furthest past its bound.
  Buffer two = buffer({4}, f64, {1.5, -2, 110, 0});
  EXPECT_EQ(compare(expected, two, 1e-3, 0).worst, 2);
  EXPECT_EQ(compare(expected, two, 0, 1).worst, 2);
}

TEST_F(InterpreterTest, ComparesNaNsAndInfinities) {
  Type f32 = b.getF32Type();
  Buffer expected = buffer({3}, f32, {kNaN, kInf, -kInf});
  EXPECT_TRUE(compare(expected, expected, 0, 0).ok);

  Comparison lostNaN =
      compare(expected, buffer({3}, f32, {0, kInf, -kInf}), 1, 1);
  EXPECT_FALSE(lostNaN.ok);
  EXPECT_EQ(lostNaN.worst, 0);
  Comparison newNaN =
      compare(buffer({3}, f32, {0, kInf, -kInf}), expected, 1, 1);
  EXPECT_FALSE(newNaN.ok);
  EXPECT_EQ(newNaN.worst, 0);

  // Infinities must match exactly, whatever the tolerance.
  EXPECT_FALSE(
      compare(expected, buffer({3}, f32, {kNaN, -kInf, -kInf}), 1, 1e30).ok);
  EXPECT_FALSE(
      compare(expected, buffer({3}, f32, {kNaN, 3e38, -kInf}), 1, 1e30).ok);
  EXPECT_FALSE(
      compare(buffer({1}, f32, {1}), buffer({1}, f32, {kInf}), 1, 1e30).ok);
}

TEST_F(InterpreterTest, ComparesTypes) {
  Buffer a = buffer({2, 3}, b.getF32Type(), {1, 2, 3, 4, 5, 6});
  Buffer transposed = buffer({3, 2}, b.getF32Type(), {1, 2, 3, 4, 5, 6});
  Comparison shape = compare(a, transposed, 1, 1);
  EXPECT_FALSE(shape.ok);
  EXPECT_FALSE(shape.typesMatch);
  EXPECT_EQ(shape.worst, -1);
  Buffer ints = buffer({2, 3}, b.getI32Type(), {1, 2, 3, 4, 5, 6});
  Comparison element = compare(a, ints, 1, 1);
  EXPECT_FALSE(element.ok);
  EXPECT_FALSE(element.typesMatch);
}

//===----------------------------------------------------------------------===//
// randomInputs
//===----------------------------------------------------------------------===//

constexpr llvm::StringLiteral kManyArgs = R"mlir(
func.func @args(%f: tensor<16x32xf32>, %i: tensor<256xi32>, %p: tensor<200xi1>,
                %x: memref<64xindex>, %h: tensor<64xbf16>, %s: f32) {
  return
}
)mlir";

/// The same seed gives the same inputs, another seed others; values lie in
/// their ranges and are values of their types.
TEST_F(InterpreterTest, MakesSeededInputs) {
  OwningOpRef<ModuleOp> module = parse(kManyArgs);
  ASSERT_TRUE(module);
  func::FuncOp func = firstFunc(*module);
  FailureOr<SmallVector<Buffer>> first = randomInputs(func, 7);
  FailureOr<SmallVector<Buffer>> again = randomInputs(func, 7);
  FailureOr<SmallVector<Buffer>> other = randomInputs(func, 8);
  ASSERT_TRUE(succeeded(first) && succeeded(again) && succeeded(other));
  ASSERT_EQ(first->size(), 6u);
  for (auto [a, c, o] : llvm::zip(*first, *again, *other)) {
    EXPECT_EQ(a.shape, c.shape);
    EXPECT_EQ(a.elementType, c.elementType);
    EXPECT_EQ(a.data, c.data);
    EXPECT_NE(a.data, o.data);
  }
  // Arguments of one function differ from each other too.
  EXPECT_NE((*first)[1].data[0] + (*first)[1].data[1] * 8,
            (*first)[3].data[0] + (*first)[3].data[1] * 8);

  const Buffer &f = (*first)[0];
  EXPECT_EQ(f.shape, (SmallVector<int64_t, 4>{16, 32}));
  EXPECT_TRUE(f.elementType.isF32());
  double lo = 1, hi = -1, sum = 0;
  for (double v : f.data) {
    EXPECT_GE(v, -1.0);
    EXPECT_LT(v, 1.0);
    EXPECT_EQ(v, roundTo(f.elementType, v));
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    sum += v;
  }
  EXPECT_LT(lo, -0.9);
  EXPECT_GT(hi, 0.9);
  EXPECT_LT(std::fabs(sum / f.size()), 0.1);

  for (unsigned k : {1u, 3u}) {
    SmallVector<int> counts(8, 0);
    for (double v : (*first)[k].data) {
      ASSERT_EQ(v, std::floor(v));
      ASSERT_GE(v, 0);
      ASSERT_LT(v, 8);
      ++counts[static_cast<int>(v)];
    }
    for (int c : counts)
      EXPECT_GT(c, 0);
  }
  EXPECT_TRUE((*first)[3].elementType.isIndex());

  int ones = 0;
  for (double v : (*first)[2].data) {
    ASSERT_TRUE(v == 0 || v == 1);
    ones += v == 1;
  }
  EXPECT_GT(ones, 60);
  EXPECT_LT(ones, 140);

  for (double v : (*first)[4].data)
    EXPECT_EQ(v, roundTo((*first)[4].elementType, v));

  // A scalar argument gets a 0-d buffer.
  const Buffer &s = (*first)[5];
  EXPECT_TRUE(s.shape.empty());
  EXPECT_EQ(s.size(), 1);
  EXPECT_TRUE(s.elementType.isF32());
}

TEST_F(InterpreterTest, RefusesInputsForDynamicShapes) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
func.func @dynamic(%x: tensor<4xf32>, %y: tensor<?x4xf32>) {
  return
}
)mlir");
  ASSERT_TRUE(module);
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  EXPECT_TRUE(failed(randomInputs(firstFunc(*module), 0)));
  EXPECT_EQ(message, "'func.func' op argument #1 has type 'tensor<?x4xf32>', "
                     "which cannot be interpreted");
}

//===----------------------------------------------------------------------===//
// .npy files and printing
//===----------------------------------------------------------------------===//

class NpyTest : public InterpreterTest {
protected:
  NpyTest() {
    EXPECT_FALSE(
        llvm::sys::fs::createUniqueDirectory("deplodock-npy-test", dir));
  }
  ~NpyTest() override { llvm::sys::fs::remove_directories(dir); }

  /// DIR/name.
  std::string path(StringRef name) const {
    SmallString<128> p(dir);
    llvm::sys::path::append(p, name);
    return std::string(p);
  }

  /// Writes `bytes` to DIR/name and returns the path.
  std::string writeFile(StringRef name, StringRef bytes) const {
    std::string p = path(name);
    std::error_code ec;
    llvm::raw_fd_ostream os(p, ec);
    EXPECT_FALSE(ec);
    os << bytes;
    return p;
  }

  /// Writes `buffer`, reads it back and checks it comes back the same, with
  /// element type `readType`.
  void roundTrip(const Buffer &buffer, Type readType) {
    std::string error;
    std::string p = path("buffer.npy");
    ASSERT_TRUE(succeeded(writeNpy(buffer, p, error))) << error;
    // Version 1 headers are padded to a multiple of 64 bytes.
    uint64_t size;
    ASSERT_FALSE(llvm::sys::fs::file_size(p, size));
    int64_t width = buffer.elementType.isInteger(1)    ? 1
                    : buffer.elementType.isInteger(8)  ? 1
                    : buffer.elementType.isF16()       ? 2
                    : buffer.elementType.isInteger(16) ? 2
                    : buffer.elementType.isF32()       ? 4
                    : buffer.elementType.isInteger(32) ? 4
                                                       : 8;
    EXPECT_EQ((size - width * buffer.size()) % 64, 0u);
    FailureOr<Buffer> back = readNpy(p, &context, error);
    ASSERT_TRUE(succeeded(back)) << error;
    EXPECT_EQ(back->shape, buffer.shape);
    EXPECT_EQ(back->elementType, readType);
    ASSERT_EQ(back->data.size(), buffer.data.size());
    for (auto [got, want] : llvm::zip(back->data, buffer.data)) {
      if (std::isnan(want))
        EXPECT_TRUE(std::isnan(got));
      else
        EXPECT_EQ(got, want);
    }
  }

  /// Reads DIR/name holding `bytes`; returns the error.
  std::string readError(StringRef bytes) {
    std::string error;
    EXPECT_TRUE(failed(readNpy(writeFile("bad.npy", bytes), &context, error)));
    return error;
  }

  SmallString<128> dir;
};

TEST_F(NpyTest, RoundTripsEveryType) {
  Type f32 = b.getF32Type(), f64 = b.getF64Type(), i32 = b.getI32Type();
  Type i64 = b.getI64Type(), i1 = b.getI1Type();
  roundTrip(buffer({2, 3}, f32,
                   {0.5, -0.25, static_cast<double>(1e-30f),
                    static_cast<double>(-3e38f), kInf, kNaN}),
            f32);
  roundTrip(buffer({3}, f64, {0.1, -1e300, 5e-324}), f64);
  roundTrip(buffer({2, 2}, i32, {0, -1, 2147483647, -2147483648.0}), i32);
  roundTrip(buffer({2}, i64, {-0x1p63, 0x1p53}), i64);
  roundTrip(buffer({5}, i1, {1, 0, 0, 1, 1}), i1);
  roundTrip(buffer({2}, b.getF16Type(), {0.0999755859375, -65504}),
            b.getF16Type());
  roundTrip(buffer({3}, b.getIntegerType(8), {-128, 127, 0}),
            b.getIntegerType(8));
  roundTrip(buffer({2}, b.getIntegerType(16), {-32768, 32767}),
            b.getIntegerType(16));
  // .npy has no index type: index goes out as int64.
  roundTrip(buffer({2}, b.getIndexType(), {7, -1}), i64);
  // 0-d, empty and rank-4 shapes.
  roundTrip(buffer({}, f32, {42}), f32);
  roundTrip(buffer({0, 3}, f32, {}), f32);
  roundTrip(buffer({1, 2, 1, 2}, f32, {1, 2, 3, 4}), f32);
}

/// Files as NumPy writes them: version 1 and version 2 headers, a trailing
/// comma only on 1-d shapes.
TEST_F(NpyTest, ReadsNumPyFiles) {
  // Padded with spaces and a newline to a multiple of 64 bytes.
  auto pad = [](std::string header, size_t prefix) {
    size_t total = prefix + header.size() + 1;
    header.append((64 - total % 64) % 64, ' ');
    return header + '\n';
  };
  std::string header = pad("{'descr': '<i4', 'fortran_order': False, "
                           "'shape': (2, 1), }",
                           10);
  std::string v1 = std::string("\x93NUMPY\x01\x00", 8);
  v1 += static_cast<char>(header.size());
  v1 += '\0';
  v1 += header;
  v1 += std::string("\x05\x00\x00\x00\xfe\xff\xff\xff", 8);
  std::string error;
  FailureOr<Buffer> read = readNpy(writeFile("v1.npy", v1), &context, error);
  ASSERT_TRUE(succeeded(read)) << error;
  EXPECT_EQ(read->shape, (SmallVector<int64_t, 4>{2, 1}));
  EXPECT_TRUE(read->elementType.isInteger(32));
  EXPECT_EQ(read->data.values(), (std::vector<double>{5, -2}));

  std::string header2 = pad("{'descr': '<f8', 'fortran_order': False, "
                            "'shape': (1,), }",
                            12);
  std::string v2 = std::string("\x93NUMPY\x02\x00", 8);
  v2 += static_cast<char>(header2.size());
  v2 += std::string(3, '\0');
  v2 += header2;
  double value = -1.5;
  v2 += std::string(reinterpret_cast<const char *>(&value), 8);
  read = readNpy(writeFile("v2.npy", v2), &context, error);
  ASSERT_TRUE(succeeded(read)) << error;
  EXPECT_EQ(read->shape, (SmallVector<int64_t, 4>{1}));
  EXPECT_EQ(read->data.values(), (std::vector<double>{-1.5}));
}

TEST_F(NpyTest, ReportsBadFiles) {
  std::string error;
  EXPECT_TRUE(failed(readNpy(path("missing.npy"), &context, error)));
  EXPECT_EQ(error, "No such file or directory");

  auto npy = [](StringRef dict, StringRef data, char major = 1) {
    std::string out = std::string("\x93NUMPY", 6);
    out += major;
    out += '\0';
    out += static_cast<char>(dict.size());
    out += '\0';
    if (major != 1)
      out += std::string(2, '\0');
    return out + dict.str() + data.str();
  };
  EXPECT_EQ(readError("hello, world"), "not a .npy file");
  EXPECT_EQ(readError(StringRef("\x93NUMPY\x02\x00\x10\x00", 10)),
            "truncated .npy header");
  EXPECT_EQ(readError(npy("{'descr': '<f4'", "", 1).substr(0, 14)),
            "truncated .npy header");
  EXPECT_EQ(readError(npy("{}", "", 4)), "unsupported .npy version 4");
  EXPECT_EQ(readError(npy("{'descr': '>f4', 'fortran_order': False, "
                          "'shape': (1,), }",
                          "abcd")),
            "unsupported .npy element type '>f4'");
  EXPECT_EQ(readError(npy("{'descr': '<c8', 'fortran_order': False, "
                          "'shape': (1,), }",
                          "abcdefgh")),
            "unsupported .npy element type '<c8'");
  EXPECT_EQ(readError(npy("{'descr': '<f4', 'fortran_order': True, "
                          "'shape': (1,), }",
                          "abcd")),
            "Fortran-ordered .npy files are not supported");
  EXPECT_EQ(readError(npy("{'descr': '<f4', 'fortran_order': False, "
                          "'shape': (2, x), }",
                          "abcd")),
            "bad shape in .npy header");
  EXPECT_EQ(readError(npy("{'descr': '<f4', 'fortran_order': False, "
                          "'shape': (-1,), }",
                          "abcd")),
            "bad shape in .npy header");
  EXPECT_EQ(readError(npy("{'descr': '<f4', 'fortran_order': False, "
                          "'shape': (2, 3), }",
                          "abcdefgh")),
            "truncated .npy data");
  // Sizes are checked before anything is allocated.
  EXPECT_EQ(readError(npy("{'descr': '<f4', 'fortran_order': False, "
                          "'shape': (1000000000, 1000000000), }",
                          "abcd")),
            "truncated .npy data");
  EXPECT_EQ(readError(npy("{'descr': '<f4', 'fortran_order': False, "
                          "'shape': (4294967296, 4294967296, 0), }",
                          "")),
            "bad shape in .npy header");

  Buffer i4 = buffer({1}, b.getIntegerType(4), {1});
  EXPECT_TRUE(failed(writeNpy(i4, path("i4.npy"), error)));
  EXPECT_EQ(error, "cannot write elements of type i4 to .npy");
  Buffer f32 = buffer({1}, b.getF32Type(), {1});
  EXPECT_TRUE(failed(writeNpy(f32, path("no/such/dir/x.npy"), error)));
  EXPECT_EQ(error, "No such file or directory");
}

// NumPy has no bf16: inputs come as raw bits (<u2, read as i16) or as f32;
// both become bf16 values when the function expects bf16.
TEST_F(InterpreterTest, AdaptsNpyInputsToBf16) {
  Type bf16 = b.getBF16Type();
  // 0x4000 is 2.0, 0xC0A0 is -5.0 (read as the signed i16 -16224).
  Buffer bits = buffer({2}, b.getIntegerType(16), {0x4000, -16224});
  adaptElementType(bits, bf16);
  EXPECT_EQ(bits.elementType, bf16);
  EXPECT_EQ(bits.data.values(), (std::vector<double>{2.0, -5.0}));
  // f32 values are rounded to bf16, to nearest even.
  Buffer floats = buffer({2}, b.getF32Type(), {1.0 + 3 * 0x1p-8, 0.5});
  adaptElementType(floats, bf16);
  EXPECT_EQ(floats.data.values(), (std::vector<double>{1.0 + 0x1p-6, 0.5}));
  // Other mismatches are left for the caller to report.
  Buffer f16 = buffer({1}, b.getF16Type(), {1});
  adaptElementType(f16, bf16);
  EXPECT_TRUE(f16.elementType.isF16());
}

TEST_F(InterpreterTest, PrintsBuffers) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printBuffer(buffer({2, 3}, b.getF32Type(),
                     {0.5, -0.25, 1, static_cast<double>(0.1f), kNaN, -kInf}),
              "result #0", os);
  printBuffer(buffer({2}, b.getI64Type(), {1234567890123.0, -0x1p53}), "ints",
              os);
  printBuffer(buffer({}, b.getF64Type(), {0.1}), "scalar", os);
  printBuffer(buffer({3}, b.getI1Type(), {1, 0, 1}), "bools", os);
  printBuffer(buffer({0}, b.getF32Type(), {}), "empty", os);
  EXPECT_EQ(text, "result #0: tensor<2x3xf32>\n"
                  "0.5 -0.25 1\n"
                  "0.100000001 nan -inf\n"
                  "ints: tensor<2xi64>\n"
                  "1234567890123 -9007199254740992\n"
                  "scalar: tensor<f64>\n"
                  "0.10000000000000001\n"
                  "bools: tensor<3xi1>\n"
                  "1 0 1\n"
                  "empty: tensor<0xf32>\n");
}

//===----------------------------------------------------------------------===//
// runFunction
//===----------------------------------------------------------------------===//

/// A dtensor function: squares summed per row, a transpose, a predicated
/// concat with padding, and a keepdim max over both axes.
constexpr llvm::StringLiteral kTensorFunc = R"mlir(
func.func @tensor(%x: tensor<2x3xf32>) -> (tensor<2xf32>, tensor<3x2xf32>, tensor<2x5xf32>, tensor<1x1xf32>) {
  %sq = dtensor.elementwise (%a = %x : tensor<2x3xf32>) -> tensor<2x3xf32> {
    %m = arith.mulf %a, %a : f32
    dtensor.yield %m : f32
  }
  %s = dtensor.reduce add %sq axes [1] : tensor<2x3xf32> -> tensor<2xf32>
  %t = dtensor.index_map %x[(d0, d1) -> (d1, d0)] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %c = dtensor.index_map %x[(d0, d1) -> (d0, d1)] if [(d0, d1) : (-d1 + 2 >= 0)], %sq[(d0, d1) -> (d0, d1 - 3)] if [(d0, d1) : (d1 - 3 == 0)] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x5xf32> padding 7.5
  %m = dtensor.reduce max %x axes [0, 1] keepdim : tensor<2x3xf32> -> tensor<1x1xf32>
  return %s, %t, %c, %m : tensor<2xf32>, tensor<3x2xf32>, tensor<2x5xf32>, tensor<1x1xf32>
}
)mlir";

TEST_F(InterpreterTest, RunsTensorFunction) {
  OwningOpRef<ModuleOp> module = parse(kTensorFunc);
  ASSERT_TRUE(module);
  Buffer x = buffer({2, 3}, b.getF32Type(), {1, 2, 3, 4, 5, -6});
  FailureOr<SmallVector<Buffer>> results = run(*module, {x});
  ASSERT_TRUE(succeeded(results)) << message;
  ASSERT_EQ(results->size(), 4u);
  EXPECT_EQ((*results)[0].shape, (SmallVector<int64_t, 4>{2}));
  EXPECT_EQ((*results)[0].data.values(), (std::vector<double>{14, 77}));
  EXPECT_EQ((*results)[1].shape, (SmallVector<int64_t, 4>{3, 2}));
  EXPECT_EQ((*results)[1].data.values(),
            (std::vector<double>{1, 4, 2, 5, 3, -6}));
  EXPECT_EQ((*results)[2].data.values(),
            (std::vector<double>{1, 2, 3, 1, 7.5, 4, 5, -6, 16, 7.5}));
  EXPECT_EQ((*results)[3].shape, (SmallVector<int64_t, 4>{1, 1}));
  EXPECT_EQ((*results)[3].data.values(), (std::vector<double>{5}));
  // The input is not changed.
  EXPECT_EQ(x.data.values(), (std::vector<double>{1, 2, 3, 4, 5, -6}));
}

/// A dloop matmul with an accumulator, and a column sum through a reducing
/// store into a zeroed buffer; buffers are allocated and returned.
constexpr llvm::StringLiteral kLoopFunc = R"mlir(
func.func @loops(%a: memref<2x3xf32>, %b: memref<3x2xf32>) -> (memref<2x2xf32>, memref<2xf32>) {
  %c = memref.alloc() : memref<2x2xf32>
  %s = memref.alloc() : memref<2xf32>
  dloop.kernel @matmul ins(%x = %a : memref<2x3xf32>, %y = %b : memref<3x2xf32>) outs(%z = %c : memref<2x2xf32>) {
    %zero = arith.constant 0.0 : f32
    dloop.for %m = 0 to 2 free "m" {
      dloop.for %n = 0 to 2 free "n" {
        %sum = dloop.for %k = 0 to 3 reduce "k" iter(%acc = %zero : f32) {
          %u = dloop.load %x[%m, %k] : memref<2x3xf32>
          %v = dloop.load %y[%k, %n] : memref<3x2xf32>
          %p = arith.mulf %u, %v : f32
          %next = arith.addf %acc, %p : f32
          dloop.yield %next : f32
        }
        dloop.store %sum, %z[%m, %n] : memref<2x2xf32>
      }
    }
  }
  dloop.kernel @colsum ins(%x = %a : memref<2x3xf32>) outs(%t = %s : memref<2xf32>) {
    %zero = arith.constant 0.0 : f32
    dloop.for %i = 0 to 2 free "i" {
      dloop.store %zero, %t[%i] : memref<2xf32>
    }
    dloop.for %k = 0 to 3 reduce "k" {
      dloop.for %i = 0 to 2 free "i" {
        %u = dloop.load %x[%i, %k] : memref<2x3xf32>
        dloop.store add %u, %t[%i] : memref<2xf32>
      }
    }
  }
  return %c, %s : memref<2x2xf32>, memref<2xf32>
}
)mlir";

TEST_F(InterpreterTest, RunsLoopFunction) {
  OwningOpRef<ModuleOp> module = parse(kLoopFunc);
  ASSERT_TRUE(module);
  Buffer a = buffer({2, 3}, b.getF32Type(), {1, 2, 3, 4, 5, 6});
  Buffer bm = buffer({3, 2}, b.getF32Type(), {1, -1, 0, 2, 0.5, 0});
  FailureOr<SmallVector<Buffer>> results = run(*module, {a, bm});
  ASSERT_TRUE(succeeded(results)) << message;
  ASSERT_EQ(results->size(), 2u);
  // [1 2 3; 4 5 6] . [1 -1; 0 2; 0.5 0] = [2.5 3; 7 6].
  EXPECT_EQ((*results)[0].data.values(), (std::vector<double>{2.5, 3, 7, 6}));
  EXPECT_EQ((*results)[1].data.values(), (std::vector<double>{6, 15}));
}

/// Scalar arguments and results are 0-d buffers; scf.for carries values,
/// scf.if picks one.
TEST_F(InterpreterTest, RunsScalarFunction) {
  SmallVector<double> r =
      runScalars(R"mlir(
func.func @scalars(%x: f32, %n: index) -> (f32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %p:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x, %cnt = %zero) -> (f32, i32) {
    %odd = arith.remui %i, %c1 : index
    %two = arith.addf %acc, %acc : f32
    %one = arith.constant 1 : i32
    %next = arith.addi %cnt, %one : i32
    scf.yield %two, %next : f32, i32
  }
  %big = arith.constant 100.0 : f32
  %gt = arith.cmpf ogt, %p#0, %big : f32
  %r = scf.if %gt -> (f32) {
    scf.yield %big : f32
  } else {
    scf.yield %p#0 : f32
  }
  return %r, %p#1 : f32, i32
}
)mlir",
                 {scalar(b.getF32Type(), 1.5), scalar(b.getIndexType(), 4)});
  EXPECT_EQ(r, (SmallVector<double>{24, 4}));
  r = runScalars(R"mlir(
func.func @scalars(%x: f32, %n: index) -> (f32, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (f32) {
    %two = arith.addf %acc, %acc : f32
    scf.yield %two : f32
  }
  return %p, %n : f32, index
}
)mlir",
                 {scalar(b.getF32Type(), 1.5), scalar(b.getIndexType(), 7)});
  EXPECT_EQ(r, (SmallVector<double>{192, 7}));
}

/// Integer ops at the edges of their types: unsigned 64-bit results, the
/// signed view of i1, division overflow, shifts.
TEST_F(InterpreterTest, ComputesIntegerEdgeCases) {
  Type i64 = b.getI64Type();
  SmallVector<double> r = runScalars(R"mlir(
func.func @unsigned(%a: i64, %b: i64) -> (i64, i64, i64, i64, i64, i64, i64, i64) {
  %0 = arith.divui %a, %b : i64
  %1 = arith.remui %a, %b : i64
  %2 = arith.maxui %a, %b : i64
  %3 = arith.minui %a, %b : i64
  %c0 = arith.constant 0 : i64
  %4 = arith.shrui %a, %c0 : i64
  %5 = arith.divsi %a, %a : i64
  %min = arith.constant -9223372036854775808 : i64
  %m1 = arith.constant -1 : i64
  %6 = arith.divsi %min, %m1 : i64
  %7 = arith.remsi %min, %m1 : i64
  return %0, %1, %2, %3, %4, %5, %6, %7 : i64, i64, i64, i64, i64, i64, i64, i64
}
)mlir",
                                     {scalar(i64, -1), scalar(i64, 1)});
  EXPECT_EQ(r, (SmallVector<double>{-1, 0, -1, 1, -1, 1, -0x1p63, 0}));

  Type i1 = b.getI1Type();
  r = runScalars(R"mlir(
func.func @bools(%t: i1, %f: i1) -> (i1, i1, i1, i1, f32, f32, i32, i32, i1) {
  %0 = arith.cmpi slt, %t, %f : i1
  %1 = arith.cmpi ult, %t, %f : i1
  %2 = arith.maxsi %t, %f : i1
  %3 = arith.minsi %t, %f : i1
  %4 = arith.sitofp %t : i1 to f32
  %5 = arith.uitofp %t : i1 to f32
  %6 = arith.extsi %t : i1 to i32
  %7 = arith.extui %t : i1 to i32
  %8 = arith.xori %t, %t : i1
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : i1, i1, i1, i1, f32, f32, i32, i32, i1
}
)mlir",
                 {scalar(i1, 1), scalar(i1, 0)});
  EXPECT_EQ(r, (SmallVector<double>{1, 0, 0, 1, -1, 1, -1, 1, 0}));

  Type i8 = b.getIntegerType(8);
  r = runScalars(R"mlir(
func.func @bytes(%a: i8, %b: i8) -> (i8, i8, i8, i8, i8, i8, i32, index, i8) {
  %0 = arith.addi %a, %b : i8
  %1 = arith.muli %a, %b : i8
  %c1 = arith.constant 1 : i8
  %2 = arith.shli %a, %c1 : i8
  %3 = arith.shrsi %b, %c1 : i8
  %4 = arith.shrui %b, %c1 : i8
  %5 = arith.divsi %b, %a : i8
  %6 = arith.extui %b : i8 to i32
  %w = arith.constant 300 : i32
  %7 = arith.index_cast %b : i8 to index
  %8 = arith.trunci %w : i32 to i8
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : i8, i8, i8, i8, i8, i8, i32, index, i8
}
)mlir",
                 {scalar(i8, 100), scalar(i8, -7)});
  EXPECT_EQ(r, (SmallVector<double>{93, 68, -56, -4, 124, 0, 249, -7, 44}));
}

/// Float ops: conversions, bitcasts of every width, NaN-propagating and
/// NaN-ignoring max, rounding modes of truncf, remf, poison.
TEST_F(InterpreterTest, ComputesFloatEdgeCases) {
  Type f32 = b.getF32Type();
  SmallVector<double> r = runScalars(R"mlir(
func.func @floats(%x: f32, %y: f32) -> (i32, f32, i16, f16, i64, f32, f32, f32, f32, f32, i32) {
  %0 = arith.bitcast %x : f32 to i32
  %1 = arith.bitcast %0 : i32 to f32
  %h = arith.truncf %x : f32 to f16
  %2 = arith.bitcast %h : f16 to i16
  %3 = arith.bitcast %2 : i16 to f16
  %d = arith.extf %x : f32 to f64
  %4 = arith.bitcast %d : f64 to i64
  %nan = arith.constant 0x7FC00000 : f32
  %5 = arith.maximumf %x, %nan : f32
  %6 = arith.maxnumf %x, %nan : f32
  %7 = arith.remf %y, %x : f32
  %8 = math.fma %x, %y, %x : f32
  %9 = arith.minimumf %x, %y : f32
  %10 = arith.fptosi %y : f32 to i32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : i32, f32, i16, f16, i64, f32, f32, f32, f32, f32, i32
}
)mlir",
                                     {scalar(f32, 1.5), scalar(f32, -7.25)});
  ASSERT_EQ(r.size(), 11u);
  EXPECT_EQ(r[0], 0x3FC00000);
  EXPECT_EQ(r[1], 1.5);
  EXPECT_EQ(r[2], 0x3E00);
  EXPECT_EQ(r[3], 1.5);
  EXPECT_EQ(r[4], 0x3FF8000000000000);
  EXPECT_TRUE(std::isnan(r[5]));
  EXPECT_EQ(r[6], 1.5);
  EXPECT_EQ(r[7], -1.25);
  EXPECT_EQ(r[8], -9.375);
  EXPECT_EQ(r[9], -7.25);
  EXPECT_EQ(r[10], -7);

  // 1 + 2^-11 + 2^-13 lies between the halves 1 and 1 + 2^-10.
  r = runScalars(R"mlir(
func.func @rounding(%x: f32) -> (f16, f16, f16, f16, f16) {
  %0 = arith.truncf %x : f32 to f16
  %1 = arith.truncf %x downward : f32 to f16
  %2 = arith.truncf %x upward : f32 to f16
  %3 = arith.truncf %x toward_zero : f32 to f16
  %4 = arith.truncf %x to_nearest_away : f32 to f16
  return %0, %1, %2, %3, %4 : f16, f16, f16, f16, f16
}
)mlir",
                 {scalar(f32, -(1 + 0x1p-11 + 0x1p-13))});
  EXPECT_EQ(r, (SmallVector<double>{-(1 + 0x1p-10), -(1 + 0x1p-10), -1, -1,
                                    -(1 + 0x1p-10)}));
  // A tie: to_nearest_even and to_nearest_away differ.
  r = runScalars(R"mlir(
func.func @tie(%x: f32) -> (f16, f16) {
  %0 = arith.truncf %x : f32 to f16
  %1 = arith.truncf %x to_nearest_away : f32 to f16
  return %0, %1 : f16, f16
}
)mlir",
                 {scalar(f32, 1 + 0x1p-11)});
  EXPECT_EQ(r, (SmallVector<double>{1, 1 + 0x1p-10}));

  r = runScalars(R"mlir(
func.func @poison() -> (f32, i32, i8) {
  %0 = ub.poison : f32
  %1 = ub.poison : i32
  %2 = ub.poison : i8
  return %0, %1, %2 : f32, i32, i8
}
)mlir",
                 {});
  ASSERT_EQ(r.size(), 3u);
  EXPECT_TRUE(std::isnan(r[0]));
  EXPECT_EQ(r[1], -559038737); // 0xDEADBEEF.
  EXPECT_EQ(r[2], -17);        // 0xEF.
}

/// Memory nobody wrote reads as NaN (or 0xDEADBEEF), so a kernel that
/// misses elements shows up.
TEST_F(InterpreterTest, PoisonsUnwrittenMemory) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
func.func @half(%a: memref<4xf32>) -> (memref<4xf32>, memref<2xi32>) {
  %out = memref.alloc() : memref<4xf32>
  %ints = memref.alloc() : memref<2xi32>
  dloop.kernel @half ins(%x = %a : memref<4xf32>) outs(%y = %out : memref<4xf32>) {
    dloop.for %i = 0 to 2 free "i" {
      %v = dloop.load %x[%i * 2] : memref<4xf32>
      dloop.store %v, %y[%i * 2] : memref<4xf32>
    }
  }
  return %out, %ints : memref<4xf32>, memref<2xi32>
}
)mlir");
  ASSERT_TRUE(module);
  FailureOr<SmallVector<Buffer>> results =
      run(*module, {buffer({4}, b.getF32Type(), {1, 2, 3, 4})});
  ASSERT_TRUE(succeeded(results)) << message;
  std::vector<double> y = (*results)[0].data.values();
  EXPECT_EQ(y[0], 1);
  EXPECT_TRUE(std::isnan(y[1]));
  EXPECT_EQ(y[2], 3);
  EXPECT_TRUE(std::isnan(y[3]));
  EXPECT_EQ((*results)[1].data.values(),
            (std::vector<double>{-559038737, -559038737}));
}

/// Two get_globals of one global read one buffer; constants fold in.
TEST_F(InterpreterTest, SharesGlobals) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
memref.global "private" @g : memref<2xf32> = dense<[1.0, 2.0]>
func.func @globals() -> (memref<2xf32>, memref<2xf32>) {
  %a = memref.get_global @g : memref<2xf32>
  %b = memref.get_global @g : memref<2xf32>
  %c1 = arith.constant 1 : index
  %v = arith.constant 5.0 : f32
  memref.store %v, %a[%c1] : memref<2xf32>
  return %a, %b : memref<2xf32>, memref<2xf32>
}
)mlir");
  ASSERT_TRUE(module);
  FailureOr<SmallVector<Buffer>> results = run(*module, {});
  ASSERT_TRUE(succeeded(results)) << message;
  EXPECT_EQ((*results)[0].data.values(), (std::vector<double>{1, 5}));
  EXPECT_EQ((*results)[1].data.values(), (std::vector<double>{1, 5}));
  // Each run starts from the initial value.
  results = run(*module, {});
  ASSERT_TRUE(succeeded(results)) << message;
  EXPECT_EQ((*results)[1].data.values(), (std::vector<double>{1, 5}));
}

//===----------------------------------------------------------------------===//
// runFunction errors
//===----------------------------------------------------------------------===//

TEST_F(InterpreterTest, RejectsInputsThatDoNotFit) {
  OwningOpRef<ModuleOp> module = parse(kTensorFunc);
  ASSERT_TRUE(module);
  Buffer x = buffer({2, 3}, b.getF32Type(), {1, 2, 3, 4, 5, 6});
  EXPECT_TRUE(failed(run(*module, {})));
  EXPECT_EQ(message, "'func.func' op expects 1 inputs, one per argument, but "
                     "0 were given");
  EXPECT_TRUE(failed(run(*module, {x, x})));
  EXPECT_EQ(message, "'func.func' op expects 1 inputs, one per argument, but "
                     "2 were given");
  EXPECT_TRUE(failed(
      run(*module, {buffer({3, 2}, b.getF32Type(), {1, 2, 3, 4, 5, 6})})));
  EXPECT_EQ(message, "'func.func' op argument #0 has type 'tensor<2x3xf32>', "
                     "but the input is a 'tensor<3x2xf32>'");
  EXPECT_TRUE(failed(
      run(*module, {buffer({2, 3}, b.getF64Type(), {1, 2, 3, 4, 5, 6})})));
  EXPECT_EQ(message, "'func.func' op argument #0 has type 'tensor<2x3xf32>', "
                     "but the input is a 'tensor<2x3xf64>'");
  // A buffer whose data does not fill its shape.
  Buffer bad = x;
  bad.data = ElementArray(runtime::DType::F32, 5, Reservation());
  EXPECT_TRUE(failed(run(*module, {bad})));
  EXPECT_EQ(message, "'func.func' op argument #0 has type 'tensor<2x3xf32>', "
                     "but the input is a 'tensor<2x3xf32>'");
}

/// Ops and types the interpreter does not know are located errors, found
/// before anything runs.
TEST_F(InterpreterTest, RejectsWhatItCannotRun) {
  struct Case {
    const char *source;
    const char *error;
  };
  Case cases[] = {
      {R"mlir(
func.func @call(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = func.call @call(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
})mlir",
       "'func.call' op cannot be interpreted"},
      {R"mlir(
func.func @extract(%x: tensor<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %y = tensor.extract %x[%c0] : tensor<4xf32>
  return %y : f32
})mlir",
       "'tensor.extract' op cannot be interpreted"},
      {R"mlir(
func.func @shaped(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = arith.addf %x, %x : tensor<4xf32>
  return %y : tensor<4xf32>
})mlir",
       "'arith.addf' op on shaped values cannot be interpreted; import it "
       "into dtensor first"},
      {R"mlir(
func.func @dynamic(%n: index) -> memref<?xf32> {
  %y = memref.alloc(%n) : memref<?xf32>
  return %y : memref<?xf32>
})mlir",
       "'func.func' op result #0 has type 'memref<?xf32>', which cannot be "
       "interpreted"},
      {R"mlir(
func.func @alloc(%n: index) {
  %y = memref.alloc(%n) : memref<?xf32>
  return
})mlir",
       "'memref.alloc' op result #0 has type 'memref<?xf32>', which cannot be "
       "interpreted"},
      {R"mlir(
func.func @complex(%x: tensor<4xcomplex<f32>>) {
  return
})mlir",
       "'func.func' op argument #0 has type 'tensor<4xcomplex<f32>>', which "
       "cannot be interpreted"},
      {R"mlir(
func.func private @external(%x: tensor<4xf32>))mlir",
       "'func.func' op has no body to interpret"},
  };
  for (const Case &c : cases) {
    OwningOpRef<ModuleOp> module = parse(c.source);
    ASSERT_TRUE(module) << c.source;
    func::FuncOp func = firstFunc(*module);
    SmallVector<Buffer> inputs;
    for (Type type : func.getArgumentTypes()) {
      auto shaped = dyn_cast<ShapedType>(type);
      inputs.push_back(shaped && shaped.hasStaticShape()
                           ? Buffer(shaped.getShape(), shaped.getElementType())
                           : Buffer({}, getElementTypeOrSelf(type)));
    }
    EXPECT_TRUE(failed(run(*module, inputs))) << c.source;
    EXPECT_EQ(message, c.error) << c.source;
  }
}

/// Accesses out of bounds, an undefined floordiv and aliasing buffers are
/// found as they happen, with the index at fault.
TEST_F(InterpreterTest, ReportsRuntimeErrors) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
func.func @gather(%x: memref<4xf32>, %i: memref<2xindex>) -> memref<2xf32> {
  %out = memref.alloc() : memref<2xf32>
  dloop.kernel @gather ins(%src = %x : memref<4xf32>, %idx = %i : memref<2xindex>) outs(%y = %out : memref<2xf32>) {
    dloop.for %k = 0 to 2 free "k" {
      %j = dloop.load %idx[%k] : memref<2xindex>
      %v = dloop.load %src[%j] : memref<4xf32>
      dloop.store %v, %y[%k] : memref<2xf32>
    }
  }
  return %out : memref<2xf32>
}
)mlir");
  ASSERT_TRUE(module);
  Buffer x = buffer({4}, b.getF32Type(), {10, 11, 12, 13});
  FailureOr<SmallVector<Buffer>> results =
      run(*module, {x, buffer({2}, b.getIndexType(), {3, 1})});
  ASSERT_TRUE(succeeded(results)) << message;
  EXPECT_EQ((*results)[0].data.values(), (std::vector<double>{13, 11}));
  EXPECT_TRUE(failed(run(*module, {x, buffer({2}, b.getIndexType(), {3, 4})})));
  // The free loop runs as lanes (LaneLoops.cpp): errors name the
  // iteration.
  EXPECT_EQ(message, "'dloop.load' op accesses index 4 of dimension 0 of "
                     "size 4 in iteration k = 1");
  EXPECT_TRUE(
      failed(run(*module, {x, buffer({2}, b.getIndexType(), {-1, 0})})));
  EXPECT_EQ(message, "'dloop.load' op accesses index -1 of dimension 0 of "
                     "size 4 in iteration k = 0");

  module = parse(R"mlir(
func.func @store(%x: memref<4xf32>, %i: index) -> memref<4xf32> {
  %v = arith.constant 1.0 : f32
  memref.store %v, %x[%i] : memref<4xf32>
  return %x : memref<4xf32>
}
)mlir");
  ASSERT_TRUE(module);
  results = run(*module, {x, scalar(b.getIndexType(), 2)});
  ASSERT_TRUE(succeeded(results)) << message;
  EXPECT_EQ((*results)[0].data.values(), (std::vector<double>{10, 11, 1, 13}));
  EXPECT_TRUE(failed(run(*module, {x, scalar(b.getIndexType(), 9)})));
  EXPECT_EQ(message,
            "'memref.store' op accesses index 9 of dimension 0 of size 4");

  module = parse(R"mlir(
func.func @divide(%n: index) -> index {
  %c = arith.constant 7 : index
  %q = affine.apply affine_map<(d0)[s0] -> (d0 floordiv s0)>(%c)[%n]
  return %q : index
}
)mlir");
  ASSERT_TRUE(module);
  results = run(*module, {scalar(b.getIndexType(), -2)});
  EXPECT_TRUE(failed(results));
  EXPECT_EQ(message, "'affine.apply' op divides by a non-positive value");
  results = run(*module, {scalar(b.getIndexType(), 2)});
  ASSERT_TRUE(succeeded(results)) << message;
  EXPECT_EQ((*results)[0].data.values(), (std::vector<double>{3}));

  module = parse(R"mlir(
memref.global "private" @g : memref<4xf32> = dense<0.0>
func.func @alias() -> memref<4xf32> {
  %a = memref.get_global @g : memref<4xf32>
  %b = memref.get_global @g : memref<4xf32>
  dloop.kernel @copy ins(%x = %a : memref<4xf32>) outs(%y = %b : memref<4xf32>) {
    dloop.for %i = 0 to 4 free "i" {
      %v = dloop.load %x[%i] : memref<4xf32>
      dloop.store %v, %y[%i] : memref<4xf32>
    }
  }
  return %b : memref<4xf32>
}
)mlir");
  ASSERT_TRUE(module);
  EXPECT_TRUE(failed(run(*module, {})));
  EXPECT_EQ(message, "'dloop.kernel' op binds one buffer to its arguments #0 "
                     "and #1, which must not alias");
}

} // namespace
