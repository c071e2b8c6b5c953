//===- VectorAccessOps.cpp - 64/128-bit loads and stores --------*- C++ -*-===//
//
// vector_load and vector_store: one thread's aligned run of 4, 8 or 16
// bytes, moved between a buffer and registers in one access.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dkernel;

/// Verifies one thread's run of `values` (their types) at `buffer[indices]`:
/// one index per dimension, the buffer's element type, 4 (two elements), 8
/// or 16 bytes inside one innermost row, and a constant innermost index a
/// multiple of the run.
static LogicalResult verifyRun(Operation *op, Value buffer, ValueRange indices,
                               TypeRange values) {
  auto type = cast<MemRefType>(buffer.getType());
  if (indices.size() != static_cast<size_t>(type.getRank()) ||
      type.getRank() == 0)
    return op->emitOpError("expected ")
           << type.getRank() << " indices, one per dimension, got "
           << indices.size();
  Type element = type.getElementType();
  if (llvm::any_of(values, [&](Type t) { return t != element; }))
    return op->emitOpError("every element must be the buffer's ") << element;
  int64_t count = static_cast<int64_t>(values.size());
  int64_t bytes = count * getScalarBytes(element);
  if ((bytes != 4 || count != 2) && bytes != 8 && bytes != 16)
    return op->emitOpError("moves ")
           << bytes << " bytes (" << count << " x " << element
           << "); it must move 8 or 16, or 4 in two elements";
  if (type.getShape().back() % count != 0)
    return op->emitOpError("runs of ")
           << count << " elements do not tile the innermost dimension of "
           << type;
  if (std::optional<int64_t> inner = getConstantIntValue(indices.back()))
    if (*inner % count != 0 || *inner < 0 ||
        *inner + count > type.getShape().back())
      return op->emitOpError("innermost index ")
             << *inner << " is not the start of an aligned run of " << count
             << " inside the row";
  return success();
}

LogicalResult VectorLoadOp::verify() {
  return verifyRun(*this, getSrc(), getIndices(), getResultTypes());
}

LogicalResult VectorStoreOp::verify() {
  return verifyRun(*this, getDst(), getIndices(), getValues().getTypes());
}
