//===- DLoopDialect.td - The Deplodock loop dialect --------*- tablegen -*-===//

#ifndef DEPLODOCK_DIALECT_DLOOP_DIALECT
#define DEPLODOCK_DIALECT_DLOOP_DIALECT

include "mlir/IR/DialectBase.td"

def DLoop_Dialect : Dialect {
  let name = "dloop";
  let cppNamespace = "::deplodock::dloop";
  let summary = "Buffer-level loop nests, one kernel per future GPU kernel";
  let description = [{
    The second level of the Deplodock pipeline. Tensor IR is lifted to explicit
    loop nests over buffers, and fusion merges producers into consumers until
    each `dloop.kernel` is one future GPU kernel. Buffers are builtin `memref`s
    with static shapes and identity layouts; kernels sit inside a `func.func`
    over memrefs in launch order.

    * `dloop.kernel` names a kernel and binds its input and output buffers;
    * `dloop.for` is a loop from 0 to a static extent with an axis name and a
      kind: `free` (independent iterations, an output axis) or `reduce` (folds
      its iterations). Reductions are SSA values carried between iterations
      (`iter(%acc = %init : f32)`), or reducing stores into a buffer;
    * `dloop.load` and `dloop.store` access one element at an affine function
      of index values, with the syntax of `affine.load`; a store may fold the
      value into the element (`dloop.store add`);
    * a `memref.alloca` in a kernel body is a private buffer: a fresh,
      uninitialised, statically shaped local array each time it runs, so
      private to one iteration of the loops around it, which only
      `dloop.load` and `dloop.store` may touch. It holds a vector of
      accumulators that a reduce loop updates element by element (online
      softmax's per-row sums over the head dimension).

    Scalar maths is upstream `arith` and `math`; index maths is `affine.apply`
    or `arith` on `index`; conditions are `arith.select` or `scf.if`. The Tile
    level keeps these ops and adds the GPU mapping around them.

    ```mlir
    dloop.kernel @scale ins(%x = %arg0 : memref<4x8xf32>)
                        outs(%y = %arg1 : memref<4x8xf32>) {
      dloop.for %i = 0 to 4 free "i" {
        dloop.for %j = 0 to 8 free "j" {
          %v = dloop.load %x[%i, %j] : memref<4x8xf32>
          %d = arith.addf %v, %v : f32
          dloop.store %d, %y[%i, %j] : memref<4x8xf32>
        }
      }
    }
    ```
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
  let usePropertiesForAttributes = 1;
}

#endif // DEPLODOCK_DIALECT_DLOOP_DIALECT
