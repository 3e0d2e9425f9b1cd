"""The modern tool surface through the official MCP Python SDK, in both connection modes.

Usage: python check_surface.py ENDPOINT_URL TOKEN

In `legacy` and `auto` mode, as the token's user:
- structured output: get_tree's result carries `structuredContent` that validates (JSON Schema
  2020-12, the `jsonschema` package) against the `outputSchema` tools/list advertises, and a
  refused call (a missing page) carries none;
- progress: a scanning call made with a progress callback receives at least one
  `notifications/progress` for its request, with a count that never goes down.
Then, over plain HTTP: the same call without a `progressToken` is answered with one JSON body
(no stream, no notification), and with one it is answered as an SSE stream whose events hold
`notifications/progress` for that token before the result. Exits non-zero on failure.
"""

import asyncio
import json
import sys
import urllib.request

import jsonschema
import mcp
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


async def check(url: str, token: str, mode: str) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    async with create_mcp_http_client(headers=headers) as http_client:
        transport = streamable_http_client(url, http_client=http_client)
        async with mcp.Client(transport, mode=mode) as client:
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            schema = tools["get_tree"].output_schema
            assert schema and schema.get("type") == "object", f"{mode}: get_tree schema {schema}"
            validator = jsonschema.Draft202012Validator(schema)

            updates: list[tuple[float, float | None, str | None]] = []

            async def on_progress(progress: float, total: float | None, message: str | None) -> None:
                updates.append((progress, total, message))

            tree = await client.call_tool("get_tree", {}, progress_callback=on_progress)
            assert not tree.is_error, f"{mode}: get_tree failed: {tree.content}"
            assert tree.structured_content is not None, f"{mode}: no structuredContent"
            errors = [e.message for e in validator.iter_errors(tree.structured_content)]
            assert not errors, f"{mode}: structuredContent does not validate: {errors}"
            assert tree.structured_content["mode"] == "survey", tree.structured_content
            assert updates, f"{mode}: no progress notification for a scanning call"
            counts = [progress for progress, _, _ in updates]
            assert counts == sorted(counts), f"{mode}: progress went down: {counts}"

            missing = await client.call_tool("get_document", {"reference": "Nope.Missing"})
            assert missing.is_error, f"{mode}: a missing page was found"
            assert missing.structured_content is None, f"{mode}: an error carried structuredContent"
            print(
                f"ok: {mode} mode: structured get_tree validates, {len(updates)} progress "
                f"notification(s), errors carry no structuredContent"
            )


def post(url: str, headers: dict[str, str], body: dict) -> tuple[str, str]:
    """One JSON-RPC POST: the reply's content type and body."""
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.headers.get("content-type", ""), response.read().decode()


def raw(url: str, token: str) -> None:
    """The same scanning call over plain HTTP, without and with a progress token."""
    headers = {
        "Authorization": f"Bearer {token}",
        "Accept": "application/json, text/event-stream",
        "Content-Type": "application/json",
        "MCP-Protocol-Version": "2025-11-25",
    }
    plain = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
             "params": {"name": "get_tree", "arguments": {}}}
    kind, text = post(url, headers, plain)
    assert kind.startswith("application/json"), f"without a token: {kind}"
    assert "structuredContent" in json.loads(text)["result"], text
    assert "notifications/progress" not in text, text

    tracked = dict(plain, id=2)
    tracked["params"] = dict(plain["params"], _meta={"progressToken": "scan-1"})
    kind, text = post(url, headers, tracked)
    assert kind.startswith("text/event-stream"), f"with a token: {kind}"
    messages = [
        json.loads(line[len("data:"):])
        for line in text.splitlines()
        if line.startswith("data:") and line[len("data:"):].strip()
    ]
    progress = [m for m in messages if m.get("method") == "notifications/progress"]
    assert progress, f"no progress in the stream: {messages}"
    assert all(m["params"]["progressToken"] == "scan-1" for m in progress), progress
    assert messages[-1].get("id") == 2 and "result" in messages[-1], messages[-1]
    print(f"ok: raw HTTP: JSON without a progress token, SSE with {len(progress)} progress event(s) with one")


async def main() -> None:
    url, token = sys.argv[1], sys.argv[2]
    raw(url, token)
    for mode in ("legacy", "auto"):
        await check(url, token, mode)


if __name__ == "__main__":
    asyncio.run(main())
