// Seed 001's second listing verbatim: the branchless order_preserving_float_map pair. The two
// flipcheck_ functions below are flipcheck's mapping convention (bits in, key out; key in, bits
// out), through which keys_reduce.hlsl and the sweep harness call any mapping.

// Check isnan(value) before use.
uint order_preserving_float_map(float value)
{
    // For negative values, the mask becomes 0xffffffff.
    // For positive values, the mask becomes 0x80000000.
    uint uvalue = asuint(value);
    uint mask = -int(uvalue >> 31) | 0x80000000;
    return uvalue ^ mask;
}

float inverse_order_preserving_float_map(uint value)
{
    // If the msb is set, the mask becomes 0x80000000.
    // If the msb is unset, the mask becomes 0xffffffff.
    uint mask = ((value >> 31) - 1) | 0x80000000;
    return asfloat(value ^ mask);
}

uint flipcheck_encode(uint bits) { return order_preserving_float_map(asfloat(bits)); }
uint flipcheck_decode(uint key) { return asuint(inverse_order_preserving_float_map(key)); }
