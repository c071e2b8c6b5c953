//===- TuneDriverSupport.h - Shared by the parts of the driver --*- C++ -*-===//

#ifndef DEPLODOCK_LIB_TUNER_DRIVER_TUNEDRIVERSUPPORT_H
#define DEPLODOCK_LIB_TUNER_DRIVER_TUNEDRIVERSUPPORT_H

#include "Deplodock/Tuner/TuneDb.h"
#include "Deplodock/Tuner/TuneDriver.h"

namespace deplodock::tuner::detail {

llvm::Error makeError(const llvm::Twine &message);

/// "12.34", or "-" when there is no latency.
std::string formatUs(std::optional<double> us);

/// The database the options name (none with --no-db).
llvm::Expected<std::optional<TuneDb>>
openDatabase(const TuneDriverOptions &options, const TuneDbOptions &how);

/// The database modes (TuneDbReport.cpp).
llvm::Error listDatabase(const TuneDriverOptions &options,
                         llvm::raw_ostream &out);
llvm::Error showKernel(const TuneDriverOptions &options,
                       llvm::raw_ostream &out);
llvm::Error pruneContext(const TuneDriverOptions &options,
                         llvm::raw_ostream &out);

} // namespace deplodock::tuner::detail

#endif // DEPLODOCK_LIB_TUNER_DRIVER_TUNEDRIVERSUPPORT_H
