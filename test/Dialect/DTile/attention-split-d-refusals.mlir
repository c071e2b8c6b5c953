// attention_split_d and attention_rows say why they leave a kernel alone,
// one broken assumption at a time, on the Tile IR of Inputs/attention-d128-rows.mlir
// (whose rows both rules take as it is).
// RUN: deplodock-opt %S/Inputs/attention-d128-rows.mlir --dtile-attention-split-d="list-forks target=sm_90" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TAKES
// The q.k sum under a condition on the thread: the lanes' combine would hang.
// RUN: sed 's/%%5 = arith.cmpi ult, %%4, %%c37/%%5 = arith.cmpi ult, %%0, %%c37/' %S/Inputs/attention-d128-rows.mlir | deplodock-opt --dtile-attention-split-d="list-forks target=sm_90" -o /dev/null 2>&1 | FileCheck %s --check-prefix=GUARD
// The q.k sum from 0.088 rather than 0: each lane would add it once.
// RUN: sed 's/iter(%%acc_6 = %%cst : f32)/iter(%%acc_6 = %%cst_1 : f32)/' %S/Inputs/attention-d128-rows.mlir | deplodock-opt --dtile-attention-split-d="list-forks target=sm_90" -o /dev/null 2>&1 | FileCheck %s --check-prefix=INIT
// An accumulator read at element 0 in the epilogue: not the lane's.
// RUN: sed 's/%%3 = dloop.load %%alloca\[%%d4\]/%%3 = dloop.load %%alloca[%%c0]/' %S/Inputs/attention-d128-rows.mlir | deplodock-opt --dtile-attention-split-d="list-forks target=sm_90" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ACCESS
// Every output element of a row stored at column 0: lanes would race.
// RUN: sed 's/%%d1_i, %%d4\]/%%d1_i, %%c0]/' %S/Inputs/attention-d128-rows.mlir | deplodock-opt --dtile-attention-split-d="list-forks target=sm_90" -o /dev/null 2>&1 | FileCheck %s --check-prefix=STORE
// A loop over the buffer nested in the loop that clears it: split_d deals
// each such loop's elements to the lanes, and cannot deal both.
// RUN: sed '/dloop.store %%cst, %%alloca\[%%d2\]/a dloop.for %%z = 0 to 128 free "z" { dloop.store %%cst, %%alloca[%%z] : memref<128xf32> }' %S/Inputs/attention-d128-rows.mlir | deplodock-opt --dtile-attention-split-d="list-forks target=sm_90" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NESTED
// A second thread axis that is not split_d's lanes: attention_rows would
// deal rows of what is not one a thread.
// RUN: sed 's/threads(%%d1_i : 32 "d1_i")/threads(%%d1_i : 32 "d1_i", %%x : 2 "x")/' %S/Inputs/attention-d128-rows.mlir | deplodock-opt --dtile-attention-rows="list-forks target=sm_90" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ROWS

// TAKES: remark: @sdpa_0_reduce: attention_split_d: split_d in {8*, 1, 4, 16}
// GUARD: remark: @sdpa_0_reduce: attention_split_d: does not apply: a sum over a private buffer is under a condition that differs between threads
// INIT: remark: @sdpa_0_reduce: attention_split_d: does not apply: a loop over a private buffer carries a value that is no reduction from its identity
// ACCESS: remark: @sdpa_0_reduce: attention_split_d: does not apply: a private buffer is accessed other than at the variable of a loop over its extent
// STORE: remark: @sdpa_0_reduce: attention_split_d: does not apply: it stores to memory outside a loop over a private buffer or not at that loop's variable
// NESTED: remark: @sdpa_0_reduce: attention_split_d: does not apply: a loop over a private buffer is inside another
// ROWS: remark: @sdpa_0_reduce: attention_rows: does not apply: its threads are not one a row (with split_d's lanes)
