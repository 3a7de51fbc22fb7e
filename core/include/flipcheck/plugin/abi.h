/* The C ABI between a plug-in library (a user's shared library of subjects) and the programs that
 * load it: `flipcheck check --plugin lib.so` and the plug-in fuzz target. Plain C so that it does
 * not depend on the C++ standard library or compiler that built either side.
 *
 * What it guarantees:
 *   - A library exports one function, `flipcheck_plugin` (FLIPCHECK_EXPORT_SUBJECTS in
 *     flipcheck/plugin/export.hpp writes it), returning a table that lives as long as the library.
 *   - The table's abi_version is the FLIPCHECK_PLUGIN_ABI_VERSION the library was built with (the
 *     field comes first in every version, so that any loader can read it). A loader accepts its own
 *     version and every older one it names (this one: 1 and 2; a v1 library's subjects simply have
 *     none of v2's functions), and rejects any other with a clear message. The layout of every
 *     struct below is frozen for its version (new fields mean a new version and new struct names).
 *   - Functions never throw across the boundary: a failure inside the subject (a C++ exception,
 *     e.g. a CUDA error) comes back as a return value of -1 and a message.
 *   - Bits travel as the format's storage words (uint16_t, uint32_t, uint64_t), widened to
 *     uint64_t where one value is returned.
 * Loaders are single-threaded callers of a subject's functions.
 */
#ifndef FLIPCHECK_PLUGIN_ABI_H
#define FLIPCHECK_PLUGIN_ABI_H

#include <stddef.h>
#include <stdint.h>

#define FLIPCHECK_PLUGIN_ABI_VERSION 2u
#define FLIPCHECK_PLUGIN_ENTRY "flipcheck_plugin"

#ifdef __cplusplus
extern "C" {
#endif

enum flipcheck_subject_kind {
    flipcheck_kind_mapping = 1,      /* encode/decode, sweep */
    flipcheck_kind_reducer = 2,      /* run: the answer's bits */
    flipcheck_kind_arg_reducer = 3,  /* run: the answer's index */
    flipcheck_kind_atomic = 4,       /* run in a given order: the answer's bits */
    flipcheck_kind_arg_atomic = 5,   /* run in a given order: the answer's index */
    flipcheck_kind_amax = 6,         /* run: the amax's bits (|x|'s largest, amax.hpp) under the declared nan */
    /* The FP8/MX scaling path (scaling_check.hpp's shapes). Inputs and outputs are bits. */
    flipcheck_kind_mx_scale = 7,     /* run: xs = one binary32 amax (uint32_t); out: its e8m0 code. format_id: the element's */
    flipcheck_kind_tensor_scale = 8, /* run: xs = one binary32 amax; out: the scale's binary32 bits. format_id: the element's */
    flipcheck_kind_decode = 9,       /* run: xs = one code (uint8_t); out: its value's binary32 bits. format_id: the code's */
    flipcheck_kind_block_scale = 10, /* run: xs = an MX block of the format's words; out: its e8m0 code. format_id: the
                                        input's | the element's << 8; nan: the amax's declared nan policy */
    flipcheck_kind_nvfp4_scale = 11, /* run: xs = two binary32 (the block's amax, the global scale); out: the block's
                                        e4m3fn code. format_id: binary32's */
    /* v2 */
    flipcheck_kind_lane_atomic = 12, /* an atomic strategy whose value is one lane of a word its neighbours share
                                        (shared_word_bits): run_lanes and run_steps report every lane; run answers
                                        the lane at byte offset 0 */
    flipcheck_kind_pair_reducer = 13, /* run: xs = bytes of two packed codes each (element 0 in the low nibble);
                                        out: the answer byte, lane by lane. format_id: the lane's format */
    /* Many-to-one maps (check/quantizers.hpp, check/scales.hpp, check/canonical_keys.hpp); what each
       declares is in the subject's `policy` word (below). */
    flipcheck_kind_quantizer = 14,   /* run: xs = one input word (binary32, bfloat16 or binary16); out: the element's
                                        code. format_id: the input's | the element's << 8. policy: rounding | saturation << 8 */
    flipcheck_kind_scale_value = 15, /* run: xs = one binary32 amax; out: the scale's binary32 bits (a power of two, the
                                        e8m0 scale's value). format_id: the element's. policy: the recipe */
    flipcheck_kind_canonical_key = 16, /* run: xs = one input word; out: the key (an integer, or bytes packed big-endian:
                                        byte 0 most significant). format_id: the input's (IEEE-shaped). policy:
                                        equivalence | key bytes (1-8) << 8 | 1 << 16 for a byte key */
    flipcheck_kind_scaled_quantizer = 17 /* run: xs = two uint32_t words, the input's bits (zero-extended) and the
                                        scale's binary32 bits; out: the element's code for x op s. format_id: as a
                                        quantizer's. policy: a quantizer's | op << 16 (0 multiply, 1 divide) |
                                        intermediate << 24 (0 binary32, 1 exact) */
};
/* Kinds are appended without a new ABI version: no struct changes, and a loader that does not
 * know a kind refuses the subject by name ("unknown kind"), never misreads it. */

/* A counterexample of a mapping law (law.hpp's counterexample, field for field). */
typedef struct flipcheck_counterexample_v1 {
    uint32_t law; /* law_id */
    uint32_t flags; /* bit 0: expected is empty, bit 1: actual is empty */
    uint64_t key, bits, expected, actual, other;
} flipcheck_counterexample_v1;

typedef struct flipcheck_sweep_request_v1 {
    uint64_t range_begin, range_end; /* used when has_range */
    uint32_t has_range;
    uint32_t all;                    /* run to the end (else stop at the first failing chunk) */
    uint32_t limit;                  /* counterexamples to keep, at most 64 */
    uint32_t threads;                /* 0: every hardware thread */
} flipcheck_sweep_request_v1;

typedef struct flipcheck_sweep_result_v1 {
    uint64_t keys_checked, failing_keys, range_begin, range_end;
    uint64_t failures_by_law[7];
    uint32_t counterexample_count;
    uint32_t stopped_early;
    double seconds;
    char domain[16]; /* "exhaustive" or "sampled" */
    flipcheck_counterexample_v1 counterexamples[64];
} flipcheck_sweep_result_v1;

typedef struct flipcheck_subject_v1 {
    const char* name;
    uint32_t kind;      /* flipcheck_subject_kind */
    uint32_t format_id; /* registry.hpp's format ids: 0x01 binary16, 0x02 bfloat16, 0x03 binary32, 0x04 binary64,
                           0x05-0x0c the byte formats (`flipcheck list`); bits 8-15: a block scale's element */
    uint32_t op;        /* reduce_op: 0 max, 1 min (reducers) */
    uint32_t nan, zero, ties; /* the declared policy (policy.hpp's enums) */
    /* Mappings. encode/decode: one pattern or key. sweep: the exhaustive (or, for binary64,
     * sampled) sweep compiled into the library; returns 0, or -1 with a message. */
    uint64_t (*encode)(uint64_t bits);
    uint64_t (*decode)(uint64_t key);
    int (*sweep)(const flipcheck_sweep_request_v1* request, flipcheck_sweep_result_v1* result, char* error, size_t error_size);
    /* Reducers: the answer for xs[0..n) (n storage words), taken in `order` (n indices; NULL:
     * index order; only atomic kinds look at it). Returns 1 with *out set, 0 for "nothing", -1 on
     * error with a message. */
    int (*run)(const void* xs, size_t n, const size_t* order, uint64_t* out, char* error, size_t error_size);
} flipcheck_subject_v1;

typedef struct flipcheck_plugin_v1 {
    uint32_t abi_version; /* 1 */
    uint32_t subject_count;
    const flipcheck_subject_v1* subjects;
} flipcheck_plugin_v1;

typedef const flipcheck_plugin_v1* (*flipcheck_plugin_entry_v1)(void);

/* ---- v2: an atomic strategy's steps, and lane strategies ------------------------------------
 * A strategy's update is stepped inside the library (interleaving.hpp, compiled there with the
 * strategy inlined): each element of xs is a simulated thread, each load, fetch and
 * compare-and-swap on the word one step, one thread at a time, as the plan says. */

/* Which thread takes each step (interleaving.hpp's step_plan, field for field). */
typedef struct flipcheck_step_plan_v2 {
    const size_t* prefix; /* the threads that take the first steps, in order */
    size_t prefix_size;
    uint64_t seed;          /* after the prefix: 0 the lowest waiting thread, else a seeded random one */
    uint64_t limit;         /* steps before the run counts as a livelock */
    uint32_t keep_waiting;  /* report the threads waiting before each step */
    uint32_t strict_prefix; /* 0: a prefix entry whose thread is not waiting is passed over */
} flipcheck_step_plan_v2;

/* What a run tells its loader, through the loader's functions (called before the run returns). */
typedef struct flipcheck_run_sink_v2 {
    void* context;
    /* Each step of a stepped run, in order: the thread that took it and, with keep_waiting, the
     * threads that were waiting (ascending). */
    void (*step)(void* context, size_t thread, const size_t* waiting, size_t waiting_count);
    /* A lane strategy: every lane of the word after the run with xs at byte offset own_offset
     * (every placement in offset order, each with its lanes in offset order); has_answer 0: the
     * run was stopped as a livelock. */
    void (*lane)(void* context, uint32_t own_offset, uint32_t offset, uint32_t has_answer, uint64_t answer);
} flipcheck_run_sink_v2;

typedef struct flipcheck_subject_v2 {
    /* v1's fields, as in flipcheck_subject_v1 */
    const char* name;
    uint32_t kind;
    uint32_t format_id;
    uint32_t op;
    uint32_t nan, zero, ties;
    uint64_t (*encode)(uint64_t bits);
    uint64_t (*decode)(uint64_t key);
    int (*sweep)(const flipcheck_sweep_request_v1* request, flipcheck_sweep_result_v1* result, char* error, size_t error_size);
    int (*run)(const void* xs, size_t n, const size_t* order, uint64_t* out, char* error, size_t error_size);
    /* v2. Atomic strategies (atomic, arg atomic, lane atomic): xs stepped as the plan says, each
     * step reported to sink->step (and a lane strategy's lanes to sink->lane). Returns 1 with *out
     * set (the answer's bits or index; a lane strategy's at offset 0), 0 for nothing (an empty
     * input), 2 when the run was stopped at plan->limit steps (a livelock), -1 on an error inside
     * the subject and -2 for a plan the run cannot follow (a prefix step for a thread that is not
     * waiting), each with a message. */
    int (*run_steps)(const void* xs, size_t n, const flipcheck_step_plan_v2* plan, const flipcheck_run_sink_v2* sink,
                     uint64_t* out, char* error, size_t error_size);
    /* Lane strategies: whole updates in `order` (as run), every lane to sink->lane. Returns 1, 0
     * for an empty input, -1 on an error with a message. */
    int (*run_lanes)(const void* xs, size_t n, const size_t* order, const flipcheck_run_sink_v2* sink, char* error, size_t error_size);
    uint32_t shared_word_bits; /* a lane strategy's word: 16, 32 or 64; 0 for every other kind */
    /* What a many-to-one map or a scale declares (named `reserved`, always 0, before kinds 14-16, so
       every older library reads as the defaults). Enum values as in the C++ headers:
         mx scale, scale value  the recipe: 0 ocp_floor, 1 rceil, 2 rceil_eps (scale_recipe.hpp)
         tensor scale           the binary32 bits of the largest value it aims at; 0: the element's largest finite
         quantizer              rounding (0 nearest_even, 1 toward_zero, 2 up) | saturation (0 finite, 1 infinity,
                                2 nan) << 8 (quantize.hpp)
         canonical key          equivalence (0 total_order, 1 sql, 2 numeric) | the key's bytes << 8 | 1 << 16 when
                                the key is bytes compared as bytes (memcmp) rather than an integer (canonical_key.hpp)
       0 for every other kind. */
    uint32_t policy;
} flipcheck_subject_v2;

typedef struct flipcheck_plugin_v2 {
    uint32_t abi_version; /* 2 */
    uint32_t subject_count;
    const flipcheck_subject_v2* subjects;
} flipcheck_plugin_v2;

typedef const flipcheck_plugin_v2* (*flipcheck_plugin_entry_v2)(void);

#ifdef __cplusplus
}
#endif

#endif /* FLIPCHECK_PLUGIN_ABI_H */
