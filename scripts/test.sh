#!/usr/bin/env bash
# `npm test`: the whole suite on the embedded PGlite, then again on a real PostgreSQL server
# (QUAYSIDE_TEST_PG_URL, or one the test setup starts from Debian's binaries).
set -euo pipefail
cd "$(dirname "$0")/.."

# The operation types the facades import: current with the schema and the .graphql files.
npm run --silent codegen

# The migrated PGlite dump and the sandbox world, made by the first pass and copied by the second
# (test/support/global-setup.ts): the same tree makes the same files. CI names its own folder for
# its later runs too.
if [ -z "${QUAYSIDE_TEST_RUN_CACHE:-}" ]; then
  QUAYSIDE_TEST_RUN_CACHE=$(mktemp -d "$( [ -d /dev/shm ] && echo /dev/shm || echo "${TMPDIR:-/tmp}")/quayside-run-cache-XXXXXX")
  export QUAYSIDE_TEST_RUN_CACHE
  trap 'rm -rf "$QUAYSIDE_TEST_RUN_CACHE"' EXIT
fi

echo "== Quayside test suite on PGlite (embedded) =="
npx vitest run "$@"

if [ -n "${QUAYSIDE_TEST_PG_URL:-}" ] || compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then
  echo "== Quayside test suite on PostgreSQL =="
  QUAYSIDE_TEST_DB=postgres npx vitest run "$@"
else
  echo "PostgreSQL server binaries not found: the PostgreSQL pass was skipped."
  echo "Install them with 'apt-get install -y postgresql' (CI always runs both passes)."
fi
