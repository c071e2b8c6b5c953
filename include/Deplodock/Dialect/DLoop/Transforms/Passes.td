//===- Passes.td - Loop IR passes --------------------------*- tablegen -*-===//

#ifndef DEPLODOCK_DIALECT_DLOOP_TRANSFORMS_PASSES
#define DEPLODOCK_DIALECT_DLOOP_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def DLoopFuse : Pass<"dloop-fuse", "::mlir::func::FuncOp"> {
  let summary = "Fuse producer kernels into the kernels that read them";
  let description = [{
    Repeatedly picks an intermediate buffer written by one kernel and read by
    others, and replaces every read of it by the computation that produced
    the element: the producer's store index is solved for its loop variables
    (each store index is a distinct free loop variable, or 0 on a size-1
    axis), the computation is cloned at the read with those variables
    substituted, and loop invariants are hoisted so a cloned reduction runs
    once per element it produces. The producer and its buffer go away. The
    readers then read the producer's inputs where they run, so nothing
    between the producer and a reader may write or free those.

    A producer containing a reduction is not fused into a kernel that only
    copies (a broadcast) while that copy feeds other kernels: the copy fuses
    into its consumers first, and the reduction follows it there. A producer
    doing more than `reduce-heavy` operations per element it writes (a
    matmul) is never fused where that would grow the total work, that is,
    compute it twice. Casts (`extf`, `truncf`) count as no operation, so a
    half-precision softmax fuses as its f32 form does. Any other fusion is refused when it blows up work or
    reads beyond `max-blowup` times what producer and consumers did apart,
    except a prologue: a pointwise f32 producer (f16 and bf16 too with
    `half-prologues`) whose every read lies in the one reduction loop of a
    plain contraction, at an index
    some free loop around it leaves out (`silu(gate) * up` feeding a
    matmul). The Tile level stages such a computation (`stage_inputs`,
    `mma_sync` and `wgmma_async` make a `dtile.stage` with an `apply`
    region), so it runs once per element a block stages rather than once
    per product, and one kernel saves the intermediate's round trip through
    memory.
    Identical read-only computations (the same reduction reached twice) are
    merged.
  }];
  let options = [
    Option<"maxBlowup", "max-blowup", "double", "8.0",
           "Largest allowed ratio of fused to unfused work and reads">,
    Option<"reduceHeavy", "reduce-heavy", "double", "4.0",
           "Operations per written element above which a producer is never "
           "recomputed">,
    Option<"prologues", "prologues", "bool", "true",
           "Fuse pointwise producers into the contractions they feed as "
           "prologues (false: only where the work does not blow up)">,
    Option<"halfPrologues", "half-prologues", "bool", "false",
           "Also f16 and bf16 prologues (off until measured: the model "
           "estimates the fused BF16 silu_mul_matmul kernels 1.03-2.8x "
           "slower than the two they replace)">
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect"];
}

def DLoopFuseAttention : Pass<"dloop-fuse-attention", "::mlir::func::FuncOp"> {
  let summary = "Fuse softmax and the contraction it feeds by online softmax";
  let description = [{
    Attention is a softmax between two contractions. `dloop-fuse` keeps the
    softmax apart, because fusing it into the probabilities-times-values
    contraction would recompute its row maximum and sum for every output
    element. This pass removes that recomputation instead, by the online
    softmax of FlashAttention: one loop over the keys carries the running
    maximum `m`, and every sum of `exp(s - max)` (the softmax denominator,
    and each output element of the contraction, held in a private buffer
    over the head dimension, a `memref.alloca`) is rescaled by
    `exp(m_old - m_new)` whenever the maximum grows.

    For each buffer a kernel with a row maximum writes and one kernel reads,
    the reader gets the writer fused in (as `dloop-fuse` would) and the
    result is rewritten; kernels that already hold the whole chain are
    rewritten in place. Run `dloop-fuse` again afterwards: the scores kernel
    then fuses in without recomputation, leaving one kernel.

    The rewrite proves its legality on the kernel and otherwise leaves it
    alone, with a remark when the chain reached a contraction: the maximum
    may only be used as `exp(s - max)` of the very value it maximised (up
    to renaming the key loop); every exponential may only be scaled on its
    way into a sum over the same keys that starts at zero (multiplied,
    divided by, or selected against zero, by values that do not depend on
    the key, or multiplied by values that do not depend on the maximum),
    or rounded through a narrower float (`truncf`/`extf`, as half-precision
    probabilities are); factors computed from those sums (`1 / sum`) are
    applied once to the final sums. Other reductions over the same keys
    (PyTorch's "row entirely masked" test) join the loop: they are
    independent of the rescaled values, so the order of the loops does not
    matter.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect"];
}

def DLoopHoistInvariants : Pass<"dloop-hoist-invariants",
                                "::mlir::func::FuncOp"> {
  let summary = "Hoist loop-invariant code out of dloop.for loops";
  let description = [{
    Moves scalar code, loads of buffers the kernel only reads, and whole
    loops built of those out of every `dloop.for` that does not change their
    operands. Every dloop.for runs at least once, so hoisting never executes
    code that would not have run.
  }];
}

def DLoopDropUnitLoops : Pass<"dloop-drop-unit-loops", "::mlir::func::FuncOp"> {
  let summary = "Replace dloop.for loops of extent 1 by their body";
}

def DLoopWidenF8 : Pass<"dloop-widen-f8", "::mlir::func::FuncOp"> {
  let summary = "Compute arithmetic and math on 8-bit floats in f32";
  let description = [{
    Kernel IR holds f8E4M3FN and f8E5M2 values (loads, stores, copies,
    conversions) but computes nothing in them: CUDA's cuda_fp8.h types have
    no arithmetic. Each arith or math op on them (a compare, a sum, an exp)
    becomes the same op on f32 operands (`arith.extf`, exact) with each
    8-bit result rounded back (`arith.truncf`), once per op as the op itself
    rounds: exact for sums, differences and products of two 8-bit values,
    which f32 holds. Unlike upstream's arith-emulate-unsupported-floats, the
    conversions carry no `contract` flag, so canonicalization cannot drop
    the rounding between two ops.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

#endif // DEPLODOCK_DIALECT_DLOOP_TRANSFORMS_PASSES
