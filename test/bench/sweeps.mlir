/// bench/sweeps.py: the fork sweeps planned for the next GPU session. Every
/// variant of every sweep lowers here (a refused one would cost GPU time);
/// one sweep runs on the bench worker's fake device (FAKE timings).
// RUN: %python %deplodock_src_root/bench/sweeps.py --check --bin-dir %deplodock_obj_root/bin --work-dir %t.check | FileCheck %s --check-prefix=CHECKED
// RUN: %python %deplodock_src_root/bench/sweeps.py --list | FileCheck %s --check-prefix=LIST
// RUN: rm -rf %t.out %t.work
// RUN: %python %deplodock_src_root/bench/sweeps.py --out %t.out --work-dir %t.work --fake-device --bin-dir %deplodock_obj_root/bin fp32-rows | FileCheck %s --check-prefix=SWEPT
// RUN: FileCheck %s --check-prefix=MD < %t.out/forks-fp32-rows.md
// RUN: FileCheck %s --check-prefix=JSON < %t.out/forks-fp32-rows.json
/// Variants a sweep lowers with half-prologues run deplodock-run
/// --half-prologues: their silu_mul_matmul is one matmul kernel (the fake
/// device runs what the lowering makes).
// RUN: rm -rf %t.hout %t.hwork
// RUN: %python %deplodock_src_root/bench/sweeps.py --out %t.hout --work-dir %t.hwork --fake-device --bin-dir %deplodock_obj_root/bin bf16-prologue > /dev/null
// RUN: %python -c "import json, sys; d = json.load(open(sys.argv[1])); print(d['half_prologues']); [print(c, l, ' '.join(k['name'] for k in v['kernels'])) for c, r in sorted(d['results'].items()) for l, v in r.items()]" %t.hout/forks-bf16-prologue.json | FileCheck %s --check-prefix=HALF
/// The folder of scripts/build-portable.sh's packed tools serves too.
// RUN: rm -rf %t.packed %t.pwork && mkdir -p %t.packed
// RUN: %python -c "import os, sys, tarfile; t = tarfile.open(sys.argv[1], 'w:xz'); t.add(sys.argv[2], arcname=os.path.basename(sys.argv[2])); t.close()" %t.packed/deplodock-tools.tar.xz %deplodock_obj_root/bin/deplodock-opt
// RUN: %python %deplodock_src_root/bench/sweeps.py --check --bin-dir %t.packed --work-dir %t.pwork fp32-rows | FileCheck %s --check-prefix=PACKED
/// A variant a rule refuses is reported, and the check fails (here a
/// deplodock-opt that refuses everything).
// RUN: rm -rf %t.refusing && mkdir -p %t.refusing
// RUN: printf '#!/bin/sh\necho "x.mlir:1:1: error: refused here" >&2\nexit 1\n' > %t.refusing/deplodock-opt && chmod +x %t.refusing/deplodock-opt
// RUN: not %python %deplodock_src_root/bench/sweeps.py --check --bin-dir %t.refusing --work-dir %t.rwork fp32-rows | FileCheck %s --check-prefix=REFUSED
/// Unknown names, and a run that names no sweep, are refused.
// RUN: not %python %deplodock_src_root/bench/sweeps.py --check no-such-sweep 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not %python %deplodock_src_root/bench/sweeps.py --out %t.none --bin-dir %deplodock_obj_root/bin 2>&1 | FileCheck %s --check-prefix=NONE

// CHECKED-NOT: refused
// CHECKED: bf16-tile-order: 3 cases x 5 variants checked
// CHECKED: fp32-tile-order: 4 cases x 3 variants checked
// CHECKED: fp32-model-picks: 3 cases x 4 variants checked
// CHECKED: fp32-prologue: 4 cases x 3 variants checked
// CHECKED: bf16-prologue: 4 cases x 3 variants checked
// CHECKED: dependent-launch: 7 cases x 2 variants checked
// CHECKED: fp32-splits-early: 4 cases x 3 variants checked
// CHECKED: fp32-attention: 3 cases x 6 variants checked
// CHECKED: fp32-attention-rows: 3 cases x 8 variants checked
// CHECKED: bf16-splits: 4 cases x 5 variants checked
// CHECKED: bf16-splits-s32: 4 cases x 5 variants checked
// CHECKED: bf16-deep-stages: 4 cases x 3 variants checked
// CHECKED: bf16-clusters: 6 cases x 7 variants checked
// CHECKED: fp32-rows: 2 cases x 5 variants checked
// CHECKED: fp32-long-rows: 2 cases x 6 variants checked

// PACKED: fp32-rows: 2 cases x 5 variants checked

// LIST: fp32-attention (sm_90, 3 cases x 6 variants): FP32 attention
// LIST: bf16-splits (sm_90a, 4 cases x 5 variants)

// SWEPT: == fp32-rows: FP32 softmax
// SWEPT: softmax.qwen.s32 [default] {{[0-9.]+}} us
// SWEPT: | case | default | r2t32 | r4t32 | r8t32 | r16t32 |

// HALF: ['fused', 'fusedlate']
// HALF-NEXT: silu_mul_matmul.qwen.s32.bf16 default silu_mul_matmul_0_pointwise silu_mul_matmul_1_reduce silu_mul_matmul_1_reduce_split_sum
// HALF-NEXT: silu_mul_matmul.qwen.s32.bf16 fused silu_mul_matmul_0_reduce silu_mul_matmul_0_reduce_split_sum
// HALF-NEXT: silu_mul_matmul.qwen.s32.bf16 fusedlate silu_mul_matmul_0_reduce silu_mul_matmul_0_reduce_split_sum
// HALF-NEXT: silu_mul_matmul.qwen.s512.bf16 default silu_mul_matmul_0_pointwise silu_mul_matmul_1_reduce
// HALF-NEXT: silu_mul_matmul.qwen.s512.bf16 fused silu_mul_matmul_0_reduce
// HALF-NEXT: silu_mul_matmul.qwen.s512.bf16 fusedlate silu_mul_matmul_0_reduce

// MD: FAKE TIMINGS (fake device): nothing here was measured
// MD: * r4t32: `rows=4,threads=32`
// JSON: "fake": true

// REFUSED: fp32-rows: softmax.qwen.s32 [default] refused: x.mlir:1:1: error: refused here
// REFUSED: fp32-rows: 2 cases x 5 variants checked

// UNKNOWN: error: no sweep named no-such-sweep (known: bf16-tile-order, fp32-tile-order, fp32-model-picks, fp32-prologue, bf16-prologue, dependent-launch, fp32-splits-early, fp32-attention, fp32-attention-rows, bf16-splits, bf16-splits-s32, bf16-deep-stages, bf16-clusters, fp32-rows, fp32-long-rows)
// NONE: error: name the sweeps to run (--list shows them)
