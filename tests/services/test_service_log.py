"""One service's output as ``stack up`` keeps it: each line to its file (rotated by size,
so many lines keep the newest) and to the console after the service's name."""

from __future__ import annotations

import io
import subprocess
import sys

from services.stack.service_log import ServiceLog


def test_a_process_output_goes_to_the_console_with_a_prefix_and_to_rotated_files(tmp_path):
    console = io.StringIO()
    log = ServiceLog(tmp_path / "logs" / "api.log", "api | ", console, max_bytes=200,
                     backups=2)
    log.write("--- started")
    script = "import sys\nfor i in range(100): print(f'line {i:02d}', flush=True)\n" \
             "sys.stderr.buffer.write(b'a bad byte \\xff\\n')"
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)
    log.follow(process.stdout)
    assert process.wait(30) == 0
    log.close()
    shown = console.getvalue().splitlines()
    assert shown[:3] == ["api | --- started", "api | line 00", "api | line 01"]
    assert shown[-1] == "api | a bad byte \ufffd"  # undecodable bytes do not stop the log
    assert len(shown) == 102
    files = sorted(p.name for p in (tmp_path / "logs").iterdir())
    assert files == ["api.log", "api.log.1", "api.log.2"]
    kept = [line for name in ("api.log.2", "api.log.1", "api.log")
            for line in (tmp_path / "logs" / name).read_text().splitlines()]
    assert kept == [line[len("api | "):] for line in shown[-len(kept):]]
    assert all((tmp_path / "logs" / name).stat().st_size <= 200 for name in files)
    assert log.tail(2) == "line 99\na bad byte \ufffd"


def test_a_console_that_is_gone_leaves_the_file_whole(tmp_path):
    console = io.StringIO()
    log = ServiceLog(tmp_path / "w.log", "w | ", console)
    log.write("one")
    console.close()
    log.write("two")
    log.close()
    assert (tmp_path / "w.log").read_text().splitlines() == ["one", "two"]
