//===- Passes.td - Lowerings between Deplodock levels ------*- tablegen -*-===//

#ifndef DEPLODOCK_CONVERSION_PASSES
#define DEPLODOCK_CONVERSION_PASSES

include "mlir/Pass/PassBase.td"

def ConvertToDTensor : Pass<"convert-to-dtensor", "::mlir::ModuleOp"> {
  let summary = "Import linalg, tensor, arith and math on tensors into dtensor";
  let description = [{
    Rewrites a model layer written on tensors into the three dtensor
    primitives. Named linalg ops are generalized first (softmax decomposed);
    a `linalg.generic` becomes index maps that lay each operand out over the
    iteration domain, an elementwise body, and, with reduction iterators, a
    reduce and a combine with the initial value. Tensor reshapes, slices,
    concat and pad become index maps; arith and math on tensors become
    elementwise ops; splat constants become elementwise ops without operands,
    other dense constants (weights) stay. Conditions on `linalg.index` values
    become predicated index maps (causal masks).

    Anything else — dynamic shapes, ops on tensors it does not know — is a
    located error naming the op; nothing is left half converted. TOSA input
    is first lowered by the upstream tosa-to-linalg pipelines (the
    `lower-to-tensor` pipeline runs them).
  }];
  let dependentDialects = [
    "::deplodock::dtensor::DTensorDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def ConvertDTensorToDLoop
    : Pass<"convert-dtensor-to-dloop", "::mlir::ModuleOp"> {
  let summary = "Lift each dtensor op into a one-op dloop.kernel over buffers";
  let description = [{
    Gives every tensor a buffer and every dtensor op a kernel of its own:
    function arguments and results become memrefs, intermediate tensors
    `memref.alloc`s, dense constants `memref.global`s. An elementwise op
    becomes a nest of free loops that loads its operands, runs the body and
    stores; a reduce op free loops over the kept axes around reduce loops
    carrying the accumulator; an index map free loops whose loads use the
    op's affine maps, with `scf.if` on the predicates. Size-1 axes get no
    loop. Splat constants and iota constants read by a kernel become scalar
    code. `dloop-fuse` then merges the kernels.
  }];
  let dependentDialects = [
    "::deplodock::dloop::DLoopDialect",
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

#endif // DEPLODOCK_CONVERSION_PASSES
