//===- Nvrtc.h - CUDA C++ to cubin with NVRTC, loaded lazily ----*- C++ -*-===//
//
// NVRTC is looked up with dlopen the first time a kernel is compiled
// ($DEPLODOCK_NVRTC, libnvrtc.so.13/.12/.so on the library path, then under
// $CUDA_HOME and /usr/local/cuda). Compiling needs no GPU. Compiled images
// are cached by the SHA-256 of the NVRTC version, the options and the
// source: in memory, and in a directory when one is given.
//
//===----------------------------------------------------------------------===//

#ifndef DEPLODOCK_RUNTIME_NVRTC_H
#define DEPLODOCK_RUNTIME_NVRTC_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <list>
#include <string>
#include <vector>

namespace deplodock::runtime {

/// The loaded NVRTC library.
class Nvrtc {
public:
  /// NVRTC, loaded on the first call; fails (every time, with the same
  /// message "no NVRTC: ...") when it cannot be found.
  static llvm::Expected<const Nvrtc &> get();

  /// "13.0".
  const std::string &getVersion() const { return version; }
  /// The file NVRTC was loaded from.
  const std::string &getPath() const { return path; }
  /// The directory holding cuda_fp16.h, passed as -I; empty when none was
  /// found ($DEPLODOCK_CUDA_INCLUDE, $CUDA_HOME/include, $CUDA_PATH/include,
  /// beside the library, /usr/local/cuda/include).
  const std::string &getIncludeDir() const { return includeDir; }

  /// The options every compile gets for `arch` ("sm_90"): the architecture
  /// (a cubin for exactly that GPU), C++17 and the include directory.
  std::vector<std::string> defaultOptions(llvm::StringRef arch) const;

  /// The complete list for a request's `extra` options on a device of
  /// `arch`: defaultOptions, then `extra`. An architecture `extra` names
  /// (`--gpu-architecture=sm_90a`, for arch-specific code the device
  /// runs) replaces the device's.
  std::vector<std::string> options(llvm::StringRef arch,
                                   llvm::ArrayRef<std::string> extra) const;

  /// Compiles `source` with `options` (the complete list) to a cubin. A
  /// source that does not compile fails with a CompileError holding the log.
  llvm::Expected<std::string>
  compile(llvm::StringRef source, llvm::ArrayRef<std::string> options,
          llvm::StringRef name = "kernels.cu") const;

private:
  friend class NvrtcLoader;
  Nvrtc() = default;

  using Result = int;
  using Program = struct _nvrtcProgram *;
  const char *(*nvrtcGetErrorString)(Result) = nullptr;
  Result (*nvrtcVersion)(int *, int *) = nullptr;
  Result (*nvrtcCreateProgram)(Program *, const char *, const char *, int,
                               const char *const *,
                               const char *const *) = nullptr;
  Result (*nvrtcDestroyProgram)(Program *) = nullptr;
  Result (*nvrtcCompileProgram)(Program, int, const char *const *) = nullptr;
  Result (*nvrtcGetProgramLogSize)(Program, size_t *) = nullptr;
  Result (*nvrtcGetProgramLog)(Program, char *) = nullptr;
  Result (*nvrtcGetCUBINSize)(Program, size_t *) = nullptr;
  Result (*nvrtcGetCUBIN)(Program, char *) = nullptr;

  std::string version;
  std::string path;
  std::string includeDir;
};

/// A source that NVRTC rejected.
class CompileError : public llvm::ErrorInfo<CompileError> {
public:
  static char ID;
  explicit CompileError(std::string log) : text(std::move(log)) {}
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  /// NVRTC's log.
  const std::string &getLog() const { return text; }

private:
  std::string text;
};

/// Compiled images by key, least recently used dropped first; also kept in
/// `dir` (one <key>.cubin file each, written atomically) when not empty.
class CompileCache {
public:
  explicit CompileCache(std::string dir = "", size_t capacity = 128)
      : dir(std::move(dir)), capacity(capacity) {}

  /// The cache key of compiling `source` with `options` by NVRTC `version`.
  static std::string key(llvm::StringRef version,
                         llvm::ArrayRef<std::string> options,
                         llvm::StringRef source);

  /// The image stored under `key`, from memory or the directory.
  std::optional<std::string> lookup(llvm::StringRef key);
  /// Stores `image` under `key`; a directory that cannot be written is
  /// ignored (the cache is an optimisation).
  void store(llvm::StringRef key, llvm::StringRef image);

  size_t size() const { return order.size(); }

private:
  void touch(llvm::StringRef key, std::string image);

  std::string dir;
  size_t capacity;
  /// Most recently used first.
  std::list<std::pair<std::string, std::string>> order;
  llvm::StringMap<std::list<std::pair<std::string, std::string>>::iterator>
      index;
};

} // namespace deplodock::runtime

#endif // DEPLODOCK_RUNTIME_NVRTC_H
