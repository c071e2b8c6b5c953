//===- DeplodockEnums.cpp - Enums shared by the dialects --------*- C++ -*-===//

#include "Deplodock/Dialect/Common/DeplodockEnums.h"

#include "Deplodock/Dialect/Common/DeplodockEnums.cpp.inc"
