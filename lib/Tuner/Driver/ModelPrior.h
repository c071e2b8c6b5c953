//===- ModelPrior.h - The roofline model as a search prior ------*- C++ -*-===//
//
// Searches rank candidate variants by a prior before measuring one. This one
// is the roofline model (RooflineModel.h) on the candidate's Kernel IR:
// milliseconds of CPU against the second or so a GPU measurement costs.
// `noise` perturbs each estimate by a log-normal factor (deterministic per
// variant and seed), to see how a search copes with a model that is wrong by
// that much: on the model backend an unperturbed prior is the measurement
// itself.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_LIB_TUNER_DRIVER_MODELPRIOR_H
#define DEPLODOCK_LIB_TUNER_DRIVER_MODELPRIOR_H

#include "Deplodock/Tuner/ForkTree.h"

namespace deplodock::tuner::detail {

/// The prior estimator of ForkTreeSpace::setPriorEstimator for the kernel
/// `loopKey` on `target`, or none when the model does not know the target.
std::function<ForkTreeSpace::PriorTask(NodeId, const dtile::ForkCursor &)>
makeModelPrior(const dtile::Target &target, llvm::StringRef loopKey,
               double noise, uint64_t seed);

} // namespace deplodock::tuner::detail

#endif // DEPLODOCK_LIB_TUNER_DRIVER_MODELPRIOR_H
