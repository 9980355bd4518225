#!/usr/bin/env python3
"""YAML lint of the GitHub Actions workflows in examples/ (python3-yaml; skipped, exit 77,
without it). Beyond parsing, the mistakes a copied workflow makes silently:
- every job has runs-on and steps, every step exactly one of `uses` and `run`;
- every `steps.ID.outputs` reference names a step id of the same job;
- an action-download-artifact step fetches from this very workflow file (`workflow:` is the
  file's own name), which is what the baseline/compare pair relies on;
- every `uses:` is pinned to a version (`@v4`, a tag or a sha).
"""
import glob
import os
import re
import sys

try:
    import yaml
except ImportError:
    print("SKIPPED: python3-yaml is not installed (scripts/setup.sh installs it)")
    sys.exit(77)


def lint(path):
    problems = []
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError as error:
        return [f"{path}: not valid YAML: {error}"]
    if not isinstance(doc, dict):
        return [f"{path}: not a mapping"]
    # PyYAML reads the bare key `on` as the boolean True (YAML 1.1).
    if "on" not in doc and True not in doc:
        problems.append(f"{path}: no `on:` trigger")
    jobs = doc.get("jobs")
    if not isinstance(jobs, dict) or not jobs:
        return problems + [f"{path}: no jobs"]
    for job_name, job in jobs.items():
        where = f"{path}: job {job_name}"
        if "runs-on" not in job:
            problems.append(f"{where}: no runs-on")
        steps = job.get("steps") or []
        if not steps:
            problems.append(f"{where}: no steps")
        ids = {step.get("id") for step in steps if isinstance(step, dict)}
        for i, step in enumerate(steps):
            label = f"{where}: step {i + 1} ({step.get('name', step.get('uses', '?'))})"
            if ("uses" in step) == ("run" in step):
                problems.append(f"{label}: needs exactly one of uses/run")
            uses = step.get("uses", "")
            if uses and "@" not in uses:
                problems.append(f"{label}: {uses} is not pinned to a version")
            if "download-artifact" in uses and "dawidd6" in uses:
                wanted = os.path.basename(path)
                got = (step.get("with") or {}).get("workflow")
                if got != wanted:
                    problems.append(f"{label}: downloads from workflow {got!r}, but this file "
                                    f"is {wanted!r}")
        for ref in re.findall(r"steps\.([A-Za-z0-9_-]+)\.outputs", yaml.safe_dump(job)):
            if ref not in ids:
                problems.append(f"{where}: steps.{ref}.outputs names no step id")
    return problems


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    files = sorted(glob.glob(os.path.join(root, "examples", "**", "*.yml"), recursive=True))
    if not files:
        print("no workflow under examples/")
        return 1
    problems = [p for path in files for p in lint(path)]
    for p in problems:
        print("FAILED: " + p)
    print(f"{len(files)} workflow(s) checked, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
