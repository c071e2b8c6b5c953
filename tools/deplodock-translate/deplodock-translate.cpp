//===- deplodock-translate.cpp - Deplodock translation driver ---*- C++ -*-===//
//
// mlir-translate with Deplodock's translations: `--emit-cuda` prints Kernel
// IR as CUDA C++. The driver is ours rather than mlirTranslateMain so that a
// file it cannot read or write is an `error:`, and a write that fails (a
// full disk) is an error rather than a lost output or an abort.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Runtime/OutputFile.h"
#include "Deplodock/Target/Cuda/CudaEmitter.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/ToolUtilities.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
namespace cl = llvm::cl;

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  deplodock::registerToCudaTranslation();
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
  cl::ParseCommandLineOptions(argc, argv, "Deplodock translation driver\n");

  auto translateChunk = [&](std::unique_ptr<llvm::MemoryBuffer> chunk,
                            raw_ostream &os) -> LogicalResult {
    MLIRContext context;
    context.allowUnregisteredDialects(allowUnregistered);
    context.printOpOnDiagnostic(!verifyDiagnostics);
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
  return deplodock::runtime::runOnFiles(
      inputName, outputName,
      [&](std::unique_ptr<llvm::MemoryBuffer> input, raw_ostream &os) {
        return splitAndProcessBuffer(std::move(input), translateChunk, os,
                                     marker);
      });
}
