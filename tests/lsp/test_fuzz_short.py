"""A short run of the LSP fuzzer (scripts/fuzz_lsp.py): 300 random edits of two real kernels
with every request interleaved, the pipeline on, a fixed seed. One run per module; each check
is its own test, so a failure names the check (and its samples: the reproductions)."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
ARGS = ["--seed", "1", "--edits", "300", "--kernels", "vector_add,row_softmax", "--time-limit", "150", "--samples", "3"]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict:
    out = tmp_path_factory.mktemp("fuzz") / "fuzz.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "fuzz_lsp.py"), *ARGS, "--json", str(out), "--artifacts", str(out.parent)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    if not out.exists():
        pytest.fail(f"the fuzzer wrote no report (exit {done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    rep = json.loads(out.read_text())
    rep["summary"] = done.stdout
    return rep


def _check(report: dict, kind: str) -> None:
    found = report["failures"].get(kind)
    if found:
        samples = "\n".join(json.dumps(s)[:1500] for s in found["samples"])
        pytest.fail(f"{kind}: {found['count']}\n{samples}\n\n{report['summary'][-4000:]}")


def test_ran_every_edit(report: dict):
    assert report["edits"] == 300, report["summary"]
    assert len(report["final"]) == 2, report["summary"]


@pytest.mark.parametrize(
    "kind",
    ["crash", "error_response", "unanswered", "handler_exception", "invalid_range", "stale_publish", "exit", "protocol", "harness"],
)
def test_no_protocol_failures(report: dict, kind: str):
    _check(report, kind)


def test_server_text_equals_client_text(report: dict):
    _check(report, "text_mismatch")


def test_final_diagnostics_match_the_cli(report: dict):
    _check(report, "not_settled")
    _check(report, "final_diagnostics")
