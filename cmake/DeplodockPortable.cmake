# The portable build (-DDEPLODOCK_PORTABLE=ON): tools that carry MLIR, LLVM,
# SQLite and libstdc++ inside them and need only glibc at run time (plus the
# CUDA driver and NVRTC, which the runtime opens lazily), so they can be
# copied to a GPU machine that has no LLVM. docs/Runtime.md says how to use it.
#
# Debian's MLIR exports make every static libMLIR*.a depend on the `LLVM`
# target, which is libLLVM.so. deplodock_use_static_llvm() points them at the
# static LLVM component archives instead; it must run before any of our
# targets is created. deplodock_make_portable(tool) links a tool statically
# against libstdc++ and checks after the link that nothing else is needed.
include_guard(GLOBAL)

# Every LLVM component some libMLIR*.a refers to. Archives are only searched
# for what is undefined, so a long list costs link time, never size.
set(DEPLODOCK_STATIC_LLVM_COMPONENTS
  Support Demangle Core BinaryFormat TargetParser Remarks BitstreamReader
  Analysis TransformUtils IRReader BitWriter Linker ipo Passes
  FrontendOpenMP FrontendOffloading MC MCParser
  ExecutionEngine OrcJIT TableGen
  AllTargetsCodeGens AllTargetsDescs AllTargetsInfos AllTargetsAsmParsers
  CACHE STRING "LLVM components linked statically in place of libLLVM.so")
set(DEPLODOCK_PORTABLE_ALLOWED_LIBS
  "^(linux-vdso|ld-linux-x86-64|ld-linux-aarch64|libc|libm|libdl|libpthread|librt|libz|libzstd)\\.so"
  CACHE STRING "Shared libraries a portable tool may still need (a regex)")

# `out` = lib<name>.a when installed, else the shared library `soname`
# (zlib and zstd are on every Linux system).
function(_deplodock_prefer_static out name soname)
  find_library(DEPLODOCK_${name}_ARCHIVE NAMES lib${name}.a)
  find_library(DEPLODOCK_${name}_SHARED NAMES ${soname} ${name})
  if(DEPLODOCK_${name}_ARCHIVE)
    set(${out} "${DEPLODOCK_${name}_ARCHIVE}" PARENT_SCOPE)
  else()
    set(${out} "${DEPLODOCK_${name}_SHARED}" PARENT_SCOPE)
  endif()
endfunction()

macro(deplodock_use_static_llvm)
  if(MLIR_LINK_MLIR_DYLIB)
    message(FATAL_ERROR "DEPLODOCK_PORTABLE needs DEPLODOCK_LINK_MLIR_DYLIB=OFF")
  endif()
  _deplodock_use_static_llvm()
  # What add_llvm_executable/add_mlir_library link for our own targets.
  set(LLVM_LINK_LLVM_DYLIB OFF)
endmacro()

function(_deplodock_use_static_llvm)
  # LLVMSupport's interface names libz3 by path (only its Z3 solver uses
  # it, which we never pull in) and zlib/zstd targets LLVMConfig may not
  # have found.
  _deplodock_prefer_static(zlib z libz.so.1)
  _deplodock_prefer_static(zstd zstd libzstd.so.1)
  get_target_property(support LLVMSupport INTERFACE_LINK_LIBRARIES)
  list(FILTER support EXCLUDE REGEX "z3")
  list(TRANSFORM support REPLACE "^ZLIB::ZLIB$" "${zlib}")
  list(TRANSFORM support REPLACE "^zstd::libzstd_(shared|static)$" "${zstd}")
  list(REMOVE_ITEM support "")
  set_target_properties(LLVMSupport PROPERTIES
    INTERFACE_LINK_LIBRARIES "${support}")

  llvm_map_components_to_libnames(mapped ${DEPLODOCK_STATIC_LLVM_COMPONENTS})
  set(archives "")
  foreach(lib IN LISTS mapped)
    if(TARGET ${lib})
      list(APPEND archives ${lib})
    endif()
  endforeach()
  add_library(deplodock_static_llvm INTERFACE IMPORTED GLOBAL)
  set_target_properties(deplodock_static_llvm PROPERTIES
    INTERFACE_LINK_LIBRARIES "${archives}")

  # Only static and interface targets are rewritten: the dylib targets stay
  # as they are (and are never linked in this build).
  set(rewritten 0)
  foreach(target IN LISTS MLIR_EXPORTED_TARGETS)
    if(NOT TARGET ${target})
      continue()
    endif()
    get_target_property(type ${target} TYPE)
    if(NOT type MATCHES "^(STATIC|INTERFACE)_LIBRARY$")
      continue()
    endif()
    get_target_property(links ${target} INTERFACE_LINK_LIBRARIES)
    if(NOT links)
      continue()
    endif()
    set(new "${links}")
    list(TRANSFORM new REPLACE "^LLVM$" "deplodock_static_llvm")
    list(TRANSFORM new REPLACE "^\\$<LINK_ONLY:LLVM>$"
      "$<LINK_ONLY:deplodock_static_llvm>")
    if(NOT "${new}" STREQUAL "${links}")
      set_target_properties(${target} PROPERTIES
        INTERFACE_LINK_LIBRARIES "${new}")
      math(EXPR rewritten "${rewritten} + 1")
    endif()
  endforeach()
  list(LENGTH archives count)
  message(STATUS "Portable build: ${rewritten} MLIR libraries link ${count} "
    "static LLVM components (zlib: ${zlib}, zstd: ${zstd})")
endfunction()

function(deplodock_make_portable tool)
  target_link_options(${tool} PRIVATE -static-libstdc++ -static-libgcc
    LINKER:--as-needed)
  set_target_properties(${tool} PROPERTIES SKIP_BUILD_RPATH ON)
  add_custom_command(TARGET ${tool} POST_BUILD
    COMMAND ${CMAKE_COMMAND} -DFILE=$<TARGET_FILE:${tool}>
      "-DALLOWED=${DEPLODOCK_PORTABLE_ALLOWED_LIBS}"
      -P ${PROJECT_SOURCE_DIR}/cmake/DeplodockCheckPortable.cmake
    VERBATIM)
endfunction()
