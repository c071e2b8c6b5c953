//===- AxisInterface.td - Ops that bind named axes ---------*- tablegen -*-===//

#ifndef DEPLODOCK_DIALECT_COMMON_AXISINTERFACE
#define DEPLODOCK_DIALECT_COMMON_AXISINTERFACE

include "mlir/IR/OpBase.td"

def Deplodock_AxisOpInterface : OpInterface<"AxisOpInterface"> {
  let cppNamespace = "::deplodock";
  let description = [{
    An op whose body iterates over named axes: `dloop.for` binds one axis,
    `dtile.tile` the block and thread axes of a launch, `dtile.strided_for`
    one axis shared out across threads. Verifiers use the interface to keep
    axis names unique along a nest and to bound the indices of accesses,
    whatever level the op belongs to.
  }];
  let methods = [
    InterfaceMethod<"The names of the axes the op binds.",
      "::llvm::SmallVector<::llvm::StringRef>", "getAxisNames">,
    InterfaceMethod<[{
        The values the coordinate `arg` (a block argument of the op's body)
        takes, or nullopt when `arg` is not an axis coordinate.
      }],
      "std::optional<::deplodock::Interval>", "getCoordRange",
      (ins "::mlir::BlockArgument":$arg)>,
  ];
}

#endif // DEPLODOCK_DIALECT_COMMON_AXISINTERFACE
