//===- BenchReport.h - What a bench run prints and writes -------*- C++ -*-===//
//
// The report of runBench: the table on stdout, the results as .npy files,
// and the JSON the benchmark harness reads.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_LIB_BENCH_BENCHREPORT_H
#define DEPLODOCK_LIB_BENCH_BENCHREPORT_H

#include "Deplodock/Bench/BenchDriver.h"

#include "mlir/IR/BuiltinTypes.h"

namespace deplodock::bench {

/// Prints the device, the compile time, what was checked against what and,
/// when the kernels ran, the table of their timings.
void printReport(llvm::raw_ostream &os, const BenchRun &run,
                 const runtime::BenchRequest &request);

/// Writes result #i (buffer `results[i]` of the request, of type
/// `types[i]`) as `dir`/result<i>.npy from the run's returned outputs.
mlir::LogicalResult writeResults(llvm::StringRef dir, const BenchRun &run,
                                 const runtime::BenchRequest &request,
                                 llvm::ArrayRef<unsigned> results,
                                 llvm::ArrayRef<mlir::MemRefType> types,
                                 mlir::MLIRContext *context);

/// Writes the device, the status and the timings as JSON to `path`.
mlir::LogicalResult writeJson(llvm::StringRef path, const BenchRun &run,
                              const runtime::BenchRequest &request,
                              mlir::MLIRContext *context);

} // namespace deplodock::bench

#endif // DEPLODOCK_LIB_BENCH_BENCHREPORT_H
