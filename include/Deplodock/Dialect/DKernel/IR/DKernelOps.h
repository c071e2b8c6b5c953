//===- DKernelOps.h - dkernel ops -------------------------------*- C++ -*-===//

#ifndef DEPLODOCK_DIALECT_DKERNEL_IR_DKERNELOPS_H
#define DEPLODOCK_DIALECT_DKERNEL_IR_DKERNELOPS_H

#include "Deplodock/Dialect/Common/DeplodockEnums.h"
#include "Deplodock/Dialect/DKernel/IR/DKernelDialect.h"
#include "Deplodock/Dialect/DKernel/IR/DKernelTypes.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "Deplodock/Dialect/DKernel/IR/DKernelEnums.h.inc"

namespace deplodock::dkernel {

/// Whether `type` is a scalar the emitter prints as a CUDA type: i1, i8, i16,
/// i32, i64, f16, bf16, f32, f64, f8E4M3FN or f8E5M2.
bool isKernelScalar(mlir::Type type);

/// Bytes of one element of type `type`, a kernel scalar (i1 takes a byte).
int64_t getScalarBytes(mlir::Type type);

/// Whether `type` lives in shared memory (`#gpu.address_space<workgroup>`).
bool isSharedMemory(mlir::MemRefType type);

/// Whether `type` lives in global memory: it has no memory space.
bool isGlobalMemory(mlir::MemRefType type);

/// Verifies the source of a tensor-core operand read (ldmatrix, a wgmma
/// descriptor): f16 or bf16 (with `allowF8`, also f8E4M3FN or f8E5M2) in
/// shared memory, one index per dimension.
mlir::LogicalResult verifySharedMatrixSource(mlir::Operation *op,
                                             mlir::Value src,
                                             mlir::ValueRange indices,
                                             bool allowF8 = false);

/// Whether `type` is an 8-bit float wgmma multiplies (f8E4M3FN, f8E5M2).
bool isWgmmaF8(mlir::Type type);

/// Verifies that `op` is nested, at any depth, in a dkernel.func.
mlir::LogicalResult verifyInKernel(mlir::Operation *op);

/// Ops that only make sense inside a kernel.
template <typename ConcreteType>
class InKernel : public mlir::OpTrait::TraitBase<ConcreteType, InKernel> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return verifyInKernel(op);
  }
};

/// Verifies that `op` is nested in a dkernel.func or in a Tile kernel.
mlir::LogicalResult verifyInKernelOrTile(mlir::Operation *op);

/// Warp-level ops that Tile rules may place before the Kernel lowering.
template <typename ConcreteType>
class InKernelOrTile
    : public mlir::OpTrait::TraitBase<ConcreteType, InKernelOrTile> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return verifyInKernelOrTile(op);
  }
};

} // namespace deplodock::dkernel

#define GET_OP_CLASSES
#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h.inc"

#endif // DEPLODOCK_DIALECT_DKERNEL_IR_DKERNELOPS_H
