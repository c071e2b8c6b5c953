//===- BenchClient.cpp - Measure kernels in a worker process --------------===//

#include "Deplodock/Runtime/BenchClient.h"
#include "Deplodock/Runtime/Protocol.h"

#include "Channel.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

using namespace deplodock::runtime;

llvm::Expected<std::string>
deplodock::runtime::findBenchWorker(const char *argv0) {
  constexpr llvm::StringLiteral kName = "deplodock-bench-worker";
  if (std::optional<std::string> env =
          llvm::sys::Process::GetEnv("DEPLODOCK_BENCH_WORKER");
      env && !env->empty())
    return *env;
  std::string self = llvm::sys::fs::getMainExecutable(
      argv0, reinterpret_cast<void *>(&findBenchWorker));
  if (!self.empty()) {
    llvm::SmallString<256> sibling(llvm::sys::path::parent_path(self));
    llvm::sys::path::append(sibling, kName);
    if (llvm::sys::fs::can_execute(sibling))
      return sibling.str().str();
  }
  if (llvm::ErrorOr<std::string> found = llvm::sys::findProgramByName(kName))
    return *found;
  return llvm::createStringError(
      "cannot find %s beside %s or on PATH (set DEPLODOCK_BENCH_WORKER)",
      kName.data(), self.empty() ? argv0 : self.c_str());
}

/// The running worker.
struct BenchClient::Process {
  pid_t pid = 0;
  int socket = -1;
  int err = -1;
  std::unique_ptr<Channel> channel;
  ~Process() {
    if (socket >= 0)
      close(socket);
    if (err >= 0)
      close(err);
  }
};

BenchClient::BenchClient(BenchClientOptions options)
    : options(std::move(options)) {}

BenchClient::~BenchClient() {
  if (!process)
    return;
  Frame shutdown;
  shutdown.json = llvm::json::Object{{"type", "shutdown"}};
  llvm::consumeError(process->channel->write(shutdown, deadlineIn(1)));
  stop(/*kill=*/false);
}

int BenchClient::getWorkerPid() const { return process ? process->pid : 0; }

llvm::Expected<std::unique_ptr<BenchClient>>
BenchClient::create(const BenchClientOptions &options) {
  std::unique_ptr<BenchClient> client(new BenchClient(options));
  if (llvm::Error error = client->start())
    return std::move(error);
  return std::move(client);
}

/// The end of a worker's stderr, for failure details.
static std::string stderrTail(llvm::StringRef text) {
  constexpr size_t kTail = 2000;
  text = text.trim();
  if (text.empty())
    return "";
  return "; its stderr ends:\n" + text.take_back(kTail).str();
}

/// What a worker that died during a request says on stderr: its own last
/// message (its crash note, a line it starts with kWorkerMessagePrefix)
/// first, where a stack dump after it cannot push it out, then the end.
static std::string stderrSummary(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> lines;
  text.trim().split(lines, '\n');
  auto own = llvm::find_if(llvm::reverse(lines), [](llvm::StringRef line) {
    return line.starts_with(kWorkerMessagePrefix);
  });
  std::string said;
  if (own != lines.rend())
    said = "; it said: " + own->drop_front(kWorkerMessagePrefix.size())
                               .trim()
                               .take_front(1000)
                               .str();
  return said + stderrTail(text);
}

/// "exited with code 3", "was killed by signal 11 (Segmentation fault)".
static std::string describeExit(int status) {
  if (WIFEXITED(status))
    return "exited with code " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status))
    return llvm::formatv("was killed by signal {0} ({1})", WTERMSIG(status),
                         strsignal(WTERMSIG(status)))
        .str();
  return "ended";
}

llvm::Error BenchClient::start() {
  auto proc = std::make_unique<Process>();
  int sockets[2], pipes[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets))
    return llvm::createStringError("socketpair failed: %s", strerror(errno));
  if (pipe2(pipes, O_CLOEXEC)) {
    close(sockets[0]);
    close(sockets[1]);
    return llvm::createStringError("pipe failed: %s", strerror(errno));
  }
  proc->socket = sockets[0];
  proc->err = pipes[0];

  // The worker talks on stdin/stdout (one socket) and logs on stderr; it
  // gets the default SIGPIPE action and no blocked signals, whatever ours.
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, sockets[1], 0);
  posix_spawn_file_actions_adddup2(&actions, sockets[1], 1);
  posix_spawn_file_actions_adddup2(&actions, pipes[1], 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults, none;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr,
                           POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  std::vector<std::string> args = {options.workerPath};
  args.insert(args.end(), options.workerArgs.begin(), options.workerArgs.end());
  std::vector<char *> argv;
  for (std::string &arg : args)
    argv.push_back(arg.data());
  argv.push_back(nullptr);
  int spawned = posix_spawn(&proc->pid, options.workerPath.c_str(), &actions,
                            &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  close(sockets[1]);
  close(pipes[1]);
  if (spawned) {
    proc->pid = 0;
    return llvm::createStringError("cannot start the bench worker %s: %s",
                                   options.workerPath.c_str(),
                                   strerror(spawned));
  }
  fcntl(proc->socket, F_SETFL, fcntl(proc->socket, F_GETFL) | O_NONBLOCK);
  fcntl(proc->err, F_SETFL, fcntl(proc->err, F_GETFL) | O_NONBLOCK);
  proc->channel =
      std::make_unique<Channel>(proc->socket, proc->socket, proc->err);
  process = std::move(proc);

  llvm::Expected<std::optional<Frame>> frame =
      process->channel->read(deadlineIn(options.startTimeoutS),
                             /*maxBlobBytes=*/0);
  if (!frame || !*frame) {
    bool timedOut = false;
    std::string why = "it closed the connection";
    if (!frame)
      llvm::handleAllErrors(
          frame.takeError(), [&](const TimeoutError &) { timedOut = true; },
          [&](const llvm::ErrorInfoBase &e) { why = e.message(); });
    std::string how = reap(/*kill=*/timedOut);
    process->channel->drainSide();
    // Not the summary: before a request, the worker's last line is as
    // likely a command-line parser's hint as its own message.
    std::string tail = stderrTail(process->channel->sideOutput());
    process.reset();
    if (timedOut)
      return llvm::createStringError(
          "the bench worker %s did not say hello within %g s%s",
          options.workerPath.c_str(), options.startTimeoutS, tail.c_str());
    return llvm::createStringError(
        "the bench worker %s %s before saying hello (%s)%s",
        options.workerPath.c_str(), how.c_str(), why.c_str(), tail.c_str());
  }
  llvm::Expected<Hello> hello = decodeHello(**frame);
  if (hello && hello->protocol != kProtocolVersion)
    hello = llvm::createStringError(
        "the bench worker speaks protocol %lld, this client %lld",
        static_cast<long long>(hello->protocol),
        static_cast<long long>(kProtocolVersion));
  if (!hello) {
    stop(/*kill=*/true);
    return llvm::createStringError("bad hello from the bench worker: " +
                                   llvm::toString(hello.takeError()));
  }
  if (!hello->device) {
    stop(/*kill=*/false);
    return llvm::createStringError(hello->error);
  }
  device = *hello->device;
  return llvm::Error::success();
}

std::string BenchClient::stop(bool kill) {
  std::string how = reap(kill);
  process.reset();
  return how;
}

std::string BenchClient::reap(bool kill) {
  if (!process)
    return "";
  std::string how = "ended";
  if (process->pid > 0) {
    if (kill)
      ::kill(process->pid, SIGKILL);
    // A worker told to stop gets two seconds to exit on its own.
    int status = 0;
    pid_t done = 0;
    for (int i = 0; i < 200 && !done; ++i) {
      done = waitpid(process->pid, &status, WNOHANG);
      if (!done)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (!done) {
      ::kill(process->pid, SIGKILL);
      done = waitpid(process->pid, &status, 0);
    }
    if (done > 0)
      how = describeExit(status);
    process->pid = 0;
  }
  return how;
}

/// Checks that `result` answers `request`: its timings name launches of
/// it, its checks and outputs its outputs.
static llvm::Error checkResult(const BenchResult &result,
                               const BenchRequest &request) {
  for (const UnitTiming &timing : result.timings)
    if (timing.launch >= static_cast<int64_t>(request.launches.size()))
      return llvm::createStringError(
          "the result times launch #%lld of a request with %zu",
          static_cast<long long>(timing.launch), request.launches.size());
  for (const OutputCheck &check : result.checks)
    if (llvm::none_of(request.outputs, [&](const OutputSpec &output) {
          return output.buffer == check.buffer;
        }))
      return llvm::createStringError("the result checks buffer #%u, which is "
                                     "not an output of the request",
                                     check.buffer);
  if (result.outputs.empty())
    return llvm::Error::success();
  if (!request.returnOutputs || result.outputs.size() != request.outputs.size())
    return llvm::createStringError(
        "the result holds %zu outputs; the request asked for %zu",
        result.outputs.size(),
        request.returnOutputs ? request.outputs.size() : size_t(0));
  for (auto [output, bytes] : llvm::zip(request.outputs, result.outputs))
    if (bytes.size() != request.buffers[output.buffer].numBytes())
      return llvm::createStringError(
          "the result holds %zu bytes of output buffer #%u, not %llu",
          bytes.size(), output.buffer,
          static_cast<unsigned long long>(
              request.buffers[output.buffer].numBytes()));
  return llvm::Error::success();
}

llvm::Expected<BenchResult> BenchClient::measure(const BenchRequest &request) {
  if (llvm::Error error = validateRequest(request))
    return std::move(error);
  if (!process) {
    if (llvm::Error error = start())
      return std::move(error);
    ++restarts;
  }
  Frame frame = encodeRequest(request);
  uint64_t id = nextId++;
  frame.json["id"] = id;
  double seconds = requestDeadlineS(request);
  Deadline deadline = deadlineIn(seconds);
  std::string phase = "startup";
  Channel &channel = *process->channel;
  channel.drainSide();
  uint64_t sideStart = channel.sideMark();

  BenchResult failure;
  failure.id = request.id;
  // The worker did not answer in time: kill it.
  auto timedOut = [&]() -> BenchResult {
    stop(/*kill=*/true);
    failure.status = BenchStatus::Timeout;
    failure.detail = llvm::formatv("no answer within {0} s (during {1}); the "
                                   "worker was killed",
                                   llvm::format("%g", seconds), phase)
                         .str();
    return failure;
  };
  // The worker went away: a crash while compiling is a compile failure,
  // any other a launch failure.
  auto died = [&]() -> BenchResult {
    // Once it is reaped, everything it wrote to stderr is in the pipe.
    std::string how = reap(/*kill=*/false);
    channel.drainSide();
    std::string tail = stderrSummary(channel.sideOutputSince(sideStart));
    process.reset();
    failure.status =
        phase == "compile" ? BenchStatus::CompileFail : BenchStatus::LaunchFail;
    failure.detail = "the worker " + how + " during " + phase + tail;
    return failure;
  };
  auto broken = [&](llvm::Error error) -> llvm::Error {
    std::string message = llvm::toString(std::move(error));
    stop(/*kill=*/true);
    return llvm::createStringError("malformed message from the bench worker: " +
                                   message);
  };

  if (llvm::Error error = channel.write(frame, deadline)) {
    bool late = error.isA<TimeoutError>(), closed = error.isA<ClosedError>();
    if (late || closed) {
      llvm::consumeError(std::move(error));
      return late ? timedOut() : died();
    }
    stop(/*kill=*/true);
    return std::move(error);
  }
  // Only a result carries a blob: the outputs asked for.
  uint64_t maxBlobBytes = 0;
  if (request.returnOutputs)
    for (const OutputSpec &output : request.outputs)
      maxBlobBytes += request.buffers[output.buffer].numBytes();
  while (true) {
    llvm::Expected<std::optional<Frame>> in =
        channel.read(deadline, maxBlobBytes);
    if (!in) {
      llvm::Error error = in.takeError();
      if (error.isA<TimeoutError>()) {
        llvm::consumeError(std::move(error));
        return timedOut();
      }
      if (error.isA<ClosedError>()) {
        llvm::consumeError(std::move(error));
        return died();
      }
      return broken(std::move(error));
    }
    if (!*in)
      return died();
    llvm::StringRef type = (*in)->type();
    if (type == "progress") {
      phase = (*in)->json.getString("phase").value_or("?").str();
      continue;
    }
    if (type == "error") {
      std::string message = (*in)->json.getString("message").value_or("").str();
      return llvm::createStringError("the bench worker rejected the request: " +
                                     message);
    }
    if (type != "result")
      return broken(
          llvm::createStringError("unexpected '" + type.str() + "' message"));
    llvm::Expected<BenchResult> result = decodeResult(**in);
    if (!result)
      return broken(result.takeError());
    if (result->id != id)
      return broken(
          llvm::createStringError("the result answers request %llu, not %llu",
                                  static_cast<unsigned long long>(result->id),
                                  static_cast<unsigned long long>(id)));
    if (llvm::Error error = checkResult(*result, request))
      return broken(std::move(error));
    result->id = request.id;
    if (result->workerExits)
      stop(/*kill=*/false);
    return result;
  }
}
