#!/usr/bin/env python3
"""Copies the sample project and gives everything in it long names, for the window-size tests.

Usage: make_long_names_project.py SAMPLE_PROJECT DEST

Adds to the copy: a skill whose folder and name are 64 characters (the Agent Skills limit), a suite and
a trace with 150-character file names, and three runs of that skill on that suite whose student model
has a 90-character name. Long names in combo boxes, the sidebar and chart legends once set the main
window's minimum width past the screen (issue 35, item 1).
"""
import json
import pathlib
import shutil
import sys

LONG_SKILL = ("diffusers-cuda-rmsnorm-fused-bf16-kernel-for-flux-transformer-xx")[:64]
LONG_SUITE = "rmsnorm-cpu-checks-" + "with-a-file-name-that-goes-on-" * 4 + "and-on.json"
LONG_TRACE = "rmsnorm-flux-session-" + "recorded-on-a-long-afternoon-" * 4 + "end.jsonl"
LONG_MODEL = "hf:Qwen/Qwen3-Coder-480B-A35B-Instruct-with-an-unusually-long-fine-tune-name:fireworks-ai"


def main() -> int:
    sample, dest = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(sample, dest)

    skill_src = next((dest / "skills").iterdir())
    skill_dst = dest / "skills" / LONG_SKILL
    shutil.copytree(skill_src, skill_dst)
    skill_md = skill_dst / "SKILL.md"
    text = skill_md.read_text(encoding="utf-8")
    skill_md.write_text(text.replace(f"name: {skill_src.name}", f"name: {LONG_SKILL}", 1), encoding="utf-8")

    suite_src = dest / "tests" / "rmsnorm-cpu-checks.json"
    shutil.copy(suite_src, dest / "tests" / LONG_SUITE)
    trace_src = next((dest / "traces").iterdir())
    shutil.copy(trace_src, dest / "traces" / LONG_TRACE)

    run_src = next((dest / "runs").iterdir())
    for index in range(3):
        run_id = f"20261203T0{index}0000Z-long0{index}"
        run_dst = dest / "runs" / run_id
        shutil.copytree(run_src, run_dst)
        run_json = run_dst / "run.json"
        run = json.loads(run_json.read_text(encoding="utf-8"))
        run["run_id"] = run_id
        run["skill"]["name"] = LONG_SKILL
        run["skill"]["dir"] = str(skill_dst)
        run["suite"]["path"] = str(dest / "tests" / LONG_SUITE)
        run["started_at"] = f"2026-12-03T0{index}:00:00.000Z"
        run["models"][0]["name"] = LONG_MODEL
        run["parameters"]["models"] = [LONG_MODEL]
        run_json.write_text(json.dumps(run, indent=4), encoding="utf-8")
        results = run_dst / "results.jsonl"
        results.write_text(results.read_text(encoding="utf-8").replace("local:qwen2.5-coder-1.5b", LONG_MODEL),
                           encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
