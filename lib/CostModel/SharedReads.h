//===- SharedReads.h - The regions of its inputs each block reads -*- C++ -*-//

#ifndef DEPLODOCK_LIB_COSTMODEL_SHAREDREADS_H
#define DEPLODOCK_LIB_COSTMODEL_SHAREDREADS_H

#include "Deplodock/CostModel/RooflineModel.h"

namespace deplodock::costmodel {

/// Fills `profile.sharedReads` and `profile.onceBytes` for `kernel`, whose
/// `uniqueBytes` and `numBlocks` are counted.
void traceSharedReads(dkernel::FuncOp kernel, KernelProfile &profile);

} // namespace deplodock::costmodel

#endif // DEPLODOCK_LIB_COSTMODEL_SHAREDREADS_H
