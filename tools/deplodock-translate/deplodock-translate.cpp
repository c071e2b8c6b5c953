//===- deplodock-translate.cpp - Deplodock translation driver ---*- C++ -*-===//
//
// mlir-translate with Deplodock's translations: `--emit-cuda` prints Kernel
// IR as CUDA C++, and with `--cuda-manifest=FILE` also writes what a caller
// needs to launch it (LayerManifest.h) as JSON. The driver is ours rather
// than mlirTranslateMain so that a file it cannot read or write is an
// `error:`, and a write that fails (a full disk) is an error rather than a
// lost output or an abort.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"
#include "Deplodock/Runtime/KernelProgram.h"
#include "Deplodock/Runtime/OutputFile.h"
#include "Deplodock/Support/ToolDiagnostics.h"
#include "Deplodock/Support/ToolOptions.h"
#include "Deplodock/Target/Cuda/CudaEmitter.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/ToolUtilities.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
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
  llvm::Expected<runtime::OutputFile> file =
      runtime::OutputFile::open(manifestFile);
  if (!file) {
    llvm::WithColor::error()
        << "--cuda-manifest: " << llvm::toString(file.takeError()) << "\n";
    return failure();
  }
  file->os() << llvm::formatv("{0:2}", runtime::encodeManifest(*program))
             << "\n";
  if (llvm::Error kept = file->keep()) {
    llvm::WithColor::error()
        << "--cuda-manifest: " << llvm::toString(std::move(kept)) << "\n";
    return failure();
  }
  return success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  prepareToolOptions({&translateCategory});
  registerToCudaTranslation(writeManifest);
  cl::opt<std::string> inputName(cl::Positional, cl::desc("<input file>"),
                                 cl::init("-"));
  cl::opt<std::string> outputName("o", cl::desc("Output filename"),
                                  cl::value_desc("filename"), cl::init("-"));
  cl::opt<std::string> splitMarker(
      "split-input-file", cl::ValueOptional,
      cl::desc("Split the input at this marker (default '// -----') and "
               "translate each chunk on its own"));
  cl::opt<bool> verifyDiagnostics(
      "verify-diagnostics",
      cl::desc("Check that the diagnostics match the input's expected-* "
               "comments"));
  cl::opt<bool> allowUnregistered(
      "allow-unregistered-dialect",
      cl::desc("Allow operations of dialects that are not registered"));
  cl::opt<const Translation *, false, TranslationParser> translation(
      "", cl::desc("Translation to perform"), cl::Required);
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerTranslationCLOptions();
  std::vector<char *> args = withToolDiagnosticDefaults(argc, argv);
  cl::ParseCommandLineOptions(args.size() - 1, args.data(),
                              "Deplodock translation driver\n");

  auto translateChunk = [&](std::unique_ptr<llvm::MemoryBuffer> chunk,
                            raw_ostream &os) -> LogicalResult {
    MLIRContext context;
    context.allowUnregisteredDialects(allowUnregistered);
    // --mlir-print-op-on-diagnostic decides, except that expected-*
    // comments never see the op.
    if (verifyDiagnostics)
      context.printOpOnDiagnostic(false);
    auto sourceMgr = std::make_shared<llvm::SourceMgr>();
    sourceMgr->AddNewSourceBuffer(std::move(chunk), llvm::SMLoc());
    if (!verifyDiagnostics) {
      SourceMgrDiagnosticHandler handler(*sourceMgr, &context);
      return (*translation)(sourceMgr, os, &context);
    }
    // Whether the translation fails does not matter here, only whether it
    // said what the input expects.
    SourceMgrDiagnosticVerifierHandler handler(*sourceMgr, &context);
    (void)(*translation)(sourceMgr, os, &context);
    return handler.verify();
  };
  StringRef marker = "";
  if (splitMarker.getNumOccurrences())
    marker = splitMarker.empty() ? StringRef(kDefaultSplitMarker)
                                 : StringRef(splitMarker);
  return runtime::runOnFiles(
      inputName, outputName,
      [&](std::unique_ptr<llvm::MemoryBuffer> input, raw_ostream &os) {
        return splitAndProcessBuffer(std::move(input), translateChunk, os,
                                     marker);
      });
}
