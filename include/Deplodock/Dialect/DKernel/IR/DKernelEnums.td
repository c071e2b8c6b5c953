//===- DKernelEnums.td - Enums of the kernel dialect -------*- tablegen -*-===//

#ifndef DEPLODOCK_DIALECT_DKERNEL_ENUMS
#define DEPLODOCK_DIALECT_DKERNEL_ENUMS

include "mlir/IR/EnumAttr.td"

def DKernel_WgmmaMajor : I32Enum<"WgmmaMajor",
    "which dimension of a wgmma multiplicand is contiguous", [
    I32EnumCase<"k", 0>,
    I32EnumCase<"mn", 1>]> {
  let cppNamespace = "::deplodock::dkernel";
  let description = [{
    `k`: K-major, each row of M (A) or N (B) holds K contiguously (wgmma's
    default, `imm-trans` 0). `mn`: MN-major, each K row holds M or N
    contiguously (`imm-trans` 1; f16 and bf16 only in the PTX ISA).
  }];
}

def DKernel_RegisterChange : I32Enum<"RegisterChange",
    "whether setmaxnreg raises or lowers a warpgroup's registers", [
    I32EnumCase<"inc", 0>,
    I32EnumCase<"dec", 1>]> {
  let cppNamespace = "::deplodock::dkernel";
  let description = [{
    `inc`: raise each thread's registers to the count, waiting until the
    SM's pool can grant them. `dec`: lower them to the count, releasing the
    rest to the pool.
  }];
}

#endif // DEPLODOCK_DIALECT_DKERNEL_ENUMS
