//===- Passes.td - Cost model passes -----------------------*- tablegen -*-===//

#ifndef DEPLODOCK_COSTMODEL_PASSES
#define DEPLODOCK_COSTMODEL_PASSES

include "mlir/Pass/PassBase.td"

def DKernelEstimate : Pass<"dkernel-estimate", "::mlir::ModuleOp"> {
  let summary = "Report the roofline model's estimate of every Kernel IR "
                "function";
  let description = [{
    Estimates every `dkernel.func` of the module with the roofline model the
    tuner's model backend and prior use (RooflineModel.h), on the reference
    GPU of the module's target, and reports it as a remark at the function:
    the estimate in microseconds and its bound, then each bound (compute,
    tensor cores, L2, DRAM, shared memory, latency), the occupancy and the
    rounds of blocks. The kernels are unchanged (a module naming no target
    records the one estimated on, as every pass reading it does). It is what
    `deplodock-tune --backend=model` would record for a variant of one
    kernel, and lets a lit test or a user see why the model prefers one
    lowering to another:

    ```
    deplodock-opt layer.mlir --lower-to-kernel=target=sm_90a --dkernel-estimate
    ```

    An estimate, never a measurement (docs/Tuner/Driver.md compares it with
    GPU measurements).
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "GPU whose reference part to estimate on (sm_80, sm_90, sm_90a); "
           "default: the module's dkernel.target, else sm_90">,
  ];
}

#endif // DEPLODOCK_COSTMODEL_PASSES
