"""The system's edges: output files written whole (``outfiles``), worker processes
(``workers``), signals held and let in (``interrupts``), where the grammar, schema and
built-in packs are (``resources``), bounded child programs (``childproc``) and lazy
package faces (``face``).

Outside this package only the names of ``FACE`` are used (each loaded on first use).
"""

from .face import lazy

FACE = {
    "BARRIER": "workers",
    "OutputError": "outfiles",
    "Pool": "workers",
    "cache_dir": "resources",
    "can_fork": "workers",
    "check_folder": "outfiles",
    "check_target": "outfiles",
    "clear_folder": "outfiles",
    "cpus": "workers",
    "die_with_parent": "childproc",
    "docs_dir": "resources",
    "end": "childproc",
    "grammar_path": "resources",
    "lazy": "face",
    "portable": "workers",
    "read_line": "childproc",
    "resolve_jobs": "workers",
    "schema_path": "resources",
    "spawn": "childproc",
    "variants_dir": "resources",
    "write_text": "outfiles",
    "write_with": "outfiles",
}
__all__ = sorted(FACE)
__getattr__ = lazy(__name__, FACE)
