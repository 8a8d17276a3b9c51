// The Partitions dock's workload form holds every field of the design file's workload: each key
// toJson writes (model and training, with every optional key present) has an editor, and the
// editors of the training stack edit the workload as one undo step each (the MoE dispatcher, CUDA
// graphs, the host time per launch shown in microseconds, the recomputed modules and the layers
// per stage as text, a wrong text refused in place).
#include "document/designdocument.h"
#include "gui/docks/workloadform.h"
#include "io/catalogfile.h"
#include "io/workloadjson.h"
#include "workloadfixtures.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSpinBox>
#include <QTest>

using namespace weft;

namespace {

// snake_case -> camelCase ("kv_heads" -> "kvHeads").
QString camel(const std::string &snake)
{
    QString out;
    bool up = false;
    for (char ch : snake) {
        if (ch == '_') {
            up = true;
            continue;
        }
        out += up ? QChar(QLatin1Char(ch)).toUpper() : QChar(QLatin1Char(ch));
        up = false;
    }
    return out;
}

// The form key of a JSON key of the workload ("model"/"training" section, "mla"/"overlap"
// objects flattened): the member's name, where the file's name differs from it.
QString formKey(const std::string &section, const std::string &object, const std::string &key)
{
    static const std::map<std::string, QString> renamed {
        {"name", QStringLiteral("preset")},
        {"seq_tokens", QStringLiteral("model.seq")},
        {"router_group_topk", QStringLiteral("model.routerGroupTopK")},
        {"micro_batch_seqs", QStringLiteral("microBatch")},
        {"global_batch_seqs", QStringLiteral("globalBatch")},
        {"hsdp_shard_group", QStringLiteral("fsdpShardGroup")},
        {"moe_router_fusion", QStringLiteral("routerFusion")},
        {"launch_overhead_us", QStringLiteral("launchOverhead")},
        {"gradient_accumulation_fusion", QStringLiteral("wgradAccumulationFusion")},
        {"dp_bucket_mb", QStringLiteral("dpBucketBytes")},
    };
    if (const auto it = renamed.find(key); it != renamed.end())
        return it->second;
    if (object == "overlap") // overlap.dp_grad -> overlapDpGrad
        return camel("overlap_" + key);
    return (section == "model" ? QStringLiteral("model.") : QString()) + camel(key);
}

// A workload with every optional key of the file set.
Workload everyKey()
{
    Workload w = *fixtures::cluster256().workload;
    TransformerSpec &m = w.model;
    m.headDim = 64;
    m.qLoraRank = 1536;
    m.kvLoraRank = 512;
    m.qkNopeHeadDim = 128;
    m.qkRopeHeadDim = 64;
    m.vHeadDim = 128;
    m.slidingWindow = 128;
    m.windowEvery = 2;
    m.attentionSinks = true;
    m.activationClamp = 7;
    m.linearBias = true;
    m.routerGroupTopK = 4;
    m.qkNorm = true;
    m.ropeAttentionFactor = 1.3466;
    TrainingConfig &c = w.config;
    c.etp = 1;
    c.dispatcher = TokenDispatcher::DeepEP;
    c.moeImbalance = 1.2;
    c.overlapSharedExperts = true;
    c.routerFusion = false;
    c.stageLayers = {20, 20, 20, 20};
    return w;
}

} // namespace

class TestWorkloadForm : public QObject
{
    Q_OBJECT

    std::unique_ptr<DesignDocument> m_doc;
    std::unique_ptr<WorkloadForm> m_form;

    const TrainingConfig &config() const { return m_doc->design().workload->config; }
    template<class W> W *field(const char *key) const
    {
        return qobject_cast<W *>(m_form->field(QString::fromLatin1(key)));
    }

private slots:
    void init()
    {
        m_doc = std::make_unique<DesignDocument>(builtinCatalog());
        m_doc->resetDesign(fixtures::cluster256());
        m_form = std::make_unique<WorkloadForm>();
        m_form->setDocument(m_doc.get());
        // as the Partitions dock does: the widgets follow the document (undo, redo)
        connect(m_doc.get(), &DesignDocument::workloadChanged, m_form.get(),
                &WorkloadForm::refresh);
        m_form->show();
    }
    void cleanup()
    {
        m_form.reset();
        m_doc.reset();
    }

    void everyFileFieldHasAnEditor()
    {
        const nlohmann::ordered_json j = toJson(everyKey());
        QStringList missing;
        for (const char *section : {"model", "training"})
            for (const auto &[key, value] : j.at(section).items()) {
                if (value.is_object()) {
                    for (const auto &[inner, v] : value.items())
                        if (!m_form->field(formKey(section, key, inner)))
                            missing << QString::fromStdString(key + "." + inner);
                } else if (!m_form->field(formKey(section, "", key)))
                    missing << QString::fromStdString(std::string(section) + "." + key);
            }
        QVERIFY2(missing.isEmpty(), qPrintable(missing.join(QStringLiteral(", "))));
    }

    void dispatcherAndCudaGraphsAreOneUndoStepEach()
    {
        auto *dispatcher = field<QComboBox>("dispatcher");
        QVERIFY(dispatcher);
        const int hybrid = dispatcher->findData(int(TokenDispatcher::HybridEP));
        dispatcher->setCurrentIndex(hybrid);
        emit dispatcher->activated(hybrid);
        QCOMPARE(config().dispatcher, TokenDispatcher::HybridEP);
        auto *graphs = field<QComboBox>("cudaGraphs");
        QVERIFY(graphs);
        QCOMPARE(graphs->currentData().toInt(), int(CudaGraphScope::None));
        const int full = graphs->findData(int(CudaGraphScope::FullIteration));
        QVERIFY(full >= 0);
        graphs->setCurrentIndex(full);
        emit graphs->activated(full);
        QCOMPARE(config().cudaGraphs, CudaGraphScope::FullIteration);
        m_doc->undoStack()->undo();
        QCOMPARE(config().cudaGraphs, CudaGraphScope::None);
        QCOMPARE(graphs->currentData().toInt(), int(CudaGraphScope::None));
        m_doc->undoStack()->undo();
        QCOMPARE(config().dispatcher, TokenDispatcher::AllToAll);
        QCOMPARE(dispatcher->currentData().toInt(), int(TokenDispatcher::AllToAll));
    }

    void hostTimeIsShownInMicroseconds()
    {
        auto *host = field<QDoubleSpinBox>("launchOverhead");
        QVERIFY(host);
        host->setValue(24.2);
        QCOMPARE(config().launchOverhead, 24.2e-6);
        auto *bucket = field<QDoubleSpinBox>("dpBucketBytes");
        QCOMPARE(bucket->value(), 160.0); // MB
        m_doc->undoStack()->undo();
        QCOMPARE(config().launchOverhead, 0.0);
        QCOMPARE(host->value(), 0.0);
    }

    // Fields where 0 means "derived" say so in words ("0" read as a head dimension of zero,
    // an expert TP of zero); a value is shown as itself.
    void derivedValuesAreSaidInWords()
    {
        for (const auto &[key, text] :
             {std::pair {"model.headDim", "auto (hidden / heads)"}, std::pair {"etp", "as TP"},
              std::pair {"fsdpShardGroup", "all (FSDP)"}}) {
            auto *spin = field<QSpinBox>(key);
            QVERIFY2(spin, key);
            QCOMPARE(spin->value(), 0);
            QCOMPARE(spin->text(), QString::fromLatin1(text));
        }
        field<QSpinBox>("etp")->setValue(1);
        QCOMPARE(config().etp, 1);
        QCOMPARE(field<QSpinBox>("etp")->text(), QStringLiteral("1"));
    }

    void recomputedModulesAsTextAndAWrongNameRefused()
    {
        auto *modules = field<QLineEdit>("recomputeModules");
        QVERIFY(modules);
        const unsigned before = config().recomputeModules;
        modules->setText(QStringLiteral("layernorm, moe_act"));
        emit modules->editingFinished();
        QCOMPARE(config().recomputeModules, unsigned(kRecomputeLayerNorm | kRecomputeMoeAct));
        const int steps = m_doc->undoStack()->count();
        modules->setText(QStringLiteral("layernorm, attn"));
        emit modules->editingFinished();
        QCOMPARE(config().recomputeModules, unsigned(kRecomputeLayerNorm | kRecomputeMoeAct));
        QCOMPARE(m_doc->undoStack()->count(), steps);
        QVERIFY(modules->toolTip().contains(QStringLiteral("'attn'")));
        m_doc->undoStack()->undo();
        QCOMPARE(config().recomputeModules, before);
    }

    void layersPerStageAsText()
    {
        auto *stages = field<QLineEdit>("stageLayers");
        QVERIFY(stages);
        QVERIFY(stages->text().isEmpty());
        stages->setText(QStringLiteral("19, 21, 21, 19"));
        emit stages->editingFinished();
        QCOMPARE(config().stageLayers, (std::vector<int> {19, 21, 21, 19}));
        stages->setText(QStringLiteral("19, x"));
        emit stages->editingFinished();
        QCOMPARE(config().stageLayers, (std::vector<int> {19, 21, 21, 19}));
        m_doc->undoStack()->undo();
        QVERIFY(config().stageLayers.empty());
        QVERIFY(stages->text().isEmpty());
    }

    void modelVariantEditMakesTheModelCustom()
    {
        auto *window = field<QSpinBox>("model.slidingWindow");
        QVERIFY(window);
        window->setValue(128);
        QCOMPARE(m_doc->design().workload->model.slidingWindow, 128);
        QVERIFY(QString::fromStdString(m_doc->design().workload->model.name)
                    .endsWith(QStringLiteral("-custom")));
        auto *clamp = field<QDoubleSpinBox>("model.activationClamp");
        clamp->setValue(7);
        QCOMPARE(m_doc->design().workload->model.activationClamp, 7.0);
    }
};

QTEST_MAIN(TestWorkloadForm)
#include "tst_workloadform.moc"
