//===- OutputFile.cpp - A file written whole or not at all ----------------===//

#include "Deplodock/Runtime/OutputFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/raw_ostream.h"

using namespace deplodock::runtime;

/// Whether `path` exists and is neither a regular file nor a directory (a
/// device, a FIFO, a socket): written in place, never removed or replaced.
static bool isSpecialFile(llvm::StringRef path) {
  llvm::sys::fs::file_status status;
  return !llvm::sys::fs::status(path, status) &&
         status.type() != llvm::sys::fs::file_type::regular_file &&
         status.type() != llvm::sys::fs::file_type::directory_file;
}

llvm::Expected<OutputFile> OutputFile::open(llvm::StringRef path) {
  if (path.empty())
    return llvm::createStringError("cannot open an output file without a name");
  std::error_code ec;
  std::unique_ptr<llvm::ToolOutputFile> file;
  std::unique_ptr<llvm::raw_fd_ostream> special;
  if (isSpecialFile(path))
    special = std::make_unique<llvm::raw_fd_ostream>(path, ec,
                                                     llvm::sys::fs::OF_None);
  else
    file = std::make_unique<llvm::ToolOutputFile>(path, ec,
                                                  llvm::sys::fs::OF_None);
  if (ec)
    return llvm::createStringError("cannot open output file '" + path +
                                   "': " + ec.message());
  return OutputFile(std::move(file), std::move(special), path);
}

OutputFile::~OutputFile() {
  // A write error nobody asked about aborts in the stream's destructor; it
  // was reported by keep(), or the file is being discarded anyway.
  if (file || special)
    os().clear_error();
}

llvm::Error OutputFile::keep() {
  llvm::raw_fd_ostream &stream = os();
  stream.flush();
  if (stream.has_error())
    return llvm::createStringError("cannot write '" + path +
                                   "': " + stream.error().message());
  if (file)
    file->keep();
  return llvm::Error::success();
}

llvm::Error deplodock::runtime::writeWholeFile(
    llvm::StringRef path,
    llvm::function_ref<llvm::Error(llvm::raw_ostream &)> write) {
  // writeToOutput also takes "-" for stdout.
  if (!isSpecialFile(path))
    return llvm::writeToOutput(path, write);
  llvm::Expected<OutputFile> file = OutputFile::open(path);
  if (!file)
    return file.takeError();
  if (llvm::Error error = write(file->os()))
    return error;
  return file->keep();
}

int deplodock::runtime::runOnFiles(
    llvm::StringRef inputPath, llvm::StringRef outputPath,
    llvm::function_ref<llvm::LogicalResult(std::unique_ptr<llvm::MemoryBuffer>,
                                           llvm::raw_ostream &)>
        work) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> input =
      llvm::MemoryBuffer::getFileOrSTDIN(inputPath);
  if (!input) {
    llvm::errs() << "error: cannot open input file '" << inputPath
                 << "': " << input.getError().message() << "\n";
    return 1;
  }
  llvm::Expected<OutputFile> output = OutputFile::open(outputPath);
  if (!output) {
    llvm::errs() << "error: " << llvm::toString(output.takeError()) << "\n";
    return 1;
  }
  if (llvm::failed(work(std::move(*input), output->os())))
    return 1;
  if (llvm::Error kept = output->keep()) {
    llvm::errs() << "error: " << llvm::toString(std::move(kept)) << "\n";
    return 1;
  }
  return 0;
}
