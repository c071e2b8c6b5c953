//===- OutputFile.h - A file written whole or not at all --------*- C++ -*-===//
//
// The tools' output files (-o, --bench-json, CUDA per variant): a write that
// fails (a full disk, /dev/full, a closed pipe) is an error the tool reports,
// never a file silently cut short and an exit 0, nor LLVM's abort on an
// unchecked stream error.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_RUNTIME_OUTPUTFILE_H
#define DEPLODOCK_RUNTIME_OUTPUTFILE_H

#include "llvm/Support/Error.h"
#include "llvm/Support/LogicalResult.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

#include <memory>

namespace deplodock::runtime {

/// A file being written: removed again unless keep() succeeds.
class OutputFile {
public:
  /// Opens `path` for writing ("-" is stdout).
  static llvm::Expected<OutputFile> open(llvm::StringRef path);

  OutputFile(OutputFile &&) = default;
  OutputFile &operator=(OutputFile &&) = default;
  ~OutputFile();

  llvm::raw_fd_ostream &os() { return file->os(); }

  /// Flushes what was written and keeps the file; fails, removing it, when
  /// any of it could not be written.
  llvm::Error keep();

private:
  OutputFile(std::unique_ptr<llvm::ToolOutputFile> file, llvm::StringRef path)
      : file(std::move(file)), path(path.str()) {}

  std::unique_ptr<llvm::ToolOutputFile> file;
  std::string path;
};

/// The body of a tool that reads `inputPath` ("-": stdin) and writes
/// `outputPath`: opens both (either failing is an `error:` on stderr), runs
/// `work`, and keeps the output only when `work` succeeded (having reported
/// why not) and all of it was written. Returns the exit code.
int runOnFiles(llvm::StringRef inputPath, llvm::StringRef outputPath,
               llvm::function_ref<llvm::LogicalResult(
                   std::unique_ptr<llvm::MemoryBuffer>, llvm::raw_ostream &)>
                   work);

} // namespace deplodock::runtime

#endif // DEPLODOCK_RUNTIME_OUTPUTFILE_H
