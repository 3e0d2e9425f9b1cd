#!/usr/bin/env bash
# Starts `wiki-mcp serve` on a fresh demo farm and drives it with the official MCP Python SDK
# (check_clients.py: legacy and auto modes, user and guest). Run from the workspace root.
set -euo pipefail

# shellcheck source=tests/serve-demo.sh
source "$(dirname "$0")/../serve-demo.sh"

venv="$target_dir/python-mcp"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet 'mcp>=2,<3' 'jsonschema>=4,<5'

"$venv/bin/python" "$(dirname "$0")/check_clients.py" \
    "http://$address/rest/wikis/main/aiLLM/mcp" "$token"
"$venv/bin/python" "$(dirname "$0")/check_surface.py" \
    "http://$address/rest/wikis/main/aiLLM/mcp" "$token"

# A listener hears a tool-list change made by an admin command.
"$venv/bin/python" "$(dirname "$0")/check_list_changed.py" \
    "http://$address/rest/wikis/main/aiLLM/mcp" "$token" "$wiki_mcp" "$data/farm"
# check_list_changed.py leaves write_document served: the narrowing check refuses it.
"$venv/bin/python" "$(dirname "$0")/check_narrowing.py" \
    "http://$address/rest/wikis/main/aiLLM/mcp" "$token" "$wiki_mcp" "$data/farm"

# A replacement across pages, previewed then applied; structured results that validate.
"$wiki_mcp" --data "$data/farm" config set --wiki main \
    tools=default,+write_document,+replace_in_documents >/dev/null
"$venv/bin/python" "$(dirname "$0")/check_replace.py" \
    "http://$address/rest/wikis/main/aiLLM/mcp" "$token"

# Human confirmation of writes: the server applies the configuration on its next request.
"$wiki_mcp" --data "$data/farm" config set --wiki main tools=default,+write_document \
    confirm_writes=true
"$venv/bin/python" "$(dirname "$0")/check_confirm.py" \
    "http://$address/rest/wikis/main/aiLLM/mcp" "$token" "$wiki_mcp" "$data/farm"
