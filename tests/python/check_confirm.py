"""Human confirmation of writes, driven by the official MCP Python SDK.

Usage: python check_confirm.py ENDPOINT_URL TOKEN WIKI_MCP FARM

The wiki `main` has `confirm_writes=true` and write_document enabled (run.sh sets both). Over
HTTP in `auto` mode (protocol 2026-07-28: input-required results), in `legacy` mode (2025-11-25:
`elicitation/create` on the call's event stream, the answer POSTed back in the session the
server gave at initialize) and over stdio in both modes (`legacy` gets `elicitation/create` on
the stdio peer), a client whose `elicitation_callback` accepts writes once (one new version in
get_history), one that declines writes nothing and reads that the person declined, and one
without a callback is refused with the message naming `confirm_writes=false`. Then the bundled delete
(declared `confirm`) asks on a wiki that does not require confirmation, over HTTP in both modes
and over stdio: without a callback it is refused with the reason (no setting named: the tool
always asks) and the page stays; declined, the page stays; accepted, it goes, once. Exits
non-zero on failure.
"""

import asyncio
import subprocess
import sys

import mcp
import mcp_types as types
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


def answering(action: str, asked: list[str]):
    async def callback(context, params):
        asked.append(params.message)
        return types.ElicitResult(action=action)

    return callback


def text(result) -> str:
    return result.content[0].text if result.content else ""


async def history_versions(client, page: str) -> int:
    result = await client.call_tool("get_history", {"reference": page})
    if result.is_error:
        return 0
    return sum(1 for line in text(result).splitlines() if line.lstrip().startswith("1."))


async def write_args(client, page: str, content: str) -> dict:
    """write_document's arguments for `page`: with the version read as base_version when the page
    exists, so that what the person is asked about is a real change, not a refused create."""
    arguments = {"reference": page, "content": content}
    read = await client.call_tool("get_document", {"reference": page})
    if not read.is_error and read.structured_content:
        arguments["base_version"] = read.structured_content["version"]
    return arguments


async def exercise(open_client, label: str, page: str, can_ask: bool) -> None:
    """accept, decline, no callback on `page` through clients `open_client(callback)` opens."""
    asked: list[str] = []
    async with open_client(answering("accept", asked)) as client:
        before = await history_versions(client, page)
        result = await client.call_tool("write_document", {"reference": page, "content": f"{label} accepted"})
        if can_ask:
            assert not result.is_error, f"{label}: accepted write failed: {text(result)}"
            assert asked and page in asked[0] and "write_document" in asked[0], f"{label}: {asked}"
            after = await history_versions(client, page)
            assert after == before + 1, f"{label}: {before} -> {after} versions: not written once"
            read = await client.call_tool("get_document", {"reference": page})
            assert f"{label} accepted" in text(read), f"{label}: {text(read)[:300]}"
        else:
            assert result.is_error and "cannot ask" in text(result), f"{label}: {text(result)}"

    asked = []
    async with open_client(answering("decline", asked)) as client:
        before = await history_versions(client, page)
        result = await client.call_tool("write_document", await write_args(client, page, f"{label} declined"))
        assert result.is_error, f"{label}: a declined write succeeded"
        if can_ask:
            assert "declined" in text(result), f"{label}: {text(result)}"
        after = await history_versions(client, page)
        assert after == before, f"{label}: a declined write changed the history"

    async with open_client(None) as client:
        result = await client.call_tool("write_document", await write_args(client, page, f"{label} unasked"))
        assert result.is_error, f"{label}: a write without a way to ask succeeded"
        message = text(result)
        assert "confirm_writes=false" in message and "cannot ask" in message, f"{label}: {message}"
    print(f"ok: {label}: accept writes once, decline and no callback write nothing" if can_ask
          else f"ok: {label}: refused, nothing written (a stateless HTTP legacy call cannot ask)")


async def exercise_delete(open_client, label: str, page: str) -> None:
    """The delete, declared `confirm`, on a wiki that does not require confirmation: a client
    without a callback is refused and told why, a decline keeps the page, an accept deletes it."""
    async with open_client(None) as client:
        created = await client.call_tool("write_document", {"reference": page, "content": "doomed"})
        assert not created.is_error, f"{label}: {text(created)}"
        version = (await client.call_tool("get_document", {"reference": page})).structured_content["version"]
        delete = {"reference": page, "base_version": version}
        result = await client.call_tool("delete_document", delete)
        message = text(result)
        assert result.is_error, f"{label}: a delete without a way to ask succeeded: {message}"
        assert ("delete_document always asks" in message and "cannot ask" in message
                and "no elicitation capability" in message and "confirm_writes" not in message), \
            f"{label}: {message}"
        still = await client.call_tool("get_document", {"reference": page})
        assert not still.is_error, f"{label}: a refused delete deleted: {text(still)}"
    asked: list[str] = []
    async with open_client(answering("decline", asked)) as client:
        result = await client.call_tool("delete_document", delete)
        assert result.is_error and "declined" in text(result), f"{label}: {text(result)}"
        assert asked and page in asked[0], f"{label}: {asked}"
        still = await client.call_tool("get_document", {"reference": page})
        assert not still.is_error, f"{label}: a declined delete deleted: {text(still)}"
    asked = []
    async with open_client(answering("accept", asked)) as client:
        result = await client.call_tool("delete_document", delete)
        assert not result.is_error, f"{label}: accepted delete failed: {text(result)}"
        assert len(asked) == 1, f"{label}: the delete asked {len(asked)} times: {asked}"
        gone = await client.call_tool("get_document", {"reference": page})
        assert gone.is_error, f"{label}: an accepted delete left the page"
        again = await client.call_tool("delete_document", delete)
        assert text(again).startswith("Already deleted"), f"{label}: {text(again)}"
        assert len(asked) == 1, f"{label}: a retry of a done delete asked again: {asked}"
    print(f"ok: {label}: a confirm tool refuses a client that cannot ask; declined keeps the page, "
          "accepted deletes it once")


async def main() -> None:
    url, token, wiki_mcp, farm = sys.argv[1:5]

    def over_http(mode: str):
        def open_client(callback):
            class Opened:
                async def __aenter__(self):
                    self.http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
                    http = await self.http.__aenter__()
                    self.client = mcp.Client(streamable_http_client(url, http_client=http), mode=mode,
                                             elicitation_callback=callback)
                    return await self.client.__aenter__()

                async def __aexit__(self, *exc):
                    await self.client.__aexit__(*exc)
                    await self.http.__aexit__(*exc)

            return Opened()

        return open_client

    def over_stdio(mode: str):
        params = StdioServerParameters(
            command=wiki_mcp, args=["--data", farm, "stdio", "--wiki", "main", "--user", "admin"])

        def open_client(callback):
            return mcp.Client(stdio_client(params), mode=mode, elicitation_callback=callback)

        return open_client

    await exercise(over_http("auto"), "http/auto", "Sandbox.ConfirmHttpAuto", True)
    await exercise(over_http("legacy"), "http/legacy", "Sandbox.ConfirmHttpLegacy", True)
    await exercise(over_stdio("legacy"), "stdio/legacy", "Sandbox.ConfirmStdioLegacy", True)
    await exercise(over_stdio("auto"), "stdio/auto", "Sandbox.ConfirmStdioAuto", True)

    # The server applies the configuration on its next request.
    subprocess.run([wiki_mcp, "--data", farm, "config", "set", "--wiki", "main",
                    "tools=default,+write_document,+delete_document", "confirm_writes=false"],
                   check=True, stdout=subprocess.DEVNULL)
    await exercise_delete(over_http("legacy"), "http/legacy delete", "Sandbox.ConfirmDeleteLegacy")
    await exercise_delete(over_http("auto"), "http/auto delete", "Sandbox.ConfirmDeleteAuto")
    await exercise_delete(over_stdio("legacy"), "stdio/legacy delete", "Sandbox.ConfirmDeleteStdio")


if __name__ == "__main__":
    asyncio.run(main())
