# Standalone: cupyx.scatter_max / scatter_min of subnormal values into one index.
# python3 cupyx_scatter_max_subnormal.py
import cupy as cp
import cupyx
import numpy as np

print("CuPy", cp.__version__, "on", cp.cuda.runtime.getDeviceProperties(0)["name"].decode())
for dt, ut in ((np.float32, np.uint32), (np.float64, np.uint64)):
    tiny = np.array([1], dtype=ut).view(dt)[0]  # denorm_min
    for values in ([-tiny, tiny], [tiny], [tiny, tiny * 3], [dt(1e-40) if dt == np.float32 else dt(1e-310)]):
        x = cp.asarray(np.array(values, dtype=dt))
        for name, init in (("scatter_max", -np.inf), ("scatter_min", np.inf)):
            out = cp.full(1, init, dtype=dt)
            getattr(cupyx, name)(out, cp.zeros(x.size, dtype=cp.int64), x)
            want = (np.max if name == "scatter_max" else np.min)(np.array(values, dtype=dt))
            got = cp.asnumpy(out)[0]
            print(f"{np.dtype(dt).name} {name}({[hex(int(v)) for v in np.array(values, dtype=dt).view(ut)]}) = "
                  f"{hex(int(np.array([got], dtype=dt).view(ut)[0]))}, numpy says {hex(int(np.array([want], dtype=dt).view(ut)[0]))}"
                  f"{'' if got == want and np.signbit(got) == np.signbit(want) else '  <- DIFFERS'}")
