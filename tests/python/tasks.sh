#!/usr/bin/env bash
# Runs the ten everyday tasks (everyday_tasks.py) on a fresh demo farm with every tool enabled
# and prints what each returned. Run from the workspace root; arguments go to the script
# (--links asks for links on every call, --json prints the totals as JSON).
set -euo pipefail

# shellcheck source=tests/serve-demo.sh
source "$(dirname "$0")/../serve-demo.sh"

venv="$target_dir/python-mcp"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet 'mcp>=2,<3' 'jsonschema>=4,<5'

every_tool=$("$wiki_mcp" --data "$data/farm" tools | awk 'NR > 1 {print $1}' | paste -sd, -)
"$wiki_mcp" --data "$data/farm" config set --wiki main "tools=$every_tool" >/dev/null

url="http://$address/rest/wikis/main/aiLLM/mcp"
"$venv/bin/python" "$(dirname "$0")/everyday_tasks.py" "$url" "$token" "$@"
