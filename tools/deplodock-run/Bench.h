//===- Bench.h - deplodock-run --bench --------------------------*- C++ -*-===//
//
// The --bench mode of deplodock-run: its flags, handed to bench::runBench
// (include/Deplodock/Bench/BenchDriver.h), which lowers the layer, runs its
// kernels on the GPU and reports their times.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_TOOLS_DEPLODOCK_RUN_BENCH_H
#define DEPLODOCK_TOOLS_DEPLODOCK_RUN_BENCH_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"

#include <string>
#include <vector>

namespace deplodock {

/// The options deplodock-run shares with --bench.
struct BenchConfig {
  std::string inputFile;
  std::string funcName;
  uint64_t seed = 0;
  std::vector<std::string> inputs;
  /// A pass pipeline applied to the input first.
  std::string pipeline;
  std::string outputDir;
  /// The GPU the Tile rules target (sm_80, sm_90, sm_90a).
  std::string target;
  /// A tune database whose recorded choices the lowering replays.
  std::string tuneDb;
  /// Precision of FP32 contractions (ieee, tf32; "": the module's).
  std::string precision;
  /// Fuse f16 and bf16 prologues too (lower-to-loop's half-prologues).
  bool halfPrologues = false;
  /// How the tool was called, to find the worker beside it.
  const char *argv0 = nullptr;
};

/// Applies the textual pass pipeline `text` to `module`, with --tune-db set
/// on its dtile-lower passes; reports a bad pipeline. Shared by both modes.
mlir::LogicalResult applyPipeline(mlir::ModuleOp module, llvm::StringRef text);

/// The options only --bench has.
llvm::cl::OptionCategory &getBenchCategory();

/// Shows the defaults of the --bench options in --help.
void showBenchDefaults();

/// deplodock::refuseEmpty (ToolOptions.h), reported on stderr.
mlir::LogicalResult
reportEmpty(llvm::ArrayRef<const llvm::cl::opt<std::string> *> flags,
            llvm::ArrayRef<const llvm::cl::list<std::string> *> lists = {});

/// cl's parser of doubles, except that an empty value (--rtol=) is an error
/// rather than a silent 0.
struct NumberParser : llvm::cl::parser<double> {
  using llvm::cl::parser<double>::parser;
  bool parse(llvm::cl::Option &option, llvm::StringRef name,
             llvm::StringRef arg, double &value) {
    if (arg.empty())
      return option.error("needs a number; leave the flag out for its "
                          "default");
    return llvm::cl::parser<double>::parse(option, name, arg, value);
  }
};
using NumberOption = llvm::cl::opt<double, false, NumberParser>;

/// Runs --bench; returns the exit code.
int runBenchMode(mlir::MLIRContext &context, const BenchConfig &config);

} // namespace deplodock

#endif // DEPLODOCK_TOOLS_DEPLODOCK_RUN_BENCH_H
