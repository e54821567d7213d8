"""Shared fixtures: small, seeded ONNX models built with onnx.helper.

``model_builder(nodes, inputs, outputs, initializers=..., name=...)`` saves a model in
the test's tmp dir and returns its path; ``chain_model`` is a ready-made small model
with awkward tensor names; ``light_models_dir`` is where the onnx package keeps its
light real topologies (``light_*.onnx``).
"""

from __future__ import annotations

from pathlib import Path

import onnx
import pytest

from tests.support.models import ModelBuilder, build_model, make_chain_model


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--all",
        action="store_true",
        help="also run the tests marked slow (real-model corpus, end-to-end runs); CI and the README run "
        "them",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without ``--all`` the tests marked slow are deselected (reported as such, never silently skipped)."""
    if config.getoption("--all"):
        return
    slow = [item for item in items if item.get_closest_marker("slow")]
    if slow:
        items[:] = [item for item in items if not item.get_closest_marker("slow")]
        config.hook.pytest_deselected(items=slow)


@pytest.fixture
def model_builder(tmp_path: Path) -> ModelBuilder:
    """Build a model with :func:`build_model` and save it as ``tmp_path/name``."""

    def build(*args: object, name: str = "model.onnx", **kwargs: object) -> Path:
        path = tmp_path / name
        onnx.save_model(build_model(*args, **kwargs), str(path))  # type: ignore[arg-type]
        return path

    return build


@pytest.fixture
def chain_model(tmp_path: Path) -> Path:
    return make_chain_model(tmp_path)


@pytest.fixture(scope="session")
def light_models_dir() -> Path:
    return Path(onnx.__file__).parent / "backend" / "test" / "data" / "light"


@pytest.fixture(scope="session")
def demo(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """The demo (model, golden and fp16 target dumps), built once per test session.

    Read-only: a test that needs to change a demo builds its own with ``make_demo``.
    """
    from dumpscope.core.onnx.demo import make_demo

    return make_demo(tmp_path_factory.mktemp("demo"))


@pytest.fixture(scope="session")
def demo_comparison(demo):  # type: ignore[no-untyped-def]
    """The demo compared with its model, once per session (read-only)."""
    from dumpscope.core.comparison.pipeline import compare

    return compare(demo.golden, demo.target, model=demo.model)
