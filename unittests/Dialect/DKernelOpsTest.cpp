//===- DKernelOpsTest.cpp - Tests of the DKernel C++ API ----------------------===//
