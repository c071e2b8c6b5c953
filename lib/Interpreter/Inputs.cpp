//===- Inputs.cpp - Seeded inputs and result comparison ---------*- C++ -*-===//

#include "Deplodock/Interpreter/Interpreter.h"
#include "Program.h"

#include "mlir/IR/BuiltinTypes.h"

#include <cmath>

using namespace mlir;
using namespace deplodock::interp;

/// SplitMix64: a tiny generator whose sequence is the same everywhere, unlike
/// the distributions of the C++ standard library.
static uint64_t splitMix(uint64_t &state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

FailureOr<SmallVector<Buffer>>
deplodock::interp::randomInputs(func::FuncOp func, uint64_t seed) {
  SmallVector<Buffer> inputs;
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
    if (std::optional<std::string> why = uninterpretable(type))
      return func.emitOpError("argument #")
             << i << " has type " << type << ", " << *why;
    auto shaped = dyn_cast<ShapedType>(type);
    Type element = shaped ? shaped.getElementType() : type;
    llvm::Expected<Buffer> buffer = Buffer::allocate(
        shaped ? shaped.getShape() : ArrayRef<int64_t>(), element);
    if (!buffer)
      return func.emitOpError("cannot be interpreted within the memory "
                              "limit: argument #")
             << i << ": " << llvm::toString(buffer.takeError());
    uint64_t state = seed * 0x100000001b3ull + i;
    bool isFloat = isa<FloatType>(element), isBool = element.isInteger(1);
    for (int64_t e = 0, n = buffer->size(); e < n; ++e) {
      uint64_t bits = splitMix(state);
      double v;
      if (isFloat) {
        double unit = static_cast<double>(bits >> 11) * 0x1.0p-53;
        v = roundTo(element, 2.0 * unit - 1.0);
      } else if (isBool) {
        v = static_cast<double>(bits & 1);
      } else {
        v = static_cast<double>(bits & 7);
      }
      buffer->set(e, v);
    }
    inputs.push_back(std::move(*buffer));
  }
  return inputs;
}

Comparison deplodock::interp::compare(const Buffer &expected,
                                      const Buffer &actual, double rtol,
                                      double atol) {
  Comparison c;
  if (expected.shape != actual.shape || expected.size() != actual.size() ||
      expected.elementType != actual.elementType) {
    c.ok = false;
    c.typesMatch = false;
    return c;
  }
  double worstExcess = -1;
  for (int64_t i = 0, n = expected.size(); i < n; ++i) {
    double e = expected.get(i), a = actual.get(i);
    if (std::isnan(e) || std::isnan(a)) {
      if (std::isnan(e) != std::isnan(a)) {
        c.ok = false;
        c.worst = i;
        worstExcess = std::numeric_limits<double>::infinity();
      }
      continue;
    }
    if (e == a)
      continue; // Equal infinities too.
    double abs = std::fabs(a - e);
    double rel = e != 0 ? abs / std::fabs(e) : abs;
    c.maxAbsError = std::max(c.maxAbsError, abs);
    c.maxRelError = std::max(c.maxRelError, rel);
    double excess = abs - (atol + rtol * std::fabs(e));
    if (excess > worstExcess) {
      worstExcess = excess;
      c.worst = i;
    }
    if (excess > 0 || std::isinf(e) || std::isinf(a))
      c.ok = false;
  }
  return c;
}
