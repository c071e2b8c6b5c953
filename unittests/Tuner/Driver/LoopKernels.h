//===- LoopKernels.h - Small Loop IR kernels for the driver tests -*- C++ -*-//
//
// A matmul, a row-normalising reduction and a pointwise kernel at small
// shapes (fork trees of a few dozen to a few thousand variants), a second
// matmul that differs only in names (equal structural key), and a fixture
// that parses them.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_UNITTESTS_TUNER_DRIVER_LOOPKERNELS_H
#define DEPLODOCK_UNITTESTS_TUNER_DRIVER_LOOPKERNELS_H

#include "Deplodock/Dialect/DLoop/IR/DLoopOps.h"
#include "Deplodock/InitAllDialects.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

namespace deplodock::tuner::testing {

inline constexpr llvm::StringLiteral kLoopKernels = R"mlir(
func.func @layer(%a: memref<16x128xf32>, %b: memref<128x64xf32>, %x: memref<8x512xf32>, %y: memref<4x256xf32>, %c: memref<16x128xf32>, %d: memref<128x64xf32>) -> (memref<16x64xf32>, memref<8x512xf32>, memref<4x256xf32>, memref<16x64xf32>) {
  %mm = memref.alloc() : memref<16x64xf32>
  dloop.kernel @matmul ins(%in0 = %a : memref<16x128xf32>, %in1 = %b : memref<128x64xf32>) outs(%out0 = %mm : memref<16x64xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dloop.for %d0 = 0 to 16 free "d0" {
      dloop.for %d1 = 0 to 64 free "d1" {
        %0 = dloop.for %r0 = 0 to 128 reduce "r0" iter(%acc = %cst : f32) {
          %1 = dloop.load %in0[%d0, %r0] : memref<16x128xf32>
          %2 = dloop.load %in1[%r0, %d1] : memref<128x64xf32>
          %3 = arith.mulf %1, %2 : f32
          %4 = arith.addf %acc, %3 : f32
          dloop.yield %4 : f32
        }
        dloop.store %0, %out0[%d0, %d1] : memref<16x64xf32>
      }
    }
  }
  %rs = memref.alloc() : memref<8x512xf32>
  dloop.kernel @rownorm ins(%in0 = %x : memref<8x512xf32>) outs(%out0 = %rs : memref<8x512xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    dloop.for %d0 = 0 to 8 free "d0" {
      %0 = dloop.for %r0 = 0 to 512 reduce "r0" iter(%acc = %cst : f32) {
        %1 = dloop.load %in0[%d0, %r0] : memref<8x512xf32>
        %2 = arith.addf %acc, %1 : f32
        dloop.yield %2 : f32
      }
      dloop.for %d1 = 0 to 512 free "d1" {
        %1 = dloop.load %in0[%d0, %d1] : memref<8x512xf32>
        %2 = arith.divf %1, %0 : f32
        dloop.store %2, %out0[%d0, %d1] : memref<8x512xf32>
      }
    }
  }
  %sc = memref.alloc() : memref<4x256xf32>
  dloop.kernel @scale ins(%in0 = %y : memref<4x256xf32>) outs(%out0 = %sc : memref<4x256xf32>) {
    %cst = arith.constant 2.000000e+00 : f32
    dloop.for %d0 = 0 to 4 free "d0" {
      dloop.for %d1 = 0 to 256 free "d1" {
        %0 = dloop.load %in0[%d0, %d1] : memref<4x256xf32>
        %1 = arith.mulf %0, %cst : f32
        dloop.store %1, %out0[%d0, %d1] : memref<4x256xf32>
      }
    }
  }
  %mm2 = memref.alloc() : memref<16x64xf32>
  dloop.kernel @matmul_again ins(%p = %c : memref<16x128xf32>, %q = %d : memref<128x64xf32>) outs(%r = %mm2 : memref<16x64xf32>) {
    %zero = arith.constant 0.000000e+00 : f32
    dloop.for %i = 0 to 16 free "i" {
      dloop.for %j = 0 to 64 free "j" {
        %s = dloop.for %k = 0 to 128 reduce "k" iter(%t = %zero : f32) {
          %u = dloop.load %p[%i, %k] : memref<16x128xf32>
          %v = dloop.load %q[%k, %j] : memref<128x64xf32>
          %w = arith.mulf %u, %v : f32
          %z = arith.addf %t, %w : f32
          dloop.yield %z : f32
        }
        dloop.store %s, %r[%i, %j] : memref<16x64xf32>
      }
    }
  }
  return %mm, %rs, %sc, %mm2 : memref<16x64xf32>, memref<8x512xf32>, memref<4x256xf32>, memref<16x64xf32>
}
)mlir";

/// Parses kLoopKernels in a context with every dialect loaded.
class LoopKernelsTest : public ::testing::Test {
protected:
  LoopKernelsTest() {
    mlir::DialectRegistry registry;
    registerDeplodockDialects(registry);
    registerDeplodockInputDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    module = mlir::parseSourceString<mlir::ModuleOp>(kLoopKernels, &context);
  }

  /// The Loop IR kernel called `name`.
  dloop::KernelOp kernel(llvm::StringRef name) {
    dloop::KernelOp found;
    module->walk([&](dloop::KernelOp k) {
      if (k.getSymName() == name)
        found = k;
    });
    EXPECT_TRUE(found) << name.str();
    return found;
  }

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

} // namespace deplodock::tuner::testing

#endif // DEPLODOCK_UNITTESTS_TUNER_DRIVER_LOOPKERNELS_H
