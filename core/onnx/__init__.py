"""ONNX: graph facts, the onnxruntime dump runner, target recipes (fp16/int8/optimized), patching, the demo
model."""
