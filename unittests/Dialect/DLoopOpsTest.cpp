//===- DLoopOpsTest.cpp - Tests of the DLoop C++ API ----------------------===//
