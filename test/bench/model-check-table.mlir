/// bench/model_check.py --table: the model's estimate of every variant of a
/// latency table measured on a GPU (the H200 table of the matmul example),
/// beside the measurement: per kernel the ratio, the rank correlation and
/// what the model's first choice measured. One of the 69 variants, recorded
/// before transpose_a existed, now takes its default (on, as FM = 8) and
/// with it no longer takes its stages=3 (transposed slabs travel without
/// TMA): counted, not estimated.
// RUN: %python %deplodock_src_root/bench/model_check.py --table %deplodock_src_root/bench/results/tables/matmul-example.h200-2026-11-27.sm90.table --input %deplodock_src_root/examples/matmul.mlir --bin-dir %deplodock_obj_root/bin | FileCheck %s
/// A table the model recorded is no measurement; a table needs its layer;
/// results or a table, not both.
// RUN: rm -rf %t && mkdir -p %t && deplodock-tune %deplodock_src_root/examples/matmul.mlir --no-db --max-variants=2 --quiet --record-table=%t/model.table > /dev/null
// RUN: not %python %deplodock_src_root/bench/model_check.py --table %t/model.table --input %deplodock_src_root/examples/matmul.mlir --bin-dir %deplodock_obj_root/bin 2>&1 | FileCheck %s --check-prefix=MODEL
// RUN: not %python %deplodock_src_root/bench/model_check.py --table %t/model.table --bin-dir %deplodock_obj_root/bin 2>&1 | FileCheck %s --check-prefix=INPUT
// RUN: not %python %deplodock_src_root/bench/model_check.py %t/model.table --table %t/model.table --bin-dir %deplodock_obj_root/bin 2>&1 | FileCheck %s --check-prefix=BOTH
/// Not a table; a layer that is not there.
// RUN: echo '{"format": "something else"}' > %t/other.json
// RUN: not %python %deplodock_src_root/bench/model_check.py --table %t/other.json --input %deplodock_src_root/examples/matmul.mlir --bin-dir %deplodock_obj_root/bin 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not %python %deplodock_src_root/bench/model_check.py --table %deplodock_src_root/bench/results/tables/matmul-example.h200-2026-11-27.sm90.table --input %t/missing.mlir --bin-dir %deplodock_obj_root/bin 2>&1 | FileCheck %s --check-prefix=MISSING

// CHECK: @matmul_0_reduce ({{[0-9a-f]+}}): 68 variants (1 no longer lower with their knobs); GPU / model {{[0-9.]+}} (min {{[0-9.]+}}, max {{[0-9.]+}}); Spearman {{-?[0-9.]+}}; the model's pick takes {{[0-9.]+}} us, the fastest 17.3 us
// MODEL: error: {{.*}}model.table: recorded on the model, not measured
// INPUT: error: --table needs --input, the layer it was recorded from
// BOTH: error: give either RESULTS.json or --table
// FORMAT: error: {{.*}}other.json: not a deplodock latency table
// MISSING: error: {{.*}}missing.mlir: no such file
