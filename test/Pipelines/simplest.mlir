// The reference lowering (`simplest`): at every fork knobs does not decide,
// the option asking for the least machinery — serial reductions, no
// register tiles, no staging, no unrolling. It computes what the layer
// computes (the interpreter checks it at the Kernel level), and it is what
// GPU results too large for the CPU interpreter are checked against.
// RUN: deplodock-opt %deplodock_src_root/examples/matmul.mlir --lower-to-tile=simplest | FileCheck %s --check-prefix=MATMUL
// RUN: deplodock-opt %deplodock_src_root/examples/rmsnorm.mlir --lower-to-tile=simplest | FileCheck %s --check-prefix=RMSNORM
// RUN: deplodock-opt %deplodock_src_root/examples/matmul.mlir --lower-to-tile="simplest knobs=FM=2" | FileCheck %s --check-prefix=KNOBS
// RUN: deplodock-opt %deplodock_src_root/examples/matmul.mlir --lower-to-tile="simplest knobs=stage=[0,1]" | FileCheck %s --check-prefix=STAGED
// RUN: %python %deplodock_src_root/examples/generate.py --small decoder_block > %t.small.mlir
// RUN: deplodock-run --interp %t.small.mlir --pipeline=lower-to-tensor --compare="lower-to-kernel{simplest}" --print=none | FileCheck %s --check-prefix=NUM
// RUN: not deplodock-opt %deplodock_src_root/examples/matmul.mlir --lower-to-tile="simplest tune-db=%t.db" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BOTH

// MATMUL: dtile.kernel @matmul_0_reduce
// MATMUL-SAME: FM = 1, FN = 1,
// MATMUL-SAME: stage = [], unroll = 1>
// RMSNORM: knobs<block_threads = 32, threads = 1, unroll = 1>
/// Explicit knobs still decide their forks.
// KNOBS: FM = 2, FN = 1,
// KNOBS-SAME: stage = [], unroll = 1>
/// With stages, every copy stays synchronous: no second slot, neither
/// cp.async nor TMA (sm_90, the default target, offers both).
// STAGED: async_copy = false, double_buffer = false, reg_double = false, split_k = 1, stage = [0, 1], tma = false, transpose_a = false, unroll = 1, vector_copy = false>
// NUM: compare result #0 after 'lower-to-kernel{simplest}': {{.*}}: PASS
// BOTH: error: simplest and tune-db choose the same forks: pass one of them
