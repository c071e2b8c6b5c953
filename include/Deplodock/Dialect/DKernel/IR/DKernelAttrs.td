//===- DKernelAttrs.td - dkernel attributes ----------------*- tablegen -*-===//

#ifndef DEPLODOCK_DIALECT_DKERNEL_ATTRS
#define DEPLODOCK_DIALECT_DKERNEL_ATTRS

include "Deplodock/Dialect/DKernel/IR/DKernelDialect.td"
include "mlir/IR/AttrTypeBase.td"

def DKernel_TargetAttr : AttrDef<DKernel_Dialect, "Target"> {
  let mnemonic = "target";
  let summary = "the GPU the kernels of a module are built for";
  let description = [{
    A module's `dkernel.target` attribute names the GPU its kernels run on
    and carries everything the compiler asks of it: the limits legality
    checks against (shared memory and threads per block, registers), the
    sizes heuristics scale with (the reference part's SM count and L2
    bytes), and the features code generation may use (`clusters`, `cp_async`,
    `dependent_launch`, `mma_sync`, `tma`, `wgmma`). It is set once,
    from the `target` option of the first pass or pipeline that needs it
    (`GpuTargets.td` holds the known targets), and every later pass, the
    Kernel IR verifier and the tuner read it instead of a name.

    ```mlir
    module attributes {dkernel.target = #dkernel.target<"sm_90",
        capability = 90, sm_count = 132, smem_per_block = 232448,
        smem_per_sm = 233472, threads_per_block = 1024, threads_per_sm = 2048,
        blocks_per_sm = 32, registers_per_sm = 65536,
        registers_per_thread = 255, warp_size = 32, l2_bytes = 52428800,
        features = [cp_async, mma_sync, tma]>}
    ```

    Every field is required; a test may describe a target of its own (a
    part without cp.async, say) by writing the attribute out.
  }];
  let parameters = (ins
    StringRefParameter<"the target's name (`sm_90`)">:$name,
    "int64_t":$capability,
    "int64_t":$smCount,
    "int64_t":$smemPerBlock,
    "int64_t":$smemPerSM,
    "int64_t":$threadsPerBlock,
    "int64_t":$threadsPerSM,
    "int64_t":$blocksPerSM,
    "int64_t":$registersPerSM,
    "int64_t":$registersPerThread,
    "int64_t":$warpSize,
    "int64_t":$l2Bytes,
    "uint32_t":$features);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The attribute of the known target `spec`.
    static TargetAttr get(::mlir::MLIRContext *context,
                          const ::deplodock::GpuTargetSpec &spec);
    /// The known target called `name` (GpuTargets.td), or null.
    static TargetAttr lookup(::mlir::MLIRContext *context,
                             ::llvm::StringRef name);
    /// Whether the target has `feature`.
    bool has(::deplodock::GpuFeature feature) const {
      return getFeatures() & static_cast<uint32_t>(feature);
    }
  }];
}

#endif // DEPLODOCK_DIALECT_DKERNEL_ATTRS
