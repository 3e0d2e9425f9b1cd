"""Tool-list and skill changes heard with the official MCP Python SDK, in both modes.

Usage: python check_list_changed.py ENDPOINT_URL TOKEN WIKI_MCP FARM_DIR

`auto` mode (2026-07-28): opens `subscriptions/listen` for tool-list and resource-list changes,
changes the wiki's tools with `wiki-mcp config set` (another process, as an administrator
would) and expects a tool-list event, then a `tools/list` that shows the change; then writes a
page of the Skills space and expects a resource-list event (the skills are resources).
`legacy` mode (2025-11-25): a client that declared elicitation gets a session and opens the
standalone GET stream; the same two changes reach its message handler as
`notifications/tools/list_changed` and `notifications/resources/list_changed`. Exits non-zero on
failure.
"""

import asyncio
import subprocess
import sys
import time

import mcp
import mcp_types as types
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.subscriptions import ResourcesListChanged, ToolsListChanged

# How long a change may take to be heard here (the server announces within a second; the
# margin is for a loaded machine).
PATIENCE = 5


def set_tools(wiki_mcp: str, farm: str, tools: str) -> None:
    subprocess.run(
        [wiki_mcp, "--data", farm, "config", "set", "--wiki", "main", f"tools={tools}"],
        check=True, capture_output=True,
    )


async def write_skill(client, name: str) -> None:
    result = await client.call_tool("write_document", {
        "reference": f"Skills.{name}", "title": "A skill the Python check wrote",
        "content": "# Steps\n"})
    assert not result.is_error, f"writing Skills.{name}: {result.content[0].text}"


async def listen_auto(url: str, token: str, wiki_mcp: str, farm: str) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    async with create_mcp_http_client(headers=headers) as http_client:
        transport = streamable_http_client(url, http_client=http_client)
        async with mcp.Client(transport, mode="auto") as client:
            before = {tool.name for tool in (await client.list_tools()).tools}
            assert "write_object" not in before, f"write_object already served: {sorted(before)}"
            async with client.listen(tools_list_changed=True, resources_list_changed=True) as subscription:
                assert subscription.honored.tools_list_changed, subscription.honored
                assert subscription.honored.resources_list_changed, subscription.honored
                changed_at = time.monotonic()
                set_tools(wiki_mcp, farm, "default,+write_object,+write_document")
                event = await asyncio.wait_for(anext(subscription), timeout=PATIENCE)
                heard = time.monotonic() - changed_at
                assert isinstance(event, ToolsListChanged), event
                after = {tool.name for tool in (await client.list_tools()).tools}
                assert "write_object" in after, f"the new list lacks write_object: {sorted(after)}"
                print(f"ok: auto: a listener heard the tool-list change {heard:.2f} s after `config set` began")

                written_at = time.monotonic()
                await write_skill(client, "python-auto")
                event = await asyncio.wait_for(anext(subscription), timeout=PATIENCE)
                heard = time.monotonic() - written_at
                assert isinstance(event, ResourcesListChanged), event
            uris = {resource.uri for resource in (await client.list_resources()).resources}
            assert "skill://python-auto/SKILL.md" in uris, f"the new skill is not listed: {sorted(uris)}"
            print(f"ok: auto: a listener heard the new skill {heard:.2f} s after it was written")


async def listen_legacy(url: str, token: str, wiki_mcp: str, farm: str) -> None:
    heard: list[str] = []

    async def on_message(message) -> None:
        notification = getattr(message, "root", message)
        method = getattr(notification, "method", None)
        if method:
            heard.append(method)

    async def accept(context, params):
        return types.ElicitResult(action="accept")

    async def expect(method: str, since: float) -> float:
        while method not in heard:
            assert time.monotonic() - since < PATIENCE, f"legacy: {method} not heard (heard {heard})"
            await asyncio.sleep(0.05)
        heard.remove(method)
        return time.monotonic() - since

    headers = {"Authorization": f"Bearer {token}"}
    async with create_mcp_http_client(headers=headers) as http_client:
        transport = streamable_http_client(url, http_client=http_client)
        # Declaring elicitation gets the session the SDK opens its GET stream in.
        async with mcp.Client(transport, mode="legacy", elicitation_callback=accept,
                              message_handler=on_message) as client:
            await client.list_tools()
            # The SDK opens the GET stream in the background once initialized.
            await asyncio.sleep(1)
            changed_at = time.monotonic()
            set_tools(wiki_mcp, farm, "default,+write_document")
            took = await expect("notifications/tools/list_changed", changed_at)
            after = {tool.name for tool in (await client.list_tools()).tools}
            assert "write_object" not in after, f"the new list still has write_object: {sorted(after)}"
            print(f"ok: legacy: the GET stream carried the tool-list change {took:.2f} s after `config set` began")

            written_at = time.monotonic()
            await write_skill(client, "python-legacy")
            took = await expect("notifications/resources/list_changed", written_at)
            print(f"ok: legacy: the GET stream carried the new skill {took:.2f} s after it was written")


async def main() -> None:
    url, token, wiki_mcp, farm = sys.argv[1:5]
    await listen_auto(url, token, wiki_mcp, farm)
    await listen_legacy(url, token, wiki_mcp, farm)


if __name__ == "__main__":
    asyncio.run(main())
