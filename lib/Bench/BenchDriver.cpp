//===- BenchDriver.cpp - Run a layer's kernels on the GPU -----------------===//

#include "Deplodock/Bench/BenchDriver.h"

#include "BenchReport.h"

#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"
#include "Deplodock/Dialect/DTile/Transforms/Precision.h"
#include "Deplodock/Interpreter/Interpreter.h"
#include "Deplodock/Pipelines/Pipelines.h"
#include "Deplodock/Runtime/ArgumentFiles.h"
#include "Deplodock/Runtime/KernelProgram.h"
#include "Deplodock/Runtime/Verify.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::bench;
using namespace deplodock::runtime;

/// The function called `name` (or the first with a body) of `module`.
static func::FuncOp findFunction(ModuleOp module, StringRef name) {
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal() && (name.empty() || func.getSymName() == name))
      return func;
  return {};
}

/// Lowers `module` to Kernel IR for `target` with `knobs` and the choices
/// recorded in `tuneDb`, or in its simplest lowering.
static LogicalResult lowerToKernel(ModuleOp module, StringRef target,
                                   StringRef tuneDb, StringRef knobs,
                                   StringRef precision = "",
                                   bool simplest = false,
                                   bool halfPrologues = false) {
  TilePipelineOptions options;
  // A missing or unreadable database is the pipeline's located error.
  options.tuneDb = tuneDb.str();
  options.tuneReport = !tuneDb.empty();
  options.target = target.str();
  options.knobs = knobs.str();
  options.precision = precision.str();
  options.simplest = simplest;
  options.halfPrologues = halfPrologues;
  PassManager pm(module.getContext());
  buildLowerToKernelPipeline(pm, options);
  return pm.run(module);
}

/// The reference of `program` (function `name` of `module` lowered for
/// `target`) on the GPU: the same function in its simplest lowering (the
/// simplest option at every fork), run on the same buffers. Fails, saying
/// why, when that lowering does not give the same buffers.
static llvm::Expected<ReferenceProgram>
buildGpuReference(ModuleOp module, StringRef name, StringRef target,
                  const KernelProgram &program) {
  OwningOpRef<ModuleOp> simplest = module.clone();
  func::FuncOp host;
  FailureOr<KernelProgram> reference = failure();
  // The reference stays IEEE f32 whatever the module asks for.
  if (succeeded(lowerToKernel(*simplest, target, "", "", "ieee",
                              /*simplest=*/true)) &&
      (host = findFunction(*simplest, name)))
    reference = buildKernelProgram(host);
  if (failed(reference))
    return llvm::createStringError("the simplest lowering failed");
  bool same = reference->buffers.size() == program.buffers.size();
  for (size_t i = 0; same && i < program.buffers.size(); ++i)
    same = reference->buffers[i].dtype == program.buffers[i].dtype &&
           reference->buffers[i].shape == program.buffers[i].shape;
  if (!same)
    return llvm::createStringError(
        "the simplest lowering allocates other buffers");
  return makeReferenceProgram(*reference);
}

/// How many elements the reference interpreter materialises running `func`:
/// every shaped value it produces, arguments included (saturating).
static uint64_t interpreterElements(func::FuncOp func) {
  uint64_t total = 0;
  auto count = [&](Type type) {
    if (auto shaped = dyn_cast<ShapedType>(type);
        shaped && shaped.hasStaticShape())
      total = llvm::SaturatingAdd(
          total, static_cast<uint64_t>(shaped.getNumElements()));
  };
  for (Type type : func.getArgumentTypes())
    count(type);
  func.walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      count(type);
  });
  return total;
}

namespace {

/// One run of runBench.
class Driver {
public:
  Driver(ModuleOp module, const BenchOptions &options)
      : module(module), options(options), context(module.getContext()) {}

  FailureOr<BenchRun> run(llvm::raw_ostream &os);

private:
  /// An error about no place in the layer.
  InFlightDiagnostic error() { return emitError(UnknownLoc::get(context)); }
  /// Lowers the function to Kernel IR (unless it is already) and builds the
  /// request that runs it.
  LogicalResult buildRequest();
  /// Fills the request's arguments from the --input files.
  LogicalResult readInputs();
  /// Sets what the outputs are checked against.
  LogicalResult addReference();
  /// Checks a function that launches nothing on the host: its results are
  /// buffers it was given.
  void runWithoutKernels();
  /// Runs the request in a worker.
  LogicalResult runOnDevice();

  ModuleOp module;
  const BenchOptions &options;
  MLIRContext *context;
  BenchRun result;
  bool kernelIR = false;
  /// The layer in Kernel IR, its host function, and what it runs.
  OwningOpRef<ModuleOp> lowered;
  func::FuncOp host;
  KernelProgram program;
  BenchRequest request;
  /// The arguments read from --input files, when given.
  SmallVector<interp::Buffer> inputs;
  /// The interpreter's results, when the CPU is the reference.
  SmallVector<interp::Buffer> expected;
};

} // namespace

LogicalResult Driver::buildRequest() {
  // The kernels: the input itself when it is Kernel IR already.
  kernelIR = !module.getOps<dkernel::FuncOp>().empty();
  lowered = module.clone();
  if (kernelIR && !options.precision.empty())
    return error() << "--precision sets how the layer is lowered, but it is "
                      "Kernel IR already";
  if (!kernelIR &&
      failed(lowerToKernel(*lowered, options.target, options.tuneDb,
                           options.knobs, options.precision,
                           /*simplest=*/false, options.halfPrologues)))
    return failure();
  host = findFunction(*lowered, result.function);
  if (!host)
    return error() << "the lowered module lost @" << result.function;
  FailureOr<KernelProgram> built = buildKernelProgram(host);
  if (failed(built))
    return failure();
  program = std::move(*built);
  request = makeBenchRequest(program, options.seed);
  request.timing = options.timing;
  request.kernelTimeoutS = options.kernelTimeoutS;
  request.timeoutS = options.benchTimeoutS;
  request.returnOutputs = !options.outputDir.empty();
  request.fake = options.fake;
  // TF32 results are checked against the IEEE reference: TF32's tolerance.
  result.tf32 = dtile::allowsTf32(*lowered);
  if (result.tf32)
    for (OutputSpec &output : request.outputs)
      if (request.buffers[output.buffer].dtype == DType::F32)
        output.tolerance = tf32Tolerance();
  return success();
}

LogicalResult Driver::readInputs() {
  if (options.inputs.empty())
    return success(); // Seeded: the worker draws what the interpreter does.
  llvm::Expected<SmallVector<interp::Buffer>> read =
      readArgumentFiles(host, options.inputs);
  if (!read)
    return error() << llvm::toString(read.takeError());
  inputs = std::move(*read);
  for (auto [spec, buffer] : llvm::zip(request.buffers, inputs)) {
    spec.init = InitKind::Data;
    spec.data = toBytes(buffer, spec.dtype);
  }
  return success();
}

LogicalResult Driver::addReference() {
  // The CPU interpreter on the layer at the Tensor level (or on the Kernel
  // IR itself), when that is cheap enough.
  OwningOpRef<ModuleOp> reference = module.clone();
  bool ready = kernelIR;
  if (!ready) {
    PassManager pm(context);
    buildLowerToTensorPipeline(pm);
    ready = succeeded(pm.run(*reference));
  }
  func::FuncOp func =
      ready ? findFunction(*reference, result.function) : func::FuncOp();
  uint64_t elements = func ? interpreterElements(func) : 0;
  std::string why;
  if (!func)
    why = "the layer does not lower to the Tensor level";
  else if (elements > options.cpuReferenceLimit)
    why = llvm::formatv("the CPU interpreter would hold {0} elements, more "
                        "than --cpu-reference-limit={1}",
                        elements, options.cpuReferenceLimit)
              .str();
  if (why.empty()) {
    // Seeded arguments are drawn only now: a layer too large for the CPU
    // never holds them in the interpreter.
    ArrayRef<interp::Buffer> args = inputs;
    FailureOr<SmallVector<interp::Buffer>> random;
    if (options.inputs.empty()) {
      random = interp::randomInputs(host, options.seed);
      if (failed(random))
        return failure();
      args = *random;
    }
    FailureOr<SmallVector<interp::Buffer>> results =
        interp::runFunction(func, args);
    if (failed(results))
      return failure();
    expected = std::move(*results);
    for (auto [i, value] : llvm::enumerate(expected)) {
      unsigned buffer = program.results[i];
      for (OutputSpec &output : request.outputs)
        if (output.buffer == buffer)
          output.expected = toBytes(value, request.buffers[buffer].dtype);
    }
    result.reference = "the CPU interpreter";
    return success();
  }
  // Too big for the CPU: the simplest lowering on the GPU instead.
  if (kernelIR || program.launches.empty()) {
    result.reference = "skipped: " + why + "; " +
                       (kernelIR ? "the input is Kernel IR already"
                                 : "there are no kernels to compare");
    return success();
  }
  llvm::Expected<ReferenceProgram> gpu =
      buildGpuReference(module, result.function, options.target, program);
  if (!gpu) {
    result.reference =
        "skipped: " + why + "; " + llvm::toString(gpu.takeError());
    return success();
  }
  request.reference = std::move(*gpu);
  result.reference = "the simplest lowering on the GPU, since " + why;
  return success();
}

void Driver::runWithoutKernels() {
  BenchResult &out = result.result;
  out.status = BenchStatus::Ok;
  for (const OutputSpec &output : request.outputs) {
    const BufferSpec &buffer = request.buffers[output.buffer];
    std::vector<uint8_t> contents = buffer.initialContents();
    if (output.expected) {
      OutputCheck check = checkOutput(
          buffer.dtype, *output.expected, contents,
          output.tolerance.value_or(defaultTolerance(buffer.dtype)));
      check.buffer = output.buffer;
      out.verified = true;
      if (!check.ok && out.status == BenchStatus::Ok) {
        out.status = BenchStatus::WrongResult;
        out.detail = describeMismatch(check, buffer.name, buffer.numElements());
      }
      out.checks.push_back(check);
    }
    if (request.returnOutputs)
      out.outputs.push_back(std::move(contents));
  }
}

LogicalResult Driver::runOnDevice() {
  llvm::Expected<std::unique_ptr<BenchClient>> client =
      BenchClient::create(options.client);
  if (!client)
    return error() << "cannot run on the GPU: "
                   << llvm::toString(client.takeError());
  result.device = (*client)->getDevice();
  llvm::Expected<BenchResult> measured = (*client)->measure(request);
  if (!measured)
    return error() << llvm::toString(measured.takeError());
  result.result = std::move(*measured);
  return success();
}

FailureOr<BenchRun> Driver::run(llvm::raw_ostream &os) {
  func::FuncOp input = findFunction(module, options.funcName);
  if (!input)
    return emitError(module.getLoc())
           << "no function "
           << (options.funcName.empty() ? "with a body"
                                        : "@" + options.funcName);
  result.function = input.getSymName().str();
  // Only this function is run: the module's other cases need not lower.
  for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
    if (func != input && !func.isExternal() &&
        SymbolTable::symbolKnownUseEmpty(func, module))
      func.erase();

  if (failed(buildRequest()) || failed(readInputs()) || failed(addReference()))
    return failure();
  if (program.launches.empty())
    runWithoutKernels();
  else if (failed(runOnDevice()))
    return failure();

  printReport(os, result, request);
  // The files come after the report, also when the kernels failed.
  os.flush();
  SmallVector<MemRefType> types;
  for (Type type : host.getResultTypes())
    types.push_back(cast<MemRefType>(type));
  if (!options.outputDir.empty() &&
      failed(writeResults(options.outputDir, result, request, program.results,
                          types, context)))
    return failure();
  if (!options.benchJson.empty() &&
      failed(writeJson(options.benchJson, result, request, context)))
    return failure();
  return std::move(result);
}

FailureOr<BenchRun> bench::runBench(ModuleOp module,
                                    const BenchOptions &options,
                                    llvm::raw_ostream &os) {
  return Driver(module, options).run(os);
}
