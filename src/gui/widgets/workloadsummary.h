#pragma once
// WorkloadSummary: the figures derived from the workload, shown live above its fields: world
// size against the accelerators, micro-batches per step, layers per stage, parameters and memory
// per GPU (costmodel's stageMemories() against the accelerator's HBM; red when over).

#include <QWidget>
#include <vector>

class QLabel;

namespace weft {

class Design;
struct AcceleratorSpec;

class WorkloadSummary : public QWidget
{
    Q_OBJECT
public:
    explicit WorkloadSummary(QWidget *parent = nullptr);
    /// Recomputes the figures for `d` (which has a workload).
    void refresh(const Design &d);
    /// The value label of row `key` ("world", "microBatches", "layers", "params", "memory").
    [[nodiscard]] QLabel *value(const QString &key) const;
    /// The "Layers per stage" text for the layers of each model chunk (index k runs on stage
    /// k % pp, as splitLayers()): "80 layers per stage", with interleaving "24 layers per stage,
    /// in 2 chunks of 12", uneven splits as ranges ("7 to 8 layers per stage").
    /// The accelerator with the smallest HBM among those the ranks may use (the one that
    /// overflows first), or nullptr when none has a spec.
    [[nodiscard]] static const AcceleratorSpec *tightestAccelerator(const Design &d);
    [[nodiscard]] static QString layersPerStageText(const std::vector<int> &chunkLayers, int pp);

private:
    QLabel *m_world, *m_microBatches, *m_layers, *m_params, *m_memory;
};

} // namespace weft
