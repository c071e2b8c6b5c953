// RUN: deplodock-translate --emit-cuda %s -split-input-file -verify-diagnostics

/// Every located error of the CUDA emitter. The emitter never crashes on IR
/// it cannot print: it reports where, and writes nothing (no-partial-output.mlir).

/// No kernels and an op not lowered to Kernel IR: the input is at the
/// wrong level (a layer with nothing to launch is valid: nothing-to-launch.mlir).
func.func @not_lowered(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{no dkernel.func to emit as CUDA: this op is not lowered to Kernel IR}}
  %e = math.exp %a : tensor<4xf32>
  return %e : tensor<4xf32>
}

// -----

/// An op outside the emitter's set.
dkernel.func @unsupported_op(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %v = memref.load %y[%c0] : memref<4xf32>
  // expected-error @+1 {{'math.atan' op cannot be emitted as CUDA}}
  %a = math.atan %v : f32
  memref.store %a, %y[%c0] : memref<4xf32>
  dkernel.return
}

// -----

dkernel.func @unsupported_arith(%y: memref<4xi32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : i32
  %v = memref.load %y[%c0] : memref<4xi32>
  // expected-error @+1 {{'arith.ceildivsi' op cannot be emitted as CUDA}}
  %a = arith.ceildivsi %v, %c3 : i32
  memref.store %a, %y[%c0] : memref<4xi32>
  dkernel.return
}

// -----

/// A value of a type CUDA has no scalar for (cuda_fp8.h holds the OCP
/// formats e4m3fn and e5m2, not the FNUZ variants).
dkernel.func @f8_value(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %v = memref.load %y[%c0] : memref<4xf32>
  // expected-error @+1 {{cannot print type 'f8E4M3FNUZ' as CUDA}}
  %t = arith.truncf %v : f32 to f8E4M3FNUZ
  dkernel.return
}

// -----

/// Arithmetic on an 8-bit float, which cuda_fp8.h's types lack: the
/// pipeline widens it to f32 before Kernel IR (dloop-widen-f8).
dkernel.func @f8_arith(%y: memref<4xf8E4M3FN>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %v = memref.load %y[%c0] : memref<4xf8E4M3FN>
  // expected-error @+1 {{'arith.addf' op on 8-bit floats cannot be emitted as CUDA: Kernel IR computes them in f32 (dloop-widen-f8)}}
  %s = arith.addf %v, %v : f8E4M3FN
  memref.store %s, %y[%c0] : memref<4xf8E4M3FN>
  dkernel.return
}

// -----

dkernel.func @f8_compare(%y: memref<4xf8E5M2>, %z: memref<4xi1>) outputs [1] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %v = memref.load %y[%c0] : memref<4xf8E5M2>
  // expected-error @+1 {{'arith.cmpf' op on 8-bit floats cannot be emitted as CUDA}}
  %p = arith.cmpf olt, %v, %v : f8E5M2
  memref.store %p, %z[%c0] : memref<4xi1>
  dkernel.return
}

// -----

/// A vector constant: the only way to a vector value in a kernel.
dkernel.func @vector_constant(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  // expected-error @+1 {{cannot print constant dense<1.000000e+00> : vector<4xf32> as CUDA}}
  %v = arith.constant dense<1.0> : vector<4xf32>
  %w = arith.addf %v, %v : vector<4xf32>
  dkernel.return
}

// -----

dkernel.func @f8_constant(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  // expected-error @+1 {{cannot print constant 1.000000e+00 : f8E4M3FNUZ as CUDA}}
  %v = arith.constant 1.0 : f8E4M3FNUZ
  dkernel.return
}

// -----

/// Buffers are not values: an scf.if cannot choose between two.
dkernel.func @memref_result(%a: memref<4xf32>, %b: memref<4xf32>) outputs [0, 1] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %t = gpu.thread_id x
  %p = arith.cmpi eq, %t, %c0 : index
  // expected-error @+1 {{cannot print type 'memref<4xf32>' as CUDA}}
  %m = scf.if %p -> (memref<4xf32>) {
    scf.yield %a : memref<4xf32>
  } else {
    scf.yield %b : memref<4xf32>
  }
  dkernel.return
}

// -----

dkernel.func @memref_iter_arg(%a: memref<4xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{cannot print type 'memref<4xf32>' as CUDA}}
  %m = scf.for %i = %c0 to %c1 step %c1 iter_args(%b = %a) -> (memref<4xf32>) {
    scf.yield %b : memref<4xf32>
  }
  dkernel.return
}

// -----

/// __shfl_xor_sync is the only shuffle printed, and it has no `valid` flag.
dkernel.func @shuffle_down(%y: memref<32xf32>) outputs [0] grid [1, 1, 1] block [32, 1, 1] smem 0 {
  %off = arith.constant 1 : i32
  %width = arith.constant 32 : i32
  %t = gpu.thread_id x
  %v = memref.load %y[%t] : memref<32xf32>
  // expected-error @+1 {{'gpu.shuffle' op is only emitted in xor mode}}
  %s, %ok = gpu.shuffle down %v, %off, %width : f32
  memref.store %s, %y[%t] : memref<32xf32>
  dkernel.return
}

// -----

dkernel.func @shuffle_valid_used(%y: memref<32xf32>) outputs [0] grid [1, 1, 1] block [32, 1, 1] smem 0 {
  %off = arith.constant 1 : i32
  %width = arith.constant 32 : i32
  %t = gpu.thread_id x
  %v = memref.load %y[%t] : memref<32xf32>
  // expected-error @+1 {{'gpu.shuffle' op with a used 'valid' result cannot be emitted}}
  %s, %ok = gpu.shuffle xor %v, %off, %width : f32
  %r = arith.select %ok, %s, %v : f32
  memref.store %r, %y[%t] : memref<32xf32>
  dkernel.return
}

// -----

/// i1 is `bool`, whose + and * are not modulo 2.
dkernel.func @i1_add(%y: memref<2xi1>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.load %y[%c0] : memref<2xi1>
  %b = memref.load %y[%c1] : memref<2xi1>
  // expected-error @+1 {{'arith.addi' op on i1 cannot be emitted; only andi, ori and xori can}}
  %s = arith.addi %a, %b : i1
  memref.store %s, %y[%c0] : memref<2xi1>
  dkernel.return
}

// -----

dkernel.func @i1_tree_reduce(%y: memref<1xi1>) outputs [0] grid [1, 1, 1] block [32, 1, 1] smem 16 {
  %c0 = arith.constant 0 : index
  %buf = dkernel.alloc_shared offset 0 : memref<16xi1, #gpu.address_space<workgroup>>
  // expected-error @+1 {{reductions of i1 cannot be emitted}}
  %r = dkernel.tree_reduce max %buf length 16 : memref<16xi1, #gpu.address_space<workgroup>> -> i1
  memref.store %r, %y[%c0] : memref<1xi1>
  dkernel.return
}

// -----

/// CUDA has no reinterpretation between __half and __nv_bfloat16.
dkernel.func @bitcast_f16_bf16(%x: memref<2xf16>, %y: memref<2xbf16>) outputs [1] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %v = memref.load %x[%c0] : memref<2xf16>
  // expected-error @+1 {{'arith.bitcast' op from 'f16' to 'bf16' cannot be emitted}}
  %b = arith.bitcast %v : f16 to bf16
  memref.store %b, %y[%c0] : memref<2xbf16>
  dkernel.return
}

// -----

/// Inputs are `const`: writing one would not compile.
dkernel.func @store_to_input(%x: memref<4xf32>, %y: memref<4xf32>) outputs [1] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %v = memref.load %y[%c0] : memref<4xf32>
  // expected-error @+1 {{'memref.store' op writes parameter #0, which is not in the kernel's outputs (printed const)}}
  memref.store %v, %x[%c0] : memref<4xf32>
  dkernel.return
}

// -----

dkernel.func @atomic_to_input(%x: memref<4xf32>, %y: memref<4xf32>) outputs [1] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %v = memref.load %y[%c0] : memref<4xf32>
  // expected-error @+1 {{'dkernel.atomic_store' op writes parameter #0, which is not in the kernel's outputs (printed const)}}
  dkernel.atomic_store add %v, %x[%c0] : memref<4xf32>
  dkernel.return
}

// -----

/// A local array has a size known when the kernel is compiled.
dkernel.func @dynamic_alloca(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{'memref.alloca' op of 'memref<?xf32>' cannot be emitted; a local array has a static shape and the identity layout}}
  %a = memref.alloca(%c4) : memref<?xf32>
  dkernel.return
}

// -----

dkernel.func @workgroup_alloca(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  // expected-error @+1 {{'memref.alloca' op in memory space #gpu.address_space<workgroup> cannot be emitted}}
  %a = memref.alloca() : memref<4xf32, #gpu.address_space<workgroup>>
  dkernel.return
}

// -----

/// Kernels are `extern "C"` functions.
// expected-error @+1 {{'dkernel.func' op name 'my-kernel' is not a C identifier}}
dkernel.func @"my-kernel"(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  dkernel.return
}

// -----

/// 32-bit indices (the default) cannot address more than 2^31 - 1 elements.
// expected-error @+1 {{'dkernel.func' op parameter #1 has 4294967304 elements, too many for 32-bit indices; emit with index bitwidth 64}}
dkernel.func @big_buffer(%x: memref<4xi8>, %y: memref<4294967304xi8>) outputs [1] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  dkernel.return
}

// -----

dkernel.func @big_index(%y: memref<4xi8>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{index constant 4294967296 does not fit in 32 bits; emit with index bitwidth 64}}
  %n = arith.constant 4294967296 : index
  scf.for %i = %c1 to %n step %c1 {
  }
  dkernel.return
}

// -----

/// The first error stops the emitter: later kernels are not looked at.
dkernel.func @first(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %v = memref.load %y[%c0] : memref<4xf32>
  // expected-error @+1 {{'math.atan' op cannot be emitted as CUDA}}
  %a = math.atan %v : f32
  dkernel.return
}

dkernel.func @second(%y: memref<4xf32>) outputs [0] grid [1, 1, 1] block [1, 1, 1] smem 0 {
  %c0 = arith.constant 0 : index
  %v = memref.load %y[%c0] : memref<4xf32>
  %a = math.atan %v : f32
  dkernel.return
}

// -----

/// Thread-block clusters need sm_90: on a target without the feature the
/// kernel is refused before anything prints.
module attributes {dkernel.target = #dkernel.target<"sm_80", capability = 80, sm_count = 108, smem_per_block = 166912, smem_per_sm = 167936, threads_per_block = 1024, threads_per_sm = 2048, blocks_per_sm = 32, registers_per_sm = 65536, registers_per_thread = 255, warp_size = 32, l2_bytes = 41943040, features = [cp_async, mma_sync]>} {
// expected-error @+1 {{'dkernel.func' op cluster needs a target with thread-block clusters, not sm_80}}
dkernel.func @cluster_on_sm80(%y: memref<4xf32>) outputs [0] grid [2, 1, 1] block [32, 1, 1] cluster [2, 1, 1] smem 0 {
  dkernel.return
}
}
