#!/bin/sh
# nvidia-smi stand-in for run-sh.mlir: a GPU that is not there.
echo "name, driver_version, memory.total [MiB], clocks.max.sm [MHz], clocks.sm [MHz], temperature.gpu"
echo "Stub GPU (test), 0.0, 0 MiB, 0 MHz, 0 MHz, 0"
