//===- DLoopOps.td - Deplodock loop dialect ops ------------*- tablegen -*-===//

#ifndef DEPLODOCK_DIALECT_DLOOP_OPS
#define DEPLODOCK_DIALECT_DLOOP_OPS

include "Deplodock/Dialect/DLoop/IR/DLoopDialect.td"
include "Deplodock/Dialect/Common/DeplodockEnums.td"
include "Deplodock/Dialect/Common/AxisInterface.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/LoopLikeInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class DLoop_Op<string mnemonic, list<Trait> traits = []>
    : Op<DLoop_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

def DLoop_KernelOp : DLoop_Op<"kernel", [
    AttrSizedOperandSegments, IsolatedFromAbove,
    SingleBlockImplicitTerminator<"YieldOp">,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>
  ]> {
  let summary = "a loop nest over buffers that becomes one GPU kernel";
  let description = [{
    Binds input and output buffers to the arguments of its body and runs the
    body once; the loop nests inside say what each element of the outputs is.
    The name is a C identifier: it becomes the name of the CUDA function. It
    is not a symbol, because kernels live inside a `func.func` that launches
    them in order.

    Every buffer is a statically shaped memref with an identity layout, and no
    value is passed twice, so the body's buffers never alias. Inputs are only
    read; outputs may be read and written (a reducing store reads them).
    Private buffers (`memref.alloca` in the body, with a static shape and the
    identity layout) are only loaded and stored, so they never alias either.

    ```mlir
    dloop.kernel @copy ins(%x = %arg0 : memref<8xf32>)
                       outs(%y = %arg1 : memref<8xf32>) {
      dloop.for %i = 0 to 8 free "i" {
        %v = dloop.load %x[%i] : memref<8xf32>
        dloop.store %v, %y[%i] : memref<8xf32>
      }
    }
    ```
  }];
  let arguments = (ins
      StrAttr:$sym_name,
      Arg<Variadic<AnyMemRef>, "buffers the kernel reads", [MemRead]>:$inputs,
      Arg<Variadic<AnyMemRef>, "buffers the kernel writes",
          [MemRead, MemWrite]>:$outputs);
  let regions = (region SizedRegion<1>:$region);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    // Creates the body block with one argument per buffer and its implicit
    // terminator; `bodyBuilder`, when given, fills the body before it.
    OpBuilder<(ins "::llvm::StringRef":$name, "::mlir::ValueRange":$inputs,
      "::mlir::ValueRange":$outputs,
      CArg<"::llvm::function_ref<void(::mlir::OpBuilder &, ::mlir::Location, "
           "::mlir::ValueRange, ::mlir::ValueRange)>", "nullptr">:$bodyBuilder)>
  ];
  let extraClassDeclaration = [{
    /// The body arguments bound to the input buffers, in order.
    ::mlir::Block::BlockArgListType getInputArgs();
    /// The body arguments bound to the output buffers, in order.
    ::mlir::Block::BlockArgListType getOutputArgs();
    /// The input and output buffers, inputs first (the body argument order).
    ::mlir::OperandRange getBuffers() { return getOperands(); }
  }];
}

//===----------------------------------------------------------------------===//
// ForOp
//===----------------------------------------------------------------------===//

def DLoop_ForOp : DLoop_Op<"for", [
    DeclareOpInterfaceMethods<LoopLikeOpInterface, [
        "getLoopInductionVars", "getLoopLowerBounds", "getLoopUpperBounds",
        "getLoopSteps", "getInitsMutable", "getRegionIterArgs",
        "getYieldedValuesMutable", "getLoopResults", "getStaticTripCount",
        "promoteIfSingleIteration"]>,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>,
    DeclareOpInterfaceMethods<Deplodock_AxisOpInterface>,
    RecursiveMemoryEffects, RecursivelySpeculatable,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "a named loop from 0 to a static extent, free or reducing";
  let description = [{
    Runs the body for the induction variable `0, 1, ..., extent - 1`. The
    lower bound is always 0 and the step 1: tiling and strided loops belong to
    the Tile level. The loop has an axis name, unique among the loops that
    enclose it, which later rules and the tuner use to refer to it, and a
    kind:

    * `free` iterations are independent (an output axis); the loop carries no
      values;
    * `reduce` iterations fold into accumulators. The accumulators are SSA
      values: `iter(%acc = %init : f32)` binds a body argument to the value of
      the previous iteration (`%init` in the first), the body yields the next
      value, and the loop's results are the last yielded values. A reduce
      loop without accumulators must fold through a reducing `dloop.store`.

    `unroll` is a hint, set by a Tile rule, of how many iterations to unroll.

    ```mlir
    %s = dloop.for %k = 0 to 2048 reduce "k" iter(%acc = %zero : f32) {
      %v = dloop.load %x[%r, %k] : memref<32x2048xf32>
      %a = arith.addf %acc, %v : f32
      dloop.yield %a : f32
    }
    ```
  }];
  let arguments = (ins I64Prop:$extent,
                       Deplodock_LoopKindProp:$kind,
                       StrAttr:$axis,
                       OptionalProp<I64Prop>:$unroll,
                       Variadic<AnyType>:$initArgs);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$region);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    // Creates the body block (induction variable, then one argument per init).
    // `bodyBuilder` receives the induction variable and iter args; it must end
    // the body with a `dloop.yield` when the loop carries values, and may omit
    // it otherwise.
    OpBuilder<(ins "int64_t":$extent, "::deplodock::LoopKind":$kind,
      "::llvm::StringRef":$axis,
      CArg<"::mlir::ValueRange", "{}">:$initArgs,
      CArg<"::llvm::function_ref<void(::mlir::OpBuilder &, ::mlir::Location, "
           "::mlir::Value, ::mlir::ValueRange)>", "nullptr">:$bodyBuilder)>
  ];
  let extraClassDeclaration = [{
    /// The induction variable, ranging over [0, extent - 1].
    ::mlir::BlockArgument getInductionVar() {
      return getBody()->getArgument(0);
    }
    /// The body arguments that carry values between iterations (none when
    /// the body, not yet verified, lacks even the induction variable).
    ::mlir::Block::BlockArgListType getIterArgs() {
      ::mlir::Block::BlockArgListType args = getBody()->getArguments();
      return args.empty() ? args : args.drop_front();
    }
    /// True for a `reduce` loop.
    bool isReduction() { return getKind() == ::deplodock::LoopKind::reduce; }
    /// The `dloop.yield` that ends the body.
    YieldOp getYield();
  }];
}

//===----------------------------------------------------------------------===//
// LoadOp
//===----------------------------------------------------------------------===//

def DLoop_LoadOp : DLoop_Op<"load", [
    TypesMatchWith<"result type matches the memref element type",
                   "memref", "result",
                   "::llvm::cast<::mlir::MemRefType>($_self).getElementType()">
  ]> {
  let summary = "reads one element of a buffer at an affine index";
  let description = [{
    Reads `memref[map(indices)]`. The syntax is that of `affine.load`: the
    index is a list of affine expressions of the index operands, so a loop
    variable, a constant or a reshape (`%r floordiv 4`) needs no separate
    index arithmetic. When the ranges of the index values are known (loop
    variables, constants and `affine.apply`s of them) the verifier checks that
    every read is in bounds.

    ```mlir
    %v = dloop.load %x[0, %r floordiv 4, %k * 2 + 1] : memref<1x32x2048xf32>
    ```
  }];
  let arguments = (ins Arg<AnyMemRef, "the buffer read", [MemRead]>:$memref,
                       Variadic<Index>:$indices,
                       AffineMapAttr:$map);
  let results = (outs AnyType:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let builders = [
    // Reads `memref[map(indices)]`; the result type is the element type.
    OpBuilder<(ins "::mlir::Value":$memref, "::mlir::AffineMap":$map,
                   "::mlir::ValueRange":$indices)>,
    // Reads `memref[indices]` (an identity map).
    OpBuilder<(ins "::mlir::Value":$memref, "::mlir::ValueRange":$indices)>
  ];
  let extraClassDeclaration = [{
    /// The buffer read (the same as `getMemref()`, spelled as upstream does).
    ::mlir::Value getMemRef() { return getMemref(); }
    /// The type of the buffer read.
    ::mlir::MemRefType getMemRefType() {
      return ::llvm::cast<::mlir::MemRefType>(getMemref().getType());
    }
  }];
}

//===----------------------------------------------------------------------===//
// StoreOp
//===----------------------------------------------------------------------===//

def DLoop_StoreOp : DLoop_Op<"store", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    TypesMatchWith<"value type matches the memref element type",
                   "memref", "value",
                   "::llvm::cast<::mlir::MemRefType>($_self).getElementType()">
  ]> {
  let summary = "writes one element of a buffer, optionally folding into it";
  let description = [{
    Writes `value` to `memref[map(indices)]`, with the index syntax and the
    bounds check of `dloop.load`. With a reduce kind the store folds the value
    into the element instead (`memref[i] = memref[i] <kind> value`); it then
    reads the element too. Reducing stores express split-K partial sums and
    reductions whose result is a buffer rather than an SSA value; the Kernel
    level makes them atomic where threads share an element.

    ```mlir
    dloop.store %v, %y[0, %r, %c] : memref<1x32x2048xf32>
    dloop.store add %p, %y[%m, %n] : memref<32x64xf32>
    ```
  }];
  let arguments = (ins AnyType:$value,
                       Arg<AnyMemRef, "the buffer written">:$memref,
                       Variadic<Index>:$indices,
                       AffineMapAttr:$map,
                       OptionalProp<Deplodock_ReduceKindProp>:$reduce_kind);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let builders = [
    // Writes (or, with `reduceKind`, folds) `value` into
    // `memref[map(indices)]`.
    OpBuilder<(ins "::mlir::Value":$value, "::mlir::Value":$memref,
                   "::mlir::AffineMap":$map, "::mlir::ValueRange":$indices,
      CArg<"std::optional<::deplodock::ReduceKind>", "std::nullopt">
          :$reduceKind)>,
    // Writes `value` to `memref[indices]` (an identity map).
    OpBuilder<(ins "::mlir::Value":$value, "::mlir::Value":$memref,
                   "::mlir::ValueRange":$indices)>
  ];
  let extraClassDeclaration = [{
    /// The buffer written (the same as `getMemref()`, spelled as upstream
    /// does).
    ::mlir::Value getMemRef() { return getMemref(); }
    /// The type of the buffer written.
    ::mlir::MemRefType getMemRefType() {
      return ::llvm::cast<::mlir::MemRefType>(getMemref().getType());
    }
    /// True when the store folds into the element rather than replacing it.
    bool isReducing() { return getReduceKind().has_value(); }
  }];
}

//===----------------------------------------------------------------------===//
// YieldOp
//===----------------------------------------------------------------------===//

def DLoop_YieldOp : DLoop_Op<"yield", [
    Pure, Terminator, ReturnLike, ParentOneOf<["KernelOp", "ForOp"]>]> {
  let summary = "ends a loop body or a kernel body";
  let description = [{
    In a `dloop.for` it yields the next values of the iter args, one per
    iter arg with the same types; in a `dloop.kernel`, and in loops without
    iter args, it yields nothing and is left out of the printed form.

    ```mlir
    dloop.yield %a, %m : f32, f32
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
  let builders = [OpBuilder<(ins), [{ /* No values. */ }]>];
  let hasVerifier = 1;
}

#endif // DEPLODOCK_DIALECT_DLOOP_OPS
