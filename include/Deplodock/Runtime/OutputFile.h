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

/// A file being written: removed again unless keep() succeeds. Only a
/// regular file is ever removed: a device, a FIFO or stdout named as the
/// output is written in place (a failed write to /dev/full must not unlink
/// it, which LLVM's ToolOutputFile would do for a tool run as root).
class OutputFile {
public:
  /// Opens `path` for writing ("-" is stdout).
  static llvm::Expected<OutputFile> open(llvm::StringRef path);

  OutputFile(OutputFile &&) = default;
  OutputFile &operator=(OutputFile &&) = default;
  ~OutputFile();

  llvm::raw_fd_ostream &os() { return file ? file->os() : *special; }

  /// Flushes what was written and keeps the file; fails, removing it, when
  /// any of it could not be written.
  llvm::Error keep();

private:
  OutputFile(std::unique_ptr<llvm::ToolOutputFile> file,
             std::unique_ptr<llvm::raw_fd_ostream> special,
             llvm::StringRef path)
      : file(std::move(file)), special(std::move(special)), path(path.str()) {}

  /// A regular file (or stdout), removed unless kept.
  std::unique_ptr<llvm::ToolOutputFile> file;
  /// Anything else that exists already, never removed.
  std::unique_ptr<llvm::raw_fd_ostream> special;
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
