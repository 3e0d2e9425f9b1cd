"""Ten everyday wiki tasks, run as an agent would through the official MCP Python SDK, measured.

Usage: python everyday_tasks.py ENDPOINT_URL TOKEN [--links] [--json]

Each task is the calls an agent makes for it on the demo farm (every tool enabled, see
tasks.sh). For every call it counts the characters the agent receives: the text content, the
structuredContent (compact JSON), the part of the text that is signed link lines (`URL:`,
`View:`, `Download:`, `Compare:` and `<url>` lines) and the URLs in the structuredContent. It prints one line per task and the totals;
`--json` prints the totals as one JSON object instead. `--links` asks for links on every call
(the per-call `_meta` key `wiki-mcp/links`). The client's person accepts every confirmation
question (the delete, declared `confirm`, asks). Exits non-zero when a task fails.
"""

import asyncio
import json
import re
import sys
from dataclasses import dataclass, field

import mcp
import mcp_types as types
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

LINK_LINE = re.compile(
    r"^\s*(?:(?:URL|View|Download|Compare): \S+|<url>\S*</url>|<https?://\S+>)\s*$"
)


@dataclass
class Tally:
    calls: int = 0
    text: int = 0
    structured: int = 0
    links: int = 0
    structured_links: int = 0
    failed: list[str] = field(default_factory=list)

    def add(self, other: "Tally") -> None:
        self.calls += other.calls
        self.text += other.text
        self.structured += other.structured
        self.links += other.links
        self.structured_links += other.structured_links
        self.failed += other.failed


class Agent:
    """Calls tools and counts what comes back."""

    def __init__(self, client: mcp.Client, links: bool) -> None:
        self.client = client
        self.meta = {"wiki-mcp/links": True} if links else None
        self.tally = Tally()

    async def call(self, name: str, arguments: dict) -> tuple[str, dict | None, bool]:
        result = await self.client.call_tool(name, arguments, meta=self.meta)
        text = "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")
        structured = result.structured_content
        self.tally.calls += 1
        self.tally.text += len(text)
        if structured is not None:
            self.tally.structured += len(json.dumps(structured, separators=(",", ":"), ensure_ascii=False))
            self.tally.structured_links += sum(len(url) + 2 for url in urls_in(structured))
        self.tally.links += sum(len(line) + 1 for line in text.splitlines() if LINK_LINE.match(line))
        return text, structured, bool(result.is_error)

    async def ok(self, name: str, arguments: dict) -> tuple[str, dict | None]:
        text, structured, failed = await self.call(name, arguments)
        if failed:
            raise TaskFailed(f"{name} {arguments}: {text[:300]}")
        return text, structured


def urls_in(value) -> list[str]:
    """Every string in a structured value that is a URL."""
    if isinstance(value, str):
        return [value] if re.match(r"https?://", value) else []
    if isinstance(value, dict):
        return [url for item in value.values() for url in urls_in(item)]
    if isinstance(value, list):
        return [url for item in value for url in urls_in(item)]
    return []


class TaskFailed(Exception):
    pass


def version_of(structured: dict | None, text: str) -> str:
    if structured and structured.get("version"):
        return structured["version"]
    found = re.search(r"[Vv]ersion:? (\d+\.\d+)", text)
    if not found:
        raise TaskFailed(f"no version in: {text[:200]}")
    return found.group(1)


async def find_and_read(agent: Agent) -> None:
    """Find the installation guide by words and read it."""
    text, _ = await agent.ok("query_documents", {"query": "install"})
    if "Guides.Install" not in text:
        raise TaskFailed(f"install guide not found: {text[:200]}")
    await agent.ok("get_document", {"reference": "Guides.Install"})


async def ask_a_question(agent: Agent) -> None:
    """Ask the collections a question in an agent's own words."""
    text, _ = await agent.ok("search_collections", {"query": "how do I configure each wiki"})
    if "Guides.Configure" not in text:
        raise TaskFailed(f"configure guide not found: {text[:300]}")


async def survey(agent: Agent) -> None:
    """Get to know the wiki: its spaces, then the pages under one."""
    await agent.ok("get_tree", {})
    await agent.ok("get_tree", {"root": "Guides.WebHome"})


async def backlinks(agent: Agent) -> None:
    """Who links to the installation guide, and what it links to."""
    text, _ = await agent.ok("get_links", {"reference": "Guides.Install", "direction": "both"})
    if "Guides.Configure" not in text:
        raise TaskFailed(f"links missing: {text[:300]}")


async def fix_a_typo(agent: Agent) -> None:
    """Read a page and fix one phrase in it."""
    text, structured = await agent.ok("get_document", {"reference": "Guides.Configure"})
    version = version_of(structured, text)
    await agent.ok(
        "edit_document",
        {
            "reference": "Guides.Configure",
            "base_version": version,
            "edits": [{"old_string": "Write tools are off", "new_string": "Write tools are disabled"}],
            "comment": "wording",
        },
    )


async def new_page(agent: Agent) -> None:
    """Write a new page, then look at it rendered."""
    await agent.ok(
        "write_document",
        {
            "reference": "Sandbox.Checklist",
            "title": "Release checklist",
            "content": "# Release checklist\n\n- [ ] Update the [install guide](Guides.Install)\n"
            "- [ ] Tag the release\n",
        },
    )
    await agent.ok("get_document", {"reference": "Sandbox.Checklist", "rendered": True})


async def what_changed(agent: Agent) -> None:
    """What changed on the configuration guide: its history and the last diff."""
    text, structured = await agent.ok("get_history", {"reference": "Guides.Configure"})
    versions = [r["version"] for r in (structured or {}).get("revisions", [])]
    if len(versions) < 2:
        raise TaskFailed(f"no two revisions: {text[:300]}")
    await agent.ok("get_history", {"reference": "Guides.Configure", "from": versions[1], "to": versions[0]})


async def read_attachment(agent: Agent) -> None:
    """Read the notes attached to the installation guide."""
    text, _ = await agent.ok("get_document", {"reference": "Guides.Install", "outline": True})
    await agent.ok("get_attachment", {"reference": "Guides.Install", "filename": "install-notes.txt"})


async def books(agent: Agent) -> None:
    """Which books are long: the class's fields, then a query."""
    await agent.ok("get_schema", {"class": "Library.BookClass"})
    text, _ = await agent.ok(
        "query_objects", {"class": "Library.BookClass", "filters": ["pages > 300"]}
    )
    if "RustBook" not in text:
        raise TaskFailed(f"long book missing: {text[:300]}")


async def add_book_and_tidy(agent: Agent) -> None:
    """Shelve a new book, then delete the scratch checklist."""
    text, structured = await agent.ok(
        "write_document",
        {"reference": "Library.Sicp", "title": "SICP", "content": "A classic. In the [Library](Library.WebHome).\n"},
    )
    await agent.ok(
        "write_object",
        {
            "reference": "Library.Sicp",
            "base_version": version_of(structured, text),
            "class": "Library.BookClass",
            "fields": {"title": "SICP", "author": "Abelson, Sussman", "pages": "657", "status": "available"},
        },
    )
    text, structured = await agent.ok("get_document", {"reference": "Sandbox.Checklist"})
    await agent.ok("delete_document", {"reference": "Sandbox.Checklist", "base_version": version_of(structured, text)})


TASKS = [
    find_and_read,
    ask_a_question,
    survey,
    backlinks,
    fix_a_typo,
    new_page,
    what_changed,
    read_attachment,
    books,
    add_book_and_tidy,
]


async def accept(context, params):
    """The person using the agent's client says yes to every confirmation (the delete asks)."""
    return types.ElicitResult(action="accept")


async def main() -> None:
    url, token = sys.argv[1], sys.argv[2]
    links = "--links" in sys.argv[3:]
    as_json = "--json" in sys.argv[3:]
    headers = {"Authorization": f"Bearer {token}"}
    total = Tally()
    async with create_mcp_http_client(headers=headers) as http_client:
        transport = streamable_http_client(url, http_client=http_client)
        async with mcp.Client(transport, mode="legacy", elicitation_callback=accept) as client:
            for task in TASKS:
                agent = Agent(client, links)
                try:
                    await task(agent)
                except TaskFailed as failure:
                    agent.tally.failed.append(f"{task.__name__}: {failure}")
                total.add(agent.tally)
                if not as_json:
                    t = agent.tally
                    status = "FAILED" if t.failed else "ok"
                    print(f"{task.__name__:18} {status:6} calls={t.calls:2} text={t.text:6} "
                          f"structured={t.structured:6} links={t.links:5} structured_links={t.structured_links:5}")
    share = total.links / total.text if total.text else 0.0
    summary = {
        "tasks": len(TASKS),
        "succeeded": len(TASKS) - len({f.split(":")[0] for f in total.failed}),
        "calls": total.calls,
        "text_chars": total.text,
        "structured_chars": total.structured,
        "link_chars": total.links,
        "link_share": round(share, 4),
        "structured_link_chars": total.structured_links,
    }
    if as_json:
        print(json.dumps(summary))
    else:
        print(f"total: {summary['succeeded']}/{len(TASKS)} tasks, {total.calls} calls, "
              f"{total.text} text chars ({total.links} in link lines, {share:.1%}), "
              f"{total.structured} structured chars ({total.structured_links} in URLs)")
    for failure in total.failed:
        print(f"failed: {failure}", file=sys.stderr)
    if total.failed:
        sys.exit(1)


if __name__ == "__main__":
    asyncio.run(main())
