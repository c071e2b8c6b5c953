//===- Device.cpp - What the bench worker runs kernels on -----------------===//

#include "Deplodock/Runtime/Device.h"

using namespace deplodock::runtime;

char DeviceError::ID = 0;

Unit::~Unit() = default;

Device::~Device() = default;

std::unique_ptr<Unit> Device::makeUnit(std::vector<Step> steps) {
  return std::make_unique<Unit>(std::move(steps));
}
