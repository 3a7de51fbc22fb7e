#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build: every fuzz target with the engine they choose
# ($LIB_FUZZING_ENGINE), its seed corpus zipped beside it, and the dictionary.
cd "$SRC/flipcheck"
for src in fuzz/*_fuzzer.cpp; do
  name=$(basename "$src" _fuzzer.cpp)
  $CXX $CXXFLAGS -std=c++20 -I core/include "$src" -o "$OUT/$name" $LIB_FUZZING_ENGINE
  (cd "corpus/$name" && zip -q -r "$OUT/${name}_seed_corpus.zip" .)
  cp fuzz/all_formats.dict "$OUT/$name.dict"
done
