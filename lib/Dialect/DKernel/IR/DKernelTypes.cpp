//===- DKernelTypes.cpp - dkernel types -------------------------*- C++ -*-===//

#include "Deplodock/Dialect/DKernel/IR/DKernelTypes.h"

#include "Deplodock/Dialect/Common/Swizzle.h"
#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace deplodock::dkernel;

#define GET_TYPEDEF_CLASSES
#include "Deplodock/Dialect/DKernel/IR/DKernelTypes.cpp.inc"

void DKernelDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "Deplodock/Dialect/DKernel/IR/DKernelTypes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// TmaDescriptorType
//===----------------------------------------------------------------------===//

// <64x32xf32, swizzle = 128>
Type TmaDescriptorType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  int64_t swizzle = 0;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseComma() ||
      parser.parseKeyword("swizzle") || parser.parseEqual() ||
      parser.parseInteger(swizzle) || parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    shape, elementType, swizzle);
}

void TmaDescriptorType::print(AsmPrinter &printer) const {
  printer << '<';
  for (int64_t extent : getBoxShape())
    printer << extent << 'x';
  printer << getElementType() << ", swizzle = " << getSwizzle() << '>';
}

LogicalResult
TmaDescriptorType::verify(function_ref<InFlightDiagnostic()> emitError,
                          ArrayRef<int64_t> boxShape, Type elementType,
                          int64_t swizzle) {
  if (boxShape.empty() || boxShape.size() > 5)
    return emitError() << "a TMA box has rank 1 to 5, got " << boxShape.size();
  for (int64_t extent : boxShape)
    if (extent < 1 || extent > 256)
      return emitError() << "TMA box extent " << extent
                         << " is outside [1, 256]";
  if (!isKernelScalar(elementType) || elementType.isInteger(1))
    return emitError() << "TMA elements must be integers or floats of 1, 2, "
                          "4 or 8 bytes, got "
                       << elementType;
  if (!isSwizzleWidth(swizzle))
    return emitError() << "TMA swizzle must be 0, 32, 64 or 128 bytes, got "
                       << swizzle;
  int64_t rowBytes = boxShape.back() * getScalarBytes(elementType);
  if (rowBytes % 16 != 0)
    return emitError() << "the innermost TMA box extent spans " << rowBytes
                       << " bytes, not a multiple of 16";
  if (swizzle != 0 && rowBytes > swizzle)
    return emitError() << "the innermost TMA box extent spans " << rowBytes
                       << " bytes, more than the " << swizzle
                       << "-byte swizzle span";
  return success();
}

int64_t TmaDescriptorType::getElementBytes() const {
  return getScalarBytes(getElementType());
}

int64_t TmaDescriptorType::getBoxBytes() const {
  int64_t bytes = getElementBytes();
  for (int64_t extent : getBoxShape())
    bytes *= extent;
  return bytes;
}
