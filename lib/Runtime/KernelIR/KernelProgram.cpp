//===- KernelProgram.cpp - Benchmark requests from Kernel IR --------------===//

#include "Deplodock/Runtime/KernelProgram.h"
#include "Deplodock/Dialect/DKernel/IR/DKernelOps.h"
#include "Deplodock/Dialect/DKernel/IR/Target.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::runtime;

std::optional<DType> deplodock::runtime::getDType(Type type,
                                                  unsigned indexBitwidth) {
  if (type.isF16())
    return DType::F16;
  if (type.isBF16())
    return DType::BF16;
  if (type.isF32())
    return DType::F32;
  if (type.isF64())
    return DType::F64;
  if (isa<Float8E4M3FNType>(type))
    return DType::F8E4M3FN;
  if (isa<Float8E5M2Type>(type))
    return DType::F8E5M2;
  if (type.isIndex())
    return indexBitwidth == 64 ? DType::I64 : DType::I32;
  if (auto integer = dyn_cast<IntegerType>(type);
      integer && !integer.isUnsigned()) {
    switch (integer.getWidth()) {
    case 1:
      return DType::I1;
    case 8:
      return DType::I8;
    case 16:
      return DType::I16;
    case 32:
      return DType::I32;
    case 64:
      return DType::I64;
    default:
      break;
    }
  }
  return std::nullopt;
}

/// The buffer of a value of memref type `type`; fails on a type the runtime
/// cannot hold.
static FailureOr<BufferSpec>
makeBuffer(Location loc, Type type, std::string name, unsigned indexBitwidth) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || !memref.hasStaticShape() || !memref.getLayout().isIdentity())
    return emitError(loc, "cannot hold ")
           << name << " of type " << type
           << " on the GPU: only statically shaped memrefs with the identity "
              "layout";
  std::optional<DType> dtype = getDType(memref.getElementType(), indexBitwidth);
  if (!dtype)
    return emitError(loc, "cannot hold ")
           << name << " on the GPU: unsupported element type "
           << memref.getElementType();
  BufferSpec buffer;
  buffer.name = std::move(name);
  buffer.dtype = *dtype;
  buffer.shape.assign(memref.getShape().begin(), memref.getShape().end());
  return buffer;
}

/// The contents of constant `global` as `dtype` bytes: floats through
/// double (exact for every float dtype), integers bit for bit.
static FailureOr<std::vector<uint8_t>>
constantBytes(memref::GetGlobalOp get, memref::GlobalOp global, DType dtype) {
  auto init =
      global.getConstant()
          ? dyn_cast_or_null<DenseElementsAttr>(global.getInitialValueAttr())
          : DenseElementsAttr();
  int64_t count = global.getType().getNumElements();
  if (!init || init.getNumElements() != count)
    return get.emitOpError("reads @")
           << global.getSymName()
           << ", which the GPU runtime cannot hold: only constant globals "
              "with a dense initial value of their own shape";
  std::vector<uint8_t> bytes(count * dtypeSize(dtype));
  int64_t i = 0;
  if (isa<FloatType>(init.getElementType())) {
    for (APFloat v : init.getValues<APFloat>())
      writeElement(dtype, bytes.data(), i++, v.convertToDouble());
    return bytes;
  }
  unsigned size = dtypeSize(dtype);
  for (APInt v : init.getValues<APInt>()) {
    uint64_t word = dtype == DType::I1
                        ? v.getBoolValue()
                        : static_cast<uint64_t>(v.getSExtValue());
    // Little-endian, as the device holds it.
    for (unsigned b = 0; b < size; ++b)
      bytes[i * size + b] = static_cast<uint8_t>(word >> (8 * b));
    ++i;
  }
  return bytes;
}

/// The launch of `kernel` on `buffers` (one index per buffer parameter).
static LaunchSpec makeLaunch(dkernel::FuncOp kernel,
                             ArrayRef<unsigned> buffers) {
  LaunchSpec launch;
  launch.kernel = kernel.getSymName().str();
  for (unsigned d = 0; d < 3; ++d) {
    launch.grid[d] = kernel.getGrid()[d];
    launch.block[d] = kernel.getBlock()[d];
  }
  launch.smemBytes = kernel.getSmem();
  launch.early = kernel.waitsForPriorGrids();
  // Parameter index -> the buffer it is, for buffer parameters.
  llvm::DenseMap<unsigned, unsigned> bufferOf;
  unsigned next = 0;
  for (BlockArgument arg : kernel.getArguments())
    if (isa<MemRefType>(arg.getType()))
      bufferOf[arg.getArgNumber()] = buffers[next++];
  for (BlockArgument arg : kernel.getArguments()) {
    unsigned i = arg.getArgNumber();
    LaunchParam param;
    if (auto descriptor = kernel.getTmaDescriptorOp(i)) {
      TmaSpec tma;
      tma.buffer = bufferOf.lookup(descriptor.getBufferIndex());
      ArrayRef<int64_t> box = descriptor.getDescriptorType().getBoxShape();
      tma.box.assign(box.begin(), box.end());
      tma.swizzle = descriptor.getDescriptorType().getSwizzle();
      param.tma = tma;
    } else {
      param.buffer = bufferOf.lookup(i);
      if (kernel.isZeroInit(i))
        launch.zero.push_back(param.buffer);
      if (kernel.isOutput(i))
        launch.writes.push_back(param.buffer);
    }
    launch.params.push_back(param);
  }
  return launch;
}

/// Prints every dkernel.func of the module around `op` as CUDA into
/// `program`, with the architecture option its target needs.
static LogicalResult emitSource(Operation *op,
                                const CudaEmitterOptions &options,
                                KernelProgram &program) {
  auto module = op->getParentOfType<ModuleOp>();
  llvm::raw_string_ostream os(program.source);
  if (failed(translateToCuda(module ? module.getOperation() : op, os, options)))
    return failure();
  if (dkernel::TargetAttr target = dkernel::getTarget(op))
    if (std::optional<std::string> arch = getArchOption(target.getName()))
      program.compileOptions.push_back(std::move(*arch));
  return success();
}

FailureOr<KernelProgram>
deplodock::runtime::buildKernelProgram(func::FuncOp host,
                                       const CudaEmitterOptions &options) {
  KernelProgram program;
  program.function = host.getSymName().str();
  program.indexBitwidth = options.indexBitwidth;
  llvm::DenseMap<Value, unsigned> bufferOf;
  for (BlockArgument arg : host.getArguments()) {
    FailureOr<BufferSpec> buffer =
        makeBuffer(host.getLoc(), arg.getType(),
                   "argument #" + std::to_string(arg.getArgNumber()),
                   options.indexBitwidth);
    if (failed(buffer))
      return failure();
    // The name the importer gave the argument (a PyTorch parameter's path),
    // else its position.
    auto name =
        host.getArgAttrOfType<StringAttr>(arg.getArgNumber(), "deplodock.name");
    buffer->name =
        name ? name.str() : "arg" + std::to_string(arg.getArgNumber());
    bufferOf[arg] = program.buffers.size();
    program.buffers.push_back(std::move(*buffer));
  }
  program.numArguments = program.buffers.size();
  auto lookup = [&](Operation *user, Value value) -> FailureOr<unsigned> {
    auto it = bufferOf.find(value);
    if (it != bufferOf.end())
      return it->second;
    return user->emitOpError("uses a buffer that is neither an argument nor "
                             "a memref.alloc of the function");
  };
  // One buffer per global, however often it is read.
  llvm::DenseMap<Operation *, unsigned> bufferOfGlobal;
  unsigned allocations = 0;
  for (Operation &op : host.getBody().front()) {
    if (auto get = dyn_cast<memref::GetGlobalOp>(op)) {
      auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
          get, get.getNameAttr());
      if (!global)
        return get.emitOpError("reads @")
               << get.getName() << ", which is not a memref.global";
      auto [it, inserted] =
          bufferOfGlobal.try_emplace(global, program.buffers.size());
      bufferOf[get.getResult()] = it->second;
      if (!inserted)
        continue;
      FailureOr<BufferSpec> buffer = makeBuffer(
          get.getLoc(), get.getType(), "a constant", options.indexBitwidth);
      if (failed(buffer))
        return failure();
      FailureOr<std::vector<uint8_t>> bytes =
          constantBytes(get, global, buffer->dtype);
      if (failed(bytes))
        return failure();
      buffer->name = global.getSymName().str();
      buffer->init = InitKind::Data;
      buffer->data = std::move(*bytes);
      program.buffers.push_back(std::move(*buffer));
      continue;
    }
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      FailureOr<BufferSpec> buffer =
          makeBuffer(alloc.getLoc(), alloc.getType(), "an allocation",
                     options.indexBitwidth);
      if (failed(buffer))
        return failure();
      buffer->name = "alloc" + std::to_string(allocations++);
      bufferOf[alloc.getResult()] = program.buffers.size();
      program.buffers.push_back(std::move(*buffer));
      continue;
    }
    if (auto launch = dyn_cast<dkernel::LaunchOp>(op)) {
      auto kernel = SymbolTable::lookupNearestSymbolFrom<dkernel::FuncOp>(
          launch, launch.getCalleeAttr());
      if (!kernel)
        return launch.emitOpError("launches @")
               << launch.getCallee() << ", which is not a dkernel.func";
      SmallVector<unsigned> buffers;
      for (Value arg : launch.getArgs()) {
        FailureOr<unsigned> buffer = lookup(launch, arg);
        if (failed(buffer))
          return failure();
        buffers.push_back(*buffer);
      }
      program.launches.push_back(makeLaunch(kernel, buffers));
      continue;
    }
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      for (Value value : ret.getOperands()) {
        FailureOr<unsigned> buffer = lookup(ret, value);
        if (failed(buffer))
          return failure();
        if (value.getDefiningOp<memref::GetGlobalOp>())
          return ret.emitOpError("returns a constant global, which the GPU "
                                 "runtime cannot return");
        program.results.push_back(*buffer);
      }
      continue;
    }
    if (isa<memref::DeallocOp>(op))
      continue;
    return op.emitOpError("cannot run on the GPU runtime: a host function may "
                          "only allocate buffers, read constant globals, "
                          "launch dkernel.funcs and return buffers");
  }
  // A layer with nothing to launch (it returns its arguments) is valid: a
  // program without source or launches.
  if (program.launches.empty())
    return program;
  if (failed(emitSource(host, options, program)))
    return failure();
  return program;
}

FailureOr<KernelProgram>
deplodock::runtime::buildKernelProgram(dkernel::FuncOp kernel,
                                       const CudaEmitterOptions &options) {
  KernelProgram program;
  program.function = kernel.getSymName().str();
  program.indexBitwidth = options.indexBitwidth;
  SmallVector<unsigned> buffers;
  for (BlockArgument arg : kernel.getBufferArguments()) {
    FailureOr<BufferSpec> buffer =
        makeBuffer(kernel.getLoc(), arg.getType(),
                   "parameter #" + std::to_string(arg.getArgNumber()),
                   options.indexBitwidth);
    if (failed(buffer))
      return failure();
    buffer->name = "arg" + std::to_string(program.buffers.size());
    if (kernel.isOutput(arg.getArgNumber()))
      program.results.push_back(program.buffers.size());
    buffers.push_back(program.buffers.size());
    program.buffers.push_back(std::move(*buffer));
  }
  program.numArguments = program.buffers.size();
  program.launches.push_back(makeLaunch(kernel, buffers));
  if (failed(emitSource(kernel, options, program)))
    return failure();
  return program;
}

BenchRequest deplodock::runtime::makeBenchRequest(const KernelProgram &program,
                                                  uint64_t seed) {
  BenchRequest request;
  request.source = program.source;
  request.compileOptions.assign(program.compileOptions.begin(),
                                program.compileOptions.end());
  request.buffers = program.buffers;
  for (auto [i, buffer] : llvm::enumerate(request.buffers)) {
    if (i >= program.numArguments)
      break;
    buffer.init = InitKind::Seeded;
    buffer.seed = seed;
    buffer.stream = i;
  }
  request.launches = program.launches;
  for (unsigned result : program.results)
    if (llvm::none_of(request.outputs, [&](const OutputSpec &output) {
          return output.buffer == result;
        }))
      request.outputs.push_back({result, std::nullopt, std::nullopt});
  return request;
}

ReferenceProgram
deplodock::runtime::makeReferenceProgram(const KernelProgram &program) {
  return ReferenceProgram{
      program.source,
      {program.compileOptions.begin(), program.compileOptions.end()},
      {program.launches.begin(), program.launches.end()}};
}

std::vector<uint8_t> deplodock::runtime::toBytes(const interp::Buffer &buffer,
                                                 DType dtype) {
  std::vector<uint8_t> bytes(buffer.data.size() * dtypeSize(dtype));
  for (auto [i, v] : llvm::enumerate(buffer.data))
    writeElement(dtype, bytes.data(), i, v);
  return bytes;
}

interp::Buffer deplodock::runtime::fromBytes(ArrayRef<uint8_t> bytes,
                                             DType dtype,
                                             ArrayRef<int64_t> shape,
                                             Type elementType) {
  interp::Buffer buffer(shape, elementType);
  int64_t n = std::min<int64_t>(buffer.size(), bytes.size() / dtypeSize(dtype));
  for (int64_t i = 0; i < n; ++i)
    buffer.data[i] = readElement(dtype, bytes.data(), i);
  return buffer;
}
