#!/usr/bin/env bash
# Writes prisma/migrations/<timestamp>_<name>/migration.sql: the SQL that takes the schema as it was at
# the last committed migration to prisma/schema.prisma as it is now. A schema-to-schema diff needs no
# database, so it works offline (`prisma migrate dev` cannot replay migrations into a PGlite shadow
# database through the adapter here).
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:?usage: npm run migrate:new -- <name>}
[[ "$name" =~ ^[a-z0-9_]+$ ]] || { echo "name: lowercase letters, digits and _ only" >&2; exit 2; }
base=$(git log -1 --format=%H -- prisma/migrations)
previous=$(mktemp --suffix=.prisma)
trap 'rm -f "$previous"' EXIT
git show "$base:prisma/schema.prisma" > "$previous"
sql=$(npx prisma migrate diff --from-schema-datamodel "$previous" --to-schema-datamodel prisma/schema.prisma --script 2>/dev/null)
if ! grep -qv '^--\|^$' <<<"$sql"; then echo "No schema changes since the last migration."; exit 0; fi
dir="prisma/migrations/$(date -u +%Y%m%d%H%M%S)_$name"
mkdir -p "$dir"
printf '%s\n' "$sql" > "$dir/migration.sql"
echo "Wrote $dir/migration.sql (review it; add hand-written SQL such as partial indexes below)."
