// The mapping sweep, in HLSL, appended after a mapping's flipcheck_encode / flipcheck_decode: each
// invocation checks 64 consecutive binary32 keys from push constant `base` by four of flipcheck's
// mapping laws (law.hpp), counts the failures of each in 64 bits and keeps each law's first
// failing key. totalOrder is compared on the bits (sign, then magnitude: IEEE 754-2019 5.10 on a
// binary format), not with float comparisons, which a driver may flush to zero.
// Output words: 2l, 2l+1 = law l's failure count (low, high); 8 + l = ~(law l's first failing key).
// Laws: 0 round_trip_key, 1 round_trip_bits, 2 successor_order, 3 zero_placement.
[[vk::binding(1)]] RWStructuredBuffer<uint> flipcheck_out;
struct flipcheck_range
{
    uint base;
};
[[vk::push_constant]] flipcheck_range flipcheck_push;

bool flipcheck_total_less(uint a, uint b)
{
    bool na = (a >> 31) != 0, nb = (b >> 31) != 0;
    if (na != nb)
        return na;
    return na ? a > b : a < b;
}

[numthreads(256, 1, 1)]
void flipcheck_sweep(uint3 id : SV_DispatchThreadID)
{
    uint counts[4] = {0, 0, 0, 0};
    uint firsts[4] = {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu};
    uint first = flipcheck_push.base + id.x * 64;
    for (uint i = 0; i < 64; ++i)
    {
        uint k = first + i;
        uint d0 = flipcheck_decode(k);
        bool last = k == 0xffffffffu;
        uint d1 = flipcheck_decode(k + 1);
        bool bad[4];
        bad[0] = flipcheck_encode(d0) != k;
        bad[1] = flipcheck_decode(flipcheck_encode(k)) != k;
        bad[2] = !last && !flipcheck_total_less(d0, d1);
        bad[3] = d0 == 0x80000000u && (last || d1 != 0u);
        for (uint l = 0; l < 4; ++l)
            if (bad[l])
            {
                counts[l] += 1;
                firsts[l] = min(firsts[l], k);
            }
    }
    for (uint l = 0; l < 4; ++l)
        if (counts[l] != 0)
        {
            uint old;
            InterlockedAdd(flipcheck_out[2 * l], counts[l], old);
            if (old + counts[l] < old)
                InterlockedAdd(flipcheck_out[2 * l + 1], 1u, old);
            InterlockedMax(flipcheck_out[8 + l], ~firsts[l], old);
        }
}
