//===- Runtime.cpp - The C runtime API ------------------------------------===//
//
// Deplodock/Runtime.h on top of the runtime's Device: a layer is its
// manifest, its loaded kernels and its scratch buffers; a launch builds the
// steps for the caller's pointers (reusing them while the pointers stay the
// same) and enqueues them on the caller's stream. The fake device keeps its
// buffers in its own memory, so there the caller's host buffers are copied
// in before the launch and the ones it writes copied back after.
//
//===----------------------------------------------------------------------===//

#include "Deplodock/Runtime.h"
#include "Deplodock/Runtime/Device.h"
#include "Deplodock/Runtime/LayerManifest.h"
#include "Deplodock/Support/Version.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>

using namespace deplodock::runtime;

struct DeplodockDevice {
  std::unique_ptr<Device> device;
};

struct DeplodockLayer {
  DeplodockDevice *owner = nullptr;
  LayerManifest manifest;
  llvm::StringMap<Kernel> kernels;
  std::vector<unsigned> bindings;
  std::vector<std::string> dtypes;
  /// Where each buffer lives: the caller's for bindings (filled per
  /// launch), the layer's own for scratch ones (all of them on the fake
  /// device).
  std::vector<DevicePtr> pointers;
  std::vector<DevicePtr> owned;
  /// The steps of the last launch and the caller's pointers they were made
  /// for.
  std::unique_ptr<Unit> unit;
  std::vector<uint64_t> lastBuffers;
  /// On the fake device: the bindings a launch writes or zeroes.
  llvm::DenseSet<unsigned> written;

  ~DeplodockLayer() {
    for (DevicePtr pointer : owned)
      owner->device->release(pointer);
  }
};

namespace {
thread_local std::string lastError;
} // namespace

/// Records `message` as the thread's last error and returns `status`.
static DeplodockStatus fail(DeplodockStatus status,
                            const llvm::Twine &message) {
  lastError = message.str();
  return status;
}

/// Records `error` (consumed) with the status its kind gives.
static DeplodockStatus
fail(llvm::Error error, DeplodockStatus otherwise = DEPLODOCK_ERROR_LAUNCH) {
  DeplodockStatus status = otherwise;
  std::string message;
  llvm::handleAllErrors(
      std::move(error),
      [&](const DeviceError &e) {
        status = e.getStatus() == BenchStatus::CompileFail
                     ? DEPLODOCK_ERROR_COMPILE
                     : DEPLODOCK_ERROR_LAUNCH;
        message = e.message();
      },
      [&](const llvm::ErrorInfoBase &e) { message = e.message(); });
  return fail(status, message);
}

const char *deplodockVersion(void) { return deplodock::getVersionString(); }

const char *deplodockLastError(void) { return lastError.c_str(); }

static DeplodockStatus
wrapDevice(llvm::Expected<std::unique_ptr<Device>> created,
           DeplodockDevice **device) {
  if (!created)
    return fail(created.takeError(), DEPLODOCK_ERROR_NO_DEVICE);
  *device = new DeplodockDevice{std::move(*created)};
  return DEPLODOCK_SUCCESS;
}

DeplodockStatus deplodockDeviceCreate(int ordinal, const char *cacheDir,
                                      DeplodockDevice **device) {
  if (!device)
    return fail(DEPLODOCK_ERROR_INVALID_ARGUMENT,
                "deplodockDeviceCreate: device is NULL");
  CudaDeviceOptions options;
  options.ordinal = ordinal;
  if (cacheDir)
    options.cacheDir = cacheDir;
  return wrapDevice(createCudaDevice(options), device);
}

DeplodockStatus deplodockFakeDeviceCreate(DeplodockDevice **device) {
  if (!device)
    return fail(DEPLODOCK_ERROR_INVALID_ARGUMENT,
                "deplodockFakeDeviceCreate: device is NULL");
  return wrapDevice(createFakeDevice({}), device);
}

int deplodockDeviceIsFake(const DeplodockDevice *device) {
  return device && device->device->getInfo().fake;
}

void deplodockDeviceDestroy(DeplodockDevice *device) { delete device; }

/// Whether `code` is a compiled image: an ELF cubin or a fatbin.
static bool isImage(llvm::StringRef code) {
  return code.starts_with("\x7f"
                          "ELF") ||
         code.starts_with("\x50\xed\x55\xba");
}

DeplodockStatus deplodockLayerLoad(DeplodockDevice *device,
                                   const char *manifestText,
                                   size_t manifestSize, const void *code,
                                   size_t codeSize, DeplodockLayer **layer) {
  if (!device || !manifestText || !layer || (!code && codeSize))
    return fail(DEPLODOCK_ERROR_INVALID_ARGUMENT,
                "deplodockLayerLoad: device, manifest and layer must not be "
                "NULL");
  llvm::Expected<LayerManifest> manifest =
      decodeManifest(llvm::StringRef(manifestText, manifestSize));
  if (!manifest)
    return fail(manifest.takeError(), DEPLODOCK_ERROR_INVALID_MANIFEST);
  Device &gpu = *device->device;
  if (llvm::Error error = gpu.makeCurrent())
    return fail(std::move(error));

  auto loaded = std::make_unique<DeplodockLayer>();
  loaded->owner = device;
  loaded->manifest = std::move(*manifest);
  const LayerManifest &m = loaded->manifest;
  loaded->bindings = m.getBindings();
  for (const BufferSpec &buffer : m.buffers)
    loaded->dtypes.push_back(dtypeName(buffer.dtype).str());

  if (!m.launches.empty()) {
    llvm::StringRef text(static_cast<const char *>(code), codeSize);
    if (text.empty())
      return fail(DEPLODOCK_ERROR_INVALID_ARGUMENT,
                  "deplodockLayerLoad: the layer launches kernels, but its "
                  "code is empty");
    bool cached = false;
    llvm::Expected<void *> module =
        isImage(text) ? gpu.loadImage(text)
                      : gpu.loadModule(text, m.compileOptions, cached);
    if (!module)
      return fail(module.takeError(), DEPLODOCK_ERROR_COMPILE);
    if (llvm::Error error =
            loadKernels(gpu, *module, m.launches, loaded->kernels, nullptr))
      return fail(std::move(error), DEPLODOCK_ERROR_COMPILE);
  }

  // The fake device holds every buffer itself; a GPU only the scratch ones
  // and the constants, which are filled once here.
  bool fake = gpu.getInfo().fake;
  loaded->pointers.assign(m.buffers.size(), 0);
  for (auto [i, buffer] : llvm::enumerate(m.buffers)) {
    BufferRole role = m.getRole(i);
    if (!fake && role != BufferRole::Workspace && role != BufferRole::Constant)
      continue;
    llvm::Expected<DevicePtr> pointer = gpu.allocate(buffer.numBytes());
    if (!pointer)
      return fail(pointer.takeError());
    loaded->pointers[i] = *pointer;
    loaded->owned.push_back(*pointer);
    if (role == BufferRole::Constant)
      if (llvm::Error error = gpu.upload(*pointer, buffer.data))
        return fail(std::move(error));
  }
  if (fake)
    for (const LaunchSpec &launch : m.launches) {
      loaded->written.insert(launch.writes.begin(), launch.writes.end());
      loaded->written.insert(launch.zero.begin(), launch.zero.end());
    }
  *layer = loaded.release();
  return DEPLODOCK_SUCCESS;
}

DeplodockStatus deplodockLayerLoadFiles(DeplodockDevice *device,
                                        const char *manifestPath,
                                        const char *codePath,
                                        DeplodockLayer **layer) {
  if (!manifestPath || !codePath)
    return fail(DEPLODOCK_ERROR_INVALID_ARGUMENT,
                "deplodockLayerLoadFiles: the paths must not be NULL");
  auto read = [](const char *path)
      -> llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> {
    return llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                       /*RequiresNullTerminator=*/false);
  };
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> manifest =
      read(manifestPath);
  if (!manifest)
    return fail(DEPLODOCK_ERROR_IO, llvm::Twine("cannot read ") + manifestPath +
                                        ": " + manifest.getError().message());
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> code = read(codePath);
  if (!code)
    return fail(DEPLODOCK_ERROR_IO, llvm::Twine("cannot read ") + codePath +
                                        ": " + code.getError().message());
  return deplodockLayerLoad(
      device, (*manifest)->getBufferStart(), (*manifest)->getBufferSize(),
      (*code)->getBufferStart(), (*code)->getBufferSize(), layer);
}

void deplodockLayerDestroy(DeplodockLayer *layer) { delete layer; }

const char *deplodockLayerFunction(const DeplodockLayer *layer) {
  return layer ? layer->manifest.function.c_str() : "";
}

size_t deplodockLayerNumBindings(const DeplodockLayer *layer) {
  return layer ? layer->bindings.size() : 0;
}

DeplodockStatus deplodockLayerGetBinding(const DeplodockLayer *layer,
                                         size_t index,
                                         DeplodockBinding *binding) {
  if (!layer || !binding)
    return fail(DEPLODOCK_ERROR_INVALID_ARGUMENT,
                "deplodockLayerGetBinding: layer and binding must not be NULL");
  if (index >= layer->bindings.size())
    return fail(DEPLODOCK_ERROR_INVALID_ARGUMENT,
                llvm::Twine("deplodockLayerGetBinding: binding #") +
                    llvm::Twine(index) + " of a layer with " +
                    llvm::Twine(layer->bindings.size()));
  unsigned b = layer->bindings[index];
  const BufferSpec &buffer = layer->manifest.buffers[b];
  binding->name = buffer.name.c_str();
  binding->dtype = layer->dtypes[b].c_str();
  binding->isOutput = layer->manifest.getRole(b) == BufferRole::Output;
  binding->rank = buffer.shape.size();
  binding->shape = buffer.shape.data();
  binding->bytes = buffer.numBytes();
  return DEPLODOCK_SUCCESS;
}

size_t deplodockLayerNumResults(const DeplodockLayer *layer) {
  return layer ? layer->manifest.results.size() : 0;
}

DeplodockStatus deplodockLayerGetResult(const DeplodockLayer *layer,
                                        size_t index, size_t *binding) {
  if (!layer || !binding)
    return fail(DEPLODOCK_ERROR_INVALID_ARGUMENT,
                "deplodockLayerGetResult: layer and binding must not be NULL");
  if (index >= layer->manifest.results.size())
    return fail(DEPLODOCK_ERROR_INVALID_ARGUMENT,
                llvm::Twine("deplodockLayerGetResult: result #") +
                    llvm::Twine(index) + " of a function with " +
                    llvm::Twine(layer->manifest.results.size()));
  *binding = llvm::find(layer->bindings, layer->manifest.results[index]) -
             layer->bindings.begin();
  return DEPLODOCK_SUCCESS;
}

DeplodockStatus deplodockLayerLaunch(DeplodockLayer *layer, void *stream,
                                     const uint64_t *buffers, size_t count) {
  if (!layer || (!buffers && count))
    return fail(DEPLODOCK_ERROR_INVALID_ARGUMENT,
                "deplodockLayerLaunch: layer and buffers must not be NULL");
  if (count != layer->bindings.size())
    return fail(DEPLODOCK_ERROR_INVALID_ARGUMENT,
                llvm::Twine("deplodockLayerLaunch: ") + llvm::Twine(count) +
                    " buffers for a layer of " +
                    llvm::Twine(layer->bindings.size()));
  for (size_t i = 0; i < count; ++i)
    if (!buffers[i])
      return fail(DEPLODOCK_ERROR_INVALID_ARGUMENT,
                  llvm::Twine("deplodockLayerLaunch: buffer #") +
                      llvm::Twine(i) + " is NULL");
  const LayerManifest &m = layer->manifest;
  if (m.launches.empty())
    return DEPLODOCK_SUCCESS;
  Device &device = *layer->owner->device;
  if (llvm::Error error = device.makeCurrent())
    return fail(std::move(error));
  bool fake = device.getInfo().fake;
  llvm::ArrayRef<uint64_t> given(buffers, count);

  if (fake)
    for (auto [i, b] : llvm::enumerate(layer->bindings)) {
      const auto *bytes = reinterpret_cast<const uint8_t *>(given[i]);
      if (llvm::Error error =
              device.upload(layer->pointers[b],
                            llvm::ArrayRef(bytes, m.buffers[b].numBytes())))
        return fail(std::move(error));
    }
  // Steps hold the pointers (and TMA descriptors encoding them): rebuilt
  // only when the caller's change.
  if (!layer->unit || (!fake && llvm::ArrayRef(layer->lastBuffers) != given)) {
    if (!fake)
      for (auto [i, b] : llvm::enumerate(layer->bindings))
        layer->pointers[b] = given[i];
    llvm::Expected<std::vector<Step>> steps = makeSteps(
        device, m.launches, layer->kernels, m.buffers, layer->pointers);
    if (!steps)
      return fail(steps.takeError());
    layer->unit = device.makeUnit(std::move(*steps));
    layer->lastBuffers.assign(given.begin(), given.end());
  }
  if (llvm::Error error = device.runOn(*layer->unit, stream))
    return fail(std::move(error));
  if (fake)
    for (auto [i, b] : llvm::enumerate(layer->bindings)) {
      if (!layer->written.contains(b))
        continue;
      auto *bytes = reinterpret_cast<uint8_t *>(given[i]);
      if (llvm::Error error = device.download(
              llvm::MutableArrayRef(bytes, m.buffers[b].numBytes()),
              layer->pointers[b]))
        return fail(std::move(error));
    }
  return DEPLODOCK_SUCCESS;
}
