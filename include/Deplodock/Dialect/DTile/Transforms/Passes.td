//===- Passes.td - Tile IR passes --------------------------*- tablegen -*-===//

#ifndef DEPLODOCK_DIALECT_DTILE_TRANSFORMS_PASSES
#define DEPLODOCK_DIALECT_DTILE_TRANSFORMS_PASSES

include "Deplodock/Dialect/DTile/Rules.td"
include "mlir/Pass/PassBase.td"

def DTileTileify : Pass<"dtile-tileify", "::mlir::ModuleOp"> {
  let summary = "Turn dloop.kernel ops into dtile.kernel ops";
  let description = [{
    The outer chain of free loops of each kernel becomes the block axes of a
    `dtile.tile`, one thread per block: a legal launch every rule refines.
  }];
  let dependentDialects = ["::deplodock::dtile::DTileDialect"];
}

def DTileLower : Pass<"dtile-lower", "::mlir::ModuleOp"> {
  let summary = "Lower every dloop.kernel to Tile IR through all the rules";
  let description = [{
    Tileifies each kernel, then runs every Tile rule in pipeline order
    (DTileRules.md). At each fork an option chooser picks one of the rule's
    legal options: the option `knobs` names, else the chooser of whoever
    built the pipeline, by default the rule's heuristic. The chosen knobs
    end up on each kernel, so the printed IR records every decision and the
    same knobs reproduce it.

    With `simplest`, a fork that `knobs` does not decide takes its simplest
    option instead (simplestOption: serial reductions, no register tiles,
    no staging, no unrolling): the reference GPU results are checked
    against when the CPU interpreter would be too slow. Replaying a tuning
    database is a chooser the tuner provides: see the `tune-db` option of
    the lower-to-tile pipeline.

    The module's `dkernel.target` names the GPU; `target` sets it when the
    module has none. FP32 contractions stay f32 unless the module has the
    unit attribute `dtile.tf32`, which `precision=tf32` sets (and
    `precision=ieee` clears): mma_sync may then run them on tf32 tensor
    cores.
  }];
  let options = !listconcat(TileRuleOptionList, [
    Option<"simplest", "simplest", "bool", "false",
           "Take the simplest option at every fork knobs does not decide "
           "(the reference lowering)">,
    Option<"precision", "precision", "std::string", "\"\"",
           "Precision of FP32 contractions: ieee, or tf32 to allow TF32 "
           "tensor cores (sets the module's dtile.tf32); default: the "
           "module's">
  ]);
  let dependentDialects = ["::deplodock::dtile::DTileDialect",
                           "::deplodock::dkernel::DKernelDialect",
                           "::deplodock::dloop::DLoopDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // DEPLODOCK_DIALECT_DTILE_TRANSFORMS_PASSES
