"""The rules of the web app's sources, read without a browser: no markup from strings, every text translated
in both languages, and every file embedded (listed in WebAppFiles.swift and in Package.swift)."""
import os
import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[1]
REPO = WEB.parents[1]


def app_files():
    for folder, _, names in os.walk(WEB):
        for name in names:
            relative = (Path(folder) / name).relative_to(WEB).as_posix()
            if not (relative.startswith("tests/") or relative.endswith(".swift") or relative.endswith(".md")):
                yield relative


def scripts():
    return {path: (WEB / path).read_text() for path in app_files() if path.endswith(".js")}


def keys(path):
    return re.findall(r'^\s*"([^"]+)":', (WEB / path).read_text(), re.M)


def test_no_markup_from_strings_and_no_inline_style():
    forbidden = re.compile(r"\.(innerHTML|outerHTML)\b|insertAdjacentHTML|document\.write|\beval\(|new Function\(|setAttribute\(\s*\"(style|on\w+)\"")
    found = {path: forbidden.findall(text) for path, text in scripts().items() if forbidden.search(text)}
    assert not found, found
    assert "style=" not in (WEB / "index.html").read_text()
    assert "<script>" not in (WEB / "index.html").read_text()


def test_every_text_is_in_both_languages():
    english, spanish = keys("js/lang/en.js"), keys("js/lang/es.js")
    assert len(english) == len(set(english)), "a key twice in en.js"
    assert set(english) == set(spanish), set(english) ^ set(spanish)
    used = set()
    for text in scripts().values():
        used |= set(re.findall(r'\bt\("([^"]+)"', text))
    assert used - set(english) == set(), used - set(english)


def test_no_other_origin_is_loaded():
    for path in ["index.html", "css/app.css", "manifest.webmanifest"]:
        assert not re.search(r'(src|href|url)\s*[=(:]\s*"?https?://', (WEB / path).read_text()), path
    for path, text in scripts().items():
        assert not re.search(r"import[^;]*https?://", text), path


def test_every_file_is_embedded():
    files = set(app_files())
    resource = {path: re.sub(r"[.-]", "_", Path(path).name) for path in files}
    assert len(set(resource.values())) == len(files), "two files with the same base name"
    listed = dict(re.findall(r'"([^"]+)": PackageResources\.(\w+),', (WEB / "WebAppFiles.swift").read_text()))
    assert listed == resource
    package = (REPO / "Package.swift").read_text()
    target = re.search(r'name: "SGWebApp",.*?resources: \[(.*?)\]', package, re.S).group(1)
    assert set(re.findall(r'\.embedInCode\("([^"]+)"\)', target)) == files
