// Readers under hostile input (issue 17): JSON nested 100,000 levels deep is refused with the
// JSON Pointer where it passes the limit (it used to overflow the stack in a recursive copy),
// absurd rates name the field and the limit, reported durations are never negative, and the
// layer split does not overflow.
#include "io/catalogfile.h"
#include "io/designfile.h"
#include "io/resultcsv.h"
#include "io/resultjson.h"
#include "io/sweepjson.h"
#include "workload/parallelism.h"

#include <QFile>
#include <QtTest>
#include <climits>
#include <numeric>

using namespace weft;

namespace {

constexpr int kDeep = 100000;

std::string nested(const char *open, const char *close, int levels)
{
    std::string s;
    for (int i = 0; i < levels; ++i)
        s += open;
    for (int i = 0; i < levels; ++i)
        s += close;
    return s;
}

std::string goodDesignText()
{
    QFile f(QStringLiteral(WEFT_TEST_DATA_DIR "/io/v1/four-gpu-node.weft"));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing test data");
    return f.readAll().toStdString();
}

std::string pointerRepeat(const std::string &head, const char *step, int times)
{
    std::string s = head;
    for (int i = 0; i < times; ++i)
        s += step;
    return s;
}

} // namespace

class TestFileLimits : public QObject
{
    Q_OBJECT
private slots:
    void deepDesignNamesThePath_data()
    {
        QTest::addColumn<QString>("insert"); // inserted after the first '{' of a good design
        QTest::addColumn<QString>("path");
        QTest::newRow("arrays under an unknown key")
            << QString::fromStdString("\"deep\": " + nested("[", "]", kDeep) + ",")
            << QString::fromStdString(pointerRepeat("/deep", "/0", 199));
        QTest::newRow("objects under extensions")
            << QString::fromStdString("\"extensions\": " + nested("{\"a/b\": ", "}", kDeep) + ",")
            << QString::fromStdString(pointerRepeat("/extensions", "/a~1b", 199));
    }

    void deepDesignNamesThePath()
    {
        QFETCH(QString, insert);
        QFETCH(QString, path);
        std::string text = goodDesignText();
        text.insert(text.find('{') + 1, insert.toStdString());
        const ParseResult r = parseDesign(text, "deep.weft");
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.error.jsonPath), path);
        QVERIFY2(r.error.message.find("nested deeper than 200 levels") != std::string::npos,
                 r.error.message.c_str());
    }

    void nestingUpToTheLimitIsKept()
    {
        // 190 levels under an unknown key: read, kept and written back.
        std::string text = goodDesignText();
        text.insert(text.find('{') + 1, "\"deep\": " + nested("[", "]", 190) + ",");
        const ParseResult r = parseDesign(text, "deep.weft");
        QVERIFY2(r.ok(), r.error.toString().c_str());
        const ParseResult again = parseDesign(serializeDesign(*r.design), "again.weft");
        QVERIFY(again.ok());
        QVERIFY(again.design->extensions.find(nested("[", "]", 190)) != std::string::npos);
        QCOMPARE(again.design->extensions, r.design->extensions);
    }

    void deepCatalogAndSweepTable()
    {
        const std::string deep = "{\"format\": " + nested("[", "]", kDeep) + "}";
        const auto catalog = parseCatalog(deep, "deep.json");
        QVERIFY(std::holds_alternative<FileError>(catalog));
        QCOMPARE(std::get<FileError>(catalog).jsonPath, pointerRepeat("/format", "/0", 199));
        const auto sweep = parseSweepJson(deep, "deep.json");
        QVERIFY(std::holds_alternative<FileError>(sweep));
        QVERIFY(std::get<FileError>(sweep).message.find("nested deeper") != std::string::npos);
    }

    void catalogRateLimitNamesFieldAndLimit()
    {
        const char *text = R"({"format":"weft.catalog","version":1,"link_technologies":[
            {"key":"x","technology":"infiniband","lane_gbps":1e18}]})";
        const auto c = parseCatalog(text, "mine.json");
        QVERIFY(std::holds_alternative<FileError>(c));
        const FileError &e = std::get<FileError>(c);
        QCOMPARE(e.jsonPath, std::string("/link_technologies/0/lane_gbps"));
        QVERIFY2(e.message.find("at most 100000 Gb/s") != std::string::npos, e.message.c_str());
    }

    void durationsAreNeverNegative()
    {
        SimResult r;
        r.ok = true;
        r.stepTime = 1.5;
        r.breakdown.compute = 1.5;
        r.breakdown.dpExposed = -1.8e-16; // a difference of event times
        r.breakdown.bubble = -0.0;
        const nlohmann::ordered_json j = toJson(r, Design {});
        QCOMPARE(j["breakdown"]["dp_exposed_s"].get<double>(), 0.0);
        QVERIFY(!std::signbit(j["breakdown"]["bubble_s"].get<double>()));
        QVERIFY(j.dump().find("e-16") == std::string::npos);
        QVERIFY(resultSummaryCsv(r).find("-1.8") == std::string::npos);
    }

    void splitLayersDoesNotOverflow()
    {
        TransformerSpec m;
        m.layers = INT_MAX - 1; // 3 x 715,827,882: m.layers + n - 1 overflowed an int
        TrainingConfig c;
        c.pp = 3;
        const std::vector<int> split = splitLayers(m, c);
        QCOMPARE(split.size(), std::size_t(3));
        QCOMPARE(std::accumulate(split.begin(), split.end(), 0LL),
                 static_cast<long long>(m.layers));
        for (int s : split)
            QCOMPARE(s, 715827882);
    }
};

QTEST_GUILESS_MAIN(TestFileLimits)
#include "tst_filelimits.moc"
