//===- DKernelOps.cpp - Kernels, launches and shared memory -----*- C++ -*-===//
//
// Helpers shared by the dkernel ops, and the ops that shape a kernel:
// dkernel.func, dkernel.return, dkernel.launch and dkernel.alloc_shared. The
// copy and reduction ops live in AsyncCopyOps.cpp and ReductionOps.cpp.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"
#include "Deplodock/Dialect/DKernel/IR/Target.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/STLExtras.h"

#include <limits>

using namespace mlir;
using namespace deplodock;
using namespace deplodock::dkernel;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

bool dkernel::isKernelScalar(Type type) {
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer.isSignless() &&
           llvm::is_contained({1u, 8u, 16u, 32u, 64u}, integer.getWidth());
  // The 8-bit floats are storage types: loads, stores, copies and
  // conversions (cuda_fp8.h); their arithmetic is emulated in f32 before.
  return type.isF16() || type.isBF16() || type.isF32() || type.isF64() ||
         isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

int64_t dkernel::getScalarBytes(Type type) {
  return llvm::divideCeil(type.getIntOrFloatBitWidth(), 8);
}

bool dkernel::isSharedMemory(MemRefType type) {
  return gpu::GPUDialect::isWorkgroupMemoryAddressSpace(type.getMemorySpace());
}

bool dkernel::isGlobalMemory(MemRefType type) { return !type.getMemorySpace(); }

bool dkernel::isWgmmaF8(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

LogicalResult dkernel::verifySharedMatrixSource(Operation *op, Value src,
                                                ValueRange indices,
                                                bool allowF8) {
  auto type = cast<MemRefType>(src.getType());
  if (!isSharedMemory(type))
    return op->emitOpError("source must be in workgroup memory, got ") << type;
  Type element = type.getElementType();
  if (!isa<Float16Type, BFloat16Type>(element) &&
      !(allowF8 && isWgmmaF8(element)))
    return op->emitOpError("source elements must be f16 or bf16")
           << (allowF8 ? " (or f8E4M3FN or f8E5M2)" : "") << ", got "
           << element;
  if (static_cast<int64_t>(indices.size()) != type.getRank())
    return op->emitOpError("expects ") << type.getRank() << " indices for "
                                       << type << ", got " << indices.size();
  return success();
}

LogicalResult dkernel::verifyInKernel(Operation *op) {
  if (!op->getParentOfType<FuncOp>())
    return op->emitOpError("must be nested in a dkernel.func");
  return success();
}

LogicalResult dkernel::verifyInKernelOrTile(Operation *op) {
  // Kernel IR may not depend on the Tile dialect (a level never depends on
  // the one above), so a Tile kernel is known by its dialect's namespace.
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (isa<FuncOp>(parent) ||
        parent->getName().getDialectNamespace() == "dtile")
      return success();
  return op->emitOpError("must be nested in a dkernel.func or a dtile.kernel");
}

/// Prints `[1, 2, 3]`.
static void printIndexList(OpAsmPrinter &p, ArrayRef<int64_t> values) {
  p << '[';
  llvm::interleaveComma(values, p);
  p << ']';
}

/// Parses `[1, 2, 3]`.
static ParseResult parseIndexList(OpAsmParser &parser,
                                  DenseI64ArrayAttr &result) {
  SmallVector<int64_t> values;
  if (parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
            return parser.parseInteger(values.emplace_back());
          }))
    return failure();
  result = parser.getBuilder().getDenseI64ArrayAttr(values);
  return success();
}

//===----------------------------------------------------------------------===//
// FuncOp
//===----------------------------------------------------------------------===//

void FuncOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                   FunctionType type, ArrayRef<int64_t> grid,
                   ArrayRef<int64_t> block, int64_t smem,
                   ArrayRef<int64_t> outputs, ArrayRef<int64_t> zeroInit,
                   ArrayRef<int64_t> cluster) {
  Properties &props = state.getOrAddProperties<Properties>();
  props.sym_name = builder.getStringAttr(name);
  props.function_type = TypeAttr::get(type);
  props.grid = builder.getDenseI64ArrayAttr(grid);
  props.block = builder.getDenseI64ArrayAttr(block);
  props.smem = smem;
  props.outputs = builder.getDenseI64ArrayAttr(outputs);
  if (!zeroInit.empty())
    props.zero_init = builder.getDenseI64ArrayAttr(zeroInit);
  if (!cluster.empty())
    props.cluster = builder.getDenseI64ArrayAttr(cluster);
  state.addRegion();
}

// @name(%a: memref<..>, ...) outputs [..] zero_init [..] grid [..] block [..]
//     cluster [..] smem N attributes {..} { body }
ParseResult FuncOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &b = parser.getBuilder();
  Properties &props = result.getOrAddProperties<Properties>();
  SmallVector<OpAsmParser::Argument> args;
  SmallVector<Type> resultTypes;
  SmallVector<DictionaryAttr> resultAttrs;
  bool isVariadic = false;
  if (parser.parseSymbolName(props.sym_name) ||
      function_interface_impl::parseFunctionSignatureWithArguments(
          parser, /*allowVariadic=*/false, args, isVariadic, resultTypes,
          resultAttrs))
    return failure();
  SmallVector<Type> argTypes =
      llvm::map_to_vector(args, [](auto &arg) { return arg.type; });
  props.function_type = TypeAttr::get(b.getFunctionType(argTypes, resultTypes));
  call_interface_impl::addArgAndResultAttrs(b, result, args, resultAttrs,
                                            getArgAttrsAttrName(result.name),
                                            getResAttrsAttrName(result.name));

  if (parser.parseKeyword("outputs") || parseIndexList(parser, props.outputs))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("zero_init")) &&
      parseIndexList(parser, props.zero_init))
    return failure();
  if (parser.parseKeyword("grid") || parseIndexList(parser, props.grid) ||
      parser.parseKeyword("block") || parseIndexList(parser, props.block))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("cluster")) &&
      parseIndexList(parser, props.cluster))
    return failure();
  if (parser.parseKeyword("smem") || parser.parseInteger(props.smem) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  return parser.parseRegion(*result.addRegion(), args,
                            /*enableNameShadowing=*/false);
}

void FuncOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printSymbolName(getSymName());
  function_interface_impl::printFunctionSignature(
      p, *this, getArgumentTypes(), /*isVariadic=*/false, getResultTypes());
  p << " outputs ";
  printIndexList(p, getOutputs());
  if (std::optional<ArrayRef<int64_t>> zeroInit = getZeroInit()) {
    p << " zero_init ";
    printIndexList(p, *zeroInit);
  }
  p << " grid ";
  printIndexList(p, getGrid());
  p << " block ";
  printIndexList(p, getBlock());
  if (std::optional<ArrayRef<int64_t>> cluster = getCluster()) {
    p << " cluster ";
    printIndexList(p, *cluster);
  }
  p << " smem " << getSmem();
  function_interface_impl::printFunctionAttributes(
      p, *this,
      {getSymNameAttrName(), getFunctionTypeAttrName(), getArgAttrsAttrName(),
       getResAttrsAttrName(), getGridAttrName(), getBlockAttrName(),
       getOutputsAttrName(), getZeroInitAttrName(), getClusterAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/true);
}

int64_t FuncOp::getNumThreads() {
  int64_t threads = 1;
  for (int64_t extent : getBlock())
    threads *= extent;
  return threads;
}

int64_t FuncOp::getClusterSize() {
  int64_t blocks = 1;
  if (std::optional<ArrayRef<int64_t>> cluster = getCluster())
    for (int64_t extent : *cluster)
      blocks *= extent;
  return blocks;
}

bool FuncOp::isOutput(unsigned i) {
  return llvm::is_contained(getOutputs(), static_cast<int64_t>(i));
}

bool FuncOp::isZeroInit(unsigned i) {
  std::optional<ArrayRef<int64_t>> zeroInit = getZeroInit();
  return zeroInit && llvm::is_contained(*zeroInit, static_cast<int64_t>(i));
}

bool FuncOp::isTmaDescriptor(unsigned i) {
  return isa<TmaDescriptorType>(getArgumentTypes()[i]);
}

TmaDescriptorOp FuncOp::getTmaDescriptorOp(unsigned i) {
  if (isExternal())
    return {};
  for (auto op : getBody().front().getOps<TmaDescriptorOp>())
    if (op.getDescriptor() == getArgument(i))
      return op;
  return {};
}

SmallVector<BlockArgument> FuncOp::getBufferArguments() {
  return llvm::filter_to_vector(getArguments(), [](BlockArgument arg) {
    return isa<MemRefType>(arg.getType());
  });
}

SmallVector<Type> FuncOp::getBufferTypes() {
  return llvm::filter_to_vector(
      getArgumentTypes(), [](Type type) { return isa<MemRefType>(type); });
}

ReturnOp FuncOp::getReturn() {
  return cast<ReturnOp>(getBody().front().getTerminator());
}

/// Verifies a `grid` or `block` property: three extents, each in [1, limit].
static LogicalResult verifyGeometry(FuncOp op, StringRef name,
                                    ArrayRef<int64_t> extents,
                                    ArrayRef<int64_t> limits) {
  if (extents.size() != 3)
    return op.emitOpError()
           << name << " must have 3 entries (x, y, z), got " << extents.size();
  for (auto [extent, limit, axis] :
       llvm::zip(extents, limits, StringRef("xyz"))) {
    if (extent < 1)
      return op.emitOpError()
             << name << ' ' << axis << " must be at least 1, got " << extent;
    if (extent > limit)
      return op.emitOpError() << name << ' ' << axis << " is " << extent
                              << ", more than the limit " << limit;
  }
  return success();
}

/// Verifies `outputs` or `zero_init`: strictly increasing indices, each
/// accepted by `check`.
static LogicalResult
verifyParameterList(FuncOp op, StringRef name, ArrayRef<int64_t> indices,
                    function_ref<LogicalResult(int64_t)> check) {
  for (auto [i, index] : llvm::enumerate(indices)) {
    if (i > 0 && index <= indices[i - 1])
      return op.emitOpError() << name << " must be strictly increasing";
    if (failed(check(index)))
      return failure();
  }
  return success();
}

/// The most blocks a cluster may have on every part with clusters (more
/// needs cudaFuncAttributeNonPortableClusterSizeAllowed).
static constexpr int64_t kPortableClusterSize = 8;

/// Verifies the optional `cluster` property against the grid and target.
static LogicalResult verifyCluster(FuncOp op, TargetAttr target) {
  std::optional<ArrayRef<int64_t>> cluster = op.getCluster();
  if (!cluster)
    return success();
  if (!target.has(GpuFeature::clusters))
    return op.emitOpError("cluster needs a target with thread-block "
                          "clusters, not ")
           << target.getName();
  if (cluster->size() != 3)
    return op.emitOpError("cluster must have 3 entries (x, y, z), got ")
           << cluster->size();
  for (auto [extent, grid, axis] :
       llvm::zip(*cluster, op.getGrid(), StringRef("xyz"))) {
    if (extent < 1)
      return op.emitOpError("cluster ")
             << axis << " must be at least 1, got " << extent;
    if (grid % extent != 0)
      return op.emitOpError("grid ")
             << axis << " of " << grid << " is not a multiple of cluster "
             << axis << " of " << extent;
  }
  // Each extent divides the grid's, so the product fits in 64 bits.
  if (op.getClusterSize() > kPortableClusterSize)
    return op.emitOpError("cluster has ")
           << op.getClusterSize() << " blocks, more than the portable "
           << kPortableClusterSize;
  return success();
}

LogicalResult FuncOp::verify() {
  FunctionType type = getFunctionType();
  if (type.getNumResults() != 0)
    return emitOpError("must have no results, got ") << type.getNumResults();
  for (auto [i, param] : llvm::enumerate(type.getInputs())) {
    if (isa<TmaDescriptorType>(param))
      continue;
    auto memref = dyn_cast<MemRefType>(param);
    if (!memref || !memref.hasStaticShape())
      return emitOpError("parameter #")
             << i
             << " must be a statically shaped memref or a "
                "!dkernel.tma_descriptor, got "
             << param;
    if (!isGlobalMemory(memref))
      return emitOpError("parameter #")
             << i << " must be in global memory (no memory space), got "
             << param;
    if (!memref.getLayout().isIdentity())
      return emitOpError("parameter #")
             << i << " must have the identity layout, got " << param;
    if (!isKernelScalar(memref.getElementType()))
      return emitOpError("parameter #")
             << i << " has element type " << memref.getElementType()
             << "; buffers hold i1, i8, i16, i32, i64, f16, bf16, f32, f64, "
                "f8E4M3FN or f8E5M2";
  }

  // The limits of the module's target (the default one when it names
  // none); the grid's and a block's z extent are the same on every target
  // (CUDA C++ Programming Guide, compute capability table).
  TargetAttr target = getTargetOrDefault(*this);
  int64_t maxThreads = target.getThreadsPerBlock();
  if (failed(verifyGeometry(
          *this, "grid", getGrid(),
          {std::numeric_limits<int32_t>::max(), 65535, 65535})) ||
      failed(verifyGeometry(*this, "block", getBlock(),
                            {maxThreads, maxThreads, 64})) ||
      failed(verifyCluster(*this, target)))
    return failure();
  if (getNumThreads() > maxThreads)
    return emitOpError("block has ")
           << getNumThreads() << " threads, more than the " << maxThreads
           << " a block may have on " << target.getName();
  if (getSmem() < 0)
    return emitOpError("smem must be non-negative, got ") << getSmem();
  if (getSmem() > target.getSmemPerBlock())
    return emitOpError("smem of ")
           << getSmem() << " bytes exceeds the " << target.getSmemPerBlock()
           << " bytes a block may use on " << target.getName();

  int64_t numParams = type.getNumInputs();
  if (getOutputs().empty())
    return emitOpError("outputs must not be empty");
  if (failed(verifyParameterList(
          *this, "outputs", getOutputs(), [&](int64_t i) -> LogicalResult {
            if (i < 0 || i >= numParams)
              return emitOpError("outputs index ")
                     << i << " is out of range for " << numParams
                     << " parameters";
            if (!isa<MemRefType>(type.getInput(i)))
              return emitOpError("outputs index ")
                     << i << " names a TMA descriptor, not a buffer";
            return success();
          })))
    return failure();
  if (std::optional<ArrayRef<int64_t>> zeroInit = getZeroInit())
    if (failed(verifyParameterList(*this, "zero_init", *zeroInit,
                                   [&](int64_t i) -> LogicalResult {
                                     if (!llvm::is_contained(getOutputs(), i))
                                       return emitOpError("zero_init index ")
                                              << i << " is not an output";
                                     return success();
                                   })))
      return failure();
  return success();
}

LogicalResult FuncOp::verifyRegions() {
  if (isExternal())
    return emitOpError("must have a body");
  Block &body = getBody().front();
  if (body.empty() || !isa<ReturnOp>(body.back()))
    return emitOpError("body must end with dkernel.return");
  // The runtime encodes each descriptor from the one buffer named for it.
  SmallVector<unsigned> described(getNumArguments(), 0);
  for (auto op : body.getOps<TmaDescriptorOp>())
    ++described[op.getDescriptorIndex()];
  for (auto [i, count] : llvm::enumerate(described)) {
    if (!isTmaDescriptor(i))
      continue;
    if (count == 0)
      return emitOpError("TMA descriptor parameter #")
             << i << " is not described by a dkernel.tma_descriptor";
    if (count > 1)
      return emitOpError("TMA descriptor parameter #")
             << i << " is described more than once";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// LaunchOp
//===----------------------------------------------------------------------===//

LogicalResult LaunchOp::verify() {
  if ((*this)->getParentOfType<FuncOp>())
    return emitOpError("launches kernels from host code only, not from a "
                       "dkernel.func");
  return success();
}

LogicalResult LaunchOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto kernel =
      symbolTable.lookupNearestSymbolFrom<FuncOp>(*this, getCalleeAttr());
  if (!kernel)
    return emitOpError("'@") << getCallee() << "' does not name a dkernel.func";
  SmallVector<BlockArgument> buffers = kernel.getBufferArguments();
  if (buffers.size() != getArgs().size())
    return emitOpError("@") << getCallee() << " takes " << buffers.size()
                            << " buffer arguments, got " << getArgs().size();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(getArgs(), buffers))) {
    auto [arg, param] = pair;
    if (arg.getType() != param.getType())
      return emitOpError("argument #")
             << i << " has type " << arg.getType() << " but parameter #"
             << param.getArgNumber() << " of @" << getCallee() << " is "
             << param.getType();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// AllocSharedOp
//===----------------------------------------------------------------------===//

void AllocSharedOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), "smem");
}

int64_t AllocSharedOp::getSizeInBytes() {
  MemRefType type = getType();
  return type.getNumElements() * getScalarBytes(type.getElementType());
}

LogicalResult AllocSharedOp::verify() {
  MemRefType type = getType();
  if (!isSharedMemory(type))
    return emitOpError("result must be in workgroup memory, got ") << type;
  if (!type.getLayout().isIdentity())
    return emitOpError("result must have the identity layout, got ") << type;
  // 16 bytes suits 16-byte cp.async and vector accesses, and is a multiple
  // of every element size.
  if (getOffset() < 0 || getOffset() % 16 != 0)
    return emitOpError("offset ")
           << getOffset() << " must be a non-negative multiple of 16 bytes";
  int64_t end = getOffset() + getSizeInBytes();
  int64_t pool = cast<FuncOp>((*this)->getParentOp()).getSmem();
  if (end > pool)
    return emitOpError("bytes [")
           << getOffset() << ", " << end << ") exceed the kernel's " << pool
           << " bytes of shared memory";
  return success();
}

//===----------------------------------------------------------------------===//
// Custom directives of the generated assembly formats
//===----------------------------------------------------------------------===//

/// The type of an mbarrier phase: nothing for index, `, i32` for i32.
static ParseResult parsePhaseType(OpAsmParser &parser, Type &type) {
  type = parser.getBuilder().getIndexType();
  if (failed(parser.parseOptionalComma()))
    return success();
  return parser.parseType(type);
}

static void printPhaseType(OpAsmPrinter &p, Operation *, Type type) {
  if (!type.isIndex())
    p << ", " << type;
}

#define GET_OP_CLASSES
#include "Deplodock/Dialect/DKernel/IR/DKernelOps.cpp.inc"
