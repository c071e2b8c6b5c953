//===- Nvrtc.cpp - CUDA C++ to cubin with NVRTC, loaded lazily ------------===//

#include "Deplodock/Runtime/Nvrtc.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <dlfcn.h>

using namespace deplodock::runtime;

char CompileError::ID = 0;

void CompileError::log(llvm::raw_ostream &os) const {
  os << "NVRTC compilation failed";
  llvm::StringRef trimmed = llvm::StringRef(text).trim();
  if (!trimmed.empty())
    os << ":\n" << trimmed;
}

namespace deplodock::runtime {
/// Builds the Nvrtc singleton (a friend, so that Nvrtc keeps its pointers
/// private).
class NvrtcLoader {
public:
  static llvm::Expected<Nvrtc> load();
};
} // namespace deplodock::runtime

/// The CUDA installation roots named by the environment, then the usual one.
static llvm::SmallVector<std::string> cudaRoots() {
  llvm::SmallVector<std::string> roots;
  for (const char *var : {"CUDA_HOME", "CUDA_PATH"})
    if (std::optional<std::string> env = llvm::sys::Process::GetEnv(var))
      if (!env->empty())
        roots.push_back(*env);
  roots.push_back("/usr/local/cuda");
  return roots;
}

llvm::Expected<Nvrtc> NvrtcLoader::load() {
  llvm::SmallVector<std::string> candidates;
  if (std::optional<std::string> env =
          llvm::sys::Process::GetEnv("DEPLODOCK_NVRTC");
      env && !env->empty()) {
    candidates.push_back(*env);
  } else {
    candidates = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"};
    for (const std::string &root : cudaRoots())
      candidates.push_back(root + "/lib64/libnvrtc.so");
  }
  std::string errors;
  llvm::sys::DynamicLibrary library;
  for (const std::string &candidate : candidates) {
    std::string error;
    library = llvm::sys::DynamicLibrary::getPermanentLibrary(candidate.c_str(),
                                                             &error);
    if (library.isValid())
      break;
    errors += (errors.empty() ? "" : "; ") + error;
  }
  if (!library.isValid())
    return llvm::createStringError(
        "no NVRTC: cannot load %s (%s); compiling kernels needs the CUDA "
        "toolkit's NVRTC (set DEPLODOCK_NVRTC to its path)",
        candidates.front().c_str(), errors.c_str());

  Nvrtc nvrtc;
  const char *missing = nullptr;
  auto need = [&](const char *symbol, auto &slot) {
    slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(
        library.getAddressOfSymbol(symbol));
    if (!slot && !missing)
      missing = symbol;
  };
  need("nvrtcGetErrorString", nvrtc.nvrtcGetErrorString);
  need("nvrtcVersion", nvrtc.nvrtcVersion);
  need("nvrtcCreateProgram", nvrtc.nvrtcCreateProgram);
  need("nvrtcDestroyProgram", nvrtc.nvrtcDestroyProgram);
  need("nvrtcCompileProgram", nvrtc.nvrtcCompileProgram);
  need("nvrtcGetProgramLogSize", nvrtc.nvrtcGetProgramLogSize);
  need("nvrtcGetProgramLog", nvrtc.nvrtcGetProgramLog);
  need("nvrtcGetCUBINSize", nvrtc.nvrtcGetCUBINSize);
  need("nvrtcGetCUBIN", nvrtc.nvrtcGetCUBIN);
  if (missing)
    return llvm::createStringError("NVRTC too old: no %s (CUDA 11.1 or later "
                                   "is needed)",
                                   missing);
  int major = 0, minor = 0;
  nvrtc.nvrtcVersion(&major, &minor);
  nvrtc.version = std::to_string(major) + "." + std::to_string(minor);

  Dl_info info;
  nvrtc.path = candidates.front();
  if (dladdr(reinterpret_cast<void *>(nvrtc.nvrtcVersion), &info) &&
      info.dli_fname)
    nvrtc.path = info.dli_fname;

  llvm::SmallVector<std::string> includes;
  if (std::optional<std::string> env =
          llvm::sys::Process::GetEnv("DEPLODOCK_CUDA_INCLUDE");
      env && !env->empty())
    includes.push_back(*env);
  llvm::SmallString<256> real;
  if (!llvm::sys::fs::real_path(nvrtc.path, real)) {
    // <root>/lib64/libnvrtc.so.13 or <root>/targets/<arch>/lib/...
    llvm::StringRef dir = llvm::sys::path::parent_path(real);
    includes.push_back((llvm::sys::path::parent_path(dir) + "/include").str());
  }
  for (const std::string &root : cudaRoots())
    includes.push_back(root + "/include");
  for (const std::string &dir : includes)
    if (llvm::sys::fs::exists(dir + "/cuda_fp16.h")) {
      nvrtc.includeDir = dir;
      break;
    }
  return nvrtc;
}

llvm::Expected<const Nvrtc &> Nvrtc::get() {
  static llvm::Expected<Nvrtc> *nvrtc =
      new llvm::Expected<Nvrtc>(NvrtcLoader::load());
  static std::string failure = *nvrtc ? "" : llvm::toString(nvrtc->takeError());
  if (!failure.empty())
    return llvm::createStringError(failure);
  return **nvrtc;
}

std::vector<std::string> Nvrtc::defaultOptions(llvm::StringRef arch) const {
  std::vector<std::string> options = {("--gpu-architecture=" + arch).str(),
                                      "-std=c++17"};
  if (!includeDir.empty())
    options.push_back("-I" + includeDir);
  return options;
}

std::vector<std::string>
Nvrtc::options(llvm::StringRef arch, llvm::ArrayRef<std::string> extra) const {
  constexpr llvm::StringLiteral kArch = "--gpu-architecture=";
  std::vector<std::string> all = defaultOptions(arch);
  if (llvm::any_of(extra,
                   [&](llvm::StringRef o) { return o.starts_with(kArch); }))
    llvm::erase_if(all,
                   [&](llvm::StringRef o) { return o.starts_with(kArch); });
  all.insert(all.end(), extra.begin(), extra.end());
  return all;
}

llvm::Expected<std::string> Nvrtc::compile(llvm::StringRef source,
                                           llvm::ArrayRef<std::string> options,
                                           llvm::StringRef name) const {
  std::string text = source.str(), file = name.str();
  Program program = nullptr;
  if (Result result = nvrtcCreateProgram(&program, text.c_str(), file.c_str(),
                                         0, nullptr, nullptr))
    return llvm::createStringError("nvrtcCreateProgram failed: %s",
                                   nvrtcGetErrorString(result));
  std::vector<const char *> argv;
  for (const std::string &option : options)
    argv.push_back(option.c_str());
  Result result = nvrtcCompileProgram(program, argv.size(), argv.data());
  std::string log;
  size_t logSize = 0;
  if (!nvrtcGetProgramLogSize(program, &logSize) && logSize > 1) {
    log.resize(logSize);
    nvrtcGetProgramLog(program, log.data());
    log.resize(logSize - 1); // The terminating NUL.
  }
  std::string image;
  size_t size = 0;
  if (result == 0 && !nvrtcGetCUBINSize(program, &size) && size > 0) {
    image.resize(size);
    if (nvrtcGetCUBIN(program, image.data()))
      image.clear();
  }
  nvrtcDestroyProgram(&program);
  if (result != 0)
    return llvm::make_error<CompileError>(
        log.empty() ? std::string(nvrtcGetErrorString(result)) : log);
  if (image.empty())
    return llvm::createStringError(
        "NVRTC produced no cubin (is the architecture a real one, sm_XY?)");
  return image;
}

//===----------------------------------------------------------------------===//
// CompileCache
//===----------------------------------------------------------------------===//

std::string CompileCache::key(llvm::StringRef version,
                              llvm::ArrayRef<std::string> options,
                              llvm::StringRef source) {
  llvm::SHA256 hash;
  // Length-prefixed fields, so that no two inputs give the same bytes.
  auto add = [&](llvm::StringRef text) {
    hash.update(std::to_string(text.size()) + ":");
    hash.update(text);
  };
  add("nvrtc " + version.str());
  for (const std::string &option : options)
    add(option);
  add(source);
  return llvm::toHex(hash.final(), /*LowerCase=*/true);
}

void CompileCache::touch(llvm::StringRef key, std::string image) {
  auto found = index.find(key);
  if (found != index.end())
    order.erase(found->second);
  order.emplace_front(key.str(), std::move(image));
  index[key] = order.begin();
  while (order.size() > capacity) {
    index.erase(order.back().first);
    order.pop_back();
  }
}

std::optional<std::string> CompileCache::lookup(llvm::StringRef key) {
  auto found = index.find(key);
  if (found != index.end()) {
    std::string image = found->second->second;
    touch(key, image);
    return image;
  }
  if (dir.empty())
    return std::nullopt;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(dir + "/" + key + ".cubin",
                                  /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!file || (*file)->getBufferSize() == 0)
    return std::nullopt;
  std::string image = (*file)->getBuffer().str();
  touch(key, image);
  return image;
}

void CompileCache::store(llvm::StringRef key, llvm::StringRef image) {
  touch(key, image.str());
  if (dir.empty() || llvm::sys::fs::create_directories(dir))
    return;
  // Written under a unique name, then renamed: readers never see half a
  // file, even with several workers sharing the directory.
  llvm::SmallString<256> temp;
  int fd;
  if (llvm::sys::fs::createUniqueFile(dir + "/" + key + ".%%%%%%.tmp", fd,
                                      temp))
    return;
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << image;
    if (os.has_error()) {
      os.clear_error();
      llvm::sys::fs::remove(temp);
      return;
    }
  }
  if (llvm::sys::fs::rename(temp, dir + "/" + key + ".cubin"))
    llvm::sys::fs::remove(temp);
}
