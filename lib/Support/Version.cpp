//===- Version.cpp - Which Deplodock this is ------------------------------===//

#include "Deplodock/Support/Version.h"
#include "Deplodock/Support/VersionInfo.inc"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/raw_ostream.h"

const char *deplodock::getVersion() { return DEPLODOCK_VERSION; }

const char *deplodock::getVersionString() {
  static const std::string text =
      std::string("Deplodock ") + DEPLODOCK_VERSION +
      (sizeof(DEPLODOCK_GIT_DESCRIBE) > 1
           ? std::string(" (") + DEPLODOCK_GIT_DESCRIBE + ")"
           : std::string());
  return text.c_str();
}

void deplodock::printVersion(llvm::raw_ostream &os) {
  os << getVersionString() << "\n  built with LLVM and MLIR "
     << LLVM_VERSION_STRING << "\n";
}
