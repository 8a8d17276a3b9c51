#pragma once
// Figures of the Megatron-Core training stack shared by the tests that model it.

namespace weft::test {

/// Host time per kernel launch of Megatron-Core + Transformer Engine in PyTorch eager on the
/// reference host (a DGX H100's Xeon 8480C; Grace systems 2.75x: AcceleratorSpec::
/// hostLaunchFactor), seconds: the value with which Weft's own simulation of the Megatron-LM
/// DeepSeek-V3 GB200 guide's CUDA-graphs ablation gains what the guide measured (derivation and
/// check: tst_training_validation, slot hostPerKernelCalibration).
constexpr double kMegatronHostPerKernel = 21.8e-6;

} // namespace weft::test
