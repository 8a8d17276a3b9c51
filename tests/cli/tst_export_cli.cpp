// Tests of `weft-cli export` (issue 6): the canvas as PDF with real text and vector paths (not
// one bitmap), as self-contained SVG and as PNG at the asked DPI; ASTRA-sim configuration of a
// two-level design with the expected keys and values, and the refusal naming what it cannot
// express.
// clang-format off
#include <QtTest> // first: moc cannot parse <compare> on its own
// clang-format on

#include "clirunner.h"
#include "sweepdesigns.h"

#include <QDir>
#include <QImage>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <nlohmann/json.hpp>

using namespace weft;

namespace {

/// The decompressed content of every FlateDecode stream of a PDF, concatenated (qUncompress
/// wants zlib data behind a 4-byte big-endian size hint).
QByteArray pdfStreams(const QByteArray &pdf)
{
    QByteArray all;
    qsizetype pos = 0;
    while ((pos = pdf.indexOf("stream", pos)) >= 0) {
        if (pos >= 3 && pdf.mid(pos - 3, 3) == "end") {
            pos += 6;
            continue;
        }
        qsizetype start = pos + 6;
        if (pdf.mid(start, 2) == "\r\n")
            start += 2;
        else if (pdf.at(start) == '\n')
            start += 1;
        const qsizetype end = pdf.indexOf("endstream", start);
        if (end < 0)
            break;
        const qsizetype dict = pdf.lastIndexOf(" obj", pos);
        if (!pdf.mid(dict, pos - dict).contains("/FlateDecode")) { // fonts, metadata
            pos = end + 9;
            continue;
        }
        const QByteArray data = pdf.mid(start, end - start);
        QByteArray withSize(4, '\0');
        const quint32 hint = quint32(std::max<qsizetype>(data.size() * 20, 1 << 16));
        withSize[0] = char(hint >> 24);
        withSize[1] = char(hint >> 16);
        withSize[2] = char(hint >> 8);
        withSize[3] = char(hint);
        const QByteArray inflated = qUncompress(withSize + data);
        all += inflated;
        all += '\n';
        pos = end + 9;
    }
    return all;
}

QString exportTo(const QTemporaryDir &tmp, const Design &d, const QString &format,
                 const QString &name, QStringList extra = {})
{
    const QString design = test::writeDesignFile(d, tmp.filePath(QStringLiteral("d.weft")));
    const QString out = tmp.filePath(name);
    const test::CliRun r
        = test::runWeftCli(QStringList {QStringLiteral("export"), design, QStringLiteral("--to"),
                                        format, QStringLiteral("--out"), out}
                           + extra);
    if (r.exitCode != 0)
        qWarning("%s", r.err.constData());
    return r.exitCode == 0 ? out : QString();
}

} // namespace

class TestExportCli : public QObject
{
    Q_OBJECT
private slots:
    void pdfHasTextAndVectorPaths()
    {
        QTemporaryDir tmp;
        const QString path = exportTo(tmp, test::sweepDesign(2, 8), QStringLiteral("pdf"),
                                      QStringLiteral("canvas.pdf"));
        QVERIFY(!path.isEmpty());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray pdf = f.readAll();
        QVERIFY(pdf.startsWith("%PDF-"));
        const QByteArray content = pdfStreams(pdf);
        // Text: begin/end text objects with show-text operators.
        QVERIFY(content.contains("BT"));
        QVERIFY(content.contains("ET"));
        QVERIFY(QRegularExpression(QStringLiteral("\\bT[jJ]\\b"))
                    .match(QString::fromLatin1(content))
                    .hasMatch());
        // Vector paths: many moveto/lineto/curveto and fill/stroke operators.
        const QString text = QString::fromLatin1(content);
        const qsizetype moves
            = text.count(QRegularExpression(QStringLiteral("[-0-9.]+ [-0-9.]+ m\\b")));
        const qsizetype lines
            = text.count(QRegularExpression(QStringLiteral("[-0-9.]+ [-0-9.]+ l\\b")));
        QVERIFY2(moves > 20 && lines > 20,
                 qPrintable(QStringLiteral("%1 m, %2 l").arg(moves).arg(lines)));
        QVERIFY(QRegularExpression(QStringLiteral("\\b(S|f|B|f\\*)\\n")).match(text).hasMatch());
        // Not one bitmap: no image XObject carries the picture.
        QVERIFY(!QRegularExpression(QStringLiteral("/Subtype\\s*/Image"))
                     .match(QString::fromLatin1(pdf))
                     .hasMatch());
    }

    void svgIsSelfContained()
    {
        QTemporaryDir tmp;
        const QString path = exportTo(tmp, test::sweepDesign(2, 8), QStringLiteral("svg"),
                                      QStringLiteral("canvas.svg"));
        QVERIFY(!path.isEmpty());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString svg = QString::fromUtf8(f.readAll());
        QVERIFY(svg.contains(QStringLiteral("<svg")));
        QVERIFY(svg.contains(QStringLiteral("<path")) || svg.contains(QStringLiteral("<polyline")));
        QVERIFY(svg.contains(QStringLiteral("<text"))); // labels stay text
        // No external references: every href is a fragment or an embedded data URI.
        const QRegularExpression href(QStringLiteral("href\\s*=\\s*\"([^\"]*)\""));
        for (auto it = href.globalMatch(svg); it.hasNext();) {
            const QString target = it.next().captured(1);
            QVERIFY2(target.startsWith(u'#') || target.startsWith(QStringLiteral("data:")),
                     qPrintable(target));
        }
        QVERIFY(!svg.contains(QStringLiteral("http://"), Qt::CaseInsensitive)
                || !svg.contains(QStringLiteral("href=\"http")));
        QVERIFY(!svg.contains(QStringLiteral("file:")));
    }

    void pngAtTheAskedResolution()
    {
        QTemporaryDir tmp;
        const QString p96
            = exportTo(tmp, test::sweepDesign(2, 8), QStringLiteral("png"),
                       QStringLiteral("c96.png"), {QStringLiteral("--dpi"), QStringLiteral("96")});
        const QString p192 = exportTo(tmp, test::sweepDesign(2, 8), QStringLiteral("png"),
                                      QStringLiteral("c192.png"));
        const QImage a(p96), b(p192);
        QVERIFY(!a.isNull() && !b.isNull());
        QVERIFY(std::abs(b.width() - 2 * a.width()) <= 2);
        QCOMPARE(qRound(b.dotsPerMeterX() * 0.0254), 192);
        // Same picture at both resolutions: labels keep their size relative to the boxes
        // (fonts must not grow with the DPI), measured as the share of dark (text) pixels.
        auto darkShare = [](const QImage &img) {
            qsizetype dark = 0;
            for (int y = 0; y < img.height(); ++y)
                for (int x = 0; x < img.width(); ++x)
                    dark += qGray(img.pixel(x, y)) < 100 ? 1 : 0;
            return double(dark) / (double(img.width()) * img.height());
        };
        const double ratio
            = darkShare(b.scaled(a.size(), Qt::IgnoreAspectRatio, Qt::SmoothTransformation))
            / darkShare(a);
        QVERIFY2(ratio > 0.6 && ratio < 1.6, qPrintable(QString::number(ratio)));
        // Not blank: more than a handful of colours.
        QSet<QRgb> colours;
        for (int y = 0; y < b.height(); y += 7)
            for (int x = 0; x < b.width(); x += 7)
                colours.insert(b.pixel(x, y));
        QVERIFY(colours.size() > 5);
    }

    void astraSimTwoLevel()
    {
        QTemporaryDir tmp;
        const QString dir = exportTo(tmp, test::sweepDesign(4, 8), QStringLiteral("astra-sim"),
                                     QStringLiteral("astra"));
        QVERIFY(!dir.isEmpty());
        QFile yml(QDir(dir).filePath(QStringLiteral("network.yml")));
        QVERIFY(yml.open(QIODevice::ReadOnly));
        const QString net = QString::fromUtf8(yml.readAll());
        QVERIFY2(net.contains(QStringLiteral("topology: [ Switch, Switch ]")), qPrintable(net));
        QVERIFY2(net.contains(QStringLiteral("npus_count: [ 8, 4 ]")), qPrintable(net));
        // DGX H100: 18 NVLink4 lanes x 25 GB/s = 450 GB/s per GPU; one 400 Gb/s NIC = 50 GB/s.
        QVERIFY2(net.contains(QStringLiteral("bandwidth: [ 450, 50 ]")), qPrintable(net));
        QVERIFY(net.contains(QStringLiteral("latency:")));
        QFile sys(QDir(dir).filePath(QStringLiteral("system.json")));
        QVERIFY(sys.open(QIODevice::ReadOnly));
        const auto j = nlohmann::json::parse(sys.readAll().toStdString());
        QVERIFY(j.contains("all-reduce-implementation"));
        QCOMPARE(j["all-reduce-implementation"].size(), std::size_t(2));
    }

    void astraSimRefusesOversubscription()
    {
        QTemporaryDir tmp;
        const QString design = test::writeDesignFile(test::sweepDesign(4, 8, 2.0),
                                                     tmp.filePath(QStringLiteral("o.weft")));
        const test::CliRun r = test::runWeftCli(
            {QStringLiteral("export"), design, QStringLiteral("--to"), QStringLiteral("astra-sim"),
             QStringLiteral("--out"), tmp.filePath(QStringLiteral("a"))});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("cannot express"), r.err.constData());
        QVERIFY2(r.err.contains("oversubscri") || r.err.contains("blocking"), r.err.constData());
        QVERIFY(!QFile::exists(tmp.filePath(QStringLiteral("a/network.yml"))));
    }

    void unknownFormat()
    {
        QTemporaryDir tmp;
        const QString design = test::writeDesignFile(test::sweepDesign(1, 8),
                                                     tmp.filePath(QStringLiteral("d.weft")));
        const test::CliRun r = test::runWeftCli(
            {QStringLiteral("export"), design, QStringLiteral("--to"), QStringLiteral("gif"),
             QStringLiteral("--out"), tmp.filePath(QStringLiteral("x"))});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("gif"));
    }
};

QTEST_GUILESS_MAIN(TestExportCli)
#include "tst_export_cli.moc"
