# Standalone: torch.sort on CUDA with a negative NaN, at 32 and 33 elements.
# python3 torch_sort_negative_nan.py
import torch
print("PyTorch", torch.__version__, "on", torch.cuda.get_device_name(0) if torch.cuda.is_available() else "no CUDA device")
NEG_NAN = {torch.float16: 0xFE00, torch.bfloat16: 0xFFC0, torch.float32: 0xFFC00000, torch.float64: 0xFFF8000000000000}
INT = {torch.float16: torch.int16, torch.bfloat16: torch.int16, torch.float32: torch.int32, torch.float64: torch.int64}
def signed(bits, width):
    return bits - (1 << width) if bits >> (width - 1) else bits
for device in ["cuda", "cpu"] if torch.cuda.is_available() else ["cpu"]:
    for dt, neg_nan in NEG_NAN.items():
        width = torch.finfo(dt).bits
        for n in (32, 33):
            x = torch.ones(n, dtype=dt, device=device)
            x[0] = torch.tensor(signed(neg_nan, width), dtype=INT[dt]).view(dt)  # -NaN first, then n-1 ones
            s = torch.sort(x).values
            where = "first" if torch.isnan(s[0]) else "last" if torch.isnan(s[-1]) else "elsewhere"
            print(f"{device} {str(dt)[6:]:8} n={n}: torch.sort puts the -NaN {where}; torch.sort(..., stable=True): "
                  f"{'first' if torch.isnan(torch.sort(x, stable=True).values[0]) else 'last'}")
