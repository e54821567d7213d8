"""MindSpore's "Unsupported device target Ascend" (ms_context.cc) is answered as an Ascend set-up failure.

The message carries a "Device load error message" block naming a library that failed to load; generic
runtime text (a missing shared object) must not answer before the MindSpore sentence that says the Ascend
plugin is what is missing."""

from __future__ import annotations

from dumpscope.core.knowledge import KnowledgeBase

HEAD = (
    "RuntimeError: Unsupported device target Ascend. This process only supports one of the ['CPU']. "
    "Please check whether the Ascend environment is installed and configured correctly, and check whether "
    'current mindspore wheel package was built with "-e Ascend". For details, please refer to "Device load '
    'error message".'
)


def test_the_mindspore_sentence_answers_with_the_devices_it_has(kb: KnowledgeBase) -> None:
    answer = kb.answer(HEAD, top=3)
    top = answer.matches[0]
    assert top.entry.id == "ascend-mindspore-unsupported-device-target-ascend"
    assert answer.confidence == "high" and dict(top.captures)["arg"] == "CPU"
    assert "set_env.sh" in top.fix


def test_it_answers_before_the_library_the_load_block_names(kb: KnowledgeBase) -> None:
    text = (
        HEAD + "\n\n----------------------------------------------------\n- Device load error message:\n"
        "----------------------------------------------------\n"
        "Load dynamic library: libmindspore_ascend.so.2 failed. libge_runner.so: cannot open shared object "
        "file: No such file or directory"
    )
    ranked = kb.lookup(text, top=3)
    assert ranked[0].entry.id == "ascend-mindspore-unsupported-device-target-ascend"
    assert ranked[0].entry.family == "ascend"


def test_another_device_target_is_not_this_entry(kb: KnowledgeBase) -> None:
    text = "RuntimeError: Unsupported device target GPU. This process only supports one of the ['CPU']."
    ids = [m.entry.id for m in kb.lookup(text, top=5) if m.reason.startswith("pattern")]
    assert "ascend-mindspore-unsupported-device-target-ascend" not in ids
