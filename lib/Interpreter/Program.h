//===- Program.h - A function compiled for interpretation -------*- C++ -*-===//
//
// The interpreter does not walk MLIR ops directly: each function is compiled
// once into instructions whose operands are indices into a frame of slots,
// so running a body costs no hashing per op.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_LIB_INTERPRETER_PROGRAM_H
#define DEPLODOCK_LIB_INTERPRETER_PROGRAM_H

#include "Access.h"
#include "Tensors.h"

#include "Deplodock/Dialect/Common/AffineBounds.h"
#include "Deplodock/Dialect/Common/DeplodockEnums.h"
#include "Deplodock/Interpreter/Buffer.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

#include <memory>

namespace deplodock::interp {

// clang-format off
enum class Opcode : uint8_t {
  // Scalars.
  Constant,
  AddF, SubF, MulF, DivF, RemF, NegF, MaximumF, MinimumF, MaxNumF, MinNumF,
  AddI, SubI, MulI, DivSI, DivUI, RemSI, RemUI, AndI, OrI, XOrI, ShLI, ShRSI,
  ShRUI, MaxSI, MinSI, MaxUI, MinUI,
  CmpF, CmpI, Select,
  SIToFP, UIToFP, FPToSI, FPToUI, ExtF, TruncF, ExtSI, ExtUI, TruncI,
  IndexCast, IndexCastUI, Bitcast,
  Exp, Exp2, Log, Log2, Log1p, Sqrt, Rsqrt, Tanh, Erf, Sin, Cos, AbsF, AbsI,
  Fma, PowF, Floor, Ceil,
  LastScalar = Ceil,
  // Index arithmetic, which can fail (a floordiv by zero).
  AffineApply,
  // Tensors and buffers.
  DenseConstant, TensorEmpty, Elementwise, Reduce, IndexMap,
  Alloc, GetGlobal, MemLoad, MemStore,
  // Control flow.
  ScfFor, ScfIf, Return, Nop,
  // Loop IR.
  LoopKernel, LoopFor, LoopLoad, LoopStore,
  // GPU-level IR, run by the SIMT engine (Simt.h).
  TileKernel, KernelLaunch,
};
// clang-format on

/// A value of the frame: a scalar, a buffer (tensor or memref), or a tensor
/// computed when read (Tensors.h).
struct Slot {
  double s = 0;
  std::shared_ptr<Buffer> buffer;
  std::shared_ptr<LazyTensor> lazy;
};

struct Block;
namespace simt {
struct Kernel;
} // namespace simt

/// One op, with its operands and results as slot indices.
struct Instr {
  mlir::Operation *op = nullptr;
  Opcode code = Opcode::Nop;
  llvm::SmallVector<unsigned, 4> in;
  llvm::SmallVector<unsigned, 2> out;
  /// Bodies of region ops, in region order.
  llvm::SmallVector<std::unique_ptr<Block>, 1> regions;
  /// The result type (rounding), or the compared type for comparisons.
  mlir::Type type;
  /// The value of a scalar constant; the predicate of a comparison.
  double constant = 0;
  int64_t predicate = 0;
  /// The elements of a dense tensor constant or global, or of a splat.
  std::shared_ptr<Buffer> data;
  std::shared_ptr<LazyTensor> splat;
  /// A dtile.kernel or dkernel.launch compiled for the SIMT engine.
  std::shared_ptr<const simt::Kernel> simt;
  /// The index of a load or store; the extent of a dloop.for; the kind of a
  /// reducing dloop.store.
  Access access;
  int64_t extent = 0;
  std::optional<ReduceKind> reduce;
  /// dtensor.elementwise: its body run over chunks of elements, and whether
  /// its one user reads it in order (an elementwise op or a reduction in
  /// the same block), which then computes it as it reads.
  std::shared_ptr<const LaneBody> lanes;
  bool fused = false;
};

/// A compiled block: its arguments' slots, instructions, and the slots its
/// terminator yields.
struct Block {
  llvm::SmallVector<unsigned, 4> args;
  llvm::SmallVector<Instr, 0> instrs;
  llvm::SmallVector<unsigned, 2> yields;
  /// At least this many operations run each time the block runs: nested
  /// loops with the trip counts the IR fixes, a branch with its cheaper side
  /// (to refuse a loop nest the CPU would take hours over).
  uint64_t minWork = 0;
};

/// A compiled function.
struct Program {
  Block body;
  unsigned numSlots = 0;
};

/// Whether `type` is f32, without a call into MLIR (for hot paths).
inline bool isF32(mlir::Type type) {
  static const mlir::TypeID f32 = mlir::TypeID::get<mlir::Float32Type>();
  return type && type.getTypeID() == f32;
}

/// Whether values of `type` can be interpreted: a scalar of a supported
/// element type, or a statically shaped ranked tensor or memref of one (with
/// the identity layout: buffers are row-major) whose size in bytes fits in
/// int64_t.
bool isInterpretableType(mlir::Type type);
/// Why values of `type` cannot be interpreted ("which cannot be
/// interpreted"), or nullopt when they can.
std::optional<std::string> uninterpretable(mlir::Type type);

/// Compiles `func`; fails with a located error on an op the interpreter
/// cannot run.
mlir::FailureOr<std::unique_ptr<Program>> compile(mlir::Operation *func);

/// The scalar opcode of `op`, if it is a scalar op the interpreter runs.
std::optional<Opcode> scalarOpcode(mlir::Operation *op);

/// Sets what scalar op `op` adds to its opcode in `instr`: a comparison's
/// predicate and compared type, a truncf's rounding mode.
void setScalarDetails(mlir::Operation *op, Instr &instr);

/// Evaluates a scalar instruction (an opcode up to LastScalar) on operand
/// values.
double evalScalar(const Instr &instr, const double *args);

/// The signed value of a stored integer of `type` (i1 true is -1), as
/// signed comparisons and max/min see it.
int64_t signedValue(mlir::Type type, double v);

/// The identity of a reduction of `kind` on elements of `type`.
double reduceIdentity(ReduceKind kind, mlir::Type type);

/// `a` combined with `b` by `kind`, rounded to `type`, as the arith op the
/// kind stands for computes it (Deplodock/Dialect/Common/Reductions.h).
double reduceCombine(ReduceKind kind, mlir::Type type, double a, double b);

/// What reading memory nobody wrote gives, and what ub.poison is: NaN for
/// floats, 0xDEADBEEF wrapped to the width for integers.
double poisonValue(mlir::Type type);

} // namespace deplodock::interp

#endif // DEPLODOCK_LIB_INTERPRETER_PROGRAM_H
