// The core of `weft-cli collective`: size and rank lists, nccl-tests bandwidth definitions.
#include "sim/collectivesweep.h"
#include "testcluster.h"

#include <QtTest>

using namespace weft;
using namespace weft::test;

class TestCollectiveSweep : public QObject
{
    Q_OBJECT
private slots:
    void sizes()
    {
        QCOMPARE(
            parseSizeList("8,1K,16M,8G,2KB"),
            (std::vector<double> {8, 1024, 16.0 * 1024 * 1024, 8.0 * 1024 * 1024 * 1024, 2048}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseSizeList("8Q"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseSizeList("-1"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseSizeList("1,,2"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseSizeList("abc"));
    }
    void ranks()
    {
        const Cluster c = makeCluster("dgx-h100", 2);
        QCOMPARE(parseRankList(c.design, "all").size(), std::size_t(16));
        const auto r = parseRankList(c.design, "0-2,9,d1.gpu7");
        QCOMPARE(r,
                 (std::vector<NodeId> {c.acc[0][0], c.acc[0][1], c.acc[0][2], c.acc[1][1],
                                       c.acc[1][7]}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseRankList(c.design, "16"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseRankList(c.design, "1,1"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseRankList(c.design, "nobody"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, parseRankList(c.design, "3-1"));
    }
    // busbw = algbw x 2(n-1)/n for all-reduce; algbw = S / t; larger messages amortise latency.
    void sweepDefinitions()
    {
        const Cluster c = makeCluster("dgx-h100", 1);
        const auto members = parseRankList(c.design, "all");
        const auto rows = sweepCollective(c.design, CollectiveKind::AllReduce, members,
                                          {1024, 1 << 30}, CollectiveAlgorithm::Ring);
        QCOMPARE(rows.size(), std::size_t(2));
        for (const auto &r : rows) {
            QCOMPARE(r.algbw, r.bytes / r.seconds);
            QCOMPARE(r.busbw, r.algbw * 1.75);
            QCOMPARE(QString::fromLatin1(toString(r.algorithm)), QStringLiteral("ring"));
        }
        QVERIFY(rows[1].busbw > 10 * rows[0].busbw);
        const double link = 450e9 * c.design.hardware.linkTechs.at("nvlink4").efficiency;
        QVERIFY(rows[1].busbw < link && rows[1].busbw > 0.95 * link);
    }
};

QTEST_GUILESS_MAIN(TestCollectiveSweep)
#include "tst_collectivesweep.moc"
