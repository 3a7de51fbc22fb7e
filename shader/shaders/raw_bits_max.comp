#version 450
// A known-wrong reduction (the bug class every seed warns about): atomicMax / atomicMin on a
// float's raw bits, with no mapping. Right for non-negative numbers only; a negative number's bits
// are larger than every positive's. flipcheck must fail it, with a negative number in the case.
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
    if (gl_LocalInvocationIndex == 0) result = 0xffffffffu;
#else
    if (gl_LocalInvocationIndex == 0) result = 0u;
#endif
    barrier();
    uint bits = in_bits[gl_WorkGroupID.x * FLIPCHECK_WORKGROUP_SIZE + gl_LocalInvocationIndex];
#ifdef FLIPCHECK_OP_MIN
    atomicMin(result, bits);
#else
    atomicMax(result, bits);
#endif
    barrier();
    if (gl_LocalInvocationIndex == 0) out_bits[gl_WorkGroupID.x] = result;
}
