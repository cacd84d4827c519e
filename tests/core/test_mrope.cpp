// M-RoPE core (core/mrope.h): every case of the Qwen2-VL, Qwen2.5-VL and Qwen3-VL golden files
// (get_rope_index position ids and rope_deltas exact, through the batch entry point and, where a
// case is one unpadded sequence, through the token layout too; each frequency's axis), then
// properties of the rules (text-only = plain RoPE, text after an image resumes at its largest id
// + 1, upstream's traps, sections vs interleaving, the rotation of a token by its own ids), and the
// layout parser's and parameters' errors.
#include <QtTest>

#include <cmath>
#include <set>

#include "core/mrope.h"
#include "core/rope.h"
#include "support/testsupport.h"

using namespace poslab;
using testsupport::goldenCase;

namespace {

const QStringList kFiles = {"modern_qwen2_vl.json", "modern_qwen2_5_vl.json", "modern_qwen3_vl.json"};

MropeModel modelOfFile(const QString& file) {
    if (file.contains("qwen2_5")) return MropeModel::Qwen25VL;
    if (file.contains("qwen3")) return MropeModel::Qwen3VL;
    return MropeModel::Qwen2VL;
}

std::vector<std::array<std::int64_t, 3>> grids(const QJsonValue& v) {
    std::vector<std::array<std::int64_t, 3>> out;
    for (const auto& g : v.toArray()) {
        const auto a = g.toArray();
        out.push_back({a[0].toInteger(), a[1].toInteger(), a[2].toInteger()});
    }
    return out;
}

std::vector<std::vector<int>> intRows(const QJsonValue& v) {
    std::vector<std::vector<int>> out;
    for (const auto& r : v.toArray()) {
        out.emplace_back();
        for (const auto& x : r.toArray()) out.back().push_back(x.toInt());
    }
    return out;
}

std::vector<std::int64_t> ints(const QJsonValue& v) {
    std::vector<std::int64_t> out;
    for (const auto& x : v.toArray()) out.push_back(x.toInteger());
    return out;
}

// output.position_ids [3][batch][seq] → per batch row a 3 × seq matrix.
std::vector<IntMatrix> expectedIds(const QJsonValue& v) {
    const auto axes = v.toArray();
    std::vector<IntMatrix> out;
    const auto batch = axes[0].toArray().size();
    for (qsizetype b = 0; b < batch; ++b) {
        const auto seq = axes[0].toArray()[b].toArray().size();
        IntMatrix m(3, seq);
        for (int a = 0; a < 3; ++a)
            for (qsizetype k = 0; k < seq; ++k) m(a, k) = axes[a].toArray()[b].toArray()[k].toInteger();
        out.push_back(m);
    }
    return out;
}

QString idsText(const IntMatrix& m) {
    QStringList rows;
    for (Eigen::Index a = 0; a < m.rows(); ++a) {
        QStringList r;
        for (Eigen::Index k = 0; k < m.cols(); ++k) r << QString::number(m(a, k));
        rows << "[" + r.join(",") + "]";
    }
    return rows.join(" ");
}

MropeParams paramsOfCase(const QString& file, const QJsonObject& p) {
    MropeParams mp;
    mp.model = modelOfFile(file);
    mp.merge = p.value("spatial_merge_size").toInt(2);
    if (p.contains("vision_config.tokens_per_second")) mp.tokens_per_second = p.value("vision_config.tokens_per_second").toInt();
    return mp;
}

// The token layout of one unpadded sequence: its segments with the case's grids (Qwen3-VL: one
// frame per video segment, as get_rope_index splits the grids).
std::string layoutOfCase(const QString& file, const QJsonObject& p) {
    auto images = grids(p.value("image_grid_thw")), videos = grids(p.value("video_grid_thw"));
    if (modelOfFile(file) == MropeModel::Qwen3VL) {
        std::vector<std::array<std::int64_t, 3>> frames;
        for (const auto& g : videos)
            for (std::int64_t t = 0; t < g[0]; ++t) frames.push_back({1, g[1], g[2]});
        videos = frames;
    }
    std::size_t ni = 0, nv = 0;
    std::string out;
    for (const auto& s : p.value("segments").toArray()[0].toArray()) {
        const auto seg = s.toArray();
        const int type = seg[0].toInt();
        if (!out.empty()) out += ",";
        if (type == 0) {
            out += "text:" + std::to_string(seg[1].toInteger());
        } else {
            const auto g = type == 1 ? images.at(ni++) : videos.at(nv++);
            out += std::string(type == 1 ? "image:" : "video:") + std::to_string(g[0]) + "x" + std::to_string(g[1]) + "x" +
                   std::to_string(g[2]);
        }
    }
    return out;
}

IntMatrix textIds(std::int64_t n) {
    IntMatrix m(3, n);
    for (int a = 0; a < 3; ++a)
        for (std::int64_t k = 0; k < n; ++k) m(a, k) = k;
    return m;
}

}  // namespace

class TestMrope : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // ------------------------------------------------------------------ every golden case
    void golden_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("name");
        for (const QString& file : kFiles) {
            const auto cases = testsupport::golden(file).value("cases").toArray();
            QVERIFY(!cases.isEmpty());
            for (const auto& c : cases) {
                const QString n = c.toObject().value("name").toString();
                QTest::newRow(qPrintable(file.section('.', 0, 0) + "/" + n)) << file << n;
            }
        }
    }
    void golden() {
        QFETCH(QString, file);
        QFETCH(QString, name);
        const QJsonObject c = goldenCase(file, name);
        const QJsonObject p = c.value("params").toObject(), out = c.value("output").toObject();
        if (out.contains("position_ids")) {
            const MropeParams mp = paramsOfCase(file, p);
            QVERIFY(!mp.validate());
            MropeBatch b;
            b.token_types = intRows(p.value("mm_token_type_ids"));
            if (p.value("attention_mask").isArray()) b.attention_mask = intRows(p.value("attention_mask"));
            b.image_grid_thw = grids(p.value("image_grid_thw"));
            b.video_grid_thw = grids(p.value("video_grid_thw"));
            if (p.value("second_per_grid_ts").isArray()) b.second_per_grid_ts = testsupport::toDoubles(p.value("second_per_grid_ts").toArray());
            const auto r = mropeRopeIndex(b, mp);
            QVERIFY2(r.ok(), r.ok() ? "" : r.error().message().c_str());
            const auto want = expectedIds(out.value("position_ids"));
            const auto deltas = out.value("rope_deltas").toArray();
            QCOMPARE(r.value().position_ids.size(), want.size());
            for (std::size_t k = 0; k < want.size(); ++k) {
                QVERIFY2(r.value().position_ids[k] == want[k],
                         qPrintable("row " + QString::number(k) + ": " + idsText(r.value().position_ids[k]) + " vs " + idsText(want[k])));
                QCOMPARE(r.value().rope_deltas[k], deltas[qsizetype(k)].toArray()[0].toInteger());
            }
            // One unpadded sequence: the same ids through the token layout.
            if (want.size() == 1 && b.attention_mask.empty()) {
                MropeParams lp = mp;
                lp.tokens = layoutOfCase(file, p);
                if (!b.second_per_grid_ts.empty()) lp.second_per_grid = b.second_per_grid_ts;
                QVERIFY2(!lp.validate(), lp.tokens.c_str());
                const auto l = mropePositions(lp);
                QVERIFY2(l.ok(), l.ok() ? "" : l.error().message().c_str());
                QVERIFY2(l.value().ids == want[0], qPrintable(QString::fromStdString(lp.tokens) + ": " + idsText(l.value().ids)));
                QCOMPARE(l.value().rope_deltas, deltas[0].toArray()[0].toInteger());
                QCOMPARE(std::int64_t(l.value().kinds.size()), std::int64_t(b.token_types[0].size()));
                for (std::size_t k = 0; k < l.value().kinds.size(); ++k) QCOMPARE(int(l.value().kinds[k]), b.token_types[0][k]);
            }
            return;
        }
        if (out.contains("axis_of_channel") || out.contains("axis_of_frequency")) {
            const int headDim = p.value("head_dim").toInt();
            const auto section = ints(p.value("mrope_section"));
            const MropeLayout layout = out.contains("axis_of_frequency") ? MropeLayout::Interleaved : MropeLayout::Sectioned;
            QCOMPARE(layout == MropeLayout::Interleaved, modelOfFile(file) == MropeModel::Qwen3VL);
            const auto r = mropeAxes(headDim / 2, section, layout);
            QVERIFY2(r.ok(), r.ok() ? "" : r.error().message().c_str());
            std::vector<std::int64_t> got;
            if (layout == MropeLayout::Sectioned)   // channels c and c + head_dim/2 share frequency c mod head_dim/2
                for (int ch = 0; ch < headDim; ++ch) got.push_back(r.value()[std::size_t(ch % (headDim / 2))]);
            else
                got.assign(r.value().begin(), r.value().end());
            QCOMPARE(got, ints(out.value(layout == MropeLayout::Sectioned ? "axis_of_channel" : "axis_of_frequency")));
            return;
        }
        QFAIL(qPrintable("no check for this kind of case: " + c.value("function").toString()));
    }

    // ------------------------------------------------------------------ properties of the ids
    void rules_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("tokens");
        QTest::addColumn<QString>("spg");
        QTest::addColumn<QString>("t");
        QTest::addColumn<QString>("h");
        QTest::addColumn<QString>("w");
        QTest::addColumn<int>("delta");
        // Text only: three equal rows 0..N-1 (plain RoPE).
        QTest::newRow("qwen2-vl text:5") << "qwen2-vl" << "text:5" << "" << "0,1,2,3,4" << "0,1,2,3,4" << "0,1,2,3,4" << 0;
        // An image 1x4x4 merged by 2: 2x2 tokens at t=1, h,w in 1..2; the text after resumes at 3 = max+1.
        QTest::newRow("qwen2-vl text:1,image:1x4x4,text:1")
            << "qwen2-vl" << "text:1,image:1x4x4,text:1" << "" << "0,1,1,1,1,3" << "0,1,1,2,2,3" << "0,1,2,1,2,3" << -2;
        // Trap 1: a video of 4 frames and 2x2 spatial: the text after starts at 1+1 = 2, below t = 4.
        QTest::newRow("qwen2-vl text:1,video:4x2x2,text:1")
            << "qwen2-vl" << "text:1,video:4x2x2,text:1" << "" << "0,1,2,3,4,2" << "0,1,1,1,1,2" << "0,1,1,1,1,2" << -1;
        // Qwen2.5-VL: interval tokens_per_second·int(seconds): 2·int(1.5) = 2.
        QTest::newRow("qwen2.5-vl video:3x2x2 spg1.5")
            << "qwen2.5-vl" << "text:1,video:3x2x2,text:1" << "1.5" << "0,1,3,5,2" << "0,1,1,1,2" << "0,1,1,1,2" << 1;
        // Trap 2: int(0.5) = 0: every frame shares t.
        QTest::newRow("qwen2.5-vl video:3x2x2 spg0.5")
            << "qwen2.5-vl" << "text:1,video:3x2x2,text:1" << "0.5" << "0,1,1,1,2" << "0,1,1,1,2" << "0,1,1,1,2" << -2;
        // No second_per_grid: 1 s each, interval = tokens_per_second = 2.
        QTest::newRow("qwen2.5-vl video:2x2x2 none")
            << "qwen2.5-vl" << "video:2x2x2,text:1" << "" << "0,2,1" << "0,0,1" << "0,0,1" << 0;
        // Qwen2-VL ignores the spacing: interval 1.
        QTest::newRow("qwen2-vl video:2x2x2") << "qwen2-vl" << "video:2x2x2,text:1" << "" << "0,1,1" << "0,0,1" << "0,0,1" << -1;
        // Qwen3-VL: frames with timestamp text between them; each frame at t = its start.
        QTest::newRow("qwen3-vl frames")
            << "qwen3-vl" << "text:1,video:1x2x4,text:1,video:1x2x4" << "" << "0,1,1,3,4,4" << "0,1,1,3,4,4" << "0,1,2,3,4,5" << 0;
        // Images and videos may follow each other (different runs).
        QTest::newRow("qwen2-vl image:1x2x2,video:1x2x2") << "qwen2-vl" << "image:1x2x2,video:1x2x2" << "" << "0,1" << "0,1" << "0,1" << 0;
    }
    void rules() {
        QFETCH(QString, model);
        QFETCH(QString, tokens);
        QFETCH(QString, spg);
        QFETCH(QString, t);
        QFETCH(QString, h);
        QFETCH(QString, w);
        QFETCH(int, delta);
        MropeParams p;
        p.model = *enumFromKey<MropeModel>(model.toStdString());
        p.tokens = tokens.toStdString();
        if (!spg.isEmpty()) p.second_per_grid = {spg.toDouble()};
        QVERIFY(!p.validate());
        const auto r = mropePositions(p);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message().c_str());
        const QStringList want = {t, h, w};
        for (int a = 0; a < 3; ++a) {
            QStringList got;
            for (Eigen::Index k = 0; k < r.value().ids.cols(); ++k) got << QString::number(r.value().ids(a, k));
            QCOMPARE(got.join(","), want[a]);
        }
        QCOMPARE(r.value().rope_deltas, std::int64_t(delta));
    }

    // An image of any size: the text after it starts at its largest id + 1 (main's max(H,W)/m is
    // the original Qwen rule for images), and its patches share one t.
    void imageResumesAfterLargestId_data() {
        QTest::addColumn<int>("H");
        QTest::addColumn<int>("W");
        QTest::addColumn<int>("merge");
        for (int H : {2, 4, 14})
            for (int W : {2, 6, 28})
                for (int m : {1, 2}) QTest::newRow(qPrintable(QString("%1x%2 merge%3").arg(H).arg(W).arg(m))) << H << W << m;
    }
    void imageResumesAfterLargestId() {
        QFETCH(int, H);
        QFETCH(int, W);
        QFETCH(int, merge);
        MropeParams p;
        p.merge = merge;
        p.tokens = QString("text:3,image:1x%1x%2,text:2").arg(H).arg(W).toStdString();
        const auto r = mropePositions(p);
        QVERIFY(r.ok());
        const IntMatrix& ids = r.value().ids;
        const Eigen::Index n = ids.cols(), img = Eigen::Index(H / merge) * (W / merge);
        QCOMPARE(n, 3 + img + 2);
        std::int64_t maxImage = 0;
        for (Eigen::Index k = 3; k < 3 + img; ++k) {
            QCOMPARE(ids(0, k), std::int64_t(3));
            maxImage = std::max({maxImage, ids(1, k), ids(2, k)});
        }
        QCOMPARE(ids(0, n - 2), maxImage + 1);
        QCOMPARE(ids(1, n - 1), maxImage + 2);
        QCOMPARE(r.value().rope_deltas, ids.maxCoeff() + 1 - n);
    }

    void layoutErrors_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("tokens");
        QTest::addColumn<QString>("parameter");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("empty") << "qwen2-vl" << "" << "tokens" << "an empty layout";
        QTest::newRow("imag:1x4x6") << "qwen2-vl" << "imag:1x4x6" << "tokens" << "imag:1x4x6";
        QTest::newRow("text:0") << "qwen2-vl" << "text:0" << "tokens" << "text:0";
        QTest::newRow("text:-3") << "qwen2-vl" << "text:-3" << "tokens" << "text:-3";
        QTest::newRow("image:1x4") << "qwen2-vl" << "text:2,image:1x4" << "tokens" << "entry 2";
        QTest::newRow("image:1x4x6x2") << "qwen2-vl" << "image:1x4x6x2" << "tokens" << "image:1x4x6x2";
        QTest::newRow("text:3,") << "qwen2-vl" << "text:3," << "tokens" << "entry 2";
        QTest::newRow("image:1x3x4 odd H") << "qwen2-vl" << "image:1x3x4" << "tokens" << "divides";
        QTest::newRow("image,image adjacent") << "qwen2-vl" << "image:1x2x2,image:1x2x2" << "tokens" << "text between";
        QTest::newRow("qwen3-vl video:2x2x2") << "qwen3-vl" << "video:2x2x2" << "tokens" << "per frame";
        QTest::newRow("too many tokens") << "qwen2-vl" << "video:4096x64x64" << "tokens" << "more tokens";
    }
    void layoutErrors() {
        QFETCH(QString, model);
        QFETCH(QString, tokens);
        QFETCH(QString, parameter);
        QFETCH(QString, mentions);
        MropeParams p;
        p.model = *enumFromKey<MropeModel>(model.toStdString());
        auto parsed = parseTokenLayout(tokens.toStdString());
        Check e;
        if (!parsed) e = parsed.error();
        else if (auto r = mropePositions(parsed.value(), p); !r) e = r.error();
        QVERIFY2(e, "accepted");
        QCOMPARE(QString::fromStdString(e->parameter), parameter);
        const QString msg = QString::fromStdString(e->message());
        QVERIFY2(msg.contains(mentions), qPrintable(msg));
        QVERIFY(!msg.contains('\n'));
    }

    void paramErrors_data() {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::newRow("merge 0") << "merge" << "0";
        QTest::newRow("merge 65") << "merge" << "65";
        QTest::newRow("tokens_per_second 0") << "tokens_per_second" << "0";
        QTest::newRow("second_per_grid -1") << "second_per_grid" << "-1";
        QTest::newRow("mrope_section 1,2") << "mrope_section" << "1,2";
        QTest::newRow("mrope_section 1,2,3,4") << "mrope_section" << "1,2,3,4";
        QTest::newRow("mrope_section -1,2,3") << "mrope_section" << "-1,2,3";
    }
    void paramErrors() {
        QFETCH(QString, field);
        QFETCH(QString, value);
        MropeParams p;
        const auto* decl = findParam(mropeParamTable(), field.toStdString());
        QVERIFY(decl);
        const auto v = parseParamText(decl->info, value.toStdString());
        Check e;
        if (!v) e = v.error();
        else {
            decl->set(p, v.value());
            e = p.validate();
        }
        QVERIFY2(e, "accepted");
        QCOMPARE(QString::fromStdString(e->parameter), field);
    }

    // ------------------------------------------------------------------ axes
    void axes_data() {
        QTest::addColumn<int>("half");
        QTest::addColumn<QString>("section");
        QTest::addColumn<QString>("layout");
        QTest::addColumn<QString>("t");   // the frequencies following t
        QTest::addColumn<int>("nh");
        QTest::addColumn<int>("nw");
        QTest::newRow("64 16,24,24 sectioned") << 64 << "16,24,24" << "sectioned" << "0-15" << 24 << 24;
        QTest::newRow("64 24,20,20 interleaved")
            << 64 << "24,20,20" << "interleaved" << "0,3,6,9,12,15,18,21,24,27,30,33,36,39,42,45,48,51,54,57,60,61,62,63" << 20 << 20;
        QTest::newRow("8 2,3,3 interleaved (w clipped)") << 8 << "2,3,3" << "interleaved" << "0,3,6" << 3 << 2;
        QTest::newRow("8 8,0,0 sectioned") << 8 << "8,0,0" << "sectioned" << "0-7" << 0 << 0;
        QTest::newRow("8 8,0,0 interleaved") << 8 << "8,0,0" << "interleaved" << "0-7" << 0 << 0;
    }
    void axes() {
        QFETCH(int, half);
        QFETCH(QString, section);
        QFETCH(QString, layout);
        QFETCH(QString, t);
        QFETCH(int, nh);
        QFETCH(int, nw);
        std::vector<std::int64_t> s;
        for (const auto& x : section.split(',')) s.push_back(x.toLongLong());
        const auto r = mropeAxes(half, s, *enumFromKey<MropeLayout>(layout.toStdString()));
        QVERIFY(r.ok());
        QStringList ts;
        int h = 0, w = 0;
        for (int i = 0; i < half; ++i) {
            const int a = r.value()[std::size_t(i)];
            if (a == 0) ts << QString::number(i);
            h += a == 1;
            w += a == 2;
        }
        QString want = t;
        if (t.contains('-')) {
            QStringList l;
            for (int i = t.section('-', 0, 0).toInt(); i <= t.section('-', 1, 1).toInt(); ++i) l << QString::number(i);
            want = l.join(',');
        }
        QCOMPARE(ts.join(','), want);
        QCOMPARE(h, nh);
        QCOMPARE(w, nw);
    }
    void axesErrors_data() {
        QTest::addColumn<int>("half");
        QTest::addColumn<QString>("section");
        QTest::newRow("sum 63 of 64") << 64 << "16,24,23";
        QTest::newRow("sum 65 of 64") << 64 << "16,24,25";
        QTest::newRow("two entries") << 64 << "32,32";
    }
    void axesErrors() {
        QFETCH(int, half);
        QFETCH(QString, section);
        std::vector<std::int64_t> s;
        for (const auto& x : section.split(',')) s.push_back(x.toLongLong());
        for (auto l : {MropeLayout::Sectioned, MropeLayout::Interleaved}) {
            const auto r = mropeAxes(half, s, l);
            QVERIFY(!r.ok());
            QCOMPARE(QString::fromStdString(r.error().parameter), QString("mrope_section"));
            QVERIFY(QString::fromStdString(r.error().valid).contains(QString::number(half)));
        }
    }

    // ------------------------------------------------------------------ rotation
    // Text-only ids: M-RoPE is plain RoPE at 0..N-1, bit for bit, in both layouts.
    void textOnlyIsPlainRope_data() {
        QTest::addColumn<QString>("layout");
        QTest::addColumn<QString>("precision");
        for (auto l : {"sectioned", "interleaved"})
            for (auto pr : {"float32", "double"}) QTest::newRow(qPrintable(QString(l) + " " + pr)) << l << pr;
    }
    void textOnlyIsPlainRope() {
        QFETCH(QString, layout);
        QFETCH(QString, precision);
        RopeParams rp;
        rp.head_dim = 16;
        rp.base = 1e6;
        rp.precision = *enumFromKey<Precision>(precision.toStdString());
        const auto axes = mropeAxes(8, {2, 3, 3}, *enumFromKey<MropeLayout>(layout.toStdString())).value();
        Matrix x(5, 16);
        for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] = std::sin(0.5 + 0.7 * double(i));
        const Matrix got = mropeRotate(rp, textIds(5), axes, x);
        const Matrix want = ropeRotate(rp, arangePositions(0, 5), x);
        QCOMPARE(testsupport::maxAbsDiff(got, want), 0.0);
    }
    // A token with ids (t, h, w): frequency i rotates by ids[axis(i)]·inv_freq[i] (double precision:
    // the pair (i, i+r/2) of e_i turns by that angle).
    void tokenRotatesByItsOwnIds_data() {
        QTest::addColumn<QString>("layout");
        QTest::newRow("sectioned") << "sectioned";
        QTest::newRow("interleaved") << "interleaved";
    }
    void tokenRotatesByItsOwnIds() {
        QFETCH(QString, layout);
        RopeParams rp;
        rp.head_dim = 16;
        rp.base = 10000;
        rp.precision = Precision::Double;
        const auto axes = mropeAxes(8, {2, 3, 3}, *enumFromKey<MropeLayout>(layout.toStdString())).value();
        IntMatrix ids(3, 1);
        ids << 7, 11, 19;
        const RopeFrequencies f = ropeFrequencies(rp);
        for (int i = 0; i < 8; ++i) {
            Matrix e = Matrix::Zero(1, 16);
            e(0, i) = 1;
            const Matrix y = mropeRotate(rp, ids, axes, e);
            const double angle = double(ids(axes[std::size_t(i)], 0)) * f.inv_freq[i];
            QVERIFY(std::abs(y(0, i) - std::cos(angle)) < 1e-12);
            QVERIFY(std::abs(y(0, i + 8) - std::sin(angle)) < 1e-12);
        }
    }
    // The content source used by scores/decay with --tokens: its rows are the base rows rotated.
    void contentSourceRotatesRows() {
        ScoreParams sp;
        sp.dim = 16;
        sp.content = Content::Formula;
        RopeParams rp = sp.ropeParams();
        rp.head_dim = 16;
        MropeParams mp;
        mp.tokens = "text:2,image:1x4x4,text:1";
        const auto pos = mropePositions(mp).value();
        const auto axes = mropeAxes(8, {2, 3, 3}, MropeLayout::Sectioned).value();
        const auto src = mropeContentSource(sp, rp, pos.ids, axes);
        QCOMPARE(src->length(), std::int64_t(7));
        QCOMPARE(src->dim(), 16);
        const Positions all = arangePositions(0, 7);
        const Matrix want = mropeRotate(rp, pos.ids, axes, contentRows(sp, true, all));
        QCOMPARE(testsupport::maxAbsDiff(src->rows(true, all), want), 0.0);
        const Positions some = {5, 2};
        const Matrix part = src->rows(true, some);
        QCOMPARE(testsupport::maxAbsDiff(part.row(0), want.row(5)), 0.0);
        QCOMPARE(testsupport::maxAbsDiff(part.row(1), want.row(2)), 0.0);
    }
};

QTEST_APPLESS_MAIN(TestMrope)
#include "test_mrope.moc"
