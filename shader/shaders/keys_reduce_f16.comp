#version 450
// The float16 form: binary16 elements (the low half of each input word) read as float16_t, mapped
// to 16-bit keys with seed 001's branchless pair at width 16, reduced with a shared atomic on the
// key widened to 32 bits. Needs the device's shaderFloat16 and shaderInt16. NaN by the article's
// option FLIPCHECK_NAN_OPTION (1 ignore, 2 propagate, 3 nothing).
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#ifndef FLIPCHECK_WORKGROUP_SIZE
#define FLIPCHECK_WORKGROUP_SIZE 64
#endif
layout(local_size_x = FLIPCHECK_WORKGROUP_SIZE) in;
layout(std430, binding = 0) readonly buffer In { uint in_bits[]; };
layout(std430, binding = 1) writeonly buffer Out { uint out_bits[]; };

uint16_t order_preserving_half_map(float16_t value)
{
    uint16_t uvalue = float16BitsToUint16(value);
    uint16_t mask = uint16_t(-int16_t(uvalue >> 15)) | uint16_t(0x8000);
    return uvalue ^ mask;
}

float16_t inverse_order_preserving_half_map(uint16_t value)
{
    uint16_t mask = uint16_t((value >> 15) - uint16_t(1)) | uint16_t(0x8000);
    return uint16BitsToFloat16(value ^ mask);
}

shared uint result;

void main()
{
#ifdef FLIPCHECK_OP_MIN
    const uint identity = 0xffffu;
#else
    const uint identity = 0u;
#endif
    if (gl_LocalInvocationIndex == 0) result = identity;
    barrier();

    float16_t value = uint16BitsToFloat16(uint16_t(in_bits[gl_WorkGroupID.x * FLIPCHECK_WORKGROUP_SIZE + gl_LocalInvocationIndex]));
    bool skip = false;
#if FLIPCHECK_NAN_OPTION == 1
    skip = isnan(value);
#elif FLIPCHECK_NAN_OPTION == 2
#ifdef FLIPCHECK_OP_MIN
    if (isnan(value)) value = uint16BitsToFloat16(float16BitsToUint16(value) | uint16_t(0x8000));
#else
    if (isnan(value)) value = uint16BitsToFloat16(float16BitsToUint16(value) & uint16_t(0x7fff));
#endif
#endif
    if (!skip) {
#ifdef FLIPCHECK_OP_MIN
        atomicMin(result, uint(order_preserving_half_map(value)));
#else
        atomicMax(result, uint(order_preserving_half_map(value)));
#endif
    }
    barrier();
    if (gl_LocalInvocationIndex == 0)
        out_bits[gl_WorkGroupID.x] = uint(float16BitsToUint16(inverse_order_preserving_half_map(uint16_t(result))));
}
