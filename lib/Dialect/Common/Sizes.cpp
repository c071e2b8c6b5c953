//===- Sizes.cpp - Element counts that cannot overflow --------------------===//

#include "Deplodock/Dialect/Common/Sizes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

std::optional<int64_t>
deplodock::checkedNumElements(llvm::ArrayRef<int64_t> shape) {
  if (llvm::any_of(shape, [](int64_t s) { return s < 0; }))
    return std::nullopt;
  // A zero extent empties the shape whatever the others multiply to.
  if (llvm::is_contained(shape, 0))
    return 0;
  int64_t n = 1;
  for (int64_t s : shape)
    if (llvm::MulOverflow(n, s, n))
      return std::nullopt;
  return n;
}
