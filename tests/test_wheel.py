"""The wheel carries the grammar, the schema and the packs, and works outside the checkout."""

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = r"""
import phasedsl, sys
from pathlib import Path
assert str(Path(phasedsl.__file__).resolve()).startswith(sys.argv[1]), phasedsl.__file__
from phasedsl.system.resources import grammar_path, variants_dir, schema_path
assert grammar_path().is_relative_to(sys.argv[1]) and grammar_path().exists()
assert schema_path().is_relative_to(sys.argv[1]) and schema_path().exists()
assert variants_dir().is_relative_to(sys.argv[1])
from phasedsl.packs import builtin_names, load_pack
names = builtin_names()
assert "world-tour" in names and len(names) >= 20, names
for n in names:
    load_pack(n)
print("ok", len(names))
"""


def test_wheel_works_outside_the_checkout(tmp_path):
    hatchling = pytest.importorskip("hatchling")
    del hatchling
    out = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "hatchling", "build", "-t", "wheel", "-d", str(out)],
                   cwd=ROOT, check=True, capture_output=True)
    wheel = next(out.glob("phasedsl-*.whl"))
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        assert "phasedsl/data/phase.lark" in names
        assert "phasedsl/pack.schema.json" in names
        assert "phasedsl/data/variants/original.yaml" in names
        z.extractall(site)
    away = tmp_path / "elsewhere"
    away.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site)}
    r = subprocess.run([sys.executable, "-c", SCRIPT, str(site.resolve())], cwd=away, env=env,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("ok")
    r = subprocess.run([sys.executable, "-m", "phasedsl.cli", "check", "--variant", "masters",
                        "--phase", "1", "R5 B5 W G9 G9 Y9"], cwd=away, env=env,
                       capture_output=True, text=True)
    assert r.returncode == 0 and "made" in r.stdout, r.stderr
    import phasedsl

    assert wheel.name.startswith(f"phasedsl-{phasedsl.__version__}-")  # one version, in __init__
    for module in ("phasedsl.cli", "phasedsl"):  # `python -m phasedsl` is the command too
        r = subprocess.run([sys.executable, "-m", module, "--version"], cwd=away, env=env,
                           capture_output=True, text=True)
        assert r.returncode == 0 and r.stdout == f"phasedsl {phasedsl.__version__}\n", r.stderr
    assert "phasedsl/__main__.py" in names
    # the pages help names (`phasedsl docs bot-protocol`) and their examples are installed
    from phasedsl.cli.docs import PAGES

    for page in PAGES:
        assert f"phasedsl/data/docs/{page}" in names, page
    r = subprocess.run([sys.executable, "-m", "phasedsl.cli", "docs", "bot-protocol"], cwd=away,
                       env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout == (ROOT / "docs" / "bot-protocol.md").read_text(encoding="utf-8").rstrip("\n") + "\n"
    r = subprocess.run([sys.executable, "-m", "phasedsl.cli", "docs", "examples/bot.py", "--path"],
                       cwd=away, env=env, capture_output=True, text=True)
    assert Path(r.stdout.strip()).is_relative_to(site.resolve()) and Path(r.stdout.strip()).exists()
