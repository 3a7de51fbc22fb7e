/* The C ABI between a plug-in library (a user's shared library of subjects) and the programs that
 * load it: `flipcheck check --plugin lib.so` and the plug-in fuzz target. Plain C so that it does
 * not depend on the C++ standard library or compiler that built either side.
 *
 * What it guarantees:
 *   - A library exports one function, `flipcheck_plugin` (FLIPCHECK_EXPORT_SUBJECTS in
 *     flipcheck/export.hpp writes it), returning a table that lives as long as the library.
 *   - The table's abi_version is the FLIPCHECK_PLUGIN_ABI_VERSION the library was built with. A
 *     loader accepts exactly its own version and rejects any other with a clear message (the field
 *     comes first in every version, so that any loader can read it); the
 *     layout of every struct below is frozen for a given version (new fields mean a new version).
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

#define FLIPCHECK_PLUGIN_ABI_VERSION 1u
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
    flipcheck_kind_nvfp4_scale = 11  /* run: xs = two binary32 (the block's amax, the global scale); out: the block's
                                        e4m3fn code. format_id: binary32's */
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
    uint32_t abi_version; /* FLIPCHECK_PLUGIN_ABI_VERSION when the library was built */
    uint32_t subject_count;
    const flipcheck_subject_v1* subjects;
} flipcheck_plugin_v1;

typedef const flipcheck_plugin_v1* (*flipcheck_plugin_entry_v1)(void);

#ifdef __cplusplus
}
#endif

#endif /* FLIPCHECK_PLUGIN_ABI_H */
