//===- deplodock-bench-worker.cpp - Run and time kernels for a parent -----===//
//
//   deplodock-bench-worker                  # serve requests on stdin/stdout
//   deplodock-bench-worker --device-info    # print the GPU's fingerprint
//   deplodock-bench-worker --fake-device    # the same without a GPU (tests)
//
// A separate process, so that a kernel that crashes, corrupts the CUDA
// context or hangs takes only this process down; BenchClient starts it,
// speaks the protocol of docs/Runtime.md and replaces it when it dies.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Runtime/Device.h"
#include "Deplodock/Runtime/Protocol.h"
#include "Deplodock/Runtime/Worker.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <cstdlib>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

using namespace deplodock::runtime;
namespace cl = llvm::cl;

static cl::OptionCategory workerCategory("deplodock-bench-worker options");

static cl::opt<bool> fakeDevice(
    "fake-device",
    cl::desc("Run on the fake device of the tests instead of a GPU (also "
             "with DEPLODOCK_FAKE_DEVICE=1)"),
    cl::cat(workerCategory));
static cl::opt<bool>
    fakeNvrtc("fake-nvrtc",
              cl::desc("With --fake-device, compile with the real NVRTC"),
              cl::cat(workerCategory));
static cl::opt<int> ordinal("device", cl::desc("The GPU to use (ordinal)"),
                            cl::init(0), cl::cat(workerCategory));
static cl::opt<std::string>
    cacheDir("cache-dir",
             cl::desc("Keep compiled kernels in this directory across "
                      "workers"),
             cl::cat(workerCategory));
static cl::opt<bool>
    deviceInfo("device-info",
               cl::desc("Print the device's fingerprint as JSON and exit"),
               cl::cat(workerCategory));

/// The worker's name and protocol, in hellos and --version.
static std::string workerName() {
  return "deplodock-bench-worker (protocol " +
         std::to_string(kProtocolVersion) + ")";
}

int main(int argc, char **argv) {
  // A crash's stack dump keeps raw addresses: symbolizing would run
  // llvm-symbolizer, when PATH has one, inside the crashing worker, which
  // makes the crash slow and its stderr depend on the machine.
  setenv("LLVM_DISABLE_SYMBOLIZATION", "1", /*overwrite=*/0);
  llvm::InitLLVM init(argc, argv);
  // A crash is a crashed variant or a worker bug, not LLVM's: no request to
  // report it there. The worker's own note comes after the stack dump, so
  // that the parent finds it whatever the dump's length.
  llvm::setBugReportMsg("");
  installCrashNote();
  cl::HideUnrelatedOptions(workerCategory);
  cl::SetVersionPrinter(
      [](llvm::raw_ostream &os) { os << workerName() << "\n"; });
  cl::ParseCommandLineOptions(
      argc, argv,
      "Deplodock bench worker: compiles, verifies and times kernels for a "
      "parent process over stdin/stdout (docs/Runtime.md)\n");
  // An empty path would silently mean "no cache".
  if (cacheDir.getNumOccurrences() && cacheDir.empty()) {
    llvm::errs() << kWorkerMessagePrefix
                 << "error: --cache-dir needs a directory\n";
    return 1;
  }
  if (ordinal < 0) {
    llvm::errs() << kWorkerMessagePrefix
                 << "error: --device must be a GPU ordinal (0, 1, ...)\n";
    return 1;
  }
#ifdef __linux__
  // A worker outlives no parent: it may hold a hung kernel.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
  bool fake = fakeDevice;
  if (std::optional<std::string> env =
          llvm::sys::Process::GetEnv("DEPLODOCK_FAKE_DEVICE"))
    fake |= !env->empty() && *env != "0";

  llvm::Expected<std::unique_ptr<Device>> device =
      fake ? createFakeDevice({fakeNvrtc, cacheDir})
           : createCudaDevice({ordinal, cacheDir});
  if (deviceInfo) {
    if (!device) {
      llvm::errs() << kWorkerMessagePrefix
                   << "error: " << llvm::toString(device.takeError()) << "\n";
      return kWorkerNoDevice;
    }
    llvm::outs() << llvm::formatv("{0:2}", toJSON((*device)->getInfo()))
                 << "\n";
    return 0;
  }
  if (!device) {
    // Said on stderr for a person, and in the hello for the parent.
    std::string message = llvm::toString(device.takeError());
    llvm::errs() << kWorkerMessagePrefix << "error: " << message << "\n";
    device = llvm::createStringError(message);
  }
  // The protocol owns stdout: frames go to a copy of it, and whatever else
  // writes to fd 1 (a driver, a library) lands on stderr instead.
  llvm::outs().flush();
  int out = dup(1);
  if (out < 0 || dup2(2, 1) < 0) {
    llvm::errs() << kWorkerMessagePrefix << "error: cannot set up stdout\n";
    return 1;
  }
  return serveWorker(std::move(device), 0, out, workerName());
}
