// REQUIRES: numpy
// RUN: %numpy_python %S/Inputs/numerics_check.py %deplodock_src_root | FileCheck %s

/// The output check and the inputs: the tolerances pass rounding in the
/// case's dtype and fail a single wrong row or element; bf16 and e4m3
/// inputs are fp32 draws rounded to nearest even; inputs are deterministic.
// CHECK-NOT: FAIL
// CHECK: PASS: a result rounded to bf16 passes BF16
// CHECK: PASS: ... and fails FP32
// CHECK: PASS: one unwritten row of 512 fails bf16
// CHECK: PASS: one element off by 1.0 fails bf16
// CHECK: PASS: 1 + 3*2^-8 (a tie) rounds to even: 1 + 2^-6
// CHECK: PASS: 1 + 3*2^-4 (a tie) rounds to even: 1.25
// CHECK: PASS: every finite e4m3 code reads back and rounds to itself
// CHECK: PASS: a value past e4m3's 448 is refused
// CHECK: PASS: an FP8 case's operands are e4m3 bits, its scales f32 scalars
// CHECK: PASS: a case's bf16 inputs are its fp32 inputs rounded
// CHECK: PASS: uint16 data for an fp32 case is refused
// CHECK: PASS: a uint8 result is refused
