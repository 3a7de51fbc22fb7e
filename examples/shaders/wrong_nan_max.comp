#version 450
// A user's shader that claims more than it does: shared atomicMax on order-preserving keys with no
// NaN handling (seed 001's option 3), checked as if it propagated NaN. flipcheck must fail it: a
// NaN with its sign bit set keys below -inf and loses the max.
//   flipcheck check --shader wrong_nan_max.comp --op max --format binary32 --policy nan=propagate
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { uint in_bits[]; };
layout(std430, binding = 1) writeonly buffer Out { uint out_bits[]; };
shared uint best;

void main()
{
    if (gl_LocalInvocationIndex == 0) best = 0u;
    barrier();
    uint bits = in_bits[gl_WorkGroupID.x * 64u + gl_LocalInvocationIndex];
    atomicMax(best, bits ^ ((bits >> 31) != 0u ? 0xffffffffu : 0x80000000u));
    barrier();
    if (gl_LocalInvocationIndex == 0) out_bits[gl_WorkGroupID.x] = best ^ ((best >> 31) != 0u ? 0x80000000u : 0xffffffffu);
}
