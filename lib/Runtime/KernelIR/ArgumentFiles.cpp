//===- ArgumentFiles.cpp - A function's arguments from .npy files ---------===//

#include "Deplodock/Runtime/ArgumentFiles.h"
#include "Deplodock/Interpreter/BufferIO.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace deplodock;

/// What .npy files an argument of element type `type` is read from.
static std::string acceptedFiles(Type type) {
  if (type.isBF16())
    return "a bf16 argument is read from uint16 or int16 .npy holding its "
           "bits, or from float32 rounded to bf16";
  if (isa<Float8E4M3FNType, Float8E5M2Type>(type)) {
    std::string text;
    llvm::raw_string_ostream(text)
        << "an argument of " << type
        << " is read from uint8 or int8 .npy holding its bits, or from "
           "float32 rounded to "
        << type;
    return text;
  }
  if (type.isIndex())
    return "an index argument is read from int64 .npy";
  std::string name;
  if (type.isF16())
    name = "float16";
  else if (type.isF32())
    name = "float32";
  else if (type.isF64())
    name = "float64";
  else if (type.isInteger(1))
    name = "bool";
  else if (auto integer = dyn_cast<IntegerType>(type))
    name = "int" + std::to_string(integer.getWidth());
  else
    return "no .npy holds it";
  std::string text;
  llvm::raw_string_ostream(text)
      << "an argument of " << type << " is read from " << name << " .npy";
  return text;
}

llvm::Expected<interp::Buffer>
runtime::readArgumentFile(func::FuncOp func, unsigned index, StringRef path) {
  // A scalar argument is a 0-d array.
  Type type = func.getArgumentTypes()[index];
  Type elementType = getElementTypeOrSelf(type);
  ArrayRef<int64_t> shape;
  if (auto shaped = dyn_cast<ShapedType>(type))
    shape = shaped.getShape();
  std::string error;
  FailureOr<interp::Buffer> buffer =
      interp::readNpy(path, func.getContext(), error);
  if (failed(buffer))
    return llvm::createStringError("cannot read " + path + ": " + error);
  interp::adaptElementType(*buffer, elementType);
  if (ArrayRef<int64_t>(buffer->shape) == shape &&
      buffer->elementType == elementType)
    return std::move(*buffer);
  std::string text;
  llvm::raw_string_ostream os(text);
  os << path << " holds "
     << RankedTensorType::get(buffer->shape, buffer->elementType)
     << " but argument #" << index << " of @" << func.getSymName() << " is "
     << type;
  if (buffer->elementType != elementType)
    os << " (" << acceptedFiles(elementType) << ")";
  return llvm::createStringError(text);
}

llvm::Expected<SmallVector<interp::Buffer>>
runtime::readArgumentFiles(func::FuncOp func, ArrayRef<std::string> paths) {
  if (paths.size() != func.getNumArguments())
    return llvm::createStringError(
        llvm::formatv("@{0} takes {1} arguments, got {2} --input files",
                      func.getSymName(), func.getNumArguments(), paths.size())
            .str());
  SmallVector<interp::Buffer> buffers;
  for (auto [i, path] : llvm::enumerate(paths)) {
    llvm::Expected<interp::Buffer> buffer = readArgumentFile(func, i, path);
    if (!buffer)
      return buffer.takeError();
    buffers.push_back(std::move(*buffer));
  }
  return buffers;
}
