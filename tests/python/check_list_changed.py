"""A 2026-07-28 client listening for tool-list changes with the official MCP Python SDK.

Usage: python check_list_changed.py ENDPOINT_URL TOKEN WIKI_MCP FARM_DIR

Opens `subscriptions/listen` for tool-list changes, changes the wiki's tools with
`wiki-mcp config set` (another process, as an administrator would), and expects the event,
then a `tools/list` that shows the change. Exits non-zero on failure.
"""

import asyncio
import subprocess
import sys
import time

import mcp
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.subscriptions import ToolsListChanged


async def main() -> None:
    url, token, wiki_mcp, farm = sys.argv[1:5]
    headers = {"Authorization": f"Bearer {token}"}
    async with create_mcp_http_client(headers=headers) as http_client:
        transport = streamable_http_client(url, http_client=http_client)
        async with mcp.Client(transport, mode="auto") as client:
            before = {tool.name for tool in (await client.list_tools()).tools}
            assert "write_object" not in before, f"write_object already served: {sorted(before)}"
            async with client.listen(tools_list_changed=True) as subscription:
                assert subscription.honored.tools_list_changed, subscription.honored
                changed_at = time.monotonic()
                subprocess.run(
                    [wiki_mcp, "--data", farm, "config", "set", "--wiki", "main",
                     "tools=default,+write_object"],
                    check=True, capture_output=True,
                )
                event = await asyncio.wait_for(anext(subscription), timeout=5)
                heard = time.monotonic() - changed_at
                assert isinstance(event, ToolsListChanged), event
            after = {tool.name for tool in (await client.list_tools()).tools}
            assert "write_object" in after, f"the new list lacks write_object: {sorted(after)}"
            print(f"ok: a 2026-07-28 listener heard the tool-list change {heard:.2f} s after `config set` began")


if __name__ == "__main__":
    asyncio.run(main())
