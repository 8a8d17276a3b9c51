// CatalogStore: the user's custom catalog file is loaded and merged with the built-in catalog,
// saved on every change, survives a restart; a broken file leaves the built-in catalog usable
// with a clear error and is kept aside, not overwritten. A design using a custom entry opens
// without the user catalog (it embeds the spec). Also the clipboard text of fragments.
#include "canvasfixtures.h"
#include "document/catalogstore.h"
#include "document/designdocument.h"
#include "io/catalogfile.h"
#include "io/designfile.h"
#include "model/validate.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace weft;

namespace {

AcceleratorSpec myGpu()
{
    AcceleratorSpec a;
    a.name = "My GPU 96GB";
    a.peakFlopsBf16 = 700e12;
    a.peakFlopsFp8 = 1400e12;
    a.hbmBytes = 96e9;
    a.hbmBandwidth = 4e12;
    a.scaleUpBandwidth = 400e9;
    a.source = "test";
    return a;
}

SwitchSpec mySwitch()
{
    SwitchSpec s;
    s.name = "My 102T switch";
    s.technology = Technology::Ethernet;
    s.radix = 128;
    s.portRate = 800e9 / 8;
    s.inNetworkReduction = true;
    s.reductionRate = 100e9;
    return s;
}

void write(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

} // namespace

class TestCatalogStore : public QObject
{
    Q_OBJECT
private slots:
    void missingFileMeansBuiltinOnly()
    {
        QTemporaryDir dir;
        CatalogStore store(dir.filePath(QStringLiteral("sub/catalog.json")));
        QVERIFY(store.loadError().isEmpty());
        QVERIFY(store.custom().hardware.accelerators.empty());
        QCOMPARE(store.catalog().hardware.accelerators.size(),
                 builtinCatalog().hardware.accelerators.size());
    }

    void addEditDeleteSurviveRestart()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("sub/catalog.json"));
        CatalogStore store(path);
        QSignalSpy changed(&store, &CatalogStore::changed);
        AcceleratorSpec a = myGpu();
        a.key = store.newKey(a.name);
        QCOMPARE(a.key, std::string("custom-my-gpu-96gb"));
        QString error;
        QVERIFY2(store.putAccelerator(a, &error), qPrintable(error));
        SwitchSpec s = mySwitch();
        s.key = store.newKey(s.name);
        QVERIFY2(store.putSwitch(s, &error), qPrintable(error));
        QCOMPARE(changed.count(), 2);
        QVERIFY(QFile::exists(path));
        // Merged with the built-in entries, marked custom; a second entry of the same name gets
        // its own key.
        QVERIFY(store.isCustom({CatalogItem::Kind::Accelerator, a.key, SwitchRole::Leaf}));
        QVERIFY(!store.isCustom({CatalogItem::Kind::Accelerator, "h100-sxm", SwitchRole::Leaf}));
        QVERIFY(store.catalog().hardware.accelerators.count("h100-sxm"));
        QCOMPARE(store.newKey(a.name), std::string("custom-my-gpu-96gb-2"));

        // A restart reads the same entries with the same figures.
        {
            CatalogStore again(path);
            QVERIFY(again.loadError().isEmpty());
            const AcceleratorSpec &back = again.catalog().hardware.accelerators.at(a.key);
            QCOMPARE(back.name, a.name);
            QCOMPARE(back.peakFlopsFp8, a.peakFlopsFp8);
            QCOMPARE(back.hbmBandwidth, a.hbmBandwidth);
            QCOMPARE(back.scaleUpBandwidth, a.scaleUpBandwidth);
            const SwitchSpec &sw = again.catalog().hardware.switches.at(s.key);
            QCOMPARE(sw.radix, 128);
            QCOMPARE(sw.portRate, s.portRate);
            QCOMPARE(sw.technology, Technology::Ethernet);
            QVERIFY(sw.inNetworkReduction);
        }

        // Edit replaces by key; delete removes from the file.
        a.hbmBytes = 128e9;
        QVERIFY(store.putAccelerator(a, &error));
        QCOMPARE(CatalogStore(path).catalog().hardware.accelerators.at(a.key).hbmBytes, 128e9);
        QVERIFY(store.remove({CatalogItem::Kind::Accelerator, a.key, SwitchRole::Leaf}, &error));
        QVERIFY(!store.catalog().hardware.accelerators.count(a.key));
        QVERIFY(!CatalogStore(path).catalog().hardware.accelerators.count(a.key));
        QVERIFY(!store.remove({CatalogItem::Kind::Switch, "qm9700", SwitchRole::Leaf}, &error));
        QVERIFY(error.contains(QStringLiteral("not a custom entry")));
    }

    void removeRefusesEntryUsedByCustomPreset()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("catalog.json"));
        write(path, R"({"format":"weft.catalog","version":1,
            "accelerators":[{"key":"my-gpu","peak_bf16_tflops":500,"hbm_gb":96,
                             "hbm_bandwidth_gb_per_s":4000}],
            "scale_up_presets":[{"key":"my-box","name":"My box","accelerator":"my-gpu",
                                 "accelerators":4,"scale_up_tech":"nvlink4",
                                 "lanes_per_accelerator":6}]})");
        CatalogStore store(path);
        QVERIFY2(store.loadError().isEmpty(), qPrintable(store.loadError()));
        QVERIFY(store.catalog().scaleUpPresets.count("my-box"));
        QString error;
        QVERIFY(
            !store.remove({CatalogItem::Kind::Accelerator, "my-gpu", SwitchRole::Leaf}, &error));
        QVERIFY(error.contains(QStringLiteral("My box")));
        QVERIFY(store.catalog().hardware.accelerators.count("my-gpu"));
    }

    void badFileKeepsBuiltinAndIsNotOverwritten_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("problem");
        QTest::newRow("not json") << QByteArray("{ this is not json") << QStringLiteral("JSON");
        QTest::newRow("not a catalog") << QByteArray(R"({"format":"weft.design","version":1})")
                                       << QStringLiteral("not a Weft catalog");
        QTest::newRow("bad field") << QByteArray(R"({"format":"weft.catalog","version":1,
                 "accelerators":[{"key":"x","peak_bf16_tflops":"fast","hbm_gb":1,
                                  "hbm_bandwidth_gb_per_s":1}]})")
                                   << QStringLiteral("/accelerators/0/peak_bf16_tflops");
    }

    void badFileKeepsBuiltinAndIsNotOverwritten()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, problem);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("catalog.json"));
        write(path, text);
        CatalogStore store(path);
        QVERIFY2(store.loadError().contains(path), qPrintable(store.loadError()));
        QVERIFY2(store.loadError().contains(problem), qPrintable(store.loadError()));
        QCOMPARE(store.catalog().hardware.switches.size(),
                 builtinCatalog().hardware.switches.size());
        QVERIFY(store.custom().hardware.accelerators.empty());
        // The first save moves the unreadable file aside instead of destroying it.
        AcceleratorSpec a = myGpu();
        a.key = store.newKey(a.name);
        QString error;
        QVERIFY2(store.putAccelerator(a, &error), qPrintable(error));
        QVERIFY(store.loadError().isEmpty());
        QFile broken(path + QStringLiteral(".broken"));
        QVERIFY(broken.open(QIODevice::ReadOnly));
        QCOMPARE(broken.readAll(), text);
        CatalogStore again(path);
        QVERIFY(again.loadError().isEmpty());
        QVERIFY(again.catalog().hardware.accelerators.count(a.key));
    }

    void designWithCustomEntryOpensWithoutUserCatalog()
    {
        QTemporaryDir dir;
        CatalogStore store(dir.filePath(QStringLiteral("catalog.json")));
        AcceleratorSpec a = myGpu();
        a.key = store.newKey(a.name);
        SwitchSpec s = mySwitch();
        s.key = store.newKey(s.name);
        QString error;
        QVERIFY(store.putAccelerator(a, &error) && store.putSwitch(s, &error));
        DesignDocument doc(builtinCatalog());
        doc.setCatalog(store.catalog()); // what MainWindow does on CatalogStore::changed
        const IdSet gpu
            = doc.addFromCatalog({CatalogItem::Kind::Accelerator, a.key, {}}, {0, 0}, {}, &error);
        const IdSet leaf = doc.addFromCatalog({CatalogItem::Kind::Switch, s.key, SwitchRole::Leaf},
                                              {0, -200}, {}, &error);
        QVERIFY2(!gpu.empty() && !leaf.empty(), qPrintable(error));
        QVERIFY(doc.connectNodes(*gpu.nodes.begin(), *leaf.nodes.begin(), &error));
        QCOMPARE(doc.design().links().back().rate, s.portRate); // the switch's port speed

        // The file embeds both specs: parsed with no user catalog anywhere, nothing is unknown.
        const ParseResult r = parseDesign(serializeDesign(doc.design()), "custom.weft");
        QVERIFY(r.ok());
        const Node &n = *r.design->node(*gpu.nodes.begin());
        const AcceleratorSpec *spec = r.design->acceleratorSpec(n);
        QVERIFY(spec);
        QCOMPARE(spec->peakFlopsBf16, a.peakFlopsBf16);
        QCOMPARE(spec->hbmBytes, a.hbmBytes);
        QCOMPARE(r.design->switchSpec(*r.design->node(*leaf.nodes.begin()))->radix, 128);
        for (const Finding &f : validateDesign(*r.design))
            QVERIFY2(f.code != findings::kUnknownNodeSpec, f.message.c_str());
    }

    void editedEntryAndForeignPasteKeepTheirFigures()
    {
        QTemporaryDir dir;
        CatalogStore store(dir.filePath(QStringLiteral("catalog.json")));
        AcceleratorSpec a = myGpu();
        a.key = store.newKey(a.name);
        QString error;
        QVERIFY(store.putAccelerator(a, &error));
        DesignDocument doc(store.catalog());
        const CatalogItem item {CatalogItem::Kind::Accelerator, a.key, {}};
        const NodeId first = *doc.addFromCatalog(item, {0, 0}, {}, &error).nodes.begin();
        // The same figures again: one spec.
        const NodeId same = *doc.addFromCatalog(item, {80, 0}, {}, &error).nodes.begin();
        QCOMPARE(doc.design().node(same)->spec, a.key);
        QCOMPARE(doc.design().hardware.accelerators.size(), 1u);
        // Edited in the catalog: the next drop gets the new figures under a fresh key, the
        // nodes already there keep theirs.
        a.hbmBytes = 192e9;
        QVERIFY(store.putAccelerator(a, &error));
        doc.setCatalog(store.catalog());
        const NodeId edited = *doc.addFromCatalog(item, {160, 0}, {}, &error).nodes.begin();
        QCOMPARE(doc.design().node(edited)->spec, a.key + "-2");
        QCOMPARE(doc.design().acceleratorSpec(*doc.design().node(edited))->hbmBytes, 192e9);
        QCOMPARE(doc.design().acceleratorSpec(*doc.design().node(first))->hbmBytes, 96e9);
        doc.undoStack()->undo();
        QVERIFY(!doc.design().hardware.accelerators.count(a.key + "-2"));
        doc.undoStack()->redo();
        QCOMPARE(doc.design().node(edited)->spec, a.key + "-2");

        // A paste from a design whose H100 has other figures keeps them; equal specs merge.
        Design other;
        fixtures::addDomain(other, "dgx-h100");
        other.hardware.accelerators.at("h100-sxm").hbmBytes = 1e9;
        Design mine;
        fixtures::addDomain(mine, "dgx-h100");
        DesignDocument target(builtinCatalog());
        target.resetDesign(mine);
        target.paste(snapshotClosure(other, {{}, {}, {other.groups().front().id}}), 50, 50);
        const Design &t = target.design();
        QCOMPARE(t.hardware.accelerators.at("h100-sxm").hbmBytes,
                 builtinCatalog().hardware.accelerators.at("h100-sxm").hbmBytes);
        QCOMPARE(t.hardware.accelerators.at("h100-sxm-2").hbmBytes, 1e9);
        QCOMPARE(t.hardware.switches.size(), 1u); // the NVSwitch specs are equal
        QCOMPARE(t.acceleratorSpec(t.nodes().back())->hbmBytes, 1e9);
    }

    void fragmentTextRoundTripsAndRefusesForeignText()
    {
        Design d;
        const GroupId g = fixtures::addDomain(d, "dgx-h100");
        Fragment f = snapshotClosure(d, {{}, {}, {g}});
        const std::string text = fragmentToText(f);
        QString error;
        const auto back = fragmentFromText(text, &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(back->nodes.size(), f.nodes.size());
        QCOMPARE(back->links.size(), f.links.size());
        QCOMPARE(back->groups.size(), 1u);
        QCOMPARE(back->groups.front().members.size(), f.groups.front().members.size());
        QVERIFY(back->hardware.accelerators.count("h100-sxm"));
        QCOMPARE(fragmentSummary(f).section(QLatin1Char('\n'), 0, 1),
                 QStringLiteral("Weft: 12 node(s), 32 link(s), 1 group(s)\n"
                                "DGX H100 #0 (dgx-h100, 12 member(s))"));
        for (const char *foreign : {"hello world", R"({"name": "not weft"})", "[1, 2, 3]"}) {
            error.clear();
            QVERIFY(!fragmentFromText(foreign, &error));
            QVERIFY2(error.startsWith(QStringLiteral("It is not a Weft design")),
                     qPrintable(error));
        }
        QVERIFY(!fragmentFromText(fragmentToText({}), &error));
        QVERIFY(error.contains(QStringLiteral("without any nodes")));
    }
};

QTEST_GUILESS_MAIN(TestCatalogStore)
#include "tst_catalogstore.moc"
