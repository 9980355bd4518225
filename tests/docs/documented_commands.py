#!/usr/bin/env python3
"""Every documented gpuperf command is run, so that a broken example fails CI.

Commands come from the fenced code blocks of README.md, docs/*.md and examples/**/*.md, the
`run:` steps of examples/**/*.yml, and the "Examples:" block of every `gpuperf CMD --help`.
Each runs verbatim (the `gpuperf` word and `build/src/gpuperf` mean the binary under test) in a
sandbox directory whose files carry the names the examples use (trace.json.gz, report1.sqlite,
ncu.csv, ...), made from the shared corpus ($GPUPERF_CORPUS) and the model-file example of
docs/metrics.md. A command passes when it exits 0 (compare: 0, 3, 4 or 5, its CI verdicts) and
prints no "gpuperf: error".

What cannot run here is in SKIPPED below, each with its reason; a command that is neither
runnable nor listed fails the test. Without GPUPERF_CORPUS the test is skipped (exit 77).
"""
import argparse
import glob
import gzip
import os
import re
import shutil
import subprocess
import sys
import tempfile

# Documented commands that do not run in this test: (regular expression, reason).
SKIPPED = [
    (r"^gpuperf baseline\b", "records a program on a GPU (docs/gpu-validation.md runs it there)"),
    (r"^gpuperf ceilings( --device .*)?$", "measures a GPU's ceilings (needs a GPU); "
     "`gpuperf ceilings --show` runs here"),
    (r"^gpuperf analyze \S+ --sass\b", "needs a CUDA program and cuobjdump "
     "(sass_cuobjdump_test.cc covers it with the SASS fixture)"),
    (r"^gpuperf compare before/ after/$", "two baseline directories are recorded on a GPU"),
    (r"^(srun|mpirun|torchrun|sbatch)\b", "a cluster launcher line"),
    (r"^gpuperf compare perf-base perf-now\b", "the CI job's baseline directories, recorded on a GPU"),
    (r"^jq\b", "reads the CI job's compare.json; its keys are checked in cli_compare_test.cc"),
    (r"^tests/gpu/|^run\(", "the GPU check (docs/gpu-validation.md), run on a lent GPU"),
    (r"^build-fuzz/", "needs the clang libFuzzer build"),
    (r"^scripts/demo\.sh$", "run by the demo_script test"),
    (r"^scripts/test\.sh$", "the suite itself (.ci/run)"),
    (r"^GPUPERF_CORPUS=\S+ ctest\b", "the suite itself; a relative GPUPERF_CORPUS is covered "
     "by corpus_env.cc"),
    (r"^cmake\b", "the build the tests run in (install_layout covers cmake --install)"),
    (r"^ctest\b", "the suite itself"),
]

# Sandbox file name -> corpus path (relative to $GPUPERF_CORPUS).
CORPUS_FILES = {
    # Has softmax kernels, which `predict --help` names.
    "trace.json.gz": "kineto/hta/trace_filter/sampled_rank-0.json.gz",
    "my_trace.json.gz": "kineto/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz",
    "base.json.gz": "kineto/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz",
    "test.json.gz": "kineto/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz",
    "worker0.json.gz": "kineto/hta/trace_diff/control/control.json.gz",
    "worker1.json.gz": "kineto/hta/trace_diff/control/control.json.gz",
    "job/rank-0.json.gz": "kineto/hta/trace_diff/control/control.json.gz",
    "job/rank-1.json.gz": "kineto/hta/trace_diff/control/control.json.gz",
    "report1.sqlite": "nsys/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite",
    "ncu.csv": "ncu/learningnote4dev-a100/sgemm.csv",
}


def fenced_blocks(text):
    for match in re.finditer(r"^```([a-z]*)\n(.*?)^```", text, re.S | re.M):
        yield match.group(1), match.group(2)


def joined_lines(block):
    """Lines with backslash continuations joined."""
    lines, pending = [], ""
    for line in block.splitlines():
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        lines.append(pending + line)
        pending = ""
    if pending:
        lines.append(pending)
    return lines


def strip_comment(line):
    # "cmd   # comment" -> "cmd" (a # inside quotes is not a comment in these examples)
    return re.sub(r"\s+#\s.*$", "", line).strip()


def is_synopsis(line):
    """A usage line: [OPTIONS], ALL-CAPS placeholders or alternatives, not a runnable command."""
    words = line.split()[1:]
    return ("[" in line and "]" in line) or any(
        re.fullmatch(r"[A-Z_]{3,}(\|[A-Z_]+)*\.*", w) for w in words) or "DIR|" in line


# A command line starts in column 0 with one of these words (after VAR=value assignments);
# indented lines are descriptions, "gpuperf: ..." lines are output, "# ..." comments.
COMMAND_WORDS = re.compile(
    r"^(\w+=\S+\s+)*(gpuperf|build/src/gpuperf|scripts/\S+|cmake|ctest|srun|mpirun|"
    r"torchrun|sbatch|jq|tests/gpu/\S+|run\(|build-fuzz/\S+)(\s|$)")


def command_lines(text):
    for lang, block in fenced_blocks(text):
        if lang not in ("", "sh", "bash", "console", "shell"):
            continue
        for line in joined_lines(block):
            if not COMMAND_WORDS.match(line):
                continue
            line = strip_comment(line)
            if line:
                yield line


def documented(source):
    files = ["README.md"] + sorted(glob.glob("docs/*.md")) + sorted(
        glob.glob("examples/**/*.md", recursive=True))
    for path in files:
        with open(os.path.join(source, path), encoding="utf-8") as f:
            for line in command_lines(f.read()):
                yield path, line
    for path in sorted(glob.glob("examples/**/*.yml", recursive=True)):
        with open(os.path.join(source, path), encoding="utf-8") as f:
            for line in f:
                line = strip_comment(line.strip())
                if line.startswith("gpuperf "):
                    yield path, line


def help_examples(gpuperf):
    top = subprocess.run([gpuperf, "--help"], capture_output=True, text=True, check=True).stdout
    listing = re.split(r"(?i)^subcommands:", top, flags=re.M)[-1]
    commands = re.findall(r"^\s{2}([a-z]+)\s{2,}", listing, re.M)
    if not commands:
        raise SystemExit("no command listed in `gpuperf --help`")
    for command in commands:
        text = subprocess.run([gpuperf, command, "--help"], capture_output=True, text=True,
                              check=True).stdout
        if "Examples:" not in text:
            yield f"gpuperf {command} --help", None  # every command documents examples
            continue
        for line in text.split("Examples:", 1)[1].splitlines():
            m = re.match(r"^  (gpuperf .*)$", line)
            if m:
                yield f"gpuperf {command} --help", strip_comment(re.sub(r"\s+\(.*\)$", "",
                                                                       m.group(1)))


def skip_reason(line):
    for pattern, reason in SKIPPED:
        if re.search(pattern, line):
            return reason
    return None


def model_file_from_docs(source):
    with open(os.path.join(source, "docs/metrics.md"), encoding="utf-8") as f:
        for lang, block in fenced_blocks(f.read()):
            if lang == "json" and "gpuperf-kernel-model/1" in block:
                return block
    raise SystemExit("docs/metrics.md has no gpuperf-kernel-model/1 example")


def make_sandbox(root, corpus, source, gpuperf):
    for name, relative in CORPUS_FILES.items():
        path = os.path.join(root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        os.symlink(os.path.join(corpus, relative), path)
    with gzip.open(os.path.join(root, "trace.json.gz"), "rb") as src, \
            open(os.path.join(root, "trace.json"), "wb") as dst:
        shutil.copyfileobj(src, dst)
    os.symlink(os.path.join(os.path.abspath(source), "examples"), os.path.join(root, "examples"))
    with open(os.path.join(root, "gemm-model.json"), "w", encoding="utf-8") as f:
        f.write(model_file_from_docs(source))
    # What earlier steps of a workflow would have written: reports and rank summaries.
    prepare = [
        ["analyze", "trace.json.gz"],
        ["analyze", "trace.json.gz", "--out", "old", "--format", "json"],
        ["analyze", "trace.json.gz", "--out", "new", "--format", "json"],
        ["analyze", "worker0.json.gz", "--summary", "--format", "json", "--out", "sum/0"],
        ["analyze", "worker1.json.gz", "--summary", "--format", "json", "--out", "sum/1"],
    ]
    for args in prepare:
        subprocess.run([gpuperf] + args, cwd=root, check=True, capture_output=True)
    os.makedirs(os.path.join(root, "home"), exist_ok=True)  # ~ without a ceilings cache


def run(line, root, bindir):
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"],
               HOME=os.path.join(root, "home"), COLUMNS="80")
    env.pop("XDG_CACHE_HOME", None)
    line = re.sub(r"^build/src/gpuperf\b", "gpuperf", line)
    return subprocess.run(["bash", "-c", line], cwd=root, env=env, capture_output=True,
                          text=True, timeout=300)


def corpus_root():
    """$GPUPERF_CORPUS; a relative one as the user meant it: from the directory the command was
    typed in ($PWD; ctest runs tests in build/tests), else from here or a parent (corpus_env.cc
    does the same for the C++ tests, without the parents)."""
    value = os.environ.get("GPUPERF_CORPUS", "")
    if not value or os.path.isabs(value):
        return value
    # PWD first; then the test's directory and its parents (an interpreter started through a
    # shell wrapper, as pyenv's shims are, sees PWD reset to the test's directory).
    bases = [os.environ.get("PWD", "")]
    here = os.getcwd()
    while True:
        bases.append(here)
        if os.path.dirname(here) == here:
            break
        here = os.path.dirname(here)
    for base in bases:
        if base and os.path.isdir(os.path.join(base, value)):
            return os.path.abspath(os.path.join(base, value))
    return value


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gpuperf", required=True)
    parser.add_argument("--source", required=True)
    args = parser.parse_args()
    corpus = corpus_root()
    if not corpus:
        print("SKIPPED: GPUPERF_CORPUS is unset; the documented commands need corpus inputs")
        return 77
    os.chdir(args.source)
    gpuperf = os.path.abspath(args.gpuperf)
    commands = list(documented(args.source)) + list(help_examples(gpuperf))
    failures, ran, skipped = [], 0, 0
    with tempfile.TemporaryDirectory(prefix="gpuperf-docs-") as root:
        bindir = os.path.join(root, "bin")
        os.makedirs(bindir)
        os.symlink(gpuperf, os.path.join(bindir, "gpuperf"))
        make_sandbox(root, corpus, args.source, gpuperf)
        for where, line in commands:
            if line is None:
                failures.append(f"{where}: no Examples: block")
                continue
            reason = skip_reason(line)
            if reason:
                skipped += 1
                print(f"skip  {where}: {line}  ({reason})")
                continue
            if not re.match(r"^(build/src/)?gpuperf\s", line):
                failures.append(f"{where}: {line}: neither a gpuperf command nor in SKIPPED")
                continue
            if is_synopsis(line):
                continue
            result = run(line, root, bindir)
            ran += 1
            allowed = (0, 3, 4, 5) if line.split()[1] == "compare" else (0,)
            ok = result.returncode in allowed and "gpuperf: error" not in result.stderr
            print(f"{'ok   ' if ok else 'FAIL '} {where}: {line}  (exit {result.returncode})")
            if not ok:
                failures.append(f"{where}: {line}: exit {result.returncode}: "
                                f"{result.stderr.strip()[-400:]}")
    print(f"{ran} commands run, {skipped} skipped, {len(failures)} failed")
    for failure in failures:
        print("FAILED: " + failure)
    return 1 if failures or ran == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
