//===- LayerManifest.h - How to launch a compiled layer ---------*- C++ -*-===//
//
// Everything beside the CUDA source that a caller needs to run a layer: its
// buffers (the function's arguments, the allocations it returns, the
// scratch ones it does not), and its kernel launches in order with their
// geometry, dynamic shared memory, parameters (buffers or TMA descriptors)
// and the buffers zeroed before each. `deplodock-translate --emit-cuda
// --cuda-manifest=FILE` writes it as JSON from Kernel IR; the C runtime API
// (Deplodock/Runtime.h) and the Python package read it. docs/Runtime.md has
// the format.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_RUNTIME_LAYERMANIFEST_H
#define DEPLODOCK_RUNTIME_LAYERMANIFEST_H

#include "Deplodock/Runtime/BenchRequest.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

namespace deplodock::runtime {

/// The manifest format's version; a reader refuses another.
constexpr int64_t kManifestVersion = 1;

/// What a buffer of a layer is to its caller.
enum class BufferRole {
  /// An argument of the function: the caller passes it.
  Input,
  /// An allocation the function returns: the caller passes it too.
  Output,
  /// An allocation only the kernels use: the runtime holds it.
  Workspace,
  /// A constant the layer reads (a memref.global: RoPE tables, masks), with
  /// its contents: the runtime holds it and fills it once.
  Constant,
};

llvm::StringRef roleName(BufferRole role);

/// A layer's buffers and launches.
struct LayerManifest {
  /// The host function the layer was built from.
  std::string function;
  /// The width of `index` in the kernels (CudaEmitterOptions).
  unsigned indexBitwidth = 32;
  /// The function's arguments in order, then its allocations and
  /// constants. Only their names, dtypes and shapes matter here, and the
  /// contents (init Data) of constants.
  std::vector<BufferSpec> buffers;
  unsigned numArguments = 0;
  std::vector<LaunchSpec> launches;
  /// The buffer each result of the function is.
  std::vector<unsigned> results;
  /// NVRTC options beyond the device's: the architecture of an
  /// arch-specific target (`--gpu-architecture=sm_90a`).
  std::vector<std::string> compileOptions;

  BufferRole getRole(unsigned buffer) const;
  /// The buffers a caller passes to a launch, in order: the arguments, then
  /// each allocation the function returns, once, in the order returned.
  std::vector<unsigned> getBindings() const;
};

/// The manifest as JSON (keys sorted: the same layer gives the same bytes).
llvm::json::Value encodeManifest(const LayerManifest &manifest);

/// Reads and checks a manifest (see validateManifest). Errors name the
/// malformed field ("... at manifest.launches[0].grid").
llvm::Expected<LayerManifest> decodeManifest(llvm::StringRef json);

/// Checks what a runtime relies on: shapes in range, the launches (as
/// checkLaunches, when there are any), arguments and results in range.
llvm::Error validateManifest(const LayerManifest &manifest);

} // namespace deplodock::runtime

#endif // DEPLODOCK_RUNTIME_LAYERMANIFEST_H
