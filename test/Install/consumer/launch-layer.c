/* launch-layer MANIFEST CODE: loads a compiled layer with the C runtime API
 * on the fake device and launches it on zeroed host buffers. */

#include <Deplodock/Runtime.h>

#include <stdio.h>
#include <stdlib.h>

static int fail(const char *what) {
  fprintf(stderr, "%s: %s\n", what, deplodockLastError());
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: launch-layer MANIFEST CODE\n");
    return 2;
  }
  printf("%s\n", deplodockVersion());
  DeplodockDevice *device = NULL;
  if (deplodockFakeDeviceCreate(&device) != DEPLODOCK_SUCCESS)
    return fail("device");
  DeplodockLayer *layer = NULL;
  if (deplodockLayerLoadFiles(device, argv[1], argv[2], &layer) !=
      DEPLODOCK_SUCCESS)
    return fail("load");
  size_t count = deplodockLayerNumBindings(layer);
  uint64_t *pointers = calloc(count, sizeof(uint64_t));
  for (size_t i = 0; i < count; ++i) {
    DeplodockBinding binding;
    if (deplodockLayerGetBinding(layer, i, &binding) != DEPLODOCK_SUCCESS)
      return fail("binding");
    printf("binding %zu: %s %s %s, %llu bytes\n", i, binding.name,
           binding.dtype, binding.isOutput ? "output" : "input",
           (unsigned long long)binding.bytes);
    pointers[i] = (uint64_t)(uintptr_t)calloc(1, binding.bytes);
  }
  if (deplodockLayerLaunch(layer, NULL, pointers, count) != DEPLODOCK_SUCCESS)
    return fail("launch");
  printf("launched @%s\n", deplodockLayerFunction(layer));
  for (size_t i = 0; i < count; ++i)
    free((void *)(uintptr_t)pointers[i]);
  free(pointers);
  deplodockLayerDestroy(layer);
  deplodockDeviceDestroy(device);
  return 0;
}
