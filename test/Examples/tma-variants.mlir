// RUN: rm -rf %t && mkdir -p %t/small80 %t/small90 %t/scaled %t/cubin
// RUN: %python %deplodock_src_root/examples/generate.py --small matmul > %t/small.mlir
// RUN: %python %deplodock_src_root/examples/generate.py --scaled matmul > %t/scaled.mlir
// RUN: deplodock-run --interp %t/small.mlir --pipeline=lower-to-tensor --check-variants=4000 --seed=7 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --variant-cuda-dir=%t/small90 --print=none | FileCheck %s --check-prefix=SMALL90
// RUN: deplodock-run --interp %t/small.mlir --pipeline=lower-to-tensor --check-variants=2000 --seed=7 --target=sm_80 --variant-pipeline=convert-dtile-to-dkernel --variant-cuda-dir=%t/small80 --print=none | FileCheck %s --check-prefix=SMALL80
// RUN: grep -rl --include='*.cu' "cp.async.bulk.tensor" %t/small90 | wc -l | FileCheck %s --check-prefix=TMA90
// RUN: grep -rl --include='*.cu' "cp.async.bulk.tensor" %t/small90 | xargs awk '/cp\.async\.(ca|cg|commit_group|wait_group)/ { print FILENAME; nextfile }' | wc -l | FileCheck %s --check-prefix=MIXED
// RUN: find %t/small80 -name '*.cu' -exec cat {} + | awk '/cp\.async\.bulk/ { n++ } END { print n + 0 }' | FileCheck %s --check-prefix=TMA80
// RUN: deplodock-run --interp %t/scaled.mlir --pipeline=lower-to-tensor --check-variants=300 --seed=7 --target=sm_90 --variant-pipeline=convert-dtile-to-dkernel --variant-cuda-dir=%t/scaled --print=none | FileCheck %s --check-prefix=SCALED
// RUN: grep -rl --include='*.cu' "cp.async.bulk.tensor" %t/scaled | wc -l | FileCheck %s --check-prefix=TMA-SCALED
// RUN: grep -rl --include='*.cu' -E "__align__\((256|512|1024)\)" %t/small90 | wc -l | FileCheck %s --check-prefix=SWIZZLED
// RUN: grep -rl --include='*.cu' "__align__(1024)" %t/small90 | wc -l | FileCheck %s --check-prefix=SWIZZLED128
// RUN: grep -rl --include='*.cu' -E "__align__\((256|512|1024)\)" %t/scaled | wc -l | FileCheck %s --check-prefix=SWIZZLED-SCALED
// RUN: deplodock-run --interp %t/scaled.mlir --pipeline=lower-to-tensor --compare="lower-to-kernel{target=sm_90 knobs=tma=true,async_copy=false,pad=false,BK=64,swizzle=128}" --print=none | FileCheck %s --check-prefix=SEGMENTS
// RUN: deplodock-run --interp %t/scaled.mlir --pipeline=lower-to-tensor --compare="lower-to-kernel{target=sm_90 knobs=tma=true,async_copy=false,pad=false,BK=64,swizzle=32,double_buffer=false}" --print=none | FileCheck %s --check-prefix=SEGMENTS
// RUN: %if nvrtc %{ grep -rl --include='*.cu' "cp.async.bulk.tensor" %t/scaled | xargs %nvrtc --gpu-architecture=sm_90 %}
// RUN: %if nvcc %{ grep -rl --include='*.cu' "cp.async.bulk.tensor" %t/scaled | awk 'NR <= 8' | xargs %nvcc -arch=sm_90 -cubin -odir %t/cubin %}
// RUN: grep -rl --include='*.cu' "reinterpret_cast<uint4 \*>" %t/small90 | wc -l | FileCheck %s --check-prefix=VECTOR90
// RUN: %if nvcc %{ grep -rl --include='*.cu' "reinterpret_cast<uint4 \*>" %t/small90 | awk 'NR <= 4' | xargs %nvcc -arch=sm_90 -cubin -odir %t/cubin %}

/// The generated files are listed by grep -r and find, never by a shell
/// glob: ten thousand paths under a long build folder pass the kernel's
/// limit on the length of a command line.
/// The TMA variants of the matmul, proven like every other fork. On sm_90
/// 4000 seeded samples of the small matmul's tree (whose whole, 24875
/// variants before the workspace split, took minutes) run at the Kernel
/// level on the SIMT interpreter against the reference, 798 of them with
/// TMA (their copies are the ones issued by cp.async.bulk.tensor); on sm_80,
/// 2000 samples, none with TMA, and no variant mixes TMA with cp.async. 483
/// of the TMA variants swizzle their slabs (their shared memory is aligned to
/// the pattern's repeat: 256, 512 or 1024 bytes), so every slab read goes
/// through the XOR the hardware's copy applied. The scaled matmul (K = 256:
/// up to 16 chunks, so mbarrier phases wrap many times) is sampled; its TMA
/// variants compile for sm_90 with NVRTC (as the runtime compiles) and with
/// nvcc. Two more scaled variants split 256-byte rows into 128- and 32-byte
/// swizzle segments (two and eight boxes per slab), double-buffered and
/// pipelined or not.
// SMALL90: variants of @matmul_0_reduce: 4000 (seeded sample) checked, 0 failed
// SMALL80: variants of @matmul_0_reduce: 2000 (seeded sample) checked, 0 failed
// TMA90: {{^798$}}
// SWIZZLED: {{^483$}}
// SWIZZLED128: {{^48$}}
// TMA80: {{^0$}}
// MIXED: {{^0$}}
// SCALED: variants of @matmul_0_reduce: 300 (seeded sample) checked, 0 failed
// TMA-SCALED: {{^36$}}
/// The synchronous stages of 417 variants (vector_copy) move 16-byte runs
/// with one uint4 load and store each; a few compile with nvcc.
// VECTOR90: {{^417$}}
// SWIZZLED-SCALED: {{^18$}}
// SEGMENTS: compare result #0 {{.*}}: PASS
