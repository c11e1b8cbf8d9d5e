#!/usr/bin/env bash
# Real-editor test: installs the .vsix into code-server, drives it with Chromium (playwright-core).
# Not part of CI (the code-server install takes ~7 minutes). See README.md.
# Usage: CS_HOME=/tmp/cs-install bash editors/vscode/test/e2e/run.sh
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../../../.." && pwd)"
CS_HOME="${CS_HOME:-/tmp/cs-install}"          # where code-server + playwright-core are npm-installed
WORK="${WORK:-/tmp/tile-lsp-e2e}"
PORT="${PORT:-8931}"
VSIX="$(ls "$REPO"/editors/vscode/tile-lsp-*.vsix | head -1)"
SERVER="${TILE_LSP:-$REPO/.venv/bin/tile-lsp}"

rm -rf "$WORK" && mkdir -p "$WORK/ud/User" "$WORK/ext" "$WORK/ws"
cp "$REPO/examples/vector_add.mlir" "$WORK/ws/vector_add.mlir"
# Tile IR bytecode: a good file (the decoded view) and one cut short (the error with its offset).
cp "$REPO/tests/data/cutile/vector_add.tileirbc" "$WORK/ws/vector_add.tileirbc"
head -c 200 "$REPO/tests/data/cutile/vector_add.tileirbc" > "$WORK/ws/cut.tileirbc"
cat > "$WORK/ud/User/settings.json" <<JSON
{
  "security.workspace.trust.enabled": false,
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "telemetry.telemetryLevel": "off",
  "extensions.autoUpdate": false,
  "tileLsp.serverPath": "$SERVER",
  "tileLsp.gpuName": "sm_90"
}
JSON
"$CS_HOME/node_modules/.bin/code-server" --extensions-dir "$WORK/ext" --install-extension "$VSIX"
"$CS_HOME/node_modules/.bin/code-server" --auth none --bind-addr "127.0.0.1:$PORT" \
  --user-data-dir "$WORK/ud" --extensions-dir "$WORK/ext" --disable-telemetry "$WORK/ws" > "$WORK/code-server.log" 2>&1 &
CS_PID=$!
trap 'kill $CS_PID 2>/dev/null || true' EXIT
for _ in $(seq 60); do curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 1; done
NODE_PATH="$CS_HOME/node_modules" URL="http://127.0.0.1:$PORT/?folder=$WORK/ws" \
  SCREENSHOT="${SCREENSHOT:-$REPO/docs/vscode-diagnostic-hover.png}" \
  BYTECODE_SCREENSHOT="${BYTECODE_SCREENSHOT:-$REPO/docs/vscode-bytecode-view.png}" WS="$WORK/ws" OUTDIR="$WORK" \
  node "$HERE/drive.js"
