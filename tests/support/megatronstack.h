#pragma once
// Figures of the Megatron-Core training stack shared by the tests that model it.

namespace weft::test {

/// Host time per kernel launch of Megatron-Core + Transformer Engine in PyTorch eager, seconds:
/// the Megatron-LM DeepSeek-V3 GB200 guide's CUDA-graphs ablation (derivation and check:
/// tst_training_validation, slot hostPerKernelCalibration).
constexpr double kMegatronHostPerKernel = 24.5e-6;

} // namespace weft::test
