// Seed 001's first listing's mapping and its inverse, as the listing writes them (the branches on
// the sign and on the MSB), made into flipcheck's two mapping functions.
uint flipcheck_encode(uint bits)
{
    float fvalue = asfloat(bits);
    uint uvalue = asuint(fvalue);
    if ((uvalue >> 31) == 0)
    {
        // The sign bit wasn't set, so set it temporarily.
        uvalue = uvalue | (1 << 31);
    }
    else
    {
        // In the case where we started with a negative value, take
        // the ones complement.
        uvalue = ~uvalue;
    }
    return uvalue;
}

uint flipcheck_decode(uint key)
{
    float result;
    if ((key >> 31) == 0)
    {
        result = asfloat(~key);
    }
    else
    {
        result = asfloat(key & ~(1u << 31));
    }
    return asuint(result);
}
