#!/usr/bin/env python3
"""Prints what a `tools/list` answer costs an agent, in characters of compact JSON as sent:
per tool (all, then the part the model reads: name, title, description, input schema) and in
total. Reads a golden snapshot (bundled-tools/tests/golden/tools-list.*.json) or standard input.

    tests/tools_list_size.py bundled-tools/tests/golden/tools-list.main.user.reach.json
    git show main:bundled-tools/tests/golden/tools-list.main.user.reach.json | tests/tools_list_size.py
"""
import json
import sys


def size(value):
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False))


def walk(value):
    yield value
    children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    for child in children:
        yield from walk(child)


def main():
    source = open(sys.argv[1], encoding="utf-8") if len(sys.argv) > 1 else sys.stdin
    tools = json.load(source)["tools"]
    total = read = output = 0
    print(f"{'tool':<20} {'sent':>7} {'read':>7} {'output':>7}")
    for tool in tools:
        sent = size(tool)
        model = size({k: tool[k] for k in ("name", "title", "description", "inputSchema") if k in tool})
        out = size(tool.get("outputSchema", {}))
        total, read, output = total + sent, read + model, output + out
        print(f"{tool['name']:<20} {sent:>7} {model:>7} {out:>7}")
    formats = sum(1 for _ in walk(tools) if isinstance(_, dict) and "format" in _
                  and str(_["format"]).startswith(("int", "uint", "double", "float")))
    print(f"{len(tools)} tools: {total} characters sent ({total // len(tools)} per tool), "
          f"{read} read by the model ({read // len(tools)} per tool), outputSchema {output} "
          f"({100 * output // total}%); number formats clients do not know: {formats}")


main()
