#!/usr/bin/env python3
"""Keeps the commands, links and Python of a Markdown page (README.md) honest.

    check_readme.py links  ROOT PAGE
    check_readme.py layout ROOT PAGE
    check_readme.py shell  ROOT PAGE --tools DIR --work DIR
    check_readme.py python ROOT PAGE --tools DIR --runtime DIR --work DIR

ROOT is the repository root; PAGE the page to check.

links: every relative link of the page (`[text](target)` and reference
definitions `[label]: target`) names a file or folder that exists, and a
`#fragment` into a Markdown file names one of its headings (GitHub's
anchors: lowercase, punctuation dropped, spaces as hyphens, `-1`, `-2` for
repeats).

layout: the code block under the page's "## Layout" heading names folders
first on its lines (`lib/Target/   what it holds`); each exists, and every
top-level folder of ROOT (those .gitignore leaves in, .ci included, other
hidden ones not) and every folder under lib/ is named, by itself or by the
folders in it.

shell: every command of the page's ```sh blocks (continuation lines joined,
comments dropped) is checked by its kind, and a command of no known kind
fails the check (teach this script how to check it):
  ./build/bin/croq-opt, ./build/bin/croq-translate
      run, verbatim, in WORK, where every top-level entry of ROOT is linked
      and build/bin is DIR (the tools under test); it must exit 0;
  ./scripts/X, bash scripts/X (with VAR=value before them)
      the script exists (executable when run as ./scripts/X), and its text
      names each VAR; not run;
  cmake --build build [--target T]   T is a target some CMake file defines;
  cmake --install build ...          accepted;
  .../lit [-v] PATH...               each build/test/X exists as test/X;
  python3 -m pip install WHEEL       WHEEL is build-wheel/dist/croq-*.whl or
                                     build/dist/croq-*.whl,
                                     the wheel scripts/build-wheel.sh or
                                     scripts/ci-wheel.sh builds;
  python3 PATH ...                   PATH exists.
The first ```sh block is the quick start: .ci/run must run each of its
commands as a step (`run_step <name> <command>`).

python: the page's ```python blocks run, in WORK, as one program:
croq.compile really compiles (with the tools in DIR and the runtime in
--runtime; croq.jit compiles the classifier of its text), `torch` is a
stand-in that accepts anything, and croq.load
returns a stand-in that reads the artifact's signature and fails on an entry
point the artifact lacks or a call with the wrong number of arguments. Every
`croq.NAME` the blocks use must be in croq.__all__.

Each check prints one line per item checked; the first failure exits
non-zero with the page's line.
"""

import argparse
import fnmatch
import os
import pathlib
import re
import shlex
import subprocess
import sys

LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s+(\S+)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
EXPLICIT_ANCHOR = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")
ENV_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


def fail(page, line, message):
    sys.exit(f"{page}:{line}: {message}")


def fenced_blocks(lines, language):
    """Yields (first line number, [lines]) of each ```language block
    (language "" for blocks without one)."""
    index = 0
    while index < len(lines):
        if lines[index].startswith("```"):
            info = lines[index][3:].strip()
            start = index + 1
            body = []
            index += 1
            while index < len(lines) and not lines[index].startswith("```"):
                body.append(lines[index])
                index += 1
            if info == language:
                yield start + 1, body
        index += 1


def outside_code(lines):
    """Yields (line number, line) of the lines outside fenced blocks."""
    fenced = False
    for number, line in enumerate(lines, 1):
        if line.startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            yield number, line


# ---------------------------------------------------------------- links


def github_anchors(path):
    """The anchors GitHub gives the headings of Markdown file `path`."""
    anchors = set()
    seen = {}
    for _, line in outside_code(path.read_text(encoding="utf-8").split("\n")):
        anchors.update(EXPLICIT_ANCHOR.findall(line))
        match = HEADING.match(line)
        if not match:
            continue
        text = re.sub(r"`", "", match.group(2)).lower()
        slug = re.sub(r"[^\w\- ]", "", text).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchors.add(slug if count == 0 else f"{slug}-{count}")
    return anchors


def check_links(root, page, lines):
    checked = 0
    for number, line in outside_code(lines):
        targets = LINK.findall(line)
        reference = REFERENCE.match(line)
        if reference:
            targets.append(reference.group(1))
        for target in targets:
            if re.match(r"^[a-z]+:", target):
                continue  # https:, mailto:
            path, _, fragment = target.partition("#")
            resolved = (page.parent / path) if path else page
            if not resolved.exists():
                fail(page, number, f"link to {target}: {resolved} does not "
                     f"exist")
            if fragment:
                if resolved.suffix != ".md":
                    fail(page, number, f"link to {target}: an anchor into a "
                         f"file that is not Markdown")
                if fragment not in github_anchors(resolved):
                    fail(page, number, f"link to {target}: "
                         f"{resolved.relative_to(root)} has no heading "
                         f"whose anchor is #{fragment}")
            print(f"link: {target}")
            checked += 1
    if checked == 0:
        fail(page, 1, "no relative links checked")


# ---------------------------------------------------------------- layout


def ignored_names(root):
    """Top-level names .gitignore leaves out (`/name/` and `name/` lines)."""
    names = []
    gitignore = root / ".gitignore"
    if gitignore.is_file():
        for line in gitignore.read_text(encoding="utf-8").split("\n"):
            line = line.strip()
            if line and not line.startswith("#"):
                names.append(line.strip("/"))
    return names


def check_layout(root, page, lines):
    start = None
    for number, line in enumerate(lines):
        if line.strip() == "## Layout":
            start = number
            break
    if start is None:
        fail(page, 1, "no \"## Layout\" heading")
    blocks = [(first, body) for first, body in fenced_blocks(lines, "")
              if first > start]
    if not blocks:
        fail(page, start + 1, "no code block under \"## Layout\"")
    first, body = blocks[0]
    named = set()
    for offset, line in enumerate(body):
        if not line or line[0].isspace():
            continue
        path = line.split()[0]
        if not (root / path).exists():
            fail(page, first + offset, f"{path} does not exist")
        named.add(path.rstrip("/"))
    ignored = ignored_names(root)
    required = []
    for entry in sorted(root.iterdir()):
        if not entry.is_dir() or entry.name == ".git":
            continue
        if entry.name.startswith(".") and entry.name != ".ci":
            continue
        if any(fnmatch.fnmatch(entry.name, pattern) for pattern in ignored):
            continue
        required.append(entry.name)
    for folder, subfolders, _ in os.walk(root / "lib"):
        subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
        required += [str((pathlib.Path(folder) / d).relative_to(root))
                     for d in subfolders]
    for path in required:
        # A folder is named by itself or by the folders in it.
        if path not in named and not any(n.startswith(path + "/")
                                         for n in named):
            fail(page, first, f"the layout does not name {path}/")
        print(f"layout: {path}/")


# ---------------------------------------------------------------- shell


def shell_commands(lines):
    """Yields (line number, command text, words, block index) of every
    command in the page's ```sh blocks."""
    for block, (start, body) in enumerate(fenced_blocks(lines, "sh")):
        pending, pending_line = "", None
        for offset, raw in enumerate(body):
            if pending_line is None:
                pending_line = start + offset
            if raw.rstrip().endswith("\\"):
                pending += raw.rstrip()[:-1] + " "
                continue
            text = pending + raw
            pending, number = "", pending_line
            pending_line = None
            words = shlex.split(text, comments=True)
            if words:
                command = shlex.join(words)
                # Keep redirections as the shell reads them (2> file).
                command = re.sub(r"'(\d?[<>]+)'", r"\1", command)
                yield number, command, words, block


def make_work_dir(root, tools, work):
    """WORK: ROOT's top-level entries linked, build/bin -> the tools."""
    work.mkdir(parents=True, exist_ok=True)
    for entry in root.iterdir():
        if entry.name in ("build", ".git") or entry.name.startswith("build-"):
            continue
        link = work / entry.name
        if not link.exists():
            link.symlink_to(entry)
    (work / "build").mkdir(exist_ok=True)
    bin_link = work / "build" / "bin"
    if not bin_link.exists():
        bin_link.symlink_to(tools.resolve())


def cmake_targets(root):
    text = ""
    for folder, subfolders, files in os.walk(root):
        if pathlib.Path(folder) == root:
            subfolders[:] = [d for d in subfolders
                             if not (d.startswith("build") or d == ".git")]
        for name in files:
            if name == "CMakeLists.txt" or name.endswith(".cmake"):
                text += (pathlib.Path(folder) / name).read_text(
                    encoding="utf-8", errors="replace")
    return set(re.findall(r"add_(?:custom_target|executable|library|"
                          r"mlir_\w+|lit_testsuite)\(\s*([\w.-]+)", text))


def ci_steps(root):
    steps = []
    for line in (root / ".ci" / "run").read_text(encoding="utf-8").split("\n"):
        words = shlex.split(line, comments=True)
        if len(words) >= 3 and words[0] == "run_step":
            steps.append(shlex.join(words[2:]))
    return steps


def check_shell(root, page, lines, tools, work):
    make_work_dir(root, tools, work)
    targets = None
    steps = ci_steps(root)
    ran = 0
    for number, command, words, block in shell_commands(lines):
        env = []
        while words and ENV_ASSIGNMENT.match(words[0]):
            env.append(words.pop(0).split("=", 1)[0])
        if not words:
            fail(page, number, f"not a command: {command}")
        program = words[0]
        if block == 0 and command not in steps:
            fail(page, number, f"the quick start's `{command}` is not a step "
                 f".ci/run runs (its steps: {', '.join(steps)})")
        if program in ("./build/bin/croq-opt", "./build/bin/croq-translate"):
            result = subprocess.run(["bash", "-c", command], cwd=work,
                                    stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE, text=True)
            if result.returncode != 0:
                fail(page, number, f"`{command}` exited with "
                     f"{result.returncode}:\n{result.stderr[-2000:]}")
            print(f"ran: {command}")
            ran += 1
            continue
        script = None
        if program.startswith("./scripts/"):
            script = root / program[2:]
            if not (script.is_file() and os.access(script, os.X_OK)):
                fail(page, number, f"{program} is not an executable file")
        elif program == "bash" and len(words) > 1:
            script = root / words[1]
            if not script.is_file():
                fail(page, number, f"{words[1]} does not exist")
        if script is not None:
            text = script.read_text(encoding="utf-8")
            for name in env:
                if not re.search(rf"\b{name}\b", text):
                    fail(page, number, f"{script.relative_to(root)} does not "
                         f"mention {name}")
            print(f"script: {command}")
            continue
        if program == "cmake" and words[1:3] == ["--build", "build"]:
            if "--target" in words:
                target = words[words.index("--target") + 1]
                if targets is None:
                    targets = cmake_targets(root)
                if target not in targets:
                    fail(page, number, f"no CMake file defines the target "
                         f"{target}")
            print(f"cmake: {command}")
            continue
        if program == "cmake" and words[1:3] == ["--install", "build"]:
            print(f"cmake: {command}")
            continue
        if program.endswith("/lit") or program == "lit":
            paths = [w for w in words[1:] if not w.startswith("-")]
            for path in paths:
                source = root / re.sub(r"^build/", "", path)
                if not source.exists():
                    fail(page, number, f"{path}: {source} does not exist")
            print(f"lit: {command}")
            continue
        if (re.fullmatch(r"python3?(\.\d+)?", program) and
                words[1:4] == ["-m", "pip", "install"]):
            wheels = [w for w in words[4:] if not w.startswith("-")]
            if not wheels or not all(
                    fnmatch.fnmatch(w, "build-wheel/dist/croq-*.whl") or
                    fnmatch.fnmatch(w, "build/dist/croq-*.whl")
                    for w in wheels):
                fail(page, number, f"`{command}` installs something other "
                     f"than the wheel scripts/build-wheel.sh or "
                     f"scripts/ci-wheel.sh builds")
            print(f"pip: {command}")
            continue
        if re.fullmatch(r"python3?(\.\d+)?", program) and len(words) > 1:
            if not (root / words[1]).exists():
                fail(page, number, f"{words[1]} does not exist")
            print(f"python: {command}")
            continue
        fail(page, number, f"no check for `{command}`: teach "
             f"test/Docs/Inputs/check_readme.py how to check it")
    if ran == 0:
        fail(page, 1, "no croq-opt or croq-translate command ran")


# ---------------------------------------------------------------- python


class Anything:
    """A stand-in for torch: every attribute, call and operation works."""

    def __getattr__(self, name):
        return Anything()

    def __call__(self, *args, **kwargs):
        return Anything()

    def __iter__(self):
        return iter((Anything(), Anything()))

    def __getitem__(self, key):
        return Anything()

    def __add__(self, other):
        return Anything()

    __radd__ = __sub__ = __mul__ = __matmul__ = __truediv__ = __add__


class SignatureModule:
    """A stand-in for croq.load's Module: entry points from the signature."""

    def __init__(self, croq, path):
        from croq.module import _resolve
        library, signature = _resolve(path)
        self.path = library
        self.entries = croq.parse_signature(signature.read_text())

    def __getattr__(self, name):
        if name not in self.entries:
            raise AssertionError(f"{self.path.name} has no entry point "
                                 f"{name}; it has {', '.join(self.entries)}")
        expected = len(self.entries[name].arguments)

        def call(*args, stream=None):
            if len(args) != expected:
                raise AssertionError(f"{name} takes {expected} arguments, "
                                     f"the page passes {len(args)}")
            print(f"call: {name} ({len(args)} arguments)")
        return call


class JitStandIn:
    """A stand-in for croq.jit's module: the text's classifier compiles for
    real (the entry points come from its signature), calls are counted."""

    def __init__(self, croq, text, options):
        import tempfile
        artifact = croq.compile(text, tempfile.mkdtemp(dir="."),
                                gemm_classify=True, **options)
        print(f"jit: classifier of {', '.join(artifact.functions())}")
        self.module = SignatureModule(croq, artifact.directory)

    def __getattr__(self, name):
        return getattr(self.module, name)


def check_python(root, page, lines, tools, runtime, work):
    make_work_dir(root, tools, work)
    blocks = list(fenced_blocks(lines, "python"))
    if not blocks:
        fail(page, 1, "no ```python block")
    os.environ["CROQ_TOOLS_DIR"] = str(tools.resolve())
    os.environ["CROQ_RUNTIME_DIR"] = str(runtime.resolve())
    os.environ["CROQ_CACHE_DIR"] = str((work / "croq-cache").resolve())
    sys.path.insert(0, str(root / "python"))
    import croq
    for start, body in blocks:
        for offset, line in enumerate(body):
            for name in re.findall(r"\bcroq\.(\w+)", line.split("#")[0]):
                if name not in croq.__all__:
                    fail(page, start + offset, f"croq.{name} is not in "
                         f"croq.__all__")
    sys.modules["torch"] = Anything()
    croq.load = lambda path: SignatureModule(croq, path)
    croq.jit = lambda text, **options: JitStandIn(croq, text, options)
    os.chdir(work)
    for start, body in blocks:
        code = compile("\n" * (start - 1) + "\n".join(body), str(page), "exec")
        try:
            exec(code, {"__name__": "__readme__"})
        except Exception as error:  # noqa: BLE001: any failure fails
            line = start
            tb = error.__traceback__
            while tb is not None:
                if tb.tb_frame.f_code.co_filename == str(page):
                    line = tb.tb_lineno
                tb = tb.tb_next
            fail(page, line, f"{type(error).__name__}: {error}")
        print(f"python block at line {start}: ran")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=("links", "layout", "shell",
                                         "python"))
    parser.add_argument("root", type=pathlib.Path)
    parser.add_argument("page", type=pathlib.Path)
    parser.add_argument("--tools", type=pathlib.Path)
    parser.add_argument("--runtime", type=pathlib.Path)
    parser.add_argument("--work", type=pathlib.Path)
    args = parser.parse_args()
    root = args.root.resolve()
    page = args.page.resolve()
    lines = page.read_text(encoding="utf-8").split("\n")
    if args.mode == "links":
        check_links(root, page, lines)
    elif args.mode == "layout":
        check_layout(root, page, lines)
    elif args.mode == "shell":
        check_shell(root, page, lines, args.tools, args.work)
    else:
        check_python(root, page, lines, args.tools, args.runtime, args.work)


if __name__ == "__main__":
    main()
