#!/usr/bin/env bash
# `npm test`: lint and format check, type check, generated-type drift check, unit + integration tests (on the embedded
# PostgreSQL 18 and on the system's PostgreSQL 15, or DATABASE_URL), then the Playwright suites in
# Debian's Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  if [ "${CI:-}" = "true" ]; then
    echo "PostgreSQL binaries (initdb, pg_ctl) are missing; .ci/run installs them with apt-get." >&2
    exit 1
  fi
  echo "warning: PostgreSQL binaries not found: skipping the postgres integration project (apt-get install postgresql)." >&2
  export PORTAL_TEST_POSTGRES=0
fi

# Whatever the tests put in the system's temporary folder (databases, outboxes, browser profiles,
# built portals) goes into one folder of this run, removed when it ends: runs used to leave
# hundreds of folders behind each, and on a long-lived machine directory operations in /tmp became
# many times slower. World-writable like /tmp: the embedded PostgreSQL runs as the postgres user.
TMPDIR="$(mktemp -d "${TMPDIR:-/tmp}/portal-tests-XXXXXX")"
chmod 1777 "$TMPDIR"
export TMPDIR
trap 'rm -rf "$TMPDIR"' EXIT

echo "== lint (ESLint: layers, cycles, hooks; Prettier: format)"
npm run --silent lint
echo "== type check"
npx tsc --noEmit -p tsconfig.json
npx tsc --noEmit -p studio/tsconfig.json
echo "== generated types up to date"
npx tsx scripts/generateTypes.ts --check
echo "== tenant files valid"
node cli/bin.mjs validate
echo "== unit tests and integration tests on the embedded PostgreSQL 18"
npx vitest run --project unit --project embedded
if [ "${PORTAL_TEST_POSTGRES:-1}" != "0" ]; then
  echo "== integration tests on the system's PostgreSQL 15 through DATABASE_URL"
  npx tsx scripts/withSystemPostgres.ts npx vitest run --project postgres
fi
echo "== end-to-end tests (Chromium)"
npx playwright test
