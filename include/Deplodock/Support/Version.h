//===- Version.h - Which Deplodock this is ----------------------*- C++ -*-===//
//
// The project version (CMake's project(VERSION)) and, in a git checkout,
// `git describe` of the source it was built from, refreshed at every build.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_SUPPORT_VERSION_H
#define DEPLODOCK_SUPPORT_VERSION_H

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace deplodock {

/// "0.1.0".
const char *getVersion();

/// "Deplodock 0.1.0 (v0.1.0-12-gc7b62ac)", or without the parenthesis where
/// the source was not a git checkout.
const char *getVersionString();

/// What `--version` prints: the above, then the LLVM and MLIR it was built
/// with.
void printVersion(llvm::raw_ostream &os);

} // namespace deplodock

#endif // DEPLODOCK_SUPPORT_VERSION_H
