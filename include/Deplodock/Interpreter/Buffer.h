//===- Buffer.h - Values of the reference interpreter -----------*- C++ -*-===//
//
// A buffer holds the elements of a tensor or memref, row-major, each at the
// width of its element type (f32 as float, f16 and bf16 as their 16 bits,
// i8 as a byte...). The interpreter computes on doubles, rounded to the
// element type after every operation; doubles hold every f32, f16, bf16
// and integer up to 2^53 exactly, and every value a buffer stores is such a
// rounded value, so storing it at its own width loses nothing.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_INTERPRETER_BUFFER_H
#define DEPLODOCK_INTERPRETER_BUFFER_H

#include "Deplodock/Interpreter/Memory.h"
#include "Deplodock/Runtime/DType.h"
#include "mlir/IR/Types.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <cstdlib>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <vector>

namespace deplodock::interp {

/// How elements of `type` (a supported element type) are stored: as a
/// device buffer holds them (index as i64). Floats narrower than 32 bits
/// other than f16 and bf16 (the f8 and f6 formats, tf32) are stored as f32,
/// which holds each of their values; floats wider than 64 bits as f64, as
/// the interpreter computes them; other integer widths in the next wider
/// storage.
runtime::DType storageOf(mlir::Type type);

/// wrapToInt64 of a value outside (-2^63, 2^63).
int64_t wrapToInt64Slow(double v);
/// `v` truncated towards zero and wrapped modulo 2^64, as a signed integer.
/// NaNs and infinities give 0 (they only arise from poison).
inline int64_t wrapToInt64(double v) {
  // Every index and almost every integer fits: the cast truncates.
  if (v > -0x1p63 && v < 0x1p63)
    return static_cast<int64_t>(v);
  return wrapToInt64Slow(v);
}

/// The elements of a buffer, at their own width, read and written as
/// doubles. Indexing a non-const array gives a reference that converts on
/// assignment, as std::vector<bool> does.
class ElementArray {
public:
  ElementArray() = default;
  /// `count` zeroed elements.
  ElementArray(runtime::DType storage, int64_t count, Reservation reservation);
  ElementArray(const ElementArray &other);
  ElementArray &operator=(const ElementArray &other);
  ElementArray(ElementArray &&other) = default;
  ElementArray &operator=(ElementArray &&other) = default;

  runtime::DType storage() const { return kind; }
  int64_t size() const { return count; }
  bool empty() const { return count == 0; }

  double get(int64_t i) const {
    using runtime::DType;
    switch (kind) {
    case DType::I1:
      return as<uint8_t>()[i];
    case DType::I8:
      return as<int8_t>()[i];
    case DType::I16:
      return as<int16_t>()[i];
    case DType::I32:
      return as<int32_t>()[i];
    case DType::I64:
      return static_cast<double>(as<int64_t>()[i]);
    case DType::F16:
      return runtime::halfBitsToDouble(as<uint16_t>()[i]);
    case DType::BF16:
      return runtime::bf16BitsToDouble(as<uint16_t>()[i]);
    case DType::F32:
      return as<float>()[i];
    case DType::F64:
      return as<double>()[i];
    case DType::F8E4M3FN:
    case DType::F8E5M2:
      return runtime::f8BitsToDouble(kind, as<uint8_t>()[i]);
    }
    return 0;
  }
  /// Stores `v`, a value of the element type (integers are wrapped to the
  /// width, floats rounded to nearest).
  void set(int64_t i, double v);
  /// Sets every element to `v`.
  void fill(double v);
  /// The elements as doubles.
  std::vector<double> values() const;
  /// Copies elements [from, from + n) into `out` as doubles, and back.
  void read(int64_t from, int64_t n, double *out) const;
  void write(int64_t from, int64_t n, const double *values);

  /// The elements as `T` (which must match the storage).
  template <typename T> T *as() { return static_cast<T *>(bytes.get()); }
  template <typename T> const T *as() const {
    return static_cast<const T *>(bytes.get());
  }

  /// A reference to one element.
  class Ref {
  public:
    Ref(ElementArray &array, int64_t i) : array(array), i(i) {}
    operator double() const { return array.get(i); }
    Ref &operator=(double v) {
      array.set(i, v);
      return *this;
    }
    Ref &operator=(const Ref &other) { return *this = double(other); }

  private:
    ElementArray &array;
    int64_t i;
  };
  Ref operator[](int64_t i) { return Ref(*this, i); }
  double operator[](int64_t i) const { return get(i); }

  /// Iterates the elements as doubles.
  class const_iterator {
  public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = double;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = double;
    const_iterator(const ElementArray *array, int64_t i) : array(array), i(i) {}
    double operator*() const { return array->get(i); }
    double operator[](difference_type n) const { return array->get(i + n); }
    const_iterator &operator++() {
      ++i;
      return *this;
    }
    const_iterator operator++(int) { return const_iterator(array, i++); }
    const_iterator &operator--() {
      --i;
      return *this;
    }
    const_iterator &operator+=(difference_type n) {
      i += n;
      return *this;
    }
    const_iterator operator+(difference_type n) const {
      return const_iterator(array, i + n);
    }
    difference_type operator-(const const_iterator &other) const {
      return i - other.i;
    }
    bool operator==(const const_iterator &other) const { return i == other.i; }
    bool operator!=(const const_iterator &other) const { return i != other.i; }
    bool operator<(const const_iterator &other) const { return i < other.i; }

  private:
    const ElementArray *array;
    int64_t i;
  };
  const_iterator begin() const { return const_iterator(this, 0); }
  const_iterator end() const { return const_iterator(this, count); }

  /// Sets the elements to `values` (as many as there are elements).
  ElementArray &operator=(std::initializer_list<double> values);
  bool operator==(const ElementArray &other) const;
  bool operator!=(const ElementArray &other) const { return !(*this == other); }

private:
  struct Free {
    void operator()(void *p) const { std::free(p); }
  };
  runtime::DType kind = runtime::DType::F64;
  int64_t count = 0;
  std::unique_ptr<void, Free> bytes;
  Reservation reservation;
};

/// The elements of one tensor or memref.
struct Buffer {
  Buffer() = default;
  /// A zeroed buffer of a shape its caller knows to be small enough: its
  /// bytes count toward the memory limit but are never refused (the
  /// interpreter itself uses allocate).
  Buffer(llvm::ArrayRef<int64_t> shape, mlir::Type elementType);
  /// A zeroed buffer reserved against the memory limit; fails when the shape
  /// is too large to count or the limit would be exceeded, naming the
  /// buffer `what` (default: its tensor type).
  static llvm::Expected<Buffer> allocate(llvm::ArrayRef<int64_t> shape,
                                         mlir::Type elementType,
                                         llvm::StringRef what = "");
  /// A copy reserved against the memory limit.
  llvm::Expected<Buffer> clone() const;

  int64_t size() const { return data.size(); }
  double get(int64_t i) const { return data.get(i); }
  void set(int64_t i, double v) { data.set(i, v); }

  llvm::SmallVector<int64_t, 4> shape;
  mlir::Type elementType;
  ElementArray data;
};

/// Rounds `v` to a value of `type`, as the hardware would store it: floats to
/// their precision, integers truncated towards zero, wrapped to their width
/// and sign extended (i8 200 is -56), except i1, which is 0 or 1.
double roundTo(mlir::Type type, double v);

/// Whether buffers and scalars of `type` can be interpreted: floats,
/// integers up to 64 bits, index.
bool isSupportedElementType(mlir::Type type);

} // namespace deplodock::interp

#endif // DEPLODOCK_INTERPRETER_BUFFER_H
