//===- JsonFields.cpp - Reading and writing protocol fields ---------------===//
//
// The non-template field readers and writers JsonFields.h declares.
//
//===----------------------------------------------------------------------===//

#include "JsonFields.h"

namespace deplodock::runtime::fields {

/// A double as JSON: a number, or "nan", "inf", "-inf", which JSON lacks.
Value number(double v) {
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v > 0 ? "inf" : "-inf";
  return v;
}

bool readNumber(const Value &value, double &out, Path path) {
  if (std::optional<double> v = value.getAsNumber()) {
    out = *v;
    return true;
  }
  if (std::optional<llvm::StringRef> text = value.getAsString()) {
    if (*text == "nan")
      out = NAN;
    else if (*text == "inf")
      out = INFINITY;
    else if (*text == "-inf")
      out = -INFINITY;
    else
      text.reset();
    if (text)
      return true;
  }
  path.report("expected a number");
  return false;
}

bool readDType(const Value &value, DType &out, Path path) {
  std::optional<llvm::StringRef> text = value.getAsString();
  std::optional<DType> dtype = text ? parseDType(*text) : std::nullopt;
  if (!dtype) {
    path.report("expected a dtype (f16, bf16, f32, f64, i1, i8, i16, i32, "
                "i64, f8e4m3fn, f8e5m2)");
    return false;
  }
  out = *dtype;
  return true;
}

bool readId(const Value &value, uint64_t &out, Path path) {
  std::optional<int64_t> id = value.getAsInteger();
  if (!id || *id < 0) {
    path.report("expected an integer from 0 to 9223372036854775807");
    return false;
  }
  out = static_cast<uint64_t>(*id);
  return true;
}

bool readDims(const Value &value, std::array<uint32_t, 3> &out, Path path) {
  llvm::SmallVector<uint32_t, 3> dims;
  if (!readPlainArray(&value, dims, path))
    return false;
  if (dims.size() != 3) {
    path.report("expected 3 dimensions (x, y, z)");
    return false;
  }
  std::copy(dims.begin(), dims.end(), out.begin());
  return true;
}

Value toleranceToJSON(const Tolerance &tolerance) {
  return Object{{"rtol", tolerance.rtol},
                {"atol", tolerance.atol},
                {"scale", tolerance.scale}};
}

bool readTolerance(const Value &value, Tolerance &out, Path path) {
  const Object *object = readObject(value, path);
  if (!object)
    return false;
  return optField(*object, "rtol", out.rtol, path) &&
         optField(*object, "atol", out.atol, path) &&
         optField(*object, "scale", out.scale, path);
}

} // namespace deplodock::runtime::fields
