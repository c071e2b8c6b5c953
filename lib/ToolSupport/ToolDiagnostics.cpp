//===- ToolDiagnostics.cpp - How the tools report errors ------------------===//

#include "Deplodock/Support/ToolDiagnostics.h"

using namespace mlir;

std::vector<char *> deplodock::withToolDiagnosticDefaults(int argc,
                                                          char **argv) {
  static char printOp[] = "--mlir-print-op-on-diagnostic=false";
  std::vector<char *> args(argv, argv + argc);
  args.insert(args.begin() + std::min(argc, 1), printOp);
  // Some parsers expect argv[argc] == nullptr.
  args.push_back(nullptr);
  return args;
}

void deplodock::locateImplicitModule(ModuleOp module) {
  auto loc = dyn_cast<FileLineColLoc>(module.getLoc());
  if (!loc || loc.getLine() != 0 || module.getBody()->empty())
    return;
  module->setLoc(module.getBody()->front().getLoc());
}

namespace {
struct LocateModule : public PassInstrumentation {
  void runBeforePass(Pass *, Operation *op) override {
    if (auto module = dyn_cast<ModuleOp>(op); module && !module->getParentOp())
      deplodock::locateImplicitModule(module);
  }
};
} // namespace

std::unique_ptr<PassInstrumentation>
deplodock::createLocateModuleInstrumentation() {
  return std::make_unique<LocateModule>();
}
