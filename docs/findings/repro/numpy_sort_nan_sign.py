# Standalone: NumPy's np.sort on float32/float64 arrays holding a negative NaN and a -0.
# python3 numpy_sort_nan_sign.py
from collections import Counter
import platform
import numpy as np

print("NumPy", np.__version__, "on", platform.machine())
try:
    from numpy._core._multiarray_umath import __cpu_features__ as f
except ImportError:
    from numpy.core._multiarray_umath import __cpu_features__ as f
print("AVX512_SKX:", f.get("AVX512_SKX"), " AVX2:", f.get("AVX2"))
for dt, u, neg_nan in ((np.float32, np.uint32, 0xFFC00000), (np.float64, np.uint64, 0xFFF8000000000000)):
    for n in (3, 16, 17, 64):
        bits = np.zeros(n, dtype=u)
        bits[0] = neg_nan  # -NaN
        bits[1] = 1 << (bits.itemsize * 8 - 1)  # -0, then +0s
        out = np.sort(bits.view(dt)).view(u)
        lost = Counter(bits.tolist()) - Counter(out.tolist())
        made = Counter(out.tolist()) - Counter(bits.tolist())
        what = "the multiset is kept" if not lost and not made else \
            "CHANGED: lost " + ", ".join(f"{hex(b)} x{c}" for b, c in lost.items()) + "; made " + ", ".join(f"{hex(b)} x{c}" for b, c in made.items())
        print(f"{np.dtype(dt).name} n={n}: input holds {hex(neg_nan)}, 0x80.., +0s; np.sort ends with {hex(int(out[-1]))}; {what}")
