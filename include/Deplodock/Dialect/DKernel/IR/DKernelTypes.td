//===- DKernelTypes.td - dkernel types ---------------------*- tablegen -*-===//

#ifndef DEPLODOCK_DIALECT_DKERNEL_TYPES
#define DEPLODOCK_DIALECT_DKERNEL_TYPES

include "Deplodock/Dialect/DKernel/IR/DKernelDialect.td"
include "mlir/IR/AttrTypeBase.td"

class DKernel_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<DKernel_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

//===----------------------------------------------------------------------===//
// TmaDescriptorType
//===----------------------------------------------------------------------===//

def DKernel_TmaDescriptorType
    : DKernel_Type<"TmaDescriptor", "tma_descriptor"> {
  let summary = "a TMA tensor map: the box one tma_load copies";
  let description = [{
    A kernel parameter holding a `CUtensorMap` that the host encodes with
    `cuTensorMapEncodeTiled` from a global buffer of the same kernel (named by
    `dkernel.tma_descriptor`). The type records what the encoding needs
    besides the buffer: the box shape copied by one `dkernel.tma_load`
    (outermost dimension first), the element type and the shared-memory
    swizzle in bytes (0 for none, 32, 64 or 128).

    With a swizzle, the hardware permutes the 16-byte chunks of each
    `swizzle`-byte row segment of the tile in shared memory (chunk index XOR
    row index modulo `swizzle / 16`); code reading the tile applies the same
    XOR to its indices, spelled out in `arith` by the lowering.

    The type only admits boxes the hardware accepts: rank 1 to 5, extents in
    [1, 256], elements of 1, 2, 4 or 8 bytes, an innermost extent that spans a
    multiple of 16 bytes and, with a swizzle, no more than the swizzle span.

    ```mlir
    !dkernel.tma_descriptor<64x32xf32, swizzle = 128>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t", "box shape">:$boxShape,
                        "::mlir::Type":$elementType,
                        "int64_t":$swizzle);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The number of box dimensions.
    unsigned getRank() const { return getBoxShape().size(); }
    /// Bytes of one element.
    int64_t getElementBytes() const;
    /// Bytes of one box: what one tma_load transfers.
    int64_t getBoxBytes() const;
  }];
}

#endif // DEPLODOCK_DIALECT_DKERNEL_TYPES
