#!/usr/bin/env python3
"""adapters/flipcheck_pytest.py as a user's test calls it (no pytest needed): the right functions of
served_subjects_adapter.py pass and return the verdict; the known-wrong ones raise CheckFailed (an
AssertionError) whose message holds the shrunk case, and the case file replays; a bad declaration
is an error, not a failure; a function that raises fails on its input. $FLIPCHECK is the binary."""
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "adapters"))
sys.path.insert(0, os.path.join(HERE, "adapters"))
import flipcheck_pytest as fc  # noqa: E402
import served_subjects_adapter as s  # noqa: E402

P = "nan=propagate zero=ordered ties=lowest_index"


def expect_failure(fn, minimal, **kw):
    try:
        fc.check(fn, cases=200, **kw)
    except fc.CheckFailed as e:
        assert isinstance(e, AssertionError)
        assert f"case: {minimal}" in str(e), str(e)
        assert f'case="{fn.__name__}.case"' in str(e), str(e)
        with open(f"{fn.__name__}.case") as f:
            assert f.read() == minimal + "\n"
        return
    raise AssertionError(f"{fn.__name__} is known wrong and passed")


def main():
    os.chdir(tempfile.mkdtemp(prefix="flipcheck_pytest_test_"))
    v = fc.check(s.right_max, kind="value", op="max", format="binary32", declares="nan=propagate zero=ordered", cases=200)
    assert v["verdict"] == "pass" and v["subjects"][0]["subject"] == "right_max", v
    fc.check(s.right_argmax, kind="arg", format="binary32", declares=P, cases=200)
    fc.check(s.right_amax, kind="amax", format="binary32", declares="nan=propagate", cases=200)
    expect_failure(s.max_by_comparison, "binary32: 0x00000000,0x7fc00000", kind="value", format="binary32",
                   declares="nan=propagate zero=ordered")
    expect_failure(s.argmax_sign_by_comparison, "binary32: 0x80000000,0x00000000", kind="arg", format="binary32", declares=P)
    expect_failure(s.amax_by_abs_comparison, "binary32: 0x7fc00000", kind="amax", format="binary32", declares="nan=propagate")
    # The case file replays: the wrong function fails on it alone, its right twin passes it.
    try:
        fc.check(s.argmax_sign_by_comparison, kind="arg", format="binary32", declares=P, case="argmax_sign_by_comparison.case")
        raise AssertionError("the replay passed")
    except fc.CheckFailed as e:
        assert "1 replay cases" in str(e), str(e)
    fc.check(s.right_argmax, kind="arg", format="binary32", declares=P, case="argmax_sign_by_comparison.case")
    # A function that raises on an input it must answer fails on that input.
    def raises_past_one(bits):
        if len(bits) > 1:
            raise ValueError("two or more")
        return bits[0] if bits else None
    try:
        fc.check(raises_past_one, kind="value", format="binary32", declares="nan=total_order", cases=50)
        raise AssertionError("a function that raises passed")
    except fc.CheckFailed as e:
        assert "ValueError: two or more" in str(e), str(e)
    # A function that hangs fails, and the test ends (issue 59: it blocked forever).
    def hangs_on_three(bits):
        if len(bits) >= 3:
            import time
            time.sleep(3600)
        return max(bits) if bits else None
    try:
        fc.check(hangs_on_three, kind="value", format="binary32", declares="nan=total_order", cases=50, timeout=2)
        raise AssertionError("a function that hangs passed")
    except fc.CheckFailed as e:
        assert "answered nothing for 2 s" in str(e), str(e)
    # Bad declarations and kinds: errors, never a pass or a failure.
    for bad in (dict(declares="nan=maybe"), dict(declares="zero=equal"), dict(format="binary8")):
        kw = dict(kind="value", format="binary32", declares="nan=propagate")
        kw.update(bad)
        try:
            fc.check(s.right_max, **kw)
            raise AssertionError(f"{bad} passed")
        except fc.CheckFailed:
            raise AssertionError(f"{bad} read as a failure of the function")
        except RuntimeError as e:
            assert "exit 2" in str(e), str(e)
    try:
        fc.check(s.right_max, kind="sort", format="binary32", declares="nan=propagate")
        raise AssertionError("kind sort passed")
    except ValueError:
        pass
    under_pytest()
    print("flipcheck_pytest: every path as documented")


def under_pytest():
    """As pytest shows a failure (issue 59): flipcheck's report and the user's own line, not the
    helper's source (check() hides its frame with __tracebackhide__)."""
    import subprocess
    # This Python's pytest, or Debian's (scripts/bootstrap installs python3-pytest for /usr/bin/python3;
    # a machine's own python3 may be another one, as run/src/adapter.cpp also allows for).
    pythons = [p for p in (sys.executable, "/usr/bin/python3")
               if subprocess.run([p, "-c", "import pytest"], capture_output=True).returncode == 0]
    if not pythons:
        raise AssertionError("pytest is missing: scripts/bootstrap installs python3-pytest")
    with open("test_users_code.py", "w") as f:
        f.write("import sys\n"
                f"sys.path[:0] = [{os.path.join(HERE, '..', '..', 'adapters')!r}, {os.path.join(HERE, 'adapters')!r}]\n"
                "import flipcheck_pytest as fc\n"
                "import served_subjects_adapter as s\n\n\n"
                "def test_my_max():\n"
                "    fc.check(s.max_by_comparison, kind='value', format='binary32', declares='nan=propagate zero=ordered', cases=200)\n")
    r = subprocess.run([pythons[0], "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_users_code.py"],
                       capture_output=True, text=True)
    out = r.stdout + r.stderr
    assert r.returncode == 1, out
    assert "breaks what it declares" in out and "case: binary32: 0x00000000,0x7fc00000" in out, out
    assert "fc.check(s.max_by_comparison" in out, out  # the user's line
    for helper_line in ("protocol.serve(", "def check(", "raise CheckFailed("):
        assert helper_line not in out, f"pytest shows the helper's source ({helper_line}):\n{out}"


if __name__ == "__main__":
    main()
