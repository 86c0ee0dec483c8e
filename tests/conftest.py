"""Fixtures shared by the test folders."""
import subprocess
import sys
import threading

import pytest


@pytest.fixture
def ran_alone(request):
    """For a test that forks, which the code under test refuses beside other threads (an earlier
    test's, in a whole-suite run): ``ran_alone()`` is False when this process has no other thread
    (the test goes on here); else it runs this test alone in a new interpreter, which has none,
    asserts it passed there and is True (the test returns)."""
    def ran():
        if threading.active_count() == 1:
            return False
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                               request.node.nodeid], cwd=request.config.rootpath,
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        return True
    return ran
