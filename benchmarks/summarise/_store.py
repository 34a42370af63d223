"""The helpers the main-job summarisers share: a record's xz-compressed flowtune store opened
read-only from a temporary copy, and the store's UTC time stamps as seconds."""
import datetime
import lzma
import sqlite3
import tempfile


def open_db(folder, tag):
    """sqlite3 connection to a copy of FOLDER/main_job_TAG.db.xz, decompressed to a temp file."""
    path = tempfile.mktemp(suffix=".db")
    with open(path, "wb") as f:
        f.write(lzma.open(f"{folder}/main_job_{tag}.db.xz").read())
    return sqlite3.connect(path)


def seconds_of(stamp):
    """Seconds since the epoch of an ISO 8601 UTC stamp of the DB ("2026-12-02T06:26:18.444Z")."""
    return datetime.datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S.%fZ").replace(
        tzinfo=datetime.timezone.utc).timestamp()
