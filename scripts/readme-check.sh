#!/usr/bin/env bash
# Runs README.md's two marked blocks as a reader would: the start line (after `npm install`,
# which CI has just run), then the usage block, as written, with bash. Passes when the usage
# block completes (it stops at its first error), printed a live intent.created frame and a
# non-empty discover, when the CLI block (`intro`) then signs in, discovers and tails events,
# and when the compiled maintenance commands then run on the same data
# (NODE_ENV=production npm run migrate / reindex, as in the Docker image).
# Two things differ from a reader's run, so that it can run beside other services: DATA_DIR is
# a fresh temporary folder, and the port is a free one (PORT, and localhost:3001 in the block).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)

block() { # block NAME: the fenced block after the <!-- readme-check: NAME ... --> marker
  awk -v name="$1" '
    $0 ~ "<!-- readme-check: " name "[ >]" { armed = 1; next }
    armed && /^```/ { if (inside) exit; inside = 1; next }
    inside { print }' README.md
}

START_LINE=$(block start | head -n 1)
USAGE=$(block usage)
[ -n "$START_LINE" ] || { echo "readme-check: no start block in README.md" >&2; exit 1; }
[ -n "$USAGE" ] || { echo "readme-check: no usage block in README.md" >&2; exit 1; }
case "$START_LINE" in
  "npm install && "*) START=${START_LINE#npm install && } ;;
  *) echo "readme-check: the start line no longer begins with npm install: $START_LINE" >&2; exit 1 ;;
esac

PORT=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
WORK=$(mktemp -d /tmp/im-readme-XXXXXX)
# The embedded PostgreSQL runs as another user when this runs as root: it must be able to enter DATA_DIR.
chmod 755 "$WORK"
export DATA_DIR="$WORK/data" PORT
SERVICE_PID=

stop_service() {
  if [ -n "$SERVICE_PID" ] && kill -0 "$SERVICE_PID" 2>/dev/null; then
    kill -TERM -- "-$SERVICE_PID" 2>/dev/null || true
    for _ in $(seq 150); do kill -0 "$SERVICE_PID" 2>/dev/null || break; sleep 0.2; done
    kill -KILL -- "-$SERVICE_PID" 2>/dev/null || true
  fi
  SERVICE_PID=
}
cleanup() {
  stop_service
  rm -rf "$WORK" intro-match.log intro-match-events.log
}
trap cleanup EXIT

echo "readme-check: starting the service as the README does: $START (DATA_DIR=$DATA_DIR PORT=$PORT)"
rm -f intro-match.log
setsid bash -c "$START" > "$WORK/start.out" 2>&1 &
SERVICE_PID=$!
for _ in $(seq 900); do
  if grep -q '"listening"\|: listening' intro-match.log 2>/dev/null; then break; fi
  if ! kill -0 "$SERVICE_PID" 2>/dev/null; then echo "readme-check: the service stopped before listening:" >&2; cat "$WORK/start.out" >&2; exit 1; fi
  sleep 0.2
done
grep -q 'listening' intro-match.log || { echo "readme-check: the service did not start within 3 minutes:" >&2; tail -n 50 "$WORK/start.out" >&2; exit 1; }

# The start line opens the web app at / (packages/web, served by the service).
curl -fsS "http://localhost:$PORT/" | grep -q '<div id="root"></div>' || { echo "readme-check: / does not serve the web app" >&2; exit 1; }

echo "readme-check: running the usage block"
printf '%s\n' "$USAGE" | sed "s#localhost:3001#localhost:$PORT#g" > "$WORK/first-run.sh"
if ! timeout 120 bash "$WORK/first-run.sh" > "$WORK/usage.out" 2>&1; then
  echo "readme-check: the usage block failed:" >&2
  cat "$WORK/usage.out" >&2
  echo "--- service output (last lines):" >&2
  tail -n 40 intro-match.log >&2
  exit 1
fi
cat "$WORK/usage.out"
grep -q '"type":"intent.created"' "$WORK/usage.out" || { echo "readme-check: no live intent.created frame in the output" >&2; exit 1; }
grep -Eq '^0\.[0-9]+  (Maya Okafor|Jonas Weber): ' "$WORK/usage.out" || { echo "readme-check: discover returned none of the demo's investors" >&2; exit 1; }

# The CLI block (README "Command line: intro"), as written, with its own config dir beside DATA_DIR.
CLI_BLOCK=$(block cli)
[ -n "$CLI_BLOCK" ] || { echo "readme-check: no cli block in README.md" >&2; exit 1; }
echo "readme-check: running the CLI block"
printf '%s\n' "$CLI_BLOCK" | sed "s#localhost:3001#localhost:$PORT#g" > "$WORK/cli-run.sh"
if ! INTRO_CONFIG_DIR="$WORK/intro-config" timeout 240 bash "$WORK/cli-run.sh" < /dev/null > "$WORK/cli.out" 2>&1; then
  echo "readme-check: the CLI block failed:" >&2
  cat "$WORK/cli.out" >&2
  exit 1
fi
cat "$WORK/cli.out"
grep -q '^Signed in as .* (profile default, email)$' "$WORK/cli.out" || { echo "readme-check: intro login did not sign in" >&2; exit 1; }
grep -Eq '(Maya Okafor|Jonas Weber)' "$WORK/cli.out" || { echo "readme-check: intro discover showed none of the demo's investors" >&2; exit 1; }
grep -Eq '^#[0-9]+ .* intent\.created ' "$WORK/cli.out" || { echo "readme-check: intro events printed no intent.created line" >&2; exit 1; }
grep -q '^Signed out of profile default$' "$WORK/cli.out" || { echo "readme-check: intro logout did not sign out" >&2; exit 1; }

echo "readme-check: the compiled maintenance commands on the same data, as in the Docker image"
stop_service
NODE_ENV=production npm run -s migrate | tee "$WORK/migrate.out"
grep -Eq '^migrations: ([0-9]+) of \1 applied' "$WORK/migrate.out" || { echo "readme-check: migrate said something else" >&2; exit 1; }
NODE_ENV=production npm run -s reindex | tee "$WORK/reindex.out"
grep -Eq '^intents [0-9]+/[0-9]+ \(100%\)$' "$WORK/reindex.out" || { echo "readme-check: reindex showed no progress" >&2; exit 1; }
grep -Eq '^done: [1-9][0-9]* intents indexed, 0 waiting' "$WORK/reindex.out" || { echo "readme-check: reindex did not index the intents" >&2; exit 1; }
NODE_ENV=production npm run -s seed | tee "$WORK/seed.out"
grep -q '^The demo was already there; nothing added.$' "$WORK/seed.out" || { echo "readme-check: a second seed was not idempotent" >&2; exit 1; }
echo "readme-check: the README works as written"
