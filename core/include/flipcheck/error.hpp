// Bad input (names, shard specs, files, corpus bytes) is reported with this type so that every
// front end can turn it into a clear message and exit code 2, distinct from a failed verdict.
#pragma once
#include <stdexcept>

namespace flipcheck {
struct input_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};
}  // namespace flipcheck
