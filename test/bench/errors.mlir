// RUN: rm -rf %t.empty %t.bin %t.fake && mkdir -p %t.empty %t.bin
// RUN: ln -s %deplodock_obj_root/bin/deplodock-opt %t.bin/deplodock-opt
// RUN: ln -s %deplodock_obj_root/bin/deplodock-translate %t.bin/deplodock-translate
// RUN: ln -s %deplodock_obj_root/bin/deplodock-run %t.bin/deplodock-run
// RUN: not %numpy_python %deplodock_src_root/bench/harness.py --dry-run --out %t.o --bin-dir %deplodock_obj_root/bin --cases matmul.llama.q_proj.s32 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not %numpy_python %deplodock_src_root/bench/harness.py --dry-run --out %t.o --bin-dir %deplodock_obj_root/bin --cases 'conv.*' 2>&1 | FileCheck %s --check-prefix=PATTERN
// RUN: not %numpy_python %deplodock_src_root/bench/harness.py --dry-run --out %t.o --bin-dir %deplodock_obj_root/bin --dtypes int4 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: not %numpy_python %deplodock_src_root/bench/harness.py --dry-run --out %t.o --bin-dir %t.empty --cases sdpa.mini.s8 2>&1 | FileCheck %s --check-prefix=TOOLS
// RUN: env DEPLODOCK_BIN=%t.empty not %numpy_python %deplodock_src_root/bench/harness.py --dry-run --out %t.o --cases sdpa.mini.s8 2>&1 | FileCheck %s --check-prefix=TOOLS
// RUN: not %numpy_python %deplodock_src_root/bench/harness.py --out %t.o --bin-dir %t.bin --cases sdpa.mini.s8 2>&1 | FileCheck %s --check-prefix=TUNE
// RUN: not %numpy_python %deplodock_src_root/bench/harness.py --out %t.o --bin-dir %t.bin --cases sdpa.mini.s8 --backends eager,ours 2>&1 | FileCheck %s --check-prefix=NOGPU
// RUN: not %numpy_python %deplodock_src_root/bench/harness.py --dry-run --out %t.o --bin-dir %t.bin --cases sdpa.mini.s8 --backends eager,cublas 2>&1 | FileCheck %s --check-prefix=BACKEND
// RUN: not %numpy_python %deplodock_src_root/bench/harness.py --dry-run --out %t.o --bin-dir %t.bin --cases sdpa.mini.s8 --resume %s 2>&1 | FileCheck %s --check-prefix=NOTJSON
/// Dry-run (FAKE) results never mix with real ones.
// RUN: %numpy_python %deplodock_src_root/bench/harness.py --dry-run --out %t.fake --work-dir %t.w --bin-dir %t.bin --cases softmax.mini.s8 > /dev/null
// RUN: sed -e 's/^ "fake": true,/ "fake": false,/' %t.fake/bench.FAKE.json > %t.real.json
// RUN: not %numpy_python %deplodock_src_root/bench/harness.py --dry-run --out %t.o --bin-dir %t.bin --cases sdpa.mini.s8 --resume %t.real.json 2>&1 | FileCheck %s --check-prefix=MIX
// RUN: not %python %deplodock_src_root/bench/report.py %t.fake/bench.FAKE.json %t.real.json --out %t.m 2>&1 | FileCheck %s --check-prefix=MERGE
// RUN: not %python %deplodock_src_root/bench/report.py %t.nothing.json --out %t.m 2>&1 | FileCheck %s --check-prefix=MISSING
/// The docs page is rendered from real measurements only, and says from what.
// RUN: not %python %deplodock_src_root/bench/report.py %t.fake/bench.FAKE.json --doc %t.doc.md 2>&1 | FileCheck %s --check-prefix=DOCFAKE
// RUN: not %python %deplodock_src_root/bench/report.py %t.real.json --doc %t.doc.md --out %t.m 2>&1 | FileCheck %s --check-prefix=DOCOUT
// RUN: %python %deplodock_src_root/bench/report.py %t.real.json --doc %t.doc.md > /dev/null
// RUN: FileCheck %s --check-prefix=DOC < %t.doc.md
/// bench/gpu/run.sh checks its folders before anything else.
// RUN: env -u OUT not bash %deplodock_src_root/bench/gpu/run.sh --bin %t.bin 2>&1 | FileCheck %s --check-prefix=NOOUT
// RUN: not bash %deplodock_src_root/bench/gpu/run.sh --out %t.o --bin %t.nope 2>&1 | FileCheck %s --check-prefix=NOBIN
// REQUIRES: numpy

// UNKNOWN: error: unknown case 'matmul.llama.q_proj.s32' (see bench/generate.py --list)
// PATTERN: error: no case matches 'conv.*'
// DTYPE: error: unknown dtype 'int4' (known: fp32, bf16, fp16, fp8)
// TOOLS: error: missing tools in {{.*}}empty: deplodock-opt, deplodock-translate, deplodock-run (build them, or point --bin-dir or DEPLODOCK_BIN at the bin folder of a build)
/// A real run needs the tuner for the 'tuned' backend, and a GPU.
// TUNE: error: missing tools in {{.*}}: deplodock-tune (
// NOGPU: error: {{PyTorch is not installed: measure on a GPU machine with PyTorch, or use --dry-run|PyTorch sees no CUDA GPU}}
// BACKEND: error: unknown backend 'cublas' (known: eager, compile, ours, tuned, eager_tf32, compile_tf32, ours_tf32, tuned_tf32)
// NOTJSON: error: --resume: {{.*}}errors.mlir: not JSON
// MIX: error: --resume: cannot mix a dry run (FAKE timings) with a real run
// MERGE: error: cannot merge a dry run (FAKE timings) with a real run
// MISSING: error: {{.*}}nothing.json: no such file
// DOCFAKE: error: --doc renders real measurements only; these are a dry run's FAKE timings
// DOCOUT: error: argument --out: not allowed with argument --doc
// DOC:      Rendered from `{{.*}}real.json` (real measurements).
// DOC:      # Deplodock vs PyTorch: kernel benchmark
// DOC-NOT:  FAKE TIMINGS
// DOC:      | softmax.mini.s8 |
// NOOUT: error: no output folder: set $OUT or pass --out DIR
// NOBIN: error: no tools folder {{.*}}nope (run scripts/build-portable.sh and carry build-portable/carry, or pass --bin DIR)
