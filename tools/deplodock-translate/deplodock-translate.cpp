//===- deplodock-translate.cpp - Deplodock translation driver ---*- C++ -*-===//
//
// mlir-translate with Deplodock's translations: `--emit-cuda` prints Kernel
// IR as CUDA C++.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Target/Cuda/CudaEmitter.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  deplodock::registerToCudaTranslation();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "Deplodock translation driver\n"));
}
