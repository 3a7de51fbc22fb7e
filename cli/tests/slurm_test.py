"""A sharded run on a real Slurm: the daemons of slurm/fixture.sh (munged, slurmctld, slurmd on this
machine, all state in FLIPCHECK_SLURM_DIR), `flipcheck plan`'s job array of 16 shards over every
binary32 key of wrong_at_pi (a mapping wrong at one key, in shard 12), shard 12 killed before it runs,
the merge job (a dependent job) calling the run INCOMPLETE, not a pass, and naming it and the sbatch line that reruns it, that line run, and the
merged verdict equal to one process's. Modes: start | run | stop (CTest's fixture setup, test and
cleanup). Without root or Slurm's packages the test is skipped (exit 77) with the reason, unless
FLIPCHECK_REQUIRE_SLURM=1 (CI sets it): then that is a failure.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "slurm", "fixture.sh")
DIR = os.environ["FLIPCHECK_SLURM_DIR"]
REQUIRED = os.environ.get("FLIPCHECK_REQUIRE_SLURM") == "1"
SKIP = 77


def skip(reason):
    if REQUIRED:
        sys.exit("FLIPCHECK_REQUIRE_SLURM=1 but the Slurm test cannot run: " + reason)
    print("SKIPPED: " + reason)
    sys.exit(SKIP)


def sh(args, env=None, check=True, timeout=120):
    p = subprocess.run(args, env=env, capture_output=True, text=True, timeout=timeout)
    if check and p.returncode != 0:
        raise AssertionError("%s exited %d\n%s%s" % (" ".join(args), p.returncode, p.stdout, p.stderr))
    return p


def expect(cond, what, output=""):
    if not cond:
        raise AssertionError(what + ("\n--- output ---\n" + output if output else ""))


def wait_for(jobs, env, limit=600):
    t0 = time.time()
    while time.time() - t0 < limit:
        out = sh(["squeue", "-h", "-j", ",".join(jobs)], env, check=False).stdout
        if not out.strip():
            return
        time.sleep(0.5)
    raise AssertionError("jobs %s still queued after %d s:\n%s" % (jobs, limit, out))


def run():
    if sh(["sh", FIXTURE, "status", DIR], check=False).returncode != 0:
        skip("the Slurm fixture did not start (see the scale_out.slurm_start test)")
    flipcheck = os.environ["FLIPCHECK"]
    env = dict(os.environ, SLURM_CONF=os.path.join(DIR, "slurm.conf"))
    for v in list(env):
        if v.startswith("SLURM_") and v != "SLURM_CONF" or v in ("FLIPCHECK_SHARD", "FLIPCHECK_SHARD_COUNT"):
            del env[v]
    work = os.path.join(DIR, "run")
    manifests = os.path.join(work, "manifests")
    shutil.rmtree(work, ignore_errors=True)  # a previous run's manifests
    os.makedirs(work)
    # One process: the reference.
    one = os.path.join(work, "one.json")
    p = sh([flipcheck, "sweep", "--format", "binary32", "--mapping", "wrong_at_pi", "--all", "--device", "cpu", "--json", one], check=False,
           timeout=600)
    expect(p.returncode == 1, "wrong_at_pi must fail in one process", p.stdout + p.stderr)
    whole = json.load(open(one))
    # The plan, submitted held so that shard 12 can be killed before it runs.
    p = sh([flipcheck, "plan", "--engine", "slurm", "--shards", "16", "--manifest", manifests, "--format", "binary32", "--mapping",
            "wrong_at_pi", "--device", "cpu"], env)
    p = sh(["sh", os.path.join(manifests, "submit.sh")], dict(env, SBATCH_HOLD="1"))
    m = re.search(r"shards: job (\d+); merge: job (\d+)", p.stdout)
    expect(m is not None, "submit.sh names its jobs", p.stdout + p.stderr)
    array, merge = m.group(1), m.group(2)
    sh(["scancel", array + "_12"], env)
    sh(["scontrol", "release", array], env)
    sh(["scontrol", "release", merge], env)
    wait_for([array, merge], env)
    # (A pending task cancelled before it ran leaves no job record: its missing manifest is the trace.)
    expect(not os.path.exists(os.path.join(manifests, "shard-00012-of-00016.json")), "shard 12 was cancelled before it ran")
    expect(os.path.exists(os.path.join(manifests, "shard-00005-of-00016.json")), "the other shards ran")
    # The merge job ran after the array and named shard 12, with the line that reruns it.
    log = open(os.path.join(manifests, "logs", "merge.log")).read()
    # wrong_at_pi breaks a law at one key, in shard 12: without it no shard failed, and the merge
    # must not call that a pass.
    expect("missing: shard 12 of 16" in log and "verdict: INCOMPLETE" in log, "the merge job names the killed shard", log)
    merged = json.load(open(os.path.join(manifests, "merged.json")))
    expect(merged["verdict"] == "incomplete" and merged["coverage"] == "partial" and merged["shards"]["missing"] == [12],
           "merged.json: shard 12 missing", json.dumps(merged))
    rerun = re.search(r"or, with Slurm: (sbatch --array=12 \S+)", log)
    expect(rerun is not None, "the merge names the sbatch line", log)
    # Requeue it with that line.
    p = sh(["sh", "-c", rerun.group(1).replace("sbatch ", "sbatch --parsable ", 1)], env)
    wait_for([p.stdout.strip().split(";")[0]], env)
    out = sh([flipcheck, "merge", manifests, "--json", os.path.join(work, "merged2.json")], check=False)
    expect(out.returncode == 1, "the merged verdict is FAIL, as one process's", out.stdout + out.stderr)
    merged = json.load(open(os.path.join(work, "merged2.json")))
    expect(merged["coverage"] == "exhaustive" and merged["checked"] == "4294967296", "every key, exhaustive", out.stdout)
    expect(merged["failing"] == whole["failing_keys"], "failing keys: merged %s, one process %s" % (merged["failing"], whole["failing_keys"]), out.stdout)
    expect({k: v for k, v in merged["failures_by_law"].items() if v} == {k: v for k, v in whole["failures_by_law"].items() if v},
           "counts per law", out.stdout)
    expect(merged["smallest_counterexample"] == whole["counterexamples"][0], "the smallest counterexample", out.stdout)
    m12 = json.load(open(os.path.join(manifests, "shard-00012-of-00016.json")))
    expect(m12["engine"] == "slurm" and m12["shard"] == {"index": 12, "count": 16}, "the rerun is shard 12 of 16", json.dumps(m12["shard"]))
    print(out.stdout)


def main():
    mode = sys.argv[1] if len(sys.argv) == 2 else ""
    if mode == "start":
        p = subprocess.run(["sh", FIXTURE, "start", DIR], capture_output=True, text=True, timeout=120)
        sys.stdout.write(p.stdout + p.stderr)
        if p.returncode == SKIP:
            skip((p.stdout + p.stderr).strip() or "the fixture cannot run here")
        sys.exit(p.returncode)
    elif mode == "stop":
        sys.exit(subprocess.run(["sh", FIXTURE, "stop", DIR], timeout=120).returncode)
    elif mode == "run":
        run()
        print("ok")
    else:
        sys.exit("usage: slurm_test.py start|run|stop")


if __name__ == "__main__":
    main()
