// The fused-attention kernel model (KernelModel::attention) against its law and its data: a
// query tile's fixed work costs the kernel `overhead` key blocks' worth of time, so a kernel whose
// tiles visit k blocks runs at k / (k + overhead) of its long-sequence fraction; and the catalog's
// Hopper, Blackwell and Blackwell Ultra fractions reproduce NVIDIA's published cuDNN training SDPA
// benchmark (tests/data/validation/cudnn_sdpa_*.csv, see its README) row by row, and its unfitted
// DeepSeek-V3 MLA rows within their stated residual.
// clang-format off
#include <QtTest> // first: moc cannot parse <compare> on its own
// clang-format on

#include "io/catalogfile.h"
#include "workload/kernels.h"

#include <QFile>
#include <cmath>
#include <vector>

using namespace weft;

namespace {

AcceleratorSpec part(double overheadFwd, double overheadBwd)
{
    AcceleratorSpec a;
    a.key = "test";
    a.peakFlopsBf16 = 1000e12;
    a.matmulEfficiency = 0.8;
    a.hbmBandwidth = 30e12; // the kernels below stay compute-bound
    a.memoryEfficiency = 0.8;
    a.attentionFused = {0.7, 0.6, 0, overheadFwd, overheadBwd};
    return a;
}

// One row of the benchmark: a forward or backward kernel and its measured time.
struct SdpaRow
{
    bool causal = false;
    bool backward = false;
    double batch = 0, seq = 0, qHeads = 0;
    double headDim = 0; ///< the mean of the query-key and the value head dimensions
    double seconds = 0;
};

// The BF16 cuDNN rows of `file` with the non-deterministic backward (what Transformer Engine runs
// unless NVTE_ALLOW_NONDETERMINISTIC_ALGO=0). Both layouts of the benchmark's CSV: one pass per
// row (`time_ms`) or both passes per row (`fwd_time_ms`, `bwd_time_ms`).
std::vector<SdpaRow> readSdpa(const QString &file)
{
    std::vector<SdpaRow> rows;
    QFile f(QStringLiteral(WEFT_TEST_DATA_DIR "/validation/") + file);
    if (!f.open(QIODevice::ReadOnly))
        return rows;
    const QStringList header = QString::fromUtf8(f.readLine()).trimmed().split(u',');
    while (!f.atEnd()) {
        const QStringList v = QString::fromUtf8(f.readLine()).trimmed().split(u',');
        auto col = [&](const char *name) { return v.value(header.indexOf(QLatin1String(name))); };
        if (col("backend") != QLatin1String("cudnn")
            || col("data_type") != QLatin1String("bfloat16")
            || col("success") != QLatin1String("True")
            || col("deterministic_bwd") == QLatin1String("True"))
            continue;
        SdpaRow r;
        r.causal = col("attn_mask") == QLatin1String("top_left");
        r.batch = col("batch_size").toDouble();
        r.seq = col("q_seqlen").toDouble();
        r.qHeads = col("num_q_heads").toDouble();
        r.headDim = (col("head_dim_qk").toDouble() + col("head_dim_vo").toDouble()) / 2;
        const QString pass = col("profile_pass");
        if (pass == QLatin1String("both")) {
            r.seconds = col("fwd_time_ms").toDouble() / 1e3;
            rows.push_back(r);
            r.backward = true;
            r.seconds = col("bwd_time_ms").toDouble() / 1e3;
            rows.push_back(r);
        } else {
            r.backward = pass == QLatin1String("bwd");
            r.seconds = col("time_ms").toDouble() / 1e3;
            rows.push_back(r);
        }
    }
    return rows;
}

} // namespace

class TestAttentionKernels : public QObject
{
    Q_OBJECT

private slots:
    // Key blocks of 128 per query tile: a whole sequence's blocks unmasked, (n + 1) / 2 on
    // average causal, split over the kernels of ring context parallelism, at least one.
    void blocksPerQueryTile()
    {
        QCOMPARE(KernelModel::blocksPerQueryTile(4096, 4096, false), 32.0);
        QCOMPARE(KernelModel::blocksPerQueryTile(4096, 4096, true), 16.5);
        QCOMPARE(KernelModel::blocksPerQueryTile(4096, 256, false), 2.0); // a 128-token window
        QCOMPARE(KernelModel::blocksPerQueryTile(32768, 32768, true, 8), 257.0 / 2 / 8);
        QCOMPARE(KernelModel::blocksPerQueryTile(100, 100, true, 8), 1.0);
        QCOMPARE(KernelModel::blocksPerQueryTile(0, 100, false), 0.0);
    }

    // The time grows by (k + overhead) / k over the kernel without tile overhead, forward and
    // backward with their own overheads; no overhead leaves the flat fraction (the old model).
    void tileOverheadLaw()
    {
        const AcceleratorSpec flat = part(0, 0), tiled = part(3, 5);
        const KernelModel a(flat), b(tiled);
        for (const bool causal : {false, true})
            for (const double s : {1024.0, 4096.0, 32768.0}) {
                const double k = KernelModel::blocksPerQueryTile(s, s, causal);
                const double f0 = a.attention(64, s, s, 128, causal, false, flat.attentionFused);
                const double f1 = b.attention(64, s, s, 128, causal, false, tiled.attentionFused);
                const double b0 = a.attention(64, s, s, 128, causal, true, flat.attentionFused);
                const double b1 = b.attention(64, s, s, 128, causal, true, tiled.attentionFused);
                QVERIFY(std::abs(f1 / f0 - (k + 3) / k) < 1e-9);
                QVERIFY(std::abs(b1 / b0 - (k + 5) / k) < 1e-9);
            }
        // A narrow sliding window (2 blocks per tile) pays the overhead on every tile: 2.5x the
        // flat time forward, while a 32k-token causal kernel loses under 2%.
        const double w0 = a.attention(64, 4096, 256, 64, false, false, flat.attentionFused);
        const double w1 = b.attention(64, 4096, 256, 64, false, false, tiled.attentionFused);
        QVERIFY(std::abs(w1 / w0 - 2.5) < 1e-9);
        // Ring context parallelism: 8 kernels of an eighth of the keys each pay more overhead
        // than one kernel over all of them.
        const double one = b.attention(8, 32768, 32768, 128, true, true, tiled.attentionFused);
        const double ring = b.attention(8, 32768, 32768, 128, true, true, tiled.attentionFused, 8);
        QVERIFY(ring > one * 1.03);
        QVERIFY(KernelModel::tileEfficiency(10, 0) == 1);
    }

    // NVIDIA's cuDNN training SDPA benchmark, every BF16 row: the catalog entry's kernel time at
    // the benchmark's boost clock (one GPU alone: sustained clock 1) against each measured time.
    // The Llama 3.1 shape (head dimension 128, GQA 64/8, causal and unmasked, 2k-32k tokens,
    // forward and backward), which the catalog is fitted to: within 12% of every row, 6% rms.
    // DeepSeek-V3's MLA kernel (query-key head dimension 192, value 128; Weft runs it at their
    // mean, 160), not fitted: with the backward not lifted by the wider heads, Weft's kernel is
    // 3-24% faster than cuDNN's (fastest at 16k-32k unmasked backward, 8-10% at the training
    // rows' 4k): within 25% of every row, 15% rms, a residual left for a model of MLA's kernels.
    void cudnnBenchmark_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("accelerator");
        QTest::addColumn<double>("worst");
        QTest::addColumn<double>("rms");
        QTest::newRow("Llama 3.1, H200 cuDNN 9.19")
            << QStringLiteral("cudnn_sdpa_h200.csv") << "h200-sxm" << 0.12 << 0.06;
        QTest::newRow("Llama 3.1, GB200 cuDNN 9.22")
            << QStringLiteral("cudnn_sdpa_gb200.csv") << "gb200" << 0.12 << 0.06;
        QTest::newRow("Llama 3.1, GB300 cuDNN 9.22")
            << QStringLiteral("cudnn_sdpa_gb300.csv") << "gb300" << 0.12 << 0.06;
        QTest::newRow("DeepSeek-V3 MLA, GB200 cuDNN 9.22")
            << QStringLiteral("cudnn_sdpa_dsv3_gb200.csv") << "gb200" << 0.25 << 0.15;
        QTest::newRow("DeepSeek-V3 MLA, GB300 cuDNN 9.22")
            << QStringLiteral("cudnn_sdpa_dsv3_gb300.csv") << "gb300" << 0.25 << 0.15;
    }
    void cudnnBenchmark()
    {
        QFETCH(QString, file);
        QFETCH(QString, accelerator);
        QFETCH(double, worst);
        QFETCH(double, rms);
        const Fit fit = compare(file, accelerator);
        QVERIFY2(fit.rows >= 20, qPrintable(file + QStringLiteral(": rows missing")));
        QVERIFY2(fit.worst <= worst,
                 qPrintable(QStringLiteral("a row is off by %1%").arg(fit.worst * 100, 0, 'f', 1)));
        QVERIFY2(fit.rms <= rms,
                 qPrintable(QStringLiteral("%1% rms").arg(fit.rms * 100, 0, 'f', 1)));
    }

private:
    struct Fit
    {
        std::size_t rows = 0;
        double rms = 0, worst = 0;
    };
    // Weft's kernel time for every row of `file` on the catalog entry `accelerator` at the
    // benchmark's boost clock (one GPU alone: sustained clock 1); prints the table.
    static Fit compare(const QString &file, const QString &accelerator)
    {
        const std::vector<SdpaRow> rows = readSdpa(file);
        AcceleratorSpec acc = builtinCatalog().hardware.accelerators.at(accelerator.toStdString());
        acc.sustainedClock = 1;
        const KernelModel k(acc);
        Fit fit;
        double sumSq = 0;
        QString table;
        for (const SdpaRow &r : rows) {
            const double t = k.attention(r.batch * r.qHeads, r.seq, r.seq, r.headDim, r.causal,
                                         r.backward, acc.attentionFused);
            const double err = t / r.seconds - 1;
            sumSq += err * err;
            fit.worst = std::max(fit.worst, std::abs(err));
            table += QStringLiteral("%1 %2 %3k: measured %4 ms, Weft %5 ms (%6%)\n")
                         .arg(r.causal ? QStringLiteral("causal") : QStringLiteral("no mask"))
                         .arg(r.backward ? QStringLiteral("bwd") : QStringLiteral("fwd"))
                         .arg(r.seq / 1024)
                         .arg(r.seconds * 1e3, 0, 'f', 3)
                         .arg(t * 1e3, 0, 'f', 3)
                         .arg(err * 100, 0, 'f', 1);
        }
        fit.rows = rows.size();
        fit.rms = rows.empty() ? 0 : std::sqrt(sumSq / double(rows.size()));
        qInfo().noquote() << file
                          << QStringLiteral("rms %1%, worst %2%\n")
                                 .arg(fit.rms * 100, 0, 'f', 1)
                                 .arg(fit.worst * 100, 0, 'f', 1)
                          << table;
        return fit;
    }
};

QTEST_GUILESS_MAIN(TestAttentionKernels)
#include "tst_attentionkernels.moc"
