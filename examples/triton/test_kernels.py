"""One test per kernel (pytest, or `python3 test_kernels.py`): the right kernels pass; the
known-wrong ones must fail, with flipcheck's shrunk counterexample in the report. A user's own
test is the first form: `fc.check(my_kernel_bits, ...)`, no expected failure."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernels  # noqa: E402
from kernels import fc  # noqa: E402

kernels.load()  # Triton and a CUDA device, or the import fails: an error, never a pass


def must_fail(fn, **declared):
    try:
        fc.check(fn, **declared)
    except fc.CheckFailed as e:
        return str(e)
    raise AssertionError(f"{fn.__name__} is known wrong, and flipcheck passed it")


def test_amax_bits():
    fc.check(kernels.amax_bits, kind="amax", format="binary32", declares=kernels.AMAX)


def test_amax_float_max_is_caught():
    report = must_fail(kernels.amax_float_max, kind="amax", format="binary32", declares=kernels.AMAX)
    assert "nan" in report


def test_argmax_sign_bit():
    fc.check(kernels.argmax_sign_bit, kind="arg", op="max", format="binary32", declares=kernels.ARGMAX)


def test_argmax_sign_test_is_caught():
    report = must_fail(kernels.argmax_sign_test, kind="arg", op="max", format="binary32", declares=kernels.ARGMAX)
    assert "-0" in report


if __name__ == "__main__":
    for name, test in list(globals().items()):
        if name.startswith("test_"):
            test()
            print(f"{name}: ok")
