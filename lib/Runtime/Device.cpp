//===- Device.cpp - What the bench worker runs kernels on -----------------===//

#include "Deplodock/Runtime/Device.h"

using namespace deplodock::runtime;

char DeviceError::ID = 0;

Unit::~Unit() = default;

Device::~Device() = default;

std::unique_ptr<Unit> Device::makeUnit(std::vector<Step> steps) {
  return std::make_unique<Unit>(std::move(steps));
}

llvm::Expected<void *> Device::loadImage(llvm::StringRef) {
  return llvm::make_error<DeviceError>(
      BenchStatus::CompileFail,
      "this device loads CUDA source only, not compiled images");
}
