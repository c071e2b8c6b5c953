//===- DTileDialect.td - The Deplodock tile dialect --------*- tablegen -*-===//

#ifndef DEPLODOCK_DIALECT_DTILE_DIALECT
#define DEPLODOCK_DIALECT_DTILE_DIALECT

include "mlir/IR/DialectBase.td"

def DTile_Dialect : Dialect {
  let name = "dtile";
  let cppNamespace = "::deplodock::dtile";
  let summary = "Loop nests annotated with their GPU mapping";
  let description = [{
    The third level. A `dtile.kernel` holds the loop nest of one `dloop`
    kernel together with every decision that maps it onto a GPU: which axes
    become blocks and which become threads (`dtile.tile`), which loops are
    strided across threads (`dtile.strided_for`), which slabs of an input are
    staged in shared memory and how they travel (`dtile.stage`), where
    partial results are combined across threads (`dtile.combine`), and where
    asynchronous copies must have landed (`dtile.async_wait`). Loops that stay
    sequential, loads, stores and scalar maths are the `dloop`, `arith` and
    `math` ops of the level above.

    The Tile rules that made the decisions stamp their choices on the kernel as
    a `#dtile.knobs` attribute, so printed IR shows every decision and the
    same knobs reproduce the kernel.
  }];
  let dependentDialects = ["::deplodock::dloop::DLoopDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect"];
  let useDefaultAttributePrinterParser = 1;
  let usePropertiesForAttributes = 1;
}

#endif // DEPLODOCK_DIALECT_DTILE_DIALECT
