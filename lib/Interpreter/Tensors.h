//===- Tensors.h - dtensor values, held or computed when read ---*- C++ -*-===//
//
// At the Tensor level a matmul is a broadcast (dtensor.index_map) of each
// operand to the M x N x K product space, an elementwise product and a
// reduction. Holding the product space would take M N K elements, so tensor
// values are lazy where that is safe: an index map is computed from its
// sources when read (it costs index arithmetic only), and an elementwise op
// whose one user is an elementwise op or a reduction is fused into it. A
// reduction then reads its input chunk by chunk, and only tensors the
// function really holds (results, reduction outputs, values with several
// users) take memory. Chunks are evaluated lane by lane: each op of an
// elementwise body runs over a chunk of elements at once.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_LIB_INTERPRETER_TENSORS_H
#define DEPLODOCK_LIB_INTERPRETER_TENSORS_H

#include "Deplodock/Interpreter/Buffer.h"
#include "mlir/IR/Operation.h"

#include <memory>

namespace deplodock::dtensor {
class IndexMapOp;
class ReduceOp;
} // namespace deplodock::dtensor

namespace deplodock::interp {

struct Block;
struct Instr;

struct TensorValue;

/// Elements per chunk of a lazy read.
constexpr int64_t kChunk = 1024;

/// A tensor computed when read.
class LazyTensor {
public:
  LazyTensor(mlir::Operation *op, llvm::ArrayRef<int64_t> shape,
             mlir::Type elementType);
  virtual ~LazyTensor();

  /// Writes elements [start, start + count) in row-major order to `out`
  /// (count <= kChunk); fails with an error located at the op.
  virtual mlir::LogicalResult read(int64_t start, int64_t count,
                                   double *out) = 0;
  /// Whether `at` works: index maps and splats read any element cheaply;
  /// fused elementwise ops only in order.
  virtual bool hasRandomAccess() const { return false; }
  /// The element at `coords`.
  virtual mlir::FailureOr<double> at(llvm::ArrayRef<int64_t> coords);

  /// What a reduction reads as dot products (Reduce.cpp). Where the rows
  /// along the innermost axis are read linearly from an f32 array, that
  /// array, and by rowAt, per row of `n` elements from `coords` on, its
  /// offset in the array and the step to the next element.
  virtual const float *linearF32Rows() const { return nullptr; }
  virtual mlir::LogicalResult rowAt(llvm::ArrayRef<int64_t> coords, int64_t n,
                                    int64_t &at, int64_t &step);
  /// The two inputs when this is their f32 product.
  virtual std::optional<std::pair<TensorValue, TensorValue>>
  productOperands() const;

  /// The op whose result this is.
  mlir::Operation *op;
  llvm::SmallVector<int64_t, 4> shape;
  mlir::Type elementType;
  int64_t size;
};

/// A tensor value: a buffer, or lazy.
struct TensorValue {
  std::shared_ptr<Buffer> buffer;
  std::shared_ptr<LazyTensor> lazy;

  int64_t size() const { return buffer ? buffer->size() : lazy->size; }
  llvm::ArrayRef<int64_t> shape() const {
    return buffer ? llvm::ArrayRef<int64_t>(buffer->shape)
                  : llvm::ArrayRef<int64_t>(lazy->shape);
  }
  mlir::LogicalResult read(int64_t start, int64_t count, double *out) const;
};

/// An elementwise body compiled to run over chunks of lanes: values are
/// numbered locally, the body's arguments first.
struct LaneBody {
  struct Step {
    const Instr *instr;
    llvm::SmallVector<unsigned, 4> in;
    unsigned out;
  };
  unsigned numArgs = 0, numValues = 0;
  llvm::SmallVector<Step, 8> steps;
  /// The value the body yields.
  unsigned result = 0;
};

/// Compiles the scalar `body` of an elementwise op; fails (with nothing
/// reported) if it holds an op that evalScalar does not run.
mlir::FailureOr<std::shared_ptr<const LaneBody>>
compileLanes(const Block &body);

/// A tensor whose every element is `value`.
std::shared_ptr<LazyTensor> makeSplat(mlir::Operation *op,
                                      llvm::ArrayRef<int64_t> shape,
                                      mlir::Type elementType, double value);

/// The dtensor.index_map `op` over `sources`; checks the reads of linear
/// maps here, the others when read.
mlir::FailureOr<std::shared_ptr<LazyTensor>>
makeIndexMap(dtensor::IndexMapOp op, llvm::ArrayRef<TensorValue> sources);

/// The dtensor.elementwise `op` (result type `type`) running `body` over
/// `inputs`.
std::shared_ptr<LazyTensor>
makeElementwise(mlir::Operation *op, mlir::ShapedType type,
                std::shared_ptr<const LaneBody> body,
                llvm::ArrayRef<TensorValue> inputs);

/// Computes every element of `tensor` into a buffer reserved against the
/// memory limit; errors are located at `tensor.op`.
mlir::FailureOr<std::shared_ptr<Buffer>> materialize(LazyTensor &tensor);

/// Computes the dtensor.reduce `op` of `input`.
mlir::FailureOr<std::shared_ptr<Buffer>> reduce(dtensor::ReduceOp op,
                                                const TensorValue &input);

/// Reserves a buffer of `type` for the result of `op`, reporting a refusal
/// at `op`.
mlir::FailureOr<std::shared_ptr<Buffer>> allocateFor(mlir::Operation *op,
                                                     mlir::ShapedType type);

} // namespace deplodock::interp

#endif // DEPLODOCK_LIB_INTERPRETER_TENSORS_H
