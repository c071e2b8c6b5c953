// Looking into the tune database: --list-db lists the contexts with each
// kernel's best, --show a kernel's measured variants, --prune deletes a
// context and its rows. And their errors.
// RUN: rm -rf %t && mkdir -p %t
// RUN: deplodock-tune %s --db=%t/tune.db --max-variants=4 --quiet > /dev/null
// RUN: deplodock-tune %s --db=%t/tune.db --max-variants=2 --target=sm_80 --quiet > /dev/null
// RUN: deplodock-tune --list-db --db=%t/tune.db | FileCheck %s --check-prefix=LIST
// RUN: deplodock-tune --show=mm_0_reduce --db=%t/tune.db | FileCheck %s --check-prefix=SHOW
// RUN: deplodock-tune --show=$(%python -c "import sqlite3; print(sqlite3.connect('%t/tune.db').execute('SELECT key FROM loop_op').fetchone()[0][:10])") --db=%t/tune.db | FileCheck %s --check-prefix=SHOW
// RUN: not deplodock-tune --prune=model-sm --db=%t/tune.db 2>&1 | FileCheck %s --check-prefix=AMBIGUOUS
// RUN: deplodock-tune --prune=model-sm_80 --db=%t/tune.db | FileCheck %s --check-prefix=PRUNE
// RUN: deplodock-tune --list-db --db=%t/tune.db | FileCheck %s --check-prefix=AFTER

/// Errors.
// RUN: not deplodock-tune --show=nope --db=%t/tune.db 2>&1 | FileCheck %s --check-prefix=NO-KERNEL
// RUN: not deplodock-tune --prune=nope --db=%t/tune.db 2>&1 | FileCheck %s --check-prefix=NO-CONTEXT
// RUN: not deplodock-tune --show= --db=%t/tune.db 2>&1 | FileCheck %s --check-prefix=NO-SUBJECT
// RUN: not deplodock-tune --list-db --db=%t/missing.db 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not deplodock-tune --list-db --no-db 2>&1 | FileCheck %s --check-prefix=NO-DB
// RUN: not deplodock-tune %s --list-db --db=%t/tune.db 2>&1 | FileCheck %s --check-prefix=INPUT
// RUN: not deplodock-tune --list-db --show=mm --db=%t/tune.db 2>&1 | FileCheck %s --check-prefix=MODES

func.func @mm(%a: tensor<16x64xf32>, %b: tensor<64x32xf32>) -> tensor<16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16x32xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<16x32xf32>) -> tensor<16x32xf32>
  %c = linalg.matmul ins(%a, %b : tensor<16x64xf32>, tensor<64x32xf32>) outs(%init : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %c : tensor<16x32xf32>
}

// LIST: tune.db: 2 contexts, 1 kernels, 6 variants (6 ok), 2 best
// LIST: context model-sm_80-v12 (model, {{.*}}, sm_80), 2 variants
// LIST-NEXT: kernel key backend best us knobs
// LIST-NEXT: mm_0_reduce {{[0-9a-f]+}} model {{[0-9.]+}} {"BK":
// LIST: context model-sm_90-v12 (model, {{.*}}, sm_90), 4 variants
// LIST-NEXT: kernel key backend best us knobs
// LIST-NEXT: mm_0_reduce {{[0-9a-f]+}} model {{[0-9.]+}} {"BK":

// SHOW: kernel mm_0_reduce (key {{[0-9a-f]+}})
// SHOW: context model-sm_80-v12 (model): 2 variants
// SHOW-NEXT: status median us samples knobs
// SHOW-COUNT-2: ok {{[0-9.]+}} 1 {"BK":
// SHOW: context model-sm_90-v12 (model): 4 variants
// SHOW-NEXT: status median us samples knobs
// SHOW-COUNT-4: ok {{[0-9.]+}} 1 {"BK":

// AMBIGUOUS: error: --prune: 'model-sm' names 2 contexts (model-sm_80-v12, model-sm_90-v12); give more of the key
// PRUNE: deleted context model-sm_80-v12 and its 2 variants from {{.*}}tune.db
// AFTER: tune.db: 1 contexts, 1 kernels, 4 variants (4 ok), 1 best
// AFTER-NOT: sm_80

// NO-KERNEL: error: --show: no kernel named or keyed 'nope' in {{.*}}tune.db (see --list-db)
// NO-CONTEXT: error: --prune: no context 'nope' in {{.*}}tune.db (see --list-db)
// NO-SUBJECT: error: --show: expected a kernel name or key
// MISSING: error: tune database '{{.*}}missing.db': no such file
// NO-DB: error: --no-db: there is no database to inspect
// INPUT: error: --list-db, --show and --prune read the database only; they take no input file
// MODES: error: --compare, --time-lowering, --count-variants, --list-db, --show and --prune are separate modes: give one
