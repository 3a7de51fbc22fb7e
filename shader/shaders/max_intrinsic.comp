#version 450
// The driver's own max() / min() on floats (GLSL.std.450 FMax / FMin, whose NaN result SPIR-V
// leaves undefined), not on keys: one invocation folds its workgroup's elements left to right, so
// the audit sees what the driver really does with NaN, -0 and subnormals. flipcheck's reducer
// convention (reducer.hpp).
#ifndef FLIPCHECK_WORKGROUP_SIZE
#define FLIPCHECK_WORKGROUP_SIZE 64
#endif
layout(local_size_x = FLIPCHECK_WORKGROUP_SIZE) in;
layout(std430, binding = 0) readonly buffer In { uint in_bits[]; };
layout(std430, binding = 1) writeonly buffer Out { uint out_bits[]; };

void main()
{
    if (gl_LocalInvocationIndex != 0u) return;
    uint base = gl_WorkGroupID.x * FLIPCHECK_WORKGROUP_SIZE;
    float acc = uintBitsToFloat(in_bits[base]);
    for (uint i = 1u; i < FLIPCHECK_WORKGROUP_SIZE; ++i)
#ifdef FLIPCHECK_OP_MIN
        acc = min(acc, uintBitsToFloat(in_bits[base + i]));
#else
        acc = max(acc, uintBitsToFloat(in_bits[base + i]));
#endif
    out_bits[gl_WorkGroupID.x] = floatBitsToUint(acc);
}
