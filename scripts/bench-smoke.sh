#!/usr/bin/env bash
# The bench's smoke run: every part of `npm run bench` at its smallest size (--smoke,
# bench/options.ts), so that a schema or API change that breaks a part fails here instead of
# in the next real run. Once on the embedded database (every part but distance, which needs a
# server) and, when DATABASE_URL is set, once against that server (every part, distance
# included; concurrency also runs on the embedded one there, and paid always does).
#
# Checks that each part ran to the end and wrote its JSON, that the JSON parses and holds the
# part's results, and the few counts that must be zero whatever the machine (concurrency's and
# neighbours' unexpected answers and foreign rows, paid's over-balance and mixed-load
# accounting). No figure is compared: at these sizes they mean nothing.
# One line a part, then one a database; exit code 1 on any failure.
#
#   bash scripts/bench-smoke.sh                   # embedded only
#   DATABASE_URL=postgres://… bash scripts/bench-smoke.sh
#   bash scripts/bench-smoke.sh --skip-mem0       # more options for the bench
#
# The distance part needs /usr/sbin/pgbouncer: installed here with apt-get when missing and
# this runs as root, as `POOLER=1 bash scripts/ci-postgres.sh` does. BENCH_SMOKE_OUT keeps the
# JSON and logs in that folder (default: a temp folder, removed when everything passed);
# BENCH_SMOKE_TIMEOUT bounds each database's run in seconds (default 300).
set -uo pipefail
cd "$(dirname "$0")/.."

OUT="${BENCH_SMOKE_OUT:-$(mktemp -d /tmp/bench-smoke.XXXXXX)}"
TIMEOUT="${BENCH_SMOKE_TIMEOUT:-300}"
mkdir -p "$OUT"
say() { echo "[bench-smoke] $*"; }

# A free loopback port for the bench's wrangler dev (8788, its default, may be another run's).
free_port() {
  node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })'
}

# Checks one part's JSON: it parses, holds the part's results and the counts that must be 0.
# Prints "ok" or what is wrong.
check_json() {
  node - "$1" "$2" <<'JS'
const [part, file] = process.argv.slice(2);
const fs = require("node:fs");
console.log(check());

function check() {
  if (!fs.existsSync(file)) return "no JSON written";
  let j;
  try {
    j = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (err) {
    return `invalid JSON: ${err.message}`;
  }
  const problems = [];
  const need = (ok, what) => ok || problems.push(what);
  switch (part) {
    case "locomo":
      need(j.systems?.length > 0 && j.systems.every((s) => s.questions?.length > 0), "no system answered");
      break;
    case "speed":
      need(j.results?.sizes?.length > 0 && j.results.sizes.every((s) => s.recall), "no recall measured");
      need(j.results?.largest, "nothing measured in the largest wallet");
      break;
    case "neighbours":
      need(j.batch?.n > 0, "no batch stored");
      need(j.errors === 0, `${j.errors} failed recalls`);
      break;
    case "concurrency":
      need(j.results?.length > 0, "no database measured");
      for (const r of j.results ?? []) {
        need(r.errors === 0, `${r.database}: ${r.errors} unexpected answers (${(r.samples ?? []).join("; ")})`);
        need(r.foreignRows === 0, `${r.database}: ${r.foreignRows} foreign rows`);
      }
      break;
    case "paid":
      need(j.runs?.length > 0, "no run");
      for (const r of j.runs ?? []) {
        const a = r.attack ?? {};
        need(a.served === 1 && a.settled === 1 && a.written === 1,
          `over the balance: served ${a.served}, settled ${a.settled}, written ${a.written} (must be 1)`);
        need(r.mixed?.mismatched_payers === 0, `mixed load: ${r.mixed?.mismatched_payers} payers off`);
      }
      break;
    case "distance":
      need(j.layouts?.length === 3 && j.layouts.every((l) => l.operations?.length > 0), "a layout measured nothing");
      break;
  }
  return problems.length ? problems.join("; ") : "ok";
}
JS
}

failed=0
# $1: embedded or server; the parts it must run. The bench runs once for all of them.
run_on() {
  local kind=$1
  shift
  local parts=("$@")
  local dir="$OUT/$kind" log="$OUT/$kind.log" port started rc
  rm -rf "$dir"
  port=$(free_port)
  started=$(date +%s)
  say "$kind: npm run bench -- --smoke --port $port ${BENCH_ARGS[*]} (log: $log)"
  # SIGINT first: the bench stops its wrangler dev, databases and chain on it.
  if [ "$kind" = embedded ]; then
    env -u DATABASE_URL timeout -s INT -k 30 "$TIMEOUT" \
      npx tsx bench/main.ts --smoke --port "$port" --out "$dir" "${BENCH_ARGS[@]}" >"$log" 2>&1
  else
    timeout -s INT -k 30 "$TIMEOUT" \
      npx tsx bench/main.ts --smoke --port "$port" --out "$dir" "${BENCH_ARGS[@]}" >"$log" 2>&1
  fi
  rc=$?
  local seconds=$(($(date +%s) - started)) bad=0
  [ "$rc" -eq 124 ] && say "$kind: timed out after $TIMEOUT s"
  for part in "${parts[@]}"; do
    # The bench's own line for the part: "[bench] part speed: ok in 4.7 s, <file>" or why not.
    local line verdict took file
    line=$(grep -E "^\[bench\] part $part: " "$log" | tail -n 1 | sed -E "s/^\[bench\] part $part: //")
    took=$(sed -nE 's/^ok in ([0-9.]+) s,.*/\1 s/p' <<<"$line")
    # Where each part writes (bench/main.ts); a part added later, where it says it wrote.
    case "$part" in
      locomo | speed | neighbours) file="$dir/$part-$kind.json" ;;
      concurrency | paid | distance) file="$dir/$part.json" ;;
      *) file=$(sed -nE 's/^ok in [0-9.]+ s, (.*)$/\1/p' <<<"$line") ;;
    esac
    verdict=$(check_json "$part" "$file")
    if [ "$verdict" = ok ] && [ -n "$took" ]; then
      printf '[bench-smoke] %-8s %-12s ok      %7s  %s\n' "$kind" "$part" "$took" "$(basename "$file")"
    else
      bad=1
      # The bench's own reason ("FAILED in 1.3 s: …", "skipped: …") first, else the JSON's.
      if [ -n "$line" ] && [ -z "$took" ]; then
        verdict="$line"
      elif [ -z "$line" ]; then
        verdict="FAILED: the bench did not report it (it stopped before; see its log)"
      else
        verdict="FAILED: $verdict"
      fi
      printf '[bench-smoke] %-8s %-12s %s\n' "$kind" "$part" "$verdict"
    fi
  done
  if [ "$rc" -ne 0 ] || [ "$bad" -ne 0 ]; then
    failed=1
    say "$kind: FAILED (exit code $rc) in $seconds s; the end of its log:"
    grep -vE '^\s*$' "$log" | tail -n 25 | sed 's/^/    /'
  else
    say "$kind: all ${#parts[@]} parts ok in $seconds s"
  fi
}

BENCH_ARGS=("$@")
# Every part the bench has (bench/options.ts), so that a part added there is expected here too.
read -r -a PARTS < <(npx tsx -e 'import("./bench/options.ts").then((m) => console.log(m.PARTS.join(" ")))')
if [ "${#PARTS[@]}" -eq 0 ]; then
  say "FAILED: could not read the bench's parts from bench/options.ts"
  exit 1
fi
# distance needs a PostgreSQL server; every other part runs on the embedded database.
run_on embedded $(printf '%s\n' "${PARTS[@]}" | grep -vx distance)
if [ -n "${DATABASE_URL:-}" ]; then
  if [ ! -x /usr/sbin/pgbouncer ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    say "installing pgbouncer for the distance part"
    apt-get install -y -qq pgbouncer >/dev/null 2>&1 ||
      { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq pgbouncer >/dev/null 2>&1; } ||
      say "could not install pgbouncer"
  fi
  run_on server "${PARTS[@]}"
else
  say "server: not run (DATABASE_URL is not set)"
fi

if [ "$failed" -ne 0 ]; then
  say "FAILED; JSON and logs in $OUT"
  exit 1
fi
[ -z "${BENCH_SMOKE_OUT:-}" ] && rm -rf "$OUT"
say "passed"
