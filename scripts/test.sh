#!/usr/bin/env bash
# `npm test`: the whole suite on the embedded PGlite, then again on a real PostgreSQL server
# (QUAYSIDE_TEST_PG_URL, or one the test setup starts from Debian's binaries).
set -euo pipefail
cd "$(dirname "$0")/.."

# The operation types the facades import: current with the schema and the .graphql files.
npm run --silent codegen

echo "== Quayside test suite on PGlite (embedded) =="
npx vitest run "$@"

if [ -n "${QUAYSIDE_TEST_PG_URL:-}" ] || compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then
  echo "== Quayside test suite on PostgreSQL =="
  QUAYSIDE_TEST_DB=postgres npx vitest run "$@"
else
  echo "PostgreSQL server binaries not found: the PostgreSQL pass was skipped."
  echo "Install them with 'apt-get install -y postgresql' (CI always runs both passes)."
fi
