//===- Passes.td - Tile IR passes --------------------------*- tablegen -*-===//

#ifndef DEPLODOCK_DIALECT_DTILE_TRANSFORMS_PASSES
#define DEPLODOCK_DIALECT_DTILE_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

/// Options every Tile-rule pass takes.
defvar TileRuleOptionList = [
  Option<"target", "target", "std::string", "\"sm_90\"",
         "GPU to lower for: sm_80 or sm_90">,
  Option<"knobs", "knobs", "std::string", "\"\"",
         "Choose options by knob value (BK=32,stage=[0:1],...; "
         "`kernel:BK=32;other:...` per kernel); default: option 0">,
  Option<"listForks", "list-forks", "bool", "false",
         "Emit a remark listing the rule's options for each kernel">
];
class TileRuleOptions {
  list<Option> options = TileRuleOptionList;
}

class TileRulePass<string arg, string rule, string what>
    : Pass<arg, "::mlir::ModuleOp">, TileRuleOptions {
  let summary = "Tile rule " # rule # ": " # what;
  let description = [{
    Runs one Tile rule on every `dtile.kernel` it applies to: lists the
    rule's legal options for the kernel and the target, applies the one the
    `knobs` option names (else option 0, the heuristic) and stamps its knobs
    on the kernel. `list-forks` reports the options as a remark.
  }];
  let dependentDialects = ["::deplodock::dtile::DTileDialect",
                           "::deplodock::dloop::DLoopDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect"];
}

def DTileTileify : Pass<"dtile-tileify", "::mlir::ModuleOp"> {
  let summary = "Turn dloop.kernel ops into dtile.kernel ops";
  let description = [{
    The outer chain of free loops of each kernel becomes the block axes of a
    `dtile.tile`, one thread per block: a legal launch every rule refines.
  }];
  let dependentDialects = ["::deplodock::dtile::DTileDialect"];
}

def DTileChunkMatmulK : TileRulePass<"dtile-chunk-matmul-k", "chunk_matmul_k",
    "split a matmul's K loop into chunks (fork BK)">;
def DTileSplitMatmulK : TileRulePass<"dtile-split-matmul-k", "split_matmul_k",
    "deal a matmul's K chunks to blocks that add their sums atomically "
    "(fork split_k)">;
def DTileCooperativeReduce : TileRulePass<"dtile-cooperative-reduce",
    "cooperative_reduce", "threads share each row's reduction (fork threads)">;
def DTileBlockifyLaunch : TileRulePass<"dtile-blockify-launch",
    "blockify_launch", "choose the block's share of the output "
    "(fork BM, BN or block_threads)">;
def DTileChunkReduce : TileRulePass<"dtile-chunk-reduce", "chunk_reduce",
    "chunk a reduction over an input threads share">;
def DTileRegisterTile : TileRulePass<"dtile-register-tile", "register_tile",
    "deal a matmul tile to threads of FM x FN outputs (fork FM, FN)">;
def DTileStageInputs : TileRulePass<"dtile-stage-inputs", "stage_inputs",
    "stage shared input slabs in shared memory (fork: which inputs)">;
def DTilePermuteRegisterTile : TileRulePass<"dtile-permute-register-tile",
    "permute_register_tile",
    "interleave register-tile columns against bank conflicts (fork: permute / keep)">;
def DTilePadSmem : TileRulePass<"dtile-pad-smem", "pad_smem",
    "pad shared slab rows against bank conflicts (fork: pad / no pad)">;
def DTileDoubleBuffer : TileRulePass<"dtile-double-buffer", "double_buffer",
    "rotate chunk stages through two shared slabs (fork: apply / skip)">;
def DTileAsyncCopy : TileRulePass<"dtile-async-copy", "async_copy",
    "copy chunk stages with cp.async, sm_80+ (fork: apply / skip)">;
def DTileTmaCopy : TileRulePass<"dtile-tma-copy", "tma_copy",
    "copy chunk stages with TMA and mbarriers, sm_90+ (fork: apply / skip)">;
def DTileSplitInnerForSwizzle : TileRulePass<"dtile-split-inner-for-swizzle",
    "split_inner_for_swizzle", "swizzle TMA slabs in segments of the swizzle "
    "width (fork: none / 32 / 64 / 128 bytes)">;
def DTilePipelineKOuter : TileRulePass<"dtile-pipeline-k-outer",
    "pipeline_k_outer", "stage the next chunk before computing this one "
    "(fork: apply / skip)">;
def DTileMarkUnroll : TileRulePass<"dtile-mark-unroll", "mark_unroll",
    "mark inner loops for unrolling (fork: factor)">;

def DTileLower : Pass<"dtile-lower", "::mlir::ModuleOp"> {
  let summary = "Lower every dloop.kernel to Tile IR through all the rules";
  let description = [{
    Tileifies each kernel, then runs every Tile rule in pipeline order,
    choosing at each fork the option `knobs` names, else option 0. The
    chosen knobs end up on each kernel, so the printed IR records every
    decision and the same knobs reproduce it.

    With `tune-db`, a fork that `knobs` does not decide takes the choice the
    tune database recorded for the kernel at that point (its structural key
    and the knobs chosen so far) in the context `tune-context` names, else
    option 0: what `deplodock-tune` found replays in one lookup per fork.
    `tune-report` remarks, per kernel, whether it was tuned, partly tuned or
    not tuned.

    With `simplest`, a fork that `knobs` does not decide takes its simplest
    option instead (simplestOption: serial reductions, no register tiles,
    no staging, no unrolling): the reference GPU results are checked
    against when the CPU interpreter would be too slow.
  }];
  let options = !listconcat(TileRuleOptionList, [
    Option<"tuneDb", "tune-db", "std::string", "\"\"",
           "Replay the choices recorded in this tune database "
           "(deplodock-tune writes it)">,
    Option<"tuneContext", "tune-context", "std::string", "\"\"",
           "Context to replay: a context key, `model` (the model's context "
           "for the target) or `auto` (the default: the one GPU measured "
           "for the target, else the model)">,
    Option<"tuneReport", "tune-report", "bool", "false",
           "Remark, for each kernel, how many forks replay decided">,
    Option<"simplest", "simplest", "bool", "false",
           "Take the simplest option at every fork knobs does not decide "
           "(the reference lowering)">
  ]);
  let dependentDialects = ["::deplodock::dtile::DTileDialect",
                           "::deplodock::dloop::DLoopDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // DEPLODOCK_DIALECT_DTILE_TRANSFORMS_PASSES
