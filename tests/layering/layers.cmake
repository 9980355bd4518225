# The layers of src (docs/architecture.md): each folder includes only the folders below it. The
# rooms inside src/analysis have their own rule (analysis_rooms.cmake). In particular: report
# (the writers, the Kineto trace of a recording among them) never includes record, record never
# includes report, the analysis never includes io, record, report or cli, and the injected
# library (inject) includes only spool.
# Run: cmake -DSOURCE_DIR=<repo>/src -P layers.cmake
cmake_minimum_required(VERSION 3.16)
set(_layers
    "util:gpuperf,util"
    "model:gpuperf,util,model"
    "spool:spool"
    "io:gpuperf,util,model,spool,io"
    "record:gpuperf,util,model,spool,io,record"
    "analysis:gpuperf,util,model,analysis"
    "report:gpuperf,util,model,analysis,report"
    "inject:spool,inject")
set(_errors 0)
foreach(_entry IN LISTS _layers)
  string(REGEX REPLACE ":.*" "" _layer "${_entry}")
  string(REGEX REPLACE "^[^:]*:" "" _allowed "${_entry}")
  string(REPLACE "," ";" _allowed "${_allowed}")
  file(GLOB_RECURSE _files ${SOURCE_DIR}/${_layer}/*.cc ${SOURCE_DIR}/${_layer}/*.h)
  if(NOT _files)
    message(SEND_ERROR "layer '${_layer}' has no files")
    math(EXPR _errors "${_errors} + 1")
  endif()
  foreach(_file IN LISTS _files)
    # Project includes are quoted and start with their folder: "report/json_writer.h".
    file(STRINGS ${_file} _includes REGEX "^#include \"[a-z_0-9]+/")
    foreach(_line IN LISTS _includes)
      string(REGEX MATCH "^#include \"([a-z_0-9]+)/" _m "${_line}")
      if(NOT CMAKE_MATCH_1 IN_LIST _allowed)
        message(SEND_ERROR "${_file}: ${_line}: src/${_layer} may include only ${_allowed}")
        math(EXPR _errors "${_errors} + 1")
      endif()
    endforeach()
  endforeach()
endforeach()
# Public headers a layer may not include although gpuperf/ is allowed: the recorder knows the trace
# and baseline models, never the report model (the CLI runs the analysis of a recording).
set(_forbidden_headers "record:gpuperf/report.h,gpuperf/compare.h")
foreach(_entry IN LISTS _forbidden_headers)
  string(REGEX REPLACE ":.*" "" _layer "${_entry}")
  string(REGEX REPLACE "^[^:]*:" "" _headers "${_entry}")
  string(REPLACE "," ";" _headers "${_headers}")
  file(GLOB_RECURSE _files ${SOURCE_DIR}/${_layer}/*.cc ${SOURCE_DIR}/${_layer}/*.h)
  foreach(_file IN LISTS _files)
    foreach(_header IN LISTS _headers)
      file(STRINGS ${_file} _hits REGEX "^#include \"${_header}\"")
      if(_hits)
        message(SEND_ERROR "${_file}: src/${_layer} may not include ${_header}")
        math(EXPR _errors "${_errors} + 1")
      endif()
    endforeach()
  endforeach()
endforeach()
if(_errors GREATER 0)
  message(FATAL_ERROR "${_errors} layering violation(s)")
endif()
message(STATUS "layers: ${_layers}")
