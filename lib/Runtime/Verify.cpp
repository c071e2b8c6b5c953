//===- Verify.cpp - Compare GPU outputs with their reference --------------===//

#include "Deplodock/Runtime/Verify.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace deplodock::runtime;

OutputCheck deplodock::runtime::checkOutput(DType dtype,
                                            llvm::ArrayRef<uint8_t> expected,
                                            llvm::ArrayRef<uint8_t> actual,
                                            const Tolerance &tolerance) {
  OutputCheck check;
  check.tolerance = isFloat(dtype) ? tolerance : Tolerance();
  int64_t n = std::min(expected.size(), actual.size()) / dtypeSize(dtype);
  if (expected.size() != actual.size()) {
    check.ok = false;
    check.mismatches =
        std::max(expected.size(), actual.size()) / dtypeSize(dtype);
    return check;
  }
  double largest = 0;
  for (int64_t i = 0; i < n; ++i) {
    double e = readElement(dtype, expected.data(), i);
    if (std::isfinite(e))
      largest = std::max(largest, std::fabs(e));
  }
  const Tolerance &t = check.tolerance;
  double slack = t.atol + t.scale * largest;
  double worstExcess = -INFINITY;
  for (int64_t i = 0; i < n; ++i) {
    double e = readElement(dtype, expected.data(), i);
    double a = readElement(dtype, actual.data(), i);
    double excess;
    if (std::isnan(e) || std::isnan(a) || std::isinf(e) || std::isinf(a)) {
      // NaN matches NaN, an infinity the same infinity; nothing else.
      bool same = (std::isnan(e) && std::isnan(a)) || e == a;
      excess = same ? -INFINITY : INFINITY;
    } else {
      double abs = std::fabs(a - e);
      check.maxAbsError = std::max(check.maxAbsError, abs);
      check.maxRelError =
          std::max(check.maxRelError, e != 0 ? abs / std::fabs(e) : abs);
      excess = abs - (slack + t.rtol * std::fabs(e));
    }
    if (excess > 0)
      ++check.mismatches;
    if (excess > worstExcess) {
      worstExcess = excess;
      check.worst = i;
      check.expected = e;
      check.actual = a;
    }
  }
  check.ok = check.mismatches == 0;
  return check;
}

std::string deplodock::runtime::describeMismatch(const OutputCheck &check,
                                                 llvm::StringRef name,
                                                 int64_t numElements) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "output " << name << ": " << check.mismatches << " of " << numElements
     << " elements differ"
     << llvm::format(" (max abs error %.3g)", check.maxAbsError);
  // NaN as "nan" whatever its sign, so that messages are deterministic.
  auto value = [](double v) {
    std::string s;
    llvm::raw_string_ostream(s)
        << llvm::format("%.9g", std::isnan(v) ? NAN : v);
    return s;
  };
  if (check.worst >= 0)
    os << ", element " << check.worst << ": expected " << value(check.expected)
       << " got " << value(check.actual);
  return text;
}
