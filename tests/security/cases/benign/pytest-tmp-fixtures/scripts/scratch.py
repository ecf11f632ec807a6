"""A scratch directory that is always removed, even when the body raises."""
import contextlib
import shutil
import tempfile


@contextlib.contextmanager
def scratch_dir(prefix="scratch-"):
    path = tempfile.mkdtemp(prefix=prefix)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def test_writes_report(tmp_path):
    out = tmp_path / "report.txt"
    out.write_text("ok")
    assert out.read_text() == "ok"
