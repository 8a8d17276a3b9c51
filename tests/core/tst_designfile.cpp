// Tests of the .weft design file: byte-identical round trips, determinism, kept extensions,
// the version 0 -> 1 migration with its .bak, the bad-file corpus (each error names the right
// JSON path), robustness against truncated or corrupted text, size limits and large designs.
#include "generate/fabricgenerator.h"
#include "io/designfile.h"
#include "model/validate.h"
#include "sampledesigns.h"
#include "storage/designstorage.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>

using namespace weft;
using namespace weft::test;

namespace {

QString dataPath(const QString &rel)
{
    return QStringLiteral(WEFT_TEST_DATA_DIR "/io/") + rel;
}

std::string readText(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return f.readAll().toStdString();
}

Design parseOrFail(const std::string &text)
{
    ParseResult r = parseDesign(text, "test");
    if (!r.ok())
        qFatal("parse failed: %s", r.error.toString().c_str());
    return std::move(*r.design);
}

bool contains(const std::string &haystack, const std::string &needle)
{
    return haystack.find(needle) != std::string::npos;
}

} // namespace

class TestDesignFile : public QObject
{
    Q_OBJECT
private slots:
    void roundTripIsByteIdentical()
    {
        const std::string first = serializeDesign(fullDesign());
        const std::string second = serializeDesign(parseOrFail(first));
        QCOMPARE(QString::fromStdString(second), QString::fromStdString(first));
    }

    void parsedDesignHasEveryField()
    {
        const Design orig = fullDesign();
        const Design d = parseOrFail(serializeDesign(orig));
        QCOMPARE(d.name, orig.name);
        QCOMPARE(d.description, orig.description);
        QCOMPARE(d.nodes().size(), orig.nodes().size());
        QCOMPARE(d.links().size(), orig.links().size());
        QCOMPARE(d.groups().size(), orig.groups().size());
        for (std::size_t i = 0; i < orig.nodes().size(); ++i) {
            const Node &a = orig.nodes()[i], &b = d.nodes()[i];
            QCOMPARE(b.id, a.id);
            QCOMPARE(b.kind, a.kind);
            QCOMPARE(b.name, a.name);
            QCOMPARE(b.spec, a.spec);
            QCOMPARE(b.group, a.group); // derived from the groups' member lists
            QCOMPARE(b.rail, a.rail);
            QCOMPARE(b.plane, a.plane);
            QCOMPARE(b.x, a.x);
            QCOMPARE(b.y, a.y);
            if (a.isSwitch())
                QCOMPARE(b.role, a.role);
        }
        for (std::size_t i = 0; i < orig.links().size(); ++i) {
            const Link &a = orig.links()[i], &b = d.links()[i];
            QCOMPARE(b.id, a.id);
            QCOMPARE(b.a, a.a);
            QCOMPARE(b.b, a.b);
            QCOMPARE(b.tech, a.tech);
            QCOMPARE(b.rate, a.rate); // bytes/s, through rate_gbps
            QCOMPARE(b.lanes, a.lanes);
            QCOMPARE(b.latency, a.latency);
        }
        for (std::size_t i = 0; i < orig.groups().size(); ++i) {
            const Group &a = orig.groups()[i], &b = d.groups()[i];
            QCOMPARE(b.id, a.id);
            QCOMPARE(b.kind, a.kind);
            QCOMPARE(b.name, a.name);
            QCOMPARE(b.preset, a.preset);
            QCOMPARE(b.parent, a.parent);
            QCOMPARE(b.members, a.members);
            QCOMPARE(b.collapsed, a.collapsed);
        }
        QVERIFY(d.generator.has_value());
        QCOMPARE(d.generator->fabric, FabricKind::FatTree);
        QCOMPARE(d.generator->nicRate, 25e9);
        QCOMPARE(d.generator->oversubscription, 2.5);
        QCOMPARE(d.generator->planes, 2);
        QCOMPARE(d.generator->suSize, 16);
        QCOMPARE(d.generator->tiers, 3);
        QCOMPARE(d.view.zoom, 0.75);
        QCOMPARE(d.view.centerX, -120.5);
        QCOMPARE(d.hardware.switches.at("qm9700").radix, 64);
        QCOMPARE(d.hardware.linkTechs.at("ib-ndr").laneRate, 50e9);
        QCOMPARE(d.nextNodeId(), orig.nextNodeId());
        QVERIFY(validateDesign(d).empty());
    }

    void outputIsDeterministic()
    {
        QCOMPARE(serializeDesign(fullDesign()), serializeDesign(fullDesign()));
        const std::string text = serializeDesign(fullDesign());
        QVERIFY(text.starts_with("{\n  \"format\": \"weft.design\",\n  \"version\": 1,\n"));
        QVERIFY(contains(
            text,
            "\"generator\": {\n    \"name\": \"weft\",\n    \"version\": \"" WEFT_VERSION "\""));
        QVERIFY(text.ends_with("}\n"));
        // Nodes and links are compact, one per line.
        QVERIFY(contains(text,
                         "\n    {\"id\":0,\"kind\":\"accelerator\",\"name\":\"gpu-0\","
                         "\"spec\":\"h100-sxm\",\"rail\":0,\"x\":0.0,\"y\":-3.25},\n"));
    }

    // product.md: "generate twice, or load and save, gives byte-identical files".
    void generatedDesignsAreDeterministicAndRoundTrip_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<int>("domains");
        QTest::addColumn<int>("fabric");
        QTest::addColumn<int>("tiers");
        QTest::newRow("dgx-h100 SU") << "dgx-h100" << 32 << int(FabricKind::RailOptimized) << 2;
        QTest::newRow("mi300x mesh") << "mi300x-8" << 4 << int(FabricKind::FatTree) << 2;
        QTest::newRow("one dgx") << "dgx-h100" << 1 << int(FabricKind::None) << 2;
    }

    void generatedDesignsAreDeterministicAndRoundTrip()
    {
        QFETCH(QString, preset);
        QFETCH(int, domains);
        QFETCH(int, fabric);
        QFETCH(int, tiers);
        FabricParams p;
        p.scaleUpPreset = preset.toStdString();
        p.domains = domains;
        p.fabric = static_cast<FabricKind>(fabric);
        p.tiers = tiers;
        const GenerateResult a = generateFabric(p, builtinCatalog());
        const GenerateResult b = generateFabric(p, builtinCatalog());
        QVERIFY(a.ok() && b.ok());
        const std::string text = serializeDesign(*a.design);
        QVERIFY(text == serializeDesign(*b.design));
        const ParseResult r = parseDesign(text, "generated");
        QVERIFY2(r.ok(), r.error.toString().c_str());
        QVERIFY(serializeDesign(*r.design) == text);
        QVERIFY(r.design->generator.has_value());
        QVERIFY(!hasError(validateDesign(*r.design)));
    }

    // A hand-edited leaf model ("spec": "qm8700") that the file's hardware section lacks was
    // refused as "not in the design's hardware table" though the catalog has it: catalog
    // models are embedded on reading; a model the catalog lacks is still an error that says
    // what to do.
    void catalogModelsMissingFromTheFileAreEmbedded()
    {
        FabricParams p;
        p.scaleUpPreset = "dgx-h100";
        p.domains = 2;
        const GenerateResult g = generateFabric(p, builtinCatalog());
        QVERIFY(g.ok());
        const auto edited = [&](const char *model) {
            nlohmann::json j = nlohmann::json::parse(serializeDesign(*g.design));
            for (auto &n : j["nodes"])
                if (n["spec"] == "qm9700")
                    n["spec"] = model;
            j["hardware"]["switches"] = nlohmann::json::array(); // not even qm9700
            return parseDesign(j.dump(), "edited");
        };
        const ParseResult r = edited("qm8700");
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const SwitchSpec *spec = r.design->hardware.switches.count("qm8700")
            ? &r.design->hardware.switches.at("qm8700")
            : nullptr;
        QVERIFY(spec);
        QCOMPARE(spec->radix, builtinCatalog().hardware.switches.at("qm8700").radix);
        QVERIFY(r.design->hardware.switches.count("nvswitch-gen3")); // the NVSwitch chips too
        for (const Finding &f : validateDesign(*r.design)) // QM8700 has fewer ports: port-budget
            QVERIFY2(f.code != findings::kUnknownNodeSpec, f.message.c_str());
        const ParseResult unknown = edited("qm9999");
        QVERIFY(unknown.ok());
        const std::vector<Finding> found = validateDesign(*unknown.design);
        const auto it = std::find_if(found.begin(), found.end(), [](const Finding &f) {
            return f.code == findings::kUnknownNodeSpec;
        });
        QVERIFY(it != found.end());
        QVERIFY2(contains(it->message,
                          "nor in the catalog; add its spec to the file's "
                          "\"hardware\" section"),
                 it->message.c_str());
    }

    void unitsAreConvertedAtTheEdge()
    {
        const std::string text = serializeDesign(fullDesign());
        QVERIFY(contains(text, "\"rate_gbps\":200.0,\"lanes\":9,\"latency_ns\":1000.0"));
        QVERIFY(contains(text, "\"nic_gbps\": 200.0"));
        // A rate that is not exactly representable after x * 8 / 1e9 still round-trips.
        Design d = fullDesign();
        d.link(LinkId(0))->rate = 123456789.123;
        d.link(LinkId(1))->latency = 3.3e-7;
        const std::string once = serializeDesign(d);
        QCOMPARE(serializeDesign(parseOrFail(once)), once);
    }

    void unknownMembersAreKeptUnderExtensions()
    {
        std::string text = serializeDesign(fullDesign());
        // Unknown members added by some other tool, at several levels.
        const auto insertAfter = [&text](const std::string &anchor, const std::string &what) {
            const auto pos = text.find(anchor);
            QVERIFY2(pos != std::string::npos, anchor.c_str());
            text.insert(pos + anchor.size(), what);
        };
        insertAfter("\"version\": 1,", "\n  \"x-top\": [1, 2],");
        insertAfter("\"zoom\": 0.75,", " \"grid\": true,");
        insertAfter("{\"id\":2,\"kind\":\"accelerator\",", "\"serial\":\"A1\",");
        insertAfter("{\"id\":3,\"a\":1,\"b\":5,", "\"length_m\":3,");
        insertAfter("\"key\": \"qm9700\",", " \"price_usd\": 1,");
        const Design d = parseOrFail(text);
        const std::string saved = serializeDesign(d);
        QVERIFY(!contains(saved, "\"x-top\": [1, 2]")); // moved, not left at the top level
        QVERIFY(contains(saved,
                         "\"extensions\": {\n    \"x-tool\": {\n      \"run\": 7\n    },\n"
                         "    \"x-top\": [\n      1,\n      2\n    ]\n  }"));
        QVERIFY(
            contains(saved, "\"center_y\": 33.25,\n    \"extensions\": {\n      \"grid\": true"));
        QVERIFY(contains(saved, "\"y\":-3.25,\"extensions\":{\"serial\":\"A1\"}}"));
        QVERIFY(contains(saved, "\"latency_ns\":1000.0,\"extensions\":{\"length_m\":3}}"));
        QVERIFY(contains(saved, "\"extensions\": {\n          \"price_usd\": 1\n        }"));
        // Earlier extensions are still there, and the saved file is stable.
        QVERIFY(contains(saved, "\"extensions\":{\"color\":\"red\"}"));
        QCOMPARE(serializeDesign(parseOrFail(saved)), saved);
    }

    void extensionsOfRemovedObjectsAreDropped()
    {
        Design d = fullDesign();
        QVERIFY(d.removeNode(NodeId(5)));
        QVERIFY(d.removeLink(LinkId(0)) || !d.link(LinkId(0)));
        const std::string text = serializeDesign(d);
        QVERIFY(!contains(text, "\"color\""));
        QVERIFY(!contains(text, "\"cable\""));
        QVERIFY(contains(text, "\"rack_unit\":12"));
    }

    void versionZeroMigratesToTheSameDesign()
    {
        const ParseResult old
            = parseDesign(readText(dataPath(QStringLiteral("v0/four-gpu-node.weft"))), "v0");
        QVERIFY2(old.ok(), old.error.toString().c_str());
        QCOMPARE(old.fileVersion, 0);
        QCOMPARE(old.migrations.size(), std::size_t(1));
        QVERIFY(contains(old.migrations[0], "version 0 -> 1"));
        const ParseResult cur
            = parseDesign(readText(dataPath(QStringLiteral("v1/four-gpu-node.weft"))), "v1");
        QVERIFY2(cur.ok(), cur.error.toString().c_str());
        QCOMPARE(cur.fileVersion, 1);
        QVERIFY(!cur.migrated());
        QCOMPARE(QString::fromStdString(serializeDesign(*old.design)),
                 QString::fromStdString(serializeDesign(*cur.design)));
        QCOMPARE(old.design->links()[0].rate, 25e9); // bandwidth_gbps 200 became rate 200 Gb/s
        QCOMPARE(old.design->nodes()[6].kind, NodeKind::Switch);
        QCOMPARE(old.design->nodes()[0].group, GroupId(0));
    }

    void loadingAnOldVersionKeepsABackup()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("node.weft"));
        QVERIFY(QFile::copy(dataPath(QStringLiteral("v0/four-gpu-node.weft")), path));
        const std::string original = readText(path);

        LoadResult r = loadDesignFile(path);
        QVERIFY(r.ok());
        QCOMPARE(r.fileVersion, 0);
        QCOMPARE(r.migrations.size(), 1);
        QCOMPARE(r.backupPath, path + QStringLiteral(".bak"));
        QCOMPARE(readText(r.backupPath), original);
        QCOMPARE(readText(path), original); // loading never changes the file itself

        QVERIFY(!saveDesignFile(*r.design, path));
        QCOMPARE(readText(r.backupPath), original); // the upgraded save leaves the backup alone
        const LoadResult again = loadDesignFile(path);
        QVERIFY(again.ok());
        QCOMPARE(again.fileVersion, 1);
        QVERIFY(again.migrations.isEmpty());
        QVERIFY(again.backupPath.isEmpty());
        QCOMPARE(readText(path), serializeDesign(*r.design));
    }

    void backupCanBeSkipped()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("node.weft"));
        QVERIFY(QFile::copy(dataPath(QStringLiteral("v0/four-gpu-node.weft")), path));
        const LoadResult r = loadDesignFile(path, MigrationBackup::Skip);
        QVERIFY(r.ok());
        QVERIFY(r.backupPath.isEmpty());
        QVERIFY(!QFile::exists(path + QStringLiteral(".bak")));
    }

    void badFiles_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("message");
        QFile f(dataPath(QStringLiteral("bad/cases.json")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonArray cases = QJsonDocument::fromJson(f.readAll()).array();
        QVERIFY(cases.size() >= 40);
        for (const QJsonValue &v : cases) {
            const QJsonObject c = v.toObject();
            const QString file = c[QLatin1String("file")].toString();
            QTest::newRow(qPrintable(file))
                << file << c[QLatin1String("exit")].toInt() << c[QLatin1String("path")].toString()
                << c[QLatin1String("code")].toString() << c[QLatin1String("message")].toString();
        }
    }

    void badFiles()
    {
        QFETCH(QString, file);
        QFETCH(int, exitCode);
        QFETCH(QString, path);
        QFETCH(QString, code);
        QFETCH(QString, message);
        const QString full = dataPath(QStringLiteral("bad/") + file);
        const LoadResult r = loadDesignFile(full, MigrationBackup::Skip);
        if (exitCode == 2) {
            QVERIFY2(!r.ok(), "a broken file was accepted");
            QCOMPARE(QString::fromStdString(r.error.file), full);
            QCOMPARE(QString::fromStdString(r.error.jsonPath), path);
            QVERIFY2(QString::fromStdString(r.error.message).contains(message),
                     r.error.toString().c_str());
        } else {
            QVERIFY2(r.ok(), r.error.toString().c_str());
            const auto fs = validateDesign(*r.design);
            const auto it = std::find_if(fs.begin(), fs.end(), [&](const Finding &f) {
                return QString::fromStdString(f.code) == code;
            });
            QVERIFY2(it != fs.end(), qPrintable(QStringLiteral("no %1 finding").arg(code)));
            QVERIFY2(QString::fromStdString(it->message).contains(message), it->message.c_str());
            QVERIFY(it->severity == Severity::Error);
        }
    }

    void fileErrorsNameThePath()
    {
        QTemporaryDir dir;
        const QString missing = dir.filePath(QStringLiteral("nope.weft"));
        LoadResult r = loadDesignFile(missing);
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.error.file), missing);
        QVERIFY(contains(r.error.message, "does not exist"));
        r = loadDesignFile(dir.path());
        QVERIFY(contains(r.error.message, "folder"));
        const QString unwritable = dir.filePath(QStringLiteral("no/such/dir/x.weft"));
        const auto err = saveDesignFile(fullDesign(), unwritable);
        QVERIFY(err.has_value());
        QCOMPARE(QString::fromStdString(err->file), unwritable);
        QVERIFY(!err->message.empty());
    }

    // Every prefix of a valid file is refused with a message, never a crash or exception.
    void truncatedTextIsAlwaysRefused()
    {
        const std::string text = readText(dataPath(QStringLiteral("v1/four-gpu-node.weft")));
        for (std::size_t n = 0; n + 2 < text.size(); n += 3) {
            const ParseResult r = parseDesign(std::string_view(text).substr(0, n), "cut");
            QVERIFY2(!r.ok(), qPrintable(QStringLiteral("prefix %1 accepted").arg(n)));
            QVERIFY(!r.error.message.empty());
        }
    }

    // A file cut inside a long string (a catalog source) quoted the whole string in the
    // error, ~1,800 characters; the error keeps the line and column and the string's end.
    void truncatedLongStringIsNotDumped()
    {
        const std::string text = "{\"format\": \"weft.design\", \"version\": 1, \"name\": \""
            + std::string(2000, 'x') + "tail";
        const ParseResult r = parseDesign(text, "cut");
        QVERIFY(!r.ok());
        const std::string &m = r.error.message;
        QVERIFY2(m.size() < 300, m.c_str());
        QVERIFY2(contains(m, "ends too early"), m.c_str());
        QVERIFY2(contains(m, "line 1, column"), m.c_str());
        QVERIFY2(contains(m, "last read: '...xxx") && contains(m, "xxxtail'"), m.c_str());
        // A short token is quoted whole.
        const ParseResult shortCut = parseDesign("{\"format\": \"weft.design\", \"vers", "cut");
        QVERIFY2(contains(shortCut.error.message, "last read: '\"vers'"),
                 shortCut.error.message.c_str());
    }

    // Format version 99 in a file that names this Weft as its writer said "written by weft
    // 0.1.0 ... newer than this Weft (0.1.0) reads; open it with a newer Weft": the version
    // was edited, and the message says so. A file from a newer Weft still says to use one.
    void newerVersionMessageMatchesTheWriter()
    {
        const auto header = [](const std::string &writer) {
            return "{\"format\": \"weft.design\", \"version\": 99, \"generator\": "
                   "{\"name\": \"weft\", \"version\": \""
                + writer + "\"}}";
        };
        ParseResult r = parseDesign(header(WEFT_VERSION), "edited");
        QVERIFY(!r.ok());
        QCOMPARE(r.error.jsonPath, std::string("/version"));
        QVERIFY2(contains(r.error.message, "design format version 99 is newer than this Weft"),
                 r.error.message.c_str());
        QVERIFY2(contains(r.error.message, "the version was probably edited; set it to 1"),
                 r.error.message.c_str());
        QVERIFY2(!contains(r.error.message, "open it with a newer Weft"), r.error.message.c_str());
        r = parseDesign(header("999.0.0"), "future");
        QVERIFY2(contains(r.error.message, "written by weft 999.0.0: open it with a newer Weft"),
                 r.error.message.c_str());
        QVERIFY2(!contains(r.error.message, "probably edited"), r.error.message.c_str());
    }

    // Random byte changes: the parser answers (a design or an error), it never throws.
    void corruptedTextNeverCrashes()
    {
        const std::string text = serializeDesign(fullDesign());
        QRandomGenerator rng(42);
        int refused = 0;
        for (int round = 0; round < 3000; ++round) {
            std::string bad = text;
            for (int k = 0; k < 1 + round % 4; ++k)
                bad[rng.bounded(static_cast<quint32>(bad.size()))]
                    = "{}[]\",:0-9e.tfn \x01\xff"[rng.bounded(18u)];
            const ParseResult r = parseDesign(bad, "fuzz");
            if (!r.ok()) {
                QVERIFY(!r.error.message.empty());
                ++refused;
            }
        }
        QVERIFY(refused > 1000);
    }

    void absurdNodeCountIsRefusedBeforeAllocating()
    {
        std::string text = R"({"format": "weft.design", "version": 1, "hardware": {}, "links": [],)"
                           R"( "nodes": [)";
        text.reserve(text.size() + 3 * (kMaxNodes + 1));
        for (std::size_t i = 0; i <= kMaxNodes; ++i)
            text += i ? ",{}" : "{}";
        text += "]}";
        const ParseResult r = parseDesign(text, "huge");
        QVERIFY(!r.ok());
        QCOMPARE(r.error.jsonPath, std::string("/nodes"));
        QVERIFY2(contains(r.error.message, "1048577 nodes is above the limit of 1048576"),
                 r.error.message.c_str());
    }

    // ~127k nodes / ~491k links: byte-identical round trip; timings are printed (see also
    // tests/benchmarks/bench_designfile.cpp).
    void largeDesignRoundTrip()
    {
        const Design d = largeDesign(10240);
        QElapsedTimer t;
        t.start();
        const std::string text = serializeDesign(d);
        const qint64 save = t.restart();
        const ParseResult r = parseDesign(text, "large");
        const qint64 load = t.elapsed();
        QVERIFY2(r.ok(), r.error.toString().c_str());
        qInfo("%zu nodes, %zu links: %.1f MB, serialize %lld ms, parse %lld ms", d.nodes().size(),
              d.links().size(), text.size() / 1e6, static_cast<long long>(save),
              static_cast<long long>(load));
        QCOMPARE(r.design->nodes().size(), d.nodes().size());
        QVERIFY(serializeDesign(*r.design) == text);
        QVERIFY(validateDesign(*r.design).empty());
    }
};

QTEST_GUILESS_MAIN(TestDesignFile)
#include "tst_designfile.moc"
