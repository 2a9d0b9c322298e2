"""The phase DSL's parser (``phasedsl/model/dslparser.py``) is Lark's stand-alone parser of
``grammar/phase.lark``, written by ``grammar/build.py``: it must be of this very grammar,
and read every text as a ``Lark`` built from the grammar now reads it."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest
import yaml
from lark import Lark, Token, Tree, UnexpectedInput
from randphase import random_phase

from phasedsl.model import dslparser
from phasedsl.system.resources import grammar_path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("grammar_build", ROOT / "grammar" / "build.py")
build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build)


def _strings(node) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [s for k, v in node.items() for s in [*_strings(k), *_strings(v)]]
    if isinstance(node, list):
        return [s for v in node for s in _strings(v)]
    return []


def _corpus() -> list[str]:
    """Every string of the built-in packs (their phases, and names, titles and notes that
    are not phases), random phases as printed, and each of those mangled: a word dropped,
    two swapped, a word doubled, cut short."""
    texts: list[str] = []
    for path in sorted((ROOT / "variants").glob("*.yaml")):
        texts += _strings(yaml.safe_load(path.read_text(encoding="utf-8")))
    rng = random.Random(7)
    texts += [str(random_phase(rng, 4, 9)) for _ in range(300)]
    texts = list(dict.fromkeys(t for t in texts if len(t) <= 300))
    mangled = []
    for t in texts:
        words = t.split()
        if len(words) < 2:
            continue
        i = rng.randrange(len(words))
        j = rng.randrange(len(words))
        swapped = list(words)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        mangled += [" ".join(words[:i] + words[i + 1:]), " ".join(swapped),
                    " ".join(words[:i + 1] + words[i:]), t[: rng.randrange(len(t))]]
    return texts + mangled + ["", " ", "+", "1 set of 3 +", "1 set of 3 // a note", "{", "é"]


def _shape(node):
    """A tree or a token as plain values (the stand-alone module has its own classes)."""
    if hasattr(node, "children"):
        return (node.data, [_shape(c) for c in node.children],
                getattr(node.meta, "column", None), getattr(node.meta, "end_column", None))
    return (node.type, str(node), node.start_pos, node.column)


def _read(parser, text: str):
    try:
        return "tree", _shape(parser.parse(text))
    except Exception as e:  # (either module's UnexpectedInput: compared by what it says)
        token = getattr(e, "token", None)
        return ("error", type(e).__name__, getattr(e, "pos_in_stream", None),
                sorted(getattr(e, "accepts", None) or getattr(e, "expected", None)
                       or getattr(e, "allowed", None) or ()),
                None if token is None else (token.type, str(token)))


def test_the_parser_is_of_this_grammar():
    grammar = (ROOT / "grammar" / "phase.lark").read_text(encoding="utf-8")
    first = (ROOT / "phasedsl" / "model" / "dslparser.py").read_text(encoding="utf-8").splitlines()[0]
    assert first == build.STAMP + build.digest(grammar), \
        "grammar/phase.lark changed: run `python grammar/build.py`"
    # the grammar a wheel ships is the one the parser was built from
    assert build.digest(grammar_path().read_text(encoding="utf-8")) == build.digest(grammar)


@pytest.fixture(scope="module")
def parsers():
    grammar = (ROOT / "grammar" / "phase.lark").read_text(encoding="utf-8")
    return Lark(grammar, **build.OPTIONS), dslparser.Lark_StandAlone()


def test_it_reads_every_text_as_lark_reads_the_grammar(parsers):
    lark, standalone = parsers
    corpus = _corpus()
    assert len(corpus) > 1500
    outcomes = {"tree": 0, "error": 0}
    for text in corpus:
        want = _read(lark, text)
        assert _read(standalone, text) == want, text
        outcomes[want[0]] += 1
    # both paths are exercised, each many times
    assert min(outcomes.values()) > 300, outcomes


def test_a_lark_tree_and_a_standalone_tree_are_told_apart_by_class_not_shape(parsers):
    # (the comparison above is by shape: the classes differ, which is why phasedsl takes
    # Token, Transformer and the errors from dslparser alone)
    lark, standalone = parsers
    assert isinstance(lark.parse("1 set of 3"), Tree)
    assert not isinstance(standalone.parse("1 set of 3"), Tree)
    assert not issubclass(dslparser.Token, Token)
    assert not issubclass(dslparser.UnexpectedInput, UnexpectedInput)
