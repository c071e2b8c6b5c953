# Run after linking a portable tool (cmake -DFILE=tool -DALLOWED=regex -P):
# fails the build when the tool needs a shared library outside ALLOWED, so a
# binary that would not start on the GPU machine is never produced silently.
file(GET_RUNTIME_DEPENDENCIES EXECUTABLES "${FILE}"
  RESOLVED_DEPENDENCIES_VAR resolved UNRESOLVED_DEPENDENCIES_VAR unresolved)
set(needed "")
set(unexpected "")
foreach(lib IN LISTS resolved unresolved)
  get_filename_component(name "${lib}" NAME)
  list(APPEND needed "${name}")
  if(NOT name MATCHES "${ALLOWED}")
    list(APPEND unexpected "${lib}")
  endif()
endforeach()
get_filename_component(tool "${FILE}" NAME)
if(unexpected)
  message(FATAL_ERROR "${tool} is not portable: it needs ${unexpected}")
endif()
list(JOIN needed " " needed)
message(STATUS "${tool}: portable (needs only ${needed})")
