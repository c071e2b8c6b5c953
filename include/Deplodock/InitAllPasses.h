//===- InitAllPasses.h - Register every Deplodock pass ----------*- C++ -*-===//

#ifndef DEPLODOCK_INITALLPASSES_H
#define DEPLODOCK_INITALLPASSES_H

namespace deplodock {

/// Registers every Deplodock pass and pipeline with the global pass registry,
/// so `--pass-pipeline` and the command line of an `mlir-opt`-like tool see
/// them.
void registerDeplodockPasses();

} // namespace deplodock

#endif // DEPLODOCK_INITALLPASSES_H
