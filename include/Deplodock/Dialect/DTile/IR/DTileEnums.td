//===- DTileEnums.td - Enums of the tile dialect -----------*- tablegen -*-===//

#ifndef DEPLODOCK_DIALECT_DTILE_ENUMS
#define DEPLODOCK_DIALECT_DTILE_ENUMS

include "mlir/IR/EnumAttr.td"

def DTile_Transport : I32Enum<"Transport", "how a stage reaches shared memory", [
    I32EnumCase<"sync", 0>,
    I32EnumCase<"cp_async", 1>,
    I32EnumCase<"tma", 2>,
    I32EnumCase<"vector", 3>]> {
  let cppNamespace = "::deplodock::dtile";
  let description = [{
    `sync`: threads load and store the slab themselves, then synchronise.
    `cp_async`: per-thread asynchronous copies (sm_80+), visible after a
    `dtile.async_wait`. `tma`: one bulk tensor copy tracked by an mbarrier
    (sm_90+), visible after a `dtile.async_wait`. `vector`: like `sync`, but
    each thread moves 8 or 16 contiguous bytes per load and store (the
    stage's aligned run, `getCpAsyncRunBytes`), visible at once.
  }];
}

#endif // DEPLODOCK_DIALECT_DTILE_ENUMS
