//===- ToolOptions.h - What every Deplodock tool's --help shows -*- C++ -*-===//
//
// libLLVM registers hundreds of command-line options of its own (AArch64,
// AMDGPU, IR2Vec, Polly...) before main runs; a tool's --help would list
// them all. prepareToolOptions hides every option registered so far but
// --help, --version, --color and the tool's own categories, so --help shows
// the tool's options and those MLIR's drivers register later (their pass,
// output and diagnostic flags); --help-hidden still lists everything. It
// also makes --version print Deplodock's version.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_SUPPORT_TOOLOPTIONS_H
#define DEPLODOCK_SUPPORT_TOOLOPTIONS_H

#include "llvm/ADT/ArrayRef.h"

namespace llvm::cl {
class OptionCategory;
} // namespace llvm::cl

namespace deplodock {

/// Call first in main, before the drivers register their options; the
/// tool's static options stay visible when they are in a category of
/// `keep`.
void prepareToolOptions(
    llvm::ArrayRef<const llvm::cl::OptionCategory *> keep = {});

} // namespace deplodock

#endif // DEPLODOCK_SUPPORT_TOOLOPTIONS_H
