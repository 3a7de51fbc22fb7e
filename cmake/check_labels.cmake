# cmake -DCTEST=... -DBUILD=... -DGPU=ON|OFF -P check_labels.cmake
# Every property test carries the label `property`, GPU ones too (their label list used to be cut
# to its first entry, so `ctest -L property` silently skipped them).
function(count out)
  execute_process(COMMAND ${CTEST} -N ${ARGN} WORKING_DIRECTORY ${BUILD} OUTPUT_VARIABLE text RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT text MATCHES "Total Tests: ([0-9]+)")
    message(FATAL_ERROR "ctest -N ${ARGN} failed: ${text}")
  endif()
  set(${out} ${CMAKE_MATCH_1} PARENT_SCOPE)
endfunction()
count(all -L "^property$")
count(cpu -L "^property$" -LE "^gpu$")
message(STATUS "${all} tests labelled property, ${cpu} of them not labelled gpu")
if(cpu EQUAL 0)
  message(FATAL_ERROR "no CPU test is labelled property")
endif()
if(GPU AND NOT all GREATER cpu)
  message(FATAL_ERROR "no GPU test is labelled property (is the label list cut to its first entry again?)")
endif()
