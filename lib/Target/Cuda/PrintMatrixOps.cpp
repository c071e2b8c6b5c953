//===- PrintMatrixOps.cpp - Tensor-core ops as CUDA -----------------------===//
//
// ldmatrix and mma.sync (warp level), wgmma and its fences (warpgroup level).
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace deplodock;
using namespace deplodock::cuda_emitter;

//===----------------------------------------------------------------------===//
// Warp-level matrix ops
//===----------------------------------------------------------------------===//

/// The 16 bits of half value `v` (f16 or bf16) as an unsigned.
static std::string halfBits(Type type, StringRef v) {
  return (Twine("(unsigned)") +
          (type.isF16() ? "__half_as_ushort(" : "__bfloat16_as_ushort(") + v +
          ")")
      .str();
}

LogicalResult CudaEmitter::printOperation(dkernel::LdMatrixOp op) {
  // One 32-bit register per matrix, holding a lane's two elements, the
  // lower column (row, transposed) in the low half.
  unsigned n = op.getNumMatrices();
  std::string regs = fresh("lm");
  os << "unsigned " << regs << "[" << n << "];\n";
  os << "asm volatile(\"ldmatrix.sync.aligned.m8n8.x" << n
     << (op.getTrans() ? ".trans" : "") << ".shared.b16 {";
  for (unsigned i = 0; i < n; ++i)
    os << (i ? ", " : "") << "%" << i;
  os << "}, [%" << n << "];\\n\" : ";
  for (unsigned i = 0; i < n; ++i)
    os << (i ? ", " : "") << "\"=r\"(" << regs << "[" << i << "])";
  os << " : \"r\"(" << sharedAddress(op.getSrc(), op.getIndices())
     << ") : \"memory\");\n";
  Type type = op.getResult(0).getType();
  StringRef fromBits =
      type.isF16() ? "__ushort_as_half" : "__ushort_as_bfloat16";
  for (auto [i, result] : llvm::enumerate(op.getResults())) {
    if (failed(declare(result)))
      return failure();
    os << fromBits << "((unsigned short)(" << regs << "[" << i / 2 << "]"
       << (i % 2 ? " >> 16" : " & 0xffffu") << "));\n";
  }
  return success();
}

/// The tf32 m16n8k8 form: each f32 operand rounded by cvt.rna into a
/// register of its own.
static void printTf32Mma(raw_ostream &os, dkernel::MmaSyncOp op,
                         ArrayRef<std::string> d, StringRef regs,
                         function_ref<std::string(Value)> expr) {
  SmallVector<Value> operands(op.getA());
  llvm::append_range(operands, op.getB());
  os << "unsigned " << regs << "[" << operands.size() << "];\n";
  for (auto [i, v] : llvm::enumerate(operands))
    os << "asm(\"cvt.rna.tf32.f32 %0, %1;\\n\" : \"=r\"(" << regs << "[" << i
       << "]) : \"f\"(" << expr(v) << "));\n";
  os << "asm(\"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%10, %11, %12, %13};\\n\" : ";
  for (auto [i, v] : llvm::enumerate(d))
    os << (i ? ", " : "") << "\"=f\"(" << v << ")";
  os << " : ";
  for (size_t i = 0; i < operands.size(); ++i)
    os << (i ? ", " : "") << "\"r\"(" << regs << "[" << i << "])";
  for (Value c : op.getC())
    os << ", \"f\"(" << expr(c) << ")";
  os << ");\n";
}

LogicalResult CudaEmitter::printOperation(dkernel::MmaSyncOp op) {
  if (op.isTf32()) {
    SmallVector<std::string, 4> d;
    for (Value result : op.getResults())
      d.push_back(bind(result, "acc"));
    os << "float " << llvm::join(d, ", ") << ";\n";
    printTf32Mma(os, op, d, fresh("tf"), [&](Value v) { return expr(v); });
    return success();
  }
  Type type = op.getElementType();
  StringRef name = type.isF16() ? "f16" : "bf16";
  SmallVector<std::string, 4> d;
  for (Value result : op.getResults())
    d.push_back(bind(result, "acc"));
  os << "float " << llvm::join(d, ", ") << ";\n";
  // Operands: 4 + 2 registers of element pairs (low element first), then
  // the 4 accumulators.
  os << "asm(\"mma.sync.aligned.m16n8k16.row.col.f32." << name << "." << name
     << ".f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%10, %11, %12, %13};\\n\" : ";
  for (auto [i, v] : llvm::enumerate(d))
    os << (i ? ", " : "") << "\"=f\"(" << v << ")";
  os << " : ";
  SmallVector<Value> halves(op.getA());
  llvm::append_range(halves, op.getB());
  for (unsigned i = 0; i < halves.size(); i += 2)
    os << (i ? ", " : "") << "\"r\"(" << halfBits(type, expr(halves[i]))
       << " | (" << halfBits(type, expr(halves[i + 1])) << " << 16))";
  for (Value c : op.getC())
    os << ", \"f\"(" << expr(c) << ")";
  os << ");\n";
  return success();
}

//===----------------------------------------------------------------------===//
// Warpgroup matrix ops
//===----------------------------------------------------------------------===//

LogicalResult CudaEmitter::printOperation(dkernel::WgmmaDescOp op) {
  // The start address's bits 4-17 in bits 0-13; the rest is constant.
  if (failed(declare(op.getResult(), "wd")))
    return failure();
  os << "(long long)((((unsigned long long)"
     << sharedAddress(op.getSrc(), op.getIndices()) << " & 0x3ffffull) >> 4) | "
     << hex(op.getConstantBits(), 16) << "ull);\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::WgmmaFenceOp op) {
  os << "asm volatile(\"wgmma.fence.sync.aligned;\\n\" ::: \"memory\");\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::FenceProxyAsyncOp op) {
  os << "asm volatile(\"fence.proxy.async.shared::cta;\\n\" ::: "
        "\"memory\");\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::WgmmaCommitGroupOp op) {
  os << "asm volatile(\"wgmma.commit_group.sync.aligned;\\n\" ::: "
        "\"memory\");\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::WgmmaWaitGroupOp op) {
  os << "asm volatile(\"wgmma.wait_group.sync.aligned " << op.getPending()
     << ";\\n\" ::: \"memory\");\n";
  // The accumulators pass through in their registers; an empty asm that
  // "changes" each keeps their reads after the wait.
  for (auto [acc, result] : llvm::zip(op.getAccumulators(), op.getResults())) {
    std::string name = expr(acc);
    os << "asm volatile(\"\" : \"+f\"(" << name << ") :: \"memory\");\n";
    names[result] = name;
  }
  return success();
}

/// Whether `value` is read by one op only and lives in a local that op may
/// update in place: a wgmma's result or a value an scf.for carries.
static bool isMutableAccumulator(Value value) {
  if (!value.hasOneUse())
    return false;
  if (value.getDefiningOp<dkernel::WgmmaMmaAsyncOp>())
    return true;
  auto arg = dyn_cast<BlockArgument>(value);
  return arg && isa<scf::ForOp>(arg.getOwner()->getParentOp()) &&
         arg.getArgNumber() > 0;
}

/// The PTX name of a wgmma multiplicand type.
static StringRef getWgmmaTypeName(Type type) {
  if (isa<Float8E4M3FNType>(type))
    return "e4m3";
  if (isa<Float8E5M2Type>(type))
    return "e5m2";
  return type.isF16() ? "f16" : "bf16";
}

LogicalResult CudaEmitter::printOperation(dkernel::WgmmaMmaAsyncOp op) {
  bool f8 = dkernel::isWgmmaF8(op.getElementType());
  size_t count = op.getResults().size();
  // The accumulators are updated in place. A C read by this wgmma alone
  // that lives in a mutable local (an earlier wgmma's result, a loop's
  // carried value) lends the result its local; any other result is a fresh
  // local holding C (or zero with scale-d 0). No copy of an accumulator
  // then sits between two wgmmas of a chain: ptxas serialises the groups
  // of a pipeline whose accumulators a copy reads in flight (C7514).
  SmallVector<std::string> d;
  for (auto [i, result] : llvm::enumerate(op.getResults())) {
    if (!op.getC().empty() && isMutableAccumulator(op.getC()[i])) {
      d.push_back(expr(op.getC()[i]));
      names[result] = d.back();
      continue;
    }
    d.push_back(bind(result, "acc"));
    os << "float " << d.back() << " = "
       << (op.getC().empty() ? std::string("0.0f") : expr(op.getC()[i]))
       << ";\n";
  }
  os << "asm volatile(\"{\\n.reg .pred p;\\nsetp.ne.b32 p, %" << count + 2
     << ", 0;\\nwgmma.mma_async.sync.aligned.m64n" << op.getN() << "k"
     << op.getK() << ".f32." << getWgmmaTypeName(op.getElementType()) << "."
     << getWgmmaTypeName(op.getBElementType()) << " {";
  for (size_t i = 0; i < count; ++i)
    os << (i ? ", " : "") << "%" << i;
  // scale-d from a register; scale-a and scale-b 1; imm-trans-a and -b 1
  // for an MN-major operand (8-bit operands are K-major: the instruction
  // has no imm-trans for them).
  auto trans = [](dkernel::WgmmaMajor major) {
    return major == dkernel::WgmmaMajor::mn ? 1 : 0;
  };
  os << "}, %" << count << ", %" << count + 1 << ", p, 1, 1";
  if (!f8)
    os << ", " << trans(op.getMajorA()) << ", " << trans(op.getMajorB());
  os << ";\\n}\\n\" : ";
  for (auto [i, v] : llvm::enumerate(d))
    os << (i ? ", " : "") << "\"+f\"(" << v << ")";
  os << " : \"l\"(" << expr(op.getA()) << "), \"l\"(" << expr(op.getB())
     << "), \"r\"(" << (op.getC().empty() ? 0 : 1) << ") : \"memory\");\n";
  return success();
}

LogicalResult CudaEmitter::printOperation(dkernel::SetMaxNRegOp op) {
  os << "asm volatile(\"setmaxnreg."
     << dkernel::stringifyRegisterChange(op.getChange()) << ".sync.aligned.u32 "
     << op.getCount() << ";\\n\" ::: \"memory\");\n";
  return success();
}
