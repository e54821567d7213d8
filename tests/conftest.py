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


#: Folders whose every test is slow: the hostile-input corpus and the real-model corpus.
SLOW_FOLDERS = ("fuzz", "bench")


#: Single tests that take more than ~2.5 s on the 2-core development box (measured with --durations): the
#: full run (--all, CI) keeps them; the quick run leaves them out.
SLOW_TESTS = frozenset(
    {
        "tests/tui/cli/test_output_destinations.py::test_a_result_written_by_one_user_is_readable_by_another",
        "tests/tui/app/test_fill_costs.py::test_lazily_loaded_pane_help_and_palette_work",
        "tests/tui/app/test_explorer_truth.py::test_help_lists_focus_palette_and_the_filter_grammar_and_q_quits_from_the_detail_screen",
        "tests/tui/app/test_screens.py::test_command_palette_runs_actions",
        "tests/tui/app/test_app.py::test_navigation_keys",
        "tests/tui/app/test_screens.py::test_no_landing_once_the_user_has_moved",
        "tests/tui/app/test_screens.py::test_export_of_a_filtered_view",
        "tests/tui/app/test_lookup_links.py::test_an_op_type_is_not_offered_as_a_layer",
        "tests/tui/app/test_progress.py::test_at_80x24_a_filling_list_keeps_its_share",
        "tests/tui/app/test_app.py::test_a_streamed_table_repaints_only_rows_on_screen",
        "tests/core/comparison/test_cache.py::test_cache_dir_keeps_the_index_there_when_the_dumps_are_not_yours",
        "tests/tui/app/test_threeway_view.py::test_golden_a_b_shows_both_sides_a_worse_column_and_filters_by_it",
        "tests/tui/app/test_screens.py::test_palette_sorts_and_filters",
        "tests/tui/cli/test_output_destinations.py::test_a_read_only_folder_is_one_line_as_a_normal_user",
        "tests/tui/cli/test_commands.py::test_screenshots_script_writes_svgs",
        "tests/core/onnx/test_dump_memory.py::test_a_small_budget_dumps_every_recipe_like_one_run",
        "tests/core/diagnosis/test_sigmastar_case.py::test_an_8bit_layer_among_int16_ones_introduces_the_error_its_int16_consumers_fail_on",
        "tests/core/diagnosis/test_sigmastar_case.py::test_the_jump_at_a_too_wide_uint8_layer_ranks_first_over_the_drift",
        "tests/core/knowledge/test_knowledge.py::test_no_pattern_backtracks_catastrophically",
        "tests/core/diagnosis/test_one_scale.py::test_a_run_of_one_band_is_judged_as_before",
        "tests/core/onnx/test_fixcheck.py::test_demo_fix_says_how_far_the_patched_target_is_from_the_original_golden",
        "tests/tui/app/test_threeway_view.py::test_screenshots_include_three_way_and_no_color",
        "tests/core/onnx/test_demo.py::test_demo_fix_runs_the_whole_loop_from_the_command_line",
        "tests/core/comparison/msprobe/test_msprobe_columnar.py::test_columnar_equals_the_per_record_reference",
        "tests/core/comparison/test_cache.py::test_a_folder_you_cannot_write_in_is_refused_before_any_file_is_read",
        "tests/core/comparison/test_cache.py::test_the_cli_says_where_the_index_is_and_marks_cached_rows",
        "tests/core/comparison/test_cache.py::test_the_ui_with_fifos_at_the_index_paths_fills_marks_and_quits",
        "tests/core/comparison/test_compare_edge_cases.py::test_the_floor_rule",
        "tests/core/comparison/test_failing_rule.py::test_rules_and_states_agree_with_the_judge",
        "tests/core/comparison/test_segments.py::test_segmented_kernel_equals_the_per_pair_path_bit_for_bit",
        "tests/core/comparison/test_threeway.py::test_worse_by_magnitude_tells_two_passing_recipes_apart",
        "tests/core/comparison/test_threeway.py::test_worse_column_matches_the_scalar_rule",
        "tests/core/comparison/test_triage.py::test_the_suspect_region_is_computed_first_and_the_final_frame_is_compares",
        "tests/core/diagnosis/test_one_scale.py::test_each_row_is_judged_with_its_input_in_the_stricter_band",
        "tests/core/diagnosis/test_sigmastar_case.py::test_export_like_dumpdebug_out",
        "tests/core/knowledge/test_knowledge.py::test_matching_a_1mb_adversarial_line_is_bounded_work",
        "tests/core/knowledge/test_knowledge.py::test_ten_megabyte_single_line",
        "tests/core/onnx/test_dump_memory.py::test_a_grouped_dump_of_a_light_model_matches_its_one_run_dump",
        "tests/core/onnx/test_runner.py::test_end_to_end_compare_light_model",
        "tests/core/onnx/test_runner.py::test_int8_note_names_the_ops_whose_outputs_were_folded",
        "tests/core/test_atomic_writes.py::test_no_file_is_written_outside_core_atomic",
        "tests/test_architecture.py::test_complexity_is_within_the_team_target",
        "tests/tui/app/test_app.py::test_filter_escape_restores_and_errors_are_shown",
        "tests/tui/app/test_app.py::test_filter_search_and_clear",
        "tests/tui/app/test_app.py::test_first_divergent_and_unhealthy_steps",
        "tests/tui/app/test_app.py::test_list_renders_only_visible_rows",
        "tests/tui/app/test_diagnosis_panes.py::test_verdict_origin_column_and_evidence",
        "tests/tui/app/test_fill_costs.py::test_full_passes_wait_while_the_comparison_fills",
        "tests/tui/app/test_fill_costs.py::test_the_landed_row_is_read_when_the_fill_completes",
        "tests/tui/app/test_fix_screen.py::test_f_runs_the_fix_search_and_shows_the_proof",
        "tests/tui/app/test_layout.py::test_help_names_the_panes_and_scrolls_with_j_and_k",
        "tests/tui/app/test_lookup_links.py::test_go_to_layer_jumps_to_the_named_row",
        "tests/tui/app/test_neighbourhood.py::test_neighbourhood_lists_producers_and_consumers_and_enter_moves_the_list",
        # Over ~2.4 CPU seconds each (the test's process and its reaped subprocesses, measured per test on the
        # loaded box, where wall time is no measure; a TUI test waits on top).  Left in the quick run: tests
        # whose time is a module fixture other quick tests share (test_architecture's tree, the SigmaStar
        # case): listing one moves the cost to the next.
        "tests/tui/cli/test_output_destinations.py::test_a_read_only_folder_as_a_normal_user_on_the_command_line",
        "tests/core/comparison/test_pairing_optimised.py::test_the_cli_exits_0_on_the_ort_optimised_graph",
        "tests/core/diagnosis/test_diagnose_determinism.py::test_a_busy_cpu_changes_nothing",
        "tests/core/diagnosis/test_sigmastar_case.py::test_int16_wide_tensors_are_not_told_to_try_int16",
        "tests/tui/app/test_sigmastar_view.py::test_stage_chosen_on_the_command_line_is_shown",
        "tests/tui/cli/test_options_honoured.py::test_the_ui_keeps_the_index_in_the_cache_dir",
        "tests/tui/app/test_threeway_view.py::test_b_switches_the_whole_screen_to_the_other_side",
    }
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without ``--all`` the tests marked slow are deselected (reported as such, never silently skipped)."""
    tests = Path(__file__).parent
    for item in items:
        parts = item.path.relative_to(tests).parts if item.path.is_relative_to(tests) else ()
        if (parts and parts[0] in SLOW_FOLDERS) or item.nodeid.split("[")[0] in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)
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
