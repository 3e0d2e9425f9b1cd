"""Drives a running wiki-mcp server with the official MCP Python SDK, in both connection modes.

Usage: python check_clients.py ENDPOINT_URL TOKEN

- `legacy`: the initialize handshake (protocols before 2026-07-28).
- `auto`: protocol 2026-07-28 negotiated by server/discover, per-request metadata, no session.

In each mode, as the token's user and as the guest: list the tools, call `man`, check that a
call with an unknown argument comes back as a tool error naming it, and search through the
semantic-search crate's tools (the demo farm has no model: `search_collections` answers its
keyword results and says how to install one), and read the demo farm's skills as resources (the
SDK has no skills/list: a skill's SKILL.md is a resource too). Exits non-zero on failure.
"""

import asyncio
import sys

import mcp
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


async def check(url: str, token: str | None, mode: str) -> None:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    who = "user" if token else "guest"
    async with create_mcp_http_client(headers=headers) as http_client:
        transport = streamable_http_client(url, http_client=http_client)
        async with mcp.Client(transport, mode=mode) as client:
            tools = await client.list_tools()
            names = sorted(tool.name for tool in tools.tools)
            assert "man" in names, f"{mode}/{who}: man missing from {names}"
            result = await client.call_tool("man", {})
            text = result.content[0].text
            assert not result.is_error, f"{mode}/{who}: man failed: {text}"
            assert text.startswith("Available tools"), f"{mode}/{who}: {text[:200]}"
            bad = await client.call_tool("man", {"nonsense": 1})
            assert bad.is_error, f"{mode}/{who}: an unknown argument was accepted"
            assert "nonsense" in bad.content[0].text, bad.content[0].text
            collections = await client.call_tool("list_collections", {})
            listed = collections.content[0].text
            assert not collections.is_error, f"{mode}/{who}: list_collections failed: {listed}"
            assert "main" in listed.splitlines(), f"{mode}/{who}: no main collection: {listed}"
            found = await client.call_tool("search_collections", {"query": "install"})
            hits = found.content[0].text
            assert not found.is_error, f"{mode}/{who}: search_collections failed: {hits}"
            assert "<result " in hits and "Guides.Install" in hits, f"{mode}/{who}: {hits[:400]}"
            resources = await client.list_resources()
            uris = sorted(str(resource.uri) for resource in resources.resources)
            skills = ["skill://edit-large-page/SKILL.md", "skill://find-and-cite/SKILL.md"]
            assert uris == skills, f"{mode}/{who}: the skills' resources: {uris}"
            skill = await client.read_resource(skills[0])
            manifest = skill.contents[0].text
            assert manifest.startswith("---\nname: edit-large-page\n"), f"{mode}/{who}: {manifest[:200]}"
            print(f"ok: {mode} mode as {who}: {len(names)} tools ({', '.join(names)}), man, the collections search and the skills work")


async def main() -> None:
    url, token = sys.argv[1], sys.argv[2]
    for mode in ("legacy", "auto"):
        for who in (token, None):
            await check(url, who, mode)


if __name__ == "__main__":
    asyncio.run(main())
