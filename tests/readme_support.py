"""The README's fenced code blocks, as the README tests read them.

A block is runnable when the line right above its opening fence is the HTML comment
``<!-- runnable -->`` (GitHub shows nothing for it): ``tests/test_readme_runnable.py`` runs
those, and ``tests/test_readme_commands.py`` checks every block without running it.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
RUNNABLE = "<!-- runnable -->"
SHELL = ("sh", "bash", "shell", "console")
_FENCE = re.compile(r"^(```+)\s*([\w+-]*)\s*$")


@dataclass(frozen=True)
class Block:
    language: str  # as the fence says: sh, bash, python, ...
    code: str
    line: int  # the opening fence's line in the README, from 1
    runnable: bool

    @property
    def shell(self) -> bool:
        return self.language in SHELL

    @property
    def name(self) -> str:
        return f"README.md:{self.line}:{self.language or 'text'}"


def blocks(text: str | None = None) -> list[Block]:
    """Every fenced block of the README (or of ``text``), in order."""
    lines = (README.read_text(encoding="utf-8") if text is None else text).splitlines()
    found, i = [], 0
    while i < len(lines):
        fence = _FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        start, body = i, []
        i += 1
        while i < len(lines) and lines[i].strip() != fence.group(1):
            body.append(lines[i])
            i += 1
        if i == len(lines):
            raise ValueError(f"README.md:{start + 1}: a fence that never closes")
        above = lines[start - 1].strip() if start else ""
        found.append(Block(fence.group(2), "\n".join(body) + "\n", start + 1,
                           above == RUNNABLE))
        i += 1
    return found


def shell_commands(code: str) -> list[list[str]]:
    """The simple commands of a shell block, as words: continuation lines joined, comments
    left out, split at ``;``, ``&&``, ``|``, ``&`` and ``$( )``, redirections dropped, and
    assignments in front (``KEY=...``), ``export``, ``until``, ``do`` and their kin too."""
    commands: list[list[str]] = []
    for line in re.sub(r"\\\n\s*", " ", code).splitlines():
        lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        try:
            tokens = list(lexer)
        except ValueError as exc:  # an unclosed quote
            raise ValueError(f"cannot split {line!r}: {exc}") from exc
        part: list[str] = []
        redirect = False
        for token in [*tokens, ";"]:
            if redirect or set(token) <= set("<>"):  # a redirection and its file
                redirect = not redirect
            elif token and set(token) <= set(_PUNCTUATION):
                commands.append(part)
                part = []
            elif part or not (token in _KEYWORDS or _ASSIGNMENT.fullmatch(token)):
                part.append(token)
    return [c for c in commands if c]


_PUNCTUATION = "();<>|&"
_KEYWORDS = {"export", "until", "while", "do", "done", "then", "if", "fi", "!", "time"}
_ASSIGNMENT = re.compile(r"[A-Za-z_]\w*=.*")
