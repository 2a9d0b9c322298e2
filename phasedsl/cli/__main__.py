"""``python -m phasedsl.cli``: the phasedsl command."""

from . import run

run()
