//===- Generators.h - The backends of deplodock-tblgen ----------*- C++ -*-===//
//
// Each backend writes one generated file from the records; it returns true
// (after printing a located error) when the records are inconsistent.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_TOOLS_DEPLODOCK_TBLGEN_GENERATORS_H
#define DEPLODOCK_TOOLS_DEPLODOCK_TBLGEN_GENERATORS_H

namespace llvm {
class RecordKeeper;
class raw_ostream;
} // namespace llvm

namespace deplodock::tblgen {

/// GpuTargets.td: the GpuFeature enum and the table of GpuTargetSpec.
bool emitGpuTargets(const llvm::RecordKeeper &records, llvm::raw_ostream &os);

/// Rules.td, for the Tile dialect: the typed accessors of #dtile.knobs and
/// one struct per rule holding its knobs.
bool emitKnobDecls(const llvm::RecordKeeper &records, llvm::raw_ostream &os);
/// Rules.td: the knob table and the definitions of the above.
bool emitKnobDefs(const llvm::RecordKeeper &records, llvm::raw_ostream &os);

/// Rules.td, for the Tile transforms: the constructor each rule file
/// defines.
bool emitRuleDecls(const llvm::RecordKeeper &records, llvm::raw_ostream &os);
/// Rules.td: the registry in pipeline order and one pass per rule.
bool emitRuleDefs(const llvm::RecordKeeper &records, llvm::raw_ostream &os);
/// Rules.td: the reference of every rule and knob, in Markdown.
bool emitRuleDoc(const llvm::RecordKeeper &records, llvm::raw_ostream &os);

} // namespace deplodock::tblgen

#endif // DEPLODOCK_TOOLS_DEPLODOCK_TBLGEN_GENERATORS_H
