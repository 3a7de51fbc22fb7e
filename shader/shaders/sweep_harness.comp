// The mapping sweep, in GLSL, appended after a mapping's flipcheck_encode / flipcheck_decode (the
// mapping's file carries the #version line). The same laws, layout and output words as
// sweep_harness.hlsl, which says why totalOrder is compared on the bits.
layout(local_size_x = 256) in;
layout(std430, binding = 1) buffer FlipcheckOut { uint flipcheck_out[]; };
layout(push_constant) uniform FlipcheckRange { uint base; } flipcheck_push;

bool flipcheck_total_less(uint a, uint b)
{
    bool na = (a >> 31) != 0u, nb = (b >> 31) != 0u;
    if (na != nb) return na;
    return na ? a > b : a < b;
}

void main()
{
    uint counts[4] = uint[4](0u, 0u, 0u, 0u);
    uint firsts[4] = uint[4](0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu);
    uint first = flipcheck_push.base + gl_GlobalInvocationID.x * 64u;
    for (uint i = 0u; i < 64u; ++i) {
        uint k = first + i;
        uint d0 = flipcheck_decode(k);
        bool last = k == 0xffffffffu;
        uint d1 = flipcheck_decode(k + 1u);
        bool bad[4];
        bad[0] = flipcheck_encode(d0) != k;
        bad[1] = flipcheck_decode(flipcheck_encode(k)) != k;
        bad[2] = !last && !flipcheck_total_less(d0, d1);
        bad[3] = d0 == 0x80000000u && (last || d1 != 0u);
        for (uint l = 0u; l < 4u; ++l)
            if (bad[l]) {
                counts[l] += 1u;
                firsts[l] = min(firsts[l], k);
            }
    }
    for (uint l = 0u; l < 4u; ++l)
        if (counts[l] != 0u) {
            uint old = atomicAdd(flipcheck_out[2u * l], counts[l]);
            if (old + counts[l] < old) atomicAdd(flipcheck_out[2u * l + 1u], 1u);
            atomicMax(flipcheck_out[8u + l], ~firsts[l]);
        }
}
