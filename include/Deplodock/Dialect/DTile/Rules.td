//===- Rules.td - The Tile rules and their knobs -----------*- tablegen -*-===//
//
// Every Tile rule and every knob it sets, declared once. From this file
// deplodock-tblgen generates the knob table `#dtile.knobs` verifies against,
// its typed accessors (`knobs.getBK()`), one struct per rule holding its
// knobs (`ChunkMatmulKKnobs`), the rule registry in pipeline order, one pass
// per rule (mlir-tblgen makes the pass declarations and docs/Passes) and the
// reference docs/Dialects/DTileRules.md.
//
// Adding a rule takes three places: a TileRule record here (with its knobs,
// and its name in TileRulePipeline), its .cpp under lib/Dialect/DTile/
// Transforms (the legal options, the heuristic and the rewrite, see
// Rules.h), and its test under test/Dialect/DTile.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_DIALECT_DTILE_RULES
#define DEPLODOCK_DIALECT_DTILE_RULES

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Knobs
//===----------------------------------------------------------------------===//

/// The kind of value a knob holds: the C++ type its accessors return.
class KnobKind<string kindName, string kindCppType> {
  string name = kindName;
  string cppType = kindCppType;
}
def KnobInt : KnobKind<"Int", "int64_t">;
def KnobBool : KnobKind<"Bool", "bool">;
def KnobIntList : KnobKind<"IntList", "::llvm::ArrayRef<int64_t>">;

/// How much machinery a value of an integer knob asks for, as the simplest
/// chooser (the reference lowering) counts it. A true boolean counts one
/// and a list its length, whatever this says.
class KnobCost<string costName> {
  string name = costName;
}
/// Tile shapes and chunk sizes: nothing.
def KnobCostNone : KnobCost<"None">;
/// Counts of threads, of values one thread holds, of loop body copies, of
/// blocks sharing a sum: one per doubling.
def KnobCostLog2 : KnobCost<"Log2">;
/// One for any value but zero (a swizzle permutes every read).
def KnobCostNonZero : KnobCost<"NonZero">;

/// A knob: a decision a rule stamps on a kernel. An integer (or each item
/// of a list) lies in [min, max]; `optional` knobs are set by some options
/// of their rule only.
class Knob<string knobName, KnobKind knobKind, string knobSummary,
           int knobMin = 0, int knobMax = 2147483647,
           KnobCost knobCost = KnobCostNone> {
  string name = knobName;
  KnobKind kind = knobKind;
  string summary = knobSummary;
  int min = knobMin;
  int max = knobMax;
  KnobCost cost = knobCost;
  bit optional = 0;
}

/// A knob only some options of its rule set.
class OptionalKnob<string knobName, KnobKind knobKind, string knobSummary,
                   int knobMin = 0, int knobMax = 2147483647,
                   KnobCost knobCost = KnobCostNone>
    : Knob<knobName, knobKind, knobSummary, knobMin, knobMax, knobCost> {
  let optional = 1;
}

//===----------------------------------------------------------------------===//
// Rules
//===----------------------------------------------------------------------===//

/// Options every Tile-rule pass takes.
defvar TileRuleOptionList = [
  Option<"target", "target", "std::string", "\"\"",
         "GPU to lower for: a GpuTargets.td name (sm_80, sm_90, sm_90a); "
         "default: the module's dkernel.target, else sm_90">,
  Option<"knobs", "knobs", "std::string", "\"\"",
         "Choose options by knob value, in #dtile.knobs syntax "
         "(BK=32,stage=[0,1],...; `kernel:BK=32;other:...` per kernel); "
         "default: the heuristic's choice">,
  Option<"listForks", "list-forks", "bool", "false",
         "Emit a remark listing the rule's options for each kernel">
];

/// A Tile rule, which is also the pass running it alone. `ruleName` is how
/// the rule is named in remarks and docs; the record name, less its `DTile`
/// prefix, names its C++ class (`DTileChunkMatmulK`: ChunkMatmulK, made by
/// createChunkMatmulKRule, its knobs in ChunkMatmulKKnobs). `forks` shows
/// the remark `list-forks` prints for a typical kernel.
class TileRule<string passArg, string rule, string what,
               list<Knob> ruleKnobs>
    : Pass<passArg, "::mlir::ModuleOp"> {
  string ruleName = rule;
  list<Knob> knobs = ruleKnobs;
  string forks = ?;
  let summary = "Tile rule " # rule # ": " # what;
  let options = TileRuleOptionList;
  let dependentDialects = ["::deplodock::dtile::DTileDialect",
                           "::deplodock::dkernel::DKernelDialect",
                           "::deplodock::dloop::DLoopDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def DTileWgmmaAsync : TileRule<"dtile-wgmma-async", "wgmma_async",
    "map a half-precision (each operand K- or MN-major) or 8-bit float (both "
    "K-major) matmul onto warpgroup wgmma.mma_async fed by TMA (fork: wgmma "
    "or not, warpgroups, N)", [
  Knob<"wgmma", KnobBool,
       "the matmul runs on warpgroup tensor cores (wgmma.mma_async)">,
  OptionalKnob<"warpgroups", KnobInt,
               "warpgroups per block of a wgmma matmul, 64 rows each", 1, 4>,
  OptionalKnob<"wgmma_n", KnobInt,
               "N of a wgmma matmul's m64nNk16 (m64nNk32 for 8-bit floats) "
               "instruction: the block's columns", 8, 256>,
  OptionalKnob<"wgmma_split_k", KnobInt,
               "blocks sharing the K chunks of one wgmma block tile, whose "
               "partial sums a second kernel adds in order (absent: 1, no "
               "split)", 2, 64, KnobCostLog2>]> {
  let description = [{
    Applies, on a target with the `wgmma` feature (sm_90a), to a matmul
    kernel without threads whose one reduce loop sums, in f32 from zero,
    products of an element of two inputs (extended or not), both f16, both
    bf16 or both 8-bit floats (f8E4M3FN or f8E5M2, either each), with
    the two innermost output axes as M and N, A K-major (indexed [..., M,
    K]) or MN-major ([..., K, M]: a transposed activation) and B K-major
    ([..., N, K]: a linear layer's weight held N x K) or MN-major ([..., K,
    N]: `x @ W`), 8-bit operands K-major only (wgmma has no transpose for
    them), other dimensions constants or batch axes; K must end its
    dimension of each source. Where it does not apply,
    list-forks says why, and knob wgmma=true is an error saying why. Option
    `wgmma=false` leaves the kernel to mma_sync and the SIMT rules; the
    others give each block
    `warpgroups` x 128 threads, each warpgroup 64 rows and `wgmma_n`
    columns of f32 accumulators, and per K chunk of 128 bytes (64 halves,
    128 8-bit floats) stage both
    operands' slabs by TMA with the 128-byte swizzle (zero-filled past M, N
    and K; an MN-major slab is 64 K rows by the block's M or N, in 64-wide
    128-byte segments, or the 64-byte swizzle at `wgmma_n` 32), wait on
    their mbarriers, and issue four m64nNk16 (8-bit: m64nNk32)
    wgmma.mma_async per warpgroup
    through matrix descriptors of those slabs (an MN-major operand read
    transposed, its LBO the stride between segments), then commit and wait (double_buffer and pipeline_k_outer may rotate
    the slabs, prefetching the next chunk's). The slabs' swizzle is part of the layout the
    descriptors describe, so the rule also decides split_inner_for_swizzle
    (swizzle = 128; asking for another swizzle with wgmma=true is an
    error). The epilogue (conversion to the output type, residual,
    activation...) runs on each accumulator at the row and column of the
    warpgroup layout, its stores guarded where the block overhangs M or N.
    Legal where TMA can copy both slabs (boxes inside the sources, but for
    M, which may end inside the last warpgroup's 64 rows, TMA zero-filling
    the rest: N at least wgmma_n, K at least one chunk, rows a multiple of 16
    bytes), they fit in shared memory and a thread's
    wgmma_n / 2 f32 accumulators plus 32 registers (addresses, descriptors,
    epilogue) fit in its share of the registers, min(registers_per_thread,
    registers_per_sm / threads): warpgroups 1, 2, 4 and wgmma_n 32, 64,
    128, 192, 256 (on sm_90a not 4 x 256, whose 512 threads get 128
    registers each); wgmma=false last. With `wgmma_split_k` = S (split-K: few output
    tiles, a long K) the K chunks are dealt to S blocks along a new
    outermost block axis `<k>_s`, each a contiguous range of chunks; each
    stores its f32 accumulators to a workspace `memref.alloc` of [S, block
    extents...] instead of running the epilogue, and a second kernel,
    `@<kernel>_split_sum`, created already mapped as split_matmul_k's,
    sums the splits in order, then runs the epilogue (residual, activation,
    the rounding, the store) once. Listed after each block tile whose
    blocks give the SMs fewer than one block or 4 warps each: S a power of
    two in [2, 64] dividing the chunk count and leaving each split 4 chunks
    or more, where nothing reads the outputs, the tile writes memory only
    after its loop and the workspace has at most 2^31 - 1 elements.
    Heuristic (tiles with N a power of two, but N = 192 where it rounds the
    waves of an unsplit N = 256 default, one block an SM: 396 tiles of
    128 x 192 fill three rounds of 132 SMs for Qwen gate_proj s512 where
    296 of 128 x 256 leave the third a quarter full, 1.19x on the H200,
    and TinyLlama's 120 against 88 blocks, 1.18x; as a smaller tile's
    replacement it lost, 0.65-0.78x; bench/results/forks-h200-2026-11-28.md):
    wgmma;
    the largest block tile of 8192 accumulators or more whose own blocks
    give half the SMs one, unsplit (on the H200, 64 x 128
    and 128 x 64 tiles beat 128 x 256 tiles split 4 or 8 ways by 1.2-2.1x
    on the suite's M = 128 and 512 GEMMs: the split's second kernel and
    workspace cost more; bench/results/forks-h200-2026-11-27b.md); else the
    largest block tile that still fills half the SMs (else the one with
    most blocks), counting each tile's blocks times the split it would
    take (none where the tile already gives half the SMs a block and every
    SM 4 warps; else the fewest giving 7/8 of the SMs a block and every SM
    4 warps, else the most); ties to 2 warpgroups. A 32-row activation
    thus runs on one warpgroup, split (1.28x faster than mma_sync over the
    suite's seven 32-token BF16 GEMMs on the H200). But a 128-row tile
    split 8 ways with fewer than 8 chunks a split takes the 64 x 256 tile
    split 4 ways where that makes 64 blocks or more (H200: 1.17x and 1.26x
    on TinyLlama's and Qwen's q_proj at s128, 1.00x on Qwen's kv_proj at
    s512; bench/results/forks-h200-2026-11-28b.md).
  }];
  let forks = "wgmma_async: (warpgroups, wgmma, wgmma_n, wgmma_split_k) in "
              "{(2, true, 256, 8)*, (1, true, 32), (1, true, 32, 2), ..., "
              "(false)}";
}

def DTileMmaSync : TileRule<"dtile-mma-sync", "mma_sync",
    "map a half-precision (or, with precision=tf32, f32) matmul onto "
    "warp-level mma.sync (fork: tensor cores or SIMT, warp tile, warps, K "
    "step, slab layout)", [
  Knob<"tensor_cores", KnobBool,
       "the matmul runs on tensor cores (mma.sync) rather than SIMT">,
  OptionalKnob<"WM", KnobInt, "rows of a warp's mma.sync tile", 16, 64>,
  OptionalKnob<"WN", KnobInt, "columns of a warp's mma.sync tile", 8, 64>,
  OptionalKnob<"warps", KnobInt, "warps per block of an mma.sync matmul", 1,
               8>,
  OptionalKnob<"mma_k", KnobInt, "K step of an mma.sync matmul's chunk loop",
               16, 64>,
  OptionalKnob<"mma_pad", KnobBool,
               "pad an mma.sync matmul's slab rows by 16 bytes, so that the "
               "eight rows of an ldmatrix fall in distinct banks">,
  OptionalKnob<"mma_swizzle", KnobBool,
               "XOR-swizzle the 16-byte chunks of an mma.sync matmul's slab "
               "rows by row, so that the eight rows of an ldmatrix fall in "
               "distinct banks without padding">,
  OptionalKnob<"mma_split_k", KnobInt,
               "blocks sharing the K steps of one mma.sync block tile, whose "
               "partial sums a second kernel adds in order (absent: 1, no "
               "split)", 2, 64, KnobCostLog2>]> {
  let description = [{
    Applies, on a target with the `mma_sync` feature, to a matmul kernel
    without threads whose one reduce loop sums products of an f16 or bf16
    element of two inputs (extended to f32 or not), or of an f32 element
    where the module allows tf32 (`dtile.tf32`, set by precision=tf32),
    starting at zero, with
    the two innermost output axes as M and N and each operand's matrix
    dimensions innermost. Option `tensor_cores=false` leaves the kernel to
    the SIMT rules; the others give each block warps x 32 threads, each warp
    a WM x WN tile of m16n8k16 mma.sync tiles (the warps in a grid of two
    rows for 2 and 4 warps, four for 8), stage mma_k-deep slabs of both
    operands per step of the K loop (zero-filled past M, N and K) and read
    them with ldmatrix (transposed where the matrix lies the other way);
    f32 operands run as tf32 m16n8k8 tiles instead, each fragment element
    read with a scalar slab load (ldmatrix moves 16-bit elements only).
    Products sum in f32 whatever the IR's accumulator type; the epilogue
    (conversion, residual, scale, SiLU...) runs on each accumulator, its
    stores guarded where the block tile overhangs. Rows a multiple of 128
    bytes apart would put the eight rows of one ldmatrix in the same banks
    (pad_smem sees only scalar slab reads), so the slabs take one of three
    layouts: with mma_swizzle each slab whose rows allow it is held in the
    segments of the widest stage swizzle (32, 64 or 128 bytes, see
    dtile.stage), its 16-byte chunks XORed with the row, which costs no
    shared memory; with mma_pad the slab rows are 16 bytes longer; with
    neither they are plain. Legal: warp tiles 16x8, 32x16, 32x32, 64x32, 1,
    2, 4 or 8 warps, mma_k 16, 32, 64, dropping tiles more than twice the
    rounded-up extents, each swizzled (where some slab can be), padded or
    plain; tensor_cores=false last. Heuristic: tensor cores, mma_k 32 (or
    the largest legal), the largest block tile that still fills half the
    SMs, then 4 warps, swizzled, else padded. With `mma_split_k` = S the
    K steps are split as wgmma_async's `wgmma_split_k` splits its chunks
    (a workspace and `@<kernel>_split_sum`), listed after each option
    whose blocks give the SMs fewer than one block or 4 warps each, for a
    sum in f32; the heuristic counts each tile with the split it would
    take, as wgmma_async's does.
  }];
  let forks = "mma_sync: (WM, WN, mma_k, mma_pad, mma_split_k, mma_swizzle, "
              "tensor_cores, warps) in {(32, 32, 32, false, true, true, 4)*, "
              "(16, 8, 16, false, true, true, 1), (16, 8, 32, false, 2, true, "
              "true, 1), ..., (false)}";
}

def DTileChunkMatmulK : TileRule<"dtile-chunk-matmul-k", "chunk_matmul_k",
    "split a matmul's K loop into chunks (fork BK)", [
  Knob<"BK", KnobInt, "K chunk of a matmul loop", 1>]> {
  let description = [{
    Each matmul reduce loop over K becomes a loop over ceil(K / BK) chunks
    around a loop over BK, so that stage_inputs can stage one chunk of each
    operand per outer iteration. Legal: BK in [16, 128] leaving two chunks
    or more, dividing every K or a power of two (the last chunk is then
    masked). Heuristic: rows of a multiple of 8 floats, then an exact chunk,
    then the closest to 32, then the longer.
  }];
  let forks = "chunk_matmul_k: BK in {32*, 16, 64, 128}";
}

def DTileSplitMatmulK : TileRule<"dtile-split-matmul-k", "split_matmul_k",
    "deal a matmul's K chunks to blocks that add their sums atomically or "
    "through an f32 workspace (fork split_k, split_workspace)", [
  Knob<"split_k", KnobInt, "blocks sharing one K range (1: no split)", 1,
       2147483647, KnobCostLog2>,
  OptionalKnob<"split_workspace", KnobBool,
               "the split blocks write their partial sums to a workspace "
               "that a second kernel sums in a fixed order, applying the "
               "epilogue (absent: atomic adds into the zeroed output)">]> {
  let description = [{
    Applies to a matmul whose K loop is chunked and not yet dealt to threads
    and that does not read its outputs. The chunk loop is dealt to split_k
    blocks along a new outermost block axis `<k>_s`; the partial sums meet
    in one of two ways.
    Atomic (no `split_workspace`): the stores become atomic adds into
    outputs the kernel zeroes first. Only for an epilogue linear in the sum
    storing to f32 or f64 outputs: atomics into an f16 or bf16 output would
    accumulate the partial sums in half precision.
    Workspace (`split_workspace = true`): each split stores its f32 (or
    f64) sums to a workspace `memref.alloc` of [split_k, block extents...],
    and a second kernel, `@<kernel>_split_sum`, created already mapped
    (the output points' innermost axes over up to 256 threads, masked),
    sums the splits in order, applies the epilogue (any pointwise one:
    SiLU, products, the rounding to f16 or bf16) and stores the outputs.
    Where the output rows hold whole runs of 4 f32 columns, a thread sums
    4 adjacent columns: one float4 read of the workspace per split (the
    split loop unrolled) and one vector store of the 4 outputs where the
    output allows it; the sums, in f32 and split 0 first, are unchanged.
    Deterministic, and legal for half outputs; not for a sum kept in f16 or
    bf16. The workspace must hold at most 2^31 - 1 elements.
    Legal: 1 (no split) and, for each divisor of the chunk count up to 64
    leaving two chunks or more per split, the atomic and the workspace
    option where they apply. Heuristic: split atomically where the output
    holds fewer than two 128 x 128 tiles (blockify_launch's preferred size)
    an SM, 8 ways (the most measured), or more where 64 x 64 tiles would
    leave most SMs idle, into the fewest splits that fill them once. On the
    H200, 8 splits were the fastest of 1, 2, 4 and 8 on seven of eight such
    FP32 GEMMs (1.00-1.62x over none; 0.98x on the eighth), and the
    workspace measured no faster than the atomics (0.98-1.03x), so it is
    never the default (bench/results/forks-h200-2026-11-28.md).
  }];
  let forks = "split_matmul_k: (split_k, split_workspace) in {8*, 1, 2, "
              "(2, true), 4, (4, true), (8, true), 16, (16, true), 32, "
              "(32, true)}";
}

def DTileCooperativeReduce : TileRule<"dtile-cooperative-reduce",
    "cooperative_reduce", "threads share each row's reduction (fork threads)", [
  Knob<"threads", KnobInt, "threads cooperating on one reduction row", 1, 1024,
       KnobCostLog2>,
  OptionalKnob<"rows", KnobInt, "reduction rows per block, each with its own "
               "`threads` threads (absent: 1)", 2, 1024, KnobCostLog2>]> {
  let description = [{
    For reductions that are not matmuls (norms, softmax, row sums), T
    threads reduce each row: every top-level reduce loop becomes a loop
    strided over them followed by a combine, and thread 0 stores combined
    values. With rows = R a block holds R rows (the innermost block axis
    split into blocks of R, a thread axis before `t`), each reduced by its
    own T threads: short rows then need not leave a block of one warp, or
    of many barriers, per row. Legal: powers of two from 32 up to the
    longest row (rounded up) and the block's limit, then 1 (one thread per
    row, which blockify_launch then groups); for T >= 32, R a power of two
    dividing the innermost block axis with T x R at most 512. Heuristic:
    for rows shorter than 512 one row a block, the row length rounded up to
    a power of two within [32, 256] threads, but rows of 65 to 128 two a
    block of 64 threads each (H200, FP32 softmax over rows of 128: 1.29x and
    1.30x over one row of 128 threads; bench/results/forks-h200-2026-11-28b.md);
    from 512, one row a block, 8 elements a thread, within [64, 256] (H100:
    softmax rows of 512 took 47.0 us with 256 threads, 29.5 with 64).
  }];
  let forks = "cooperative_reduce: (rows, threads) in {256*, 32, 64, 128, "
              "512, 1, (2, 32), ..., (16, 32), (2, 64), ..., (2, 256)}";
}

def DTileAttentionBlocks : TileRule<"dtile-attention-blocks",
    "attention_blocks", "deal an online softmax's query rows to threads and "
    "step its keys in blocks (fork BQ, BKV, split_kv, split_kv_blocks)", [
  Knob<"BQ", KnobInt, "query rows per block of an attention kernel, one per "
       "thread", 1, 1024, KnobCostLog2>,
  Knob<"BKV", KnobInt, "keys per step of an attention kernel's key loop",
       1>,
  Knob<"split_kv", KnobInt, "threads sharing the keys of one query row of "
       "an attention kernel (1: no split)", 1, 32, KnobCostLog2>,
  OptionalKnob<"split_kv_blocks", KnobInt, "blocks sharing the key steps of "
               "one query row of an attention kernel, whose partial softmaxes "
               "a second kernel merges (absent: 1, no split)", 2, 64,
               KnobCostLog2>]> {
  let description = [{
    Applies to an online-softmax kernel (dloop-fuse-attention's: a private
    buffer of head-dimension accumulators rescaled at every step of the loop
    over the keys) without threads yet. Each block gets BQ query rows, taken
    from the innermost output axes (the queries, then the heads), masked
    where they do not divide; the key loop becomes a loop over blocks of BKV
    keys around a loop over one block (the last one masked), whose K and V
    rows the block's threads share, so that stage_inputs can stage them.
    With split_kv = 1 a thread owns a row. With split_kv = S > 1 (decoding:
    few query rows leave a block of one thread per row nearly empty) S
    threads, neighbouring lanes on a new innermost thread axis `kv`, share
    a row, thread s taking keys s, s + S, ... of each step with its own
    running maximum, sum and accumulators; after the key loop they merge
    exactly, as the online softmax merges partial results: M = max m_s,
    c_s = exp(m_s - M) (0 for a thread that saw only masked keys),
    L = sum l_s c_s and A[d] = sum a_s[d] c_s, in f32, by dtile.combine; the
    row's first thread stores A[d] / L. A read the key loop repeats for
    every key (the thread's query row: a global load indexed only by the
    head-dimension loop around it and values from outside the key loop,
    under the row mask if any) is read once instead, into a private buffer
    over the head dimension filled before the key loop, which mark_unroll
    keeps in registers; the arithmetic and its order are unchanged.
    Legal: BQ a warp or more, powers of
    two up to the rows, 256 and the block's limit (every row in one block
    when there are fewer than a warp); BKV every key (one step) or a power
    of two in [16, 128] below the key count; split_kv 1, and where a head
    has at most 64 query rows or the rows in all fill fewer than four warps
    per SM (4 x 32 x the target's SMs), and the loop carries just the
    running maximum and sum, powers of two up to 32 and BKV with
    BQ x split_kv at most 256 threads (BQ may then also be a power of two
    below a warp, when the block's threads fill one); and where a thread's
    row buffers take 512 bytes or more (attention_split_d's rows, 8 threads
    a row), BQ = 16 with split_kv 1 for more than 16 rows.
    With split_kv_blocks = B (flash-decoding: few rows, many keys) the key
    steps are dealt to B blocks along a new outermost block axis `<k>_s`,
    each a contiguous range of steps; each block stores its partial softmax
    (m, l and a[d], after split_kv's merge if any) to f32 workspace
    `memref.alloc`s of [B, block extents...] and [B, block extents..., d]
    instead of the output, and a second kernel, `@<kernel>_kv_merge`,
    created already mapped (a thread per query row, as split_matmul_k's sum
    kernel), merges them in order: M = max m_s, c_s = exp(m_s - M) (0 where
    m_s = -inf: a split whose keys are all masked for a row), L = sum l_s c_s,
    A[d] = sum a_s[d] c_s, then runs the kernel's own epilogue (A[d] / L,
    the rounding, the store). The kernel's masks stay on the global key, so
    causal and additive masks, GQA head maps and odd key lengths hold per
    split, and causal_bound bounds each split's steps. Legal for each
    stepped option with BQ at most the rows: B a divisor in [2, 64] of the
    step count, where a head has at most 64 query rows, the loop carries
    just the f32 running maximum and sum and one static row of f32
    accumulators, nothing before it writes other memory, nothing reads the
    outputs, and each workspace has at most 2^31 - 1 elements. Not on
    attention_mma's tensor-core kernel (a `knobs=` request there is an
    error). Heuristic: for decoding (at most 16 queries per head, or at
    most 128 rows in all, as a single query per head leaves) a warp per row
    and a row per block; else split_kv the power of two closest to four
    warps per SM over the rows (1 where they fill them: a thread per row on
    too few warps left the GPU idle) and 64 rows per block, fewer where
    that passes 256 threads; then 32 keys; never split_kv_blocks (no GPU
    measurement yet). But rows of 512 bytes of accumulators or more (head
    dim 128 in f32, past a thread's registers with the query row) in heads
    of 128 query rows or more take 32 rows and 32 keys, one thread a row's
    keys, where attention_split_d then shares each row among 8 threads
    (H200, Qwen's FP32 sdpa and naive attention at s128 and s512: 2.04-2.71x
    over the next choice; bench/results/forks-h200-2026-11-28b.md); where
    it cannot, 32 rows, 64 keys and 8 threads a row's keys (1.73x and 1.09x
    over the rest of the rule; bench/results/forks-h200-2026-11-28.md).
  }];
  let forks = "attention_blocks: (BKV, BQ, split_kv, split_kv_blocks) in "
              "{(32, 8, 32)*, (37, 32, 1), ..., (16, 32, 1, 3), ..., "
              "(32, 16, 16, 2)}";
}

def DTileAttentionSplitD : TileRule<"dtile-attention-split-d",
    "attention_split_d", "share each query row of an attention kernel by its "
    "head dimension among threads (fork: 1 / 4 / 8 / 16 threads)", [
  Knob<"split_d", KnobInt, "threads sharing the head dimension of one query "
       "row of an attention kernel, each holding every split_d-th element of "
       "its query and accumulators (1: no split)", 1, 32, KnobCostLog2>]> {
  let description = [{
    After attention_blocks, a thread that owns a query row holds its query
    and its accumulators: two head dimensions of registers, 256 at head
    dimension 128 in f32, more than a thread has (nvcc spills and keeps no
    load in flight). With split_d = H, H threads, neighbouring lanes on a new
    innermost thread axis `hd`, share each row: lane h keeps elements h,
    h + H, ... of every private head-dimension buffer (the query row, the
    accumulators), every loop over a head dimension walks the lane's
    elements (consecutive lanes reading consecutive elements of a key or
    value row), and a loop summing over one (q.k) ends in a dtile.combine
    over the lanes that gives each the whole score. The online softmax's
    maximum and sum are then computed alike by every lane of the row, and
    each lane rescales and stores its own accumulators: the dot product is
    summed in another order, the rest is unchanged. Legal where a thread's
    private buffers, each a row of at least two elements a lane that H
    divides, take more than its register budget with 24 more registers (as
    the cost model counts: head dimension 128 in f32, not 64, nor a 16-bit
    query row), and are read and written only at the variable of a loop
    over their extent; no such loop is inside another or holds a combine
    (split_kv's merge), one that sums starts from its identity and is under
    no condition that differs between threads, and every store to memory is
    in one, indexed by its variable; with the block's threads times H a
    whole number of warps within the target's limit. Options 1, then 4, 8
    and 16; list-forks says why not. Heuristic: the split closest to 8
    lanes (H200, Qwen's FP32 sdpa and naive attention at s128 and s512, 32
    rows and 32 keys a block: 2.04-2.71x over 64-key steps split 8 ways
    over the keys, 4 and 16 lanes 1.82-2.73x and 1.97-2.24x with 16-key
    steps; bench/results/forks-h200-2026-11-28b.md).
  }];
  let forks = "attention_split_d: split_d in {8*, 1, 4, 16}";
}

def DTileAttentionRows : TileRule<"dtile-attention-rows", "attention_rows",
    "deal several query rows of an attention kernel to each thread, which "
    "then reads each key and value element once for all of them (fork: 1 / "
    "2 / 4 rows)", [
  Knob<"rows_per_thread", KnobInt, "query rows each thread of an attention "
       "kernel owns, reading each key and value element once for all of "
       "them", 1, 8, KnobCostLog2>]> {
  let description = [{
    After attention_blocks (and attention_split_d) each thread owns one
    query row, so each key or value element it reads from a slab feeds one
    multiply-add: a shared load a multiply-add, a quarter of what the FP32
    pipes could do. With rows_per_thread = R the block's rows axis shrinks
    R times and the tile body is unrolled and jammed over R rows: thread t
    owns rows t, t + BQ / R, ... of the block; every loop becomes one loop
    holding the R rows' bodies, carrying their values R times over (a row's
    running maximum and sum, a q.k partial sum), and an operation that
    computes the same for every row (a key or value element's load, an
    index) is emitted once, so that one load feeds R multiply-adds. Each
    row's arithmetic and its order are unchanged. Legal on an online
    softmax whose threads own whole rows' keys (split_kv = 1; split_d's
    lanes are kept), R dividing the rows of a block, the remaining threads
    whole warps, and R rows' private buffers with 24 registers within a
    thread's budget. Options 1, then 2 and 4; list-forks says why not.
    Heuristic: 1 (no GPU measurement yet).
  }];
  let forks = "attention_rows: rows_per_thread in {1*, 2, 4}";
}

def DTileAttentionMma : TileRule<"dtile-attention-mma", "attention_mma",
    "run a half-precision online softmax's q.k^T and p.v on warp-level "
    "mma.sync (fork: tensor cores or SIMT, warps, key block)", [
  Knob<"attention_tensor_cores", KnobBool,
       "the attention kernel runs on tensor cores (mma.sync) rather than "
       "SIMT">,
  OptionalKnob<"attention_warps", KnobInt,
               "warps per block of an mma.sync attention kernel, 16 query "
               "rows each", 1, 4>,
  OptionalKnob<"attention_bkv", KnobInt,
               "keys per step of an mma.sync attention kernel", 16, 64>,
  OptionalKnob<"attention_swizzle", KnobBool,
               "XOR-swizzle the 16-byte chunks of an mma.sync attention "
               "kernel's k and v slab rows by row, so that the eight rows of "
               "an ldmatrix fall in distinct banks without padding">]> {
  let description = [{
    Applies, on a target with the `mma_sync` feature, to an online-softmax
    kernel (dloop-fuse-attention's) without threads whose q, k and v are all
    f16 or all bf16, whose head dimension is a multiple of 16 and innermost
    in q (k and v may hold it either way), and whose probabilities are
    rounded to that type before p.v (as the examples' bmm on half
    probabilities says). The FlashAttention-2 schedule: each block holds
    `attention_warps` warps, each owning 16 query rows (threads
    `warp` x `g` 8 x `t` 4, lane = 4 g + t); q is staged once and kept in
    registers as mma.sync A fragments; each step stages `attention_bkv` keys
    of k and v (zero-filled past the end), computes S = q k^T with m16n8k16
    mma.sync from ldmatrix'd fragments (k's and v's two 8-column B
    fragments at a time, by ldmatrix x4), applies the kernel's own score code
    (scale, causal and additive masks) to each accumulator at the query row
    and key the fragment layout gives it (-inf past the keys), folds the row
    maximum over the four lanes sharing a row (dtile.combine over `t`),
    rescales the f32 output accumulators by exp(m - m'), and multiplies the
    probabilities, rounded to the half type in registers, as the A operand of
    p.v (the C fragments of two key tiles are the A fragment of one
    16-key step) by v read with ldmatrix.trans. After the loop the row sums
    are combined and the kernel's own epilogue (division by the sum,
    conversion, store) runs on each accumulator, guarded past the queries.
    causal_bound later ends the key steps at the block's diagonal. With
    attention_swizzle the k and v slabs are held in the segments of the
    widest stage swizzle their rows allow (32, 64 or 128 bytes, see
    dtile.stage), their 16-byte chunks XORed with the row: rows of 64 or
    more bytes (a head of 32 or more half values) would otherwise put the
    eight rows of an ldmatrix in the same banks. It costs no shared memory.
    Legal: 1, 2 or 4 warps and 16, 32 or 64 keys per step, dropping blocks
    more than twice the rounded-up queries or keys, each swizzled (where a
    slab can be) and plain; tensor_cores=false (left to attention_blocks)
    last.
    Heuristic: tensor cores, 4 warps (or the most below twice the queries),
    64 keys (or the most legal), swizzled where a slab can be.
  }];
  let forks = "attention_mma: (attention_bkv, attention_swizzle, "
              "attention_tensor_cores, attention_warps) in {(64, true, true, "
              "4)*, (16, true, true, 1), (16, false, true, 1), ..., (false)}";
}

def DTileBlockifyLaunch : TileRule<"dtile-blockify-launch",
    "blockify_launch", "choose the block's share of the output "
    "(fork BM, BN or block_threads)", [
  OptionalKnob<"BM", KnobInt, "output rows per block", 1>,
  OptionalKnob<"BN", KnobInt, "output columns per block", 1>,
  OptionalKnob<"block_threads", KnobInt,
               "threads per block of a kernel that is not a matmul", 1, 1024>]> {
  let description = [{
    Applies to a kernel without threads yet. A matmul gets a BM x BN tile
    of its two innermost output axes per block (two free loops walk it,
    which register_tile deals to threads): powers of two (and the extent
    itself when small), masked where they do not divide. Any other kernel
    gets `block_threads` threads taken from its innermost output axes: warps
    up to the element count. Heuristic: the largest tile wasting at most a
    quarter of its outputs that keeps half the SMs busy; 256 threads.
  }];
  let forks = "blockify_launch: (BM, BN) in {(32, 128)*, (32, 256), ..., "
              "(1, 32)}; blockify_launch: block_threads in {256*, 32, 64, "
              "128, 512, 1024}";
}

def DTileChunkReduce : TileRule<"dtile-chunk-reduce", "chunk_reduce",
    "chunk a reduction over an input threads share", [
  Knob<"chunk", KnobInt, "chunk of a staged reduction", 1>]> {
  let description = [{
    A reduction computed one output per thread (cooperative_reduce chose
    one thread per row) that reads an input every thread shares, such as
    the vector of a matrix-vector product, is split into chunks whose shared
    slab fits in 8 KB, so that stage_inputs stages it a chunk at a time. No
    fork: the longest of 128, 64, ..., 8 that fits every loop.
  }];
  let forks = "chunk_reduce: chunk in {128*}";
}

def DTileRegisterTile : TileRule<"dtile-register-tile", "register_tile",
    "deal a matmul tile to threads of FM x FN outputs (fork FM, FN)", [
  Knob<"FM", KnobInt, "rows held per thread", 1, 2147483647, KnobCostLog2>,
  Knob<"FN", KnobInt, "columns held per thread", 1, 2147483647,
       KnobCostLog2>]> {
  let description = [{
    The BM x BN outputs blockify_launch gave a block become
    (BM / FM) x (BN / FN) threads of FM x FN outputs each, the body unrolled
    and jammed so that a value loaded once feeds several products. Legal:
    powers of two up to 16 with at most 64 outputs per thread, whose
    accumulators fit the registers and whose thread count fits a block (32
    at least, unless the tile is smaller). Options are listed by
    preference, the heuristic's first: about 256 threads, then the
    squarest per-thread tile (a search trying a few options of the fork at
    a time meets the likely ones first).
  }];
  let forks = "register_tile: (FM, FN) in {(4, 4)*, (2, 8), (8, 2), ..., (16, 4)}";
}

def DTileStageInputs : TileRule<"dtile-stage-inputs", "stage_inputs",
    "stage shared input slabs in shared memory (fork: which inputs)", [
  Knob<"stage", KnobIntList, "inputs staged in shared memory, by position">]> {
  let description = [{
    Inside each chunk of a chunked reduction, an input several threads read
    is copied once into shared memory and read there. Legal: every subset
    of such inputs whose slabs fit in shared memory (with 1 KB left for
    combines), most inputs (then most bytes) first, ending with none.
    Heuristic: the first, staging the most.
  }];
  let forks = "stage_inputs: stage in {[0, 1]*, [1], [0], []}";
}

def DTilePermuteRegisterTile : TileRule<"dtile-permute-register-tile",
    "permute_register_tile",
    "interleave register-tile columns against bank conflicts "
    "(fork: permute / keep)", [
  Knob<"permute", KnobBool, "bank-conflict remap of register-tile columns">]> {
  let description = [{
    register_tile gives a thread FN adjacent columns, so the lanes of a warp
    read a slab FN words apart. Interleaving the columns instead (thread n
    takes j * T + n) puts neighbouring lanes on neighbouring words. Applies
    only where the bank-conflict analysis of the slab reads says it helps.
    Heuristic: keep where vector_reads can deal the columns in runs instead
    (its 4 x 4 sub-tiles are conflict-free and read a vector at a time: on
    the H200, FP32 GEMMs 0.98-1.14x faster kept and read as vectors, geomean
    1.09x over 10, bench/results/forks-h200-2026-11-28.md), but where 16
    or more K splits add the output atomically (interleaved, a warp's
    atomics land on adjacent words: TinyLlama and Qwen kv_proj at s32 and
    s128, split 28-32 ways, ran 1.2-1.5x faster permuted in the suite runs
    of 2026-11-27 and -28 on the H200); else permute.
  }];
  let forks = "permute_register_tile: permute in {false*, true}";
}

def DTileTransposeA : TileRule<"dtile-transpose-a", "transpose_a",
    "hold a slab read a column per thread (A's) transposed "
    "(fork: skip / apply)", [
  Knob<"transpose_a", KnobBool,
       "A's slab is held [BK][BM], a thread's FM rows adjacent">]> {
  let description = [{
    register_tile gives a thread FM rows of A, which it reads down a column
    of A's [BM][BK] slab at each K step. Holding that slab transposed
    (`dtile.stage ... transpose`, [BK][BM]) makes the FM rows adjacent, so
    vector_reads reads them as 128-bit (float4) vectors too. The stage
    still reads the source along its rows (coalesced along K) and scatters
    each element to its transposed place; pad_smem pads the slab rows
    against the bank conflicts of that write. Legal for synchronous,
    unpadded stages (its place in the pipeline: before any transport or
    layout is chosen) of 4-byte elements, every read of which is a
    dloop.load whose innermost index names no thread coordinate and the
    one before it some (a slab column per thread); later rules respect it:
    async_copy copies it 4 bytes at a time, tma_copy, vector_copy and
    split_inner_for_swizzle leave it alone. list-forks says why a kernel
    has no such slab. Heuristic: apply where a thread holds FM >= 8 rows of
    A, skip below (H200, FP32: FM = 8 GEMMs 1.04-1.07x faster transposed,
    FM = 4 ones 0.86-0.95x).
  }];
  let forks = "transpose_a: transpose_a in {false*, true}";
}

def DTileVectorReads : TileRule<"dtile-vector-reads", "vector_reads",
    "read register-tile columns of a slab as 8/16-byte vectors "
    "(fork: skip / apply)", [
  Knob<"vector_reads", KnobBool,
       "register-tile slab reads move 16 or 8 bytes a load">]> {
  let description = [{
    Where permute_register_tile kept a thread's FN columns adjacent, the FN
    scalar reads of a slab row become one 128-bit (or 64-bit) shared read
    per run of W columns (`dkernel.vector_load`, float4 for f32). With FN
    wider than W the columns are first dealt in runs of W (thread n takes
    q * W * T + W * n + r: 4 x 4 sub-tiles over the warp for FN = 8), so a
    quarter-warp's reads cover 32 consecutive words. Legal where the
    slab's (padded) rows and the read's innermost index coefficients and
    base are multiples of W. A's rows, a slab column per thread, stay
    scalar unless transpose_a held A's slab transposed: then a thread's FM
    rows at one K are adjacent and form runs too, also where
    permute_register_tile interleaved B's columns (B's reads stay scalar
    then). Heuristic: apply (H200, FP32 GEMMs with the columns kept:
    0.98-1.14x, geomean 1.09x over 10; bench/results/forks-h200-2026-11-28.md).
  }];
  let forks = "vector_reads: vector_reads in {true*, false}";
}

def DTileVectorStores : TileRule<"dtile-vector-stores", "vector_stores",
    "store adjacent output columns as 4/8/16-byte vectors (fork: skip / "
    "apply)", [
  Knob<"vector_stores", KnobBool,
       "output stores of adjacent columns move 16, 8 or 4 bytes a store">]> {
  let description = [{
    A thread's plain stores of W adjacent output elements become one
    128-bit, 64-bit or (two 16-bit elements) 32-bit global store
    (`dkernel.vector_store`, float4 for f32; a tensor-core fragment's pairs
    of adjacent bf16 columns). Legal for non-reducing stores (split-K's
    atomics stay scalar) into an output of static row-major shape whose
    rows are a multiple of W, at an innermost index whose coefficients
    (those of non-linear terms such as a fragment's `(thread floordiv 4) *
    8` too) and base are multiples of W. Stores each alone in a guard of
    the same condition (the rows of a tile that overhangs M) pair under the
    last one's guard. Interleaved columns (permute_register_tile) form no
    run. Heuristic: skip (H200, FP32 GEMMs behind vector reads: 0.99-1.02x,
    mixed; bench/results/forks-h200-2026-11-28.md; the tensor-core
    epilogues' pairs are not measured yet).
  }];
  let forks = "vector_stores: vector_stores in {false*, true}";
}

def DTilePadSmem : TileRule<"dtile-pad-smem", "pad_smem",
    "pad shared slab rows against bank conflicts (fork: pad / no pad)", [
  Knob<"pad", KnobBool, "pad shared rows against bank conflicts">]> {
  let description = [{
    Per stage, the smallest row padding (whole words) that lowers the worst
    conflict degree of the slab's reads (plus, for a slab transpose_a holds
    transposed, of its copy's writes down the slab's columns). Applies where some stage gains and
    the padded slabs still fit; TMA stages are dense and never padded.
    Heuristic: pad.
  }];
  let forks = "pad_smem: pad in {true*, false}";
}

def DTileDoubleBuffer : TileRule<"dtile-double-buffer", "double_buffer",
    "rotate chunk stages through two shared slabs (fork: apply / skip)", [
  Knob<"double_buffer", KnobBool, "two shared buffers per stage">]> {
  let description = [{
    The stages of a chunk loop rotate through two slabs, chunk k filling
    slot k mod 2, so that one can fill while the other is read. Applies
    where the doubled slabs fit. Heuristic: apply when a loop has two chunks
    or more.
  }];
  let forks = "double_buffer: double_buffer in {true*, false}";
}

def DTileAsyncCopy : TileRule<"dtile-async-copy", "async_copy",
    "copy chunk stages with cp.async (fork: apply / skip)", [
  Knob<"async_copy", KnobBool, "stages travel by cp.async">]> {
  let description = [{
    On a target with the `cp_async` feature, the synchronous stages of chunk
    loops whose rows allow aligned 4, 8 or 16-byte runs copy with cp.async,
    and one `dtile.async_wait` makes them visible. A kernel whose stages
    already travel asynchronously is left alone. Heuristic: apply.
  }];
  let forks = "async_copy: async_copy in {true*, false}";
}

def DTileTmaCopy : TileRule<"dtile-tma-copy", "tma_copy",
    "copy chunk stages with TMA and mbarriers (fork: apply / skip)", [
  Knob<"tma", KnobBool, "stages travel by TMA">]> {
  let description = [{
    On a target with the `tma` feature, the stages TMA can copy travel by
    one cp.async.bulk.tensor each, completed on an mbarrier. It runs after
    async_copy and leaves a kernel whose stages travel by cp.async alone:
    one kernel never mixes the two kinds of waits. Heuristic: skip, until
    TMA is measured faster.
  }];
  let forks = "tma_copy: tma in {false*, true}";
}

def DTileVectorCopy : TileRule<"dtile-vector-copy", "vector_copy",
    "copy synchronous chunk stages in 8/16-byte vectors (fork: skip / apply)", [
  Knob<"vector_copy", KnobBool, "synchronous stages move 16 or 8 bytes a copy">]> {
  let description = [{
    The synchronous stages of chunk loops that neither cp.async nor TMA
    took, whose rows allow aligned 16 or 8-byte runs in the source and the
    (padded) slab and that never reach past the source (no `zero_fill`),
    copy a run per load and store (128-bit copies for f32 rows that are
    multiples of 4) instead of one element. Heuristic: skip, until it is
    measured on a GPU.
  }];
  let forks = "vector_copy: vector_copy in {false*, true}";
}

def DTileSplitInnerForSwizzle : TileRule<"dtile-split-inner-for-swizzle",
    "split_inner_for_swizzle", "swizzle TMA slabs in segments of the swizzle "
    "width (fork: none / 32 / 64 / 128 bytes)", [
  Knob<"swizzle", KnobInt,
       "widest TMA swizzle in bytes each TMA slab takes (0: none)", 0, 128,
       KnobCostNonZero>]> {
  let description = [{
    A TMA copy writes its box densely, so pad_smem cannot stagger its rows;
    the hardware's swizzle permutes each row's 16-byte chunks instead, for
    rows of at most the swizzle width: the slab's inner dimension is split
    into swizzle-wide segments, one box each. Legal: none and every width a
    TMA stage can take. Heuristic: the width whose reads the bank-conflict
    analysis finds least conflicted; on a tie none, then the widest.
  }];
  let forks = "split_inner_for_swizzle: swizzle in {0*, 32}";
}

def DTileCausalBound : TileRule<"dtile-causal-bound", "causal_bound",
    "end an attention block's key steps at its last unmasked key (no fork)", [
  Knob<"causal_bound", KnobBool,
       "key steps masked for every row of the block are not run">]> {
  let description = [{
    Applies to an online-softmax kernel whose key loop attention_blocks or
    attention_mma stepped, when every score its running maxima fold is -inf
    under an index comparison affine in the key (`select(c, -inf, x)`, or a
    mask added to it; attention_mma's -inf guard past the rows and keys
    around it is looked through) that masks every key from some point on (a
    causal mask, shifted or not). With several masked scores (attention_mma's
    fragment elements) the bound is the largest they need. A step whose
    keys are masked for every query row of the block adds nothing to the
    online softmax, so the step loop becomes an `scf.for` whose bound depends on the block coordinates (for causal attention, the
    block's last query row). The last needed step keeps its per-key mask.
    A finite mask (at most -1e9, as naive_attn's) instead of -inf is taken
    where each row provably keeps key 0 unmasked, on the SIMT and the
    tensor-core kernel alike: the scores folded into one running maximum are
    one row's, and the thread axes that maximum is combined over
    (attention_mma's key lanes `t`) count as key coordinates.
    Runs before pipeline_k_outer, which needs a static step count. No fork.
  }];
  let forks = "causal_bound: causal_bound in {true*}";
}

def DTilePipelineKOuter : TileRule<"dtile-pipeline-k-outer",
    "pipeline_k_outer", "stage the next chunks before computing this one "
    "(fork: apply / skip, depth)", [
  Knob<"pipeline", KnobBool,
       "issue the next K chunk before computing this one">,
  OptionalKnob<"stages", KnobInt,
               "slots a pipelined chunk loop rotates through: chunks in "
               "flight plus the one computed (unset: 2)", 3, 8>,
  OptionalKnob<"wgmma_wait", KnobInt,
               "wgmma groups a warpgroup MMA chunk loop leaves in flight at "
               "each step's wait (unset: 0)", 1, 1>,
  OptionalKnob<"refill_late", KnobBool,
               "a wait-free warpgroup MMA chunk loop refills its slot after "
               "the step's wgmma commit (unset: before its wgmmas)">]> {
  let description = [{
    With depth d (`stages`, 2 when unset), the slabs of chunks 0 .. d - 2
    are staged into slots 0 .. d - 2 before a chunk loop whose stages rotate
    through d slots, and iteration k, once chunk k's slabs have landed,
    stages chunk k + d - 1 into slot (k + d - 1) mod d (while there is such
    a chunk) before computing on chunk k. Applies where every staged chunk
    loop rotates two slots; depths 3 to 8 where, moreover, every stage
    travels by TMA (the wait names chunk k's slabs, one mbarrier per slot;
    cp.async would need its commit groups counted at the loop tail, a later
    step), each loop has d - 1 chunks or more (at d - 1 every chunk is
    staged before the loop, which refills nothing, and one slot stays
    unused) and the d slots fit in shared memory with 1 KB to spare.
    Heuristic: apply, 2 deep, where the copies are asynchronous and a loop
    has two chunks or more; a warpgroup MMA kernel (wgmma) takes the
    deepest depth offered up to 4 and up to its chunks, each step retiring
    its own group and refilling late (below), as its TMA latency (about
    1 us) outlasts a chunk's tensor-core work (about 0.6 us for a 128 x 256
    bf16 tile). Depths past 4, and one more than the chunks (a narrow
    tile's slabs fit eight: one warpgroup's 64 x 128 bf16 slabs are 24 KB
    a chunk, so a K split of 4 to 7 chunks can issue every chunk before
    the first lands), are offered but not yet measured, so never the
    heuristic's.

    With `refill_late` (offered after each option of a wait-free warpgroup
    MMA loop: one wgmma group a chunk, ending in wait_group 0) the refill
    follows the step's wgmma commit instead (the group that read the slot
    retired in the step before), so the tensor cores start on chunk k
    before the refill's block barrier and issue, and the TMA wait before
    the wgmmas ends without a block barrier (each thread waited itself; one
    barrier a step, the refill's). A multicast refill first waits for the
    other block of its cluster to release the slot: cluster_multicast needs
    this order (at the top of the step that handshake cost about 0.8 us a
    chunk on the H200, bench/results/forks-h200-2026-11-27c.md). The
    heuristic takes it at its depth where offered (H200, five BF16 GEMMs
    at depth 4: 1.07-1.20x faster, bench/results/forks-h200-2026-11-28.md).

    With `wgmma_wait` = 1 (offered after each depth of 3 or more where every
    pipelined loop is a warpgroup MMA chunk loop: one wgmma group a chunk,
    ending in wait_group 0), chunk k's group is left in flight: the step
    waits with wait_group 1, which retires chunk k - 1's group, the
    accumulators are carried in flight to the next step's wgmma chain and a
    wait_group 0 after the loop makes them readable. The refill of slot
    (k + d - 1) mod d, which chunk k - 1 read, then moves after that wait (a
    block barrier orders every warpgroup's wait before the TMA is issued),
    so a prefetch never overwrites a slab an unretired group still reads;
    d - 2 chunks stay in flight while chunk k computes, so depth 2 is
    refused (knob wgmma_wait=1 with stages unset or 2, or on a loop without
    wgmma, is an error saying why). Such a loop is never unrolled
    (mark_unroll): unrolled by 4 it summed wrong on the H200, as ptxas
    scheduled epilogue conversions of the accumulators ahead of the final
    wait (the SASS has F2FP reading them before WARPGROUP.DEPBAR 0). Not
    the heuristic's choice: not unrolled, ptxas serialised the groups
    (warning C7514), and it lost to depth 3 unrolled by 4 (0.80x and 0.82x
    on two BF16 GEMMs); unrolled, it had beaten depth 4 by 1.08x where
    ptxas happened to order the epilogue right
    (bench/results/forks-h200-2026-11-27*.md). Both came from the packing
    conversions (F2FP) reading the accumulators: the CUDA emitter now puts
    an exact add of -0.0 between (no C7514; unrolled by 4, the Qwen
    gate_proj s512 kernel's SASS has no accumulator read ahead of its
    wait, where it had 32). Unrolling stays off until a GPU confirms it.
  }];
  let forks = "pipeline_k_outer: (pipeline, refill_late, stages, "
              "wgmma_wait) in {(true, true, 4, -)*, (false, -, -, -), "
              "(true, -, -, -), (true, true, -, -), (true, -, 3, -), "
              "(true, true, 3, -), (true, -, 3, 1), (true, -, 4, -), "
              "(true, -, 4, 1), (true, -, 5, -), (true, true, 5, -), "
              "(true, -, 5, 1), ... (true, -, 8, 1)}";
}

def DTileWarpSpecialize : TileRule<"dtile-warp-specialize",
    "warp_specialize", "split a TMA-pipelined warpgroup MMA kernel into a "
    "producer warp and consumer warpgroups (fork: skip / apply, setmaxnreg)", [
  Knob<"warp_specialize", KnobBool,
       "a producer warpgroup issues the TMA loads; the others only compute">,
  OptionalKnob<"setmaxnreg", KnobInt,
               "registers a consumer thread raises to with setmaxnreg, the "
               "producer lowering to 40 (unset: none)", 24, 256>]> {
  let description = [{
    Applies to a warpgroup MMA kernel (wgmma) whose chunk loop
    pipeline_k_outer pipelined, every stage travelling by TMA, with room in
    the block for one more warpgroup. The Kernel lowering then adds a
    producer warpgroup after the consumer warpgroups (their thread ids stay
    as they were): one of its threads runs the stages, waiting on an
    "empty" mbarrier per slot before refilling it; the consumer warpgroups
    run everything else, release the slot where the lock-step kernel would
    refill it (after the wgmma reading it retired: a warp sync, then one
    thread of each warp arrives on "empty") and wait on the slot's "full"
    mbarrier (the TMA bytes) as before, with no block barrier.
    With `setmaxnreg` = R the producer warpgroup lowers its registers to 40
    and the consumers raise theirs to R, the largest multiple of 8 the
    register file leaves them (at most 240), offered where that is at least
    the 24 setmaxnreg allows and the block is whole warpgroups (it is).
    cluster_multicast, which follows, may then pair the blocks (its
    producer waits for both blocks' consumers). The Tile IR is
    unchanged: the knob only steers the Kernel lowering. Never the
    heuristic's choice: on the H200 it gained 1.04x (geomean of 28 BF16
    GEMMs, 0.96-1.14x; setmaxnreg 232 the same on 6) where depth 4 with
    wgmma_wait=1 gained 1.09x, and the two together (6 GEMMs) no more than
    wgmma_wait=1 (bench/results/forks-h200-2026-11-27.md; then every
    consumer thread arrived on "empty", one a warp is not measured yet).
  }];
  let forks = "warp_specialize: (warp_specialize, setmaxnreg) in "
              "{(false)*, (true), (true, 232)}";
}

def DTileClusterMulticast : TileRule<"dtile-cluster-multicast",
    "cluster_multicast", "launch a TMA-pipelined warpgroup MMA kernel in "
    "clusters of 2 blocks along M sharing B's slabs by TMA multicast (fork: "
    "skip / apply)", [
  Knob<"cluster_m", KnobInt,
       "blocks of a cluster along the M tiles, sharing each B slab by TMA "
       "multicast (1: no cluster)", 1, 2, KnobCostLog2>]> {
  let description = [{
    With `cluster_m` = 2 the blocks of two neighbouring M tiles (same N
    tile) run as a thread-block cluster: the tile gets `cluster` 2 along the
    block axis of the M tiles and B's stages `multicast`. In the Kernel
    lowering each block's issuing thread loads its own A box, and half of
    B's box (split along its outer dimension) with TMA multicast into both
    blocks' slot; B's slot mbarrier expects the whole B slab's bytes. A
    block reuses a slot only once both blocks released it: an "empty"
    mbarrier per slot expecting 2 arrivals, on which each block's thread 0
    arrives in both blocks (mbarrier_arrive_cluster) where the lock-step
    kernel refills the slot, after the block barrier that orders its
    readers; the block then waits on its own (every thread: a uniform
    wait) before its thread 0 multicasts. Warp-specialised
    (warp_specialize), B's "empty" mbarriers expect the consumer warps of
    both blocks, each consumer warp releases the slot in its block and in
    the peer, and the producer warpgroup's issuing thread alone waits
    for both before multicasting its half, so neither block's consumers
    wait for the other. The mbarriers are initialised,
    fenced (fence_mbarrier_init) and a cluster_barrier passed before any
    multicast, and a cluster_barrier before exit keeps a block from leaving
    while its peer may still signal it. Each block then streams its A slab
    and half its B slab from L2 (the cost model counts that).
    Applies to a warpgroup MMA kernel (wgmma) on a target with the
    `clusters` feature whose stages all travel by TMA, with one block axis
    of the M tiles (A's stages depend on it, B's do not) of even extent,
    at most 3 block axes (each on a grid dimension), B's box halving along
    its outer dimension into 1 KB multiples (the swizzle pattern's period);
    unless warp-specialised, B's refills after the step's wgmma commit
    (pipeline_k_outer's refill_late, or wgmma_wait=1), as a block waiting
    for its peer to release a slot must not hold up its own wgmmas: at the
    top of the step that wait cost about 0.8 us a chunk on the H200
    (0.38-0.62x of the default on eight BF16 GEMMs,
    bench/results/forks-h200-2026-11-27c.md); list-forks says why not, and
    knob cluster_m=2 where it does not apply is an error saying why.
    persistent_tiles then refuses the kernel. Heuristic: skip (with the late
    refill, clusters of two measured 0.41-0.72x of the default on five
    BF16 GEMMs on the H200, bench/results/forks-h200-2026-11-28.md, as the
    cost model now expects from the blocks' waits on each other; it expects
    the warp-specialised clusters, not measured yet, to gain on the
    L2-bound large GEMMs).
  }];
  let forks = "cluster_multicast: cluster_m in {1*, 2}";
}

def DTileRegisterDoubleBuffer : TileRule<"dtile-register-double-buffer",
    "register_double_buffer", "load the next K step's slab fragments into "
    "registers before this step's products (fork: skip / apply)", [
  Knob<"reg_double", KnobBool,
       "slab fragments of K step k + 1 load while step k's products run">]> {
  let description = [{
    In the innermost reduce loops that read shared slabs (a thread's K
    steps over a chunk), the fragments of step 0 load before the loop and
    step k loads those of step (k + 1) mod K into a second register set
    before its products, which use the set carried from step k - 1; the
    last step reloads step 0's, a wasted read that keeps the loop's extent
    (and so mark_unroll's factors). The products and their order are
    unchanged. Legal where every such loop has a static extent of two or
    more, writes no memory, holds no guarded (partial) accesses, and the
    indices of its slab reads use only its variable and values from outside
    it; list-forks says why not. Heuristic: apply where vector_reads read
    the slabs as vectors (H200, FP32 GEMMs: 0.99-1.04x over vector reads
    alone, geomean 1.01x over 10; bench/results/forks-h200-2026-11-28.md),
    else skip (in FP32 attention: 1.42x and 1.48x for Qwen's head dim 128
    at s128 with the default blocks, which attention_blocks now replaces,
    1.00x at s512, 0.97-1.00x for TinyLlama's head dim 64).
  }];
  let forks = "register_double_buffer: reg_double in {true*, false}";
}

def DTileMarkUnroll : TileRule<"dtile-mark-unroll", "mark_unroll",
    "mark inner loops for unrolling (fork: factor)", [
  Knob<"unroll", KnobInt, "unroll factor of inner loops", 1, 2147483647,
       KnobCostLog2>]> {
  let description = [{
    The innermost sequential loops get an unroll factor, printed as
    `#pragma unroll`. A loop whose variable indexes a thread's private
    buffer (a `memref.alloca` of the tile: attention's accumulators and
    query row) of at most 256 iterations unrolls fully whatever the knob:
    nvcc keeps such an array in registers only when every index is a
    constant after unrolling, else each access is a local-memory round trip
    (past 256 words it could not stay in registers anyway). A loop that
    leaves wgmma groups in flight from one step to the next
    (pipeline_k_outer's wgmma_wait = 1) is never unrolled whatever the
    knob: its accumulators are written asynchronously across the back
    edge, and unrolled by 4 it summed wrong on the H200 (deterministically,
    on two BF16 GEMMs whose unroll = 1 forms were right: ptxas moved
    epilogue reads of the accumulators ahead of the final wgmma wait), as
    CUTLASS never unrolls its warpgroup MMA main loop. Legal: the powers of two up to 32
    dividing every other innermost loop; 1 alone where no innermost loop is
    left to the knob. Heuristic: short loops (a K chunk) unroll fully, long
    ones by 4.
  }];
  let forks = "mark_unroll: unroll in {4*, 1, 2, 8, 16, 32}";
}

def DTilePersistentTiles : TileRule<"dtile-persistent-tiles",
    "persistent_tiles", "launch a grid the multiprocessors hold at once and "
    "loop each block over the tiles (fork: skip / blocks per SM)", [
  Knob<"persistent", KnobBool,
       "each block loops over the tiles, a grid-size stride apart">,
  OptionalKnob<"persistent_per_sm", KnobInt,
               "blocks per multiprocessor of a persistent grid: the grid is "
               "sm_count times this", 1, 4>,
  OptionalKnob<"persistent_group", KnobInt,
               "rows of tiles a persistent grid deals as one group, column "
               "by column (absent: row by row)", 2, 64>]> {
  let description = [{
    With `persistent` = true the grid launches `sm_count` x
    `persistent_per_sm` blocks, and block b runs the tiles b, b + grid,
    b + 2 grid, ... of the linearised block axes (the last fastest: the
    order a plain launch rasterises them in), each tile's body unchanged
    inside an `scf.for` over them. With `persistent_group` = g (offered
    as 8 where the tile rows, the second-last block axis, are a multiple of
    8 and more than 8) the tiles are dealt g rows at a time, column by
    column within the g rows, so that the blocks of a wave share the
    operand rows and columns they read (A's g rows, a few of B's columns)
    in L2. The stage copies that begin a tile's body put a block barrier
    before overwriting the slabs the previous tile read (a stage in a loop
    body is never assumed fenced), TMA mbarriers are initialised once and
    their phases, tracked per thread, carry from tile to tile, and the
    accumulators start from zero in each tile's K loop.
    Applies to block-tiled kernels: a K loop (`dloop.for` reduce) at the top
    of the tile body (SIMT, mma_sync and wgmma matmuls), more tiles than
    `sm_count` x `persistent_per_sm`, that many blocks resident per
    multiprocessor by threads and staged bytes; list-forks says why not.
    Refused: split-K blocks that fold partial sums into zeroed outputs by
    atomics (their split already multiplies the blocks), online-softmax
    kernels. Heuristic: skip: on the H200 the persistent grid lost on the
    GEMMs it applies to (BF16 Qwen gate_proj s512 0.95x, FP32 s512 gate_proj
    0.96-0.98x).
  }];
  let forks = "persistent_tiles: (persistent, persistent_group, "
              "persistent_per_sm) in {false*, (true, 1), (true, 8, 1), "
              "(true, 2), (true, 8, 2)}";
}

def DTileTileOrder : TileRule<"dtile-tile-order", "tile_order",
    "launch a plain grid's tiles a group of tile rows at a time, column by "
    "column (fork: group)", [
  Knob<"tile_group", KnobInt,
       "rows of tiles launched as one group, column by column inside it (1: "
       "row by row, a plain grid's order)", 1, 64, KnobCostLog2>]> {
  let description = [{
    A plain grid runs its tiles in launch order, the last block axis (the
    tile columns) fastest, so the blocks running at once share one or two
    rows of tiles and each reads a different column of B; the next row of
    tiles reads B again, from DRAM where B is larger than the L2 (Qwen's
    gate_proj weight in BF16 is 136 MB, the H100's L2 50 MB). With
    `tile_group` = g > 1 the grid is one axis of tiles dealt g tile rows at
    a time, down the rows of a group first and then across its columns (as
    persistent_tiles' `persistent_group` deals them), so the g blocks of a
    column run side by side and read its B slab from L2 once, while the g
    row tiles of A stay in L2 across the columns. The tile body is
    unchanged: only which tile a block runs moves.
    Applies to block-tiled matmuls with staged operands, at least two rows
    and two columns of tiles and more tiles than the target's
    multiprocessors (in one wave the order does not matter); not to
    persistent grids (persistent_group deals their tiles), nor to clusters
    (they pair neighbouring tiles); list-forks says why not. Offered: 1,
    every power of two below the tile rows that divides them, and the tile
    rows themselves (at most 64). Heuristic: where the buffers read along
    the columns alone (B) exceed half the target's L2 (`l2_bytes`), the
    largest group up to 8 whose rows of A (the buffers read along the rows
    alone) fit in half the L2 too; else 1. Not measured on a GPU yet: the
    cost model's DRAM traffic counts what each wave reads again.
  }];
  let forks = "tile_order: tile_group in {4*, 1, 2}";
}

/// The order the rules run in. register_tile runs before stage_inputs, so
/// that stages are placed once in the already jammed body; permute and
/// pad_smem follow stage_inputs, so that their conflict analyses see the
/// slab reads as they end up; transpose_a follows permute and precedes
/// vector_reads, which then reads A's transposed rows as vectors;
/// vector_reads follows permute (it deals B's columns where permute kept
/// them) and precedes pad_smem, which keeps its vectors aligned; tma_copy follows async_copy and applies only
/// where it did not; split_inner_for_swizzle lays out the TMA slabs.
/// attention_blocks takes the place of blockify_launch for online-softmax
/// kernels, so it runs first; attention_split_d then shares its rows by the
/// head dimension (its threads set) and attention_rows deals several rows
/// to a thread; stage_inputs then stages its key steps,
/// and causal_bound ends them at the diagonal once every stage is placed.
/// attention_mma runs before attention_blocks: it maps a half online
/// softmax whole onto mma.sync or leaves it to attention_blocks.
/// wgmma_async runs first: it maps a half matmul (K- or MN-major operands)
/// whole onto warpgroup MMA or leaves it to mma_sync.
/// cluster_multicast follows pipeline_k_outer and warp_specialize, whose
/// kernels it takes or refuses, and precedes persistent_tiles, which
/// refuses clustered tiles.
/// register_double_buffer runs last but mark_unroll, once every other rule
/// has settled the inner K loops and their slab reads. persistent_tiles runs
/// last of all: it wraps the finished tile body in its tile loop, which no
/// other rule then has to look through; tile_order follows it, dealing
/// the tiles of the grids it did not make persistent.
/// mma_sync runs before all of them: it maps a half matmul whole (tiles,
/// warps, K chunks, stages), leaving double_buffer, async_copy, tma_copy and
/// pipeline_k_outer to rework its stages, or leaves it to the SIMT rules.
def TileRulePipeline {
  list<TileRule> rules = [
    DTileWgmmaAsync,
    DTileMmaSync,
    DTileChunkMatmulK,
    DTileSplitMatmulK,
    DTileCooperativeReduce,
    DTileAttentionMma,
    DTileAttentionBlocks,
    DTileAttentionSplitD,
    DTileAttentionRows,
    DTileBlockifyLaunch,
    DTileChunkReduce,
    DTileRegisterTile,
    DTileStageInputs,
    DTilePermuteRegisterTile,
    DTileTransposeA,
    DTileVectorReads,
    DTileVectorStores,
    DTilePadSmem,
    DTileDoubleBuffer,
    DTileAsyncCopy,
    DTileTmaCopy,
    DTileVectorCopy,
    DTileSplitInnerForSwizzle,
    DTileCausalBound,
    DTilePipelineKOuter,
    DTileWarpSpecialize,
    DTileClusterMulticast,
    DTileRegisterDoubleBuffer,
    DTileMarkUnroll,
    DTilePersistentTiles,
    DTileTileOrder
  ];
}

#endif // DEPLODOCK_DIALECT_DTILE_RULES
