//===- SharedReads.h - The regions of its inputs each block reads -*- C++ -*-//

#ifndef DEPLODOCK_LIB_COSTMODEL_SHAREDREADS_H
#define DEPLODOCK_LIB_COSTMODEL_SHAREDREADS_H

#include "Deplodock/CostModel/RooflineModel.h"

namespace deplodock::costmodel {

/// The bytes of a buffer of `type`, an element at least one byte: what
/// `KernelProfile::uniqueBytes` counts for each parameter.
double bufferBytes(mlir::MemRefType type);

/// Fills `profile.sharedReads` for `kernel`, whose `numBlocks` is counted.
void traceSharedReads(dkernel::FuncOp kernel, KernelProfile &profile);

} // namespace deplodock::costmodel

#endif // DEPLODOCK_LIB_COSTMODEL_SHAREDREADS_H
