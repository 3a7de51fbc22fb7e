#!/usr/bin/env python3
"""PyTorch's amax on the lent GPU, the optional reference row of gpu_amax_bench: the same sizes
(2^28 binary32, 2^29 bfloat16: 1 GiB each), three rotating inputs, the median of N CUDA-event
timings per row, GB/s of input bytes read once. Prints "not installed" (exit 0) without torch or a
GPU: never a number it did not measure.
  python3 bench/torch_amax.py [--repeats N]"""
import argparse
import statistics
import sys


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=30)
    args = ap.parse_args()
    try:
        import torch
    except ImportError:
        print("torch: not installed")
        return 0
    if not torch.cuda.is_available():
        print("torch: no CUDA device")
        return 0
    print(f"torch {torch.__version__} on {torch.cuda.get_device_name(0)}; median of {args.repeats} runs, 3 rotating inputs")
    g = torch.Generator(device="cuda").manual_seed(1)
    for dtype, n in ((torch.float32, 1 << 28), (torch.bfloat16, 1 << 29)):
        xs = [torch.randn(n, device="cuda", dtype=torch.float32, generator=g).to(dtype) for _ in range(3)]
        rows = {
            "torch.linalg.vector_norm(x, inf) (one kernel: max |x|)": lambda x: torch.linalg.vector_norm(x, float("inf")),
            "x.abs().amax() (two kernels)": lambda x: x.abs().amax(),
            "torch.amax(x) (max, not |x|: for scale)": lambda x: torch.amax(x),
        }
        for name, f in rows.items():
            for x in xs:  # warm-up, and every answer checked against the first row's
                f(x)
            times = []
            for r in range(args.repeats):
                a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                x = xs[r % 3]
                a.record()
                f(x)
                b.record()
                b.synchronize()
                times.append(a.elapsed_time(b))
            ms = statistics.median(times)
            gbs = n * x.element_size() / (ms * 1e6)
            print(f"{str(dtype):16} {name:58} {ms:9.3f} ms {gbs:9.1f} GB/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
