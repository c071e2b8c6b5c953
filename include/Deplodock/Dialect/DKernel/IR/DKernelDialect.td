//===- DKernelDialect.td - The dkernel dialect -------------*- tablegen -*-===//

#ifndef DEPLODOCK_DIALECT_DKERNEL_DIALECT
#define DEPLODOCK_DIALECT_DKERNEL_DIALECT

include "mlir/IR/DialectBase.td"

def DKernel_Dialect : Dialect {
  let name = "dkernel";
  let cppNamespace = "::deplodock::dkernel";
  let summary = "GPU kernels built from hardware primitives";
  let description = [{
    The last level before CUDA. Every Tile IR decision is spelled as a
    hardware primitive, so the CUDA emitter prints one op at a time.

    A kernel is a `dkernel.func` at module level carrying its launch geometry
    and dynamic shared-memory size; host code in a `func.func` launches kernels
    in order with `dkernel.launch`. Inside a kernel, upstream ops are used
    where they fit: `gpu.thread_id`, `gpu.block_id`, `gpu.barrier`,
    `gpu.shuffle`, `scf`, `arith`, `math`, and `memref.load`/`memref.store` on
    global buffers (memrefs without memory space) and shared buffers (memrefs
    in `#gpu.address_space<workgroup>`). This dialect adds what upstream lacks:
    slices of the shared-memory pool, cp.async, mbarriers, TMA, warp and block
    reductions, global atomics, and tensor-core matrix ops: warp-level
    ldmatrix and mma.sync, and Hopper's warpgroup wgmma (sm_90a).

    `scf.for` loops may carry an unroll hint, `dkernel.unroll = N : i64`,
    which the dialect verifies. A module may carry the GPU it targets,
    `dkernel.target = #dkernel.target<...>`, which every level reads.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let usePropertiesForAttributes = 1;
  let extraClassDeclaration = [{
    /// Registers the types of the dialect (DKernelTypes.cpp).
    void registerTypes();
    /// Registers the attributes of the dialect (Target.cpp).
    void registerAttributes();
  }];
}

#endif // DEPLODOCK_DIALECT_DKERNEL_DIALECT
