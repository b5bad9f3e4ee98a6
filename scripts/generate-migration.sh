#!/usr/bin/env bash
# Generates one migration per dialect from the difference between the entities and the schema that the
# existing migrations build. Usage: npm run migration:generate -- AddSomething
# Needs a MySQL-compatible server (TEST_DATABASE_URL, default mysql://root@127.0.0.1:3306/).
set -euo pipefail
name=${1:?usage: npm run migration:generate -- MigrationName}
cd "$(dirname "$0")/.."
npx tsc -p tsconfig.build.json --outDir .migration-build >/dev/null || echo "warning: the tree has type errors; generating from the emitted JavaScript anyway" >&2
trap 'rm -rf .migration-build' EXIT

register() { # dialect
  local dir=src/database/migrations/$1 file class
  file=$(ls -t "$dir"/*-"$name".ts | head -1)
  class=$(grep -oE 'export class [A-Za-z0-9_]+' "$file" | awk '{print $3}')
  node scripts/register-migration.mjs "$dir/index.ts" "$(basename "$file" .ts)" "$class"
  npx prettier --write "$file" "$dir/index.ts" >/dev/null
}

tmp=$(mktemp -d)
DB_TYPE=sqlite DB_PATH="$tmp/gen.sqlite" npx typeorm migration:run -d .migration-build/ormconfig.js >/dev/null
DB_TYPE=sqlite DB_PATH="$tmp/gen.sqlite" npx typeorm migration:generate -d .migration-build/ormconfig.js "src/database/migrations/sqlite/$name" && register sqlite

url=${TEST_DATABASE_URL:-mysql://root@127.0.0.1:3306/}
db="migration_gen_$$"
node -e "const m=require('mysql2/promise');(async()=>{const c=await m.createConnection(process.argv[1]);await c.query('CREATE DATABASE \`'+process.argv[2]+'\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci');await c.end()})()" "$url" "$db"
cleanup_mysql() { node -e "const m=require('mysql2/promise');(async()=>{const c=await m.createConnection(process.argv[1]);await c.query('DROP DATABASE IF EXISTS \`'+process.argv[2]+'\`');await c.end()})()" "$url" "$db"; rm -rf .migration-build; }
trap cleanup_mysql EXIT
DB_TYPE=mysql DATABASE_URL="${url%/}/$db" npx typeorm migration:run -d .migration-build/ormconfig.js >/dev/null
DB_TYPE=mysql DATABASE_URL="${url%/}/$db" npx typeorm migration:generate -d .migration-build/ormconfig.js "src/database/migrations/mysql/$name" && register mysql
