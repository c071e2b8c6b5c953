//===- BenchDriver.h - Run a layer's kernels on the GPU ---------*- C++ -*-===//
//
// What deplodock-run --bench does, as a library: lower one function of a
// layer to Kernel IR, run every kernel in order on the GPU through the bench
// worker, check the results against a reference (the CPU interpreter when
// the layer is small enough, else its simplest lowering on the same GPU),
// and report the time of each kernel and of the whole function.
//
//   BenchOptions options;                 // what the flags say
//   options.client.workerPath = ...;
//   FailureOr<BenchRun> run = runBench(module, options, llvm::outs());
//   // run->result.status: ok, or how the kernels failed
//
// docs/Runtime.md describes the report and the files.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_BENCH_BENCHDRIVER_H
#define DEPLODOCK_BENCH_BENCHDRIVER_H

#include "Deplodock/Runtime/BenchClient.h"
#include "Deplodock/Runtime/BenchRequest.h"
#include "Deplodock/Runtime/BenchResult.h"

#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <string>
#include <vector>

namespace deplodock::bench {

/// What to run and how.
struct BenchOptions {
  /// The function to run; the first with a body when empty.
  std::string funcName;
  /// The arguments: one .npy file each (runtime::readArgumentFile's
  /// conventions), or, when there are none, the values the interpreter
  /// draws for `seed`.
  std::vector<std::string> inputs;
  uint64_t seed = 0;
  /// How the layer is lowered (a module in Kernel IR runs as it is).
  std::string target = "sm_90";
  std::string knobs;
  std::string tuneDb;
  /// Precision of FP32 contractions: "", "ieee" or "tf32" (the lowering's
  /// `precision` option). With TF32 the f32 outputs are checked against the
  /// IEEE reference with TF32's tolerance (runtime::tf32Tolerance).
  std::string precision;
  /// Fuse f16 and bf16 prologues too (the lowering's `half-prologues`).
  bool halfPrologues = false;
  /// Check on the CPU interpreter when it would hold at most this many
  /// elements, else against the simplest lowering on the GPU.
  uint64_t cpuReferenceLimit = uint64_t(1) << 23;
  /// The request's budget and deadlines (docs/Runtime.md).
  runtime::TimingOptions timing;
  double kernelTimeoutS = 10;
  /// The deadline of the whole request; 0 for one from the budget.
  double benchTimeoutS = 0;
  /// The worker to start.
  runtime::BenchClientOptions client;
  /// Instructions for the fake device (a fault), sent with the request.
  llvm::json::Object fake;
  /// Where result #i goes as result<i>.npy; nowhere when empty.
  std::string outputDir;
  /// Where the device, the timings and the status go as JSON; nowhere when
  /// empty.
  std::string benchJson;
};

/// What a run found.
struct BenchRun {
  /// The function run.
  std::string function;
  /// The worker's answer: its status says whether the kernels ran and
  /// matched. A function that launches nothing is `ok` with no timings.
  runtime::BenchResult result;
  /// What the results were checked against, in words.
  std::string reference;
  /// Whether FP32 contractions were lowered to TF32 (precision=tf32).
  bool tf32 = false;
  /// The device, when a worker ran.
  std::optional<runtime::DeviceInfo> device;
};

/// Runs function `options.funcName` of `module` (which loses its other
/// functions) and prints the report to `os`; then writes
/// `options.outputDir` and `options.benchJson`, also when the kernels
/// failed. Fails, with diagnostics (located in the layer where they are
/// about it), when the layer does not lower, the inputs do not fit, no
/// worker can run, or a file cannot be written.
mlir::FailureOr<BenchRun> runBench(mlir::ModuleOp module,
                                   const BenchOptions &options,
                                   llvm::raw_ostream &os);

} // namespace deplodock::bench

#endif // DEPLODOCK_BENCH_BENCHDRIVER_H
