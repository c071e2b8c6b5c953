//===- deplodock-translate.cpp - Deplodock translation driver ---*- C++ -*-===//
//
// mlir-translate with Deplodock's translations: `--emit-cuda` prints Kernel
// IR as CUDA C++, and with `--cuda-manifest=FILE` also writes what a caller
// needs to launch it (LayerManifest.h) as JSON.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"
#include "Deplodock/Runtime/KernelProgram.h"
#include "Deplodock/Support/ToolDiagnostics.h"
#include "Deplodock/Support/ToolOptions.h"
#include "Deplodock/Target/Cuda/CudaEmitter.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace mlir;
using namespace deplodock;
namespace cl = llvm::cl;

static cl::OptionCategory translateCategory("deplodock-translate options");

static cl::opt<std::string> manifestFile(
    "cuda-manifest",
    cl::desc("With --emit-cuda, also write the layer's launch manifest "
             "(buffers, kernels, grid, block, shared memory, parameters, "
             "buffers to zero; docs/Runtime.md) as JSON to FILE"),
    cl::value_desc("FILE"), cl::cat(translateCategory));
static cl::opt<std::string> manifestFunc(
    "cuda-manifest-func",
    cl::desc("The host function (or lone dkernel.func) the manifest "
             "describes (default: the module's only function with a body)"),
    cl::value_desc("NAME"), cl::cat(translateCategory));

/// " (@a, @b)" of the symbols of `ops`.
template <typename Range> static std::string listNames(Range &&ops) {
  std::string text;
  for (auto op : ops)
    text += (text.empty() ? "@" : ", @") + op.getSymName().str();
  return " (" + text + ")";
}

/// The program --cuda-manifest describes: --cuda-manifest-func, else the
/// only host function, else the only kernel.
static FailureOr<runtime::KernelProgram>
buildProgram(ModuleOp module, const CudaEmitterOptions &options) {
  SmallVector<func::FuncOp> hosts;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal())
      hosts.push_back(func);
  SmallVector<dkernel::FuncOp> kernels(module.getOps<dkernel::FuncOp>());
  Location where = hosts.empty() ? (kernels.empty() ? module.getLoc()
                                                    : kernels.front().getLoc())
                                 : hosts.front().getLoc();
  if (!manifestFunc.empty()) {
    Operation *symbol = module.lookupSymbol(manifestFunc);
    if (auto host = dyn_cast_or_null<func::FuncOp>(symbol);
        host && !host.isExternal())
      return runtime::buildKernelProgram(host, options);
    if (auto kernel = dyn_cast_or_null<dkernel::FuncOp>(symbol))
      return runtime::buildKernelProgram(kernel, options);
    return emitError(where, "--cuda-manifest-func: no function @")
           << manifestFunc << " with a body and no dkernel.func of that name"
           << (hosts.empty() ? "" : "; host functions:" + listNames(hosts));
  }
  if (hosts.size() == 1)
    return runtime::buildKernelProgram(hosts.front(), options);
  if (hosts.empty() && kernels.size() == 1)
    return runtime::buildKernelProgram(kernels.front(), options);
  if (hosts.empty())
    return emitError(where, "--cuda-manifest: no host function to describe")
           << (kernels.empty() ? ", and no kernel"
                               : ", and " + std::to_string(kernels.size()) +
                                     " kernels" + listNames(kernels))
           << "; choose one with --cuda-manifest-func";
  return emitError(where, "--cuda-manifest: ")
         << hosts.size() << " host functions" << listNames(hosts)
         << "; choose one with --cuda-manifest-func";
}

/// Writes the manifest of `op` when --cuda-manifest asks.
static LogicalResult writeManifest(Operation *op,
                                   const CudaEmitterOptions &options) {
  if (manifestFile.empty()) {
    if (manifestFunc.empty())
      return success();
    llvm::WithColor::error() << "--cuda-manifest-func needs "
                                "--cuda-manifest=FILE\n";
    return failure();
  }
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    return op->emitError("--cuda-manifest needs a module");
  FailureOr<runtime::KernelProgram> program = buildProgram(module, options);
  if (failed(program))
    return failure();
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file =
      openOutputFile(manifestFile, &error);
  if (!file) {
    llvm::WithColor::error() << "--cuda-manifest: " << error << "\n";
    return failure();
  }
  file->os() << llvm::formatv("{0:2}", runtime::encodeManifest(*program))
             << "\n";
  file->keep();
  return success();
}

int main(int argc, char **argv) {
  prepareToolOptions({&translateCategory});
  registerToCudaTranslation(writeManifest);
  std::vector<char *> args = withToolDiagnosticDefaults(argc, argv);
  return failed(mlirTranslateMain(args.size() - 1, args.data(),
                                  "Deplodock translation driver\n"));
}
