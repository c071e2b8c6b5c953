/*===- Deplodock/Runtime.h - Run compiled layers from C -----------*- C -*-===*\
|*                                                                            *|
|* The C runtime API: load a layer that deplodock-translate compiled (its     *|
|* CUDA source or a cubin, and the manifest of --cuda-manifest) and launch    *|
|* it on a CUDA stream with device pointers. Nothing here links against the  *|
|* CUDA driver: it is loaded with dlopen on first use (libcuda.so.1, or      *|
|* $DEPLODOCK_CUDA_DRIVER), and NVRTC likewise when a layer comes as source. *|
|* Link libDeplodockRuntimeC.so (CMake: Deplodock::RuntimeC).                *|
|*                                                                            *|
|* Every call that can fail returns a DeplodockStatus; the message of the     *|
|* last failure on the calling thread is deplodockLastError().                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef DEPLODOCK_RUNTIME_H
#define DEPLODOCK_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define DEPLODOCK_API __attribute__((visibility("default")))
#else
#define DEPLODOCK_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum DeplodockStatus {
  DEPLODOCK_SUCCESS = 0,
  /** A null pointer, an index out of range, the wrong number of buffers. */
  DEPLODOCK_ERROR_INVALID_ARGUMENT = 1,
  /** A file that cannot be read. */
  DEPLODOCK_ERROR_IO = 2,
  /** A manifest that is malformed or inconsistent. */
  DEPLODOCK_ERROR_INVALID_MANIFEST = 3,
  /** No CUDA driver, no GPU, no NVRTC. */
  DEPLODOCK_ERROR_NO_DEVICE = 4,
  /** The source does not compile, the image does not load, a kernel is
      missing from it. */
  DEPLODOCK_ERROR_COMPILE = 5,
  /** A launch, allocation or copy failed. */
  DEPLODOCK_ERROR_LAUNCH = 6,
} DeplodockStatus;

/** A GPU (or the fake device of the tests). */
typedef struct DeplodockDevice DeplodockDevice;
/** A loaded layer: its kernels and the scratch buffers it needs. */
typedef struct DeplodockLayer DeplodockLayer;

/** One buffer a launch takes (see deplodockLayerLaunch). */
typedef struct DeplodockBinding {
  /** As the manifest names it ("arg0", "alloc2"). */
  const char *name;
  /** "f16", "bf16", "f32", "f64", "i1" (one byte), "i8", "i16", "i32",
      "i64". */
  const char *dtype;
  /** 0 for an argument of the layer's function, 1 for a buffer it returns
      (the kernels write it). */
  int isOutput;
  size_t rank;
  /** `rank` extents, outermost first (row-major, dense). */
  const int64_t *shape;
  uint64_t bytes;
} DeplodockBinding;

/** "Deplodock 0.1.0 (<git describe>)". */
DEPLODOCK_API const char *deplodockVersion(void);

/** The message of the last call that failed on this thread ("" if none).
    Valid until the next failing call on the thread. */
DEPLODOCK_API const char *deplodockLastError(void);

/** The CUDA device `ordinal` (its primary context). `cacheDir`, when not
    NULL, keeps the images compiled from CUDA source across processes. */
DEPLODOCK_API DeplodockStatus deplodockDeviceCreate(int ordinal,
                                                    const char *cacheDir,
                                                    DeplodockDevice **device);

/** The fake device of the tests: no GPU needed. Its "device pointers" are
    host pointers, and its kernels write a deterministic pattern computed
    from their inputs instead of computing anything. */
DEPLODOCK_API DeplodockStatus
deplodockFakeDeviceCreate(DeplodockDevice **device);

/** 1 for the fake device, 0 for a GPU. */
DEPLODOCK_API int deplodockDeviceIsFake(const DeplodockDevice *device);

/** Destroys a device; its layers must be destroyed first. NULL is a no-op. */
DEPLODOCK_API void deplodockDeviceDestroy(DeplodockDevice *device);

/** Loads a layer from its manifest (JSON text of `manifestSize` bytes) and
    code: CUDA source (compiled with NVRTC) or a cubin/fatbin (recognised by
    its magic number). Allocates the layer's scratch buffers. */
DEPLODOCK_API DeplodockStatus deplodockLayerLoad(
    DeplodockDevice *device, const char *manifest, size_t manifestSize,
    const void *code, size_t codeSize, DeplodockLayer **layer);

/** deplodockLayerLoad from files. */
DEPLODOCK_API DeplodockStatus deplodockLayerLoadFiles(DeplodockDevice *device,
                                                      const char *manifestPath,
                                                      const char *codePath,
                                                      DeplodockLayer **layer);

/** Destroys a layer and frees its scratch buffers. NULL is a no-op. */
DEPLODOCK_API void deplodockLayerDestroy(DeplodockLayer *layer);

/** The name of the layer's function. */
DEPLODOCK_API const char *deplodockLayerFunction(const DeplodockLayer *layer);

/** How many buffers a launch takes: the function's arguments, then the
    buffers it returns (each once, in the order returned). */
DEPLODOCK_API size_t deplodockLayerNumBindings(const DeplodockLayer *layer);

/** Binding `index`; the strings and shape live as long as the layer. */
DEPLODOCK_API DeplodockStatus deplodockLayerGetBinding(
    const DeplodockLayer *layer, size_t index, DeplodockBinding *binding);

/** How many results the function returns. */
DEPLODOCK_API size_t deplodockLayerNumResults(const DeplodockLayer *layer);

/** The binding result `index` is (an output, or an argument the function
    returns as it is). */
DEPLODOCK_API DeplodockStatus deplodockLayerGetResult(
    const DeplodockLayer *layer, size_t index, size_t *binding);

/** Enqueues the layer's kernels (and the zeroing before them) on `stream`,
    a CUstream (NULL: the legacy default stream), with `buffers[i]` the
    device address of binding i; `count` must be the number of bindings.
    Returns once enqueued: synchronise the stream before reading the
    outputs. On the fake device the addresses are host pointers and the
    launch is done on return. A layer must not be launched from two threads
    at once (its scratch buffers are shared). */
DEPLODOCK_API DeplodockStatus deplodockLayerLaunch(DeplodockLayer *layer,
                                                   void *stream,
                                                   const uint64_t *buffers,
                                                   size_t count);

#ifdef __cplusplus
}
#endif

#endif /* DEPLODOCK_RUNTIME_H */
