// A plug-in linked with -ffast-math (plugin_check_test): GCC 12 and older link crtfastmath.o into a
// shared library built so, and its constructor sets FTZ and DAZ in the process that loads it. Its
// mapping is right; flipcheck must still say so (its oracle judges in IEEE's default environment,
// float_environment.hpp), and note that loading the library changed the process's environment.
// This file is compiled without -ffast-math (the oracle refuses it); fast_math_object.cpp is not.
#include <string_view>

#include "flipcheck/mapping.hpp"
#include "flipcheck/plugin/export.hpp"

namespace {
namespace fc = flipcheck;
struct ftz_loaded_key : fc::sign_flip<fc::binary32> {
    static constexpr std::string_view name = "ftz_loaded_key";
};
}  // namespace

FLIPCHECK_EXPORT_SUBJECTS(ftz_loaded_key);
