//===- DeplodockEnums.td - Enums shared by the dialects ----*- tablegen -*-===//
//
// Enums used by more than one Deplodock dialect. They are plain C++ enums
// (`I32Enum`), stored on ops as properties (`EnumProp`), so every level spells
// a reduction kind the same way without one attribute class per dialect.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_DIALECT_COMMON_ENUMS
#define DEPLODOCK_DIALECT_COMMON_ENUMS

include "mlir/IR/EnumAttr.td"
include "mlir/IR/Properties.td"

def Deplodock_ReduceKind : I32Enum<"ReduceKind", "reduction kind", [
    I32EnumCase<"add", 0>,
    I32EnumCase<"mul", 1>,
    I32EnumCase<"max", 2>,
    I32EnumCase<"min", 3>,
    I32EnumCase<"maxnum", 4>,
    I32EnumCase<"minnum", 5>]> {
  let cppNamespace = "::deplodock";
  let description = [{
    The combining operation of a reduction. `add` and `mul` are sums and
    products; `max` and `min` keep the extreme value, and a NaN wins over
    anything (`arith.maximumf`; signed `arith.maxsi` on integers). `maxnum`
    and `minnum`, on floats only, ignore NaNs (`arith.maxnumf`, CUDA's
    `fmaxf`): their identity is NaN, and only a slice of NaNs reduces to NaN.
    All six are associative and commutative, which is what lets later levels
    split and reorder them.
  }];
}
def Deplodock_ReduceKindProp : EnumProp<Deplodock_ReduceKind>;

def Deplodock_LoopKind : I32Enum<"LoopKind", "loop kind", [
    I32EnumCase<"free", 0>,
    I32EnumCase<"reduce", 1>]> {
  let cppNamespace = "::deplodock";
  let description = [{
    A `free` loop's iterations are independent (an output axis); a `reduce`
    loop folds its iterations into accumulators carried between them.
  }];
}
def Deplodock_LoopKindProp : EnumProp<Deplodock_LoopKind>;

#endif // DEPLODOCK_DIALECT_COMMON_ENUMS
