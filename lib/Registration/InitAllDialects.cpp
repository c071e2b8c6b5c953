//===- InitAllDialects.cpp - Register every Deplodock dialect ---*- C++ -*-===//

#include "Deplodock/InitAllDialects.h"

#include "Deplodock/Dialect/DKernel/IR/DKernelDialect.h"
#include "Deplodock/Dialect/DLoop/IR/DLoopDialect.h"
#include "Deplodock/Dialect/DTensor/IR/DTensorDialect.h"
#include "Deplodock/Dialect/DTile/IR/DTileDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

void deplodock::registerDeplodockDialects(mlir::DialectRegistry &registry) {
  registry.insert<dtensor::DTensorDialect, dloop::DLoopDialect,
                  dtile::DTileDialect, dkernel::DKernelDialect>();
}

void deplodock::registerDeplodockInputDialects(
    mlir::DialectRegistry &registry) {
  registry.insert<mlir::affine::AffineDialect, mlir::arith::ArithDialect,
                  mlir::cf::ControlFlowDialect, mlir::func::FuncDialect,
                  mlir::gpu::GPUDialect, mlir::linalg::LinalgDialect,
                  mlir::math::MathDialect, mlir::memref::MemRefDialect,
                  mlir::scf::SCFDialect, mlir::tensor::TensorDialect,
                  mlir::tosa::TosaDialect>();
}

void deplodock::loadDeplodockDialects(mlir::MLIRContext &context) {
  mlir::DialectRegistry registry;
  registerDeplodockDialects(registry);
  registerDeplodockInputDialects(registry);
  context.appendDialectRegistry(registry);
  context.loadAllAvailableDialects();
}
