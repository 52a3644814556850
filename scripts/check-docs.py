#!/usr/bin/env python3
"""Keeps the documentation true to the tree: every relative link in README.md, docs/*.md and Migrations/README.md
names a file that exists, every #anchor names a heading of its file (GitHub's slugs), and README.md and
docs/performance.md stay short enough to read. Prints one line per failure and ends with "N passed, M failed".

External links (http, https, mailto, ...) are not fetched. Standard library only.
"""
import os
import re
import sys
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Files whose links are checked, relative to the repository's root.
def documents():
    names = ["README.md"]
    docs = os.path.join(ROOT, "docs")
    if os.path.isdir(docs):
        names += sorted("docs/" + name for name in os.listdir(docs) if name.endswith(".md"))
    if os.path.isfile(os.path.join(ROOT, "Migrations", "README.md")):
        names.append("Migrations/README.md")
    return names

# Longest each file may be, in lines: a newcomer reads README.md and docs/performance.md through.
MAX_LINES = {"README.md": 250, "docs/performance.md": 300}

FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
# [text](target) or [text](target "title"); images too (the leading ! does not matter here).
INLINE_LINK = re.compile(r"\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^)\s]*)(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
REFERENCE_DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
HTML_ANCHOR = re.compile(r"<a\s[^>]*(?:name|id)=\"([^\"]+)\"", re.IGNORECASE)
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def prose_lines(text):
    """The file's lines outside fenced code blocks, with their numbers."""
    fence = None
    for number, line in enumerate(text.split("\n"), start=1):
        match = FENCE.match(line)
        if match:
            marker = match.group(1)
            if fence is None:
                fence = marker[0] * len(marker)
                continue
            if marker[0] == fence[0] and len(marker) >= len(fence) and line.strip() == marker:
                fence = None
                continue
        if fence is None:
            yield number, line


def heading_text(raw):
    """A heading as GitHub renders its text: links to their text, code spans and emphasis to their content."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", raw)
    text = CODE_SPAN.sub(lambda m: m.group(2), text)
    text = re.sub(r"<[^>]+>", "", text)
    text = re.sub(r"(\*+|~~)", "", text)
    return text


def slug(text):
    """GitHub's anchor for a heading: lower case, punctuation but hyphens and underscores removed, spaces to hyphens."""
    text = heading_text(text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path, cache={}):
    """Every anchor of a Markdown file: its headings' slugs (repeats numbered -1, -2, ...) and HTML anchors."""
    if path in cache:
        return cache[path]
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    found = set()
    seen = {}
    for _, line in prose_lines(text):
        match = HEADING.match(line)
        if match:
            base = slug(match.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
        for name in HTML_ANCHOR.findall(line):
            found.add(name)
    cache[path] = found
    return found


def links(text):
    """(line number, target) of every link outside code blocks and code spans."""
    for number, line in prose_lines(text):
        line = CODE_SPAN.sub("", line)
        for match in INLINE_LINK.finditer(line):
            yield number, match.group(1)
        match = REFERENCE_DEFINITION.match(line)
        if match:
            yield number, match.group(1)


def check_link(document, target):
    """None if the link resolves, else what is wrong with it."""
    target = target.strip("<>")
    if not target or SCHEME.match(target):
        return None
    path_part, _, anchor = target.partition("#")
    path_part = urllib.parse.unquote(path_part)
    anchor = urllib.parse.unquote(anchor)
    here = os.path.join(ROOT, document)
    if path_part:
        if path_part.startswith("/"):
            resolved = os.path.normpath(os.path.join(ROOT, path_part.lstrip("/")))
        else:
            resolved = os.path.normpath(os.path.join(os.path.dirname(here), path_part))
        if not os.path.exists(resolved):
            return f"no such file: {path_part}"
    else:
        resolved = here
    if anchor and resolved.endswith(".md") and os.path.isfile(resolved):
        if anchor not in anchors(resolved):
            shown = os.path.relpath(resolved, ROOT)
            return f"no heading for #{anchor} in {shown}"
    return None


def main():
    passed = 0
    failed = 0
    for document in documents():
        path = os.path.join(ROOT, document)
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        for number, target in links(text):
            problem = check_link(document, target)
            if problem:
                print(f"{document}:{number}: {target}: {problem}")
                failed += 1
            else:
                passed += 1
        limit = MAX_LINES.get(document)
        if limit is not None:
            count = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
            if count > limit:
                print(f"{document}: {count} lines, at most {limit}")
                failed += 1
            else:
                passed += 1
    for document in MAX_LINES:
        if not os.path.isfile(os.path.join(ROOT, document)):
            print(f"{document}: missing")
            failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
