//===- TranslateRegistration.cpp - Register --emit-cuda ---------*- C++ -*-===//

#include "Deplodock/InitAllDialects.h"
#include "Deplodock/Target/Cuda/CudaEmitter.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"

using namespace mlir;

void deplodock::registerToCudaTranslation(CudaTranslationHook afterEmit) {
  static llvm::cl::opt<unsigned> indexBitwidth(
      "cuda-index-bitwidth",
      llvm::cl::desc("Width of index values in emitted CUDA, 32 or 64 "
                     "(default: 32)"),
      llvm::cl::init(32));
  static CudaTranslationHook hook;
  hook = std::move(afterEmit);
  static TranslateFromMLIRRegistration registration(
      "emit-cuda", "Print Kernel IR (dkernel.func) as CUDA C++",
      [](Operation *op, raw_ostream &os) -> LogicalResult {
        CudaEmitterOptions options;
        options.indexBitwidth = indexBitwidth;
        if (failed(translateToCuda(op, os, options)))
          return failure();
        return hook ? hook(op, options) : success();
      },
      [](DialectRegistry &registry) {
        registerDeplodockDialects(registry);
        registerDeplodockInputDialects(registry);
      });
}
