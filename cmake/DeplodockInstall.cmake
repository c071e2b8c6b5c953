# Install rules and the exported CMake package: `cmake --install build
# --prefix P` puts the tools in P/bin, the libraries in P/lib, the headers
# (with the generated .inc files) in P/include, the PyTorch importer in
# P/libexec/deplodock, and P/lib/cmake/Deplodock, with which another project's
# find_package(Deplodock) gets every library as Deplodock::<Name>
# (DTileTransforms, Interpreter...), among them
#
#   Deplodock::Dialects        the four dialects (a group)
#   Deplodock::Passes          every pass and conversion, and
#                              registerDeplodock* (a group)
#   Deplodock::Pipelines       the named pipelines (lower-to-*,
#                              deplodock-pipeline)
#   Deplodock::Emitter         the CUDA emitter (a group)
#   Deplodock::Tuner           the tuner driver, its database and backends
#                              (a group)
#   Deplodock::Runtime         the GPU runtime (C++, no MLIR)
#   Deplodock::RuntimeKernelIR launch programs and manifests from Kernel IR
#   Deplodock::RuntimeC        the C runtime API (shared; Deplodock/Runtime.h)
#
# Called once from the top-level CMakeLists.txt, after every library exists.

include(CMakePackageConfigHelpers)

function(deplodock_add_group name)
  add_library(Deplodock${name} INTERFACE)
  target_link_libraries(Deplodock${name} INTERFACE ${ARGN})
  deplodock_export_library(Deplodock${name})
endfunction()

function(deplodock_install_package)
  deplodock_export_library(DeplodockRuntimeC)
  deplodock_add_group(Dialects DeplodockCommon DeplodockDTensorDialect
    DeplodockDLoopDialect DeplodockDTileDialect DeplodockDKernelDialect)
  deplodock_add_group(Passes DeplodockRegistration DeplodockPassRegistration
    DeplodockToDTensor DeplodockDTensorToDLoop DeplodockDLoopTransforms
    DeplodockDTileTransforms DeplodockDTileToDKernel)
  deplodock_add_group(Emitter DeplodockCudaEmitter)
  deplodock_add_group(Tuner DeplodockTunerDriver)

  get_property(libraries GLOBAL PROPERTY DEPLODOCK_EXPORTED_LIBRARIES)
  set(tools deplodock-opt deplodock-translate deplodock-run deplodock-tune
    deplodock-bench-worker)
  install(TARGETS ${libraries} EXPORT DeplodockTargets
    ARCHIVE DESTINATION lib
    LIBRARY DESTINATION lib
    INCLUDES DESTINATION include)
  # libMLIR.so and libLLVM.so live outside the loader's default path (in
  # /usr/lib/llvm-22/lib on Debian): the installed binaries keep a run path
  # to them, as the built ones do.
  set_target_properties(${tools} DeplodockRuntimeC PROPERTIES
    INSTALL_RPATH_USE_LINK_PATH ON)
  install(TARGETS ${tools} RUNTIME DESTINATION bin)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/Deplodock
    ${PROJECT_BINARY_DIR}/include/Deplodock
    DESTINATION include
    FILES_MATCHING PATTERN "*.h" PATTERN "*.inc" PATTERN "*.td"
    PATTERN "CMakeFiles" EXCLUDE)

  set(package_dir lib/cmake/Deplodock)
  install(EXPORT DeplodockTargets NAMESPACE Deplodock::
    DESTINATION ${package_dir})
  string(REPLACE ";" " " DEPLODOCK_EXPORTED "${libraries}")
  configure_package_config_file(
    ${PROJECT_SOURCE_DIR}/cmake/DeplodockConfig.cmake.in
    ${PROJECT_BINARY_DIR}/${package_dir}/DeplodockConfig.cmake
    INSTALL_DESTINATION ${package_dir})
  write_basic_package_version_file(
    ${PROJECT_BINARY_DIR}/${package_dir}/DeplodockConfigVersion.cmake
    VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
  install(FILES ${PROJECT_BINARY_DIR}/${package_dir}/DeplodockConfig.cmake
    ${PROJECT_BINARY_DIR}/${package_dir}/DeplodockConfigVersion.cmake
    DESTINATION ${package_dir})
endfunction()
