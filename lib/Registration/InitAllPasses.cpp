//===- InitAllPasses.cpp - Register every Deplodock pass --------*- C++ -*-===//
//
// Apart from the dialects: the named pipelines offer tune-db, so this
// library depends on the tuner, and whatever only needs the dialects (the
// CUDA emitter, the runtime's Kernel IR) does not.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/InitAllPasses.h"

#include "Deplodock/Conversion/Passes.h"
#include "Deplodock/CostModel/Passes.h"
#include "Deplodock/Dialect/DLoop/Transforms/Passes.h"
#include "Deplodock/Dialect/DTile/Transforms/Passes.h"
#include "Deplodock/Pipelines/Pipelines.h"

void deplodock::registerDeplodockPasses() {
  registerDeplodockConversionPasses();
  costmodel::registerCostModelPasses();
  dloop::registerDLoopPasses();
  dtile::registerDTilePasses();
  registerDeplodockPipelines();
}
