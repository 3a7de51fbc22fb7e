#version 450
// The GLSL spelling of seed 001's branchless pair, as flipcheck's two mapping functions.
uint flipcheck_encode(uint bits)
{
    uint mask = uint(-int(bits >> 31)) | 0x80000000u;
    return bits ^ mask;
}
uint flipcheck_decode(uint key)
{
    uint mask = ((key >> 31) - 1u) | 0x80000000u;
    return floatBitsToUint(uintBitsToFloat(key ^ mask));
}
