"""Put a Koi-Koi icon where the player looks for programs, and take it away again.

    from koikoi.launcher import install_shortcut, uninstall_shortcut
    written = install_shortcut()        # prints where each shortcut went
    removed = uninstall_shortcut()      # removes exactly what install wrote

Where the shortcuts go on each platform, and the command they start, is
``koikoi.shortcut_plan`` (its names are re-exported here).

Everything goes through a plan: ``plan_shortcut(platform, home, exe)`` lists
the files (``PlannedFile``) and, on Windows, the script text; ``install``
carries the plan out and records what it wrote, with checksums, in
``shortcuts.json`` in the data folder ($KOIKOI_HOME/data, else the platformdirs
user data dir, as koikoi.storage.data_dir()), with the folders it created
(the data folder included). The record is read with koikoi.files.read_json
and written with atomic_write_text.

``uninstall`` trusts that record only as far as it can check it. It deletes a
listed file only when (1) it lies in one of the places install writes to
(``shortcut_places``: the folder, compared by real path, and the file name;
a symbolic link is never followed), (2) a sha256 was recorded for it and
(3) the file still has that hash. Anything else listed is left alone and
reported; malformed entries are reported and ignored. Recorded folders are
removed only when empty and in (or above, inside the home folder) those
places. A record that cannot be read or is the wrong shape is moved aside
(``<name>.corrupt-<stamp>``) and nothing is removed: ``ShortcutRecordError``,
an OSError, says so in one line. When nothing is left behind the record is
deleted, then the folders install created, the data folder included, if empty.

``home`` (a fake home folder, for tests) puts every path under it, data folder
included unless KOIKOI_HOME is set; XDG_* variables are then honoured only
when they point inside that home.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import shutil
import stat
import subprocess
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Optional

from .files import BadFile, atomic_write_bytes, atomic_write_text, move_aside, read_json
from .shortcut_plan import (APP_ID, APP_NAME, COMMENT, GENERIC_NAME, MANIFEST_NAME, MARKER_KEY,  # noqa: F401
                            WM_CLASS, ExeArg, Plan, PlannedFile, data_dir, desktop_entry, desktop_exec,
                            desktop_exec_arg, find_icon, game_command, info_plist, linux_desktop_dir,
                            mac_launcher_script, plan_shortcut, powershell_script, set_window_class,
                            shortcut_places, icon_bytes, _norm_platform, _real)

MANIFEST_MAX_BYTES = 1 << 20        # a real record is a few kB
_HASH_MAX_BYTES = 64 << 20          # no shortcut or icon install writes is this large


class ShortcutRecordError(OSError):
    """The shortcut record (manifest) cannot be trusted: unreadable or the wrong shape.

    It has been moved aside (``moved``; None if even that failed) and nothing was
    removed; ``str()`` is one line saying so, for ``koikoi: could not remove ...``.
    """

    def __init__(self, path: Path, reason: str, moved: Optional[Path]):
        self.path, self.reason, self.moved = path, reason, moved
        super().__init__(f"the shortcut record {_show(path)} {reason}; {self.aside}, "
                         "and nothing was removed")

    @property
    def aside(self) -> str:
        return (f"it was moved aside to {_show(self.moved)}" if self.moved is not None
                else "it could not be moved aside")


def _sha256(path: Path) -> Optional[str]:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _ours(path: Path, known: dict) -> bool:
    """True if ``path`` is the file an earlier install recorded, unchanged since (its hash)."""
    entry = known.get(str(path))
    return (entry is not None and not os.path.islink(path) and os.path.isfile(path)
            and entry.get("sha256") == _sha256(path))


def _make_dirs(path: Path, created: list[dict]) -> None:
    """Make ``path`` and the folders above it that are missing; each one made is added to
    ``created`` with its device and inode, the proof uninstall asks for before removing it."""
    missing = []
    p = path
    while not os.path.lexists(p):
        missing.append(p)
        if p.parent == p:
            break
        p = p.parent
    path.mkdir(parents=True, exist_ok=True)
    for m in reversed(missing):
        try:
            st = os.lstat(m)
        except OSError:
            continue
        created.append({"path": str(m), "dev": st.st_dev, "ino": st.st_ino})


# ----------------------------------------------------------------- the record
_HEX64 = re.compile(r"[0-9a-fA-F]{64}\Z")


class _BadShape(ValueError):
    """The record as a whole is not what install writes."""


def _show(path: Any) -> str:
    """A path for a message: as it is, or repr() if it holds control characters
    (a tampered record must not be able to forge lines or escape sequences)."""
    text = str(path)
    return text if text.isprintable() else repr(text)


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _path_problem(value: Any) -> Optional[str]:
    """Why ``value`` is not a path install could have recorded, or None."""
    if not isinstance(value, str):
        return f"is {_json_type(value)}, not text"
    if not value or "\x00" in value:
        return "is empty or holds a NUL"
    if not os.path.isabs(value):
        return "is not an absolute path"
    return None


def _parse_manifest(data: Any) -> tuple[list[dict], list[dict], list[str]]:
    """Check a record field by field: (file entries, folders, problems).

    Raises _BadShape when the record as a whole is not what install writes (not
    an object; "files" or "dirs" not a list): none of it can be trusted then.
    A malformed entry is left out and described in ``problems``. An entry is
    returned as {"path": str, "sha256": lower-case hex or None, "label": str}, a
    folder as {"path": str, "dev": int, "ino": int} (None, None for a bare path an
    older version recorded: nothing proves it made that folder).
    """
    if not isinstance(data, dict):
        raise _BadShape(f"is not usable (it is {_json_type(data)}, not an object)")
    files = data.get("files", [])
    dirs = data.get("dirs", [])
    for key, value in (("files", files), ("dirs", dirs)):
        if not isinstance(value, list):
            raise _BadShape(f'is not usable ("{key}" is {_json_type(value)}, not a list)')
    entries: list[dict] = []
    folders: list[dict] = []
    problems: list[str] = []
    for i, e in enumerate(files, 1):
        where = f'"files" entry {i}'
        if not isinstance(e, dict):
            problems.append(f"{where} (it is {_json_type(e)}, not an object)")
            continue
        if "path" not in e:
            problems.append(f"{where} (it has no path)")
            continue
        why = _path_problem(e["path"])
        if why is not None:
            problems.append(f"{where} (its path {why})")
            continue
        sha = e.get("sha256")
        if sha is not None and not (isinstance(sha, str) and _HEX64.match(sha)):
            problems.append(f"{where}, {_show(e['path'])} (its sha256 is {_json_type(sha)}, "
                            "not a sha256 hash)")
            continue
        label = e.get("label")
        entries.append({"path": e["path"], "sha256": sha.lower() if sha else None,
                        "label": label if isinstance(label, str) else ""})
    for i, d in enumerate(dirs, 1):
        if isinstance(d, dict):
            why = _path_problem(d["path"]) if "path" in d else None
            if "path" not in d:
                problems.append(f'"dirs" entry {i} (it has no path)')
            elif why is not None:
                problems.append(f'"dirs" entry {i} (its path {why})')
            elif not all(type(d.get(k)) is int and d[k] >= 0 for k in ("dev", "ino")):
                problems.append(f'"dirs" entry {i}, {_show(d["path"])} (it has no device and inode numbers)')
            else:
                folders.append({"path": d["path"], "dev": d["dev"], "ino": d["ino"]})
            continue
        why = _path_problem(d)
        if why is not None:
            problems.append(f'"dirs" entry {i} (it {why})')
            continue
        folders.append({"path": d, "dev": None, "ino": None})    # a record of an older version: no proof
    return entries, folders, problems


def _dirs_record(folders: Iterable[dict]) -> list:
    """The record's "dirs": each folder once, with its proof; a bare path an older version
    recorded stays a bare path (no proof is made up for it)."""
    out = {}
    for f in folders:
        out[f["path"]] = f["path"] if f["ino"] is None else f
    return list(out.values())


def _read_record(mpath: Path, root: Path) -> Optional[tuple[dict, list[dict], list[dict], list[str]]]:
    """(record, file entries, folders, problems), or None when there is no record.

    Read with koikoi.files.read_json (a regular file only, size- and depth-limited,
    links only inside ``root``). A record that cannot be read or has the wrong
    shape is moved aside and ShortcutRecordError raised.
    """
    try:
        data = read_json(mpath, max_bytes=MANIFEST_MAX_BYTES, root=root)
        if data is None:
            if not os.path.lexists(mpath):
                return None
            # else the file holds JSON null: refused below as not an object
        entries, folders, problems = _parse_manifest(data)
    except (BadFile, _BadShape) as exc:
        raise ShortcutRecordError(mpath, str(exc), _set_aside(mpath)) from None
    return data, entries, folders, problems


def _set_aside(path: Path) -> Optional[Path]:
    """koikoi.files.move_aside, keeping its log warning from reaching stderr through
    logging's last-resort handler when nothing has set logging up (the shortcut
    commands): the caller says it in its own one line. In the game it is logged."""
    log = logging.getLogger("koikoi.files")
    quiet = None if log.hasHandlers() else logging.NullHandler()
    if quiet is not None:
        log.addHandler(quiet)
    try:
        return move_aside(path)
    finally:
        if quiet is not None:
            log.removeHandler(quiet)


def _save_manifest(path: Path, data: dict) -> None:
    atomic_write_text(path, json.dumps(data, indent=2) + "\n")


def _within(child: str, parent: str) -> bool:
    """child (a real path) is parent or inside it."""
    try:
        return os.path.commonpath([child, parent]) == parent
    except ValueError:              # different drives
        return False


def _in_places(path: str, places: list[tuple[str, frozenset[str]]]) -> bool:
    """``path`` names a file install writes: its folder (by real path) is one of the
    places and its name is one install uses there. The file itself is not resolved."""
    folder = _real(os.path.dirname(path))
    name = os.path.normcase(os.path.basename(path))
    return any(folder == f and name in names for f, names in places)


def _regular_file_hash(path: str) -> Optional[tuple[str, tuple[int, int]]]:
    """(sha256, (device, inode)) of the regular file at ``path``; None for a link,
    a FIFO, a device, a folder, a file too large to be ours, or one unreadable.
    Never follows a link and never waits on a FIFO."""
    flags = (os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)
             | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size > _HASH_MAX_BYTES:
            return None
        fd = os.open(path, flags)
    except (OSError, ValueError):
        return None
    try:
        fst = os.fstat(fd)
        if not stat.S_ISREG(fst.st_mode) or (fst.st_dev, fst.st_ino) != (st.st_dev, st.st_ino):
            return None
        digest, total = hashlib.sha256(), 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            total += len(chunk)
            if total > _HASH_MAX_BYTES:
                return None
            digest.update(chunk)
        return digest.hexdigest(), (fst.st_dev, fst.st_ino)
    except OSError:
        return None
    finally:
        os.close(fd)


def _remove_folders(folders: Iterable[dict], places: list[tuple[str, frozenset[str]]],
                    home: Path, out: Optional[Callable[[str], None]]) -> None:
    """Remove the recorded folders that are empty and that install made, deepest first:
    each must be the very folder it made (its device and inode as recorded when it was
    created: an edited record cannot name the player's own empty Desktop) and one of the
    places or a folder above one inside the home folder (install creates e.g.
    ~/.local/share/icons/hicolor/...). A link is never removed or followed. A folder
    above a place but outside home (e.g. $KOIKOI_HOME) is kept quietly; any other
    recorded folder is kept and reported."""
    home_real = _real(home)
    roots = [f for f, _ in places]
    by_path = {f["path"]: f for f in folders}
    for d in sorted(by_path, key=lambda s: len(Path(s).parts), reverse=True):
        made = by_path[d]
        try:
            st = os.lstat(d)
        except (OSError, ValueError):
            continue                # already gone
        real = _real(d)
        if not stat.S_ISDIR(st.st_mode) or not any(_within(r, real) for r in roots):
            _say(out, f"left alone: {_show(d)} (not a folder Koi-Koi created)")
            continue
        if not any(real == r for r in roots) and (real == home_real
                                                  or not _within(real, home_real)):
            continue
        if made["ino"] is None:
            _say(out, f"left alone: {_show(d)} (the record does not prove Koi-Koi created it)")
            continue
        if (st.st_dev, st.st_ino) != (made["dev"], made["ino"]):
            _say(out, f"left alone: {_show(d)} (not the folder Koi-Koi created)")
            continue
        try:
            os.rmdir(d)
        except OSError:
            pass                    # not empty: something else lives there now


def _trust(path: Path) -> None:
    gio = shutil.which("gio")
    if not gio:
        return
    try:
        subprocess.run([gio, "set", str(path), "metadata::trusted", "true"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=5)
    except Exception:
        pass


def _run_powershell(script_path: Path) -> tuple[bool, str]:
    ps = shutil.which("powershell") or shutil.which("pwsh")
    if not ps:
        return False, "PowerShell was not found"
    try:
        cp = subprocess.run([ps, "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass",
                             "-File", str(script_path)], capture_output=True, text=True,
                            timeout=60, creationflags=getattr(subprocess, "CREATE_NO_WINDOW", 0))
    except Exception as e:
        return False, str(e)
    return cp.returncode == 0, (cp.stderr or cp.stdout or "").strip()


def _say(out: Optional[Callable[[str], None]], msg: str) -> None:
    if out is not None:
        try:
            out(msg)
        except Exception:
            pass


_WHERE = {
    "applications menu": "Added Koi-Koi to your applications menu: {}",
    "desktop": "Put a Koi-Koi icon on your desktop: {}",
    "Start menu": "Added Koi-Koi to the Start menu: {}",
    "Applications": "Added Koi-Koi to your Applications folder: {}",
}


def install_shortcut(*, platform: Optional[str] = None, home: Optional[Path] = None,
                     exe: ExeArg = None,
                     out: Optional[Callable[[str], None]] = print) -> list[Path]:
    """Write the shortcuts for this (or the given) platform; return the files written.

    Messages saying where each shortcut went are passed to `out` (print by default;
    None for silence). Raises OSError only if nothing at all could be written.
    """
    plan = plan_shortcut(platform, home, exe)
    entries: list[dict] = []
    dirs: list[dict] = []
    try:
        record = _read_record(plan.manifest, plan.data_dir)
    except ShortcutRecordError as exc:
        record = None
        plan.notes.append(f"The old shortcut record {_show(exc.path)} {exc.reason}; "
                          f"{exc.aside}, and a new one was started.")
    if record is not None:
        _, entries, dirs, problems = record
        if problems:
            plan.notes.append(f"Dropped {len(problems)} malformed entr"
                              f"{'y' if len(problems) == 1 else 'ies'} from the old shortcut "
                              f"record {_show(plan.manifest)}.")
    known = {e["path"]: e for e in entries}
    written: list[Path] = []
    errors: list[str] = []
    native = plan.platform == _norm_platform(None)

    for f in plan.files:
        if f.kind == "lnk":
            continue
        try:
            _make_dirs(f.path.parent, dirs)
            path = f.path
            if f.kind == "text":
                enc = "utf-8-sig" if path.suffix == ".ps1" else "utf-8"
                data = f.content.encode(enc) if f.content is not None else b""
            else:
                data, path = icon_bytes(f)
            if os.path.lexists(path) and not _ours(path, known):
                # a file of the player's own (or another program's) by that name: never replaced
                plan.notes.append(f"Left {_show(path)} as it is: it was not made by Koi-Koi's "
                                  "--install-shortcut (remove or rename it, then install again).")
                continue
            atomic_write_bytes(path, data)    # a fresh O_EXCL|O_NOFOLLOW temp file, renamed
            # the temp file is private (0600); a shortcut is readable as a plain write made it
            os.chmod(path, f.mode if f.mode is not None else 0o644)
            if f.trust and native:
                _trust(path)
            written.append(path)
            known[str(path)] = {"path": str(path), "sha256": _sha256(path), "label": f.label}
        except Exception as e:
            errors.append(f"{f.path}: {e}")

    if plan.platform == "win32":
        links = [f for f in plan.files if f.kind == "lnk"]
        if native and plan.script_path is not None and plan.script_path in written:
            for f in links:
                _make_dirs(f.path.parent, dirs)
            ok, msg = _run_powershell(plan.script_path)
            if not ok:
                errors.append(f"the shortcut script failed: {msg}")
        elif not native:
            plan.notes.append(f"Not on Windows: run {plan.script_path} there with PowerShell "
                              "to create the shortcuts.")
        for f in links:
            if f.path.exists():
                written.append(f.path)
                known[str(f.path)] = {"path": str(f.path), "sha256": _sha256(f.path),
                                      "label": f.label}

    if plan.platform == "linux" and native:
        apps = next((f.path.parent for f in plan.files if f.label == "applications menu"), None)
        tool = shutil.which("update-desktop-database")
        if apps is not None and tool:
            try:
                subprocess.run([tool, "-q", str(apps)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, timeout=10)
            except Exception:
                pass
    if plan.platform == "darwin" and native:
        try:   # a touched bundle makes Finder/LaunchServices pick up the icon
            os.utime(next(f.path for f in plan.files if f.label == "Applications").parents[1])
        except Exception:
            pass

    try:
        if written:
            # Recorded when install creates it, so uninstall removes it again if empty.
            _make_dirs(plan.data_dir, dirs)
            _save_manifest(plan.manifest, {
                "version": 1, "platform": plan.platform, "command": plan.command,
                "installed": time.strftime("%Y-%m-%dT%H:%M:%S"),
                "files": list(known.values()), "dirs": _dirs_record(dirs)})
    except Exception as e:
        errors.append(f"could not record the shortcuts in {plan.manifest}: {e}")

    for f in plan.files:
        fmt = _WHERE.get(f.label)
        if fmt is None:
            continue
        target = f.path
        if f.label == "Applications":
            target = f.path.parents[1]       # the .app bundle
        if f.path in written:
            _say(out, fmt.format(target))
    for note in plan.notes:
        _say(out, note)
    for err in errors:
        _say(out, f"Problem: {err}")
    if not written and errors:
        raise OSError("Could not add the Koi-Koi shortcut: " + "; ".join(errors))
    return written


def uninstall_shortcut(*, platform: Optional[str] = None, home: Optional[Path] = None,
                       out: Optional[Callable[[str], None]] = print) -> list[Path]:
    """Remove the shortcut files install_shortcut recorded and that are still its own;
    return them.

    A recorded file is removed only if it is in one of ``shortcut_places`` (by the
    real path of its folder, and its name; a link is never followed), a sha256 was
    recorded for it and the file still has it. Anything else recorded is left and
    reported to ``out``, as are malformed entries (ignored). When nothing is left the
    record is deleted, then the recorded folders (the data folder included) that are
    empty and in those places.

    Raises ShortcutRecordError (an OSError; the record is moved aside, nothing is
    removed) when the record cannot be read or is the wrong shape, and OSError when
    a file that should go could not be removed.
    """
    plat = _norm_platform(platform)
    ddir = data_dir(plat, home)
    mpath = ddir / MANIFEST_NAME
    record = _read_record(mpath, ddir)
    if record is None:
        _say(out, f"No Koi-Koi shortcuts were installed (nothing recorded in {_show(mpath)}).")
        return []
    data, entries, folders, problems = record
    for problem in problems:
        _say(out, f"Ignored {problem} in {_show(mpath)}: it is malformed.")
    if not entries and not problems:
        _say(out, f"No Koi-Koi shortcuts were installed (nothing recorded in {_show(mpath)}).")

    places = [(_real(folder), frozenset(os.path.normcase(n) for n in names))
              for folder, names in shortcut_places(plat, home)]
    removed: list[Path] = []
    kept: list[dict] = []           # changed since: stays recorded for a later uninstall
    failed: list[str] = []
    for entry in entries:
        p = entry["path"]
        try:
            st = os.lstat(p)
        except FileNotFoundError:
            continue                # already gone
        except (OSError, ValueError) as exc:
            _say(out, f"left alone: {_show(p)} (cannot be checked: {exc})")
            kept.append(entry)
            continue
        if not (entry["sha256"] and stat.S_ISREG(st.st_mode) and _in_places(p, places)):
            _say(out, f"left alone: {_show(p)} (not a file Koi-Koi created)")
            continue                # never ours: not kept in the record either
        got = _regular_file_hash(p)
        if got is None or got[0] != entry["sha256"]:
            _say(out, f"left alone: {_show(p)} (changed since it was installed)")
            kept.append(entry)
            continue
        try:
            now = os.lstat(p)       # still the very file just hashed?
            if not stat.S_ISREG(now.st_mode) or (now.st_dev, now.st_ino) != got[1]:
                _say(out, f"left alone: {_show(p)} (changed since it was installed)")
                kept.append(entry)
                continue
            os.unlink(p)
        except FileNotFoundError:
            continue
        except OSError as exc:
            failed.append(f"{_show(p)}: {exc.strerror or exc}")
            kept.append(entry)
            continue
        removed.append(Path(p))
        _say(out, f"Removed {_show(p)}")

    if kept:
        keep = {k: data[k] for k in ("version", "platform", "command", "installed") if k in data}
        keep.update(files=kept, dirs=_dirs_record(folders))
        try:
            _save_manifest(mpath, keep)
        except OSError as exc:
            failed.append(f"the record of what is left, {_show(mpath)}: {exc.strerror or exc}")
    else:
        try:
            os.unlink(mpath)
        except FileNotFoundError:
            pass
        except OSError as exc:
            failed.append(f"{_show(mpath)}: {exc.strerror or exc}")
        h = Path(home) if home is not None else Path.home()
        _remove_folders(folders, places, h, out)
    if failed:
        more = f" (and {len(failed) - 1} more)" if len(failed) > 1 else ""
        raise OSError(f"could not remove {failed[0]}{more}")
    return removed
