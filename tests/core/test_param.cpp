// core/param.h: the parameter table. Properties over every declared parameter of ScoreParams
// (its own fields and every method's nested table): defaults valid, text round trips, bounds
// enforced exactly as declared, each declaration bound to its own field, and the structs'
// validate() refusing what the table refuses. Then the text parser on what people type.
#include <QtTest>

#include <cmath>

#include "core/json.h"
#include "core/param.h"
#include "core/scores.h"

using namespace poslab;

namespace {

const Param<ScoreParams>& decl(const QString& path) {
    const auto* p = findParam(scoreParamTable(), path.toStdString());
    if (!p) qFatal("no parameter %s", qPrintable(path));
    return *p;
}

// A valid value of the parameter's kind other than `avoid` (when possible).
ParamValue sampleOther(const ParamInfo& i, const ParamValue& avoid) {
    const double lo = std::isfinite(i.lo) ? i.lo : -1e3, hi = std::isfinite(i.hi) ? i.hi : 1e3;
    switch (i.kind) {
    case ParamKind::Int: {
        auto x = static_cast<std::int64_t>(std::ceil(lo + (i.loOpen ? 1 : 0)));
        if (i.even && x % 2) ++x;
        if (ParamValue{x} == avoid) x += i.even ? 2 : 1;
        if (static_cast<double>(x) > hi) x = static_cast<std::int64_t>(hi);
        return x;
    }
    case ParamKind::Real: {
        double x = i.loOpen ? lo + (std::min(hi, lo + 1) - lo) / 2 : lo;
        if (ParamValue{x} == avoid) x = (lo + hi) / 2;
        return x;
    }
    case ParamKind::Bool: return !std::get<bool>(avoid);
    case ParamKind::Choice: return std::string(i.choices.back() == std::get<std::string>(avoid) ? i.choices.front() : i.choices.back());
    case ParamKind::RealList: return std::vector<double>{hi, std::max(lo, hi / 2)};
    case ParamKind::IntList: return std::vector<std::int64_t>{static_cast<std::int64_t>(lo)};
    case ParamKind::Seed: return std::uint64_t{18446744073709551615ull};
    case ParamKind::Text: return std::string("text");
    }
    return {};
}

}  // namespace

class TestParam : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyParameter_data() {
        QTest::addColumn<QString>("path");
        for (const auto& p : scoreParamTable()) QTest::newRow(p.path().c_str()) << QString::fromStdString(p.path());
    }

    // Declared once, usable everywhere: the default is valid and round-trips through the text
    // people type; the declaration writes its own field and no other.
    void everyParameter() {
        QFETCH(QString, path);
        const auto& p = decl(path);
        const ScoreParams defaults;
        const ParamValue def = p.get(defaults);
        QVERIFY2(!p.info.check(def), qPrintable(path + ": the default is not valid"));
        QVERIFY(!p.info.label.empty());
        QVERIFY(!p.info.help.empty());
        QVERIFY(p.info.help.find('\n') == std::string_view::npos);
        QVERIFY(!p.info.valid().empty());

        const ParamValue other = sampleOther(p.info, def);
        QVERIFY2(!p.info.check(other), qPrintable(path + ": sample " + QString::fromStdString(formatParamValue(p.info, other))));
        for (const ParamValue& v : {def, other}) {
            const std::string text = formatParamValue(p.info, v);
            const auto back = parseParamText(p.info, text);
            QVERIFY2(back.ok(), qPrintable(path + ": " + QString::fromStdString(text)));
            QVERIFY2(back.value() == v, qPrintable(path + ": round trip of " + QString::fromStdString(text)));
        }

        ScoreParams s;
        p.set(s, other);
        QVERIFY(p.get(s) == other);
        QVERIFY2(!(s == defaults), qPrintable(path + ": equality does not see the field"));
        for (const auto& q : scoreParamTable())
            if (&q != &p && q.path() != std::string(p.info.resets))
                QVERIFY2(q.get(s) == q.get(defaults), qPrintable(path + " also changed " + QString::fromStdString(q.path())));
    }

    // The bounds are exactly the declared ones (open or closed), for numbers and list entries,
    // and the message names the parameter and its valid range.
    void boundsAreExact_data() {
        QTest::addColumn<QString>("path");
        for (const auto& p : scoreParamTable())
            if (p.info.kind == ParamKind::Int || p.info.kind == ParamKind::Real)
                QTest::newRow(p.path().c_str()) << QString::fromStdString(p.path());
    }
    void boundsAreExact() {
        QFETCH(QString, path);
        const auto& i = decl(path).info;
        auto val = [&](double x) -> ParamValue {
            if (i.kind == ParamKind::Int) return static_cast<std::int64_t>(x);
            return x;
        };
        const double step = i.kind == ParamKind::Int ? (i.even ? 2 : 1) : 0;
        if (std::isfinite(i.lo)) {
            const double atLo = i.kind == ParamKind::Int && i.even && std::fmod(i.lo, 2) != 0 ? i.lo + 1 : i.lo;
            QCOMPARE(!i.check(val(atLo)).has_value(), !i.loOpen);
            const double below = step ? atLo - step : std::nextafter(i.lo, -1e300);
            if (!(i.has(kParamZeroUnset) && below == 0)) {
                const auto e = i.check(val(below));
                QVERIFY2(e.has_value(), qPrintable(path + " accepts below its lower bound"));
                QCOMPARE(QString::fromStdString(e->parameter), path.section('.', -1));
                QVERIFY(e->valid.find(formatBound(i.lo)) != std::string::npos);
            }
        }
        if (std::isfinite(i.hi)) {
            QCOMPARE(!i.check(val(i.hi)).has_value(), !i.hiOpen);
            const double above = step ? i.hi + step : std::nextafter(i.hi, 1e300);
            const auto e = i.check(val(above));
            QVERIFY2(e.has_value(), qPrintable(path + " accepts above its upper bound"));
            QVERIFY(e->valid.find(formatBound(i.hi)) != std::string::npos);
        }
        if (i.kind == ParamKind::Real) {
            QVERIFY(i.check(std::numeric_limits<double>::quiet_NaN()).has_value());
            QVERIFY(i.check(std::numeric_limits<double>::infinity()).has_value());
        }
    }

    // What the table refuses, the struct's validate() refuses, naming the same parameter (the
    // method's own parameters, with the configuration set to that method).
    void validateRefusesWhatTheTableRefuses_data() {
        QTest::addColumn<QString>("path");
        for (const auto& p : scoreParamTable())
            if (!p.info.has(kParamShared) && (p.info.kind == ParamKind::Int || p.info.kind == ParamKind::Real) &&
                std::isfinite(p.info.hi))
                QTest::newRow(p.path().c_str()) << QString::fromStdString(p.path());
    }
    void validateRefusesWhatTheTableRefuses() {
        QFETCH(QString, path);
        const auto& p = decl(path);
        const auto& i = p.info;
        ScoreParams s;
        if (!p.group.empty())
            for (Method m : kAllMethods)
                if (methodParamGroup(m) == p.group) s.method = m;
        const double above = i.kind == ParamKind::Int ? i.hi + (i.even ? 2 : 1) : i.hi * 2 + 1;
        p.set(s, i.kind == ParamKind::Int ? ParamValue{static_cast<std::int64_t>(above)} : ParamValue{above});
        const auto e = s.validate();
        QVERIFY2(e.has_value(), qPrintable(path + ": validate() accepts what the table refuses"));
        QCOMPARE(QString::fromStdString(e->parameter), QString::fromStdString(std::string(i.name)));
    }

    // What people type, as the panel and the command line read it.
    void parseText_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("value");   // formatParamValue of the result, or the message
        QTest::newRow("base_1e12_scientific") << "rope.base" << "1e12" << true << "1e12";
        QTest::newRow("base_minus5_refused") << "rope.base" << "-5" << false << "base: a number in (1, 1e12], got -5";
        QTest::newRow("base_1e13_refused") << "rope.base" << "1e13" << false << "base: a number in (1, 1e12], got 1e13";
        QTest::newRow("base_inf_refused") << "rope.base" << "inf" << false << "base: a number in (1, 1e12], got inf";
        QTest::newRow("base_hex_refused") << "rope.base" << "0x10" << false << "base: a number in (1, 1e12], got 0x10";
        QTest::newRow("base_spaces_kept_out") << "rope.base" << " 500000 " << true << "500000";
        QTest::newRow("dim_65536") << "dim" << "65536" << true << "65536";
        QTest::newRow("dim_6.5536e4") << "dim" << "6.5536e4" << true << "65536";
        QTest::newRow("dim_65537_refused") << "dim" << "65537" << false << "dim: an integer from 1 to 65536, got 65537";
        QTest::newRow("dim_0.5_refused") << "dim" << "0.5" << false << "dim: an integer from 1 to 65536, got 0.5";
        QTest::newRow("dim_empty_refused") << "dim" << "" << false << "dim: an integer from 1 to 65536, got nothing";
        QTest::newRow("factor_empty_unset") << "rope.factor" << "" << true << "";
        QTest::newRow("rotary_dim_empty_unset") << "rope.rotary_dim" << "" << true << "";
        QTest::newRow("rotary_dim_odd_refused") << "rope.rotary_dim" << "7" << false
                                                 << "rotary_dim: 0 (unset) or an even integer from 2 to 65536 (at most head_dim), got 7";
        QTest::newRow("scaling_yarn") << "rope.scaling" << "yarn" << true << "yarn";
        QTest::newRow("scaling_ntk_refused") << "rope.scaling" << "ntk" << false
                                             << "scaling: one of none, linear, dynamic, yarn, longrope, llama3, got ntk";
        QTest::newRow("theta_list") << "rope.theta" << "1, 0.1,1e-2" << true << "1,0.1,0.01";
        QTest::newRow("theta_zero_refused") << "rope.theta" << "1,0" << false
                                            << "theta: a list of numbers, each in (0, 1e6] (at most 32768), got 1,0";
        QTest::newRow("seed_max_u64") << "seed" << "18446744073709551615" << true << "18446744073709551615";
        QTest::newRow("seed_negative_refused") << "seed" << "-1" << false
                                               << "seed: an integer from 0 to 18446744073709551615, got -1";
        QTest::newRow("heads_4096") << "alibi.heads" << "4096" << true << "4096";
        QTest::newRow("heads_4097_refused") << "alibi.heads" << "4097" << false << "heads: an integer from 1 to 4096, got 4097";
    }
    void parseText() {
        QFETCH(QString, path);
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(QString, value);
        const auto& i = decl(path).info;
        const auto r = parseParamText(i, text.toStdString());
        QCOMPARE(r.ok(), ok);
        if (ok) QCOMPARE(QString::fromStdString(formatParamValue(i, r.value())), value);
        else QCOMPARE(QString::fromStdString(r.error().message()), value);
    }

    // Lists of positions read ranges as the command line does.
    void intListRanges() {
        ParamInfo i{.name = "positions", .kind = ParamKind::IntList, .lo = 0, .hi = 100, .maxEntries = 8};
        auto r = parseParamText(i, "0:4,10");
        QVERIFY(r.ok());
        const ParamValue expected{std::vector<std::int64_t>{0, 1, 2, 3, 10}};
        QVERIFY(r.value() == expected);
        QVERIFY(!parseParamText(i, "0:20").ok());   // more than 8 entries
        QVERIFY(!parseParamText(i, "4:2").ok());
        QVERIFY(!parseParamText(i, "99:102").ok()); // 101 is out of range
    }

    // The one JSON writer: pretty output is what sessions hold, compact what compute prints;
    // NaN is never written as a number.
    void jsonWriter() {
        JsonWriter w(JsonWriter::Style::Pretty);
        w.beginObject().key("a").integers({1, 2}).key("b").beginArray().beginObject().key("c").number(-0.0).endObject()
            .endArray().key("d").beginObject().endObject().key("e").string("x\"\n").endObject();
        QCOMPARE(QString::fromStdString(w.text()),
                 QStringLiteral("{\n  \"a\": [1, 2],\n  \"b\": [\n    {\n      \"c\": 0\n    }\n  ],\n  \"d\": {},\n  \"e\": \"x\\\"\\n\"\n}"));
        QVERIFY(w.ok());
        JsonWriter c;
        c.beginObject().key("v").number(0.1).key("n").number(std::nan("")).endObject();
        QCOMPARE(QString::fromStdString(c.text()), QStringLiteral("{\"v\":0.1,\"n\":null}"));
        QVERIFY(!c.ok());
        QCOMPARE(QString::fromStdString(c.error()), QStringLiteral("nan in \"n\""));
    }
};

QTEST_APPLESS_MAIN(TestParam)
#include "test_param.moc"
