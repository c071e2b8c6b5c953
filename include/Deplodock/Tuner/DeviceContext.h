//===- DeviceContext.h - The tuner's context of a real GPU ------*- C++ -*-===//
//
// A measurement depends on the GPU, its driver and toolkit, and the
// compiler: the runtime reports that fingerprint (runtime::DeviceInfo) and
// the tuner keys its database by a hash of it. The runtime knows nothing of
// the tuner, so the conversion lives here.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_TUNER_DEVICECONTEXT_H
#define DEPLODOCK_TUNER_DEVICECONTEXT_H

#include "Deplodock/Runtime/DeviceInfo.h"
#include "Deplodock/Tuner/TuneDb.h"

namespace deplodock::tuner {

/// The tuner's context for `info`, with its key (see computeContextKey).
/// `compilerVersion` names the deplodock build; `extra` holds anything else
/// the measurements depend on (compile flags...). A fake device is marked in
/// `extra`, so its context never matches a real GPU's.
DeviceContext makeDeviceContext(const runtime::DeviceInfo &info,
                                llvm::StringRef compilerVersion,
                                llvm::json::Object extra = {});

/// The hex SHA-256 of every fingerprint field of `context` (not its key or
/// creation time), in a canonical JSON form: equal fingerprints give equal
/// keys on every machine.
std::string computeContextKey(const DeviceContext &context);

} // namespace deplodock::tuner

#endif // DEPLODOCK_TUNER_DEVICECONTEXT_H
