#!/usr/bin/env bash
# cli/output.cpp's promise: an output is written only where flipcheck may write it. A plain file
# gets a temporary file renamed onto it (a link's target, the link kept); a standard stream, a
# device or a FIFO is written in place, never renamed onto; a FIFO nobody reads, a device or FIFO
# as a checkpoint, and two outputs in one file are bad input (exit 2) at once, never a hang.
# As root it also runs the system's own /dev/stdout and /dev/stderr, in a mount namespace whose
# /dev is a copy: a regression must not replace the machine's link (it once did).
set -uo pipefail
flipcheck=${1:?usage: output_test.sh FLIPCHECK files|system-links}
part=${2:?usage: output_test.sh FLIPCHECK files|system-links}
work=$(mktemp -d "${TMPDIR:-/tmp}/flipcheck_output.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
check() {  # check WHAT CONDITION [FILE TO SHOW]
  if eval "$2"; then echo "ok:   $1"; else echo "FAIL: $1"; [ -n "${3:-}" ] && sed 's/^/      /' "$3"; failures=1; fi
}
sweep=(sweep --format binary16 --mapping sign_flip --device cpu)

if [ "$part" = files ]; then
# A link to standard output, made here: the report and then the JSON in the redirect, the link kept.
ln -s /proc/self/fd/1 "$work/stdout-link"
"$flipcheck" "${sweep[@]}" --json "$work/stdout-link" >"$work/out" 2>&1; rc=$?
check "--json LINK-TO-STDOUT: exit 0" '[ $rc -eq 0 ]' "$work/out"
check "--json LINK-TO-STDOUT: the link is still a link" '[ -L "$work/stdout-link" ]'
check "--json LINK-TO-STDOUT: report, then the JSON, in the redirect" \
  'grep -q "^verdict: PASS" "$work/out" && grep -q "\"schema\": 1" "$work/out" && [ "$(grep -n "^verdict" "$work/out" | cut -d: -f1)" -lt "$(grep -n "\"schema\"" "$work/out" | cut -d: -f1)" ]' "$work/out"

# A link to a plain file: the JSON goes to its target, and the link stays.
: >"$work/target.json"
ln -s "$work/target.json" "$work/link.json"
"$flipcheck" "${sweep[@]}" --json "$work/link.json" >"$work/out" 2>&1; rc=$?
check "--json LINK-TO-FILE: exit 0, the link kept, the target written" '[ $rc -eq 0 ] && [ -L "$work/link.json" ] && grep -q "\"schema\": 1" "$work/target.json"' "$work/out"

# The file standard output already goes to, by its own name: two writers, one file.
"$flipcheck" "${sweep[@]}" --json "$work/same" >"$work/same" 2>"$work/err"; rc=$?
check "--json FILE >FILE: exit 2, said why" '[ $rc -eq 2 ] && grep -q "is the file standard output already goes to" "$work/err"' "$work/err"

# A FIFO with a reader gets the JSON; one with none is refused at once (never waited on).
mkfifo "$work/fifo"
timeout 60 cat "$work/fifo" >"$work/from-fifo" &
reader=$!
"$flipcheck" "${sweep[@]}" --json "$work/fifo" >"$work/out" 2>&1; rc=$?
wait "$reader"
check "--json FIFO (read): exit 0, the JSON through it" '[ $rc -eq 0 ] && grep -q "\"schema\": 1" "$work/from-fifo"' "$work/out"
timeout 60 "$flipcheck" "${sweep[@]}" --json "$work/fifo" >"$work/out" 2>&1; rc=$?
check "--json FIFO (no reader): exit 2 at once, said why" '[ $rc -eq 2 ] && grep -q "no process is reading that FIFO" "$work/out"' "$work/out"

# A checkpoint is a plain file: /dev/zero was read forever, a FIFO waited on, /dev/full renamed onto.
for c in /dev/zero /dev/full "$work/fifo"; do
  timeout 60 "$flipcheck" "${sweep[@]}" --checkpoint "$c" >"$work/out" 2>&1; rc=$?
  check "--checkpoint $c: exit 2, not a regular file" '[ $rc -eq 2 ] && grep -q "is not a regular file" "$work/out"' "$work/out"
done
check "/dev/full is still a character device" '[ -c /dev/full ]'

# Two outputs, one file: the report would overwrite the checkpoint.
timeout 60 "$flipcheck" "${sweep[@]}" --checkpoint "$work/one" --json "$work/one" >"$work/out" 2>&1; rc=$?
check "--checkpoint F --json F: exit 2" '[ $rc -eq 2 ] && grep -q "name the same file" "$work/out"' "$work/out"
timeout 60 "$flipcheck" "${sweep[@]}" --checkpoint "$work/two" --json "$work/./two" >"$work/out" 2>&1; rc=$?
check "--checkpoint F --json ./F: exit 2" '[ $rc -eq 2 ] && grep -q "name the same file" "$work/out"' "$work/out"

fi

# The system's own links, as root, in a private /dev.
if [ "$part" != system-links ]; then
  :
elif [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
  cat >"$work/in-namespace.sh" <<'NS'
set -u
work=$1 flipcheck=$2
mkdir "$work/realdev" && mount --bind /dev "$work/realdev" && mount -t tmpfs tmpfs /dev || exit 90
for n in null zero full random urandom; do : >"/dev/$n" && mount --bind "$work/realdev/$n" "/dev/$n" || exit 91; done
ln -s /proc/self/fd /dev/fd && ln -s /proc/self/fd/1 /dev/stdout && ln -s /proc/self/fd/2 /dev/stderr || exit 92
"$flipcheck" sweep --format binary16 --mapping sign_flip --device cpu --json /dev/stdout >"$work/dev-stdout" 2>&1
echo "stdout rc $? link $([ -L /dev/stdout ] && echo kept || echo REPLACED)"
"$flipcheck" sweep --format binary16 --mapping sign_flip --device cpu --json /dev/stderr >/dev/null 2>"$work/dev-stderr"
echo "stderr rc $? link $([ -L /dev/stderr ] && echo kept || echo REPLACED)"
NS
  unshare -m bash "$work/in-namespace.sh" "$work" "$flipcheck" >"$work/ns" 2>&1
  check "as root: --json /dev/stdout >FILE: exit 0, /dev/stdout still a link" 'grep -q "stdout rc 0 link kept" "$work/ns"' "$work/ns"
  check "as root: /dev/stdout's JSON reached the redirect" 'grep -q "\"schema\": 1" "$work/dev-stdout"' "$work/dev-stdout"
  check "as root: --json /dev/stderr 2>FILE: exit 0, /dev/stderr still a link" 'grep -q "stderr rc 0 link kept" "$work/ns"' "$work/ns"
  check "as root: /dev/stderr's JSON reached the redirect" 'grep -q "\"schema\": 1" "$work/dev-stderr"' "$work/dev-stderr"
elif [ "${FLIPCHECK_REQUIRE_ROOT_TESTS:-0}" = 1 ]; then
  echo "FAIL: FLIPCHECK_REQUIRE_ROOT_TESTS=1 but this is not root with mount namespaces"; failures=1
else
  echo "SKIPPED: the system's /dev/stdout case needs root and mount namespaces"
  exit 0
fi
[ "$failures" -eq 0 ] && echo "output_test: all cases right" || echo "output_test: some cases wrong"
exit "$failures"
