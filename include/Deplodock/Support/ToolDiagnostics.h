//===- ToolDiagnostics.h - How the tools report errors ----------*- C++ -*-===//
//
// Two defaults of the Deplodock tools that differ from MLIR's:
//  * no dump of the whole operation, in generic form, under every error
//    (MLIR's --mlir-print-op-on-diagnostic; a tool's command line can still
//    turn it on);
//  * errors about the whole module point at its first operation, not at
//    file:0:0, where the parser locates the module it wraps around a file's
//    top-level operations (and which shows no source line).
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_SUPPORT_TOOLDIAGNOSTICS_H
#define DEPLODOCK_SUPPORT_TOOLDIAGNOSTICS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassInstrumentation.h"

#include <memory>
#include <vector>

namespace deplodock {

/// `argv` with --mlir-print-op-on-diagnostic=false first, for tools whose
/// MLIR driver parses the command line (a later occurrence wins).
std::vector<char *> withToolDiagnosticDefaults(int argc, char **argv);

/// Gives `module`, when the parser made it around a file (located at
/// line 0), the location of its first operation.
void locateImplicitModule(mlir::ModuleOp module);

/// Calls locateImplicitModule on the module a pass pipeline runs on, before
/// its first pass (for drivers that parse the input themselves).
std::unique_ptr<mlir::PassInstrumentation> createLocateModuleInstrumentation();

} // namespace deplodock

#endif // DEPLODOCK_SUPPORT_TOOLDIAGNOSTICS_H
