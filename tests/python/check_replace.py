"""A replacement across pages, and the structured results of the tools that answer one, through
the official MCP Python SDK in both connection modes.

Usage: python check_replace.py ENDPOINT_URL TOKEN

The wiki `main` serves write_document and replace_in_documents (run.sh enables them). In `legacy`
and `auto` mode, as the token's user, with a client that accepts when the person is asked:
- two pages written with a marker, a preview of replace_in_documents over their space lists both
  with one replacement each and their versions, and writes nothing;
- the apply, sent the pages as the preview gave them, saves each page once with the
  replacement, and says so page by page;
- the structured results of replace_in_documents (preview and apply), man (catalog and a page),
  list_collections and search_collections validate (JSON Schema 2020-12, the `jsonschema`
  package) against the `outputSchema` tools/list advertises for each.
Exits non-zero on failure.
"""

import asyncio
import sys

import jsonschema
import mcp
import mcp_types as types
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client


async def accept(context, params):
    return types.ElicitResult(action="accept")


def text(result) -> str:
    return result.content[0].text if result.content else ""


class Checker:
    """Calls a tool and validates its structured result against the schema tools/list gave."""

    def __init__(self, client, tools, mode: str):
        self.client, self.tools, self.mode = client, tools, mode

    async def call(self, tool: str, arguments: dict) -> dict:
        result = await self.client.call_tool(tool, arguments)
        assert not result.is_error, f"{self.mode}: {tool} {arguments} failed: {text(result)}"
        schema = self.tools[tool].output_schema
        assert schema, f"{self.mode}: {tool} advertises no outputSchema"
        structured = result.structured_content
        assert structured is not None, f"{self.mode}: {tool} gave no structuredContent"
        errors = [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(structured)]
        assert not errors, f"{self.mode}: {tool} structuredContent does not validate: {errors}"
        return structured


async def check(url: str, token: str, mode: str) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    async with create_mcp_http_client(headers=headers) as http_client:
        transport = streamable_http_client(url, http_client=http_client)
        async with mcp.Client(transport, mode=mode, elicitation_callback=accept) as client:
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            checker = Checker(client, tools, mode)

            catalog = await checker.call("man", {})
            assert "replace_in_documents" in catalog["tools"], f"{mode}: {catalog}"
            page = await checker.call("man", {"tool": "replace_in_documents"})
            assert page["page"] == "replace_in_documents", f"{mode}: {page}"
            await checker.call("list_collections", {})
            await checker.call("search_collections", {"query": "install"})

            space = f"Renames{mode.capitalize()}"
            old, new = f"Zorblax {mode}", f"Quillon {mode}"
            pages = [f"{space}.First", f"{space}.Second"]
            for reference in pages:
                written = await client.call_tool(
                    "write_document", {"reference": reference, "content": f"# {old}\n\nAbout {old}.\n"})
                assert not written.is_error, f"{mode}: {text(written)}"

            preview = await checker.call(
                "replace_in_documents", {"find": f"About {old}", "replace": f"About {new}", "space": space})
            listed = sorted(p["reference"] for p in preview["pages"])
            assert listed == sorted(f"main:{p}" for p in pages), f"{mode}: preview listed {listed}"
            assert all(p["status"] == "matches" and p["replacements"] == 1 for p in preview["pages"]), preview
            unchanged = await client.call_tool("get_document", {"reference": pages[0]})
            assert f"About {old}" in text(unchanged), f"{mode}: the preview wrote: {text(unchanged)}"

            chosen = [{"reference": p["reference"], "base_version": p["base_version"]} for p in preview["pages"]]
            applied = await checker.call(
                "replace_in_documents",
                {"find": f"About {old}", "replace": f"About {new}", "pages": chosen, "comment": "rename"})
            assert all(p["status"] == "replaced" and p.get("version") for p in applied["pages"]), applied
            for reference in pages:
                read = await client.call_tool("get_document", {"reference": reference})
                body = text(read)
                assert f"About {new}" in body and f"# {old}" in body, f"{mode}: {reference}: {body}"
            print(f"ok: {mode} mode: replace_in_documents previews then applies on {len(pages)} pages; "
                  "man, list_collections, search_collections and replace_in_documents results validate")


async def main() -> None:
    url, token = sys.argv[1], sys.argv[2]
    for mode in ("legacy", "auto"):
        await check(url, token, mode)


if __name__ == "__main__":
    asyncio.run(main())
