// core/format.h, the one number formatter: the shortest round trip for files, copies and
// messages (formatNumber, formatBound, formatDecimal), at most N significant digits for people
// (formatReadable, formatScientific) in plain, typeset and TeX styles.
#include <QtTest>

#include <cmath>
#include <cstdlib>

#include "core/format.h"

using namespace poslab;

Q_DECLARE_METATYPE(poslab::NumberStyle)

class TestFormat : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void formatNumber_data() {
        QTest::addColumn<double>("x");
        QTest::addColumn<QString>("text");
        QTest::addRow("0.5") << 0.5 << "0.5";
        QTest::addRow("3") << 3.0 << "3";
        QTest::addRow("-7.25") << -7.25 << "-7.25";
        QTest::addRow("1e30") << 1e30 << "1e+30";
        QTest::addRow("0.1") << 0.1 << "0.1";
        QTest::addRow("nan") << std::nan("") << "nan";
        QTest::addRow("inf") << double(INFINITY) << "inf";
        QTest::addRow("-inf") << -double(INFINITY) << "-inf";
    }
    void formatNumber() {
        QFETCH(double, x);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(poslab::formatNumber(x)), text);
    }

    void formatNumberRoundTrips_data() {
        QTest::addColumn<double>("x");
        QTest::addRow("third") << 1.0 / 3.0;
        QTest::addRow("sqrt2") << std::sqrt(2.0);
        QTest::addRow("tiny") << 4.9e-324;
        QTest::addRow("big") << 1.7976931348623157e308;
    }
    void formatNumberRoundTrips() {
        QFETCH(double, x);
        const std::string s = poslab::formatNumber(x);
        QCOMPARE(std::strtod(s.c_str(), nullptr), x);
    }

    // The number formatter for people: at most `digits` significant digits, the shortest form of
    // the rounded value, plain (reads back with strtod) or typeset (a true minus, × 10ⁿ).
    void formatReadable_data() {
        QTest::addColumn<double>("x");
        QTest::addColumn<int>("digits");
        QTest::addColumn<NumberStyle>("style");
        QTest::addColumn<QString>("text");
        QTest::addRow("slider_float_error") << 24099999.999999996 << 6 << NumberStyle::Plain << "2.41e7";
        QTest::addRow("inv_sqrt_80") << 1 / std::sqrt(80.0) << 6 << NumberStyle::Plain << "0.111803";
        QTest::addRow("score_16_digits") << 0.12345678901234567 << 6 << NumberStyle::Plain << "0.123457";
        QTest::addRow("third_4") << 1.0 / 3.0 << 4 << NumberStyle::Plain << "0.3333";
        QTest::addRow("500000") << 500000.0 << 6 << NumberStyle::Plain << "500000";
        QTest::addRow("1e6") << 1e6 << 6 << NumberStyle::Plain << "1e6";
        QTest::addRow("rounds_up_to_10") << 9.9999996 << 6 << NumberStyle::Plain << "10";
        QTest::addRow("rounds_up_to_1e6") << 999999.7 << 6 << NumberStyle::Plain << "1e6";
        QTest::addRow("tiny") << 4.440892098500626e-16 << 6 << NumberStyle::Plain << "4.44089e-16";
        QTest::addRow("negative") << -0.5 << 6 << NumberStyle::Plain << "-0.5";
        QTest::addRow("small_fixed") << 0.000123456789 << 6 << NumberStyle::Plain << "0.000123457";
        QTest::addRow("zero") << 0.0 << 6 << NumberStyle::Plain << "0";
        QTest::addRow("nan") << std::nan("") << 6 << NumberStyle::Plain << "nan";
        QTest::addRow("typeset_2.41e7") << 2.41e7 << 4 << NumberStyle::Typeset << "2.41 × 10⁷";
        QTest::addRow("typeset_1e6") << 1e6 << 4 << NumberStyle::Typeset << "10⁶";
        QTest::addRow("typeset_negative_tiny") << -4.44e-16 << 3 << NumberStyle::Typeset << "−4.44 × 10⁻¹⁶";
        QTest::addRow("typeset_minus_half") << -0.5 << 4 << NumberStyle::Typeset << "−0.5";
        // An integer below 1e6 is never rounded (a position or a count), one that is not is.
        QTest::addRow("integer_131072_4") << 131072.0 << 4 << NumberStyle::Plain << "131072";
        QTest::addRow("integer_12345_3") << 12345.0 << 3 << NumberStyle::Plain << "12345";
        QTest::addRow("fraction_131072.5_4") << 131072.5 << 4 << NumberStyle::Plain << "131100";
        QTest::addRow("integer_1234567_3") << 1234567.0 << 3 << NumberStyle::Plain << "1.23e6";
        // TeX for formulas: the same digits, a mantissa times a power of ten.
        QTest::addRow("tex_1234567_3") << 1234567.0 << 3 << NumberStyle::Tex << "1.23\\times10^{6}";
        QTest::addRow("tex_1e-5_3") << 1e-5 << 3 << NumberStyle::Tex << "1\\times10^{-5}";
        QTest::addRow("tex_neg0.416_3") << -0.41614683654714241 << 3 << NumberStyle::Tex << "-0.416";
        QTest::addRow("tex_inf") << double(INFINITY) << 4 << NumberStyle::Tex << "\\infty";
        QTest::addRow("tex_nan") << std::nan("") << 4 << NumberStyle::Tex << "\\text{nan}";
        QTest::addRow("typeset_-inf") << -double(INFINITY) << 4 << NumberStyle::Typeset << "−∞";
    }
    void formatReadable() {
        QFETCH(double, x);
        QFETCH(int, digits);
        QFETCH(NumberStyle, style);
        QFETCH(QString, text);
        const std::string s = poslab::formatReadable(x, digits, style);
        QCOMPARE(QString::fromStdString(s), text);
        if (style == NumberStyle::Plain && std::isfinite(x)) {
            // Plain text reads back, within the rounding.
            char* end = nullptr;
            const double back = std::strtod(s.c_str(), &end);
            QCOMPARE(*end, '\0');
            QVERIFY(std::abs(back - x) <= std::abs(x) * 5 * std::pow(10.0, -digits));
        }
    }

    void formatInt() {
        QCOMPARE(QString::fromStdString(poslab::formatInt(0)), QString("0"));
        QCOMPARE(QString::fromStdString(poslab::formatInt(-42)), QString("-42"));
        QCOMPARE(QString::fromStdString(poslab::formatInt(INT64_MAX)), QString("9223372036854775807"));
    }

    // The same rounding always as mantissa and exponent: one axis' ticks written one way.
    void formatScientific_data() {
        QTest::addColumn<double>("x");
        QTest::addColumn<int>("digits");
        QTest::addColumn<QString>("text");
        QTest::addRow("500000") << 500000.0 << 4 << "5e5";
        QTest::addRow("1.5e6") << 1.5e6 << 4 << "1.5e6";
        QTest::addRow("0.001") << 0.001 << 4 << "1e-3";
        QTest::addRow("rounds_to_next_power") << 9.99996e-5 << 4 << "1e-4";
        QTest::addRow("negative") << -2.5e-7 << 3 << "-2.5e-7";
        QTest::addRow("three_digits") << 1.23456e-4 << 3 << "1.23e-4";
        QTest::addRow("zero") << 0.0 << 4 << "0";
    }
    void formatScientific() {
        QFETCH(double, x);
        QFETCH(int, digits);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(poslab::formatScientific(x, digits)), text);
    }

    // Shortest round trip in the notations of messages (formatBound) and of a parameter's text
    // (formatDecimal): the same digits as formatNumber, read back exactly.
    void shortestForms_data() {
        QTest::addColumn<double>("x");
        QTest::addColumn<QString>("bound");
        QTest::addColumn<QString>("decimal");
        QTest::addRow("1e6") << 1e6 << "1e6" << "1000000";
        QTest::addRow("1e-6") << 1e-6 << "1e-6" << "1e-6";
        QTest::addRow("65536") << 65536.0 << "65536" << "65536";
        QTest::addRow("2^40") << 1099511627776.0 << "1099511627776" << "1099511627776";
        QTest::addRow("0.5") << 0.5 << "0.5" << "0.5";
        QTest::addRow("-2.5e20") << -2.5e20 << "-2.5e20" << "-2.5e20";
        QTest::addRow("500000") << 500000.0 << "5e5" << "500000";
        QTest::addRow("0.0125") << 0.0125 << "0.0125" << "0.0125";
        QTest::addRow("third") << 1.0 / 3.0 << "0.3333333333333333" << "0.3333333333333333";
    }
    void shortestForms() {
        QFETCH(double, x);
        QFETCH(QString, bound);
        QFETCH(QString, decimal);
        const std::string b = poslab::formatBound(x), d = poslab::formatDecimal(x);
        QCOMPARE(QString::fromStdString(b), bound);
        QCOMPARE(QString::fromStdString(d), decimal);
        QCOMPARE(std::strtod(b.c_str(), nullptr), x);
        QCOMPARE(std::strtod(d.c_str(), nullptr), x);
    }
};

QTEST_MAIN(TestFormat)
#include "test_format.moc"
