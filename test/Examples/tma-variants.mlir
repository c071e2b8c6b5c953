// RUN: rm -rf %t && mkdir -p %t/small80 %t/small90 %t/scaled %t/cubin
// RUN: %python %deplodock_src_root/examples/generate.py --small matmul > %t/small.mlir
// RUN: %python %deplodock_src_root/examples/generate.py --scaled matmul > %t/scaled.mlir
// RUN: deplodock-run --interp %t/small.mlir --pipeline=lower-to-tensor --check-variants=10000 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --variant-cuda-dir=%t/small90 --print=none | FileCheck %s --check-prefix=SMALL90
// RUN: deplodock-run --interp %t/small.mlir --pipeline=lower-to-tensor --check-variants=10000 --target=sm_80 --variant-pipeline=convert-dtile-to-dkernel --variant-cuda-dir=%t/small80 --print=none | FileCheck %s --check-prefix=SMALL80
// RUN: grep -l "cp.async.bulk.tensor" %t/small90/*.cu | wc -l | FileCheck %s --check-prefix=TMA90
// RUN: grep -l "cp.async.bulk.tensor" %t/small90/*.cu | xargs awk '/cp\.async\.(ca|cg|commit_group|wait_group)/ { print FILENAME; nextfile }' | wc -l | FileCheck %s --check-prefix=MIXED
// RUN: awk '/cp\.async\.bulk/ { n++ } END { print n + 0 }' %t/small80/*.cu | FileCheck %s --check-prefix=TMA80
// RUN: deplodock-run --interp %t/scaled.mlir --pipeline=lower-to-tensor --check-variants=300 --seed=7 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --variant-cuda-dir=%t/scaled --print=none | FileCheck %s --check-prefix=SCALED
// RUN: grep -l "cp.async.bulk.tensor" %t/scaled/*.cu | wc -l | FileCheck %s --check-prefix=TMA-SCALED
// RUN: %if nvrtc %{ grep -l "cp.async.bulk.tensor" %t/scaled/*.cu | xargs %nvrtc --gpu-architecture=sm_90 %}
// RUN: %if nvcc %{ grep -l "cp.async.bulk.tensor" %t/scaled/*.cu | awk 'NR <= 8' | xargs %nvcc -arch=sm_90 -cubin -odir %t/cubin %}

/// The TMA variants of the matmul, proven like every other fork. On sm_90
/// the small matmul's whole tree (5735 variants) runs at the Kernel level
/// on the SIMT interpreter against the reference; the sm_80 tree is the
/// same less the 1665 variants that take tma_copy (their copies are the
/// ones issued by cp.async.bulk.tensor), and no variant mixes TMA with
/// cp.async. The scaled matmul (K = 256: up to 16 chunks, so mbarrier
/// phases wrap many times) is sampled; its TMA variants compile for sm_90
/// with NVRTC (as the runtime compiles) and with nvcc.
// SMALL90: variants of @matmul_0_reduce: 5735 (all) checked, 0 failed
// SMALL80: variants of @matmul_0_reduce: 4070 (all) checked, 0 failed
// TMA90: {{^1665$}}
// TMA80: {{^0$}}
// MIXED: {{^0$}}
// SCALED: variants of @matmul_0_reduce: 300 (seeded sample) checked, 0 failed
// TMA-SCALED: {{^46$}}
