import sys
from pathlib import Path

# The brute-force reference lives beside the tests.
sys.path.insert(0, str(Path(__file__).parent))

# The dealt-odds cache (phasedsl.design.oddscache) of a test run lives in a folder of its own,
# never the user's: every test and every command a test starts sees the same one.
if "PHASEDSL_CACHE" not in __import__("os").environ:
    import os
    import tempfile

    os.environ["PHASEDSL_CACHE"] = tempfile.mkdtemp(prefix="phasedsl-test-cache-")
