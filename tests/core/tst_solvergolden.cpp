// The faster progressive filling (lazy re-keying of the saturation heap; only the critical
// entries of each class read when no loads are kept, flowsolver.h) gives the step times the
// solver gave before it (issue 16, planner speed): candidates on generated 128- and 512-GPU
// clusters whose DP, CP and TP rings cross leaves, spines and cores (some oversubscribed),
// simulated as the planner does (no link statistics) and in full, equal to the figures recorded
// with main at 3812b12 to 1e-9 relative (they were bit-identical when recorded).
//
// Recording program (link it against the core library of the solver to record):
//   #include "solvergolden.h"
//   for (const auto &g : weft::test::goldenCases())
//       std::printf("%s %.17g %.17g\n", g.name, goldenStep(g, true), goldenStep(g, false));
#include "solvergolden.h"

#include <QtTest>
#include <cmath>

using namespace weft;

class TestSolverGolden : public QObject
{
    Q_OBJECT
private slots:
    void sameStepsAsBefore_data()
    {
        QTest::addColumn<int>("index");
        QTest::addColumn<bool>("planner");
        const auto cases = test::goldenCases();
        for (int i = 0; i < static_cast<int>(cases.size()); ++i) {
            const std::string name = cases[static_cast<std::size_t>(i)].name;
            QTest::newRow((name + ", planner").c_str()) << i << true;
            QTest::newRow((name + ", full").c_str()) << i << false;
        }
    }
    void sameStepsAsBefore()
    {
        QFETCH(int, index);
        QFETCH(bool, planner);
        const test::GoldenCase g = test::goldenCases()[static_cast<std::size_t>(index)];
        const double step = test::goldenStep(g, planner);
        QVERIFY2(std::abs(step - g.step) <= 1e-9 * g.step,
                 qPrintable(QStringLiteral("%1 s, recorded %2 s")
                                .arg(step, 0, 'g', 17)
                                .arg(g.step, 0, 'g', 17)));
    }
};

QTEST_GUILESS_MAIN(TestSolverGolden)
#include "tst_solvergolden.moc"
