// Checks resources/schema/weft-design-v1.schema.json with python3-jsonschema: the schema is a
// valid draft 2020-12 schema, every example and every design these tests save conforms, and
// broken files do not (so the check can fail). Skipped only when python3 or jsonschema is absent.
#include "io/designfile.h"
#include "sampledesigns.h"
#include "storage/designstorage.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace weft;

namespace {

// Validates each file against the schema; prints "OK file" or "FAIL file: where: why" lines.
const char *kScript = R"PY(
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
bad = 0
for path in sys.argv[2:]:
    errors = sorted(validator.iter_errors(json.load(open(path))), key=lambda e: list(e.path))
    if errors:
        bad += 1
        e = errors[0]
        print("FAIL %s: /%s: %s" % (path, "/".join(str(p) for p in e.path), e.message[:200]))
    else:
        print("OK %s" % path)
sys.exit(1 if bad else 0)
)PY";

const QString kSchema = QStringLiteral(WEFT_RESOURCES_DIR "/schema/weft-design-v1.schema.json");

struct Check
{
    int exitCode;
    QString output;
};

Check runSchema(const QStringList &files)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral("python3"),
            QStringList {QStringLiteral("-c"), QString::fromUtf8(kScript), kSchema} + files);
    // No limit of its own (the 16k example takes a minute on a loaded machine): CTest's timeout
    // bounds the test.
    if (!p.waitForFinished(-1))
        return {-1, QStringLiteral("python3 did not start or crashed: ") + p.errorString()};
    return {p.exitCode(), QString::fromUtf8(p.readAll())};
}

} // namespace

class TestSchema : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QProcess p;
        p.start(QStringLiteral("python3"),
                {QStringLiteral("-c"), QStringLiteral("import jsonschema")});
        if (!p.waitForFinished(30000) || p.exitStatus() != QProcess::NormalExit
            || p.exitCode() != 0)
            QSKIP("python3 with the jsonschema module is not available");
        QVERIFY(m_dir.isValid());
    }

    void examplesAndSavedDesignsConform()
    {
        QStringList files;
        const QDir examples(QStringLiteral(WEFT_RESOURCES_DIR "/examples"));
        for (const QString &f : examples.entryList({QStringLiteral("*.weft")}))
            files << examples.filePath(f);
        const auto save = [&](const Design &d, const QString &name) {
            const QString path = m_dir.filePath(name);
            QVERIFY(!saveDesignFile(d, path));
            files << path;
        };
        save(test::fullDesign(), QStringLiteral("full.weft"));
        save(test::largeDesign(40), QStringLiteral("large-40.weft"));
        save(Design {}, QStringLiteral("empty-design.weft"));
        { // one what-if fault of each kind (the optional "faults" array)
            Design f = test::fullDesign();
            NodeId sw, acc;
            for (const Node &n : f.nodes())
                (n.isSwitch() ? sw : acc) = n.id;
            f.scenario.faults = {{Fault::Kind::LinkDown, faultTarget(f.links().at(0).id), 1},
                                 {Fault::Kind::CableDown, faultTarget(f.links().at(1).id), 1},
                                 {Fault::Kind::SwitchDown, faultTarget(sw), 1},
                                 {Fault::Kind::LinkRate, faultTarget(f.links().at(2).id), 0.5},
                                 {Fault::Kind::AcceleratorClock, faultTarget(acc), 0.8}};
            save(f, QStringLiteral("faults.weft"));
        }
        // An upgraded version-0 file, saved as version 1.
        const LoadResult old = loadDesignFile(
            QStringLiteral(WEFT_TEST_DATA_DIR "/io/v0/four-gpu-node.weft"), MigrationBackup::Skip);
        QVERIFY(old.ok());
        save(*old.design, QStringLiteral("migrated.weft"));
        files << QStringLiteral(WEFT_TEST_DATA_DIR "/io/v1/four-gpu-node.weft");
        const Check c = runSchema(files);
        QVERIFY2(c.exitCode == 0, qPrintable(c.output));
        QCOMPARE(c.output.count(QStringLiteral("OK ")), files.size());
    }

    // One python run for all cases (starting python3 is the slow part).
    void brokenFilesDoNotConform()
    {
        const std::pair<const char *, const char *> cases[] = {
            {"link-zero-rate.weft", "/links/0/rate_gbps"},
            {"link-zero-lanes.weft", "/links/1/lanes"},
            {"switch-missing-role.weft", "/nodes/5"},
            {"node-unknown-kind.weft", "/nodes/0/kind"},
            {"newer-version.weft", "/version"},
            {"billion-accelerators.weft", "/fabric_generator/domains"},
            {"v0-with-nodes.weft", "/"},
        };
        QStringList files;
        for (const auto &[file, where] : cases)
            files << QStringLiteral(WEFT_TEST_DATA_DIR "/io/bad/") + QLatin1String(file);
        const Check c = runSchema(files);
        QCOMPARE(c.exitCode, 1);
        for (const auto &[file, where] : cases)
            QVERIFY2(c.output.contains(QStringLiteral("FAIL %1%2: %3:")
                                           .arg(QStringLiteral(WEFT_TEST_DATA_DIR "/io/bad/"),
                                                QLatin1String(file), QLatin1String(where))),
                     qPrintable(c.output));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestSchema)
#include "tst_schema.moc"
