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

#endif // DEPLODOCK_CONVERSION_PASSES
