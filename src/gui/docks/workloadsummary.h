#pragma once
// WorkloadSummary: the figures derived from the workload, shown live above its fields: world
// size against the accelerators, micro-batches per step, layers per stage, parameters and memory
// per GPU (costmodel's stageMemories() against the accelerator's HBM; red when over).

#include <QWidget>

class QLabel;

namespace weft {

class Design;

class WorkloadSummary : public QWidget
{
    Q_OBJECT
public:
    explicit WorkloadSummary(QWidget *parent = nullptr);
    /// Recomputes the figures for `d` (which has a workload).
    void refresh(const Design &d);
    /// The value label of row `key` ("world", "microBatches", "layers", "params", "memory").
    [[nodiscard]] QLabel *value(const QString &key) const;

private:
    QLabel *m_world, *m_microBatches, *m_layers, *m_params, *m_memory;
};

} // namespace weft
