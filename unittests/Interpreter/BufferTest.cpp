//===- BufferTest.cpp - Element storage and sizes of the interpreter ------===//
//
// Elements are stored at their own width: each storage keeps exactly the
// values of its type (the 16-bit float conversions against APFloat, for
// every half and bfloat16 and for doubles between them), integers wrap as
// roundTo does, and buffers account for their bytes against the memory
// limit, which refuses what would pass it. Sizes never overflow silently,
// nor do the counts of the work limit.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Interpreter/Buffer.h"
#include "Deplodock/Interpreter/Memory.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/APFloat.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace mlir;
using namespace deplodock::interp;
using namespace deplodock::runtime;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

/// `v` rounded to `semantics` by APFloat, back as a double.
double apRound(double v, const llvm::fltSemantics &semantics) {
  llvm::APFloat value(v);
  bool lost;
  value.convert(semantics, llvm::APFloat::rmNearestTiesToEven, &lost);
  value.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
                &lost);
  return value.convertToDouble();
}

/// Whether `a` and `b` are the same double, NaNs alike and zeros by sign.
bool same(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

/// Sets the memory limit for one test and restores it after.
class LimitScope {
public:
  explicit LimitScope(uint64_t bytes) : saved(getMemoryLimit()) {
    setMemoryLimit(bytes);
  }
  ~LimitScope() { setMemoryLimit(saved); }

private:
  uint64_t saved;
};

class BufferTest : public ::testing::Test {
protected:
  BufferTest() : b(&context) {}
  MLIRContext context;
  Builder b;
};

TEST_F(BufferTest, StoresEachTypeAtItsWidth) {
  struct Case {
    Type type;
    DType storage;
    unsigned bytes;
  };
  Case cases[] = {
      {b.getI1Type(), DType::I1, 1},
      {b.getIntegerType(8), DType::I8, 1},
      {b.getIntegerType(4), DType::I8, 1},
      {b.getIntegerType(16), DType::I16, 2},
      {b.getIntegerType(24), DType::I32, 4},
      {b.getI32Type(), DType::I32, 4},
      {b.getI64Type(), DType::I64, 8},
      {b.getIndexType(), DType::I64, 8},
      {b.getF16Type(), DType::F16, 2},
      {b.getBF16Type(), DType::BF16, 2},
      {b.getF32Type(), DType::F32, 4},
      {b.getType<Float8E4M3FNType>(), DType::F32, 4},
      {b.getF64Type(), DType::F64, 8},
  };
  for (const Case &c : cases) {
    EXPECT_EQ(storageOf(c.type), c.storage);
    EXPECT_EQ(dtypeSize(c.storage), c.bytes);
    Buffer buffer({3, 5}, c.type);
    EXPECT_EQ(buffer.size(), 15);
    EXPECT_EQ(buffer.data.storage(), c.storage);
  }
}

/// Every half and bfloat16 reads back as APFloat converts it, and rounding
/// its value gives the same bits (but NaNs, which are quieted).
TEST_F(BufferTest, SixteenBitFloatsRoundTripEveryValue) {
  for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
    auto b16 = static_cast<uint16_t>(bits);
    llvm::APFloat half(llvm::APFloat::IEEEhalf(), llvm::APInt(16, bits));
    llvm::APFloat brain(llvm::APFloat::BFloat(), llvm::APInt(16, bits));
    bool lost;
    half.convert(llvm::APFloat::IEEEdouble(),
                 llvm::APFloat::rmNearestTiesToEven, &lost);
    brain.convert(llvm::APFloat::IEEEdouble(),
                  llvm::APFloat::rmNearestTiesToEven, &lost);
    ASSERT_TRUE(same(halfBitsToDouble(b16), half.convertToDouble())) << bits;
    ASSERT_TRUE(same(bf16BitsToDouble(b16), brain.convertToDouble())) << bits;
    if (!std::isnan(halfBitsToDouble(b16)))
      ASSERT_EQ(doubleToHalfBits(halfBitsToDouble(b16)), b16) << bits;
    if (!std::isnan(bf16BitsToDouble(b16)))
      ASSERT_EQ(doubleToBF16Bits(bf16BitsToDouble(b16)), b16) << bits;
  }
}

/// Doubles between the 16-bit values round to nearest, ties to even, once:
/// ties, values just off a tie (which rounding through f32 first would
/// get wrong), the overflow threshold, subnormals and random doubles.
TEST_F(BufferTest, SixteenBitFloatsRoundOnceToNearestEven) {
  std::vector<double> values = {0.0,
                                -0.0,
                                kInf,
                                -kInf,
                                1.0 + 0x1p-11,
                                1.0 + 3 * 0x1p-11,
                                1.0 + 0x1p-11 + 0x1p-40,
                                1.0 + 0x1p-8 + 0x1p-40,
                                65504.0,
                                65519.99,
                                65520.0,
                                0x1p-24,
                                0x1p-25,
                                0x1p-25 + 0x1p-60,
                                3 * 0x1p-26,
                                0x1p-133,
                                0x1p-134,
                                0x1p-134 + 0x1p-170,
                                3.4e38,
                                3.4028235677973366e38,
                                1e-300,
                                1e300};
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) {
    uint64_t bits = rng();
    double v;
    std::memcpy(&v, &bits, sizeof(v));
    // Mostly doubles near the formats' range, some anywhere.
    values.push_back(i % 4 ? std::ldexp(std::fmod(v, 2.0), (i % 80) - 40) : v);
  }
  for (double v : values) {
    double half = halfBitsToDouble(doubleToHalfBits(v)),
           brain = bf16BitsToDouble(doubleToBF16Bits(v));
    ASSERT_TRUE(same(half, apRound(v, llvm::APFloat::IEEEhalf()))) << v;
    ASSERT_TRUE(same(brain, apRound(v, llvm::APFloat::BFloat()))) << v;
    ASSERT_TRUE(same(roundTo(b.getF16Type(), v), half)) << v;
    ASSERT_TRUE(same(roundTo(b.getBF16Type(), v), brain)) << v;
  }
  EXPECT_TRUE(std::isnan(halfBitsToDouble(doubleToHalfBits(kNaN))));
  EXPECT_TRUE(std::isnan(bf16BitsToDouble(doubleToBF16Bits(kNaN))));
}

/// Integers are stored wrapped to their width, as roundTo wraps them.
TEST_F(BufferTest, IntegersWrapToTheirWidth) {
  Buffer i8({4}, b.getIntegerType(8));
  i8.set(0, 200);
  i8.set(1, -129);
  i8.set(2, 127);
  i8.set(3, 300.7);
  EXPECT_EQ(i8.data.values(), (std::vector<double>{-56, 127, 127, 44}));
  for (int64_t i = 0; i < 4; ++i)
    EXPECT_EQ(i8.get(i), roundTo(b.getIntegerType(8), i8.get(i)));

  Buffer flags({3}, b.getI1Type());
  flags.set(0, 1);
  flags.set(1, -1);
  flags.set(2, 2);
  EXPECT_EQ(flags.data.values(), (std::vector<double>{1, 1, 0}));

  Buffer i64({4}, b.getI64Type());
  i64.set(0, -0x1p63);
  i64.set(1, 0x1p63); // Wraps to -2^63, as roundTo does.
  i64.set(2, kNaN);   // Poison: 0.
  i64.set(3, -5.75);
  EXPECT_EQ(i64.data.values(), (std::vector<double>{-0x1p63, -0x1p63, 0, -5}));
  EXPECT_EQ(roundTo(b.getI64Type(), 0x1p63), -0x1p63);

  // Modulo 2^64 first, then to the width.
  Buffer i32({1}, b.getI32Type());
  i32.set(0, 0x1p70 + 5 * 0x1p18);
  EXPECT_EQ(i32.get(0), 5 * 0x1p18);

  Buffer i16({2}, b.getIntegerType(16));
  i16.data = {40000, -3};
  EXPECT_EQ(i16.data.values(), (std::vector<double>{-25536, -3}));
}

TEST_F(BufferTest, WrapsDoublesToInt64) {
  EXPECT_EQ(wrapToInt64(5.9), 5);
  EXPECT_EQ(wrapToInt64(-5.9), -5);
  EXPECT_EQ(wrapToInt64(kNaN), 0);
  EXPECT_EQ(wrapToInt64(kInf), 0);
  EXPECT_EQ(wrapToInt64(-kInf), 0);
  EXPECT_EQ(wrapToInt64(0x1p63), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(wrapToInt64(0x1p64 + 0x1p12), 4096);
  EXPECT_EQ(wrapToInt64(-0x1p64 - 0x1p12), -4096);
}

TEST_F(BufferTest, ReadsWritesFillsAndCompares) {
  for (Type type :
       {Type(b.getF16Type()), Type(b.getBF16Type()), Type(b.getF32Type()),
        Type(b.getF64Type()), Type(b.getI32Type())}) {
    Buffer buffer({6}, type);
    double values[6] = {1, -2, 0.5, 3, -0.25, 8};
    buffer.data.write(0, 6, values);
    double back[6];
    buffer.data.read(0, 6, back);
    for (int i = 0; i < 6; ++i)
      EXPECT_EQ(back[i], roundTo(type, values[i]));
    Buffer copy = buffer;
    EXPECT_EQ(copy.data, buffer.data);
    copy.set(5, 9);
    EXPECT_NE(copy.data, buffer.data);
    buffer.data.fill(-3);
    EXPECT_EQ(buffer.data.values(), std::vector<double>(6, -3));
    buffer.data.fill(kNaN);
    if (isa<FloatType>(type))
      EXPECT_TRUE(std::isnan(buffer.get(4)));
  }
}

TEST_F(BufferTest, CountsSizesWithoutOverflow) {
  EXPECT_EQ(checkedNumElements({}), 1);
  EXPECT_EQ(checkedNumElements({3, 0, 5}), 0);
  EXPECT_EQ(checkedNumElements({1 << 20, 1 << 20}), int64_t(1) << 40);
  // 2^32 * 2^32 wraps to 0 in 64 bits: it must not count as empty.
  EXPECT_EQ(checkedNumElements({int64_t(1) << 32, int64_t(1) << 32}),
            std::nullopt);
  // An empty shape is empty whatever its other sizes, in any order.
  EXPECT_EQ(checkedNumElements({0, int64_t(1) << 62, 4}), 0);
  EXPECT_EQ(checkedNumElements({int64_t(1) << 62, 4, 0}), 0);
  EXPECT_EQ(checkedNumElements({int64_t(1) << 62, 4, 1}), std::nullopt);
  EXPECT_EQ(checkedNumElements({ShapedType::kDynamic, 4}), std::nullopt);
  EXPECT_EQ(checkedBytes(int64_t(1) << 61, 4), std::nullopt);
  EXPECT_EQ(checkedBytes(int64_t(1) << 60, 4), int64_t(1) << 62);
  EXPECT_EQ(checkedBytes(-1, 4), std::nullopt);
}

TEST_F(BufferTest, ParsesAndFormatsSizes) {
  struct Case {
    const char *text;
    uint64_t bytes;
  };
  Case good[] = {{"1", 1},
                 {"4096", 4096},
                 {"512K", 512 << 10},
                 {"512M", uint64_t(512) << 20},
                 {"2G", uint64_t(2) << 30},
                 {"2g", uint64_t(2) << 30},
                 {"1.5G", uint64_t(3) << 29},
                 {"2GiB", uint64_t(2) << 30},
                 {"2GB", uint64_t(2) << 30},
                 {"1T", uint64_t(1) << 40},
                 {" 64M ", uint64_t(64) << 20},
                 {"100B", 100}};
  for (const Case &c : good) {
    llvm::Expected<uint64_t> bytes = parseByteSize(c.text);
    ASSERT_TRUE(static_cast<bool>(bytes))
        << c.text << ": " << llvm::toString(bytes.takeError());
    EXPECT_EQ(*bytes, c.bytes) << c.text;
  }
  for (const char *bad : {"", "G", "0", "0.1", "-5", "1e3", "inf", "nan", "1Q",
                          "1.2.3G", "12 apples", "10000000E", "1GiBs"}) {
    llvm::Expected<uint64_t> bytes = parseByteSize(bad);
    EXPECT_FALSE(static_cast<bool>(bytes)) << bad;
    if (!bytes)
      llvm::consumeError(bytes.takeError());
  }
  EXPECT_EQ(formatBytes(0), "0 bytes");
  EXPECT_EQ(formatBytes(1), "1 byte");
  EXPECT_EQ(formatBytes(1023), "1023 bytes");
  EXPECT_EQ(formatBytes(1536), "1.50 KiB");
  EXPECT_EQ(formatBytes(uint64_t(3) << 30), "3.00 GiB");
  EXPECT_EQ(formatBytes(uint64_t(100) << 20), "100.0 MiB");
}

/// The limit refuses a buffer that would take the held bytes past it, with
/// the sizes in the message, and counts what buffers hold until they go.
TEST_F(BufferTest, AllocationIsGuardedByTheLimit) {
  LimitScope scope(uint64_t(1) << 20);
  uint64_t before = getHeldBytes();
  {
    llvm::Expected<Buffer> small = Buffer::allocate({256, 256}, b.getF32Type());
    ASSERT_TRUE(static_cast<bool>(small));
    EXPECT_EQ(getHeldBytes(), before + (256 << 10));
    llvm::Expected<Buffer> second =
        Buffer::allocate({1024, 256}, b.getF32Type());
    ASSERT_FALSE(static_cast<bool>(second));
    EXPECT_EQ(llvm::toString(second.takeError()),
              "tensor<1024x256xf32> needs 1.00 MiB (256.0 KiB already "
              "held); the limit is 1.00 MiB");
    // Copies are accounted too.
    Buffer copy = *small;
    EXPECT_EQ(getHeldBytes(), before + (512 << 10));
    llvm::Expected<Buffer> clone = small->clone();
    ASSERT_TRUE(static_cast<bool>(clone));
    EXPECT_EQ(clone->data, small->data);
    // Up to the limit exactly, then no further.
    llvm::Expected<Buffer> third = clone->clone();
    ASSERT_TRUE(static_cast<bool>(third));
    EXPECT_EQ(getHeldBytes(), before + (1 << 20));
    llvm::Expected<Buffer> fourth = clone->clone();
    ASSERT_FALSE(static_cast<bool>(fourth));
    llvm::consumeError(fourth.takeError());
  }
  EXPECT_EQ(getHeldBytes(), before);

  // A shape too large to count is refused, not wrapped to nothing.
  llvm::Expected<Buffer> huge =
      Buffer::allocate({int64_t(1) << 32, int64_t(1) << 32}, b.getF32Type());
  ASSERT_FALSE(static_cast<bool>(huge));
  EXPECT_EQ(llvm::toString(huge.takeError()),
            "tensor<4294967296x4294967296xf32> has more elements than a "
            "64-bit size can count");
  llvm::Expected<Buffer> large =
      Buffer::allocate({int64_t(1) << 40}, b.getF64Type());
  ASSERT_FALSE(static_cast<bool>(large));
  EXPECT_EQ(llvm::toString(large.takeError()),
            "tensor<1099511627776xf64> needs 8.00 TiB; the limit is 1.00 MiB");
}

TEST_F(BufferTest, ReservationsMoveAndRelease) {
  LimitScope scope(1000);
  uint64_t before = getHeldBytes();
  llvm::Expected<Reservation> a = Reservation::reserve(600, "a");
  ASSERT_TRUE(static_cast<bool>(a));
  llvm::Expected<Reservation> b = Reservation::reserve(600, "b");
  ASSERT_FALSE(static_cast<bool>(b));
  EXPECT_EQ(llvm::toString(b.takeError()),
            "b needs 600 bytes (600 bytes already held); the limit is 1000 "
            "bytes");
  Reservation moved = std::move(*a);
  EXPECT_EQ(moved.size(), 600u);
  EXPECT_EQ(getHeldBytes(), before + 600);
  moved.release();
  EXPECT_EQ(getHeldBytes(), before);
  {
    llvm::Expected<Reservation> all = Reservation::reserve(1000, "c");
    ASSERT_TRUE(static_cast<bool>(all));
    EXPECT_EQ(getHeldBytes(), before + 1000);
  }
  EXPECT_EQ(getHeldBytes(), before);
}

} // namespace

namespace {

/// Sets the work limit for one test and puts the default back.
struct WorkLimitGuard {
  explicit WorkLimitGuard(uint64_t limit) { setWorkLimit(limit); }
  ~WorkLimitGuard() { setWorkLimit(kDefaultWorkLimit); }
};

TEST(WorkLimit, RefusesPastTheLimitOnly) {
  WorkLimitGuard guard(1000);
  EXPECT_FALSE(errorToBool(checkWork(400, 600, /*estimate=*/true)));
  llvm::Error over = checkWork(400, 601, /*estimate=*/true);
  ASSERT_TRUE(static_cast<bool>(over));
  EXPECT_EQ(llvm::toString(std::move(over)),
            "would execute at least 1001 operations (counted per thread), "
            "more than the interpreter's work limit of 1000 "
            "(deplodock-run --work-limit)");
  llvm::Error ran = checkWork(1001, 0, /*estimate=*/false);
  ASSERT_TRUE(static_cast<bool>(ran));
  EXPECT_EQ(llvm::toString(std::move(ran)).rfind("has executed 1001 ", 0), 0u);
}

TEST(WorkLimit, CountsThatOverflowAreRefused) {
  WorkLimitGuard guard(std::numeric_limits<uint64_t>::max());
  uint64_t big = std::numeric_limits<uint64_t>::max() - 1;
  EXPECT_FALSE(errorToBool(checkWork(big, 1, /*estimate=*/true)));
  llvm::Error wrapped = checkWork(big, 2, /*estimate=*/true);
  ASSERT_TRUE(static_cast<bool>(wrapped));
  EXPECT_NE(llvm::toString(std::move(wrapped)).find("more than 2^64"),
            std::string::npos);
}

} // namespace
