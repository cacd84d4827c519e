// core/ensure.h: every precondition a core header states is checked at the function's entry in the
// dev and asan builds (POSLAB_CHECK_PRECONDITIONS) and throws std::invalid_argument naming the
// function and the violated precondition. Each row calls one core function with one precondition
// violated. Registered with CTest only when the checks are compiled in (tests/CMakeLists.txt).
#include <QtTest>

#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>

#include "core/aggregate.h"
#include "core/attention.h"
#include "core/demonstrations.h"
#include "core/layers.h"
#include "core/mrope.h"
#include "core/precision.h"
#include "core/random.h"
#include "core/rope.h"
#include "core/rope_detail.h"
#include "core/scores.h"
#include "core/scores_kernel.h"
#include "core/shaw.h"
#include "core/transformer_xl.h"
#include "core/visionrope.h"
#include "core/xpos.h"

using namespace poslab;

using Call = std::function<void()>;
Q_DECLARE_METATYPE(Call)

namespace {

LayerPattern twoLayers() {
    LayerPattern p;
    p.layer_types = "full,sliding";
    p.rope_layers = {1, 1};
    p.window = 4;
    return p;
}

RopeParams rope8() {
    RopeParams r;
    r.head_dim = 8;
    return r;
}

}  // namespace

class TestEnsure : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void violatedPreconditionThrows_data() {
        QTest::addColumn<Call>("call");
        QTest::addColumn<QString>("message");   // the start of what(): function and precondition
        const double nan = std::numeric_limits<double>::quiet_NaN();

        QTest::addRow("diagonal-stats-empty") << Call([] { DiagonalStats({}, 0); })
                                              << "DiagonalStats: precondition violated: f non-empty";
        QTest::addRow("diagonal-stats-nan") << Call([nan] { DiagonalStats({1.0, nan}, 0); })
                                            << "DiagonalStats: precondition violated: f finite";
        QTest::addRow("block-no-queries") << Call([] { DiagonalStats({1.0, 2.0, 3.0}, 0).block(2, 2, 0, 1, false); })
                                          << "block: precondition violated: q0 < q1 and k0 < k1";
        QTest::addRow("block-distance-past-hi")
            << Call([] { DiagonalStats({1.0, 2.0, 3.0}, 0).block(5, 6, 0, 1, false); })
            << "block: precondition violated: every distance of the block's visible cells in [lo, hi]";
        QTest::addRow("block-value-distance-below-lo")
            << Call([] { DiagonalStats({1.0, 2.0, 3.0}, 0).blockValue(0, 1, 2, 3, false, Aggregate::Mean); })
            << "blockValue: precondition violated: every distance of the block's visible cells in [lo, hi]";
        QTest::addRow("visible-keys-query-5-length-5") << Call([] { visibleKeys(AttentionParams{}, true, 5, 5); })
                                                       << "visibleKeys: precondition violated: 0 <= i < length";
        QTest::addRow("visible-keys-chunk-0") << Call([] {
            AttentionParams a;
            a.chunk = 0;
            visibleKeys(a, true, 1, 4);
        }) << "visibleKeys: precondition violated: a.validate(): window and chunk >= 1";
        QTest::addRow("summarise-layers-bad-type") << Call([] {
            LayerPattern p = twoLayers();
            p.layer_types = "full,nonsense";
            summariseLayers(p, 8, {}, Precision::Double);
        }) << "summariseLayers: precondition violated: model.validate()";
        QTest::addRow("layer-params-layer-2-of-2") << Call([] { layerParams(twoLayers(), 2); })
                                                   << "layerParams: precondition violated: 0 <= layer < layerCount(p)";
        QTest::addRow("precision-scores-double") << Call([] { precisionScores(Precision::Double, Matrix::Ones(1, 2), Matrix::Ones(1, 2), 1.0); })
                                                 << "precisionScores: precondition violated: isHalfPrecision(p)";
        QTest::addRow("precision-scores-2-vs-3-channels")
            << Call([] { precisionScores(Precision::Float16, Matrix::Ones(1, 2), Matrix::Ones(1, 3), 1.0); })
            << "precisionScores: precondition violated: q.cols() == k.cols()";
        QTest::addRow("seeded-normal-rows-minus-1") << Call([] { seededNormal(-1, 2, 0); })
                                                    << "seededNormal: precondition violated: rows, cols >= 0";
        QTest::addRow("seeded-normal-rows-row-minus-1") << Call([] { seededNormalRows({0, -1}, 2, 0); })
                                                        << "seededNormalRows: precondition violated: every row index >= 0";
        QTest::addRow("rope-apply-7-channels") << Call([] {
            const RopeParams r = rope8();
            const RopeTables t = ropeTables(r, ropeFrequencies(r), Positions{0, 1});
            ropeApply(r, t, Matrix::Ones(2, 7));
        }) << "ropeApply: precondition violated: x.cols() == params.head_dim";
        QTest::addRow("rope-apply-3-rows-2-positions") << Call([] {
            const RopeParams r = rope8();
            const RopeTables t = ropeTables(r, ropeFrequencies(r), Positions{0, 1});
            ropeApply(r, t, Matrix::Ones(3, 8));
        }) << "ropeApply: precondition violated: x.rows() == tables.cos.rows()";
        QTest::addRow("rope-precision-errors-pair-4-of-4") << Call([] { ropePrecisionErrors(rope8(), {0, 1}, {4}); })
                                                           << "ropePrecisionErrors: precondition violated: each pair in [0, r/2)";
        QTest::addRow("rope-precision-errors-no-position") << Call([] { ropePrecisionErrors(rope8(), Positions{}); })
                                                           << "ropePrecisionErrors: precondition violated: positions valid";
        QTest::addRow("rope-precision-errors-float16-70000") << Call([] {
            RopeParams r = rope8();
            r.precision = Precision::Float16;
            r.angle_precision = Precision::Float16;   // the legacy path: angles in float16
            ropePrecisionErrors(r, Positions{70000});
        }) << "ropePrecisionErrors: precondition violated: positions at most 65504 with float16 angles";
        QTest::addRow("rope-position-collisions-minus-1") << Call([] { ropePositionCollisions(rope8(), {-1, 2}); })
                                                          << "ropePositionCollisions: precondition violated: positions valid";
        QTest::addRow("rope-dynamic-base-no-scaling") << Call([] { ropeDynamicBase(rope8()); })
                                                      << "ropeDynamicBase: precondition violated: params.scaling == Dynamic";
        QTest::addRow("rope-llama3-detail-no-scaling") << Call([] { ropeLlama3Detail(rope8()); })
                                                       << "ropeLlama3Detail: precondition violated: params.scaling == Llama3";
        QTest::addRow("mrope-tables-2-rows") << Call([] {
            const RopeParams r = rope8();
            mropeTables(r, ropeFrequencies(r), IntMatrix::Zero(2, 1), {0, 1, 2, 0});
        }) << "mropeTables: precondition violated: ids 3 × N";
        QTest::addRow("mrope-tables-3-axes") << Call([] {
            const RopeParams r = rope8();
            mropeTables(r, ropeFrequencies(r), IntMatrix::Zero(3, 1), {0, 1, 2});
        }) << "mropeTables: precondition violated: axes.size() == r/2";
        QTest::addRow("mrope-tables-id-minus-1") << Call([] {
            const RopeParams r = rope8();
            mropeTables(r, ropeFrequencies(r), IntMatrix::Constant(3, 1, -1), {0, 1, 2, 0});
        }) << "mropeTables: precondition violated: ids within [0, 2^40]";
        QTest::addRow("mrope-content-source-dim-16-head-dim-8") << Call([] {
            ScoreParams base;
            base.dim = 16;
            mropeContentSource(base, rope8(), IntMatrix::Zero(3, 2), {0, 1, 2, 0});
        }) << "mropeContentSource: precondition violated: base rows of rope.head_dim numbers";
        QTest::addRow("mrope-rope-index-merge-0") << Call([] {
            MropeParams m;
            m.merge = 0;
            mropeRopeIndex(MropeBatch{}, m);
        }) << "mropeRopeIndex: precondition violated: params validate";
        QTest::addRow("pack-keys-dim-0") << Call([] { packKeys(nullptr, 0, 0); })
                                         << "packKeys: precondition violated: n >= 0, dim >= 1";
        QTest::addRow("scaled-dots-cols-2-of-1") << Call([] {
            const double k[2] = {1.0, 2.0}, q[2] = {1.0, 1.0};
            double out[2] = {};
            scaledDots(q, 1, packKeys(k, 1, 2), 2, 1.0, out);
        }) << "scaledDots: precondition violated: 0 <= cols <= keys.n";
        QTest::addRow("shaw-index-0-queries") << Call([] { shawIndex(0, 4, 2); })
                                              << "shawIndex: precondition violated: 1 <= query_length, 1 <= key_length";
        QTest::addRow("shaw-key-rows-2k-plus-1") << Call([] {
            ShawParams s;
            shawKeyRows(s, {0, 2 * s.max_relative_position + 1});
        }) << "shawKeyRows: precondition violated: every row in [0, 2k]";
        QTest::addRow("transformer-xl-dim-3") << Call([] { transformerXLPosEmb(3, {0}); })
                                              << "transformerXLPosEmb: precondition violated: dim even >= 2";
        QTest::addRow("qwen-vision-3x4-merge-2") << Call([] { qwenVisionPositionIds(VisionGrid{1, 3, 4}, 2); })
                                                 << "qwenVisionPositionIds: precondition violated: the merge size m divides H and W";
        QTest::addRow("pixtral-2x5-per-side-4") << Call([] { pixtralPositionIds(VisionGrid{1, 2, 5}, 4); })
                                                << "pixtralPositionIds: precondition violated: H, W <= P (patches per side)";
        QTest::addRow("xpos-scale-length-0") << Call([] { xposScale(XposParams{}, 0, 0, false); })
                                             << "xposScale: precondition violated: length >= 1, offset >= 0";
        QTest::addRow("xpos-apply-at-8-channels") << Call([] { xposApplyAt(XposParams{}, Matrix::Ones(1, 8), {0}, 1, false); })
                                                  << "xposApplyAt: precondition violated: x.cols() == head_dim";
    }
    void violatedPreconditionThrows() {
        QFETCH(Call, call);
        QFETCH(QString, message);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, call());
        try {
            call();
        } catch (const std::invalid_argument& e) {
            const QString what = QString::fromUtf8(e.what());
            QVERIFY2(what.startsWith(message), qPrintable(what));
        }
    }
};

QTEST_APPLESS_MAIN(TestEnsure)
#include "test_ensure.moc"
