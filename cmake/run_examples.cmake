# The plug-in examples (examples/) against an installed copy, as a user would use them:
#   1. install the build into a scratch prefix;
#   2. configure, build and ctest examples/ with find_package(flipcheck COMPONENTS rapidcheck [gpu]);
#   3. known_wrong_test must fail in every suite, and a printed replay line must fail again;
#   4. the installed `flipcheck check --plugin` passes plugin.so, fails known_wrong_plugin.so with
#      repro commands that fail again, and refuses bad input with exit code 2;
#   5. the installed `flipcheck prove` (flipcheck-prove beside it, flipcheck's installed headers)
#      proves float_key of examples/my_code.hpp and refutes key_sign_only of known_wrong.hpp;
#   6. where it was built with shaders and the machine has a Vulkan driver, the installed
#      `flipcheck check --shader` passes examples/shaders/max_keys.hlsl and fails wrong_nan_max.comp
#      with a repro command that fails again.
# Arguments: BUILD (the build to install), SOURCE (examples/), WORK (scratch), CXX, GPU (ON/OFF),
# CUDA (nvcc, when GPU), CCACHE (ccache, when the build compiles through it: so does this one, keyed
# like the build's on paths relative to the project root).
function(must_run expect_rc what)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(out "${out}${err}" PARENT_SCOPE)
  if(NOT rc STREQUAL expect_rc)
    message(FATAL_ERROR "${what}: exit code ${rc}, expected ${expect_rc}\n${out}${err}")
  endif()
endfunction()
function(must_contain text what)
  string(FIND "${out}" "${text}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${what}: the output lacks '${text}'\n${out}")
  endif()
endfunction()
function(must_not_match regex what)
  string(REGEX MATCH "${regex}" found "${out}")
  if(found)
    message(FATAL_ERROR "${what}: the output holds '${found}'\n${out}")
  endif()
endfunction()

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
must_run(0 "install" ${CMAKE_COMMAND} --install ${BUILD} --prefix ${WORK}/prefix)
set(config -S ${SOURCE} -B ${WORK}/build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${WORK}/prefix
           -DCMAKE_CXX_COMPILER=${CXX} -DWITH_GPU=${GPU})
if(GPU)
  list(APPEND config -DCMAKE_CUDA_COMPILER=${CUDA})
endif()
if(CCACHE)
  get_filename_component(root ${SOURCE} DIRECTORY)
  set(ENV{CCACHE_BASEDIR} ${root})
  set(ENV{CCACHE_NOHASHDIR} 1)
  list(APPEND config -DCMAKE_CXX_COMPILER_LAUNCHER=${CCACHE} -DCMAKE_CUDA_COMPILER_LAUNCHER=${CCACHE})
endif()
must_run(0 "configuring the examples" ${CMAKE_COMMAND} ${config})
must_run(0 "building the examples" ${CMAKE_COMMAND} --build ${WORK}/build -j 2)
must_run(0 "the examples' tests" ${CMAKE_CTEST_COMMAND} --test-dir ${WORK}/build --output-on-failure)
message(STATUS "examples: ${out}")
# flipcheck_add_proof's test ran among them, with the installed prover.
must_contain("float_key_proof" "the examples' tests")
must_contain("plugin_proof" "the examples' tests")  # several subjects of a plug-in's source, one of them an MX scale through frexp

# Known-wrong subjects: every suite fails, each with a counterexample and a replay line. Only the
# seed-independent stages are required to (RapidCheck draws a new seed each run, and alone it
# misses the `>= 0` bug in about 1 seed of 100: bench/RESULTS.md's kill table). A suite's stages
# after its first failure are skipped (fail fast), so a mapping's random laws may fail before its
# exhaustive sweep would.
must_run(1 "known_wrong_test" ${WORK}/build/known_wrong_test)
foreach(t AtomicMaxGe0.edge_battery MaxStdFold.edge_battery KeySignOnly. ArgmaxNoInversion.edge_battery
          AmaxStdMax.against_the_oracle E8m0ScaleNoNan.against_the_oracle CasMaxStale.interleaved_steps
          Bf16MaxWrongHalf.edge_battery E4m3Decode480.against_the_oracle Fp4x2MaxWholeByte.every_array
          ToE4m3Truncating.against_the_oracle IndexKeySignedZeros.against_the_oracle
          UnscaleToE4m3Reciprocal.against_the_oracle)
  must_contain("[  FAILED  ] ${t}" "known_wrong_test")
endforeach()
must_contain("MaxStdFold.edge_battery failed: the suite's later stages are skipped" "known_wrong_test")
must_contain("replay: FLIPCHECK_CASE='binary32: " "known_wrong_test")
# A RapidCheck failure (KeySignOnly's successor law fails on nearly every draw) shows the drawn
# pattern as flipcheck writes it, and the user's line (RapidCheck's "FILE:LINE:" before the
# message), never a line of flipcheck's headers.
must_contain("drawn_bits<flipcheck::binary32>:\n0x" "known_wrong_test")
must_contain("known_wrong_test.cpp:9:\nRC_FAIL(what_failed)\n" "known_wrong_test")
must_not_match("rapidcheck\\.hpp:[0-9]+:\n" "known_wrong_test")
must_contain("replay: FLIPCHECK_CASE='binary32: 0x7fc00000' " "known_wrong_test")  # AmaxStdMax's NaN
must_contain("--gtest_filter=AmaxStdMax.replay" "known_wrong_test")
must_contain("replay: FLIPCHECK_KEY=" "known_wrong_test")
# The battery's minimal case for the `>= 0` bug, replayed: it fails again; a right case passes.
set(ENV{FLIPCHECK_CASE} "binary32: 0x80000000")
must_run(1 "replaying AtomicMaxGe0's case" ${WORK}/build/known_wrong_test --gtest_filter=AtomicMaxGe0.replay)
set(ENV{FLIPCHECK_CASE} "binary32: 0x3f800000,0x40000000")
must_run(0 "replaying a right case" ${WORK}/build/known_wrong_test --gtest_filter=AtomicMaxGe0.replay)
unset(ENV{FLIPCHECK_CASE})
# The lost update, replayed from its schedule of atomic steps; the same array stepped otherwise passes.
set(ENV{FLIPCHECK_CASE} "binary32: 0x00000000,0x00000001 steps 1,0,1")
must_run(1 "replaying CasMaxStale's steps" ${WORK}/build/known_wrong_test --gtest_filter=CasMaxStale.replay)
must_contain("in the atomic steps" "replaying CasMaxStale's steps")
set(ENV{FLIPCHECK_CASE} "binary32: 0x00000000,0x00000001 steps 0,0,1")
must_run(0 "replaying a schedule it survives" ${WORK}/build/known_wrong_test --gtest_filter=CasMaxStale.replay)
unset(ENV{FLIPCHECK_CASE})
# The wrong half of the shared word: +0 comes out as the neighbour's 1.0; an array of 1.0 alone
# cannot tell the halves apart.
set(ENV{FLIPCHECK_CASE} "bfloat16: 0x0000")
must_run(1 "replaying Bf16MaxWrongHalf's case" ${WORK}/build/known_wrong_test --gtest_filter=Bf16MaxWrongHalf.replay)
must_contain("byte offset 0 of their 32-bit word" "replaying Bf16MaxWrongHalf's case")
set(ENV{FLIPCHECK_CASE} "bfloat16: 0x3f80")
must_run(0 "replaying a case the wrong half survives" ${WORK}/build/known_wrong_test --gtest_filter=Bf16MaxWrongHalf.replay)
unset(ENV{FLIPCHECK_CASE})
# Packed fp4 pairs keyed as one byte: lane 0's +0 loses to -0; a case where the lanes agree passes.
set(ENV{FLIPCHECK_CASE} "float4_e2m1fnx2: 0x00,0x08")
must_run(1 "replaying Fp4x2MaxWholeByte's case" ${WORK}/build/known_wrong_test --gtest_filter=Fp4x2MaxWholeByte.replay)
set(ENV{FLIPCHECK_CASE} "float4_e2m1fnx2: 0x11,0x22")
must_run(0 "replaying a case the whole-byte key survives" ${WORK}/build/known_wrong_test --gtest_filter=Fp4x2MaxWholeByte.replay)
unset(ENV{FLIPCHECK_CASE})
# An amax's failure (FLIPCHECK_CHECK_SCALING) printed its replay line (above), and the case
# replays: a NaN the std::max fold drops fails again; an array without one passes.
set(ENV{FLIPCHECK_CASE} "binary32: 0x7fc00000")
must_run(1 "replaying AmaxStdMax's case" ${WORK}/build/known_wrong_test --gtest_filter=AmaxStdMax.replay)
set(ENV{FLIPCHECK_CASE} "binary32: 0x3f800000,0xc0000000")
must_run(0 "replaying an array AmaxStdMax gets right" ${WORK}/build/known_wrong_test --gtest_filter=AmaxStdMax.replay)
unset(ENV{FLIPCHECK_CASE})
# The truncating quantizer on its first counterexample (2^-10 plus an ulp goes to 0, not 2^-9);
# an input it truncates right (a code's own value) passes. The signed-zero key on -0 and +0.
set(ENV{FLIPCHECK_CASE} "binary32: 0x3a800001")
must_run(1 "replaying ToE4m3Truncating's input" ${WORK}/build/known_wrong_test --gtest_filter=ToE4m3Truncating.replay)
must_contain("quantize_rounding" "replaying ToE4m3Truncating's input")
set(ENV{FLIPCHECK_CASE} "binary32: 0x3f800000")
must_run(0 "replaying an input it gets right" ${WORK}/build/known_wrong_test --gtest_filter=ToE4m3Truncating.replay)
set(ENV{FLIPCHECK_CASE} "binary32: 0x80000000,0x00000000")
must_run(1 "replaying IndexKeySignedZeros's pair" ${WORK}/build/known_wrong_test --gtest_filter=IndexKeySignedZeros.replay)
must_contain("key_equivalence" "replaying IndexKeySignedZeros's pair")
# The reciprocal for a division: 1.4583334 / (448 / 0.3) is just above half e4m3fn's smallest
# subnormal and casts to it; times the rounded reciprocal it is not, and casts to 0. Under the
# scale 1 the same input passes.
set(ENV{FLIPCHECK_CASE} "binary32: 0x3fbaaaab,0x44baaaaa")
must_run(1 "replaying UnscaleToE4m3Reciprocal's pair" ${WORK}/build/known_wrong_test --gtest_filter=UnscaleToE4m3Reciprocal.replay)
must_contain("quantize_rounding: quantize(0x3fbaaaab (1.45833337 normal) / 0x44baaaaa" "replaying UnscaleToE4m3Reciprocal's pair")
set(ENV{FLIPCHECK_CASE} "binary32: 0x3fbaaaab,0x3f800000")
must_run(0 "replaying the input under the scale 1" ${WORK}/build/known_wrong_test --gtest_filter=UnscaleToE4m3Reciprocal.replay)
unset(ENV{FLIPCHECK_CASE})
set(ENV{FLIPCHECK_KEY} "0x00000000")
must_run(1 "replaying KeySignOnly's key" ${WORK}/build/known_wrong_test --gtest_filter=KeySignOnly.replay)
# A key is read as `flipcheck sweep --key` reads it: decimal or 0x-hex, "08" is eight, never octal.
set(ENV{FLIPCHECK_KEY} "08")
must_run(0 "replaying a decimal key with a leading zero" ${WORK}/build/mapping_test --gtest_filter=FloatKey.replay)
set(ENV{FLIPCHECK_KEY} "-1")
must_run(1 "refusing a negative key" ${WORK}/build/mapping_test --gtest_filter=FloatKey.replay)
unset(ENV{FLIPCHECK_KEY})

# The command line on the plug-in libraries.
set(flipcheck ${WORK}/prefix/bin/flipcheck)
if(EXISTS ${flipcheck})
  must_run(0 "flipcheck check on the right subjects" ${flipcheck} check --plugin ${WORK}/build/libplugin.so)
  foreach(s float_key atomic_max_float atomic_argmax_float cas_max_float bf16_max_in_32_bits bf16_max_shared_word max_propagate
            nanargmin amax_f32 e4m3_max)
    must_contain("${s} (" "flipcheck check")
  endforeach()
  # A byte format's reducer, a decoder and an MX scale go through the plug-in as the IEEE kinds do.
  must_contain("e4m3_decode (decode, float8_e4m3fn): pass after 256 inputs" "flipcheck check")
  must_contain("e8m0_scale_e4m3 (mx scale, element float8_e4m3fn): pass" "flipcheck check")
  must_contain("fp4x2_max (pair reducer, float4_e2m1fnx2, max, nan=total_order zero=ordered): pass after 16843009 arrays" "flipcheck check")
  must_contain("to_e4m3 (quantizer, binary32 -> float8_e4m3fn, nearest_even, finite): pass" "flipcheck check")
  must_contain("rceil_scale_e4m3 (mx scale, element float8_e4m3fn, recipe rceil): pass" "flipcheck check")
  must_contain("index_key (canonical key, binary32, sql): pass" "flipcheck check")
  must_contain("scale_to_e4m3 (scaled quantizer, binary32 -> float8_e4m3fn, nearest_even, finite, x * s rounded to binary32): pass" "flipcheck check")
  must_run(1 "flipcheck check on the known-wrong subjects" ${flipcheck} check --plugin ${WORK}/build/libknown_wrong_plugin.so)
  must_contain("repro: flipcheck check --plugin ${WORK}/build/libknown_wrong_plugin.so --subject atomic_max_ge0 --case atomic_max_ge0.case" "flipcheck check")
  must_contain("--subject key_sign_only --key 0x" "flipcheck check")
  must_contain("amax_std_max (amax, binary32 nan=propagate): FAIL" "flipcheck check")
  must_contain("e4m3_decode_480 (decode, float8_e4m3fn): FAIL" "flipcheck check")
  must_contain("float8_e4m3fn code 0x7f decodes to 0x43f00000 (480 normal)" "flipcheck check")
  must_contain("e8m0_scale_no_nan (mx scale, element float8_e4m3fn): FAIL" "flipcheck check")
  must_contain("--subject e4m3_decode_480 --case e4m3_decode_480.case" "flipcheck check")
  # Through the plug-in too: the lost update in its atomic steps, the wrong half, the whole-byte key;
  # each repro command fails again.
  must_contain("cas_max_stale (binary32 max, declares nan=undefined zero=ordered): FAIL" "flipcheck check")
  must_contain("case: binary32: 0x00000000,0x00000001 steps 1,0,1" "flipcheck check")
  must_contain("bf16_max_wrong_half (bfloat16 max, declares nan=undefined zero=ordered): FAIL" "flipcheck check")
  must_contain("fp4x2_max_whole_byte (pair reducer, float4_e2m1fnx2, max, nan=total_order zero=ordered): FAIL" "flipcheck check")
  must_contain("to_e4m3_truncating (quantizer, binary32 -> float8_e4m3fn, nearest_even, finite): FAIL" "flipcheck check")
  must_contain("index_key_signed_zeros (canonical key, binary32, sql): FAIL" "flipcheck check")
  must_contain("key_equivalence: 0x80000000 (-0 zero) and 0x00000000 (0 zero) are equal under sql, but their keys are bytes 7f ff ff ff and bytes 80 00 00 00" "flipcheck check")
  must_contain("unscale_to_e4m3_reciprocal (scaled quantizer, binary32 -> float8_e4m3fn, nearest_even, finite, x / s rounded to binary32): FAIL" "flipcheck check")
  must_contain("--subject unscale_to_e4m3_reciprocal --case unscale_to_e4m3_reciprocal.case" "flipcheck check")
  foreach(s cas_max_stale bf16_max_wrong_half fp4x2_max_whole_byte to_e4m3_truncating index_key_signed_zeros unscale_to_e4m3_reciprocal)
    must_run(1 "the repro command of ${s}" ${flipcheck} check --plugin ${WORK}/build/libknown_wrong_plugin.so --subject ${s} --case ${s}.case)
  endforeach()
  # The prover, from the installed copy: it compiles the user's file against PREFIX/include.
  must_run(0 "flipcheck prove on float_key" ${flipcheck} prove --source ${SOURCE}/my_code.hpp --subject my::float_key)
  must_contain("verdict: PASS: 10 laws proved over every key" "flipcheck prove")
  must_contain("-I'${WORK}/prefix/include'" "flipcheck prove")
  must_run(1 "flipcheck prove on key_sign_only" ${flipcheck} prove --source ${SOURCE}/known_wrong.hpp --subject wrong::key_sign_only)
  must_contain("round_trip_key: proved" "flipcheck prove")
  must_contain("successor_order: FAIL at key 0x" "flipcheck prove")
  must_run(1 "the decoder's repro command" ${flipcheck} check --plugin ${WORK}/build/libknown_wrong_plugin.so --subject e4m3_decode_480 --case e4m3_decode_480.case)
  # The repro command of the atomic strategy, run from where its case file was written.
  must_run(1 "the repro command" ${flipcheck} check --plugin ${WORK}/build/libknown_wrong_plugin.so --subject atomic_max_ge0 --case atomic_max_ge0.case)
  must_run(2 "a missing library" ${flipcheck} check --plugin ${WORK}/nothing.so)
  must_contain("does not exist" "a missing library")
  must_run(2 "an unknown subject" ${flipcheck} check --plugin ${WORK}/build/libplugin.so --subject nope)
  must_contain("has no subject named 'nope' (it has: float_key, " "an unknown subject")
  must_run(2 "a format the subject does not declare" ${flipcheck} check --plugin ${WORK}/build/libplugin.so --subject float_key --format binary16)
endif()

# The command line on the examples' shaders (docs/shaders.md, "Your own shader").
file(GLOB icds /usr/share/vulkan/icd.d/*.json /etc/vulkan/icd.d/*.json)
if(EXISTS ${flipcheck} AND icds)
  must_run(0 "flipcheck list" ${flipcheck} list)
  string(FIND "${out}" "shader subjects (" with_shaders)
  if(NOT with_shaders EQUAL -1)
    set(ENV{ASAN_OPTIONS} detect_leaks=0:quarantine_size_mb=16)  # as flipcheck_shader_test says why
    must_run(0 "flipcheck check --shader on the right shader" ${flipcheck} check --shader ${SOURCE}/shaders/max_keys.hlsl --op max
             --format binary32 --policy nan=propagate --workgroup 64 --cases 300)
    must_contain("(workgroup 64) (binary32 max, declares nan=propagate zero=ordered): pass" "flipcheck check --shader")
    must_run(1 "flipcheck check --shader on the wrong shader" ${flipcheck} check --shader ${SOURCE}/shaders/wrong_nan_max.comp --op max
             --format binary32 --policy nan=propagate)
    must_contain("repro: flipcheck check --shader ${SOURCE}/shaders/wrong_nan_max.comp --entry main --op max --format binary32 --policy nan=propagate --workgroup 64 --case wrong_nan_max.case" "flipcheck check --shader")
    must_run(1 "the shader's repro command" ${flipcheck} check --shader ${SOURCE}/shaders/wrong_nan_max.comp --entry main --op max
             --format binary32 --policy nan=propagate --workgroup 64 --case wrong_nan_max.case)
  endif()
endif()
