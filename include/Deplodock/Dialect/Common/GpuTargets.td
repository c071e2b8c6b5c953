//===- GpuTargets.td - The GPUs the compiler targets -------*- tablegen -*-===//
//
// The one description of each GPU target: what the Tile rules, the Kernel IR
// verifier, the Kernel lowering, the roofline model and the tuner's device
// check read. deplodock-tblgen -gen-gpu-targets turns it into a plain C++
// table (GpuTarget.h), which the `#dkernel.target` attribute is built from.
//
// Code asks a target for a feature (`target.has(GpuFeature::tma)`), never
// for a compute capability: a new target (sm_90a with wgmma) is one record
// here, and a new feature one GpuFeature record plus the code that uses it.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_DIALECT_COMMON_GPUTARGETS
#define DEPLODOCK_DIALECT_COMMON_GPUTARGETS

/// A capability some targets have: its name in `#dkernel.target` and in
/// diagnostics, and what it offers.
class GpuFeature<string featureName, string featureSummary> {
  string name = featureName;
  string summary = featureSummary;
}

def GpuFeature_CpAsync : GpuFeature<"cp_async",
    "cp.async: copies from global to shared memory that bypass registers and "
    "complete asynchronously (sm_80 and newer)">;
def GpuFeature_MmaSync : GpuFeature<"mma_sync",
    "tensor cores through warp-level mma.sync m16n8k16 on f16 and bf16 "
    "operands with f32 accumulators, and ldmatrix (sm_80 and newer)">;
def GpuFeature_Tma : GpuFeature<"tma",
    "the Tensor Memory Accelerator: one thread copies a whole box with "
    "cp.async.bulk.tensor, completing on an mbarrier (sm_90 and newer)">;
def GpuFeature_Wgmma : GpuFeature<"wgmma",
    "tensor cores through warpgroup-level wgmma.mma_async m64nNk16 reading "
    "its multiplicands from shared memory by matrix descriptors (sm_90a "
    "only: the arch-specific features of capability 9.0)">;

def GpuFeature_DependentLaunch : GpuFeature<"dependent_launch",
    "programmatic dependent launch: a grid may start while the grid before "
    "it on the stream runs, waiting with griddepcontrol.wait before it "
    "touches memory (sm_90 and newer)">;

def GpuFeature_Clusters : GpuFeature<"clusters",
    "thread-block clusters: blocks launched in groups of up to 8 that run at "
    "the same time and synchronise with barrier.cluster (sm_90 and newer)">;

/// A GPU target: a compute capability and the limits of its reference part.
/// Legality reads the limits (per-block ones are the same on every part of
/// a capability); heuristics read the SM count of the reference part.
class GpuTarget<string targetName, int cc> {
  /// The name users and NVRTC give it: `sm_90`.
  string name = targetName;
  /// Compute capability times ten.
  int capability = cc;
  /// The part whose SM count heuristics assume.
  string referenceGpu = ?;
  int smCount = ?;
  /// The most dynamic shared memory one block may opt into, and what one SM
  /// has, in bytes.
  int smemPerBlock = ?;
  int smemPerSM = ?;
  int threadsPerBlock = 1024;
  int threadsPerSM = 2048;
  int blocksPerSM = 32;
  /// 32-bit registers per SM and the most one thread may use.
  int registersPerSM = 65536;
  int registersPerThread = 255;
  int warpSize = 32;
  /// The reference part's L2 cache in bytes: how much of the operands a
  /// wave of blocks may share before they travel from DRAM again.
  int l2Bytes = ?;
  /// Code for the target uses arch-specific features (the `a` of sm_90a):
  /// it runs only on exactly this capability, and nvcc and NVRTC must be
  /// given the target's name instead of the device's plain `sm_NN`.
  bit archSpecific = 0;
  list<GpuFeature> features = [];
}

// Numbers: CUDA C++ Programming Guide, "Compute Capabilities" (technical
// specifications per capability), and the vendor's datasheets for the SM
// counts.

def GpuTarget_SM80 : GpuTarget<"sm_80", 80> {
  // A100 SXM4: 164 KB of shared memory per SM, 163 KB per block.
  let referenceGpu = "NVIDIA A100-SXM4-80GB";
  let smCount = 108;
  let smemPerBlock = 166912;
  let smemPerSM = 167936;
  // 40 MB of L2 (A100 whitepaper).
  let l2Bytes = 41943040;
  let features = [GpuFeature_CpAsync, GpuFeature_MmaSync];
}

def GpuTarget_SM90 : GpuTarget<"sm_90", 90> {
  // H100 SXM5: 228 KB of shared memory per SM, 227 KB per block.
  let referenceGpu = "NVIDIA H100-SXM5-80GB";
  let smCount = 132;
  let smemPerBlock = 232448;
  let smemPerSM = 233472;
  // 50 MB of L2 (H100 whitepaper).
  let l2Bytes = 52428800;
  let features = [GpuFeature_CpAsync, GpuFeature_MmaSync, GpuFeature_Tma,
                  GpuFeature_Clusters, GpuFeature_DependentLaunch];
}

def GpuTarget_SM90a : GpuTarget<"sm_90a", 90> {
  // The H100 of sm_90 with its arch-specific instructions (wgmma): a device
  // of compute capability 9.0 runs it.
  let referenceGpu = "NVIDIA H100-SXM5-80GB";
  let smCount = 132;
  let smemPerBlock = 232448;
  let smemPerSM = 233472;
  let l2Bytes = 52428800;
  let archSpecific = 1;
  let features = [GpuFeature_CpAsync, GpuFeature_MmaSync, GpuFeature_Tma,
                  GpuFeature_Wgmma, GpuFeature_Clusters,
                  GpuFeature_DependentLaunch];
}

#endif // DEPLODOCK_DIALECT_COMMON_GPUTARGETS
