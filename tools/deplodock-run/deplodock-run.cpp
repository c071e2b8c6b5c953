//===- deplodock-run.cpp - Run a layer on the CPU interpreter ---*- C++ -*-===//
//
//   deplodock-run --interp layer.mlir                 # seeded inputs, print
//   deplodock-run --interp layer.mlir --compare=lower-to-loop
//   deplodock-run --interp layer.mlir --input=x.npy --output-dir=out
//   deplodock-run --interp kernels.mlir --func=ref --compare-func=gpu
//   deplodock-run --interp layer.mlir --compare=lower-to-kernel --tune-db=t.db
//   deplodock-run --interp layer.mlir --pipeline=lower-to-kernel \
//       --expect=out/result0.npy                      # against saved results
//   deplodock-run --bench layer.mlir --bench-json=out.json   # on the GPU
//
// Runs a function on the CPU reference interpreter. With --compare it also
// lowers a copy of the module with a pass pipeline and checks that both give
// the same results on the same inputs; with --compare-func it checks another
// function of the module (say the same layer in Kernel IR) the same way.
// With --expect, results saved earlier (or by another framework) are the
// reference instead, and the run itself is checked against them too.
// --bench (Bench.cpp) runs the layer's kernels on the GPU instead.
//
//===----------------------------------------------------------------------===//

#include "Bench.h"

#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"
#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "Deplodock/Dialect/DTile/Transforms/ForkCursor.h"
#include "Deplodock/Dialect/DTile/Transforms/OptionChooser.h"
#include "Deplodock/Dialect/DTile/Transforms/Passes.h"
#include "Deplodock/Dialect/DTile/Transforms/Precision.h"
#include "Deplodock/InitAllDialects.h"
#include "Deplodock/InitAllPasses.h"
#include "Deplodock/Interpreter/BufferIO.h"
#include "Deplodock/Interpreter/Interpreter.h"
#include "Deplodock/Interpreter/Memory.h"
#include "Deplodock/Runtime/ArgumentFiles.h"
#include "Deplodock/Runtime/OutputFile.h"
#include "Deplodock/Support/ToolDiagnostics.h"
#include "Deplodock/Support/ToolOptions.h"
#include "Deplodock/Target/Cuda/CudaEmitter.h"
#include "Deplodock/Tuner/Replay.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <random>
#include <set>

#include <cmath>

using namespace mlir;
using namespace deplodock;
namespace cl = llvm::cl;

/// The tool's own options: --help lists these only, not LLVM's.
static cl::OptionCategory runCategory("deplodock-run options");

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input.mlir>"),
                                      cl::init("-"), cl::cat(runCategory));
static cl::opt<bool> interpMode("interp",
                                cl::desc("Run on the CPU reference "
                                         "interpreter"),
                                cl::cat(runCategory));
static cl::opt<bool>
    benchMode("bench",
              cl::desc("Lower to Kernel IR and run and time every kernel on "
                       "the GPU (see the --bench options)"),
              cl::cat(runCategory));
static cl::opt<std::string> funcName("func",
                                     cl::desc("Function to run (default: the "
                                              "first one with a body)"),
                                     cl::cat(runCategory));
static cl::opt<uint64_t> seed("seed", cl::desc("Seed of the random inputs"),
                              cl::init(0), cl::cat(runCategory));
static cl::list<std::string>
    inputs("input",
           cl::desc("A .npy file per argument, in order (default: seeded "
                    "random inputs)"),
           cl::cat(runCategory));
static cl::opt<std::string>
    pipeline("pipeline", cl::desc("Pass pipeline to apply before running"),
             cl::cat(runCategory));
static cl::list<std::string>
    comparePipelines("compare",
                     cl::desc("Also run the module lowered by this pass "
                              "pipeline and compare the results (repeatable: "
                              "each against the same reference)"),
                     cl::cat(runCategory));
static cl::list<std::string> expectFiles(
    "expect",
    cl::desc("A .npy file per result, in order: the reference the results "
             "(and every --compare and --compare-func) are compared against, "
             "e.g. results saved earlier with --output-dir"),
    cl::cat(runCategory));
static cl::opt<std::string> compareFuncName(
    "compare-func",
    cl::desc("Also run this function of the module on the same inputs and "
             "compare the results"),
    cl::cat(runCategory));
static NumberOption relTol("rtol", cl::desc("Relative tolerance"),
                           cl::init(1e-4), cl::cat(runCategory));
static NumberOption absTol("atol", cl::desc("Absolute tolerance"),
                           cl::init(1e-5), cl::cat(runCategory));
static cl::opt<std::string>
    outputDir("output-dir", cl::desc("Write result #i to DIR/result<i>.npy"),
              cl::cat(runCategory));
static cl::opt<std::string>
    saveInputs("save-inputs",
               cl::desc("Write argument #i to DIR/input<i>.npy (to rerun "
                        "or check the same inputs elsewhere)"),
               cl::cat(runCategory));
static cl::opt<unsigned> checkVariants(
    "check-variants",
    cl::desc("Also lower the module to Loop IR and, for every kernel, check "
             "up to N variants of its fork tree (all of them when there are "
             "at most N, else a seeded sample of N) against the results"),
    cl::init(0), cl::cat(runCategory));
static cl::opt<std::string>
    variantTarget("target", cl::desc("GPU of --check-variants and --bench"),
                  cl::init("sm_90"), cl::cat(runCategory));
static cl::opt<std::string> variantPrecision(
    "precision",
    cl::desc("Precision of FP32 contractions in --check-variants and "
             "--bench: ieee, or tf32 to allow TF32 tensor cores (default: the "
             "module's)"),
    cl::cat(runCategory));
static cl::opt<bool> variantHalfPrologues(
    "half-prologues",
    cl::desc("Fuse f16 and bf16 prologues into their contractions in the "
             "lowering of --check-variants and --bench (lower-to-loop's "
             "half-prologues)"),
    cl::init(false), cl::cat(runCategory));
static cl::opt<std::string> variantPipeline(
    "variant-pipeline",
    cl::desc("Pass pipeline run on each variant after its Tile rules (e.g. "
             "convert-dtile-to-dkernel to check at the Kernel level)"),
    cl::cat(runCategory));
static cl::opt<std::string> tuneDb(
    "tune-db",
    cl::desc("Replay the fork choices recorded in this tune database in the "
             "--pipeline and --compare pipelines (their dtile-lower pass: "
             "lower-to-tile, lower-to-kernel, deplodock-pipeline), and in "
             "--bench's lowering"),
    cl::cat(runCategory));
static cl::opt<std::string> variantCudaDir(
    "variant-cuda-dir",
    cl::desc("With --check-variants and a variant pipeline that reaches "
             "Kernel IR, also write each variant's kernel as CUDA to "
             "DIR/<kernel>.<i>.cu (to compile them all)"),
    cl::cat(runCategory));
static cl::opt<std::string> memoryLimit(
    "memory-limit",
    cl::desc("Most memory the interpreter's buffers may hold at once, e.g. "
             "512M or 4G; a layer that needs more is refused (default: half "
             "of the memory the process may use)"),
    cl::value_desc("SIZE"), cl::cat(runCategory));
static cl::opt<uint64_t> threadLimit(
    "thread-limit",
    cl::desc("Most threads (blocks x threads per block) the interpreter "
             "simulates in one kernel launch; a bigger launch is refused"),
    cl::init(interp::kDefaultThreadLimit), cl::cat(runCategory));
static cl::opt<uint64_t> workLimit(
    "work-limit",
    cl::desc("Most operations (counted once per thread) the interpreter "
             "executes in one kernel launch or sequential run; a kernel "
             "whose loops would pass it is refused"),
    cl::init(interp::kDefaultWorkLimit), cl::cat(runCategory));
static cl::opt<unsigned> interpThreads(
    "interp-threads",
    cl::desc("CPU threads the interpreter runs the blocks of a kernel launch "
             "on (0: all); the results are the same for every count"),
    cl::init(0), cl::cat(runCategory));
enum class PrintMode { Values, Summary, None };
static cl::opt<PrintMode> printMode(
    "print",
    cl::desc("What to print of the results (default: values; summary with "
             "--check-variants)"),
    cl::values(clEnumValN(PrintMode::Values, "values", "every element"),
               clEnumValN(PrintMode::Summary, "summary",
                          "shape, min, max, mean, NaN count"),
               clEnumValN(PrintMode::None, "none", "nothing")),
    cl::init(PrintMode::Values), cl::cat(runCategory));

/// Parses a textual pass pipeline into `pm`; with --tune-db, its dtile-lower
/// passes replay that database (and report what they replayed, as --bench
/// does). Returns how many it set.
static FailureOr<unsigned> parsePipeline(StringRef text, PassManager &pm) {
  std::string error;
  llvm::raw_string_ostream os(error);
  if (failed(parsePassPipeline(text, pm, os))) {
    llvm::errs() << "error: bad pass pipeline '" << text << "': " << error
                 << "\n";
    return failure();
  }
  unsigned configured = 0;
  if (tuneDb.empty())
    return configured;
  for (Pass &pass : pm.getPasses()) {
    if (pass.getArgument() != "dtile-lower")
      continue;
    if (failed(dtile::setDTileLowerChooser(
            pass, tuner::createReplayChooser(tuneDb, /*context=*/"",
                                             /*report=*/true)))) {
      llvm::errs() << "error: --tune-db: the pipeline's dtile-lower already "
                      "takes its forks from elsewhere (simplest or tune-db)\n";
      return failure();
    }
    ++configured;
  }
  return configured;
}

LogicalResult deplodock::applyPipeline(ModuleOp module, StringRef text) {
  PassManager pm(module.getContext());
  if (failed(parsePipeline(text, pm)))
    return failure();
  return pm.run(module);
}

/// Fails with an error when --tune-db is given but neither --pipeline nor
/// --compare lowers to Tile IR: the database would be silently ignored.
static LogicalResult checkTuneDb(MLIRContext &context) {
  if (tuneDb.empty())
    return success();
  unsigned configured = 0;
  SmallVector<StringRef> texts(comparePipelines.begin(),
                               comparePipelines.end());
  texts.push_back(pipeline);
  for (StringRef text : texts) {
    if (text.empty())
      continue;
    PassManager pm(&context);
    FailureOr<unsigned> count = parsePipeline(text, pm);
    if (failed(count))
      return failure();
    configured += *count;
  }
  if (configured)
    return success();
  llvm::errs() << "error: --tune-db: neither --pipeline nor --compare lowers "
                  "to Tile IR (use lower-to-tile, lower-to-kernel or "
                  "deplodock-pipeline)\n";
  return failure();
}

/// Writes `buffer` to DIR/<stem><i>.npy; reports errors on stderr.
static LogicalResult writeIndexed(const interp::Buffer &buffer, StringRef dir,
                                  StringRef stem, size_t i) {
  llvm::sys::fs::create_directories(dir);
  SmallString<128> path(dir);
  llvm::sys::path::append(path, stem + std::to_string(i) + ".npy");
  std::string error;
  if (succeeded(interp::writeNpy(buffer, path, error)))
    return success();
  llvm::errs() << "error: cannot write " << path << ": " << error << "\n";
  return failure();
}

/// The function to run.
static func::FuncOp findFunc(ModuleOp module) {
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    if (funcName.empty() || func.getSymName() == funcName)
      return func;
  }
  return {};
}

/// `v` with 9 significant digits; NaN as nan, whatever its sign.
static std::string formatValue(double v) {
  if (std::isnan(v))
    return "nan";
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%.9g", v);
  return text;
}

/// Prints the type of `buffer` and the min, max and mean of its elements
/// other than NaNs, and how many NaNs (unwritten memory) it has.
static void printSummary(const interp::Buffer &buffer, StringRef title) {
  double lo = INFINITY, hi = -INFINITY, sum = 0;
  int64_t nans = 0;
  for (double v : buffer.data) {
    if (std::isnan(v)) {
      ++nans;
      continue;
    }
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    sum += v;
  }
  int64_t count = buffer.size() - nans;
  llvm::outs() << title << ": "
               << RankedTensorType::get(buffer.shape, buffer.elementType)
               << llvm::format(" min %.6g max %.6g mean %.6g nan %lld\n", lo,
                               hi, count == 0 ? 0.0 : sum / count,
                               static_cast<long long>(nans));
}

/// Compares `actual` with `expected`; prints failures under `what`.
static bool compareAll(ArrayRef<interp::Buffer> expected,
                       ArrayRef<interp::Buffer> actual, StringRef what) {
  if (actual.size() != expected.size()) {
    llvm::outs() << what << ": returns " << actual.size()
                 << " results instead of " << expected.size() << "\n";
    return false;
  }
  bool ok = true;
  for (auto [i, pair] : llvm::enumerate(llvm::zip(expected, actual))) {
    auto &[e, a] = pair;
    interp::Comparison c = interp::compare(e, a, relTol, absTol);
    if (c.ok)
      continue;
    ok = false;
    llvm::outs() << what << ": result #" << i
                 << llvm::format(" differs, max abs error %.3g", c.maxAbsError);
    if (c.worst >= 0 && c.worst < e.size())
      llvm::outs() << llvm::format(", element %lld: expected %.9g got %.9g",
                                   static_cast<long long>(c.worst),
                                   e.data[c.worst], a.data[c.worst]);
    llvm::outs() << "\n";
  }
  return ok;
}

/// Writes the Kernel-IR kernel `name` of `module` as CUDA to
/// <variant-cuda-dir>/<name>.<index>.cu.
static LogicalResult writeVariantCuda(ModuleOp module, StringRef name,
                                      unsigned index) {
  auto kernel = dyn_cast_or_null<dkernel::FuncOp>(
      SymbolTable::lookupSymbolIn(module, name));
  if (!kernel) {
    llvm::errs() << "error: --variant-cuda-dir needs a variant pipeline that "
                    "lowers @"
                 << name << " to a dkernel.func\n";
    return failure();
  }
  SmallString<128> path(variantCudaDir);
  llvm::sys::path::append(path, name + "." + Twine(index) + ".cu");
  llvm::Expected<runtime::OutputFile> file = runtime::OutputFile::open(path);
  if (!file) {
    llvm::errs() << "error: " << llvm::toString(file.takeError()) << "\n";
    return failure();
  }
  if (failed(translateToCuda(kernel, file->os())))
    return failure();
  if (llvm::Error kept = file->keep()) {
    llvm::errs() << "error: " << llvm::toString(std::move(kept)) << "\n";
    return failure();
  }
  return success();
}

/// Checks variants of every kernel of the Loop-level lowering of `module`
/// against `expected`; returns whether all matched.
static bool checkAllVariants(ModuleOp module, ArrayRef<interp::Buffer> args,
                             ArrayRef<interp::Buffer> expected) {
  MLIRContext *context = module.getContext();
  OwningOpRef<ModuleOp> loops = module.clone();
  if (failed(applyPipeline(*loops, variantHalfPrologues
                                       ? "lower-to-loop{half-prologues=true}"
                                       : "lower-to-loop")) ||
      failed(dtile::applyPrecisionOption(*loops, variantPrecision)))
    return false;
  dtile::Target target = dtile::Target::lookup(context, variantTarget);
  if (!target) {
    llvm::errs() << "error: unknown target '" << variantTarget << "' (expected "
                 << listGpuTargets() << ")\n";
    return false;
  }
  func::FuncOp func = findFunc(*loops);
  if (!func) {
    llvm::errs() << "error: the Loop-level module lost the function\n";
    return false;
  }
  bool allOk = true;
  SmallVector<dloop::KernelOp> kernels(func.getOps<dloop::KernelOp>());
  for (dloop::KernelOp kernel : kernels) {
    StringRef name = kernel.getSymName();
    FailureOr<dtile::ForkCursor> root =
        dtile::ForkCursor::start(kernel, target);
    FailureOr<size_t> total =
        succeeded(root) ? root->count(checkVariants + 1) : FailureOr<size_t>();
    if (failed(total)) {
      llvm::errs() << "error: cannot walk the fork tree of @" << name << "\n";
      return false;
    }
    // All variants of a small tree; a seeded sample of a large one.
    SmallVector<dtile::KnobsAttr> variants;
    bool all = *total <= checkVariants;
    if (all) {
      FailureOr<SmallVector<dtile::KnobsAttr>> every =
          root->enumerate(checkVariants);
      if (failed(every)) {
        llvm::errs() << "error: cannot enumerate the variants of @" << name
                     << "\n";
        return false;
      }
      variants = std::move(*every);
    } else {
      std::mt19937_64 rng(seed);
      llvm::DenseSet<Attribute> seen;
      for (unsigned tries = 0;
           variants.size() < checkVariants && tries < 8 * checkVariants;
           ++tries) {
        FailureOr<dtile::KnobsAttr> knobs = root->sample(rng);
        if (failed(knobs)) {
          llvm::errs() << "error: cannot sample a variant of @" << name << "\n";
          return false;
        }
        if (seen.insert(*knobs).second)
          variants.push_back(*knobs);
      }
    }
    unsigned failures = 0, index = 0;
    for (dtile::KnobsAttr knobs : variants) {
      OwningOpRef<ModuleOp> lowered = loops->clone();
      PassManager pm(context);
      dtile::DTileLowerOptions options;
      options.target = variantTarget;
      options.precision = variantPrecision;
      options.knobs = dtile::formatKnobsOption(name, knobs);
      pm.addPass(dtile::createDTileLower(options));
      std::string what = "@" + name.str() + " knobs " + options.knobs;
      if (failed(pm.run(*lowered)) ||
          (!variantPipeline.empty() &&
           failed(applyPipeline(*lowered, variantPipeline)))) {
        llvm::outs() << what << ": failed to lower\n";
        ++failures;
        continue;
      }
      if (!variantCudaDir.empty() &&
          failed(writeVariantCuda(*lowered, name, index)))
        return false;
      ++index;
      FailureOr<SmallVector<interp::Buffer>> results =
          interp::runFunction(findFunc(*lowered), args);
      if (failed(results) || !compareAll(expected, *results, what))
        ++failures;
    }
    llvm::outs() << "variants of @" << name << ": " << variants.size()
                 << (all ? " (all)" : " (seeded sample)") << " checked, "
                 << failures << " failed\n";
    allOk &= failures == 0;
  }
  return allOk;
}

/// Prints how `actual` compares with `expected`, result by result, as
/// "compare result #i <what>: ... PASS/FAIL"; clears `ok` on a mismatch and
/// fails when the result counts differ.
static LogicalResult compareResults(ArrayRef<interp::Buffer> expected,
                                    ArrayRef<interp::Buffer> actual,
                                    const std::string &what, bool &ok) {
  if (actual.size() != expected.size()) {
    llvm::errs() << "error: the function compared " << what << " returns "
                 << actual.size() << " results instead of " << expected.size()
                 << "\n";
    return failure();
  }
  for (auto [i, pair] : llvm::enumerate(llvm::zip(expected, actual))) {
    auto &[want, got] = pair;
    interp::Comparison c = interp::compare(want, got, relTol, absTol);
    llvm::outs() << "compare result #" << i << " " << what << ": ";
    if (!c.typesMatch) {
      llvm::outs() << "type "
                   << RankedTensorType::get(got.shape, got.elementType)
                   << " instead of "
                   << RankedTensorType::get(want.shape, want.elementType)
                   << ": FAIL\n";
      ok = false;
      continue;
    }
    llvm::outs() << llvm::format("max abs error %.3g, max rel error %.3g",
                                 c.maxAbsError, c.maxRelError);
    if (!c.ok && c.worst >= 0 && c.worst < want.size())
      llvm::outs() << ", worst element " << c.worst << ": expected "
                   << formatValue(want.data[c.worst]) << " got "
                   << formatValue(got.data[c.worst]);
    llvm::outs() << (c.ok ? ": PASS\n" : ": FAIL\n");
    ok &= c.ok;
  }
  return success();
}

/// After the interpreter refused `func`: when it holds ops of the dialects a
/// layer arrives in (linalg, tosa, tensor), which the interpreter runs only
/// once imported into dtensor, says which pipeline does that.
static void hintPipeline(func::FuncOp func) {
  if (!pipeline.empty())
    return;
  std::set<StringRef> dialects;
  func.walk([&](Operation *op) {
    StringRef dialect = op->getName().getDialectNamespace();
    if (dialect == "linalg" || dialect == "tosa" || dialect == "tensor")
      dialects.insert(dialect);
  });
  if (dialects.empty())
    return;
  func.getContext()->getDiagEngine().emit(func.getLoc(),
                                          DiagnosticSeverity::Note)
      << "@" << func.getSymName() << " is a layer as it arrives ("
      << llvm::join(dialects, ", ")
      << " ops); the interpreter runs it once imported into dtensor: add "
         "--pipeline=lower-to-tensor (or any lower-to-* pipeline)";
}

/// Reads the --expect files as the results `results` should be, one per
/// result, each adapted to its result's element type as --input files are.
static FailureOr<SmallVector<interp::Buffer>>
readExpected(ArrayRef<interp::Buffer> results, MLIRContext *context) {
  if (expectFiles.size() != results.size()) {
    llvm::errs() << "error: the function returns " << results.size()
                 << " results, got " << expectFiles.size()
                 << " --expect files\n";
    return failure();
  }
  SmallVector<interp::Buffer> expected;
  for (auto [path, result] : llvm::zip(expectFiles, results)) {
    std::string error;
    FailureOr<interp::Buffer> buffer = interp::readNpy(path, context, error);
    if (failed(buffer)) {
      llvm::errs() << "error: --expect: cannot read " << path << ": " << error
                   << "\n";
      return failure();
    }
    interp::adaptElementType(*buffer, result.elementType);
    expected.push_back(std::move(*buffer));
  }
  return expected;
}

static int run(MLIRContext &context) {
  if (failed(checkTuneDb(context)))
    return 1;
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(inputFile, sourceMgr, &context);
  if (!module)
    return 1;
  locateImplicitModule(*module);
  if (!pipeline.empty() && failed(applyPipeline(*module, pipeline)))
    return 1;
  func::FuncOp func = findFunc(*module);
  if (!func) {
    llvm::errs() << "error: no function "
                 << (funcName.empty() ? "with a body" : "@" + funcName)
                 << " in " << inputFile << "\n";
    return 1;
  }

  SmallVector<interp::Buffer> args;
  if (inputs.empty()) {
    FailureOr<SmallVector<interp::Buffer>> random =
        interp::randomInputs(func, seed);
    if (failed(random))
      return 1;
    args = std::move(*random);
  } else {
    // As --bench reads them (and the harness writes them).
    llvm::Expected<SmallVector<interp::Buffer>> read =
        runtime::readArgumentFiles(func, inputs);
    if (!read) {
      llvm::errs() << "error: " << llvm::toString(read.takeError()) << "\n";
      return 1;
    }
    args = std::move(*read);
  }
  if (!saveInputs.empty())
    for (auto [i, arg] : llvm::enumerate(args))
      if (failed(writeIndexed(arg, saveInputs, "input", i)))
        return 1;
  FailureOr<SmallVector<interp::Buffer>> results =
      interp::runFunction(func, args);
  if (failed(results)) {
    hintPipeline(func);
    return 1;
  }

  // A summary, not every element of every variant's reference.
  PrintMode print = printMode;
  if (checkVariants > 0 && !printMode.getNumOccurrences())
    print = PrintMode::Summary;
  for (auto [i, result] : llvm::enumerate(*results)) {
    std::string title = "result #" + std::to_string(i);
    if (print == PrintMode::Values)
      interp::printBuffer(result, title, llvm::outs());
    else if (print == PrintMode::Summary)
      printSummary(result, title);
    if (!outputDir.empty() &&
        failed(writeIndexed(result, outputDir, "result", i)))
      return 1;
  }

  if (checkVariants > 0 && !checkAllVariants(*module, args, *results))
    return 1;
  bool ok = true;
  // With --expect the files are the reference, and the run is checked too.
  SmallVector<interp::Buffer> expected;
  ArrayRef<interp::Buffer> reference = *results;
  if (!expectFiles.empty()) {
    FailureOr<SmallVector<interp::Buffer>> read =
        readExpected(*results, &context);
    if (failed(read))
      return 1;
    expected = std::move(*read);
    reference = expected;
    if (failed(compareResults(reference, *results,
                              pipeline.empty() ? std::string("against --expect")
                                               : "after '" + pipeline + "'",
                              ok)))
      return 1;
  }
  if (!compareFuncName.empty()) {
    auto other = module->lookupSymbol<func::FuncOp>(compareFuncName);
    if (!other || other.isExternal()) {
      llvm::errs() << "error: no function @" << compareFuncName << " in "
                   << inputFile << "\n";
      return 1;
    }
    FailureOr<SmallVector<interp::Buffer>> actual =
        interp::runFunction(other, args);
    if (failed(actual))
      return 1;
    if (failed(compareResults(reference, *actual, "@" + compareFuncName, ok)))
      return 1;
  }
  for (const std::string &comparePipeline : comparePipelines) {
    OwningOpRef<ModuleOp> lowered = module->clone();
    if (failed(applyPipeline(*lowered, comparePipeline)))
      return 1;
    func::FuncOp loweredFunc = findFunc(*lowered);
    if (!loweredFunc) {
      llvm::errs() << "error: the lowered module lost @" << func.getSymName()
                   << "\n";
      return 1;
    }
    FailureOr<SmallVector<interp::Buffer>> actual =
        interp::runFunction(loweredFunc, args);
    if (failed(actual))
      return 1;
    if (failed(compareResults(reference, *actual,
                              "after '" + comparePipeline + "'", ok)))
      return 1;
  }
  return ok ? 0 : 1;
}

LogicalResult
deplodock::reportEmpty(ArrayRef<const cl::opt<std::string> *> flags,
                       ArrayRef<const cl::list<std::string> *> lists) {
  if (llvm::Error empty = deplodock::refuseEmpty(flags, lists)) {
    llvm::errs() << "error: " << llvm::toString(std::move(empty)) << "\n";
    return failure();
  }
  return success();
}

/// Checks the flags both modes read; reports the first bad one.
static LogicalResult checkFlags() {
  if (failed(reportEmpty(
          {&funcName, &pipeline, &compareFuncName, &outputDir, &saveInputs,
           &variantTarget, &variantPipeline, &tuneDb, &variantCudaDir},
          // cl::list overloads operator& (its storage).
          {std::addressof(comparePipelines), std::addressof(expectFiles)})))
    return failure();
  if (benchMode && !expectFiles.empty()) {
    llvm::errs() << "error: --expect is for --interp; --bench checks the GPU "
                    "against the interpreter itself\n";
    return failure();
  }
  if (llvm::is_contained(inputs, "")) {
    llvm::errs() << "error: --input needs a .npy file\n";
    return failure();
  }
  // A NaN tolerance would pass every comparison.
  for (const NumberOption *tolerance : {&relTol, &absTol})
    if (!std::isfinite(*tolerance) || *tolerance < 0) {
      llvm::errs() << "error: --" << tolerance->ArgStr
                   << " must be a finite number, not negative\n";
      return failure();
    }
  return success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerDeplodockPasses();
  registerTransformsPasses();
  prepareToolOptions({&runCategory, &getBenchCategory()});
  showDefaults(seed, relTol, absTol, checkVariants, variantTarget);
  showBenchDefaults();
  cl::ParseCommandLineOptions(argc, argv,
                              "Deplodock reference interpreter and GPU "
                              "runner\n");
  if (interpMode == benchMode) {
    llvm::errs() << "error: choose a mode: --interp runs the CPU reference "
                    "interpreter, --bench runs the kernels on the GPU\n";
    return 2;
  }
  if (failed(checkFlags()))
    return 1;
  if (!memoryLimit.empty()) {
    llvm::Expected<uint64_t> limit = interp::parseByteSize(memoryLimit);
    if (!limit) {
      llvm::errs() << "error: --memory-limit: "
                   << llvm::toString(limit.takeError()) << "\n";
      return 1;
    }
    interp::setMemoryLimit(*limit);
  }
  interp::setThreadLimit(threadLimit);
  interp::setWorkLimit(workLimit);
  interp::setCpuThreads(interpThreads);
  MLIRContext context;
  loadDeplodockDialects(context);
  // The location says where; the op's generic form would bury it.
  context.printOpOnDiagnostic(false);
  if (benchMode)
    return runBenchMode(context,
                        {inputFile, funcName, seed, inputs, pipeline, outputDir,
                         variantTarget, tuneDb, variantPrecision,
                         variantHalfPrologues, argv[0]});
  return run(context);
}
