# flipcheck_require(<find_package arguments> DEBIAN <package>... [PROGRAMS <program>:<package>...]):
# find_package that, when it fails, names the Debian packages that provide what is missing and the
# script that installs them, instead of CMake's generic "could not find a package configuration
# file". PROGRAMS are executables a package's CMake files import, each with the Debian package
# that has it (glslang's import glslangValidator, from glslang-tools): they are looked for first,
# because a missing one fails inside the package's own files with a message that names no package.
# A macro, so that the package's variables land in the caller's scope as with find_package.
macro(flipcheck_require name)
  cmake_parse_arguments(_req "" "" "DEBIAN;PROGRAMS" ${ARGN})
  set(_req_missing "")
  set(_req_install "")
  foreach(_req_pair IN LISTS _req_PROGRAMS)
    string(REPLACE ":" ";" _req_pair "${_req_pair}")
    list(GET _req_pair 0 _req_program)
    list(GET _req_pair 1 _req_package)
    find_program(_req_found_${_req_program} ${_req_program})
    if(NOT _req_found_${_req_program})
      list(APPEND _req_missing "the program ${_req_program}")
      list(APPEND _req_install ${_req_package})
    endif()
  endforeach()
  if(NOT _req_missing)
    find_package(${name} ${_req_UNPARSED_ARGUMENTS} QUIET)
    if(NOT ${name}_FOUND)
      list(APPEND _req_missing "the CMake package ${name}")
      set(_req_install ${_req_DEBIAN})
    endif()
  endif()
  if(_req_missing)
    list(JOIN _req_missing ", " _req_what)
    list(JOIN _req_install " " _req_packages)
    message(FATAL_ERROR "flipcheck needs ${_req_what}, which this machine lacks. Install Debian's "
                        "${_req_packages} (scripts/bootstrap installs every package flipcheck needs; it is "
                        "safe to run again).")
  endif()
endmacro()
