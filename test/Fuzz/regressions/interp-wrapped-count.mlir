// Fuzz finding, area interp-memory (fuzz/FINDINGS.md #6): 2^32 x 2^32
// elements wrap to 0; --interp reports success and writes a .npy with no
// data for that shape (silently wrong).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %fuzz_check --expect=diagnosed -- deplodock-run --interp %s --print=summary --output-dir=%t
func.func @wrap(%x: tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32> {
  return %x : tensor<4294967296x4294967296xf32>
}
