"""``python -m phasedsl`` and the installed ``phasedsl`` command.

``phasedsl --version`` is answered here, before the command line's machinery is loaded
(a script asking for the version should not wait for it); everything else is the CLI's.
"""

from __future__ import annotations

import sys


def run() -> None:
    if sys.argv[1:] == ["--version"]:
        from . import __version__

        try:
            sys.stdout.write(f"phasedsl {__version__}\n")
            sys.stdout.flush()
        except (OSError, AttributeError):  # stdout closed or gone: the CLI says so
            pass
        else:
            raise SystemExit(0)
    from .cli import run as command

    # (Click would name the program "python -m phasedsl" in usage lines and errors; they
    # say what the installed command is called.)
    command(prog_name="phasedsl")


if __name__ == "__main__":
    run()
