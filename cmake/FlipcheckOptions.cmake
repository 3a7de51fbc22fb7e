# Flags for our own targets only: nothing here leaks through flipcheck::core's interface.
add_library(flipcheck_warnings INTERFACE)
set(_flipcheck_cxx_warnings -Wall -Wextra -Wpedantic -Werror)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  # GCC 12 reports false -Wrestrict positives inside libstdc++ string code at -O3 (GCC PR 105329).
  list(APPEND _flipcheck_cxx_warnings -Wno-restrict)
endif()
target_compile_options(flipcheck_warnings INTERFACE
  "$<$<COMPILE_LANGUAGE:CXX>:${_flipcheck_cxx_warnings}>"
  "$<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings>")

# ASan + UBSan for CPU test binaries when FLIPCHECK_SANITIZE is on. Recoverable UB is an error.
add_library(flipcheck_sanitize INTERFACE)
if(FLIPCHECK_SANITIZE)
  set(_san -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_compile_options(flipcheck_sanitize INTERFACE $<$<COMPILE_LANGUAGE:CXX>:${_san}>)
  target_link_options(flipcheck_sanitize INTERFACE ${_san})
endif()

# flipcheck_sanitize_hot(SOURCE...): -O1 for these sources in the sanitize build, which is -O0
# (CMakePresets.json). -O0 halves the sanitize build, but a few sources hold the loops its tests
# spend their time in (nlohmann-json in the audit's adapters, the checker's stages, the byte
# formats' pairs): those tests took 3x as long at -O0. Measured in bench/RESULTS.md (issue 28).
# Call it in the directory that adds the target (source properties are per directory).
function(flipcheck_sanitize_hot)
  if(FLIPCHECK_SANITIZE)
    set_property(SOURCE ${ARGN} APPEND PROPERTY COMPILE_OPTIONS -O1)
  endif()
endfunction()

# flipcheck_test_labels(TARGET LABEL...): gives every test discovered from TARGET all the LABELs.
# gtest_discover_tests forwards PROPERTIES as one flat list, so a list of labels passed there keeps
# only its first (the rest are read as property names); a ctest include file that runs after
# discovery sets the whole list instead.
function(flipcheck_test_labels target)
  set(file ${CMAKE_CURRENT_BINARY_DIR}/${target}_labels.cmake)
  file(WRITE ${file} "foreach(t IN LISTS ${target}_TESTS)\n  set_tests_properties(\"\${t}\" PROPERTIES LABELS \"${ARGN}\")\nendforeach()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${file})
endfunction()

# flipcheck_add_test(NAME SOURCES... [LABELS ...] [LIBS ...]): one gtest binary, discovered per case.
include(GoogleTest)
function(flipcheck_add_test name)
  cmake_parse_arguments(T "" "" "SOURCES;LABELS;LIBS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE flipcheck::core flipcheck_warnings flipcheck_sanitize GTest::gtest_main ${T_LIBS})
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60)
  flipcheck_test_labels(${name} ${T_LABELS})
endfunction()

# flipcheck_shader_test(TARGET [LABEL...]): a gtest binary of shader tests, discovered per case and
# labelled `shader` (and the LABELs). Where this machine has a Vulkan driver installed (lavapipe from
# mesa-vulkan-drivers: scripts/bootstrap installs it) the tests must find a device
# (FLIPCHECK_REQUIRE_VULKAN), so CI cannot pass by skipping; elsewhere they report SKIPPED.
# lavapipe's JIT keeps allocations for the process's life: LeakSanitizer would report Mesa's. And
# lavapipe churns through large allocations on every dispatch: under ASan's default 256 MB
# quarantine each one faults its pages in afresh (the shader tests took 3x as long); 16 MB still
# holds the recent frees, where a use after free of ours would be.
# The properties are set after discovery, as flipcheck_test_labels does, because
# gtest_discover_tests keeps only the first element of a list-valued property.
function(flipcheck_shader_test target)
  gtest_discover_tests(${target} DISCOVERY_TIMEOUT 120 WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  file(GLOB icds /usr/share/vulkan/icd.d/*.json /etc/vulkan/icd.d/*.json)
  set(env "FLIPCHECK_SEEDS=${PROJECT_SOURCE_DIR}/../shared/seeds" "ASAN_OPTIONS=detect_leaks=0:quarantine_size_mb=16")
  if(icds)
    list(APPEND env FLIPCHECK_REQUIRE_VULKAN=1)
  endif()
  set(labels shader ${ARGN})
  set(file ${CMAKE_CURRENT_BINARY_DIR}/${target}_properties.cmake)
  file(WRITE ${file} "foreach(t IN LISTS ${target}_TESTS)\n  set_tests_properties(\"\${t}\" PROPERTIES LABELS \"${labels}\" "
                     "TIMEOUT 300 SKIP_REGULAR_EXPRESSION \"\\\\[  SKIPPED \\\\]\" ENVIRONMENT \"${env}\")\nendforeach()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${file})
endfunction()

# Which tests this build makes. Each test is built and run for the one reason it exists, so that
# CI (README command 2: the sanitize preset, then release, then fuzz) builds and runs it once:
#   sanitize  deterministic inputs, where ASan and UBSan see what goes wrong: the core units, the
#             command's tests (with the sanitized binary), shaders on lavapipe, the fuzz corpora
#             replayed, and the byte formats' every pair;
#   release   what needs an optimized build or a device: the exhaustive sweeps (every key, pair of
#             16-bit patterns, triple of byte codes), RapidCheck's random properties (random inputs
#             under the sanitizers are the fuzz preset's, with libFuzzer), the GPU tests, the
#             installed package with its examples, and the main job;
#   all       both: what a plain configure builds.
set(FLIPCHECK_TESTS all CACHE STRING "Which tests to build: all, sanitize or release (cmake/FlipcheckOptions.cmake)")
set_property(CACHE FLIPCHECK_TESTS PROPERTY STRINGS all sanitize release)
if(NOT FLIPCHECK_TESTS MATCHES "^(all|sanitize|release)$")
  message(FATAL_ERROR "FLIPCHECK_TESTS is '${FLIPCHECK_TESTS}': it must be all, sanitize or release")
endif()
set(FLIPCHECK_SANITIZE_TESTS OFF)
set(FLIPCHECK_RELEASE_TESTS OFF)
if(FLIPCHECK_BUILD_TESTS AND FLIPCHECK_TESTS MATCHES "^(all|sanitize)$")
  set(FLIPCHECK_SANITIZE_TESTS ON)
endif()
if(FLIPCHECK_BUILD_TESTS AND FLIPCHECK_TESTS MATCHES "^(all|release)$")
  set(FLIPCHECK_RELEASE_TESTS ON)
endif()
