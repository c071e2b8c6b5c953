//===- PrintMemoryOps.cpp - Memory, GPU and copy ops as CUDA --------------===//
//
// Loads, stores, shared buffers, thread indices, barriers, asynchronous and
// vector copies, mbarriers and TMA.
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::cuda_emitter;

//===----------------------------------------------------------------------===//
// Memory and GPU
//===----------------------------------------------------------------------===//

LogicalResult CudaEmitter::printOperation(memref::AllocaOp op) {
  MemRefType type = op.getType();
  if (!type.hasStaticShape() || !type.getLayout().isIdentity())
    return op.emitOpError("of ") << type
                                 << " cannot be emitted; a local "
                                    "array has a static shape and the "
                                    "identity layout";
  Attribute space = type.getMemorySpace();
  auto gpuSpace = dyn_cast_or_null<gpu::AddressSpaceAttr>(space);
  if (space && (!gpuSpace || gpuSpace.getValue() != gpu::AddressSpace::Private))
    return op.emitOpError("in memory space ") << space << " cannot be emitted";
  FailureOr<std::string> element = typeName(type.getElementType(), op.getLoc());
  if (failed(element))
    return failure();
  os << *element << ' ' << bind(op.getResult(), "local") << '['
     << std::max<int64_t>(type.getNumElements(), 1) << "];\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(memref::LoadOp op) {
  if (failed(declare(op.getResult())))
    return failure();
  os << element(op.getMemref(), op.getIndices()) << ";\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(memref::StoreOp op) {
  if (failed(checkWritable(op, op.getMemref())))
    return failure();
  os << element(op.getMemref(), op.getIndices()) << " = "
     << expr(op.getValueToStore()) << ";\n";
  return success();
}

LogicalResult CudaEmitter::printGpuIndex(Operation *op, StringRef base,
                                         gpu::Dimension dim) {
  // The builtins are unsigned; the IR reads them as index.
  if (failed(declare(op->getResult(0))))
    return failure();
  os << '(' << indexTypeName() << ')' << base << '.'
     << gpu::stringifyDimension(dim) << ";\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(gpu::ShuffleOp op) {
  if (op.getMode() != gpu::ShuffleMode::XOR)
    return op.emitOpError("is only emitted in xor mode");
  if (!op.getValid().use_empty())
    return op.emitOpError("with a used 'valid' result cannot be emitted");
  if (failed(declare(op.getShuffleResult())))
    return failure();
  os << "__shfl_xor_sync(0xffffffffu, " << expr(op.getValue()) << ", "
     << expr(op.getOffset()) << ", " << expr(op.getWidth()) << ");\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(gpu::BarrierOp op) {
  os << "__syncthreads();\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::ClusterBlockRankOp op) {
  // Not volatile: the rank is fixed for the block, so reads may be merged.
  addHelper("cluster_ctarank",
            "static __device__ __forceinline__ unsigned cluster_ctarank() {\n"
            "  unsigned rank;\n"
            "  asm(\"mov.u32 %0, %%cluster_ctarank;\" : \"=r\"(rank));\n"
            "  return rank;\n"
            "}\n");
  if (failed(declare(op.getResult())))
    return failure();
  os << '(' << indexTypeName() << ")cluster_ctarank();\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::ClusterBarrierOp op) {
  os << "asm volatile(\"barrier.cluster.arrive.release.aligned;\\n"
        "barrier.cluster.wait.acquire.aligned;\\n\" ::: \"memory\");\n";
  return success();
}

//===----------------------------------------------------------------------===//
// Kernel IR
//===----------------------------------------------------------------------===//

LogicalResult CudaEmitter::printOperation(dkernel::AllocSharedOp op) {
  auto type = cast<MemRefType>(op.getType());
  FailureOr<std::string> element = typeName(type.getElementType(), op.getLoc());
  if (failed(element))
    return failure();
  os << *element << "* const " << bind(op.getResult(), "smem")
     << " = reinterpret_cast<" << *element << "*>(smem + " << op.getOffset()
     << ");\n";
  return success();
}

// The asm statements below clobber "memory": the compiler must neither move
// ordinary loads and stores of the buffers they touch across them nor cache
// such values in registers.

LogicalResult CudaEmitter::printOperation(dkernel::CpAsyncOp op) {
  // Only 16-byte copies may bypass L1 (.cg); smaller ones go through it (.ca).
  int64_t bytes = op.getBytes();
  // A guarded copy passes a source size of 0 when invalid: cp.async then
  // reads nothing and zero-fills the destination.
  Value valid = op.getValid();
  os << "asm volatile(\"cp.async." << (bytes == 16 ? "cg" : "ca")
     << ".shared.global [%0], [%1], " << bytes << (valid ? ", %2" : "")
     << ";\\n\" :: \"r\"(" << sharedAddress(op.getDst(), op.getDstIndices())
     << "), \"l\"(&" << element(op.getSrc(), op.getSrcIndices()) << ")";
  if (valid)
    os << ", \"r\"(" << expr(valid) << " ? " << bytes << "u : 0u)";
  os << " : \"memory\");\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::VectorCopyOp op) {
  // One 64 or 128-bit load and store of raw bits, whatever the element
  // type; the op's creator proved both addresses aligned to the run.
  StringRef type = op.getBytes() == 16 ? "uint4" : "uint2";
  os << "*reinterpret_cast<" << type << " *>(&"
     << element(op.getDst(), op.getDstIndices())
     << ") = *reinterpret_cast<const " << type << " *>(&"
     << element(op.getSrc(), op.getSrcIndices()) << ");\n";
  return success();
}

/// The CUDA vector type of a run of `count` f32 values (float2, float4),
/// or the raw-bits type of any other run of `bytes`.
static StringRef runType(Type element, size_t count, int64_t bytes) {
  if (element.isF32())
    return count == 4 ? "float4" : "float2";
  return bytes == 16 ? "uint4" : bytes == 8 ? "uint2" : "unsigned";
}

/// The field of a float2 / float4 holding element `i`.
static StringRef lane(size_t i) { return StringRef("xyzw").substr(i, 1); }

LogicalResult CudaEmitter::printOperation(dkernel::VectorLoadOp op) {
  // One 64 or 128-bit load; its creator proved the address aligned. f32
  // runs read a float2 / float4, other elements go through raw bits into
  // an aligned array that nvcc keeps in registers.
  Type elementType = op.getResult(0).getType();
  size_t count = op.getNumResults();
  int64_t bytes =
      static_cast<int64_t>(count) * dkernel::getScalarBytes(elementType);
  StringRef type = runType(elementType, count, bytes);
  std::string run = fresh("vl");
  std::string from = "*reinterpret_cast<const " + type.str() + " *>(&" +
                     element(op.getSrc(), op.getIndices()) + ")";
  FailureOr<std::string> scalar = typeName(elementType, op.getLoc());
  if (failed(scalar))
    return failure();
  if (elementType.isF32()) {
    os << "const " << type << " " << run << " = " << from << ";\n";
  } else {
    os << "alignas(" << bytes << ") " << *scalar << " " << run << "[" << count
       << "];\n*reinterpret_cast<" << type << " *>(" << run << ") = " << from
       << ";\n";
  }
  for (auto [i, result] : llvm::enumerate(op.getResults())) {
    if (failed(declare(result)))
      return failure();
    if (elementType.isF32())
      os << run << "." << lane(i) << ";\n";
    else
      os << run << "[" << i << "];\n";
  }
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::VectorStoreOp op) {
  if (failed(checkWritable(op, op.getDst())))
    return failure();
  Type elementType = op.getValues().front().getType();
  size_t count = op.getValues().size();
  int64_t bytes =
      static_cast<int64_t>(count) * dkernel::getScalarBytes(elementType);
  StringRef type = runType(elementType, count, bytes);
  std::string to = "*reinterpret_cast<" + type.str() + " *>(&" +
                   element(op.getDst(), op.getIndices()) + ")";
  if (elementType.isF32()) {
    os << to << " = make_" << type << "(";
    for (auto [i, v] : llvm::enumerate(op.getValues()))
      os << (i ? ", " : "") << expr(v);
    os << ");\n";
    return success();
  }
  FailureOr<std::string> scalar = typeName(elementType, op.getLoc());
  if (failed(scalar))
    return failure();
  std::string run = fresh("vs");
  os << "{\n";
  os.indent();
  os << "alignas(" << bytes << ") const " << *scalar << " " << run << "["
     << count << "] = {";
  for (auto [i, v] : llvm::enumerate(op.getValues()))
    os << (i ? ", " : "") << expr(v);
  os << "};\n"
     << to << " = *reinterpret_cast<const " << type << " *>(" << run << ");\n";
  os.unindent();
  os << "}\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::CpAsyncCommitOp op) {
  os << "asm volatile(\"cp.async.commit_group;\\n\" ::: \"memory\");\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::CpAsyncWaitOp op) {
  os << "asm volatile(\"cp.async.wait_group " << op.getPending()
     << ";\\n\" ::: \"memory\");\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::MbarrierInitOp op) {
  os << "asm volatile(\"mbarrier.init.shared::cta.b64 [%0], " << op.getCount()
     << ";\\n\" :: \"r\"(" << sharedAddress(op.getMbarriers(), op.getSlot())
     << ") : \"memory\");\n";
  return success();
}

LogicalResult
CudaEmitter::printOperation(dkernel::MbarrierArriveExpectTxOp op) {
  // The arrival state is discarded into the sink `_`.
  os << "asm volatile(\"mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], "
     << op.getBytes() << ";\\n\" :: \"r\"("
     << sharedAddress(op.getMbarriers(), op.getSlot()) << ") : \"memory\");\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::MbarrierArriveOp op) {
  // The arrival state is discarded into the sink `_`.
  os << "asm volatile(\"mbarrier.arrive.shared::cta.b64 _, [%0];\\n\" :: "
        "\"r\"("
     << sharedAddress(op.getMbarriers(), op.getSlot()) << ") : \"memory\");\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::WarpSyncOp) {
  os << "__syncwarp();\n";
  return success();
}

/// Prints griddepcontrol instruction `instr`, sm_90 PTX. Compiled for an
/// older GPU, where no grid is launched early (the runtime launches early
/// only on sm_90 and newer), the source still builds: it is left out.
static void printGridDependency(raw_ostream &os, StringRef instr) {
  os << "#if __CUDA_ARCH__ >= 900\n"
     << "asm volatile(\"griddepcontrol." << instr << ";\\n\" ::: \"memory\");\n"
     << "#endif\n";
}

LogicalResult CudaEmitter::printOperation(dkernel::WaitPriorGridsOp) {
  printGridDependency(os, "wait");
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::LaunchDependentsOp) {
  printGridDependency(os, "launch_dependents");
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::MbarrierArriveClusterOp op) {
  // mapa turns the local shared address into the same offset in the block
  // of the given rank. The arrival has the default (CTA-scope) release, as
  // CUTLASS's cluster pipelines do: what it orders are the thread's
  // accesses to its own block's slab, which the peer's multicast then
  // overwrites; a cluster-scope release costs a GPU-wide MEMBAR each time.
  os << "asm volatile(\"{\\n.reg .b32 remote;\\nmapa.shared::cluster.u32 "
        "remote, %0, %1;\\nmbarrier.arrive.shared::cluster.b64 _, "
        "[remote];\\n}\\n\" :: \"r\"("
     << sharedAddress(op.getMbarriers(), op.getSlot()) << "), \"r\"((unsigned)"
     << expr(op.getRank()) << ") : \"memory\");\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::FenceMbarrierInitOp op) {
  os << "asm volatile(\"fence.mbarrier_init.release.cluster;\\n\" ::: "
        "\"memory\");\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::MbarrierWaitOp op) {
  // Spin on try_wait.parity until the phase with this parity has completed.
  os << "{\n";
  os.indent();
  os << "const unsigned bar = "
     << sharedAddress(op.getMbarriers(), op.getSlot()) << ";\n"
     << "unsigned done = 0;\n"
     << "while (!done)\n";
  os.indent();
  os << "asm volatile(\"{\\n.reg .pred p;\\nmbarrier.try_wait.parity.shared::"
        "cta.b64 p, [%1], %2;\\nselp.u32 %0, 1, 0, p;\\n}\\n\" : \"=r\"(done) "
        ": \"r\"(bar), \"r\"((unsigned)"
     << expr(op.getPhase()) << ") : \"memory\");\n";
  os.unindent();
  os.unindent();
  os << "}\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::TmaLoadOp op) {
  unsigned rank = op.getDescriptorType().getRank();
  // PTX lists coordinates innermost first; the IR outermost first.
  SmallVector<std::string> slots, coords;
  for (unsigned i = 0; i < rank; ++i)
    slots.push_back("%" + std::to_string(i + 3));
  for (Value c : llvm::reverse(op.getCoords()))
    coords.push_back("\"r\"((int)" + expr(c) + ")");
  // A multicast names its CTA mask last, a 16-bit ("h") operand.
  Value multicast = op.getMulticast();
  std::string maskSlot =
      multicast ? ", %" + std::to_string(rank + 3) : std::string();
  if (multicast)
    coords.push_back("\"h\"((unsigned short)" + expr(multicast) + ")");
  os << "asm volatile(\"cp.async.bulk.tensor." << rank
     << "d.shared::cluster.global.mbarrier::complete_tx::bytes"
     << (multicast ? ".multicast::cluster" : "") << " [%0], [%1, {"
     << llvm::join(slots, ", ") << "}], [%2]" << maskSlot
     << ";\\n\" :: \"r\"((unsigned)"
     << "__cvta_generic_to_shared(" << expr(op.getDst())
     << ")), \"l\"((unsigned long long)&" << expr(op.getDescriptor())
     << "), \"r\"(" << sharedAddress(op.getMbarriers(), op.getSlot()) << "), "
     << llvm::join(coords, ", ") << " : \"memory\");\n";
  return success();
}
