// SPDX-License-Identifier: GPL-3.0-or-later
// The layout of a column chunk's BLOB (core/store/column_chunk_codec.h): every value, "not measured" and the
// ends of int64 included, decodes to itself; each column takes the bytes its values need; a header that is
// not the layout's, or that does not make the BLOB's size, is refused.

#include "model/request.h"
#include "store/column_chunk_codec.h"

#include <QTest>

#include <cstdint>
#include <limits>
#include <random>
#include <set>
#include <vector>

using namespace lx;

namespace {

using Column = std::vector<std::int64_t>;
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min(), kMax = std::numeric_limits<std::int64_t>::max();

/// A chunk whose every column is `values`, encoded; the codings as its header reads them.
std::vector<unsigned char> encodedWithEveryColumn(const Column &values)
{
    std::array<std::span<const std::int64_t>, kChunkColumns> columns;
    columns.fill(values);
    std::vector<unsigned char> blob;
    encodeChunk(columns, blob);
    return blob;
}

} // namespace

class TestColumnChunkCodec : public QObject
{
    Q_OBJECT
private slots:
    void valuesDecodeToThemselves_data();
    void valuesDecodeToThemselves();
    void headerIsChecked_data();
    void headerIsChecked();
    void eachColumnKeepsItsOwnValues_data();
    void eachColumnKeepsItsOwnValues();
};

void TestColumnChunkCodec::valuesDecodeToThemselves_data()
{
    QTest::addColumn<Column>("values");
    QTest::addColumn<int>("width");
    QTest::newRow("one value") << Column{7} << 0;
    QTest::newRow("all alike") << Column(1000, 123456789) << 0;
    QTest::newRow("none measured") << Column(300, kNotMeasured) << 0;
    QTest::newRow("one measured among missing") << Column{kNotMeasured, 5, kNotMeasured} << 1;
    QTest::newRow("255 codes: one byte") << [] { Column c; for (int i = 0; i < 255; ++i) c.push_back(1000 + i); return c; }() << 1;
    QTest::newRow("256 codes: two bytes") << [] { Column c; for (int i = 0; i < 256; ++i) c.push_back(1000 + i); return c; }() << 2;
    QTest::newRow("255 values and a missing one: code 0 is free")
        << [] { Column c{kNotMeasured}; for (int i = 0; i < 255; ++i) c.push_back(-7 + i); return c; }() << 1;
    QTest::newRow("dense ids of a chunk") << [] { Column c; for (int i = 1; i <= 65536; ++i) c.push_back(i); return c; }() << 3;
    QTest::newRow("milliseconds in ns with gaps")
        << [] {
               std::mt19937_64 rng(3);
               Column c;
               for (int i = 0; i < 5000; ++i)
                   c.push_back(i % 7 == 0 ? kNotMeasured : static_cast<std::int64_t>(rng() % 4'000'000'000ull));
               return c;
           }()
        << 4;
    QTest::newRow("epoch timestamps") << Column{1735732800141644922, 1735732800506777950, 1735732999000000000} << 5;
    QTest::newRow("negative and positive") << Column{-1'000'000, 0, 1'000'000, kNotMeasured} << 3;
    QTest::newRow("the ends of int64") << Column{kMin + 1, kMax, 0, kNotMeasured, -1, kMax - 1} << 8;
    QTest::newRow("the largest span, no missing") << Column{kMin + 1, kMax} << 8;
}

/// Every value decodes to itself, in each of the chunk's columns; the width is the least that holds them.
void TestColumnChunkCodec::valuesDecodeToThemselves()
{
    QFETCH(Column, values);
    QFETCH(int, width);
    QCOMPARE(static_cast<int>(chooseCoding(values).width), width);
    const std::vector<unsigned char> blob = encodedWithEveryColumn(values);
    QCOMPARE(blob.size(), kChunkHeaderBytes + kChunkColumns * static_cast<std::size_t>(width) * values.size());
    const auto codings = readChunkHeader(blob, values.size(), blob.size());
    QVERIFY(codings);
    for (std::size_t c = 0; c < kChunkColumns; ++c) {
        Column decoded(values.size(), 0x5a5a5a5a);
        decodeColumn(blob, *codings, c, values.size(), decoded.data());
        QCOMPARE(decoded, values);
    }
}

void TestColumnChunkCodec::headerIsChecked_data()
{
    QTest::addColumn<int>("damage");
    QTest::addColumn<int>("rowsOff");
    QTest::addColumn<int>("sizeOff");
    QTest::addColumn<bool>("accepted");
    QTest::newRow("as written") << 0 << 0 << 0 << true;
    QTest::newRow("a row fewer than written") << 0 << -1 << 0 << false;
    QTest::newRow("a byte short") << 0 << 0 << -1 << false;
    QTest::newRow("a byte more") << 0 << 0 << 1 << false;
    QTest::newRow("the mark changed") << 1 << 0 << 0 << false;
    QTest::newRow("a width over 8") << 2 << 0 << 0 << false;
    QTest::newRow("cut inside the header") << 3 << 0 << 0 << false;
}

/// A header is read only when it is this layout's and makes the BLOB's size of the chunk's rows.
void TestColumnChunkCodec::headerIsChecked()
{
    QFETCH(int, damage);
    QFETCH(int, rowsOff);
    QFETCH(int, sizeOff);
    QFETCH(bool, accepted);
    const Column values{1, 2, 300, kNotMeasured};
    std::vector<unsigned char> blob = encodedWithEveryColumn(values);
    std::size_t headLength = blob.size();
    if (damage == 1)
        blob[0] = 'X';
    if (damage == 2)
        blob[8] = 9; // the first column's width
    if (damage == 3)
        headLength = kChunkHeaderBytes - 1;
    const auto codings = readChunkHeader(std::span(blob.data(), headLength), values.size() + static_cast<std::size_t>(rowsOff),
                                         blob.size() + static_cast<std::size_t>(sizeOff));
    QCOMPARE(codings.has_value(), accepted);
}

void TestColumnChunkCodec::eachColumnKeepsItsOwnValues_data()
{
    QTest::addColumn<bool>("layoutV2");
    QTest::newRow("layout v3: TTFT, TTLT and the states first") << false;
    QTest::newRow("layout v2, as an earlier version wrote it: the columns in order") << true;
}

/// Columns of different values and widths each decode to their own values, whatever order the layout
/// stores their codes in; v3 puts TTFT, TTLT and the states right after the header (a reader of those alone
/// reads the BLOB's head), and a chunk of v2 is still read.
void TestColumnChunkCodec::eachColumnKeepsItsOwnValues()
{
    QFETCH(bool, layoutV2);
    const std::size_t rows = 300;
    std::array<Column, kChunkColumns> values;
    for (std::size_t c = 0; c < kChunkColumns; ++c)
        for (std::size_t i = 0; i < rows; ++i) // column c's values 2^(4c) apart: widths of 2 to 8 bytes
            values[c].push_back(i % 11 == c ? kNotMeasured
                                            : static_cast<std::int64_t>(c)
                                        + static_cast<std::int64_t>((i * 7) % rows)
                                            * (std::int64_t { 1 } << std::min<std::size_t>(4 * c, 52)));
    std::array<std::span<const std::int64_t>, kChunkColumns> columns;
    for (std::size_t c = 0; c < kChunkColumns; ++c)
        columns[c] = values[c];
    std::vector<unsigned char> blob;
    encodeChunk(columns, blob);
    if (layoutV2) { // the same header under v2's mark, the codes moved into column order
        const auto v3 = readChunkHeader(blob, rows, blob.size());
        QVERIFY(v3);
        std::vector<unsigned char> v2(blob.begin(), blob.begin() + kChunkHeaderBytes);
        v2[6] = '2';
        for (std::size_t c = 0; c < kChunkColumns; ++c) {
            const auto from = blob.begin() + static_cast<std::ptrdiff_t>((*v3)[c].offset);
            v2.insert(v2.end(), from, from + static_cast<std::ptrdiff_t>((*v3)[c].width * rows));
        }
        blob = v2;
    }
    const auto codings = readChunkHeader(blob, rows, blob.size());
    QVERIFY(codings);
    if (!layoutV2) {
        QCOMPARE((*codings)[kTtftColumn].offset, std::uint64_t(kChunkHeaderBytes));
        QCOMPARE((*codings)[kTtltColumn].offset, kChunkHeaderBytes + (*codings)[kTtftColumn].width * rows);
        QCOMPARE((*codings)[kIdColumn].offset,
                 (*codings)[kStatesColumn].offset + (*codings)[kStatesColumn].width * rows);
    } else {
        QCOMPARE((*codings)[kIdColumn].offset, std::uint64_t(kChunkHeaderBytes));
    }
    std::set<int> widths;
    for (std::size_t c = 0; c < kChunkColumns; ++c) {
        widths.insert((*codings)[c].width);
        Column decoded(rows, 0x5a5a5a5a);
        decodeColumn(blob, *codings, c, rows, decoded.data());
        QCOMPARE(decoded, values[c]);
        // The column's own bytes alone, as a reader of a few columns reads them out of the BLOB.
        Column alone(rows, 0x5a5a5a5a);
        const ColumnCoding coding = (*codings)[c];
        decodeCodes(std::span(blob).subspan(coding.offset, coding.width * rows), coding, rows, alone.data());
        QCOMPARE(alone, values[c]);
    }
    QVERIFY2(widths.size() >= 5, "the columns take widths of their own");
}

QTEST_APPLESS_MAIN(TestColumnChunkCodec)
#include "tst_column_chunk_codec.moc"
