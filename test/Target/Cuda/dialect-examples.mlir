// RUN: deplodock-translate --emit-cuda %S/../../Dialect/DKernel/ops.mlir -o %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_90a -cubin -o %t.sm90a.cubin %t.cu %}
// RUN: %if nvrtc %{ %nvrtc --gpu-architecture=sm_90a %t.cu %}

/// Every kernel of the dialect's round-trip test prints, and the CUDA
/// compiles (sm_90a: some use TMA).
