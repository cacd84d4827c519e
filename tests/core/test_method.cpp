// core/method.h: keys (the command line's and sessions' names), titles, summaries, rotation flag.
#include <QtTest>

#include <set>

#include "core/method.h"

using namespace poslab;

Q_DECLARE_METATYPE(poslab::Method)

class TestMethod : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void keys_data() {
        QTest::addColumn<poslab::Method>("method");
        QTest::addColumn<QString>("key");
        QTest::addColumn<bool>("rotates");
        QTest::addRow("nope") << Method::NoPE << "nope" << false;
        QTest::addRow("sinusoidal") << Method::Sinusoidal << "sinusoidal" << true;
        QTest::addRow("learned") << Method::Learned << "learned" << false;
        QTest::addRow("shaw") << Method::Shaw << "shaw" << false;
        QTest::addRow("t5") << Method::T5 << "t5" << false;
        QTest::addRow("transformer-xl") << Method::TransformerXL << "transformer-xl" << false;
        QTest::addRow("alibi") << Method::Alibi << "alibi" << false;
        QTest::addRow("rope") << Method::Rope << "rope" << true;
        QTest::addRow("xpos") << Method::Xpos << "xpos" << true;
    }
    void keys() {
        QFETCH(poslab::Method, method);
        QFETCH(QString, key);
        QFETCH(bool, rotates);
        QCOMPARE(QString::fromUtf8(methodKey(method).data(), qsizetype(methodKey(method).size())), key);
        const auto back = methodFromKey(key.toStdString());
        QVERIFY(back.has_value());
        QVERIFY(*back == method);
        QCOMPARE(methodRotates(method), rotates);
        // one plain sentence: starts with a capital, ends with a single full stop, no line breaks
        const QString s = QString::fromUtf8(methodSummary(method).data(), qsizetype(methodSummary(method).size()));
        QVERIFY(s.size() > 20);
        QVERIFY(s.front().isUpper());
        QVERIFY(s.endsWith('.'));
        QCOMPARE(s.count('.'), 1);
        QVERIFY(!s.contains('\n'));
        const auto title = methodTitle(method);
        QVERIFY(!title.empty());
    }

    void unknownKeys_data() {
        QTest::addColumn<QString>("key");
        QTest::addRow("empty") << "";
        QTest::addRow("Rope_capital") << "Rope";
        QTest::addRow("transformer_xl_underscore") << "transformer_xl";
        QTest::addRow("rope_trailing_space") << "rope ";
        QTest::addRow("bogus") << "bogus";
    }
    void unknownKeys() {
        QFETCH(QString, key);
        QVERIFY(!methodFromKey(key.toStdString()).has_value());
    }

    void allDistinct() {
        std::set<std::string_view> keys, titles, summaries;
        for (Method m : kAllMethods) {
            keys.insert(methodKey(m));
            titles.insert(methodTitle(m));
            summaries.insert(methodSummary(m));
        }
        QCOMPARE(keys.size(), kAllMethods.size());
        QCOMPARE(titles.size(), kAllMethods.size());
        QCOMPARE(summaries.size(), kAllMethods.size());
    }
};

QTEST_APPLESS_MAIN(TestMethod)
#include "test_method.moc"
