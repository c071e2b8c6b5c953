//===- deplodock-tblgen.cpp - Our TableGen backends -------------*- C++ -*-===//
//
// One tool for the declarations mlir-tblgen does not cover: the GPU targets
// (a plain C++ table, so that the runtime reads it without MLIR) and the Tile
// rules with their knobs (the knob table, typed accessors and knob structs,
// the rule registry, the rule passes and their reference).
//
//===----------------------------------------------------------------------===//

#include "Generators.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/TableGen/Main.h"
#include "llvm/TableGen/Record.h"

using namespace llvm;
using namespace deplodock::tblgen;

namespace {

enum class Action {
  GpuTargets,
  KnobDecls,
  KnobDefs,
  RuleDecls,
  RuleDefs,
  RuleDoc,
};

cl::opt<Action> action(
    cl::desc("What to generate:"),
    cl::values(
        clEnumValN(Action::GpuTargets, "gen-gpu-targets",
                   "The GPU feature enum and the target table"),
        clEnumValN(Action::KnobDecls, "gen-knob-decls",
                   "Typed knob accessors and the knob structs of the rules"),
        clEnumValN(Action::KnobDefs, "gen-knob-defs",
                   "The knob table and the accessor definitions"),
        clEnumValN(Action::RuleDecls, "gen-rule-decls",
                   "The constructors every rule file defines"),
        clEnumValN(Action::RuleDefs, "gen-rule-defs",
                   "The rule registry and one pass per rule"),
        clEnumValN(Action::RuleDoc, "gen-rule-doc",
                   "The reference of the rules and their knobs")));

bool run(raw_ostream &os, const RecordKeeper &records) {
  switch (action) {
  case Action::GpuTargets:
    return emitGpuTargets(records, os);
  case Action::KnobDecls:
    return emitKnobDecls(records, os);
  case Action::KnobDefs:
    return emitKnobDefs(records, os);
  case Action::RuleDecls:
    return emitRuleDecls(records, os);
  case Action::RuleDefs:
    return emitRuleDefs(records, os);
  case Action::RuleDoc:
    return emitRuleDoc(records, os);
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM y(argc, argv);
  cl::ParseCommandLineOptions(argc, argv);
  return TableGenMain(argv[0], &run);
}
