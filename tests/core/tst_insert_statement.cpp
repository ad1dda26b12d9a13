// SPDX-License-Identifier: GPL-3.0-or-later
// An INSERT executed again and again that binds a parameter only when its value changed
// (store/insert_statement.h): whatever the sequence of integers, NULLs and texts, each row holds its own
// values, as if every parameter had been bound anew.

#include "store/insert_statement.h"

#include <QTest>

#include <optional>
#include <variant>

using namespace lx;

namespace {

/// A value to bind: an integer, NULL (nullopt), or a text.
using Value = std::variant<std::optional<qint64>, QByteArray>;

QString show(sqlite3_stmt *row, int column)
{
    switch (sqlite3_column_type(row, column)) {
    case SQLITE_NULL: return QStringLiteral("NULL");
    case SQLITE_INTEGER: return QString::number(sqlite3_column_int64(row, column));
    default: return QStringLiteral("'%1'").arg(QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(row, column))));
    }
}

QString show(const Value &value)
{
    if (const auto *text = std::get_if<QByteArray>(&value))
        return QStringLiteral("'%1'").arg(QString::fromUtf8(*text));
    const auto &number = std::get<std::optional<qint64>>(value);
    return number ? QString::number(*number) : QStringLiteral("NULL");
}

} // namespace

Q_DECLARE_METATYPE(Value)

class TestInsertStatement : public QObject {
    Q_OBJECT

private slots:
    void eachRowHoldsItsOwnValues_data()
    {
        // One column, a row per execution of a 2-row INSERT: the values of parameter 1 and 2 in turn.
        QTest::addColumn<QList<Value>>("values");
        const Value null = std::optional<qint64>{};
        const auto i = [](qint64 v) { return Value(std::optional<qint64>(v)); };
        const auto t = [](const char *s) { return Value(QByteArray(s)); };
        QTest::newRow("repeats") << QList<Value>{i(1), i(1), i(1), i(1), i(2), i(1)};
        QTest::newRow("NULL and back") << QList<Value>{null, i(0), null, null, i(0), i(0)};
        QTest::newRow("int after text, same number") << QList<Value>{i(5), i(5), t("5"), t("x"), i(5), i(5)};
        QTest::newRow("text after text") << QList<Value>{t("a"), t("b"), t("c"), t("d"), null, t("e")};
        QTest::newRow("extremes") << QList<Value>{i(INT64_MAX), i(INT64_MIN + 1), i(INT64_MAX), i(INT64_MIN + 1), i(-1), i(-1)};
        QTest::newRow("zero is not NULL") << QList<Value>{i(0), null, i(0), null, i(0), null};
    }

    void eachRowHoldsItsOwnValues()
    {
        QFETCH(QList<Value>, values);
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open(":memory:", &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db, "CREATE TABLE t (v)", nullptr, nullptr, nullptr), SQLITE_OK);
        {
            InsertStatement insert(db, "INSERT INTO t (v) VALUES (?), (?)");
            QVERIFY(insert.valid());
            for (qsizetype row = 0; row + 1 < values.size(); row += 2) {
                for (int p = 1; p <= 2; ++p) {
                    const Value &value = values[row + p - 1];
                    if (const auto *text = std::get_if<QByteArray>(&value))
                        insert.bindText(p, std::string_view(text->constData(), static_cast<std::size_t>(text->size())));
                    else if (const auto &number = std::get<std::optional<qint64>>(value))
                        insert.bindInt(p, *number);
                    else
                        insert.bindNull(p);
                }
                QCOMPARE(insert.statement().step(), SQLITE_DONE);
                insert.statement().reset();
            }
        }
        Statement read(db, "SELECT v FROM t ORDER BY rowid");
        for (const Value &expected : values) {
            QCOMPARE(read.step(), SQLITE_ROW);
            QCOMPARE(show(read.get(), 0), show(expected));
        }
        QCOMPARE(read.step(), SQLITE_DONE);
        sqlite3_close_v2(db); // closes once the statements still open here are finalized
    }

    void measuredIsNullForNotMeasured()
    {
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open(":memory:", &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db, "CREATE TABLE t (v)", nullptr, nullptr, nullptr), SQLITE_OK);
        {
            InsertStatement insert(db, "INSERT INTO t (v) VALUES (?)");
            for (const qint64 v : {qint64(7), qint64(INT64_MIN), qint64(INT64_MIN), qint64(7)}) {
                insert.bindMeasured(1, v);
                QCOMPARE(insert.statement().step(), SQLITE_DONE);
                insert.statement().reset();
            }
        }
        Statement read(db, "SELECT group_concat(coalesce(v, 'NULL'), ' ') FROM t");
        QCOMPARE(read.step(), SQLITE_ROW);
        QCOMPARE(QByteArray(reinterpret_cast<const char *>(sqlite3_column_text(read.get(), 0))), QByteArray("7 NULL NULL 7"));
        sqlite3_close_v2(db); // closes once the statements still open here are finalized
    }
};

QTEST_APPLESS_MAIN(TestInsertStatement)
#include "tst_insert_statement.moc"
