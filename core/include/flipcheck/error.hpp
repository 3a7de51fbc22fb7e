// The two kinds of error every front end tells apart from a verdict:
//   input_error   bad input (names, shard specs, files, corpus bytes): a clear message, exit 2;
//   device_error  a GPU that is present but failed (a driver error, out of memory, a failed
//                 launch): a clear message, exit 3. Never a skip, never a pass.
//   subject_error a user's subject that could not run (its plug-in code threw): exit 3 too.
#pragma once
#include <stdexcept>

namespace flipcheck {
struct input_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};
struct device_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};
struct subject_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};
}  // namespace flipcheck
