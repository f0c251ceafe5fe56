#!/usr/bin/env bash
# upskill_side_by_side.sh - upskill 0.2.1 and Skillforge on the same skill, tests and embedded model.
#
# Issue 33's closing note asks for this run: the same hidden skill, the same upskill test file, N repeats,
# the embedded local model (llama-server with qwen2.5-coder-1.5b), with and without the skill, one tool
# after the other; wall time, requests, tokens and passes of both; and the numbers of the import/export
# round trip between the two tools' run formats.
#
# What it does, in order:
#   1. upskill: starts llama-server itself (the same flags Skillforge's LocalModelServer uses: 4 slots of
#      16384 tokens each, no unified KV cache, --jinja), points fast-agent's "generic" (OpenAI-compatible)
#      provider at it with a fastagent.config.yaml, and runs `upskill eval SKILL --tests FILE --runs 1`
#      RUNS times. (`--runs N` with N > 1 switches upskill into its benchmark mode, which runs only the
#      with-skill arm; `--runs 1` runs both arms, so each repeat is its own batch.) Stops the server.
#   2. Skillforge: `skillforge eval SKILL --tests FILE --model local:MODEL --runs RUNS`; Skillforge starts
#      and stops its own llama-server for local: models.
#   3. One table: tool, wall s, requests, input/output tokens, passes with / without the skill. Each tool's
#      numbers come from its own files:
#        upskill:    run_N/run_result.json (passes: assertions_passed of assertions_total; requests: turns;
#                    its input/output tokens, which are 0 with fast-agent 0.10.48: issue 33, item 5) and,
#                    for the tokens, the session histories fast-agent keeps beside them
#                    (.fast-agent/sessions/*/history_*.json, usage channel "fast-agent.usage/v2").
#        Skillforge: the run folder's results.jsonl (one line per item: arm, passed, turns, usage).
#   4. Round trip: `upskill runs` on upskill's batches; `skillforge runs import` of them (pass rates and
#      verdict from `skillforge report --format json`); `skillforge runs export --to upskill` of the
#      imported runs and of Skillforge's own run, each read back by `upskill runs`.
#
# Environment (all optional except UPSKILL_VENV):
#   UPSKILL_VENV   the virtual environment upskill is installed in (needs bin/upskill and bin/python);
#                  UPSKILL=path/to/upskill may name the executable instead
#   SKILL_DIR      skill folder (default: tests/bench/upskill-side-by-side/tidewater-changelog)
#   TESTS          upskill test file (default: tests/bench/upskill-side-by-side/tests.json)
#   RUNS           repeats per case and arm (default 3)
#   CASES          use only the first CASES cases of TESTS (default 0: all); for smoke runs
#   SKILLFORGE     the skillforge CLI (default: build/ci/bin/skillforge)
#   SKILLFORGE_LLAMA_SERVER, SKILLFORGE_LOCAL_MODEL   llama-server and the GGUF (Skillforge's own variables;
#                  default: ~/.cache/skillforge/bin/llama-server and the one GGUF in ~/.cache/skillforge/models)
#   LOCAL_MODEL_NAME  the name in local:NAME (default qwen2.5-coder-1.5b)
#   PORT           port for upskill's llama-server (default 8091)
#   SERVER_THREADS llama-server --threads for upskill's server (default: nproc, as Skillforge does)
#   OUT            output folder (default: a new /tmp/upskill-side-by-side.XXXXXX)
#   SKIP_UPSKILL=1, SKIP_SKILLFORGE=1   reuse that tool's part of an earlier run in OUT (its files and recorded
#                  wall time) instead of running it again, e.g. to redo the table and the round trip
#
# Full run (issue 33 measured 4 to 8 minutes per tool for this size on an idle two-core machine; run nothing
# else meanwhile, or the times mean little):
#   UPSKILL_VENV=/root/.cache/upskill-trial/venv tests/bench/upskill_side_by_side.sh
# Smoke run:
#   UPSKILL_VENV=... CASES=1 RUNS=1 tests/bench/upskill_side_by_side.sh
#
# Exit status: 0 when both tools ran and the table was printed; 1 when a step failed (it says which).

set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"

die() { echo "upskill_side_by_side: $*" >&2; exit 1; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# --- inputs ------------------------------------------------------------------------------------------------
if [[ -n "${UPSKILL:-}" ]]; then
    upskill="$UPSKILL"
    py="$(dirname "$upskill")/python"
elif [[ -n "${UPSKILL_VENV:-}" ]]; then
    upskill="$UPSKILL_VENV/bin/upskill"
    py="$UPSKILL_VENV/bin/python"
else
    die "set UPSKILL_VENV to the virtual environment upskill 0.2.1 is installed in (it needs bin/upskill), e.g.
  UPSKILL_VENV=/root/.cache/upskill-trial/venv $0
(or UPSKILL=/path/to/bin/upskill)"
fi
[[ -x "$upskill" ]] || die "no upskill executable at $upskill"
[[ -x "$py" ]] || py="$(command -v python3)" || die "no Python next to $upskill and none on PATH"
"$upskill" --version >/dev/null 2>&1 || die "$upskill --version fails: is upskill installed in that environment?"

skill_dir="$(cd "${SKILL_DIR:-$here/upskill-side-by-side/tidewater-changelog}" && pwd)" || die "no skill folder"
tests_in="${TESTS:-$here/upskill-side-by-side/tests.json}"
[[ -f "$tests_in" ]] || die "no tests file at $tests_in"
[[ -f "$skill_dir/SKILL.md" ]] || die "no SKILL.md in $skill_dir"
runs="${RUNS:-3}"
cases="${CASES:-0}"
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive number, not '$runs'"
[[ "$cases" =~ ^[0-9]+$ ]] || die "CASES must be a number, not '$cases'"

skillforge="${SKILLFORGE:-$repo/build/ci/bin/skillforge}"
[[ -x "$skillforge" ]] || die "no skillforge CLI at $skillforge (build it, or set SKILLFORGE)"

cache="${SKILLFORGE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/skillforge}"
llama_server="${SKILLFORGE_LLAMA_SERVER:-$cache/bin/llama-server}"
gguf="${SKILLFORGE_LOCAL_MODEL:-$(ls "$cache"/models/*.gguf 2>/dev/null | head -1)}"
[[ -x "$llama_server" ]] || die "no llama-server at '$llama_server' (scripts/setup-local-model, or SKILLFORGE_LLAMA_SERVER)"
[[ -f "$gguf" ]] || die "no model at '$gguf' (scripts/setup-local-model, or SKILLFORGE_LOCAL_MODEL)"
model_name="${LOCAL_MODEL_NAME:-qwen2.5-coder-1.5b}"
port="${PORT:-8091}"
threads="${SERVER_THREADS:-$(nproc)}"

out="${OUT:-$(mktemp -d /tmp/upskill-side-by-side.XXXXXX)}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
echo "output folder: $out"

# The test file both tools read: the given one, or its first CASES cases (same shape: a list or {"cases"}).
tests="$out/tests.json"
"$py" - "$tests_in" "$tests" "$cases" <<'EOF'
import json, sys
src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
data = json.load(open(src, encoding="utf-8"))
cases = data["cases"] if isinstance(data, dict) else data
if n:
    cases = cases[:n]
json.dump({"cases": cases}, open(dst, "w", encoding="utf-8"), indent=2)
print(f"tests: {len(cases)} case(s) from {src}")
EOF

# --- 1. upskill ------------------------------------------------------------------------------------------
server_pid=""
stop_server() {
    if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    server_pid=""
}
trap stop_server EXIT

if [[ "${SKIP_UPSKILL:-}" == 1 ]]; then
    upskill_wall="$(cat "$out/upskill/wall_s" 2>/dev/null)" || die "SKIP_UPSKILL=1 but $out/upskill has no earlier run"
    echo "== upskill: reusing $out/upskill (wall $upskill_wall s)"
else
if curl -s -o /dev/null "http://127.0.0.1:$port/health"; then
    die "something already listens on port $port; set PORT to a free one"
fi

rm -rf "$out/upskill"
mkdir -p "$out/upskill/runs"
echo
echo "== upskill: llama-server on port $port ($threads threads, 4 slots), then $runs x upskill eval --runs 1"
t0="$(now)"
# The same flags Skillforge's LocalModelServer passes (core/llm/LocalModelServer.cpp): 4 slots of 16384 tokens.
"$llama_server" --host 127.0.0.1 --port "$port" -m "$gguf" -c $((16384 * 4)) --parallel 4 --no-kv-unified \
    --threads "$threads" --jinja --no-webui >"$out/upskill/llama-server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 240); do
    curl -sf -o /dev/null "http://127.0.0.1:$port/health" && break
    kill -0 "$server_pid" 2>/dev/null || die "llama-server exited; see $out/upskill/llama-server.log"
    sleep 0.5
done
curl -sf -o /dev/null "http://127.0.0.1:$port/health" || die "llama-server did not come up in 120 s"
t_server="$(now)"
echo "server up in $(elapsed "$t0" "$t_server") s"

for rep in $(seq 1 "$runs"); do
    # Each repeat in its own working folder: fast-agent reads fastagent.config.yaml from there and keeps its
    # session histories (the only place the tokens are) in its .fast-agent/; upskill names a batch after the
    # minute it started, so two repeats in one minute would share (and overwrite) one batch folder otherwise.
    # The folder holds no skills/ (upskill's evaluator card loads ./skills into both arms).
    wd="$out/upskill/rep$rep"
    mkdir -p "$wd"
    cat >"$wd/fastagent.config.yaml" <<EOF
# fast-agent's OpenAI-compatible provider, pointed at the llama-server this script started.
default_model: generic.$model_name
generic:
  api_key: local
  base_url: http://127.0.0.1:$port/v1
logger:
  progress_display: false
  show_chat: false
  show_tools: false
EOF
    echo "-- upskill eval, repeat $rep of $runs"
    # --model, not -m: fast-agent reads sys.argv too, and its -m is --message.
    # ANTHROPIC_API_KEY: upskill's test_gen agent card names model "opus", and fast-agent builds every card's
    # model at start; with no key it refuses to start. Tests come from the file, so that agent is never called;
    # a placeholder key (never a real one) lets it start.
    rc=0
    (cd "$wd" && COLUMNS=120 NO_COLOR=1 ANTHROPIC_API_KEY=placeholder-test-gen-is-not-called \
        "$upskill" eval "$skill_dir" --tests "$tests" --model "generic.$model_name" --runs 1 \
        --runs-dir "$wd/runs" -v) >"$wd/eval.log" 2>&1 || rc=$?
    sed 's/^/   /' "$wd/eval.log" | grep -vE '^\s*$' | tail -12
    [[ $rc -eq 0 ]] || die "upskill eval failed (exit $rc); see $wd/eval.log"
    for batch in "$wd"/runs/*/; do
        [[ -f "$batch/batch_summary.json" ]] || die "upskill wrote no batch_summary.json in $batch"
        cp -r "$batch" "$out/upskill/runs/$(basename "$batch")-rep$rep"
    done
done
stop_server
t1="$(now)"
upskill_wall="$(elapsed "$t0" "$t1")"
echo "$upskill_wall" >"$out/upskill/wall_s"
echo "upskill wall: $upskill_wall s (server start included)"
fi

# --- 2. Skillforge ---------------------------------------------------------------------------------------
if [[ "${SKIP_SKILLFORGE:-}" == 1 ]]; then
    skillforge_wall="$(cat "$out/skillforge/wall_s" 2>/dev/null)" ||
        die "SKIP_SKILLFORGE=1 but $out/skillforge has no earlier run"
    echo "== Skillforge: reusing $out/skillforge (wall $skillforge_wall s)"
else
echo
echo "== Skillforge: skillforge eval --model local:$model_name --runs $runs"
rm -rf "$out/skillforge"
mkdir -p "$out/skillforge/runs"
t0="$(now)"
rc=0
"$skillforge" eval "$skill_dir" --tests "$tests" --model "local:$model_name" --runs "$runs" \
    --out "$out/skillforge/runs" >"$out/skillforge/eval.log" 2>"$out/skillforge/eval.err" || rc=$?
t1="$(now)"
skillforge_wall="$(elapsed "$t0" "$t1")"
sed 's/^/   /' "$out/skillforge/eval.log" | tail -30
# Exit 1 is "a gate was not met" (there are none here); 3 is "not finished" (items ended in errors).
if [[ $rc -ne 0 && $rc -ne 1 ]]; then
    tail -20 "$out/skillforge/eval.err" >&2
    die "skillforge eval failed (exit $rc); see $out/skillforge/eval.err"
fi
echo "$skillforge_wall" >"$out/skillforge/wall_s"
echo "Skillforge wall: $skillforge_wall s (its own server start included)"
fi
sf_json="$(ls -t "$out"/skillforge/runs/*/run.json 2>/dev/null | head -1)" || true
[[ -n "$sf_json" ]] || die "Skillforge wrote no run folder under $out/skillforge/runs"
sf_run="$(dirname "$sf_json")"
[[ -f "$sf_run/results.jsonl" ]] || die "Skillforge wrote no results.jsonl in $sf_run"
echo "Skillforge run folder: $sf_run"

# --- 3. the table ----------------------------------------------------------------------------------------
echo
echo "== side by side: $("$py" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["cases"]))' "$tests") case(s) x $runs repeat(s), local model $model_name"
"$py" - "$out" "$sf_run" "$upskill_wall" "$skillforge_wall" <<'EOF'
import glob, json, os, sys

out, sf_run, upskill_wall, sf_wall = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]

# upskill: passes, turns and its own token counts from run_result.json; the tokens again from fast-agent's
# session histories, which record each provider request (usage v1 "turn" or v2 "provider_attempts").
u = {"baseline": [0, 0], "with_skill": [0, 0]}
turns = 0
own_in = own_out = 0
for path in glob.glob(os.path.join(out, "upskill", "runs", "*", "run_*", "run_result.json")):
    r = json.load(open(path, encoding="utf-8"))
    arm = u[r.get("run_type", "with_skill")]
    arm[0] += r.get("assertions_passed", 0)
    arm[1] += r.get("assertions_total", 0)
    s = r.get("stats", {})
    turns += s.get("turns", 0)
    own_in += s.get("input_tokens", 0)
    own_out += s.get("output_tokens", 0)

requests = hist_in = hist_out = 0
for path in glob.glob(os.path.join(out, "upskill", "rep*", ".fast-agent", "sessions", "*", "history_*.json")):
    data = json.load(open(path, encoding="utf-8"))
    for msg in data.get("messages", data if isinstance(data, list) else []):
        for item in (msg.get("channels") or {}).get("fast-agent-usage", []):
            try:
                usage = json.loads(item.get("text", ""))
            except (ValueError, AttributeError):
                continue
            attempts = usage.get("provider_attempts")
            if attempts is not None:  # fast-agent.usage/v2
                for a in attempts:
                    requests += 1
                    hist_in += int((a.get("prompt") or {}).get("total") or 0)
                    hist_out += int((a.get("completion") or {}).get("total") or 0)
            elif isinstance(usage.get("turn"), dict):  # v1
                requests += 1
                hist_in += int(usage["turn"].get("input_tokens") or 0)
                hist_out += int(usage["turn"].get("output_tokens") or 0)

# Skillforge: one line per item; a line for an item run again (--resume) supersedes the earlier one.
items = {}
for line in open(os.path.join(sf_run, "results.jsonl"), encoding="utf-8"):
    if line.strip():
        r = json.loads(line)
        items[(r.get("model"), r.get("case"), r.get("arm"), r.get("repeat"))] = r
s = {"baseline": [0, 0], "skill": [0, 0]}
sf_req = sf_in = sf_out = sf_err = 0
for r in items.values():
    arm = s["baseline" if r.get("arm") == "baseline" else "skill"]
    arm[1] += 1
    arm[0] += 1 if r.get("passed") else 0
    sf_err += 1 if r.get("error") else 0
    sf_req += r.get("turns", 0)
    us = r.get("usage") or {}
    sf_in += sum(int(us.get(k) or 0) for k in ("uncached_input", "cache_read", "cache_write_5m", "cache_write_1h"))
    sf_out += int(us.get("output") or 0) + int(us.get("reasoning") or 0)

def frac(p):
    return f"{p[0]} of {p[1]}"

rows = [
    ("tool", "wall s", "requests", "input tok", "output tok", "with skill", "without"),
    ("upskill 0.2.1", upskill_wall, str(requests), str(hist_in), str(hist_out),
     frac(u["with_skill"]), frac(u["baseline"])),
    ("Skillforge", sf_wall, str(sf_req), str(sf_in), str(sf_out), frac(s["skill"]), frac(s["baseline"])),
]
widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
for n, row in enumerate(rows):
    print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))))
    if n == 0:
        print("  ".join("-" * w for w in widths))
print()
print(f"upskill: requests and tokens from fast-agent's session histories; upskill's own run_result.json says "
      f"{turns} turns, {own_in} input and {own_out} output tokens (fast-agent 0.10.48's usage/v2 is not read "
      f"by upskill 0.2.1). Passes: assertions_passed of assertions_total, summed over the batches.")
print(f"Skillforge: from {os.path.relpath(os.path.join(sf_run, 'results.jsonl'), out)}; "
      f"{len(items)} items, {sf_err} ended in an error. Wall times include each tool's llama-server start.")
EOF

# --- 4. round trip ---------------------------------------------------------------------------------------
# upskill runs prints with rich; a plain, wide console keeps its panel readable in a log.
upskill_runs() { (cd "$out" && COLUMNS=120 NO_COLOR=1 TERM=dumb "$upskill" runs -d "$1" 2>&1) | grep -vE '^\s*$' | sed 's/^/   /'; }
# A Skillforge run's pass rates and verdict, from its JSON report.
sf_summary() {
    local run="$1" json="$out/roundtrip/report-$(basename "$1").json"
    "$skillforge" report "$run" --format json -o "$json" >/dev/null 2>"$json.err" || {
        echo "   skillforge report failed: $(tail -3 "$json.err")"; return 0; }
    "$py" - "$json" <<'EOF'
import json, sys
run = json.load(open(sys.argv[1], encoding="utf-8"))["run"]
params = run.get("manifest", {}).get("parameters", {})
if params.get("imported_from"):
    print(f"   imported from {params['imported_from']} ({params.get('format')}, granularity "
          f"{params.get('granularity')}, paired {params.get('paired')})")
# Pass rates per model and arm over all cases (summary.arms, split "all"), as the report states them.
for a in (run.get("summary") or {}).get("arms", []):
    if a.get("split") not in (None, "all"):
        continue
    pr = a.get("pass_rate") or {}
    ci = pr.get("ci95") or {}
    tokens = (a.get("tokens") or {}).get("mean")
    print(f"   {a.get('model')} {a.get('arm')}: {pr.get('successes')} of {pr.get('trials')} passed "
          f"({(pr.get('rate') or 0) * 100:.0f}%, 95% CI {(ci.get('low') or 0) * 100:.0f}-{(ci.get('high') or 0) * 100:.0f}%), "
          f"{a.get('errors')} errors, mean tokens {tokens}")
for c in (run.get("summary") or {}).get("comparisons", []):
    ci = c.get("lift_ci95") or {}
    print(f"   lift {c.get('model')} [{c.get('split')}]: {(c.get('lift') or 0) * 100:+.1f} points "
          f"(95% CI {(ci.get('low') or 0) * 100:+.1f} to {(ci.get('high') or 0) * 100:+.1f}), "
          f"McNemar p = {c.get('mcnemar_p')}, {c.get('pairs')} pairs")
# The verdict per model and split (core/eval/Verdict.cpp's JSON).
verdicts = (run.get("verdicts") or {}).get("models") or []
for v in verdicts:
    lift = v.get("lift")
    lift = f"{lift * 100:+.1f} points" if isinstance(lift, (int, float)) else "lift n/a"
    print(f"   verdict {v.get('model')} ({v.get('split')}): {v.get('verdict')}, {lift}; {v.get('text')}")
if not verdicts:
    print("   verdict: none (the report's verdicts.models is empty)")
EOF
}

rm -rf "$out/roundtrip"
mkdir -p "$out/roundtrip"
echo
echo "== round trip"
echo "(upskill runs shows, per model and skill, the one with-skill run with the highest pass rate and the"
echo " baseline run numbered at or before it: with several batches, the best repeat, not their mean)"
echo "-- upskill runs on upskill's own batches ($out/upskill/runs)"
upskill_runs "$out/upskill/runs"
for rep in $(seq 1 "$runs"); do
    grep -h "Recommendation" "$out/upskill/rep$rep/eval.log" | sed "s/^/   upskill eval repeat $rep: /" || true
done

echo "-- skillforge runs import $out/upskill/runs"
rc=0
"$skillforge" runs import "$out/upskill/runs" --out "$out/roundtrip/imported" >"$out/roundtrip/import.log" \
    2>"$out/roundtrip/import.err" || rc=$?
sed 's/^/   /' "$out/roundtrip/import.log"
[[ $rc -eq 0 ]] || { sed 's/^/   /' "$out/roundtrip/import.err"; echo "   (runs import exit $rc)"; }
mkdir -p "$out/roundtrip/reexport"
for run in "$out"/roundtrip/imported/*/; do
    [[ -f "$run/run.json" ]] || continue
    run="${run%/}"
    echo "   imported $(basename "$run"):"
    sf_summary "$run"
    "$skillforge" runs export "$run" --to upskill -o "$out/roundtrip/reexport/$(basename "$run")" \
        >/dev/null 2>"$out/roundtrip/reexport-$(basename "$run").err" ||
        echo "   runs export failed: $(tail -2 "$out/roundtrip/reexport-$(basename "$run").err")"
done
echo "-- upskill runs on those imported runs, exported back (skillforge runs export --to upskill)"
upskill_runs "$out/roundtrip/reexport"

echo "-- Skillforge's own run, $(basename "$sf_run"):"
sf_summary "$sf_run"
mkdir -p "$out/roundtrip/sf-export"
rc=0
"$skillforge" runs export "$sf_run" --to upskill -o "$out/roundtrip/sf-export/$(basename "$sf_run")" \
    >"$out/roundtrip/sf-export.log" 2>&1 || rc=$?
[[ $rc -eq 0 ]] || { sed 's/^/   /' "$out/roundtrip/sf-export.log"; die "runs export --to upskill failed (exit $rc)"; }
echo "-- upskill runs on Skillforge's run, exported (skillforge runs export --to upskill)"
upskill_runs "$out/roundtrip/sf-export"

echo
echo "done; everything is under $out"
