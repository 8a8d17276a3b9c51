// Tests of the hardware catalog: the built-in files parse, hold the presets issue 2 requires,
// convert units correctly, and user catalog files are checked with JSON paths in errors.
#include "io/catalogfile.h"

#include <QtTest>
#include <cmath>

using namespace weft;

class TestCatalog : public QObject
{
    Q_OBJECT
private slots:
    void builtinHasRequiredEntries_data()
    {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<int>("gpus");
        QTest::addColumn<int>("switches");
        QTest::addColumn<double>("nicGbps");
        QTest::newRow("dgx-a100") << "dgx-a100" << 8 << 6 << 200.0;
        QTest::newRow("dgx-h100") << "dgx-h100" << 8 << 4 << 400.0;
        QTest::newRow("hgx-h200") << "hgx-h200" << 8 << 4 << 400.0;
        QTest::newRow("hgx-b200") << "hgx-b200" << 8 << 2 << 400.0;
        QTest::newRow("gb200-nvl72")
            << "gb200-nvl72" << 72 << 18
            << 400.0; // ConnectX-7 400G per GPU (800G ConnectX-8 is GB300 NVL72)
        QTest::newRow("mi300x-8") << "mi300x-8" << 8 << 0 << 400.0;
        QTest::newRow("hgx-h800") << "hgx-h800" << 8 << 4 << 400.0;
        QTest::newRow("hgx-b300") << "hgx-b300" << 8 << 2 << 800.0;
        QTest::newRow("gb300-nvl72") << "gb300-nvl72" << 72 << 18 << 800.0;
        QTest::newRow("grand-teton-h100") << "grand-teton-h100" << 8 << 4 << 400.0;
    }
    void builtinHasRequiredEntries()
    {
        QFETCH(QString, preset);
        QFETCH(int, gpus);
        QFETCH(int, switches);
        QFETCH(double, nicGbps);
        const Catalog &c = builtinCatalog();
        const auto it = c.scaleUpPresets.find(preset.toStdString());
        QVERIFY(it != c.scaleUpPresets.end());
        QCOMPARE(it->second.accelerators, gpus);
        QCOMPARE(it->second.scaleUpSwitches, switches);
        QCOMPARE(it->second.nicRate, nicGbps * 1e9 / 8);
        const std::string acc = it->second.accelerator;
        QVERIFY(c.hardware.accelerators.count(acc.substr(0, acc.find('@'))));
        QVERIFY(!it->second.source.empty());
    }
    void builtinSwitchesAndUnits()
    {
        const Catalog &c = builtinCatalog();
        for (const char *k : {"qm8700", "qm9700", "q3400", "sn5600", "tomahawk5", "nvswitch-gen3"})
            QVERIFY2(c.hardware.switches.count(k), k);
        const SwitchSpec &qm = c.hardware.switches.at("qm9700");
        QCOMPARE(qm.radix, 64);
        QCOMPARE(qm.portRate, 50e9); // 400 Gb/s = 50 GB/s
        QCOMPARE(c.hardware.switches.at("q3400").radix, 144);
        const AcceleratorSpec &h100 = c.hardware.accelerators.at("h100-sxm");
        QCOMPARE(h100.peakFlopsBf16, 989.4e12);
        QCOMPARE(h100.hbmBytes, 85.521e9); // nvidia-smi total 81,559 MiB
        QCOMPARE(h100.sms, 132);
        QCOMPARE(h100.peakFlops(DataType::FP4), h100.peakFlopsFp8); // no FP4 on Hopper
        QCOMPARE(c.hardware.accelerators.at("b200").peakFlops(DataType::FP4), 9000e12);
        QCOMPARE(c.hardware.accelerators.at("h800-sxm").scaleUpBandwidth, 200e9);
        QCOMPARE(c.hardware.linkTechs.at("ib-ndr").latency, 5e-6);
        for (const auto &[k, s] : c.hardware.accelerators)
            QVERIFY2(!s.source.empty(), k.c_str());
        for (const auto &[k, s] : c.hardware.linkTechs)
            QVERIFY2(s.efficiency > 0 && s.efficiency <= 1 && !s.source.empty(), k.c_str());
    }
    // "h100-sxm@500w,96gb": the power variant scales the peaks by its clock, the memory variant
    // sets capacity and bandwidth; an unknown suffix is an error naming the known ones.
    void acceleratorVariants()
    {
        const AcceleratorSpec &h100 = builtinCatalog().hardware.accelerators.at("h100-sxm");
        AcceleratorSpec v;
        std::string error;
        QVERIFY(applyVariants(h100, "h100-sxm@500w,96gb", v, error));
        QCOMPARE(v.key, std::string("h100-sxm@500w,96gb"));
        QCOMPARE(v.powerW, 500.0);
        QVERIFY(std::abs(v.peakFlopsBf16 - 0.87 * h100.peakFlopsBf16) < 1e6);
        QVERIFY(std::abs(v.peakFlopsFp8 - 0.87 * h100.peakFlopsFp8) < 1e6);
        QCOMPARE(v.hbmBytes, 100.93e9);
        QCOMPARE(v.hbmBandwidth, 2410e9);
        QVERIFY(v.variants.empty());
        QVERIFY(!applyVariants(h100, "h100-sxm@400w", v, error));
        QVERIFY2(error.find("500w") != std::string::npos, error.c_str());
        QVERIFY(applyVariants(h100, "h100-sxm", v, error));
        QCOMPARE(v, h100);
    }
    // Blackwell Ultra doubles the exponential unit's throughput: cuDNN 9.22's SDPA benchmark
    // measures its fused attention ~14% faster forward and ~13% faster backward than GB200's at
    // long sequences (the catalog's fits, tst_attentionkernels); every GEMM fraction stays
    // B200's. Every fitted generation has per-query-tile overheads.
    void blackwellUltraAttention()
    {
        const auto &acc = builtinCatalog().hardware.accelerators;
        const AcceleratorSpec &b200 = acc.at("b200");
        for (const char *key : {"b300", "gb300"}) {
            const AcceleratorSpec &ultra = acc.at(key);
            QCOMPARE(ultra.attentionFused.forward, 0.808);
            QCOMPARE(ultra.attentionFused.backward, 0.63);
            QVERIFY(std::abs(ultra.attentionFused.forward / b200.attentionFused.forward - 1.14)
                    < 0.01);
            QVERIFY(std::abs(ultra.attentionFused.backward / b200.attentionFused.backward - 1.13)
                    < 0.01);
            QCOMPARE(ultra.matmulEfficiency, b200.matmulEfficiency);
        }
        for (const char *key :
             {"h100-sxm", "h800-sxm", "h200-sxm", "b200", "gb200", "b300", "gb300"}) {
            const AttentionEfficiency &e = acc.at(key).attentionFused;
            QVERIFY2(e.forwardTileOverhead > 0 && e.backwardTileOverhead > 0, key);
        }
    }
    void userCatalogExtendsBuiltin()
    {
        const char *text = R"({"format":"weft.catalog","version":1,
            "accelerators":[{"key":"my-gpu","peak_bf16_tflops":500,"hbm_gb":96,
                             "hbm_bandwidth_gb_per_s":4000}],
            "scale_up_presets":[{"key":"my-box","accelerator":"my-gpu","accelerators":4,
                                 "scale_up_tech":"nvlink4","lanes_per_accelerator":6}]})";
        auto r = parseCatalog(text, "mine.json", builtinCatalog());
        QVERIFY(std::holds_alternative<Catalog>(r));
        Catalog merged = builtinCatalog();
        merged.merge(std::get<Catalog>(r));
        QCOMPARE(merged.scaleUpPresets.at("my-box").accelerators, 4);
        QCOMPARE(merged.hardware.accelerators.at("my-gpu").peakFlopsBf16, 500e12);
    }
    void serializeRoundTrips()
    {
        // The built-in catalog written and read back: same entries, same bytes on a second save.
        const std::string text = serializeCatalog(builtinCatalog());
        auto r = parseCatalog(text, "round-trip.json");
        QVERIFY2(std::holds_alternative<Catalog>(r),
                 std::holds_alternative<FileError>(r) ? std::get<FileError>(r).toString().c_str()
                                                      : "");
        const Catalog &back = std::get<Catalog>(r);
        const Catalog &orig = builtinCatalog();
        QCOMPARE(back.hardware.accelerators.size(), orig.hardware.accelerators.size());
        QCOMPARE(back.hardware.switches.size(), orig.hardware.switches.size());
        QCOMPARE(back.hardware.linkTechs.size(), orig.hardware.linkTechs.size());
        QCOMPARE(back.scaleUpPresets.size(), orig.scaleUpPresets.size());
        const AcceleratorSpec &h100 = back.hardware.accelerators.at("h100-sxm");
        QCOMPARE(h100.peakFlopsFp8, orig.hardware.accelerators.at("h100-sxm").peakFlopsFp8);
        QCOMPARE(h100.hbmBandwidth, orig.hardware.accelerators.at("h100-sxm").hbmBandwidth);
        // The sustained clock (MSMF / MAMF) round-trips; Blackwell's differs from Hopper's.
        QCOMPARE(h100.sustainedClock, 0.848);
        QCOMPARE(back.hardware.accelerators.at("b200").sustainedClock, 0.815);
        QCOMPARE(back.hardware.accelerators.at("mi300x").sustainedClock, 1.0); // not measured
        // Grace hosts launch kernels 2.75x slower than a DGX H100's Xeon (TE issue 2053).
        QCOMPARE(back.hardware.accelerators.at("gb200").hostLaunchFactor, 2.75);
        QCOMPARE(back.hardware.accelerators.at("gb300").hostLaunchFactor, 2.75);
        QCOMPARE(h100.hostLaunchFactor, 1.0);
        const SwitchSpec &qm = back.hardware.switches.at("qm9700");
        QCOMPARE(qm.portRate, orig.hardware.switches.at("qm9700").portRate);
        QCOMPARE(qm.inNetworkReduction, true);
        // GB200 NVL72 is 18 compute trays of 4 GPUs; DGX H100 one server of 8.
        QCOMPARE(back.scaleUpPresets.at("gb200-nvl72").trayAccelerators(), 4);
        QCOMPARE(back.scaleUpPresets.at("gb300-nvl72").trayAccelerators(), 4);
        QCOMPARE(back.scaleUpPresets.at("dgx-h100").trayAccelerators(), 8);
        QCOMPARE(serializeCatalog(back), text);
    }
    void badCatalogNamesPath_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("fragment");
        QTest::newRow("not json") << "{\"format\": "
                                  << ""
                                  << "not valid JSON";
        QTest::newRow("wrong format") << R"({"format":"x","version":1})"
                                      << "/format"
                                      << "not a Weft catalog";
        QTest::newRow("newer") << R"({"format":"weft.catalog","version":7})"
                               << "/version"
                               << "newer";
        QTest::newRow("negative")
            << R"({"format":"weft.catalog","version":1,"switches":[{"key":"s","technology":"ethernet","radix":8,"port_gbps":-1}]})"
            << "/switches/0/port_gbps"
            << "greater than 0";
        QTest::newRow("bad tech")
            << R"({"format":"weft.catalog","version":1,"link_technologies":[{"key":"l","technology":"carrier-pigeon","lane_gbps":1}]})"
            << "/link_technologies/0/technology"
            << "unknown technology";
        QTest::newRow("dangling preset")
            << R"({"format":"weft.catalog","version":1,"scale_up_presets":[{"key":"p","accelerator":"nope","accelerators":2,"scale_up_tech":"nvlink4","lanes_per_accelerator":1}]})"
            << "/scale_up_presets/0/accelerator"
            << "unknown accelerator";
        QTest::newRow("trays that do not divide")
            << R"({"format":"weft.catalog","version":1,"scale_up_presets":[{"key":"p","accelerator":"h100-sxm","accelerators":8,"accelerators_per_tray":3,"scale_up_tech":"nvlink4","lanes_per_accelerator":1}]})"
            << "/scale_up_presets/0/accelerators_per_tray"
            << "must divide the domain's accelerators (8)";
        QTest::newRow("duplicate")
            << R"({"format":"weft.catalog","version":1,"link_technologies":[{"key":"l","technology":"pcie","lane_gbps":1},{"key":"l","technology":"pcie","lane_gbps":2}]})"
            << "/link_technologies/1/key"
            << "duplicate";
    }
    void badCatalogNamesPath()
    {
        QFETCH(QString, text);
        QFETCH(QString, path);
        QFETCH(QString, fragment);
        auto r = parseCatalog(text.toStdString(), "user.json", builtinCatalog());
        QVERIFY(std::holds_alternative<FileError>(r));
        const FileError &e = std::get<FileError>(r);
        QCOMPARE(QString::fromStdString(e.file), QStringLiteral("user.json"));
        QCOMPARE(QString::fromStdString(e.jsonPath), path);
        QVERIFY2(QString::fromStdString(e.message).contains(fragment), e.message.c_str());
    }
    void missingFileIsAnError()
    {
        auto r = loadCatalogFile("/nonexistent/dir/catalog.json");
        QVERIFY(std::holds_alternative<FileError>(r));
    }
};

QTEST_GUILESS_MAIN(TestCatalog)
#include "tst_catalog.moc"
