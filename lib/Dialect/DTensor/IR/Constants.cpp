//===- Constants.cpp - Tensor constants as dense elements -------*- C++ -*-===//

#include "Deplodock/Dialect/DTensor/IR/Constants.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

FailureOr<DenseElementsAttr>
deplodock::dtensor::getDenseElements(Location loc, ElementsAttr value) {
  if (auto dense = dyn_cast<DenseElementsAttr>(value))
    return dense;
  auto resource = dyn_cast<DenseResourceElementsAttr>(value);
  if (!resource)
    return emitError(loc, "a constant of kind ")
           << value << " is not supported; expected dense or dense_resource "
           << "elements";
  ShapedType type = resource.getType();
  DenseResourceElementsHandle handle = resource.getRawHandle();
  AsmResourceBlob *blob = handle.getBlob();
  if (!blob)
    return emitError(loc, "dense_resource constant '")
           << handle.getKey() << "' of type " << type
           << " has no data (was the resource elided?)";
  ArrayRef<char> data = blob->getData();
  Type element = type.getElementType();
  if (!element.isIntOrFloat())
    return emitError(loc, "dense_resource constant '")
           << handle.getKey() << "' has elements of type " << element
           << "; only integer and float elements are supported";
  // One element per (rounded-up) byte width; blobs of i1 hold a byte per
  // element where DenseElementsAttr packs bits.
  unsigned width = element.getIntOrFloatBitWidth();
  int64_t bytes = (width + 7) / 8;
  int64_t expected;
  if (llvm::MulOverflow(type.getNumElements(), bytes, expected) ||
      static_cast<int64_t>(data.size()) != expected)
    return emitError(loc, "dense_resource constant '")
           << handle.getKey() << "' holds " << data.size()
           << " bytes, which is not the data of a " << type;
  if (width == 1) {
    SmallVector<bool> bits;
    bits.reserve(data.size());
    for (char byte : data)
      bits.push_back(byte != 0);
    return DenseElementsAttr::get(type, bits);
  }
  return DenseElementsAttr::getFromRawBuffer(type, data);
}
