#!/usr/bin/env python3
"""Checks that README.md and docs/*.md still describe the program as built.

Usage: check_docs.py REPOSITORY_ROOT SKILLFORGE_EXECUTABLE

- Commands: every `skillforge ...` command line (in code blocks and inline code; a synopsis line's indented
  continuation lines and a shell line's trailing backslash join it) names a command that exists, and every
  --flag it uses appears in that command's `--help`. Inline code that starts with a command's words and uses a
  flag (`eval --timeout`) is read as `skillforge eval --timeout`.
- Links: every relative Markdown link and image resolves to a file or folder inside the repository.
- Figures that change: no test count is quoted ("155 tests", "out of 94"); the suite grows, so say what the
  tests cover instead.

Prints each problem as FILE:LINE: problem and a last line with the counts; exits 1 on any problem, else 0.
Standard library only.
"""

import os
import re
import shlex
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"(`+)([^`](?:.|\n)*?)\1")
# [text](target) and ![alt](target), the target up to a space (an optional "title") or the closing parenthesis.
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
COMMAND_START = re.compile(r"(?:^|(?<=[\s$(]))skillforge(?=\s|$)")
FLAG = re.compile(r"^(--?[A-Za-z][A-Za-z0-9-]*)(?:=.*)?$")
TEST_COUNT = [
    re.compile(r"\b\d[\d,]*\s+(?:[A-Za-z-]+\s+)?tests\b(?!/)"),
    re.compile(r"\btests?\s+(?:passed|failed)\b[^\n]*?\bout of\s+\d"),
]
ALWAYS_ACCEPTED = {"--help", "-h"}


class Problems:
    def __init__(self):
        self.items = []

    def add(self, path, line, message):
        self.items.append((path, line, message))


def markdown_files(root):
    files = [os.path.join(root, "README.md")]
    docs = os.path.join(root, "docs")
    if os.path.isdir(docs):
        files += sorted(os.path.join(docs, name) for name in os.listdir(docs) if name.endswith(".md"))
    return [f for f in files if os.path.isfile(f)]


def split_lines(text):
    """(line number, text, inside a code block) for each line; fence lines themselves count as inside."""
    result = []
    inside = False
    for number, line in enumerate(text.split("\n"), start=1):
        if FENCE.match(line):
            result.append((number, line, True))
            inside = not inside
            continue
        result.append((number, line, inside))
    return result


def without_inline_code(line):
    return INLINE_CODE.sub(lambda m: " " * len(m.group(0)), line)


def strip_shell_comment(line):
    # A '#' after whitespace starts a comment (outside quotes is good enough for the docs' one-liners).
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i]
    return line


def code_block_commands(lines):
    """Yields (line number, command text after 'skillforge') for the command lines of code blocks."""
    i = 0
    while i < len(lines):
        number, line, inside = lines[i]
        i += 1
        if not inside or FENCE.match(line):
            continue
        text = strip_shell_comment(line)
        match = COMMAND_START.search(text)
        if not match or text[: match.start()].strip() not in ("", "$"):
            continue
        command = text[match.end():]
        indent = len(line) - len(line.lstrip())
        # Continuations: a trailing backslash, or the lines of a synopsis indented deeper than the command.
        while i < len(lines) and lines[i][2] and not FENCE.match(lines[i][1]):
            following = lines[i][1]
            deeper = len(following) - len(following.lstrip()) >= indent + 2
            if command.rstrip().endswith("\\"):
                command = command.rstrip()[:-1] + " " + strip_shell_comment(following)
            elif deeper and following.strip() and not COMMAND_START.match(following.strip()):
                command += " " + strip_shell_comment(following)
            else:
                break
            i += 1
        yield number, command


def paragraphs(lines):
    """(first line number, text) of each run of non-blank lines outside code blocks: inline code may span lines."""
    current = []
    for number, line, inside in lines + [(0, "", False)]:
        if inside or not line.strip():
            if current:
                yield current[0][0], "\n".join(text for _, text in current)
            current = []
        else:
            current.append((number, line))


def inline_commands(lines, known):
    """Yields (line number, command text after 'skillforge') for inline code outside code blocks."""
    first_words = {words[0] for words in known}
    for first, text in paragraphs(lines):
        for match in INLINE_CODE.finditer(text):
            number = first + text.count("\n", 0, match.start())
            span = " ".join(match.group(2).split())
            start = COMMAND_START.match(span)
            if start:
                yield number, span[start.end():]
                continue
            words = span.split()
            if words and words[0] in first_words and any(FLAG.match(w) for w in words[1:]):
                yield number, " " + span


def tokens_of(command):
    try:
        raw = shlex.split(command, posix=True)
    except ValueError:
        raw = command.split()
    return raw


def split_alternatives(command, known):
    """A synopsis line may list a second command after ' | ' (`runs export ... | runs import ...`)."""
    parts = command.split(" | ")
    commands = [parts[0]]
    for part in parts[1:]:
        words = part.split()
        if any(tuple(words[: len(k)]) == k for k in known):
            commands.append(part)
        else:
            commands[-1] += " | " + part
    return commands


def flags_in(tokens):
    flags = []
    for token in tokens:
        for piece in token.strip("[](){},;").split("|"):
            piece = piece.strip("[](){},;")
            match = FLAG.match(piece)
            if match:
                flags.append(match.group(1))
    return flags


def resolve_command(tokens, known):
    """(command words or () for the top level, error or None)."""
    if not tokens or tokens[0].startswith("-"):
        return (), None
    for length in (2, 1):
        if tuple(tokens[:length]) in known:
            return tuple(tokens[:length]), None
    first = tokens[0]
    groups = {k[0] for k in known if len(k) > 1}
    if first in groups:
        subcommands = sorted(" ".join(k) for k in known if k[0] == first)
        return None, "no command 'skillforge %s' (known: %s)" % (" ".join(tokens[:2]), ", ".join(subcommands))
    if re.fullmatch(r"[a-z][a-z-]*", first):
        return None, "no command 'skillforge %s' (see skillforge --help)" % first
    return (), None  # a project folder or a placeholder: the GUI


class Program:
    """The built skillforge, run with a throwaway HOME so that no setting of the user's is read or written."""

    def __init__(self, executable, home):
        self.executable = executable
        self.home = home
        self.environment = dict(os.environ)
        self.environment.update(
            {
                "HOME": self.home,
                "XDG_CONFIG_HOME": os.path.join(self.home, "config"),
                "XDG_DATA_HOME": os.path.join(self.home, "data"),
                "XDG_CACHE_HOME": os.path.join(self.home, "cache"),
                "QT_QPA_PLATFORM": "offscreen",
            }
        )
        self.helps = {}

    def help(self, words):
        if words not in self.helps:
            try:
                result = subprocess.run(
                    [self.executable, *words, "--help"],
                    env=self.environment,
                    capture_output=True,
                    text=True,
                    timeout=60,
                )
                self.helps[words] = (result.returncode, result.stdout + result.stderr)
            except subprocess.TimeoutExpired:
                self.helps[words] = (-1, "(no answer within 60 s)")
        return self.helps[words]

    def commands(self):
        code, text = self.help(())
        if code != 0:
            raise RuntimeError("skillforge --help exited %d:\n%s" % (code, text))
        known = set()
        listing = False
        for line in text.splitlines():
            if line.strip() == "Commands:":
                listing = True
                continue
            if listing:
                match = re.match(r"^  (\S+(?: \S+)*?)(?:\s{2,}|$)", line)
                if not match:
                    if line.strip():
                        listing = False
                    continue
                known.add(tuple(match.group(1).split()))
        if not known:
            raise RuntimeError("skillforge --help lists no commands:\n" + text)
        return known


def check_commands(path, lines, program, known, problems):
    checked = 0
    found = list(code_block_commands(lines)) + list(inline_commands(lines, known))
    for number, command in sorted(found):
        for alternative in split_alternatives(command, known):
            tokens = tokens_of(alternative)
            words, error = resolve_command(tokens, known)
            checked += 1
            if error:
                problems.add(path, number, error)
                continue
            code, text = program.help(words)
            name = " ".join(("skillforge",) + words)
            if code != 0:
                problems.add(path, number, "'%s --help' exited %d" % (name, code))
                continue
            for flag in flags_in(tokens[len(words):]):
                if flag in ALWAYS_ACCEPTED or (not words and flag == "--version"):
                    continue
                if not re.search(r"(?<![\w-])" + re.escape(flag) + r"(?![\w-])", text):
                    problems.add(path, number, "%s: '%s --help' does not mention %s" % (name, name, flag))
    return checked


def check_links(root, path, lines, problems):
    checked = 0
    real_root = os.path.realpath(root)
    for number, line, inside in lines:
        if inside:
            continue
        text = without_inline_code(line)
        targets = [m.group(1) for m in LINK.finditer(text)]
        reference = REFERENCE.match(text)
        if reference:
            targets.append(reference.group(1))
        for target in targets:
            if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target) or target.startswith("#"):
                continue  # a URL (https:, mailto:) or an anchor in the same page
            checked += 1
            relative = re.split(r"[#?]", target, maxsplit=1)[0]
            resolved = os.path.realpath(os.path.join(os.path.dirname(path), relative))
            if os.path.commonpath([resolved, real_root]) != real_root:
                problems.add(path, number, "link %s points outside the repository" % target)
            elif not os.path.exists(resolved):
                problems.add(path, number, "link %s: no such file" % target)
    return checked


def check_counts(path, lines, problems):
    for number, line, _ in lines:
        for pattern in TEST_COUNT:
            match = pattern.search(line)
            if match:
                problems.add(
                    path,
                    number,
                    "quotes a test count (\"%s\"), which goes stale as the suite grows: say what the tests "
                    "cover instead" % match.group(0),
                )
                break


def main(argv):
    if len(argv) != 3:
        print("usage: check_docs.py REPOSITORY_ROOT SKILLFORGE_EXECUTABLE", file=sys.stderr)
        return 2
    root, executable = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    if not os.path.isfile(os.path.join(root, "README.md")):
        print("check_docs.py: %s has no README.md" % root, file=sys.stderr)
        return 2
    if not os.access(executable, os.X_OK):
        print("check_docs.py: %s is not an executable file" % executable, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="check-docs-") as home:
        program = Program(executable, home)
        known = program.commands()
        problems = Problems()
        files = markdown_files(root)
        commands = links = 0
        for path in files:
            with open(path, encoding="utf-8") as f:
                lines = split_lines(f.read())
            commands += check_commands(path, lines, program, known, problems)
            links += check_links(root, path, lines, problems)
            check_counts(path, lines, problems)
    order = {path: i for i, path in enumerate(files)}
    for path, number, message in sorted(problems.items, key=lambda p: (order[p[0]], p[1])):
        print("%s:%d: %s" % (os.path.relpath(path, root), number, message))
    print(
        "check_docs: %d files, %d command lines (%d commands' --help read), %d relative links: %d problem%s"
        % (len(files), commands, len(program.helps), links, len(problems.items), "" if len(problems.items) == 1 else "s")
    )
    return 1 if problems.items else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
