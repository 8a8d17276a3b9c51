// The Partitions dock and the placement on the canvas, driven through the real widgets of a main
// window on the 256-GPU design (32 DGX H100, Llama 3 70B TP 8 PP 4 DP 8): edit TP in its spin
// box, add a workload, auto-map, drag a stage onto another domain, swap two accelerators by a
// mouse drag, colour by stage; each followed by undo with assertions on document and widgets.
#include "canvasdriver.h"
#include "document/designdocument.h"
#include "gui/canvas/groupitem.h"
#include "gui/canvas/rankgroupdrop.h"
#include "gui/canvas/ranklegend.h"
#include "gui/canvas/topologyscene.h"
#include "gui/docks/parallelgrouptree.h"
#include "gui/docks/partitionsdock.h"
#include "gui/docks/workloadform.h"
#include "gui/mainwindow.h"
#include "gui/widgets/workloadsummary.h"
#include "partitionsdriver.h"
#include "workloadfixtures.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTest>

using namespace weft;
using namespace weft::test;

class TestPartitions : public QObject
{
    Q_OBJECT

    DesignDocument *doc() const { return m_w->document(); }
    TopologyView &view() const { return *m_w->view(); }
    PartitionsDock *dock() const { return m_w->partitions(); }
    QSpinBox *spin(const char *key) const
    {
        return qobject_cast<QSpinBox *>(dock()->form()->field(QString::fromLatin1(key)));
    }

    std::unique_ptr<RecordingPresenter> m_presenter;
    std::unique_ptr<MainWindow> m_w;

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init()
    {
        m_presenter = std::make_unique<RecordingPresenter>();
        m_w = std::make_unique<MainWindow>();
        m_w->resize(1400, 900);
        m_w->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_w.get()));
        doc()->resetDesign(fixtures::cluster256());
        dock()->raise();
    }

    void cleanup()
    {
        doc()->undoStack()->setClean();
        m_w.reset();
        m_presenter.reset();
    }

    void tpSpinBoxEditsWorkloadAndUndoRestores()
    {
        QSpinBox *tp = spin("tp");
        QVERIFY(tp);
        QCOMPARE(tp->value(), 8);
        QCOMPARE(ranksOf(doc()->design()).tpGroup({}).size(), 8u);
        typeInto(tp, QStringLiteral("16"));
        QCOMPARE(doc()->undoStack()->count(), 1); // one step, not one per keystroke
        const Workload &w = *doc()->design().workload;
        QCOMPARE(w.config.tp, 16);
        QCOMPARE(w.config.dp, 4); // DP follows: 16 x 4 x 4 still fills 256 accelerators
        QCOMPARE(spin("dp")->value(), 4);
        const RankMap rm = ranksOf(doc()->design());
        QVERIFY(rm.valid());
        const std::vector<NodeId> group = rm.tpGroup({});
        QCOMPARE(group.size(), 16u);
        std::set<GroupId> spanned;
        for (const NodeId id : group)
            spanned.insert(doc()->design().node(id)->group);
        QCOMPARE(spanned.size(), 2u); // a TP group of 16 spans two 8-GPU domains
        QCOMPARE(dock()->groupTree()->entry({RankGroupKind::Tp, 0})->text(1),
                 QStringLiteral("0–15"));

        doc()->undoStack()->undo();
        QCOMPARE(doc()->design().workload->config.tp, 8);
        QCOMPARE(doc()->design().workload->config.dp, 8);
        QCOMPARE(tp->value(), 8);
        QCOMPARE(spin("dp")->value(), 8);
        QCOMPARE(ranksOf(doc()->design()).tpGroup({}).size(), 8u);
        doc()->undoStack()->redo();
        QCOMPARE(tp->value(), 16);
    }

    void invalidDegreeShowsMessageInline()
    {
        typeInto(spin("tp"), QStringLiteral("3")); // 64 heads do not split over 3
        QCOMPARE(doc()->design().workload->config.tp, 3);
        // The message sits in the Parallelism section (its issues label follows the EP field).
        const auto issueShown = [this] {
            for (const QLabel *l : dock()->form()->findChildren<QLabel *>())
                if (l->isVisible() && l->text().contains(QStringLiteral("✖"))
                    && l->text().contains(QStringLiteral("heads")))
                    return true;
            return false;
        };
        QVERIFY(issueShown());
        QVERIFY(dock()
                    ->summary()
                    ->value(QStringLiteral("memory"))
                    ->text()
                    .contains(QStringLiteral("fix")));
        doc()->undoStack()->undo();
        QVERIFY(!issueShown());
    }

    void derivedFiguresFollowEdits()
    {
        QLabel *world = dock()->summary()->value(QStringLiteral("world"));
        QLabel *memory = dock()->summary()->value(QStringLiteral("memory"));
        QVERIFY(world->text().contains(QStringLiteral("256 ranks on 256")));
        // The H100's capacity as the catalog gives it (85.5 GB, what the driver reports), with
        // one decimal as weft-cli prints it (it was "of 86 GB").
        QVERIFY2(memory->text().contains(QStringLiteral("of 85.5 GB")), qPrintable(memory->text()));
        QVERIFY(memory->styleSheet().isEmpty()); // fits: not red
        typeInto(spin("dp"), QStringLiteral("16")); // 512 ranks on 256 accelerators
        QVERIFY(world->text().contains(QStringLiteral("256 too many")));
        QVERIFY(!world->styleSheet().isEmpty());
        doc()->undoStack()->undo();
        typeInto(spin("microBatch"), QStringLiteral("4")); // 4x the activations: over 80 GB
        QCOMPARE(doc()->design().workload->config.microBatch, 4);
        QVERIFY(memory->text().contains(QStringLiteral("does not fit")));
        QVERIFY(!memory->styleSheet().isEmpty());
    }

    void layersPerStageWording()
    {
        // Llama 3 70B: 80 layers on PP 4 = 20 per stage; one chunk per stage says no "chunk".
        QLabel *layers = dock()->summary()->value(QStringLiteral("layers"));
        QCOMPARE(layers->text(), QStringLiteral("20 layers per stage"));
        Workload w = *doc()->design().workload;
        w.config.schedule = PipelineSchedule::Interleaved;
        w.config.vpp = 2;
        doc()->setWorkload(w, QStringLiteral("interleave"));
        QCOMPARE(layers->text(), QStringLiteral("20 layers per stage, in 2 chunks of 10"));
        QCOMPARE(WorkloadSummary::layersPerStageText({7, 8, 8, 7}, 4),
                 QStringLiteral("7 to 8 layers per stage"));
        QCOMPARE(WorkloadSummary::layersPerStageText({3, 4, 4, 4, 4, 4, 4, 3}, 4),
                 QStringLiteral("7 to 8 layers per stage, in 2 chunks of 3 to 4"));
    }

    void addWorkloadButtonAndRemoveUndo()
    {
        doc()->resetDesign(fixtures::cluster256(false));
        QVERIFY(dock()->addButton()->isVisible());
        QTest::mouseClick(dock()->addButton(), Qt::LeftButton);
        QVERIFY(doc()->design().workload);
        const Workload &w = *doc()->design().workload;
        QCOMPARE(w.config.worldSize(), 256LL);
        QCOMPARE(w.config.tp, 8);
        QVERIFY(!hasError(validate(w.model, w.config, 256)));
        QVERIFY(ranksOf(doc()->design()).valid());
        QVERIFY(!dock()->addButton()->isVisible());
        QCOMPARE(spin("tp")->value(), 8);
        doc()->undoStack()->undo();
        QVERIFY(!doc()->design().workload);
        QVERIFY(dock()->addButton()->isVisible());
    }

    // The MoE overlaps and the router fusion are in the form: a click flips the config, undo
    // restores it.
    void moeOverlapCheckBoxesEditTheConfig()
    {
        QVERIFY(doc()->design().workload);
        using Flag = bool TrainingConfig::*;
        const std::pair<const char *, Flag> flags[]
            = {{"overlapEp", &TrainingConfig::overlapEp},
               {"overlapSharedExperts", &TrainingConfig::overlapSharedExperts},
               {"routerFusion", &TrainingConfig::routerFusion}};
        for (const auto &[key, flag] : flags) {
            auto *box = qobject_cast<QCheckBox *>(dock()->form()->field(QString::fromLatin1(key)));
            QVERIFY2(box, key);
            const bool before = doc()->design().workload->config.*flag;
            QCOMPARE(box->isChecked(), before);
            box->click();
            QVERIFY2(doc()->design().workload->config.*flag == !before, key);
            doc()->undoStack()->undo();
            QVERIFY2(doc()->design().workload->config.*flag == before, key);
            QCOMPARE(box->isChecked(), before);
        }
    }

    // How the TP overlap runs is in the form (a combo box), enabled only with TP overlap on
    // (and TP > 1): picking async TP edits the config, undo restores it.
    void tpOverlapKindComboEditsTheConfig()
    {
        QVERIFY(doc()->design().workload);
        QVERIFY(doc()->design().workload->config.tp > 1);
        auto *box
            = qobject_cast<QComboBox *>(dock()->form()->field(QStringLiteral("tpOverlapKind")));
        auto *overlap
            = qobject_cast<QCheckBox *>(dock()->form()->field(QStringLiteral("overlapTp")));
        QVERIFY(box && overlap);
        QVERIFY(!doc()->design().workload->config.overlapTp);
        QVERIFY(!box->isEnabled());
        overlap->click();
        QVERIFY(doc()->design().workload->config.overlapTp);
        QVERIFY(box->isEnabled());
        QCOMPARE(doc()->design().workload->config.tpOverlapKind, TpOverlapKind::Userbuffers);
        QCOMPARE(box->currentIndex(), 0);
        box->setCurrentIndex(1);
        emit box->activated(1); // as a user's pick
        QCOMPARE(doc()->design().workload->config.tpOverlapKind, TpOverlapKind::AsyncTp);
        doc()->undoStack()->undo();
        QCOMPARE(doc()->design().workload->config.tpOverlapKind, TpOverlapKind::Userbuffers);
        QCOMPARE(box->currentIndex(), 0);
        doc()->undoStack()->undo();
        QVERIFY(!box->isEnabled());
    }

    void presetComboReplacesModel()
    {
        auto *preset = qobject_cast<QComboBox *>(dock()->form()->field(QStringLiteral("preset")));
        const int i = preset->findData(QStringLiteral("llama3-8b"));
        QVERIFY(i >= 0);
        preset->activated(i);
        QCOMPARE(doc()->design().workload->model.layers, 32);
        QCOMPARE(spin("model.layers")->value(), 32);
        typeInto(spin("model.layers"), QStringLiteral("40"));
        QCOMPARE(doc()->design().workload->model.name, std::string("llama3-8b-custom"));
        QVERIFY(preset->currentText().startsWith(QStringLiteral("Custom")));
        doc()->undoStack()->undo();
        doc()->undoStack()->undo();
        QCOMPARE(doc()->design().workload->model.layers, 80);
        QCOMPARE(preset->currentData().toString(), QStringLiteral("llama3-70b"));
    }

    void autoMapWithChosenOrder()
    {
        const std::vector<NodeId> before = mapOf(doc()->design());
        QVERIFY(doc()->swapRanks(before[0], before[100], nullptr));
        const int i = dock()->orderCombo()->findData(QStringLiteral("pp-tp-cp-ep-dp"));
        dock()->orderCombo()->setCurrentIndex(i);
        QTest::mouseClick(dock()->autoMapButton(), Qt::LeftButton);
        const Workload &w = *doc()->design().workload;
        QCOMPARE(w.placement.order, std::string("pp-tp-cp-ep-dp"));
        QVERIFY(w.placement.explicitMap.empty());
        QCOMPARE(ranksOf(doc()->design()).coord(1).pp, 1);
        doc()->undoStack()->undo();
        QCOMPARE(doc()->design().workload->placement.order, std::string("tp-cp-ep-dp-pp"));
        QCOMPARE(dock()->orderCombo()->currentData().toString(), QStringLiteral("tp-cp-ep-dp-pp"));
    }

    void groupListSelectsAccelerators()
    {
        ParallelGroupTree *tree = dock()->groupTree();
        QTreeWidgetItem *stage2 = tree->entry({RankGroupKind::Stage, 2});
        QVERIFY(stage2);
        QCOMPARE(stage2->text(1), QStringLiteral("128–191"));
        QVERIFY(tree->entry({RankGroupKind::Tp, 31}));
        QVERIFY(tree->entry({RankGroupKind::DpReplica, 7}));
        QVERIFY(!tree->entry({RankGroupKind::Cp, 0})); // CP 1: not listed
        tree->setCurrentItem(stage2);
        const RankMap rm = ranksOf(doc()->design());
        QCOMPARE(doc()->selection().nodes.size(), 64u);
        QVERIFY(doc()->selection().nodes.count(rm.node(128)));
        QVERIFY(!doc()->selection().nodes.count(rm.node(0)));
    }

    void dragStageOntoAnotherDomain()
    {
        const Design &d = doc()->design();
        const std::vector<NodeId> before = mapOf(d);
        const GroupId target = domains(d)[0]; // holds stage 0 (ranks 0-7)
        const std::vector<NodeId> targetAcc = acceleratorsOf(d, target);
        // The drag payload exactly as the tree produces it for a drag of "Stage 1".
        ParallelGroupTree *tree = dock()->groupTree();
        QTreeWidgetItem *stage1 = tree->entry({RankGroupKind::Stage, 1});
        const QModelIndex index = tree->model()->index(
            stage1->parent()->indexOfChild(stage1), 0,
            tree->model()->index(tree->indexOfTopLevelItem(stage1->parent()), 0));
        std::unique_ptr<QMimeData> mime(tree->model()->mimeData({index}));
        QVERIFY(mime);
        const QPointF at
            = m_w->view()->topologyScene()->groupItem(target)->sceneBoundingRect().center();
        QVERIFY(drop(view(), mime.get(), at));
        QCOMPARE(doc()->undoStack()->count(), 1);
        const std::vector<NodeId> after = mapOf(doc()->design());
        for (int i = 0; i < 8; ++i) {
            QCOMPARE(after[std::size_t(64 + i)], targetAcc[std::size_t(i)]); // stage 1 moved in
            QCOMPARE(after[std::size_t(i)], before[std::size_t(64 + i)]); // stage 0 moved out
        }
        QCOMPARE(ranksOf(doc()->design()).coord(64).pp, 1);
        QVERIFY(m_presenter->errors.isEmpty());
        doc()->undoStack()->undo();
        QCOMPARE(mapOf(doc()->design()), before);
        QVERIFY(doc()->design().workload->placement.explicitMap.empty());
        doc()->undoStack()->redo();
        QCOMPARE(mapOf(doc()->design()), after);
    }

    void dropOnSelectedAccelerators()
    {
        const Design &d = doc()->design();
        const GroupId dom = domains(d)[5];
        doc()->setCollapsed(dom, false);
        const std::vector<NodeId> acc = acceleratorsOf(d, dom);
        doc()->setSelection({{acc[6], acc[7]}, {}, {}});
        auto mime = rankGroupMimeData({RankGroupKind::Tp, 0});
        const QPointF at(d.node(acc[7])->x, d.node(acc[7])->y);
        QVERIFY(drop(view(), mime.get(), at));
        const std::vector<NodeId> after = mapOf(doc()->design());
        QCOMPARE(after[0], acc[6]); // the first two ranks of TP group 0 went to the selection
        QCOMPARE(after[1], acc[7]);
        doc()->undoStack()->undo();
        QCOMPARE(mapOf(doc()->design())[0], acceleratorsInOrder(d)[0]);
    }

    void swapTwoAcceleratorsByMouseDrag()
    {
        const Design &d = doc()->design();
        const GroupId dom = domains(d)[0];
        doc()->setCollapsed(dom, false);
        const std::vector<NodeId> acc = acceleratorsOf(d, dom);
        const std::vector<NodeId> before = mapOf(d);
        const QPointF a(d.node(acc[1])->x, d.node(acc[1])->y);
        const QPointF b(d.node(acc[4])->x, d.node(acc[4])->y);
        m_w->view()->centerOn(a);
        const int steps = doc()->undoStack()->count();
        drag(view(), a, b);
        QCOMPARE(doc()->undoStack()->count(), steps + 1); // the swap only, no move
        QCOMPARE(QPointF(d.node(acc[1])->x, d.node(acc[1])->y), a); // back where it was
        const std::vector<NodeId> after = mapOf(d);
        QCOMPARE(after[1], acc[4]);
        QCOMPARE(after[4], acc[1]);
        QCOMPARE(m_w->view()->topologyScene()->rankColouring().rank(acc[4]), 1);
        doc()->undoStack()->undo();
        QCOMPARE(mapOf(d), before);
        QCOMPARE(m_w->view()->topologyScene()->rankColouring().rank(acc[4]), 4);
        // Dragged onto empty canvas, the accelerator moves as before.
        drag(view(), a, a + QPointF(0, 200));
        QCOMPARE(d.node(acc[1])->y, a.y() + 200);
        QCOMPARE(mapOf(d), before);
    }

    void colourByStageWithLegend()
    {
        TopologyScene *scene = m_w->view()->topologyScene();
        QComboBox *mode = dock()->colourCombo();
        const RankMap rm = ranksOf(doc()->design());
        const NodeId s0 = rm.node(0), s0b = rm.node(63), s1 = rm.node(64), tp1 = rm.node(8);
        mode->setCurrentIndex(mode->findData(int(RankColouring::Mode::Stage)));
        const RankColouring &rc = scene->rankColouring();
        QVERIFY(rc.colour(s0).isValid());
        QVERIFY(rc.colour(s0) != rc.colour(s1)); // different stages, different colours
        QCOMPARE(rc.colour(s0), rc.colour(s0b));
        QVERIFY(m_w->view()->rankLegend()->isVisible());
        QCOMPARE(rc.legend().size(), 4u);
        mode->setCurrentIndex(mode->findData(int(RankColouring::Mode::TpGroup)));
        QVERIFY(rc.colour(s0) != rc.colour(tp1));
        mode->setCurrentIndex(mode->findData(int(RankColouring::Mode::None)));
        QVERIFY(!rc.colour(s0).isValid());
        QVERIFY(!m_w->view()->rankLegend()->isVisible());
        // Colours follow the placement: swap, and the swapped accelerator takes the other colour.
        mode->setCurrentIndex(mode->findData(int(RankColouring::Mode::Stage)));
        const QColor stage1 = rc.colour(s1);
        QVERIFY(doc()->swapRanks(s0, s1, nullptr));
        QCOMPARE(rc.colour(s0), stage1);
        // The palette tells colour-blind viewers apart: no two colours closer than a threshold.
        for (bool dark : {false, true}) {
            const auto &p = RankColouring::palette(dark);
            for (std::size_t i = 0; i < p.size(); ++i)
                for (std::size_t j = i + 1; j < p.size(); ++j)
                    QVERIFY(p[i] != p[j]);
        }
    }
};

QTEST_MAIN(TestPartitions)
#include "tst_partitions.moc"
