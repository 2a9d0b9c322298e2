"""generate --from: what balance passes is kept; what it flags is moved or replaced."""

from __future__ import annotations

import json
from dataclasses import replace

from typer.testing import CliRunner

from phasedsl.cli import app
from phasedsl.design.balance import balance
from phasedsl.design.improve import improve, pack_kinds, replace_flagged
from phasedsl.design.reorder import write_reordered
from phasedsl.packs.pack import load_pack

runner = CliRunner()


def test_a_pack_balance_passes_is_left_as_it_is(tmp_path):
    # short-game-5 at two players, as balance measures it: nothing flagged
    got = improve("short-game-5", players=2, games=20)
    assert got.how == "nothing" and got.replaced == {} and got.changes() == []
    out = tmp_path / "same.yaml"
    r = runner.invoke(app, ["generate", "--from", "short-game-5", "--players", "2", "-o",
                            str(out), "--json", "--jobs", "1"])
    assert r.exit_code == 0, r.output
    said = json.loads(r.stdout)
    assert said["how"] == "nothing" and said["written"]["written"] is False
    assert not out.exists()


def test_original_is_reordered_as_balance_proposes_and_each_move_is_said(tmp_path):
    out = tmp_path / "better.yaml"
    r = runner.invoke(app, ["generate", "--from", "original", "-o", str(out), "--jobs", "2",
                            "--json"])
    assert r.exit_code == 0, r.output
    said = json.loads(r.stdout)
    # (moving 4 and 8 alone leaves a flag on original; balance's proposal removes both)
    assert said["how"] == "reordered" and said["balance_before"]["flagged"] == [4, 8]
    assert said["order"] == [1, 2, 4, 8, 5, 3, 6, 9, 10, 7]
    assert "phase 4 (1 run of 7) moved to place 3" in said["changes"]
    pack = load_pack(out)
    old = load_pack("original").worlds[0].phases
    assert [e.text for e in pack.worlds[0].phases] == [old[n - 1].text for n in said["order"]]
    text = out.read_text()
    assert text.startswith("# made by: phasedsl generate --from original --seed 1 -o better.yaml")
    assert "(reordered by phasedsl generate)" in text


def test_a_flag_no_order_removes_is_replaced_and_every_other_phase_kept(tmp_path):
    pack = load_pack("short-game-5")
    b = balance(pack, None, 2, games=20, seed=1, all_sizes=False)
    # as if no order removed the flag of the phase played third
    third = b.proposed.order[2]
    rows = tuple(replace(r, easier_than_previous=r.number == third) for r in b.proposed.phases)
    before = replace(b, proposed=replace(b.proposed, phases=rows))
    assert before.proposed.flagged == (third,) and not before.resolved
    got = replace_flagged(pack, None, before, before.proposed, pack_kinds(pack, None), 1, 1,
                          lambda *a: None)
    assert got.how == "replaced" and list(got.replaced) == [3]
    assert got.replaced[3] not in {e.text for e in pack.worlds[0].phases}
    assert got.order[2] == third  # (the place keeps the number of what it replaced)
    assert f"phase 3 ({pack.worlds[0].phases[third - 1].phase}) replaced by" in \
        got.changes()[-1] or any("replaced by" in c for c in got.changes())
    out = tmp_path / "mended.yaml"
    made = write_reordered(pack, {None: got.order}, out, False, "phasedsl generate --from x",
                           {None: got.replaced})
    assert made["worlds"][0]["replaced"][0]["place"] == 3
    written = load_pack(out).worlds[0].phases
    kept = [pack.worlds[0].phases[n - 1].text for n in got.order]
    assert [e.text for i, e in enumerate(written) if i != 2] == \
        [t for i, t in enumerate(kept) if i != 2]
    assert written[2].text == got.replaced[3]
    assert "(improved by phasedsl generate)" in out.read_text()


def test_from_refuses_what_does_not_go_with_it():
    for args, says in ((["--from", "original", "--phases", "5"], "--phases"),
                       (["--from", "world-tour"], "--world names the one"),
                       (["--world", "x", "--phases", "4"], "--world goes with --from"),
                       ([], "--phases N")):
        r = runner.invoke(app, ["generate", *args])
        assert r.exit_code == 2 and says in r.output, (args, r.output)


def test_a_flagged_phase_alone_moves_up_to_where_its_share_fits():
    from phasedsl.design.balance import OrderFigures
    from phasedsl.design.difficulty import PhaseInPlay

    def row(n, share, flag=False):
        return PhaseInPlay(n, f"p{n}", 100, round(100 * share), share, (share, share), 1.0,
                           (1.0, 1.0), easier_than_previous=flag)

    figs = OrderFigures((1, 2, 3, 4, 5), (row(1, .9), row(2, .7), row(3, .5), row(4, .8, True),
                                          row(5, .4)), {})
    assert figs.flagged == (4,)
    # 4 completes more often than 2 and 3, less than 1: just after 1; the rest keep order
    from phasedsl.design.improve import moved_up

    assert moved_up(figs) == (1, 4, 2, 3, 5)
