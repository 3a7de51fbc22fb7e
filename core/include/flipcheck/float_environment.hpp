// The floating-point environment a check runs in, which is part of its verdict. Host only.
//
// The oracle judges with float comparisons and float arithmetic, which are IEEE's only in the
// default environment: round to nearest even, subnormals kept. A process can leave it without
// anyone asking: GCC links crtfastmath.o into any executable (and, up to GCC 12, any shared
// library) linked with -ffast-math, and its start-up code sets FTZ and DAZ in MXCSR, so loading
// one plug-in built that way makes every subnormal compare equal to zero inside the oracle, and a
// correct mapping fails (or a wrong one passes) on subnormals. So every check runs under
// ieee_environment: it saves the calling thread's environment, sets IEEE's default (the threads
// a check starts inherit it: pthread_create copies its creator's floating-point environment),
// proves by a probe that comparisons see subnormals and arithmetic rounds to nearest, and
// restores what it found when the check ends. That is sound for the oracle, and the subject runs
// in the same default environment, which its report names (`environment_words`): a verdict holds
// for the environment it ran in. Where the default cannot be set (a probe that still fails), the
// check refuses with environment_error: exit 2 from the command line, never a verdict.
//
// The same oracle compiled with -ffast-math (or -ffinite-math-only) cannot be rescued at run
// time: the compiler may assume no NaN and no -0, so oracle.hpp refuses to compile under it.
#pragma once
#include <cfenv>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "flipcheck/error.hpp"
#include "flipcheck/rounding_mode.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

namespace flipcheck {

// An environment the oracle cannot be run in soundly: bad input (exit 2), never a verdict.
struct environment_error : input_error {
    using input_error::input_error;
};

inline int fe_rounding(rounding_mode m) {
    switch (m) {
        case rounding_mode::upward: return FE_UPWARD;
        case rounding_mode::downward: return FE_DOWNWARD;
        case rounding_mode::toward_zero: return FE_TOWARDZERO;
        default: return FE_TONEAREST;
    }
}

// What this thread's floating-point environment is now.
struct float_environment {
    rounding_mode rounding = rounding_mode::to_nearest;
    bool known_rounding = true;  // false: fegetround gave a mode C does not name
    bool ftz = false;            // results that would be subnormal are flushed to zero (x86 MXCSR.FZ, Arm FPCR.FZ)
    bool daz = false;            // subnormal inputs are read as zero (x86 MXCSR.DAZ; Arm's FZ does both)
    bool ieee_default() const { return known_rounding && rounding == rounding_mode::to_nearest && !ftz && !daz; }
};

inline float_environment current_float_environment() {
    float_environment e;
    switch (std::fegetround()) {
        case FE_TONEAREST: e.rounding = rounding_mode::to_nearest; break;
        case FE_UPWARD: e.rounding = rounding_mode::upward; break;
        case FE_DOWNWARD: e.rounding = rounding_mode::downward; break;
        case FE_TOWARDZERO: e.rounding = rounding_mode::toward_zero; break;
        default: e.known_rounding = false;
    }
#if defined(__x86_64__) || defined(__i386__)
    const unsigned csr = _mm_getcsr();
    e.ftz = (csr & 0x8000u) != 0;
    e.daz = (csr & 0x0040u) != 0;
#elif defined(__aarch64__)
    std::uint64_t fpcr = 0;
    asm volatile("mrs %0, fpcr" : "=r"(fpcr));
    e.ftz = e.daz = (fpcr & (std::uint64_t(1) << 24)) != 0;
#endif
    return e;
}

// "rounding to_nearest, subnormals kept" or "rounding upward, FTZ and DAZ on (subnormals flushed)".
inline std::string environment_words(const float_environment& e) {
    std::string s = std::string("rounding ") + (e.known_rounding ? to_string(e.rounding) : "unknown");
    if (!e.ftz && !e.daz) return s + ", subnormals kept";
    return s + ", " + (e.ftz && e.daz ? "FTZ and DAZ" : e.ftz ? "FTZ" : "DAZ") + " on (subnormals flushed)";
}

namespace detail {
// Whether float comparisons and arithmetic on this thread are IEEE's default: a subnormal
// compares above zero and survives a product by one (no DAZ), halving the smallest normal gives
// a subnormal (no FTZ), and 1 + 2^-24 rounds to 1 and 1 + 3 * 2^-24 up (to nearest even).
// volatile, so that the compiler cannot fold the answers at build time.
inline bool oracle_probe_passes() {
    volatile float tiny = 1.40129846e-45f, zero = 0.0f, one = 1.0f, min_normal = 1.17549435e-38f;
    volatile float half_ulp = 5.96046448e-8f, three_halves = 1.78813934e-7f;
    const float product = tiny * one, halved = min_normal * 0.5f;
    volatile float p = product, h = halved;
    const bool subnormals = tiny > zero && p > zero && h > zero && h < min_normal;
    const float a = one + half_ulp, b = one + three_halves;
    volatile float va = a, vb = b;
    const bool nearest = va == one && vb == 1.00000024f;
    return subnormals && nearest;
}
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// x87's control word and MXCSR as the outermost ieee_environment on this thread left them (IEEE's
// default), so that a rounding_scope inside it writes them without reading them: on x86 a read of
// a control register waits for the last write to it to retire (measured: 24 ns a scope that reads
// them, 1 ns one that does not; bench/RESULTS.md, issue 57).
struct control_registers {
    std::uint16_t x87 = 0;
    std::uint32_t mxcsr = 0;
    bool known = false;
};
inline control_registers& default_controls() {
    thread_local control_registers c;
    return c;
}
inline control_registers read_controls() {
    control_registers c;
    asm volatile("fnstcw %0" : "=m"(c.x87));
    asm volatile("stmxcsr %0" : "=m"(c.mxcsr));
    c.known = true;
    return c;
}
#endif
}  // namespace detail

// Sets IEEE's default environment on this thread for the scope's lifetime, and restores the one
// it found. Cheap where it has nothing to do, since the checks' inner loops run under it: a scope
// nested in another on the same thread costs a thread-local count, and an outermost one that finds
// the default already set changes nothing (a few cycles to read MXCSR and the rounding mode).
class ieee_environment {
public:
    ieee_environment() {
        if (depth()++ > 0) return;
        found_ = current_float_environment();
        if (!found_.ieee_default()) make_default();
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
        detail::default_controls() = detail::read_controls();
#endif
    }
    ~ieee_environment() {
        if (--depth() > 0) return;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
        detail::default_controls().known = false;
#endif
        if (changed_) std::fesetenv(&saved_);
    }
    ieee_environment(const ieee_environment&) = delete;
    ieee_environment& operator=(const ieee_environment&) = delete;
    // The environment the thread had before the outermost scope (a nested scope's: the default).
    const float_environment& found() const { return found_; }

private:
    void make_default() {
        std::fegetenv(&saved_);
        changed_ = true;
        std::fesetenv(FE_DFL_ENV);  // glibc x86-64: MXCSR 0x1f80 (FTZ and DAZ off), rounding to nearest
#if defined(__aarch64__)
        std::uint64_t fpcr = 0;
        asm volatile("mrs %0, fpcr" : "=r"(fpcr));
        asm volatile("msr fpcr, %0" : : "r"(fpcr & ~(std::uint64_t(1) << 24)));
#endif
        if (!detail::oracle_probe_passes()) {
            std::fesetenv(&saved_);
            --depth();
            throw environment_error("the floating-point environment cannot be made IEEE's default here (" +
                                    environment_words(current_float_environment()) +
                                    "): subnormals still compare equal to zero or arithmetic does not round to nearest, so "
                                    "the oracle would judge wrongly; flipcheck refuses to give a verdict");
        }
    }
    static int& depth() {
        thread_local int d = 0;
        return d;
    }
    float_environment found_{};
    std::fenv_t saved_{};
    bool changed_ = false;
};

// The rounding mode set on this thread for the scope's lifetime (a subject's call under a mode).
// The checks open one around every call a subject makes in another mode, so it must be cheap: on
// x86-64 glibc's fegetround and two fesetround calls took 200 ns a scope on the session's EPYC.
// There the scope writes the two registers the mode lives in itself (x87's control word, for long
// double; MXCSR, for SSE and AVX); inside an ieee_environment (every check's) it writes the
// default's values, known, and restores them whole after the call, so that a subject that changed
// anything else in them (FTZ, say) cannot leave it set for the oracle. Elsewhere, fesetround.
class rounding_scope {
public:
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    // x87's and MXCSR's rounding fields share one encoding, which <cfenv> names in x87's place.
    static_assert(FE_TONEAREST == 0 && FE_DOWNWARD == 0x400 && FE_UPWARD == 0x800 && FE_TOWARDZERO == 0xc00);
    explicit rounding_scope(rounding_mode m) {
        const detail::control_registers& d = detail::default_controls();
        saved_ = d.known ? d : detail::read_controls();
        const unsigned rc = unsigned(fe_rounding(m)) >> 10;
        set(std::uint16_t((saved_.x87 & ~0x0c00u) | rc << 10), (saved_.mxcsr & ~0x6000u) | rc << 13);
    }
    ~rounding_scope() { set(saved_.x87, saved_.mxcsr); }

private:
    static void set(std::uint16_t x87, std::uint32_t mxcsr) {
        asm volatile("fldcw %0" : : "m"(x87) : "memory");
        asm volatile("ldmxcsr %0" : : "m"(mxcsr) : "memory");
    }
    detail::control_registers saved_;
#else
    explicit rounding_scope(rounding_mode m) : saved_(std::fegetround()) { std::fesetround(fe_rounding(m)); }
    ~rounding_scope() { std::fesetround(saved_); }

private:
    int saved_;
#endif

public:
    rounding_scope(const rounding_scope&) = delete;
    rounding_scope& operator=(const rounding_scope&) = delete;
};

}  // namespace flipcheck
