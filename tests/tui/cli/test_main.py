"""The CLI package's shape: lazy parsers, no command importing the entry point or another
command, and ``tui.cli`` free of Textual until the app is opened."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import dumpscope.tui.cli as cli_pkg
from dumpscope.tui.cli.main import COMMANDS, build_parser, main

CLI_DIR = Path(cli_pkg.__file__).parent
COMMAND_FILES = sorted((CLI_DIR / "commands").glob("*.py"))


def _imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports (at any depth, including inside functions)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


def _fresh(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    return out.stdout.strip()


@pytest.mark.parametrize("path", COMMAND_FILES, ids=lambda p: p.stem)
def test_commands_import_neither_the_entry_point_nor_each_other(path: Path) -> None:
    imported = _imported_modules(path)
    assert "dumpscope.tui.cli.main" not in imported, f"{path.name} imports the entry point back (a cycle)"
    others = {f"dumpscope.tui.cli.commands.{name}" for name in COMMANDS} - {
        f"dumpscope.tui.cli.commands.{path.stem}"
    }
    allowed = {"dumpscope.tui.cli.commands.patch"} if path.stem == "demo" else set()  # the demo runs a patch
    assert not (imported & others) - allowed, f"{path.name} imports another command's set-up"


def test_the_import_checker_sees_an_upward_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def run():\n    from dumpscope.tui.cli.main import UsageError\n")
    assert "dumpscope.tui.cli.main" in _imported_modules(bad)


def _modules_after(argv: list[str]) -> str:
    return _fresh(
        "import sys, io, contextlib\n"
        "from dumpscope.tui.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
        "    try:\n"
        f"        main({argv!r})\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print(' '.join(sorted(sys.modules)))"
    )


def test_explain_builds_and_imports_its_own_command_only() -> None:
    loaded = _modules_after(["explain", "Segmentation fault"]).split()
    commands = {m.rsplit(".", 1)[1] for m in loaded if m.startswith("dumpscope.tui.cli.commands.")}
    assert commands == {"explain"}
    assert not [m for m in loaded if m.split(".")[0] in ("textual", "numpy", "polars", "onnx")]
    assert "dumpscope.core.comparison.judge" not in loaded
    assert "shutil" not in loaded  # argparse's formatters read the width without it (a cost of every start)
    assert "argparse" not in loaded and "gettext" not in loaded  # ``explain MESSAGE`` is read without them


def _installed_start(folder: Path, code: str, config: Path) -> tuple[str, str]:
    """Stdout and stderr of ``code`` run as under a regular (not editable) install: no ``site`` (the editable
    install's import hook imports pathlib itself), the package found through a folder that holds it, as
    site-packages would."""
    packages = folder / "site"
    packages.mkdir(parents=True)
    (packages / "dumpscope").symlink_to(Path(cli_pkg.__file__).parents[2], target_is_directory=True)
    env = {"DUMPSCOPE_CONFIG_DIR": str(config), "PYTHONPATH": str(packages)}
    argv = [sys.executable, "-S", "-c", code]
    out = subprocess.run(argv, capture_output=True, text=True, env=env, check=True)
    return out.stdout, out.stderr


START_MODULES = (
    "import sys, io, contextlib\n"
    "from dumpscope.tui.cli.main import main\n"
    "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
    "    main(['explain', 'E RKNN: failed to open rknpu module, need to insmod rknpu dirver!'])\n"
    "print(out.getvalue().splitlines()[1])\n"
    "heavy = ('pathlib', 'urllib', 'urllib.parse', 'ipaddress', 'fnmatch')\n"
    "print(' '.join(m for m in heavy if m in sys.modules))"
)


def test_explain_starts_without_pathlib_when_the_user_has_no_kb_folder(tmp_path: Path) -> None:
    """pathlib, and urllib and ipaddress behind it, were ~3 ms of an installed ``explain MESSAGE`` start: the
    knowledge base asks whether the user's ``kb`` folder exists with :mod:`os.path`; pathlib is imported only
    when there is one (or a ``--kb`` file), and then the user's files are read as before."""
    out, err = _installed_start(tmp_path / "a", START_MODULES, tmp_path / "no-such-config")
    answer, loaded = out.splitlines()
    assert "Rockchip RKNN runtime" in answer and "matched by pattern" in answer
    assert (loaded, err) == ("", "")
    mine = tmp_path / "config" / "kb"
    mine.mkdir(parents=True)
    (mine / "mine.jsonl").write_text('{"id": "user:npu"}\n', encoding="utf-8")  # a bad line: one warning
    out, err = _installed_start(tmp_path / "b", START_MODULES, tmp_path / "config")
    answer, loaded = out.splitlines()
    assert "Rockchip RKNN runtime" in answer
    assert "pathlib" in loaded.split()
    assert f"{mine / 'mine.jsonl'}:1:" in err  # the user's folder was read


QUICK_COMMAND_LINES = [
    ["explain", "E10001: Value [1,3,224] for parameter [--input_shape] is invalid."],
    ["explain", "--json", "Segmentation fault"],
    ["explain", "Segmentation fault", "--json"],
    ["explain", ""],
    ["explain", "explain"],
    ["explain", " -x leads with a space"],
    ["explain", "line one\nline two --json"],
]


@pytest.mark.parametrize("argv", QUICK_COMMAND_LINES)
def test_a_command_line_read_without_argparse_is_what_argparse_reads(argv: list[str]) -> None:
    from dumpscope.tui.cli.main import _quick_arguments

    quick = _quick_arguments(argv[0], list(argv))
    parser, _ = build_parser(argv[0])
    assert quick is not None
    assert vars(quick) == vars(parser.parse_args(list(argv)))


@pytest.mark.parametrize(
    "argv",
    [
        ["explain"],
        ["explain", "-"],
        ["explain", "-1"],
        ["explain", "--help"],
        ["explain", "a", "b"],
        ["explain", "--json", "--json", "a"],
        ["explain", "--js", "a"],
        ["explain", "--top", "2", "a"],
        ["explain", "--log", "f"],
        ["--debug", "explain", "a"],
        ["formats"],
    ],
)
def test_every_other_command_line_is_left_to_argparse(argv: list[str]) -> None:
    from dumpscope.tui.cli.main import _chosen_command, _quick_arguments

    args_list = list(argv)
    assert _quick_arguments(_chosen_command(args_list), args_list) is None


def test_the_command_line_path_ends_without_importing_threading() -> None:
    """``main()`` as the console script runs it (``argv`` None: it ends through :func:`leave_promptly`; the
    atexit function keeps :func:`exit_now` from ending the process before the modules are listed)."""
    loaded = _fresh(
        "import sys, io, contextlib, atexit\n"
        "atexit.register(print)\n"
        "from dumpscope.tui.cli.main import main\n"
        "sys.argv = ['dumpscope', 'explain', 'Segmentation fault']\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main()\n"
        "print(' '.join(sorted(sys.modules)))"
    ).split()
    assert "dumpscope.tui.cli.commands.explain" in loaded  # it did run
    assert "threading" not in loaded


@pytest.mark.parametrize(("message", "code"), [("Segmentation fault", 0), ("zzz qqq nothing known", 1)])
def test_the_command_line_path_of_explain_ends_at_once_with_its_output_and_exit_code(
    message: str, code: int
) -> None:
    """``explain MESSAGE`` from the console script ends through :func:`exit_now` (os._exit once flushed):
    the same output and exit code as ``main`` returns in-process, and nothing after ``main()`` runs."""
    import contextlib
    import io

    script = "import sys\nfrom dumpscope.tui.cli.main import main\n"
    script += f"sys.argv = ['dumpscope', 'explain', {message!r}]\n"
    done = subprocess.run(
        [sys.executable, "-c", script + "main()\nprint('after main')"],
        capture_output=True,
        text=True,
        check=False,
    )
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["explain", message]) == code
    assert (done.returncode, done.stdout, done.stderr) == (code, out.getvalue(), "")
    # an atexit function registered (coverage, a sitecustomize): the interpreter ends as usual and runs it
    done = subprocess.run(
        [sys.executable, "-c", "import atexit\natexit.register(print, 'atexit ran')\n" + script + "main()"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.stdout == out.getvalue() + "atexit ran\n"


@pytest.mark.parametrize("columns", [None, "", "x", "0", "-3", "20", "133"])
def test_the_help_width_is_the_one_argparse_would_choose(
    monkeypatch: pytest.MonkeyPatch, columns: str | None
) -> None:
    import shutil

    from dumpscope.tui.cli.main import help_width

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert help_width() == shutil.get_terminal_size().columns - 2


def test_help_is_laid_out_to_the_terminal_width(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for columns in (50, 120):
        monkeypatch.setenv("COLUMNS", str(columns))
        with pytest.raises(SystemExit):
            main(["explain", "--help"])
        lines = capsys.readouterr().out.splitlines()
        assert max(len(line) for line in lines) <= columns - 2
        assert max(len(line) for line in lines) > columns - 20  # the width is used, not a fixed one


def test_top_level_help_lists_every_command_without_building_them(capsys: pytest.CaptureFixture[str]) -> None:
    loaded = _modules_after(["--help"]).split()
    assert "dumpscope.core.comparison.judge" not in loaded  # compare's arguments were not built
    assert not [m for m in loaded if m.split(".")[0] == "textual"]
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for name in COMMANDS:
        assert f"\n    {name} " in out


def test_compare_json_never_imports_textual(tmp_path: Path) -> None:
    import numpy as np

    np.savez(tmp_path / "g.npz", a=np.ones(4, np.float32))
    loaded = _modules_after(
        ["compare", str(tmp_path / "g.npz"), str(tmp_path / "g.npz"), "--format", "json"]
    ).split()
    assert "dumpscope.core.comparison.result" in loaded  # the saved comparison was read  # it did run
    assert not [m for m in loaded if m.split(".")[0] == "textual"]


def test_build_parser_without_a_choice_builds_every_command() -> None:
    parser, mods = build_parser()
    assert set(mods) == set(COMMANDS)
    args = parser.parse_args(["compare", "a", "b", "--format", "csv"])
    assert args.format == "csv" and callable(args._run)


def test_default_command_is_view_and_bad_lines_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["only-one-path"]) == 2
    assert "dumpscope view: the following arguments are required: target" in capsys.readouterr().err
    assert main([]) == 2
    assert "usage: dumpscope" in capsys.readouterr().out


def test_the_demo_calls_the_patch_command_directly() -> None:
    demo = (CLI_DIR / "commands" / "demo.py").read_text(encoding="utf-8")
    assert "main(" not in demo.replace("def main", "")


def _top_level_imports(path: Path) -> set[str]:
    """Modules imported when ``path`` is imported (module level, outside ``if TYPE_CHECKING``)."""
    found: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


@pytest.mark.parametrize("path", sorted(CLI_DIR.rglob("*.py")), ids=lambda p: str(p.relative_to(CLI_DIR)))
def test_cli_modules_load_neither_textual_nor_the_app(path: Path) -> None:
    imported = _top_level_imports(path)
    ui = {
        m
        for m in imported
        if m.split(".")[0] == "textual"
        or m.startswith("dumpscope.tui.app.app")
        or m.startswith("dumpscope.tui.app.screens")
    }
    assert not ui, f"{path.name} loads the app stack on import: {sorted(ui)}"


def test_the_top_level_checker_sees_a_module_level_textual_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from typing import TYPE_CHECKING\nimport textual.app\nif TYPE_CHECKING:\n    import rich\n"
    )
    assert _top_level_imports(bad) == {"typing", "textual.app"}


def test_open_format_prints_without_loading_textual(tmp_path: Path) -> None:
    import numpy as np

    np.savez(tmp_path / "g.npz", a=np.ones(4, np.float32))
    saved = tmp_path / "saved.parquet"
    assert (
        main(
            [
                "compare",
                str(tmp_path / "g.npz"),
                str(tmp_path / "g.npz"),
                "--format",
                "parquet",
                "-o",
                str(saved),
            ]
        )
        == 0
    )
    loaded = _modules_after(["open", str(saved), "--format", "json"]).split()
    assert "dumpscope.core.comparison.result" in loaded  # the saved comparison was read
    assert not [m for m in loaded if m.split(".")[0] == "textual"]


def test_the_command_runs_blas_single_threaded_unless_the_user_chose() -> None:
    """Before numpy loads, `dumpscope` asks OpenBLAS for one thread (its pool, re-made in every
    forked worker, spun on the workers' cores); a user's own setting is kept."""
    import os
    import subprocess
    import sys

    code = (
        "import os, sys; from dumpscope.tui.cli.main import one_blas_thread; one_blas_thread(); "
        "import numpy; print(os.environ.get('OPENBLAS_NUM_THREADS'))"
    )
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}

    def run(extra):
        return subprocess.run(
            [sys.executable, "-c", code],
            env={**env, **extra},  # noqa: E731
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()

    assert run({}) == "1"
    assert run({"OPENBLAS_NUM_THREADS": "4"}) == "4"
