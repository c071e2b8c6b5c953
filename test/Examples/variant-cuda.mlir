// REQUIRES: nvrtc
// RUN: rm -rf %t && mkdir -p %t/sm_80 %t/sm_90
// RUN: %python %deplodock_src_root/examples/generate.py --small matmul > %t/matmul.mlir
// RUN: %python %deplodock_src_root/examples/generate.py --small sdpa > %t/sdpa.mlir
// RUN: %python %deplodock_src_root/examples/generate.py --small decoder_block > %t/decoder_block.mlir
// RUN: deplodock-run --interp %t/matmul.mlir --pipeline=lower-to-tensor --check-variants=64 --target=sm_80 --variant-pipeline=convert-dtile-to-dkernel --variant-cuda-dir=%t/sm_80 --print=none | FileCheck %s --check-prefix=MATMUL
// RUN: deplodock-run --interp %t/matmul.mlir --pipeline=lower-to-tensor --check-variants=64 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --variant-cuda-dir=%t/sm_90 --print=none | FileCheck %s --check-prefix=MATMUL
// RUN: deplodock-run --interp %t/sdpa.mlir --pipeline=lower-to-tensor --check-variants=64 --target=sm_80 --variant-pipeline=convert-dtile-to-dkernel --variant-cuda-dir=%t/sm_80 --print=none | FileCheck %s --check-prefix=SDPA
// RUN: deplodock-run --interp %t/sdpa.mlir --pipeline=lower-to-tensor --check-variants=64 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --variant-cuda-dir=%t/sm_90 --print=none | FileCheck %s --check-prefix=SDPA
// RUN: deplodock-run --interp %t/decoder_block.mlir --pipeline=lower-to-tensor --check-variants=8 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --variant-cuda-dir=%t/sm_90 --print=none | FileCheck %s --check-prefix=DECODER
// RUN: ls %t/sm_80 | wc -l | FileCheck %s --check-prefix=COUNT80
// RUN: ls %t/sm_90 | wc -l | FileCheck %s --check-prefix=COUNT90
// RUN: %nvrtc --gpu-architecture=sm_80 %t/sm_80/*.cu
// RUN: %nvrtc --gpu-architecture=sm_90 %t/sm_90/*.cu

/// The kernels of the variants the property tests check, not only the
/// default ones, are valid CUDA: a seeded sample of the matmul's tree, every
/// variant of the attention kernel, and a few of each of the decoder
/// block's eleven kernels, each lowered for its target and compiled by
/// NVRTC (as the runtime compiles) for that target.
// MATMUL: variants of @matmul_0_reduce: 64 (seeded sample) checked, 0 failed
// SDPA: variants of @sdpa_0_reduce: 10 (all) checked, 0 failed
// SDPA-NOT: variants of
// DECODER-COUNT-11: checked, 0 failed

/// 64 + 10 kernels for sm_80; as many plus the decoder block's for sm_90.
// COUNT80: 74
// COUNT90: {{1[0-9][0-9]}}
