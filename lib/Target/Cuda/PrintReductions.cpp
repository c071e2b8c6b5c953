//===- PrintReductions.cpp - Warp, tree and atomic reductions as CUDA -----===//
//
// The combining expressions of ReduceKind and the ops built on them.
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::cuda_emitter;

FailureOr<std::string> CudaEmitter::combine(ReduceKind kind, Type type,
                                            StringRef a, StringRef b,
                                            Location loc) {
  if (type.isInteger(1))
    return emitError(loc, "reductions of i1 cannot be emitted");
  switch (kind) {
  case ReduceKind::add:
    return (a + " + " + b).str();
  case ReduceKind::mul:
    return (a + " * " + b).str();
  case ReduceKind::max:
  case ReduceKind::min: {
    bool isMax = kind == ReduceKind::max;
    if (isa<FloatType>(type))
      return maximum(type, isMax, a, b);
    return ((isMax ? "max(" : "min(") + a + ", " + b + ")").str();
  }
  case ReduceKind::maxnum:
  case ReduceKind::minnum: {
    // fmax and fmin ignore a NaN operand, as arith.maxnumf does.
    bool isMax = kind == ReduceKind::maxnum;
    StringRef name = type.isF64()   ? (isMax ? "fmax" : "fmin")
                     : isHalf(type) ? (isMax ? "__hmax" : "__hmin")
                                    : (isMax ? "fmaxf" : "fminf");
    return (name + "(" + a + ", " + b + ")").str();
  }
  }
  llvm_unreachable("unknown reduction kind");
}

LogicalResult CudaEmitter::printOperation(dkernel::WarpReduceOp op) {
  Type type = op.getValue().getType();
  FailureOr<std::string> typeStr = typeName(type, op.getLoc());
  if (failed(typeStr))
    return failure();
  std::string name = bind(op.getResult(), "red");
  FailureOr<std::string> step =
      combine(op.getKind(), type, name,
              "__shfl_xor_sync(0xffffffffu, " + name + ", off, " +
                  std::to_string(op.getWidth()) + ")",
              op.getLoc());
  if (failed(step))
    return failure();
  os << *typeStr << ' ' << name << " = " << expr(op.getValue()) << ";\n";
  os << "#pragma unroll\n"
     << "for (int off = " << op.getWidth() / 2 << "; off > 0; off >>= 1)\n";
  os.indent();
  os << name << " = " << *step << ";\n";
  os.unindent();
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::TreeReduceOp op) {
  // Halve the live range each step; a barrier orders the steps. Thread `t`
  // is the linear id, so 2-D and 3-D blocks take part with every thread.
  std::string buf = expr(op.getBuffer());
  ArrayRef<int64_t> block = kernel.getBlock();
  std::string tid = "threadIdx.x";
  if (block[2] != 1)
    tid += llvm::formatv(" + {0} * (threadIdx.y + {1} * threadIdx.z)", block[0],
                         block[1]);
  else if (block[1] != 1)
    tid += llvm::formatv(" + {0} * threadIdx.y", block[0]);
  FailureOr<std::string> step =
      combine(op.getKind(), op.getResult().getType(), buf + "[t]",
              buf + "[t + s]", op.getLoc());
  if (failed(step))
    return failure();
  os << "{\n";
  os.indent();
  os << "const int t = " << tid << ";\n"
     << "for (int s = " << op.getLength() / 2 << "; s > 0; s >>= 1) {\n";
  os.indent();
  os << "if (t < s)\n";
  os.indent();
  os << buf << "[t] = " << *step << ";\n";
  os.unindent();
  os << "__syncthreads();\n";
  os.unindent();
  os << "}\n";
  os.unindent();
  os << "}\n";
  if (failed(declare(op.getResult())))
    return failure();
  os << buf << "[0];\n";
  return success();
}

FailureOr<std::string> CudaEmitter::casAtomicHelper(ReduceKind kind, Type type,
                                                    Location loc) {
  FailureOr<std::string> t = typeName(type, loc);
  if (failed(t))
    return failure();
  // How values travel through the integer atomicCAS of their width.
  StringRef bits, toBits, fromBits;
  switch (type.getIntOrFloatBitWidth()) {
  case 16:
    bits = "unsigned short";
    toBits = type.isF16()    ? "__half_as_ushort"
             : type.isBF16() ? "__bfloat16_as_ushort"
                             : "(unsigned short)";
    fromBits = type.isF16()    ? "__ushort_as_half"
               : type.isBF16() ? "__ushort_as_bfloat16"
                               : "(short)";
    break;
  case 32:
    bits = "unsigned";
    toBits = type.isF32() ? "__float_as_uint" : "(unsigned)";
    fromBits = type.isF32() ? "__uint_as_float" : "(int)";
    break;
  case 64:
    bits = "unsigned long long";
    toBits = type.isF64() ? "(unsigned long long)__double_as_longlong"
                          : "(unsigned long long)";
    fromBits = type.isF64() ? "__longlong_as_double" : "(long long)";
    break;
  default:
    return emitError(loc, "atomics on ") << type << " cannot be emitted";
  }
  StringRef kindName = stringifyReduceKind(kind);
  FailureOr<std::string> next = combine(kind, type, "cur", "v", loc);
  if (failed(next))
    return failure();
  std::string name = ("dk_atomic_" + kindName + "_" + typeSuffix(type)).str();
  // Retry until no other thread changed the value between read and swap;
  // stop early when the value would not change (max/min that lose).
  addHelper(
      name,
      llvm::formatv("static __device__ __forceinline__ void {0}({1} *p, {1} v) "
                    "{{\n"
                    "  {2} *const word = ({2} *)p;\n"
                    "  {2} seen = *word, old;\n"
                    "  do {{\n"
                    "    old = seen;\n"
                    "    const {1} cur = {3}(old);\n"
                    "    const {2} next = {4}({5});\n"
                    "    if (next == old)\n"
                    "      return;\n"
                    "    seen = atomicCAS(word, old, next);\n"
                    "  } while (seen != old);\n"
                    "}\n",
                    name, *t, bits, fromBits, toBits, *next)
          .str());
  return name;
}

LogicalResult CudaEmitter::printOperation(dkernel::AtomicStoreOp op) {
  if (failed(checkWritable(op, op.getMemref())))
    return failure();
  std::string address = "&" + element(op.getMemref(), op.getIndices());
  std::string value = expr(op.getValue());
  Type type = op.getValue().getType();
  ReduceKind kind = op.getKind();
  // Native atomics: add on 32-bit ints and every float but f16 on sm_60 (CUDA
  // has atomicAdd for __half from sm_70 and __nv_bfloat16 from sm_80); max and
  // min on 32- and 64-bit ints. i64 add goes through the unsigned overload,
  // which is the same two's-complement sum.
  if (kind == ReduceKind::add && type.isInteger(64)) {
    os << "atomicAdd((unsigned long long *)" << address
       << ", (unsigned long long)" << value << ");\n";
    return success();
  }
  bool native = (kind == ReduceKind::add &&
                 (isa<FloatType>(type) || type.isInteger(32))) ||
                ((kind == ReduceKind::max || kind == ReduceKind::min) &&
                 (type.isInteger(32) || type.isInteger(64)));
  if (native) {
    os << (kind == ReduceKind::add   ? "atomicAdd("
           : kind == ReduceKind::max ? "atomicMax("
                                     : "atomicMin(")
       << address << ", " << value << ");\n";
    return success();
  }
  FailureOr<std::string> helper = casAtomicHelper(kind, type, op.getLoc());
  if (failed(helper))
    return failure();
  os << *helper << '(' << address << ", " << value << ");\n";
  return success();
}
