// RUN: %python %deplodock_src_root/examples/generate.py --check

/// The example files in examples/ are what examples/generate.py writes.
