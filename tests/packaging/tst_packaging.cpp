// Desktop integration and packaging (issue 7): the freedesktop validators accept the files,
// `cmake --install` lays them out under the standard prefixes, and CPack builds a .deb that
// holds them with dependencies computed from the shared libraries.
#include <QImage>
#include <QtTest>

namespace {

struct Run
{
    int exitCode = -1;
    QString output;
};

// 30 min: cpack of a Debug/asan build (large binaries with debug info) took over 5 min; the
// test's CTest TIMEOUT, scaled by the asan preset, is the limit that decides.
Run run(const QString &program, const QStringList &args, int timeoutMs = 30 * 60 * 1000)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    if (!p.waitForFinished(timeoutMs))
        return {-1, QStringLiteral("timed out or failed to start: ") + p.errorString()};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromLocal8Bit(p.readAll())};
}

const QString kAppId = QStringLiteral("org.weft.Weft");
const QString kPackaging = QStringLiteral(WEFT_PACKAGING_DIR);

} // namespace

class TestPackaging : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_prefix.isValid());
        const Run r = run(QStringLiteral("cmake"),
                          {QStringLiteral("--install"), QStringLiteral(WEFT_BINARY_DIR),
                           QStringLiteral("--prefix"), m_prefix.path()});
        QVERIFY2(r.exitCode == 0, qPrintable(r.output));
    }

    void installedLayout_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("gui") << QStringLiteral("bin/weft");
        QTest::newRow("cli") << QStringLiteral("bin/weft-cli");
        QTest::newRow("desktop") << QStringLiteral("share/applications/") + kAppId
                + QStringLiteral(".desktop");
        QTest::newRow("metainfo") << QStringLiteral("share/metainfo/") + kAppId
                + QStringLiteral(".metainfo.xml");
        QTest::newRow("mime") << QStringLiteral("share/mime/packages/") + kAppId
                + QStringLiteral(".xml");
        QTest::newRow("svg") << QStringLiteral("share/icons/hicolor/scalable/apps/") + kAppId
                + QStringLiteral(".svg");
        QTest::newRow("png48") << QStringLiteral("share/icons/hicolor/48x48/apps/") + kAppId
                + QStringLiteral(".png");
        QTest::newRow("png128") << QStringLiteral("share/icons/hicolor/128x128/apps/") + kAppId
                + QStringLiteral(".png");
        QTest::newRow("png256") << QStringLiteral("share/icons/hicolor/256x256/apps/") + kAppId
                + QStringLiteral(".png");
        QTest::newRow("mime icon") << QStringLiteral(
            "share/icons/hicolor/scalable/mimetypes/application-x-weft-design.svg");
        QTest::newRow("mime png") << QStringLiteral(
            "share/icons/hicolor/48x48/mimetypes/application-x-weft-design.png");
        QTest::newRow("licence") << QStringLiteral("share/doc/weft/copyright");
    }
    void installedLayout()
    {
        QFETCH(QString, path);
        QVERIFY2(QFileInfo::exists(m_prefix.filePath(path)), qPrintable(path));
    }

    void pngSizesMatchTheirFolder()
    {
        for (int size : {48, 128, 256}) {
            QImage img(QStringLiteral("%1/icons/%2/%3.png").arg(kPackaging).arg(size).arg(kAppId));
            QCOMPARE(img.size(), QSize(size, size));
        }
    }

    void desktopFileValidates()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("desktop-file-validate")).isEmpty())
            QSKIP("desktop-file-validate is not installed");
        const Run r = run(QStringLiteral("desktop-file-validate"),
                          {m_prefix.filePath(QStringLiteral("share/applications/") + kAppId
                                             + QStringLiteral(".desktop"))});
        QVERIFY2(r.exitCode == 0, qPrintable(r.output));
        QVERIFY2(!r.output.contains(QLatin1String("error")), qPrintable(r.output));
    }

    void metainfoValidates()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("appstreamcli")).isEmpty())
            QSKIP("appstreamcli is not installed");
        const Run r = run(QStringLiteral("appstreamcli"),
                          {QStringLiteral("validate"), QStringLiteral("--no-net"),
                           m_prefix.filePath(QStringLiteral("share/metainfo/") + kAppId
                                             + QStringLiteral(".metainfo.xml"))});
        QVERIFY2(r.exitCode == 0, qPrintable(r.output));
    }

    void mimeTypeRegistersWeftFiles()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("update-mime-database")).isEmpty())
            QSKIP("update-mime-database is not installed");
        QTemporaryDir db;
        QDir().mkpath(db.filePath(QStringLiteral("packages")));
        QVERIFY(QFile::copy(m_prefix.filePath(QStringLiteral("share/mime/packages/") + kAppId
                                              + QStringLiteral(".xml")),
                            db.filePath(QStringLiteral("packages/weft.xml"))));
        const Run r = run(QStringLiteral("update-mime-database"), {db.path()});
        QVERIFY2(r.exitCode == 0, qPrintable(r.output));
        QFile globs(db.filePath(QStringLiteral("globs2")));
        QVERIFY(globs.open(QIODevice::ReadOnly));
        QVERIFY(globs.readAll().contains("application/x-weft-design:*.weft"));
        QFile subclasses(db.filePath(QStringLiteral("subclasses")));
        QVERIFY(subclasses.open(QIODevice::ReadOnly));
        QVERIFY(subclasses.readAll().contains("application/x-weft-design application/json"));
    }

    void debPackageBuilds()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("dpkg-deb")).isEmpty()
            || QStandardPaths::findExecutable(QStringLiteral("dpkg-shlibdeps")).isEmpty())
            QSKIP("dpkg-dev is not installed");
        QTemporaryDir out;
        const Run r
            = run(QStringLiteral("cpack"),
                  {QStringLiteral("--config"), QStringLiteral(WEFT_BINARY_DIR "/CPackConfig.cmake"),
                   QStringLiteral("-B"), out.path()});
        QVERIFY2(r.exitCode == 0, qPrintable(r.output));
        const QStringList debs = QDir(out.path()).entryList({QStringLiteral("*.deb")});
        QCOMPARE(debs.size(), 1);
        const QString deb = out.filePath(debs.first());
        const Run contents = run(QStringLiteral("dpkg-deb"), {QStringLiteral("-c"), deb});
        QCOMPARE(contents.exitCode, 0);
        for (const QString &f :
             {QStringLiteral("./usr/bin/weft"), QStringLiteral("./usr/bin/weft-cli"),
              QStringLiteral("./usr/share/applications/org.weft.Weft.desktop"),
              QStringLiteral("./usr/share/metainfo/org.weft.Weft.metainfo.xml"),
              QStringLiteral("./usr/share/mime/packages/org.weft.Weft.xml"),
              QStringLiteral("./usr/share/icons/hicolor/scalable/apps/org.weft.Weft.svg")})
            QVERIFY2(contents.output.contains(f), qPrintable(f));
        const Run depends = run(QStringLiteral("dpkg-deb"),
                                {QStringLiteral("-f"), deb, QStringLiteral("Depends")});
        QCOMPARE(depends.exitCode, 0);
        // shlibdeps found the Qt 6 libraries the binaries link.
        QVERIFY2(depends.output.contains(QLatin1String("libqt6widgets6")),
                 qPrintable(depends.output));
        QVERIFY2(depends.output.contains(QLatin1String("libc6")), qPrintable(depends.output));
    }

private:
    QTemporaryDir m_prefix;
};

QTEST_GUILESS_MAIN(TestPackaging)
#include "tst_packaging.moc"
