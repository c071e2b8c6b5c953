//===- DTensorOps.td - Deplodock tensor dialect ops --------*- tablegen -*-===//

#ifndef DEPLODOCK_DIALECT_DTENSOR_OPS
#define DEPLODOCK_DIALECT_DTENSOR_OPS

include "Deplodock/Dialect/DTensor/IR/DTensorDialect.td"
include "Deplodock/Dialect/Common/DeplodockEnums.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

class DTensor_Op<string mnemonic, list<Trait> traits = []>
    : Op<DTensor_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// ElementwiseOp
//===----------------------------------------------------------------------===//

def DTensor_ElementwiseOp : DTensor_Op<"elementwise", [
    Pure, SingleBlock, IsolatedFromAbove, RecursiveMemoryEffects]> {
  let summary = "applies a scalar body to every element";
  let description = [{
    Applies the body to each coordinate of the result. Every operand already
    has the result's shape (broadcasts are explicit `dtensor.index_map`s); the
    body receives one scalar per operand and yields the result scalar with
    `dtensor.yield`. The body holds `arith` and `math` ops only.

    ```mlir
    %y = dtensor.elementwise (%a = %x, %b = %w) : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32> {
      %m = arith.mulf %a, %b : f32
      dtensor.yield %m : f32
    }
    ```
  }];
  let arguments = (ins Variadic<AnyStaticShapeTensor>:$inputs);
  let results = (outs AnyStaticShapeTensor:$result);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let hasFolder = 1;
  let builders = [
    /// Builds the op with a body made by `bodyBuilder`, which receives one
    /// scalar block argument per input and returns the value to yield.
    OpBuilder<(ins "::mlir::Type":$resultType, "::mlir::ValueRange":$inputs,
      "::llvm::function_ref<::mlir::Value(::mlir::OpBuilder &, "
      "::mlir::Location, ::mlir::ValueRange)>":$bodyBuilder)>
  ];
  let extraClassDeclaration = [{
    /// The yield that ends the body.
    YieldOp getYield();
  }];
}

def DTensor_YieldOp : DTensor_Op<"yield", [
    Pure, Terminator, HasParent<"ElementwiseOp">, ReturnLike]> {
  let summary = "yields the scalar result of an elementwise body";
  let arguments = (ins AnyType:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

def DTensor_ReduceOp : DTensor_Op<"reduce", [Pure]> {
  let summary = "folds axes of a tensor with add, mul, max or min";
  let description = [{
    Reduces `input` over `axes` (strictly increasing, in range) with `kind`.
    With `keepdim` the reduced axes stay as size-1 axes, otherwise they are
    dropped.

    ```mlir
    %s = dtensor.reduce add %x axes [2] keepdim : tensor<1x32x2048xf32> -> tensor<1x32x1xf32>
    ```
  }];
  let arguments = (ins AnyStaticShapeTensor:$input,
                       Deplodock_ReduceKindProp:$kind,
                       DenseI64ArrayAttr:$axes,
                       UnitProp:$keepdim);
  let results = (outs AnyStaticShapeTensor:$result);
  let assemblyFormat = [{
    $kind $input `axes` $axes (`keepdim` $keepdim^)? attr-dict
    `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// IndexMapOp
//===----------------------------------------------------------------------===//

def DTensor_IndexMapOp : DTensor_Op<"index_map", [Pure]> {
  let summary = "reads each output coordinate from a source at an affine index";
  let description = [{
    The one layout op. For each coordinate `c` of the result, the op takes the
    first source `i` whose predicate holds at `c` (a source without predicate
    always holds) and reads `source_i[map_i(c)]`. When no source applies the
    element is `padding`. Maps have one dimension per result axis and one
    result per source axis; predicates are integer sets over the same
    dimensions.

    Transposes, broadcasts and reshapes are one unpredicated source
    (`floordiv`/`mod` express reshapes); concat is one predicated source per
    piece; pad and causal masks use a predicate and a padding value.

    ```mlir
    // Broadcast a row sum along the last axis.
    %b = dtensor.index_map %s[(d0, d1, d2) -> (d0, d1, 0)]
        : (tensor<1x32x1xf32>) -> tensor<1x32x2048xf32>
    // Concatenate along axis 1.
    %c = dtensor.index_map %a[(d0, d1) -> (d0, d1)] if [(d0, d1) : (-d1 + 3 >= 0)],
                           %b[(d0, d1) -> (d0, d1 - 4)]
        : (tensor<2x4xf32>, tensor<2x3xf32>) -> tensor<2x7xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyStaticShapeTensor>:$sources,
                       TypedArrayAttrBase<AffineMapAttr, "affine maps">:$maps,
                       OptionalAttr<ArrayAttr>:$predicates,
                       OptionalAttr<TypedAttrInterface>:$padding);
  let results = (outs AnyStaticShapeTensor:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
  let builders = [
    /// One unpredicated source read at `map`.
    OpBuilder<(ins "::mlir::Type":$resultType, "::mlir::Value":$source,
                   "::mlir::AffineMap":$map)>
  ];
  let extraClassDeclaration = [{
    /// The affine map of source `i`.
    ::mlir::AffineMap getMap(unsigned i);
    /// The predicate of source `i`, or a null set when it always applies.
    ::mlir::IntegerSet getPredicate(unsigned i);
  }];
}

//===----------------------------------------------------------------------===//
// GatherOp
//===----------------------------------------------------------------------===//

def DTensor_GatherOp : DTensor_Op<"gather", [Pure]> {
  let summary = "reads each output element from a source at computed indices";
  let description = [{
    The data-dependent read (embedding lookups): for each coordinate `c` of
    the result, reads `source[indices_0[c], ..., indices_{r-1}[c]]`, one
    index tensor per source axis, each of the result's shape with `index`
    elements. An index outside its axis is clamped into it, so that no read
    leaves the source (PyTorch raises there; a GPU kernel cannot). Indices
    that only depend on the coordinate (`linalg.index`) arrive as index
    maps of iota constants.

    ```mlir
    %e = dtensor.gather %table[%ids, %cols]
        : tensor<96x32xf32>[tensor<1x8x32xindex>, tensor<1x8x32xindex>]
        -> tensor<1x8x32xf32>
    ```
  }];
  let arguments = (ins AnyStaticShapeTensor:$source,
                       Variadic<AnyStaticShapeTensor>:$indices);
  let results = (outs AnyStaticShapeTensor:$result);
  let assemblyFormat = [{
    $source `[` $indices `]` attr-dict `:` type($source)
    `[` type($indices) `]` `->` type($result)
  }];
  let hasVerifier = 1;
}

#endif // DEPLODOCK_DIALECT_DTENSOR_OPS
