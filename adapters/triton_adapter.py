#!/usr/bin/env python3
"""Triton through flipcheck's adapter format (protocol.py), on the GPU: tl.max and tl.argmax in a
one-program kernel over a power-of-two block, and tl.atomic_max/atomic_min of every element into one
address (a program an element: atomics under contention; on each dtype this Triton compiles them
for), on float16, bfloat16, float32 and float64. The
block's tail is masked with the identity (-inf for max, +inf for min), as Triton code does; an
index at or past n is reported as it is (it is wrong). Inputs longer than one block (2^14) are
answered "skip": the audit counts them and does not judge them (`flipcheck check`, which takes no
skip, gets blocks up to 2^18, past its large arrays' 2^17 + 33). And the conversions float32 ->
tl.float8e4nv, tl.float8e5, tl.float16 and tl.bfloat16 by x.to(dtype, fp_downcast_rounding=...) in a
kernel, declared as the PTX Triton emits for them on sm_90: cvt.rn.satfinite for the float8 types
(saturating), cvt.rn / cvt.rz for the 16-bit ones (overflow to infinity, or to the largest value
toward zero).

Compiled and interpreted: with protocol.both_ways() (by default under `flipcheck check --adapter`,
or $FLIPCHECK_WAYS=both) every reducer is listed twice, "NAME [compiled]" and "NAME [interpreted]":
the same kernel source run by Triton's interpreter (TRITON_INTERPRET=1, on NumPy; their
disagreement is how triton-lang/triton#10291 was found). The interpreted kernels run in a worker
process (this file with --interpreter-worker) started with TRITON_INTERPRET=1, on CPU tensors:
Triton reads the variable where it decorates with @triton.jit (os.getenv in triton/runtime/jit.py
up to 3.3, knobs.runtime.interpret from 3.4), and that includes triton.language's own @jit functions
(tl.max, tl.argmax, ...) when triton.language is imported. A second copy of a kernel decorated with
the variable set in a process whose Triton was imported without it is an InterpretedFunction whose
tl.max is still a JITFunction: it raises "Cannot call @triton.jit'd outside of the scope of a kernel"
(Triton 3.6). Without both ways (the audit's default) the subjects are the compiled ones, named as
before (no label)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import protocol  # noqa: E402

torch = triton = tl = None
TYPES = {}
KERNELS = {}
DEVICE = "cuda"  # where this process's kernels take their tensors (the interpreter's worker: "cpu")
INTERPRETER = None  # the worker process (protocol.Worker) that runs the interpreted kernels

COMPILED, INTERPRETED = "compiled", "interpreted"


def load():
    global torch, triton, tl, TYPES
    import torch as t
    import triton as tr
    import triton.language as tlang
    if not t.cuda.is_available():
        raise RuntimeError("no CUDA device for Triton")
    torch, triton, tl = t, tr, tlang
    TYPES = {"binary16": (t.float16, t.int16), "bfloat16": (t.bfloat16, t.int16),
             "binary32": (t.float32, t.int32), "binary64": (t.float64, t.int64)}
    build()
    version = f"{tr.__version__} (torch {t.__version__}, {t.cuda.get_device_name()})"
    if protocol.both_ways():
        global INTERPRETER
        if type(KERNELS["reduce"]).__name__ in ("InterpretedFunction", "GridSelector"):
            raise RuntimeError("TRITON_INTERPRET=1 is set, so the compiled way would be interpreted too: unset it "
                               "(the interpreted twins run in a process of their own)")
        # The interpreter's worker, started now, so that its start is not counted in a case's time. One
        # that cannot start (a Triton without the interpreter) leaves the compiled subjects checked and
        # makes every interpreted answer the error it gave.
        INTERPRETER = protocol.Worker([sys.executable, os.path.abspath(__file__), "--interpreter-worker"],
                                      dict(os.environ, TRITON_INTERPRET="1"), "Triton's interpreter worker")
        try:
            version += f"; interpreted: {INTERPRETER.start()}"
        except Exception as e:  # noqa: BLE001 - reported with every interpreted answer
            version += f"; interpreted: unavailable ({type(e).__name__}: {e})"
    return version


def jit(fn):
    """@triton.jit, or on Triton 2.1 (whose jit took interpret=) the interpreter where this process
    runs with TRITON_INTERPRET=1."""
    if os.environ.get("TRITON_INTERPRET") == "1":
        import inspect
        try:
            if "interpret" in inspect.signature(triton.jit).parameters:
                return triton.jit(fn, interpret=True)
        except (TypeError, ValueError):  # a signature inspect cannot read: the variable decides
            pass
    return triton.jit(fn)


def build():
    def reduce_kernel(x_ptr, out_ptr, idx_ptr, n, IS_MAX: tl.constexpr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        pad = float("-inf") if IS_MAX else float("inf")
        x = tl.load(x_ptr + offs, mask=offs < n, other=pad)
        if IS_MAX:
            tl.store(out_ptr, tl.max(x, axis=0))
            tl.store(idx_ptr, tl.argmax(x, axis=0))
        else:
            tl.store(out_ptr, tl.min(x, axis=0))
            tl.store(idx_ptr, tl.argmin(x, axis=0))
    KERNELS["reduce"] = jit(reduce_kernel)

    def convert_kernel(x_ptr, y_ptr, n, DTYPE: tl.constexpr, ROUND: tl.constexpr, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask)
        tl.store(y_ptr + offs, x.to(DTYPE, fp_downcast_rounding=ROUND), mask=mask)
    KERNELS["convert"] = jit(convert_kernel)

    def atomic_kernel(x_ptr, out_ptr, IS_MAX: tl.constexpr):
        x = tl.load(x_ptr + tl.program_id(0))
        if IS_MAX:
            tl.atomic_max(out_ptr, x)
        else:
            tl.atomic_min(out_ptr, x)
    KERNELS["atomic"] = jit(atomic_kernel)


def signed(b, width):
    return b - (1 << width) if b >= 1 << (width - 1) else b


MAX_BLOCK = 1 << 14  # one program's block in the audit; longer inputs are left out (counted, not judged)
CHECK_MAX_BLOCK = 1 << 18  # under `flipcheck check`, which takes no skip: its large arrays are 2^17 + 33 at most


def max_block():
    return CHECK_MAX_BLOCK if protocol.SERVING else MAX_BLOCK


def reduce_bits(fmt, bits, is_max, block):
    """The reduce kernel on one array in this process: (the value's bits, the index)."""
    f, i = TYPES[fmt]
    w = protocol.WIDTH[fmt]
    x = torch.tensor([signed(b, w) for b in bits], dtype=i, device=DEVICE).view(f)
    out = torch.empty(1, dtype=f, device=DEVICE)
    idx = torch.empty(1, dtype=torch.int32, device=DEVICE)
    # Past 2^14 elements (check's large arrays only) more warps: a thread holds 128 elements, as at
    # 2^14 with the default 4 warps, up to 2^17 (32 warps), and 256 at 2^18. The audit's blocks keep
    # the default.
    extra = {"num_warps": min(32, block // (1 << 12))} if block > MAX_BLOCK else {}
    KERNELS["reduce"][(1,)](x, out, idx, len(bits), IS_MAX=is_max, BLOCK=block, **extra)
    return out.view(i).item() & ((1 << w) - 1), int(idx.item())


def atomic_bits(fmt, bits, is_max):
    """tl.atomic_max/min of every element into one address in this process, a program an element
    (every program on one address), the address starting at the identity (-inf for max, +inf for min)."""
    f, i = TYPES[fmt]
    w = protocol.WIDTH[fmt]
    out = torch.full((1,), float("-inf") if is_max else float("inf"), dtype=f, device=DEVICE)
    if bits:
        x = torch.tensor([signed(b, w) for b in bits], dtype=i, device=DEVICE).view(f)
        KERNELS["atomic"][(len(bits),)](x, out, IS_MAX=is_max)
    return out.view(i).item() & ((1 << w) - 1)


# One launch answers both the value and the index subject (tl.max and tl.argmax ask the same inputs
# one after the other): the answers of recent launches, by way, format, op and the input's digest.
_launches = {}
_LAUNCHES_KEPT = 1 << 20


def _digest(bits):
    import hashlib
    from array import array
    return hashlib.blake2b(array("Q", bits).tobytes(), digest_size=16).digest()


def run(fmt, bits, is_max, way=COMPILED):
    if not bits:
        raise ValueError("a Triton block needs at least one element")
    if len(bits) > max_block():
        why = f"longer than one {max_block()}-element block"
        if protocol.SERVING:
            raise ValueError(why)
        return protocol.Skip(why), protocol.Skip(why)
    key = (way, fmt, is_max, _digest(bits))
    got = _launches.get(key)
    if got is None:
        block = max(16, triton.next_power_of_2(len(bits)))
        if way == INTERPRETED:
            got = tuple(INTERPRETER.call("reduce", fmt, bits, is_max, block))
        else:
            got = reduce_bits(fmt, bits, is_max, block)
        if len(_launches) >= _LAUNCHES_KEPT:
            _launches.clear()
        _launches[key] = got
    return got


def atomic(fmt, bits, is_max, way=COMPILED):
    if way == INTERPRETED:
        return INTERPRETER.call("atomic", fmt, bits, is_max)
    return atomic_bits(fmt, bits, is_max)


def compiles(fmt, is_max):
    """Whether this Triton compiles tl.atomic_max/min on the dtype (it takes fewer dtypes than tl.max)."""
    try:
        atomic(fmt, [{"binary16": 0x3C00, "bfloat16": 0x3F80, "binary32": 0x3F800000, "binary64": 0x3FF0000000000000}[fmt]], is_max)
        return True
    except Exception:  # noqa: BLE001 - a compile error, whatever Triton raises for it
        return False


def subjects():
    # Both ways: each subject's compiled way, then its interpreted twin (the same kernel source); the
    # interpreted atomics are listed wherever the compiled ones compile (what the interpreter does
    # with the others is its answer).
    ways = (COMPILED, INTERPRETED) if INTERPRETER is not None else (None,)
    out = []
    for fmt, (f, _) in TYPES.items():
        name = str(f).replace("torch.", "")
        for op, is_max in (("max", True), ("min", False)):
            if compiles(fmt, is_max):
                for way in ways:
                    out.append((protocol.way_name(f"tl.atomic_{op}, one address <{name}>", way), "value", op, fmt,
                                lambda b, fmt=fmt, is_max=is_max, way=way: atomic(fmt, b, is_max, way or COMPILED)))
        for base, kind, op, is_max, part in (("tl.max", "value", "max", True, 0), ("tl.argmax", "arg", "max", True, 1),
                                             ("tl.min", "value", "min", False, 0), ("tl.argmin", "arg", "min", False, 1)):
            for way in ways:
                out.append((protocol.way_name(f"{base} <{name}>", way), kind, op, fmt,
                            lambda b, fmt=fmt, is_max=is_max, part=part, way=way: run(fmt, b, is_max, way or COMPILED)[part]))
    return out


class Conversion:
    """x.to(dtype, fp_downcast_rounding=rounding) in convert_kernel: on a NumPy array of bits, or on
    a chunk of every input made on the GPU (walk_chunk_codes)."""

    def __init__(self, tl_type, torch_type, rounding):
        self.tl_type, self.torch_type, self.rounding = tl_type, torch_type, rounding

    def codes(self, x):
        y = torch.empty(x.numel(), dtype=self.torch_type, device="cuda")
        block = 1024
        KERNELS["convert"][(triton.cdiv(x.numel(), block),)](x, y, x.numel(), DTYPE=self.tl_type, ROUND=self.rounding, BLOCK=block)
        if self.torch_type.itemsize == 1:
            return y.view(torch.uint8).cpu().numpy()
        return y.view(torch.int16).cpu().numpy().view("uint16")

    def __call__(self, b):
        return self.codes(torch.from_numpy(b.view("int32")).cuda().view(torch.float32))

    def walk_chunk_codes(self, first, n):
        m = torch.arange(first, first + n, dtype=torch.int64, device="cuda")
        x = torch.stack([m, m | 0x80000000], dim=1).reshape(-1)
        return self.codes(torch.where(x >= 1 << 31, x - (1 << 32), x).to(torch.int32).view(torch.float32))


def conversions():
    types = [("float8e4nv", "float8_e4m3fn", "rtne", "nearest_even", "finite"), ("float8e5", "float8_e5m2", "rtne", "nearest_even", "finite"),
             ("float16", "float16", "rtne", "nearest_even", "infinity"), ("float16", "float16", "rtz", "toward_zero", "infinity"),
             ("bfloat16", "bfloat16", "rtne", "nearest_even", "infinity"), ("bfloat16", "bfloat16", "rtz", "toward_zero", "infinity")]
    element = {"float8e4nv": "float8_e4m3fn", "float8e5": "float8_e5m2", "float16": "binary16", "bfloat16": "bfloat16"}
    torch_type = {"float8e4nv": torch.float8_e4m3fn, "float8e5": torch.float8_e5m2, "float16": torch.float16, "bfloat16": torch.bfloat16}
    return [(f"x.to(tl.{t}, fp_downcast_rounding=\"{r}\")", "binary32", element[t], {"round": rd, "saturate": sat},
             Conversion(getattr(tl, t), torch_type[t], r)) for t, _, r, rd, sat in types]


def interpreter_worker():
    """The worker's side (this file with --interpreter-worker, TRITON_INTERPRET=1 in its environment,
    set before triton is imported): the same kernels, interpreted, on CPU tensors."""
    def setup():
        global torch, triton, tl, TYPES, DEVICE
        if os.environ.get("TRITON_INTERPRET") != "1":
            raise RuntimeError("the interpreter's worker needs TRITON_INTERPRET=1 in its environment")
        import torch as t
        import triton as tr
        import triton.language as tlang
        torch, triton, tl = t, tr, tlang
        TYPES = {"binary16": (t.float16, t.int16), "bfloat16": (t.bfloat16, t.int16),
                 "binary32": (t.float32, t.int32), "binary64": (t.float64, t.int64)}
        build()
        kind = type(KERNELS["reduce"]).__name__
        if kind == "JITFunction":
            raise RuntimeError(f"Triton {tr.__version__} compiled a kernel decorated under TRITON_INTERPRET=1: no interpreter")
        # The interpreter of Triton 2.2 on (InterpretedFunction) copies a tensor's storage to the host
        # and back around each launch, and runs there: CPU tensors spare the copies. Triton 2.1's ran
        # torch on the GPU.
        DEVICE = "cpu" if kind == "InterpretedFunction" else "cuda"
        return (f"Triton {tr.__version__} {kind} (TRITON_INTERPRET=1, {DEVICE} tensors)",
                {"reduce": lambda fmt, bits, is_max, block: list(reduce_bits(fmt, bits, is_max, block)),
                 "atomic": atomic_bits})
    protocol.worker_main(setup)


if __name__ == "__main__":
    if sys.argv[1:] == ["--interpreter-worker"]:
        interpreter_worker()
    else:
        protocol.main("Triton", load, subjects, conversions)
