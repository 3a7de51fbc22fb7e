"""Sharded runs as a cluster runs them, without a cluster (the real Slurm: slurm_test.py).

`--shard auto` under each engine's variables, manifests and `flipcheck merge` (a complete run equals
one process's; a dropped, damaged, duplicated or foreign shard is named), `flipcheck pairs`, and
`flipcheck plan`'s files (Slurm's scripts; Kubernetes' Indexed Job against the schema's required
fields). Run as `python3 scale_out_test.py NAME` (one ctest entry per NAME); FLIPCHECK is the binary.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

FLIPCHECK = os.environ["FLIPCHECK"]
ENGINE_VARS = ("SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_STEP",
               "JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX", "FLIPCHECK_SHARD", "FLIPCHECK_SHARD_COUNT")


def run(args, env=None, cwd=None):
    e = {k: v for k, v in os.environ.items() if k not in ENGINE_VARS}
    e.update(env or {})
    p = subprocess.run([FLIPCHECK] + args, env=e, cwd=cwd, capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout + p.stderr


def expect(cond, what, output=""):
    if not cond:
        raise AssertionError(what + ("\n--- output ---\n" + output if output else ""))


def manifest(folder, index, count):
    with open(os.path.join(folder, "shard-%05d-of-%05d.json" % (index, count))) as f:
        return json.load(f)


SWEEP = ["sweep", "--format", "binary16", "--mapping", "zeros_swapped", "--all"]


def sharded(folder, count, work=SWEEP, device=("--device", "cpu")):
    for i in range(count):
        rc, out = run(work + list(device) + ["--shard", "%d/%d" % (i, count), "--manifest", folder])
        expect(rc in (0, 1), "shard %d ended with %d" % (i, rc), out)


def test_shard_auto_per_engine():
    """Each engine's variables give the same shard as --shard i/n; disagreement and gaps are exit 2."""
    tmp = tempfile.mkdtemp()
    try:
        engines = {
            "slurm": {"SLURM_ARRAY_TASK_ID": "8", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "5"},
            # A rerun of one shard (`sbatch --array=3` on plan's script, which sets the count).
            "slurm-rerun": {"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "1", "SLURM_ARRAY_TASK_MIN": "3",
                            "FLIPCHECK_SHARD_COUNT": "4"},
            "kubernetes": {"JOB_COMPLETION_INDEX": "3", "FLIPCHECK_SHARD_COUNT": "4"},
            "aws-batch": {"AWS_BATCH_JOB_ARRAY_INDEX": "3", "FLIPCHECK_SHARD_COUNT": "4"},
            "FLIPCHECK_SHARD": {"FLIPCHECK_SHARD": "3/4"},
        }
        for engine, env in engines.items():
            folder = os.path.join(tmp, engine)
            rc, out = run(SWEEP + ["--device", "cpu", "--shard", "auto", "--manifest", folder], env)
            expect(rc == 0, engine + ": shard 3/4 of zeros_swapped on binary16 holds no failure", out)
            m = manifest(folder, 3, 4)
            expect(m["engine"] == engine.replace("-rerun", "") and m["shard"] == {"index": 3, "count": 4}, engine + ": wrong shard", json.dumps(m["shard"]))
            expect(m["range"] == {"begin": "0xc000", "end": "0x10000"}, engine + ": wrong range", json.dumps(m["range"]))
            expect("{index}/4" in m["rerun"], engine + ": the rerun command has no shard slot", json.dumps(m["rerun"]))
        refused = [
            ({}, "no shard in the environment"),
            ({"JOB_COMPLETION_INDEX": "1"}, "FLIPCHECK_SHARD_COUNT is not"),
            ({"SLURM_ARRAY_TASK_ID": "1"}, "neither SLURM_ARRAY_TASK_COUNT nor FLIPCHECK_SHARD_COUNT is"),
            ({"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "2", "SLURM_ARRAY_TASK_STEP": "2"}, "step 2"),
            ({"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "4", "FLIPCHECK_SHARD": "2/4"}, "refusing to guess"),
            ({"JOB_COMPLETION_INDEX": "4", "FLIPCHECK_SHARD_COUNT": "4"}, "below the count"),
            ({"FLIPCHECK_SHARD": "x"}, "expected i/n"),
        ]
        for env, message in refused:
            rc, out = run(SWEEP + ["--device", "cpu", "--shard", "auto"], env)
            expect(rc == 2 and message in out, "%s: expected exit 2 saying %r, got %d" % (env, message, rc), out)
    finally:
        shutil.rmtree(tmp)


def test_merge_equals_one_process():
    """Four shards merged give one process's counts, verdict and smallest counterexample."""
    tmp = tempfile.mkdtemp()
    try:
        one = os.path.join(tmp, "one.json")
        rc, out = run(SWEEP + ["--device", "cpu", "--json", one])
        expect(rc == 1, "zeros_swapped must fail", out)
        whole = json.load(open(one))
        sharded(tmp + "/m", 4)
        rc, out = run(["merge", tmp + "/m", "--json", tmp + "/merged.json"])
        expect(rc == 1 and "verdict: FAIL: 65536 keys checked (exhaustive), 2 failing" in out, "merged verdict", out)
        merged = json.load(open(tmp + "/merged.json"))
        expect(merged["failing"] == whole["failing_keys"], "failing keys differ", out)
        expect({k: v for k, v in merged["failures_by_law"].items() if v} == {k: v for k, v in whole["failures_by_law"].items() if v},
               "counts per law differ", out)
        expect(merged["smallest_counterexample"] == whole["counterexamples"][0], "smallest counterexample differs", out)
        expect(merged["coverage"] == "exhaustive" and merged["checked"] == "65536", "coverage", out)
        # A right mapping: PASS, exhaustive.
        sharded(tmp + "/right", 3, ["sweep", "--format", "binary16", "--mapping", "signed_key"])
        rc, out = run(["merge", tmp + "/right"])
        expect(rc == 0 and "verdict: PASS: 65536 keys checked (exhaustive), 0 failing" in out, "right mapping merged", out)
        # A range of keys is a range, never exhaustive.
        sharded(tmp + "/range", 2, ["sweep", "--format", "binary32", "--mapping", "signed_key", "--keys", "0:0x100000"])
        rc, out = run(["merge", tmp + "/range"])
        expect(rc == 0 and "verdict: PASS: 1048576 keys checked (range), 0 failing" in out, "a range merged", out)
    finally:
        shutil.rmtree(tmp)


def test_merge_names_a_dropped_shard_and_its_rerun():
    tmp = tempfile.mkdtemp()
    try:
        m = tmp + "/m"
        work = ["sweep", "--format", "binary16", "--mapping", "signed_key"]
        sharded(m, 4, work)
        os.remove(os.path.join(m, "shard-00002-of-00004.json"))
        rc, out = run(["merge", m, "--json", tmp + "/merged.json"])
        expect(rc == 5, "a dropped shard: exit 5 (incomplete), got %d" % rc, out)
        expect("missing: shard 2 of 4" in out and "INCOMPLETE" in out, "the dropped shard is not named", out)
        merged = json.load(open(tmp + "/merged.json"))
        expect(merged["shards"]["missing"] == [2] and merged["verdict"] == "incomplete", "JSON: missing", json.dumps(merged))
        # The rerun command merge prints restores the run.
        rerun = merged["rerun"]
        expect(len(rerun) == 1 and "--shard 2/4" in rerun[0], "the rerun command", json.dumps(rerun))
        p = subprocess.run(rerun[0], shell=True, capture_output=True, text=True)
        expect(p.returncode == 0, "the rerun failed", p.stdout + p.stderr)
        rc, out = run(["merge", m])
        expect(rc == 0 and "PASS" in out and "exhaustive" in out, "merge after the rerun", out)
    finally:
        shutil.rmtree(tmp)


def test_merge_refuses_duplicated_damaged_and_foreign_shards():
    tmp = tempfile.mkdtemp()
    try:
        m = tmp + "/m"
        work = ["sweep", "--format", "binary16", "--mapping", "signed_key"]
        sharded(m, 4, work)
        # Duplicated: the same shard under a second name.
        dup = os.path.join(m, "shard-00001-of-00004-copy.json")
        shutil.copy(os.path.join(m, "shard-00001-of-00004.json"), dup)
        rc, out = run(["merge", m])
        expect(rc == 2 and "shard 1 appears 2 times" in out, "a duplicated shard: exit 2 naming it", out)
        os.remove(dup)
        # Damaged: a count edited after the shard wrote it.
        path = os.path.join(m, "shard-00003-of-00004.json")
        good = open(path).read()
        doc = json.loads(good)
        doc["result"]["keys_checked"] = 1
        open(path, "w").write(json.dumps(doc))
        rc, out = run(["merge", m])
        expect(rc == 5 and "damaged:" in out and "(shard 3)" in out and "digest does not match" in out and "--shard 3/4" in out,
               "an edited manifest: exit 5, named, with its rerun", out)
        doc = json.loads(good)
        del doc["build"]  # outside the results' digest: its absence must still be caught
        open(path, "w").write(json.dumps(doc))
        rc, out = run(["merge", m])
        expect(rc == 5 and "(shard 3)" in out, "a manifest without its build: exit 5, named (never an internal error)", out)
        # key_bits edited (issue 59: outside the digest, two binary32 shards of 65,536 keys with
        # key_bits 16 merged to "every key, exhaustive"): the digest covers it now.
        doc = json.loads(good)
        doc["key_bits"] = 8
        open(path, "w").write(json.dumps(doc))
        rc, out = run(["merge", m])
        expect(rc == 5 and "(shard 3)" in out and "digest does not match" in out and "exhaustive" not in out,
               "a manifest whose key_bits was edited: exit 5, named, never exhaustive", out)
        open(path, "w").write(good[: len(good) // 2])  # cut short
        rc, out = run(["merge", m])
        expect(rc == 5 and "(shard 3)" in out, "a cut manifest: exit 5, named", out)
        open(path, "w").write(good)
        # Foreign: another shard count, another mapping, another build.
        other = tmp + "/other"
        sharded(other, 8, work)
        shutil.copy(os.path.join(other, "shard-00005-of-00008.json"), m)
        rc, out = run(["merge", m])
        expect(rc == 2 and "8 shards vs 4" in out, "a shard of another count: exit 2", out)
        os.remove(os.path.join(m, "shard-00005-of-00008.json"))
        doc = json.loads(good)
        doc["build"]["executable_digest"] = "0" * 32  # not in the results' digest: the build check must catch it
        open(path, "w").write(json.dumps(doc))
        rc, out = run(["merge", m])
        expect(rc == 2 and "another build" in out, "a shard of another build: exit 2", out)
        open(path, "w").write(good)
        rc, out = run(["merge", m])
        expect(rc == 0, "restored", out)
        rc, out = run(["merge", tmp + "/nothing-here"])
        expect(rc == 2 and "not a folder" in out, "a missing folder: exit 2", out)
        os.makedirs(tmp + "/empty")
        rc, out = run(["merge", tmp + "/empty"])
        expect(rc == 2 and "no shard-*.json manifests" in out, "an empty folder: exit 2", out)
    finally:
        shutil.rmtree(tmp)


def test_pairs_find_the_zeros_and_shard():
    """The max step of zeros_swapped fails exactly at (+0, -0) and (-0, +0); min likewise; shards merge to it."""
    tmp = tempfile.mkdtemp()
    try:
        # The rows of +0 and of -0, each with its neighbours.
        for rows, pair in (("0x0:0x100", ("0x0000", "0x8000", "0x8000", "0x0000")), ("0x7f00:0x8100", ("0x8000", "0x0000", "0x8000", "0x0000"))):
            rc, out = run(["pairs", "--format", "binary16", "--mapping", "zeros_swapped", "--rows", rows, "--device", "cpu", "--json", tmp + "/p.json"])
            expect(rc == 1, "zeros_swapped's max step must fail", out)
            p = json.load(open(tmp + "/p.json"))
            expect(p["failing_pairs"] == 1, "one failing pair", out)
            expect([(c["a"], c["b"], c["actual"], c["expected"]) for c in p["counterexamples"]] == [pair], "the pair", out)
        rows = "0x0:0x100"
        rc, out = run(["pairs", "--format", "binary16", "--mapping", "zeros_swapped", "--op", "min", "--rows", rows, "--device", "cpu"])
        expect(rc == 1 and "min(0x0000 = +0" in out and "totalOrder's min: 0x8000 = -0" in out, "min step", out)
        rc, out = run(["pairs", "--format", "binary16", "--mapping", "signed_key", "--rows", rows, "--device", "cpu"])
        expect(rc == 0 and "verdict: PASS: 256 rows checked" in out and "a range of rows" in out, "a right mapping", out)
        rc, out = run(["pairs", "--format", "float8_e4m3fn", "--mapping", "sign_flip", "--device", "cpu"])
        expect(rc == 0 and "every pair: exhaustive" in out, "every fp8 pair", out)
        rc, out = run(["pairs", "--format", "float8_e4m3fnuz", "--mapping", "sign_flip", "--device", "cpu"])
        expect(rc == 1, "an IEEE key on fnuz puts its NaN among the numbers: the max step fails", out)
        sharded(tmp + "/m", 4, ["pairs", "--format", "binary16", "--mapping", "zeros_swapped", "--rows", rows, "--all"])
        rc, out = run(["merge", tmp + "/m"])
        expect(rc == 1 and "failing pairs: 1" in out and "max(0x0000, 0x8000) gives 0x8000" in out and "(range)" in out, "pairs merged", out)
        for bad, message in ((["--format", "binary64"], "has no pair check"), (["--format", "float6_e2m3fn"], "has no pair check"),
                             (["--format", "binary16", "--rows", "5:5"], "END must be greater"),
                             (["--format", "binary16", "--rows", "0:0x10001"], "outside the codes")):
            rc, out = run(["pairs", "--mapping", "sign_flip"] + bad)
            expect(rc == 2 and message in out, "%s: exit 2 with %r" % (bad, message), out)
    finally:
        shutil.rmtree(tmp)


def test_plan_slurm_scripts():
    tmp = tempfile.mkdtemp()
    try:
        rc, out = run(["plan", "--engine", "slurm", "--shards", "16", "--manifest", tmp, "--format", "binary32", "--mapping", "signed_key",
                       "--price", "2.5", "--partition", "debug"])
        expect(rc == 0, "plan", out)
        for line in ("in 16 shards", "keys/s per task (measured here on cpu:", "1-CPU task-hours", "at 2.50 per 1-CPU task-hour",
                     "submit: sh "):
            expect(line in out, "plan says " + line, out)
        array = open(os.path.join(tmp, "flipcheck-array.sbatch")).read()
        for line in ("#SBATCH --array=0-15", "#SBATCH --requeue", "#SBATCH --partition=debug", "--shard auto", "--manifest " + tmp,
                     "--keys 0x0:0x100000000", "--threads 1", "#SBATCH --cpus-per-task=1", "export FLIPCHECK_SHARD_COUNT=16"):
            expect(line in array, "the array script has " + line, array)
        expect(os.access(os.path.join(tmp, "submit.sh"), os.X_OK), "submit.sh is executable")
        submit = open(os.path.join(tmp, "submit.sh")).read()
        expect("--dependency=afterany:" in submit, "the merge waits for the array", submit)
        merge = open(os.path.join(tmp, "flipcheck-merge.sbatch")).read()
        expect(" merge " + tmp in merge, "the merge job merges the folder", merge)
        subprocess.run(["sh", "-n", os.path.join(tmp, "submit.sh")], check=True)
        subprocess.run(["sh", "-n", os.path.join(tmp, "flipcheck-array.sbatch")], check=True)
        # GPU shards on a machine without a GPU need a rate measured elsewhere.
        rc, out = run(["plan", "--engine", "slurm", "--shards", "4096", "--manifest", tmp, "--workload", "pairs", "--format", "binary32",
                       "--mapping", "signed_key", "--device", "gpu", "--rate", "2.5e11", "--price", "3"])
        expect(rc == 0 and "#SBATCH --gres=gpu:1" in open(os.path.join(tmp, "flipcheck-array.sbatch")).read(), "a GPU plan", out)
        # 2^64 pairs at 2.5e11 pairs/s: 2^64 / 2.5e11 / 3600 = 20496.4 GPU-hours, 61489.15 at 3 an hour.
        expect("2.05e+04 GPU-hours" in out and "61489.15 at 3.00 per GPU-hour" in out, "the projection is the arithmetic", out)
        for bad, message in ((["--shards", "0"], "--shards"), (["--keys", "1:1"], "END must be greater"),
                             (["--workload", "pairs", "--keys", "0:4"], "--keys is for --workload sweep"),
                             (["--format", "binary64"], "give --keys"), (["--shards", "99999999"], "--shards")):
            args = ["plan", "--engine", "slurm", "--shards", "4", "--manifest", tmp, "--format", "binary32", "--mapping", "signed_key"]
            for i in range(0, len(bad), 2):
                if bad[i] in args:
                    args[args.index(bad[i]) + 1] = bad[i + 1]
                else:
                    args += bad[i:i + 2]
            rc, out = run(args)
            expect(rc == 2 and message in out, "%s: exit 2 with %r" % (bad, message), out)
    finally:
        shutil.rmtree(tmp)


def test_plan_k8s_indexed_job_schema():
    """The Indexed Job and the merge Job have what batch/v1's schema requires, and run what a shard runs."""
    import yaml
    tmp = tempfile.mkdtemp()
    try:
        rc, out = run(["plan", "--engine", "k8s", "--shards", "12", "--manifest", "/results", "--out", tmp, "--format", "binary16",
                       "--mapping", "format_key", "--workload", "pairs", "--image", "registry.example/flipcheck:1", "--rate", "1e9"])
        expect(rc == 0, "plan k8s", out)
        job = yaml.safe_load(open(os.path.join(tmp, "flipcheck-shards.yaml")))
        merge = yaml.safe_load(open(os.path.join(tmp, "flipcheck-merge.yaml")))
        import re
        for doc in (job, merge):
            expect(doc["apiVersion"] == "batch/v1" and doc["kind"] == "Job", "apiVersion/kind", json.dumps(doc))
            name = doc["metadata"]["name"]
            expect(re.fullmatch(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?", name) and len(name) <= 63, "metadata.name is a DNS-1123 label: " + name)
            pod = doc["spec"]["template"]["spec"]
            expect(pod["restartPolicy"] in ("Never", "OnFailure"), "a Job's pods restart Never or OnFailure", json.dumps(pod))
            expect(len(pod["containers"]) >= 1, "containers", json.dumps(pod))
            for c in pod["containers"]:
                expect(c["name"] and c["image"] == "registry.example/flipcheck:1" and isinstance(c["command"], list), "container", json.dumps(c))
                mounts = {v["name"] for v in c.get("volumeMounts", [])}
                expect(mounts <= {v["name"] for v in pod.get("volumes", [])}, "every mount has a volume", json.dumps(pod))
                expect(c["volumeMounts"][0]["mountPath"] == "/results", "the manifest folder is mounted", json.dumps(c))
        spec = job["spec"]
        expect(spec["completionMode"] == "Indexed" and spec["completions"] == 12 and spec["parallelism"] == 12, "Indexed, 12", json.dumps(spec))
        expect(spec["backoffLimitPerIndex"] >= 0 and spec["maxFailedIndexes"] <= spec["completions"], "per-index limits", json.dumps(spec))
        c = spec["template"]["spec"]["containers"][0]
        expect({"name": "FLIPCHECK_SHARD_COUNT", "value": "12"} in c["env"], "the count reaches --shard auto", json.dumps(c))
        cmd = c["command"]
        expect(cmd[:2] == ["flipcheck", "pairs"] and cmd[cmd.index("--shard") + 1] == "auto" and cmd[cmd.index("--manifest") + 1] == "/results",
               "the shard command", json.dumps(cmd))
        expect(merge["spec"]["template"]["spec"]["containers"][0]["command"][:3] == ["flipcheck", "merge", "/results"], "the merge command",
               json.dumps(merge))
        # The pod's command runs here as shard 5 of 12 would, with the variables Kubernetes sets.
        folder = os.path.join(tmp, "results")
        local = cmd[1:]
        local[local.index("--manifest") + 1] = folder
        rc, out = run(local, {"JOB_COMPLETION_INDEX": "5", "FLIPCHECK_SHARD_COUNT": "12"})
        expect(rc == 0 and manifest(folder, 5, 12)["engine"] == "kubernetes", "the pod's command as shard 5", out)
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    tests = {n[5:]: f for n, f in globals().items() if n.startswith("test_")}
    if len(sys.argv) != 2 or sys.argv[1] not in tests:
        sys.exit("usage: scale_out_test.py " + "|".join(tests))
    tests[sys.argv[1]]()
    print("ok: " + sys.argv[1])
