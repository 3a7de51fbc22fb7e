// The subgroup (wave) form, after a mapping (branchless_map.comp: seed 001's pair): each subgroup
// folds its keys with subgroupMax / subgroupMin (HLSL's WaveActiveMax / WaveActiveMin) and one
// invocation per subgroup takes the shared atomic. NaN by the article's option
// FLIPCHECK_NAN_OPTION; a skipped NaN (option 1) contributes the identity key, so a subgroup whose
// lanes are all NaN leaves the result alone.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
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
    uint key = flipcheck_encode(floatBitsToUint(value));
#if FLIPCHECK_NAN_OPTION == 1
    if (isnan(value)) key = identity;
#elif FLIPCHECK_NAN_OPTION == 2
#ifdef FLIPCHECK_OP_MIN
    if (isnan(value)) key = flipcheck_encode(floatBitsToUint(value) | 0x80000000u);
#else
    if (isnan(value)) key = flipcheck_encode(floatBitsToUint(value) & 0x7fffffffu);
#endif
#endif
#ifdef FLIPCHECK_OP_MIN
    uint folded = subgroupMin(key);
    if (subgroupElect()) atomicMin(result, folded);
#else
    uint folded = subgroupMax(key);
    if (subgroupElect()) atomicMax(result, folded);
#endif
    barrier();
    if (gl_LocalInvocationIndex == 0) out_bits[gl_WorkGroupID.x] = flipcheck_decode(result);
}
