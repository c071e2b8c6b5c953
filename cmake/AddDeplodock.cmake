# Small wrappers so each dialect and tool takes a few lines of CMake.

# Links `target` against MLIR: libMLIR.so when DEPLODOCK_LINK_MLIR_DYLIB is on,
# else the static component libraries named in ARGN.
function(deplodock_link_mlir target)
  if(MLIR_LINK_MLIR_DYLIB)
    target_link_libraries(${target} PRIVATE MLIR)
  else()
    target_link_libraries(${target} PRIVATE ${ARGN})
  endif()
endfunction()

# In a portable build (DEPLODOCK_PORTABLE), links tool `target` so that it
# runs without LLVM installed; nothing otherwise. Call it where the tool is
# defined.
function(deplodock_tool_portable target)
  if(DEPLODOCK_PORTABLE)
    deplodock_make_portable(${target})
  endif()
endfunction()

# Generates ops, types, attributes and docs of dialect `name` (`DTensor`) with
# namespace `ns` (`dtensor`) from <name>Ops.td, and the dialect's own enums
# from <name>Enums.td when it exists (a separate file, because enum generation
# would also repeat the shared enums that <name>Ops.td includes).
function(add_deplodock_dialect name ns)
  set(LLVM_TARGET_DEFINITIONS ${name}Ops.td)
  mlir_tablegen(${name}Ops.h.inc -gen-op-decls)
  mlir_tablegen(${name}Ops.cpp.inc -gen-op-defs)
  mlir_tablegen(${name}Dialect.h.inc -gen-dialect-decls -dialect=${ns})
  mlir_tablegen(${name}Dialect.cpp.inc -gen-dialect-defs -dialect=${ns})
  mlir_tablegen(${name}Attrs.h.inc -gen-attrdef-decls -attrdefs-dialect=${ns})
  mlir_tablegen(${name}Attrs.cpp.inc -gen-attrdef-defs -attrdefs-dialect=${ns})
  mlir_tablegen(${name}Types.h.inc -gen-typedef-decls -typedefs-dialect=${ns})
  mlir_tablegen(${name}Types.cpp.inc -gen-typedef-defs -typedefs-dialect=${ns})
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${name}Enums.td)
    set(LLVM_TARGET_DEFINITIONS ${name}Enums.td)
    mlir_tablegen(${name}Enums.h.inc -gen-enum-decls)
    mlir_tablegen(${name}Enums.cpp.inc -gen-enum-defs)
    set(LLVM_TARGET_DEFINITIONS ${name}Ops.td)
  endif()
  add_public_tablegen_target(Deplodock${name}IncGen)
  add_mlir_doc(${name}Ops ${name} Dialects/ -gen-dialect-doc -dialect=${ns})
endfunction()

# A library of ours: `add_deplodock_library(name sources... [DEPENDS targets]
# [LINK our-libraries] [MLIR_LINK mlir-libraries])`. MLIR_LINK names static
# MLIR components; they become libMLIR.so in dylib builds. Never part of
# libMLIR.so itself.
function(add_deplodock_library name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;LINK;MLIR_LINK" ${ARGN})
  add_mlir_library(${name} ${ARG_UNPARSED_ARGUMENTS}
    DEPENDS ${ARG_DEPENDS}
    EXCLUDE_FROM_LIBMLIR)
  # test/Architecture checks the links between them against the picture in
  # docs/Architecture.md.
  set_property(GLOBAL APPEND PROPERTY DEPLODOCK_LIBRARIES ${name})
  if(ARG_LINK)
    target_link_libraries(${name} PUBLIC ${ARG_LINK})
  endif()
  if(ARG_MLIR_LINK)
    mlir_target_link_libraries(${name} PUBLIC ${ARG_MLIR_LINK})
  endif()
  deplodock_export_library(${name})
endfunction()

# Marks library `name` for the installed CMake package (DeplodockInstall.cmake)
# as Deplodock::<name without the Deplodock prefix>.
function(deplodock_export_library name)
  set_property(GLOBAL APPEND PROPERTY DEPLODOCK_EXPORTED_LIBRARIES ${name})
  string(REGEX REPLACE "^Deplodock" "" export_name ${name})
  set_target_properties(${name} PROPERTIES EXPORT_NAME ${export_name})
endfunction()
