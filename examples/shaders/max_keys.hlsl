// A user's shader under flipcheck's reducer convention (docs/shaders.md, "Your own shader"): the max of
// each workgroup's floats through groupshared InterlockedMax on order-preserving keys, NaN
// propagated (a NaN's sign is cleared, so its key tops +inf's). Checked with
//   flipcheck check --shader max_keys.hlsl --op max --format binary32 --policy nan=propagate
[[vk::binding(0)]] StructuredBuffer<uint> in_bits;
[[vk::binding(1)]] RWStructuredBuffer<uint> out_bits;
#ifndef FLIPCHECK_WORKGROUP_SIZE
#define FLIPCHECK_WORKGROUP_SIZE 128
#endif

groupshared uint best;

uint to_key(uint bits) { return bits ^ ((bits >> 31) != 0 ? 0xffffffffu : 0x80000000u); }
uint from_key(uint key) { return key ^ ((key >> 31) != 0 ? 0x80000000u : 0xffffffffu); }

[numthreads(FLIPCHECK_WORKGROUP_SIZE, 1, 1)]
void main(uint index : SV_GroupIndex, uint3 group : SV_GroupID)
{
    if (index == 0)
        best = 0;
    GroupMemoryBarrierWithGroupSync();
    uint bits = in_bits[group.x * FLIPCHECK_WORKGROUP_SIZE + index];
    if (isnan(asfloat(bits)))
        bits &= 0x7fffffffu;
    uint ignored;
    InterlockedMax(best, to_key(bits), ignored);
    GroupMemoryBarrierWithGroupSync();
    if (index == 0)
        out_bits[group.x] = from_key(best);
}
