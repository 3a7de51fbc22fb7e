#version 450
// A known-wrong mapping (flipcheck's mutant sign_bit_only, in GLSL): flips only the sign bit, so
// negatives sort backwards. The sweep must find it, with the CPU's counts.
uint flipcheck_encode(uint bits) { return bits ^ 0x80000000u; }
uint flipcheck_decode(uint key) { return key ^ 0x80000000u; }
