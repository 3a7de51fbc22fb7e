// A groupshared InterlockedMin/InterlockedMax reduction over mapped keys, written like seed 001's
// first listing, for any mapping given before it (flipcheck_encode / flipcheck_decode), with the
// article's three ways to handle NaN (FLIPCHECK_NAN_OPTION):
//   1  "Do an isnan check of the input first, and skip the interlocked operation": NaN ignored
//   2  "... then set or unset the sign bit to ensure the NaN propagates": NaN wins
//   3  "Do nothing, and just expect things to break if a NaN is fed into the algorithm"
// flipcheck's reducer convention (shader/include/flipcheck/shader/reducer.hpp); the workgroup size
// comes from FLIPCHECK_WORKGROUP_SIZE, not a specialization constant: glslang 12 crashes on one in
// numthreads.
[[vk::binding(0)]] StructuredBuffer<uint> in_bits;
[[vk::binding(1)]] RWStructuredBuffer<uint> out_bits;
#ifndef FLIPCHECK_WORKGROUP_SIZE
#define FLIPCHECK_WORKGROUP_SIZE 64
#endif

groupshared uint lds_result;

[numthreads(FLIPCHECK_WORKGROUP_SIZE, 1, 1)]
void main(uint group_index : SV_GroupIndex, uint3 group_id : SV_GroupID)
{
    if (group_index == 0)
#ifdef FLIPCHECK_OP_MIN
        lds_result = 0xffffffffu;
#else
        lds_result = 0;
#endif
    GroupMemoryBarrierWithGroupSync();

    float fvalue = asfloat(in_bits[group_id.x * FLIPCHECK_WORKGROUP_SIZE + group_index]);
    bool skip = false;
#if FLIPCHECK_NAN_OPTION == 1
    skip = isnan(fvalue);
#elif FLIPCHECK_NAN_OPTION == 2
    if (isnan(fvalue))
    {
        // A max keeps a NaN on top (sign clear: above +inf's key), a min at the bottom.
#ifdef FLIPCHECK_OP_MIN
        fvalue = asfloat(asuint(fvalue) | 0x80000000u);
#else
        fvalue = asfloat(asuint(fvalue) & 0x7fffffffu);
#endif
    }
#endif
    if (!skip)
    {
        uint original;
#ifdef FLIPCHECK_OP_MIN
        InterlockedMin(lds_result, flipcheck_encode(asuint(fvalue)), original);
#else
        InterlockedMax(lds_result, flipcheck_encode(asuint(fvalue)), original);
#endif
    }
    GroupMemoryBarrierWithGroupSync();

    if (group_index == 0)
        out_bits[group_id.x] = flipcheck_decode(lds_result);
}
