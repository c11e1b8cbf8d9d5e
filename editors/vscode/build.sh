#!/usr/bin/env bash
# Builds the VS Code extension: npm ci + tsc + vsce package -> editors/vscode/tile-lsp-<version>.vsix
# Needs node >= 20 and npm, and reaches only the npm registry.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
npm run compile
# No repository/LICENSE file in this folder: answer vsce's two prompts up front.
npx vsce package --allow-missing-repository --skip-license
ls -l ./*.vsix
