//===- NvrtcTest.cpp - Compiling with NVRTC, and the compile cache --------===//
//
// NVRTC needs no GPU, so where the toolkit is installed these tests compile
// for real; elsewhere they are skipped. The cache tests need nothing.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Runtime/Nvrtc.h"

#include "llvm/Support/FileSystem.h"

#include "gtest/gtest.h"

using namespace deplodock::runtime;

namespace {

/// NVRTC, or skips the test.
const Nvrtc *nvrtcOrSkip() {
  llvm::Expected<const Nvrtc &> nvrtc = Nvrtc::get();
  if (!nvrtc) {
    llvm::consumeError(nvrtc.takeError());
    return nullptr;
  }
  return &*nvrtc;
}

TEST(Nvrtc, CompilesToACubin) {
  const Nvrtc *nvrtc = nvrtcOrSkip();
  if (!nvrtc)
    GTEST_SKIP() << "no NVRTC on this machine";
  EXPECT_FALSE(nvrtc->getVersion().empty());
  std::vector<std::string> options = nvrtc->defaultOptions("sm_90");
  EXPECT_EQ(options[0], "--gpu-architecture=sm_90");
  llvm::Expected<std::string> cubin = nvrtc->compile(
      "#include <cuda_fp16.h>\n"
      "extern \"C\" __global__ void k(__half* x) { x[threadIdx.x] = "
      "__float2half(1.0f); }\n",
      options);
  ASSERT_TRUE(bool(cubin)) << llvm::toString(cubin.takeError());
  EXPECT_EQ(llvm::StringRef(*cubin).take_front(4), "\x7f"
                                                   "ELF");
}

TEST(Nvrtc, ARequestsArchitectureReplacesTheDevices) {
  const Nvrtc *nvrtc = nvrtcOrSkip();
  if (!nvrtc)
    GTEST_SKIP() << "no NVRTC on this machine";
  std::vector<std::string> plain = nvrtc->options("sm_90", {"-lineinfo"});
  EXPECT_EQ(plain.front(), "--gpu-architecture=sm_90");
  EXPECT_EQ(plain.back(), "-lineinfo");
  std::vector<std::string> specific =
      nvrtc->options("sm_90", {"--gpu-architecture=sm_90a"});
  EXPECT_EQ(llvm::count_if(specific,
                           [](llvm::StringRef o) {
                             return o.starts_with("--gpu-architecture=");
                           }),
            1);
  EXPECT_EQ(specific.back(), "--gpu-architecture=sm_90a");
  // Arch-specific PTX (a warpgroup fence) compiles only for sm_90a.
  const char *source = "extern \"C\" __global__ void k() { asm volatile("
                       "\"wgmma.fence.sync.aligned;\\n\" ::: \"memory\"); }\n";
  EXPECT_TRUE(bool(llvm::expectedToOptional(nvrtc->compile(source, specific))));
  llvm::Expected<std::string> refused = nvrtc->compile(source, plain);
  EXPECT_FALSE(bool(refused));
  llvm::consumeError(refused.takeError());
}

TEST(Nvrtc, ErrorsCarryTheLog) {
  const Nvrtc *nvrtc = nvrtcOrSkip();
  if (!nvrtc)
    GTEST_SKIP() << "no NVRTC on this machine";
  llvm::Expected<std::string> cubin =
      nvrtc->compile("extern \"C\" __global__ void k() { undeclared(); }\n",
                     nvrtc->defaultOptions("sm_80"), "broken.cu");
  ASSERT_FALSE(bool(cubin));
  std::string log;
  llvm::handleAllErrors(cubin.takeError(),
                        [&](const CompileError &e) { log = e.message(); });
  EXPECT_NE(log.find("NVRTC compilation failed:\nbroken.cu(1): error"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("undeclared"), std::string::npos) << log;
}

TEST(CompileCache, KeysSeparateEveryInput) {
  std::string key = CompileCache::key("13.0", {"-a"}, "src");
  EXPECT_EQ(key.size(), 64u);
  EXPECT_EQ(key, CompileCache::key("13.0", {"-a"}, "src"));
  EXPECT_NE(key, CompileCache::key("12.8", {"-a"}, "src"));
  EXPECT_NE(key, CompileCache::key("13.0", {"-b"}, "src"));
  EXPECT_NE(key, CompileCache::key("13.0", {"-a"}, "src2"));
  // Field boundaries count: ("-a", "b") is not ("-ab").
  EXPECT_NE(CompileCache::key("13.0", {"-a", "b"}, "s"),
            CompileCache::key("13.0", {"-ab"}, "s"));
}

TEST(CompileCache, MemoryDropsTheLeastRecentlyUsed) {
  CompileCache cache("", 2);
  cache.store("a", "1");
  cache.store("b", "2");
  EXPECT_EQ(cache.lookup("a"), "1"); // a is now the most recent.
  cache.store("c", "3");
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_FALSE(cache.lookup("b"));
  EXPECT_EQ(cache.lookup("a"), "1");
  EXPECT_EQ(cache.lookup("c"), "3");
}

TEST(CompileCache, DirectoryOutlivesTheProcess) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("cubins", dir));
  std::string sub = (dir + "/nested").str();
  {
    CompileCache cache(sub);
    cache.store("k1", llvm::StringRef("\x7f\0bin", 5));
  }
  CompileCache fresh(sub);
  EXPECT_EQ(fresh.lookup("k1"), std::string("\x7f\0bin", 5));
  EXPECT_FALSE(fresh.lookup("k2"));
  EXPECT_TRUE(llvm::sys::fs::exists(sub + "/k1.cubin"));
  llvm::sys::fs::remove_directories(dir);
  // A directory that cannot be made is only a slower cache.
  CompileCache unwritable("/proc/deplodock-cannot-write");
  unwritable.store("k", "v");
  EXPECT_EQ(unwritable.lookup("k"), "v");
}

} // namespace
