//===- DTensorDialect.td - The Deplodock tensor dialect ----*- tablegen -*-===//

#ifndef DEPLODOCK_DIALECT_DTENSOR_DIALECT
#define DEPLODOCK_DIALECT_DTENSOR_DIALECT

include "mlir/IR/DialectBase.td"

def DTensor_Dialect : Dialect {
  let name = "dtensor";
  let cppNamespace = "::deplodock::dtensor";
  let summary = "Value-semantics tensor IR built from three primitives";
  let description = [{
    The first level of the Deplodock pipeline. A model layer is expressed with
    three primitives on ranked, statically shaped tensors:

    * `dtensor.elementwise` applies a scalar body pointwise;
    * `dtensor.reduce` folds axes with add, mul, max or min;
    * `dtensor.index_map` moves data: every output coordinate reads a source
      at an affine function of the coordinate, optionally guarded by a
      predicate. Transpose, broadcast, reshape, slice, concat, pad and causal
      masks are all index maps.

    `dtensor.gather` is the one read at data-dependent coordinates (embedding
    lookups). A matmul is `reduce(add, elementwise(mul, index_map(A), index_map(B)))`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
  let usePropertiesForAttributes = 1;
}

#endif // DEPLODOCK_DIALECT_DTENSOR_DIALECT
