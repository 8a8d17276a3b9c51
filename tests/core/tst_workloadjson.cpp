// Tests of the workload codec and its place in the design file: round trip, presets with
// overrides, errors naming the JSON path.
// clang-format off
#include <QtTest> // first: moc cannot parse <compare> on its own
// clang-format on

#include "io/designfile.h"
#include "io/workloadjson.h"

using namespace weft;

class TestWorkloadJson : public QObject
{
    Q_OBJECT
private slots:
    void designFileRoundTrip()
    {
        Design d;
        d.name = "w";
        Workload w;
        w.model = *modelPreset("mixtral-8x7b");
        w.config.tp = 2;
        w.config.ep = 4;
        w.config.dp = 8;
        w.config.vpp = 2;
        w.config.schedule = PipelineSchedule::Interleaved;
        w.config.recompute = Recompute::Selective;
        w.config.dtype = DataType::FP8;
        w.config.overlapTp = true;
        w.config.routerFusion = false;
        w.config.wgradAccumulationFusion = false;
        w.config.stageLayers = {16, 16};
        w.config.cudaGraphs = CudaGraphScope::FullIteration;
        w.placement.order = "tp-ep-dp-pp";
        d.workload = w;
        const std::string text = serializeDesign(d);
        const ParseResult p = parseDesign(text, "mem");
        QVERIFY2(p.ok(), p.error.toString().c_str());
        QVERIFY(p.design->workload);
        const Workload &r = *p.design->workload;
        QCOMPARE(r.model.experts, 8);
        QCOMPARE(r.model.topK, 2);
        QCOMPARE(r.config.ep, 4);
        QCOMPARE(r.config.schedule, PipelineSchedule::Interleaved);
        QCOMPARE(r.config.recompute, Recompute::Selective);
        QCOMPARE(r.config.dtype, DataType::FP8);
        QVERIFY(r.config.overlapTp);
        QVERIFY(!r.config.routerFusion);
        QVERIFY(!r.config.wgradAccumulationFusion);
        QCOMPARE(r.config.stageLayers, w.config.stageLayers);
        QCOMPARE(r.config.cudaGraphs, CudaGraphScope::FullIteration);
        QCOMPARE(r.config.tpOverlapKind, TpOverlapKind::Userbuffers);
        QVERIFY(text.find("tp_kind") == std::string::npos); // the default is not written
        QCOMPARE(r.placement.order, w.placement.order);
        QCOMPARE(serializeDesign(*p.design), text);
        d.workload->config.tpOverlapKind = TpOverlapKind::AsyncTp;
        const ParseResult async = parseDesign(serializeDesign(d), "mem");
        QVERIFY(async.ok());
        QCOMPARE(async.design->workload->config.tpOverlapKind, TpOverlapKind::AsyncTp);
        Design none;
        QVERIFY(parseDesign(serializeDesign(none), "x").design->workload == std::nullopt);
    }
    // GPT-OSS's clamped GLU, biases, attention sinks and YaRN attention factor and Qwen3's
    // query/key norms survive the design file; a model without them writes no keys for them.
    void modelFeaturesRoundTrip()
    {
        Design d;
        Workload w;
        w.model = *modelPreset("gpt-oss-120b");
        w.config.ep = 8;
        w.config.dp = 8;
        d.workload = w;
        const ParseResult p = parseDesign(serializeDesign(d), "mem");
        QVERIFY2(p.ok(), p.error.toString().c_str());
        const TransformerSpec &m = p.design->workload->model;
        QCOMPARE(m.activationClamp, 7.0);
        QVERIFY(m.linearBias);
        QVERIFY(m.attentionSinks);
        QCOMPARE(m.slidingWindow, 128);
        QCOMPARE(m.ropeAttentionFactor, modelPreset("gpt-oss-120b")->ropeAttentionFactor);
        d.workload->model = *modelPreset("qwen3-30b-a3b"); // per-head query/key norms
        const ParseResult q = parseDesign(serializeDesign(d), "mem");
        QVERIFY2(q.ok(), q.error.toString().c_str());
        QVERIFY(q.design->workload->model.qkNorm);
        d.workload->model = *modelPreset("llama3-8b");
        const std::string plain = serializeDesign(d);
        QVERIFY(plain.find("activation_clamp") == std::string::npos);
        QVERIFY(plain.find("linear_bias") == std::string::npos);
        QVERIFY(plain.find("rope_attention_factor") == std::string::npos);
        QVERIFY(plain.find("qk_norm") == std::string::npos);
    }
    void presetWithOverrides()
    {
        const auto j = nlohmann::json::parse(
            R"({"model": {"preset": "llama3-8b", "layers": 4, "seq_tokens": 2048},
                                                 "training": {"tp": 2, "global_batch_seqs": 64}})");
        const Workload w = workloadFromJson(JsonReader(j, ""));
        QCOMPARE(w.model.layers, 4);
        QCOMPARE(w.model.seq, 2048);
        QCOMPARE(w.model.hidden, 4096);
        QCOMPARE(w.model.kvHeads, 8);
        QCOMPARE(w.config.tp, 2);
        QCOMPARE(w.config.globalBatch, 64);
    }
    // "cuda_graphs" is a scope; files written before the full-iteration scope hold a boolean
    // (true: the layers' graphs).
    void cudaGraphScopeAndOldBooleans()
    {
        const auto read = [](const char *value) {
            const auto j = nlohmann::json::parse(
                std::string(R"({"model": {"preset": "llama3-8b"}, "training": {"cuda_graphs": )")
                + value + "}}");
            return workloadFromJson(JsonReader(j, "")).config.cudaGraphs;
        };
        QCOMPARE(read("true"), CudaGraphScope::Layers);
        QCOMPARE(read("false"), CudaGraphScope::None);
        QCOMPARE(read(R"("layers")"), CudaGraphScope::Layers);
        QCOMPARE(read(R"("full-iteration")"), CudaGraphScope::FullIteration);
        QCOMPARE(read(R"("none")"), CudaGraphScope::None);
        Workload w;
        w.model = *modelPreset("llama3-8b");
        w.config.cudaGraphs = CudaGraphScope::Layers;
        QCOMPARE(toJson(w)["training"]["cuda_graphs"].get<std::string>(), std::string("layers"));
    }
    void errorsNameThePath_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("path");
        QTest::newRow("preset") << R"({"model": {"preset": "gpt5"}})"
                                << "/model/preset";
        QTest::newRow("schedule")
            << R"({"model": {"preset": "llama3-8b"}, "training": {"schedule": "zigzag"}})"
            << "/training/schedule";
        QTest::newRow("tp") << R"({"model": {"preset": "llama3-8b"}, "training": {"tp": 0}})"
                            << "/training/tp";
        QTest::newRow("tp overlap kind")
            << R"({"model": {"preset": "llama3-8b"}, "training": {"overlap": {"tp_kind": "nccl"}}})"
            << "/training/overlap/tp_kind";
        QTest::newRow("missing") << R"({"model": {"hidden": 8}})"
                                 << "/model/layers";
        QTest::newRow("cuda graphs")
            << R"({"model": {"preset": "llama3-8b"}, "training": {"cuda_graphs": "all"}})"
            << "/training/cuda_graphs";
        QTest::newRow("clamp") << R"({"model": {"preset": "gpt-oss-120b", "activation_clamp": -1}})"
                               << "/model/activation_clamp";
    }
    void errorsNameThePath()
    {
        QFETCH(QString, json);
        QFETCH(QString, path);
        const auto j = nlohmann::json::parse(json.toStdString());
        try {
            (void)workloadFromJson(JsonReader(j, ""));
            QFAIL("accepted");
        } catch (const JsonFieldError &e) {
            QCOMPARE(QString::fromStdString(e.path()), path);
        }
    }
};

QTEST_GUILESS_MAIN(TestWorkloadJson)
#include "tst_workloadjson.moc"
