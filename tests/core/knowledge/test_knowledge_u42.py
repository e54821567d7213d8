"""Session u42 (the lead's): a crash report whose frames run through Core ML's GPU path (E5RT's MPSGraph
operations) answered by that path's entry rather than the family card.  The messages are dev records'
(round35.jsonl:46, argmaxinc/argmax-oss-swift#264) or written from the frames such reports hold."""

from __future__ import annotations

from dumpscope.core.knowledge import KnowledgeBase

FRAMES = (
    "6   MetalPerformanceShadersGraph  \t       0x1f1571e58 -[MPSGraphExecutable "
    "initWithMPSGraphPackageAtURL:compilationDescriptor:] + 300\n"
    "7   Espresso                      \t       0x1a9512790 "
    "E5RT::SharedResourceFactory::GetMPSGraphExecutable(std::__1::basic_string<char> const&, "
    "NSDictionary*) + 936\n"
    "9   Espresso                      \t       0x1a94b4508 E5RT::Ops::MpsGraphInferenceOperation::Impl::"
    "PrepareOpForEncode() + 824"
)


def test_a_crash_in_e5rts_mpsgraph_operations_is_the_gpu_paths(kb: KnowledgeBase) -> None:
    found = kb.answer(FRAMES, top=2)
    top = found.matches[0]
    assert (found.confidence, top.entry.id) == ("high", "coreml-u42-e5rt-mpsgraph-crash")
    assert "MPSGraph" in top.cause and ".cpuAndNeuralEngine" in top.fix


def test_pytorchs_own_mps_frames_are_not_core_mls(kb: KnowledgeBase) -> None:
    torch_mps = (
        "5   libtorch_cpu.dylib                  0x0000000284c28870 "
        "_ZN2at3mps9MPSStreamC2EN3c106StreamE + 200\n"
        "6   MetalPerformanceShadersGraph        0x00000001a1b2c3d4 -[MPSGraph runWithMTLCommandQueue:] + 96"
    )
    assert all(m.entry.id != "coreml-u42-e5rt-mpsgraph-crash" for m in kb.lookup(torch_mps, top=3))
