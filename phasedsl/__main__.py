"""``python -m phasedsl``: the phasedsl command, as installed."""

from .cli import run

# (Click would name the program "python -m phasedsl" in usage lines and errors; they say
# what the installed command is called.)
run(prog_name="phasedsl")
