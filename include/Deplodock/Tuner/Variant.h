//===- Variant.h - A finished kernel variant at every level -----*- C++ -*-===//
//
// A terminal of the fork tree is a Tile IR kernel with every rule applied.
// Before it can be measured or recorded it is lowered the rest of the way,
// exactly as `lower-to-kernel` and `--emit-cuda` would: to Kernel IR (one
// dkernel.func with its launch geometry, or several launched in order with
// workspace buffers between them, as a split through a workspace lowers) and
// to CUDA C++. A Variant holds all three with their keys, so a backend takes
// what it needs and the tune database gets one inventory row per level.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_TUNER_VARIANT_H
#define DEPLODOCK_TUNER_VARIANT_H

#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"
#include "Deplodock/Dialect/DTile/Transforms/ForkCursor.h"
#include "Deplodock/Runtime/KernelProgram.h"
#include "Deplodock/Tuner/TuneDb.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>

namespace deplodock::tuner {

/// One finished variant of a kernel.
struct Variant {
  /// The structural key of the Loop IR kernel it is a variant of.
  std::string loopKey;
  /// The kernel's symbol name.
  std::string name;
  /// Every knob the rules chose, and the same as `knobs=` option text.
  dtile::KnobsAttr knobs;
  std::string knobsText;

  /// The finished Tile IR kernel: its fork-point key and printed form.
  std::string tileKey;
  std::string tileText;

  /// The Kernel IR: a module holding the kernels and the host function that
  /// launches them; its key (opKey of the one kernel, else a hash of every
  /// kernel's opKey in launch order) and printed form (the kernels').
  mlir::OwningOpRef<mlir::ModuleOp> kernelModule;
  std::string kernelKey;
  std::string kernelText;

  /// The dkernel.func of each launch, in launch order (the Tile kernel's own
  /// first).
  llvm::SmallVector<dkernel::FuncOp, 2> kernels;
  /// What the runtime runs: buffers (the kernel's arguments in order, then
  /// the workspaces the host allocates between launches), the launches in
  /// order with their geometry, parameters and zeroing, the results (the
  /// arguments the launches write) and the CUDA of every kernel.
  runtime::KernelProgram program;

  /// The CUDA C++ source of the kernels and its key: SHA-256 of the source
  /// and the launch geometry (for several kernels, of every launch with its
  /// parameters and of the workspaces' shapes and dtypes).
  std::string cuda;
  std::string cudaKey;

  /// The first kernel, whose name the variant carries.
  dkernel::FuncOp getMainKernel() const { return kernels.front(); }
  bool hasSeveralKernels() const { return program.launches.size() > 1; }

  /// Seconds spent lowering from the finished Tile IR to CUDA text.
  double loweringSeconds = 0;

  /// The `cuda_op` inventory row: source, geometry and the parameters in
  /// launch order (index, type, whether written, whether zeroed first); for
  /// several kernels, the geometry of the first and one entry per launch
  /// (docs/Tuner/Cache.md).
  CudaOpRow getCudaOpRow() const;
};

/// Lowers the finished kernel of `terminal` (every rule applied) to Kernel
/// IR and CUDA for `target`. Fails with the diagnostics as the message: a
/// variant that cannot be lowered is a compile failure, not a crash.
llvm::Expected<Variant> lowerVariant(const dtile::ForkCursor &terminal,
                                     llvm::StringRef loopKey,
                                     const dtile::Target &target);

/// lowerVariant in two halves, so that the second can run on another thread.
/// The first, on the thread that owns `terminal`: the Tile-level fields and a
/// copy of the kernel's module in `kernelModule` (the cursor may die or move
/// on afterwards).
Variant beginVariant(const dtile::ForkCursor &terminal,
                     llvm::StringRef loopKey);
/// The second: lowers the copy begun by beginVariant to Kernel IR and CUDA.
/// Several may run at once on the copies of one context when it has
/// threading enabled and every dialect loaded (prepareConcurrentLowering);
/// each reports its own diagnostics.
llvm::Error finishVariant(Variant &variant, const dtile::Target &target);
/// Makes `context` ready for finishVariant to `target` on several threads:
/// registers and loads every dialect the lowering needs (none may load while
/// others lower). False when its threading is disabled: lower on one thread
/// then.
bool prepareConcurrentLowering(mlir::MLIRContext &context,
                               const dtile::Target &target);

} // namespace deplodock::tuner

#endif // DEPLODOCK_TUNER_VARIANT_H
