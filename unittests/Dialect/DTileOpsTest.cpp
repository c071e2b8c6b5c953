//===- DTileOpsTest.cpp - Tests of the DTile C++ API ----------------------===//
