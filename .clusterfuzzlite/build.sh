#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build: every fuzz target with the engine they choose
# ($LIB_FUZZING_ENGINE), its seed corpus zipped beside it, and the dictionary. A target's
# fuzz/NAME.ignorelist (functions left out of coverage instrumentation) is used as in CMake.
# Artifacts (crash-, leak-, oom-, timeout-) are ClusterFuzzLite's to store: nothing here writes any.
cd "$SRC/flipcheck"
for src in fuzz/*_fuzzer.cpp; do
  name=$(basename "$src" _fuzzer.cpp)
  extra=()
  if [ -f "fuzz/$name.ignorelist" ]; then extra+=("-fsanitize-coverage-ignorelist=$PWD/fuzz/$name.ignorelist"); fi
  $CXX $CXXFLAGS -std=c++20 -I core/include "${extra[@]}" "$src" -o "$OUT/$name" $LIB_FUZZING_ENGINE
  (cd "fuzz/corpus/$name" && zip -q -r "$OUT/${name}_seed_corpus.zip" .)
  cp fuzz/all_formats.dict "$OUT/$name.dict"
done
