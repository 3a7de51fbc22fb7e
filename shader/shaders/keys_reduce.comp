// The GLSL spelling of keys_reduce.hlsl, after a mapping (branchless_map.comp: seed 001's pair):
// shared atomicMax / atomicMin over mapped keys, NaN handled by the article's option
// FLIPCHECK_NAN_OPTION (1 ignore, 2 propagate, 3 nothing). flipcheck's reducer convention.
#ifndef FLIPCHECK_WORKGROUP_SIZE
#define FLIPCHECK_WORKGROUP_SIZE 64
#endif
layout(local_size_x = FLIPCHECK_WORKGROUP_SIZE) in;
layout(std430, binding = 0) readonly buffer In { uint in_bits[]; };
layout(std430, binding = 1) writeonly buffer Out { uint out_bits[]; };

shared uint result;

void main()
{
#ifdef FLIPCHECK_OP_MIN
    const uint identity = 0xffffffffu;
#else
    const uint identity = 0u;
#endif
    if (gl_LocalInvocationIndex == 0) result = identity;
    barrier();

    float value = uintBitsToFloat(in_bits[gl_WorkGroupID.x * FLIPCHECK_WORKGROUP_SIZE + gl_LocalInvocationIndex]);
    bool skip = false;
#if FLIPCHECK_NAN_OPTION == 1
    skip = isnan(value);
#elif FLIPCHECK_NAN_OPTION == 2
#ifdef FLIPCHECK_OP_MIN
    if (isnan(value)) value = uintBitsToFloat(floatBitsToUint(value) | 0x80000000u);
#else
    if (isnan(value)) value = uintBitsToFloat(floatBitsToUint(value) & 0x7fffffffu);
#endif
#endif
    if (!skip) {
#ifdef FLIPCHECK_OP_MIN
        atomicMin(result, flipcheck_encode(floatBitsToUint(value)));
#else
        atomicMax(result, flipcheck_encode(floatBitsToUint(value)));
#endif
    }
    barrier();
    if (gl_LocalInvocationIndex == 0) out_bits[gl_WorkGroupID.x] = flipcheck_decode(result);
}
