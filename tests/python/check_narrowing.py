"""Narrower sessions and scoped tokens, driven by the official MCP Python SDK in both modes.

Usage: python check_narrowing.py ENDPOINT_URL TOKEN WIKI_MCP FARM_DIR

The wiki `main` serves write_document (run.sh enables it). In `auto` (2026-07-28) and `legacy`
(2025-11-25) mode: a client that sends `X-MCP-Readonly: true` lists no write tool and is refused
write_document with the reason and the way past it; one on the URL `?tools=get_document` lists
get_document and man only; a token created with `wiki-mcp token create --read-only` lists no write
tool and is refused write_document naming the token's scope and how to get a wider one. Exits
non-zero on failure.
"""

import asyncio
import subprocess
import sys

import mcp
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

WRITE = {"reference": "Sandbox.NarrowedWrite", "content": "must not be written"}


async def refusal(client, tool: str, arguments: dict) -> str:
    """The text a refused call answers (a JSON-RPC error, or an error result)."""
    try:
        result = await client.call_tool(tool, arguments)
    except Exception as error:  # the SDK raises a JSON-RPC error
        return str(error)
    text = result.content[0].text if result.content else ""
    assert result.is_error, f"{tool} ran: {text}"
    return text


async def session(url: str, token: str, mode: str, headers: dict[str, str] | None = None):
    all_headers = {"Authorization": f"Bearer {token}", **(headers or {})}
    names: set[str] = set()
    refused = ""
    async with create_mcp_http_client(headers=all_headers) as http_client:
        transport = streamable_http_client(url, http_client=http_client)
        async with mcp.Client(transport, mode=mode) as client:
            names = {tool.name for tool in (await client.list_tools()).tools}
            if "write_document" not in names:
                refused = await refusal(client, "write_document", WRITE)
    return names, refused


async def check(url: str, token: str, scoped: str, mode: str) -> None:
    full, _ = await session(url, token, mode)
    assert "write_document" in full, f"{mode}: write_document is not served: {sorted(full)}"

    names, refused = await session(url, token, mode, {"X-MCP-Readonly": "true"})
    assert "write_document" not in names and "get_document" in names, f"{mode}: {sorted(names)}"
    assert "X-MCP-Readonly" in refused, f"{mode}: the read-only refusal: {refused}"
    print(f"ok: {mode}: X-MCP-Readonly lists {len(names)} of {len(full)} tools and refuses a write")

    names, _ = await session(f"{url}?tools=get_document", token, mode)
    assert names == {"get_document", "man"}, f"{mode}: ?tools=get_document lists {sorted(names)}"
    print(f"ok: {mode}: ?tools=get_document lists get_document and man")

    names, refused = await session(url, scoped, mode)
    assert "write_document" not in names and "get_document" in names, f"{mode}: {sorted(names)}"
    assert "token" in refused and "token create" in refused, f"{mode}: the scope's refusal: {refused}"
    print(f"ok: {mode}: a read-only token lists {len(names)} tools and its refusal says how to get a wider one")


async def main() -> None:
    url, token, wiki_mcp, farm = sys.argv[1:5]
    created = subprocess.run(
        [wiki_mcp, "--data", farm, "token", "create", "--user", "admin", "--label", "python-narrowing",
         "--read-only", "--expires", "1d"],
        check=True, capture_output=True, text=True,
    )
    scoped = created.stdout.strip().splitlines()[-1].strip()
    assert scoped.startswith("wmcp_"), f"no token printed: {created.stdout}"
    for mode in ("auto", "legacy"):
        await check(url, token, scoped, mode)


if __name__ == "__main__":
    asyncio.run(main())
