#!/usr/bin/env bash
# Progress as a person sees it (cli/progress.hpp). On a terminal the status line of a long step is
# drawn in place and must never end up in front of a report line: each command runs under
# `script` (a pseudo-terminal for stdout and stderr, as in a shell), and what the terminal received
# is replayed (carriage return, erase to the end of the line, newline) into the screen it leaves.
# Into a file, the same step writes plain "progress:" lines instead.
# Each case makes its step last past the status line's 2 s, so that the line is drawn for real
# (checked in the raw bytes): a test whose status line never appeared would prove nothing.
set -uo pipefail
flipcheck=${1:?usage: progress_test.sh FLIPCHECK SLOW_PLUGIN ADAPTERS_DIR}
plugin=${2:?}
adapters=${3:?}
work=$(mktemp -d "${TMPDIR:-/tmp}/flipcheck_progress.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
if ! command -v script >/dev/null; then echo "FAIL: script(1) is missing (Debian: bsdutils, an essential package)"; exit 1; fi

# The screen a terminal shows after receiving FILE's bytes.
screen() {
  python3 - "$1" <<'EOF'
import sys
raw = open(sys.argv[1], encoding="utf-8", errors="replace", newline="").read()  # keeps \r as it came
lines, row, col, i = [[]], 0, 0, 0
while i < len(raw):
    if raw.startswith("\x1b[K", i):
        del lines[row][col:]
        i += 3
        continue
    c = raw[i]
    if c == "\r":
        col = 0
    elif c == "\n":
        row += 1
        col = 0
        if row == len(lines):
            lines.append([])
    else:
        line = lines[row]
        line.extend(" " * (col - len(line)))
        if col < len(line):
            line[col] = c
        else:
            line.append(c)
        col += 1
    i += 1
print("\n".join("".join(l) for l in lines))
EOF
}

# on_terminal NAME STATUS_TEXT WHOLE_LINE... -- ENV... -- ARGS...: the status line (STATUS_TEXT)
# was drawn, each WHOLE_LINE is a whole line of the screen, and nothing of the status is left on it.
on_terminal() {
  local name=$1 status=$2
  shift 2
  local whole=()
  while [ "$1" != "--" ]; do whole+=("$1"); shift; done
  shift
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  local cmd
  cmd=$(printf '%q ' env "${envs[@]}" "$flipcheck" "$@")
  script -qec "$cmd" /dev/null >"$work/raw" 2>&1 </dev/null
  screen "$work/raw" >"$work/screen"
  local ok=1
  grep -qF "$status" "$work/raw" || { echo "FAIL: $name: the status line ('$status') was never drawn"; ok=0; }
  for w in "${whole[@]}"; do
    grep -qxF "$w" "$work/screen" || { echo "FAIL: $name: no whole line '$w' on the screen"; ok=0; }
  done
  if grep -qF "$status" "$work/screen"; then echo "FAIL: $name: the status line is still on the screen"; ok=0; fi
  if [ $ok = 1 ]; then
    echo "ok:   $name"
  else
    echo "      screen:"; sed 's/^/        /' "$work/screen"; failures=1
  fi
}

# A plug-in's subject, in its own process, that prints a line of its own 4 s in, then passes.
on_terminal "check --plugin: the child's lines and the result" "subject lying_map ... " \
  "a line the library printed, then its sweep" \
  "lying_map (binary32 mapping, exhaustive sweep of 4294967296 keys): pass" \
  "verdict: PASS: 1 subject checked, none failed" -- \
  FLIPCHECK_TEST_SLOW=4 -- check --plugin "$plugin" --subject lying_map

# A library whose constructor hangs: the status line of its opening (from 2 s), then its failure (5 s).
on_terminal "check --plugin: a hang while opening" "opening $plugin ... " \
  "verdict: FAIL: the plug-in could not be opened, no subject checked" -- \
  FLIPCHECK_TEST_OPEN=constructor_hang -- check --plugin "$plugin" --timeout 5

# An adapter's function whose first call takes 4 s: the status line counts the subjects.
on_terminal "check --adapter: the rows and the verdict" "the adapter's subjects ... 2 s: 0.0% (0 of 1 subjects)" \
  "verdict: PASS: 1 subject checked, none failed" -- \
  FLIPCHECK_TEST_SLOW=4 -- check --adapter "python3 $adapters/served_subjects_adapter.py" --subject right.max --cases 100
grep -qE "^right\.max .*pass" "$work/screen" || { echo "FAIL: check --adapter: right.max's row is not a whole line"; failures=1; }

# Into a file: plain lines, one per beat, nothing drawn in place.
FLIPCHECK_TEST_SLOW=4 "$flipcheck" check --plugin "$plugin" --subject lying_map >"$work/out" 2>"$work/err"
if grep -q "^progress: subject lying_map still running after 2 s$" "$work/err" && ! grep -q $'\r' "$work/err" "$work/out" &&
   grep -qx "a line the library printed, then its sweep" "$work/out"; then
  echo "ok:   into a file: plain progress lines, the library's line in the report"
else
  echo "FAIL: into a file"; sed 's/^/      /' "$work/err" "$work/out"; failures=1
fi

exit $failures
