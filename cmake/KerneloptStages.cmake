# The stage libraries of src/kernelopt and the check that keeps their includes in order.

# kernelopt_add_stage(STAGE USES used...): kernelopt::STAGE from the .cpp files of
# src/kernelopt/STAGE (header-only where there are none), linked to the stages it uses, which must
# have been added before it. Records what STAGE may include: itself and all its used stages reach.
# The executable kernelopt_STAGE_links links every object of the stage with nothing but what it
# uses: a call into another stage fails there, wherever the binaries happen to pull that stage in.
function(kernelopt_add_stage stage)
  cmake_parse_arguments(ARG "" "" "USES" ${ARGN})
  get_property(added GLOBAL PROPERTY KERNELOPT_ADDED_STAGES)
  set(reach ${stage})
  foreach(used IN LISTS ARG_USES)
    if(NOT used IN_LIST added)
      message(FATAL_ERROR "stage ${stage} uses '${used}', which is not a stage listed before it")
    endif()
    get_property(used_reach GLOBAL PROPERTY KERNELOPT_REACH_${used})
    list(APPEND reach ${used_reach})
  endforeach()
  list(REMOVE_DUPLICATES reach)
  set_property(GLOBAL PROPERTY KERNELOPT_REACH_${stage} ${reach})
  set_property(GLOBAL APPEND PROPERTY KERNELOPT_ADDED_STAGES ${stage})

  list(TRANSFORM ARG_USES PREPEND kernelopt::)
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${stage}/*.cpp)
  if(sources)
    add_library(kernelopt_${stage} STATIC ${sources})
    target_link_libraries(kernelopt_${stage} PUBLIC ${ARG_USES})
    kernelopt_set_options(kernelopt_${stage})
    kernelopt_use_pch(kernelopt_${stage})
    add_dependencies(kernelopt_${stage} kernelopt_layering)
    add_executable(kernelopt_${stage}_links ${KERNELOPT_LINK_PROBE})
    target_link_libraries(kernelopt_${stage}_links PRIVATE
      "$<LINK_LIBRARY:WHOLE_ARCHIVE,kernelopt_${stage}>")
    kernelopt_set_options(kernelopt_${stage}_links)
  else()
    add_library(kernelopt_${stage} INTERFACE)
    target_link_libraries(kernelopt_${stage} INTERFACE ${ARG_USES})
  endif()
  add_library(kernelopt::${stage} ALIAS kernelopt_${stage})
endfunction()

set(KERNELOPT_LINK_PROBE ${CMAKE_BINARY_DIR}/kernelopt_link_probe.cpp)
file(CONFIGURE OUTPUT ${KERNELOPT_LINK_PROBE} CONTENT "int main() { return 0; }\n")

# kernelopt_add_layering_check(): the target kernelopt_layering, which fails the build where a file
# of a stage includes a header of a stage outside its reach. A folder that is not a stage is an error.
function(kernelopt_add_layering_check)
  get_property(stages GLOBAL PROPERTY KERNELOPT_ADDED_STAGES)
  file(GLOB folders LIST_DIRECTORIES true CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*)
  foreach(folder IN LISTS folders)
    get_filename_component(name ${folder} NAME)
    if(IS_DIRECTORY ${folder} AND NOT name IN_LIST stages)
      message(FATAL_ERROR "src/kernelopt/${name} is not a stage: add it to KERNELOPT_STAGES")
    endif()
  endforeach()
  set(reaches "")
  foreach(stage IN LISTS stages)
    get_property(reach GLOBAL PROPERTY KERNELOPT_REACH_${stage})
    list(JOIN reach "," reach)
    string(APPEND reaches " ${stage}=${reach}")
  endforeach()

  file(GLOB_RECURSE files CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.hpp
                                            ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  set(script ${PROJECT_SOURCE_DIR}/cmake/KerneloptLayering.cmake)
  set(stamp ${CMAKE_CURRENT_BINARY_DIR}/layering.stamp)
  add_custom_command(OUTPUT ${stamp}
    COMMAND ${CMAKE_COMMAND} -DSRC=${CMAKE_CURRENT_SOURCE_DIR} "-DREACH=${reaches}" -P ${script}
    COMMAND ${CMAKE_COMMAND} -E touch ${stamp}
    DEPENDS ${script} ${files}
    COMMENT "Checking that each stage includes only the stages it uses"
    VERBATIM)
  add_custom_target(kernelopt_layering ALL DEPENDS ${stamp})
endfunction()
