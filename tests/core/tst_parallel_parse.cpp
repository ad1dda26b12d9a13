// SPDX-License-Identifier: GPL-3.0-or-later
// Native JSON lines parsed on several threads (ingest/parallel_parse.h) store exactly what the
// single-threaded read stores: the same requests in the same order, the same lines, the same rejections
// in the same order, whatever the block size; and a line over the cap is refused without being held.

#include "ingest/importer.h"
#include "ingest/line_blocks.h"
#include "ingest/line_reader.h"
#include "ingest/input_file.h"
#include "store/store.h"
#include "test_support.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace lx;

namespace {

QByteArray record(int i, const char *extra = "")
{
    const qint64 t = 1'700'000'000'000'000'000LL + qint64(i) * 1'000'000;
    return "{\"id\":\"r" + QByteArray::number(i) + "\",\"t_server_recv_ns\":" + QByteArray::number(t)
           + ",\"t_first_token_ns\":" + QByteArray::number(t + 5'000'000) + ",\"t_last_token_ns\":"
           + QByteArray::number(t + 9'000'000) + ",\"output_tokens\":5" + extra + "}";
}

/// Valid records with, every few lines, a malformed one, a repeated id, a blank line and a CRLF end.
QByteArray mixed(int lines)
{
    QByteArray out;
    for (int i = 1; i <= lines; ++i) {
        if (i % 7 == 0)
            out += "{\"id\":\"broken\",\"t_server_recv_ns\":";
        else if (i % 11 == 0)
            out += record(i - 3); // an id used a few lines before
        else if (i % 13 == 0)
            out += "   ";
        else
            out += record(i, i % 5 == 0 ? ",\"region\":\"eu\"" : "");
        out += i % 3 == 0 ? "\r\n" : "\n";
    }
    return out;
}

struct Outcome {
    FileImport file;
    QString requests, details, rejected;
};

Outcome importWith(const std::string &path, unsigned parsers, std::size_t blockBytes, std::size_t maxLine = 0, std::size_t batchSize = 4096)
{
    std::string error;
    auto store = Store::openTemporary(&error);
    Outcome o;
    if (!store)
        return o;
    ImportOptions options;
    options.parserThreads = parsers;
    options.parseBlockBytes = blockBytes;
    options.maxLineBytes = maxLine;
    options.batchSize = batchSize;
    options.rejectionSamples = 50;
    const auto files = importFiles(*store, {path}, options);
    o.file = files.front();
    o.requests = lxtest::dump(store->db(), "SELECT * FROM requests ORDER BY id");
    o.details = lxtest::dump(store->db(), "SELECT * FROM request_details ORDER BY request_id");
    o.rejected = lxtest::dump(store->db(), "SELECT line, reason, excerpt FROM rejected ORDER BY id");
    return o;
}

} // namespace

class TestParallelParse : public QObject {
    Q_OBJECT

private slots:
    void sameAsOneThread_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("blockBytes");
        QTest::addColumn<bool>("compress");
        const QByteArray tidy = [] {
            QByteArray out;
            for (int i = 1; i <= 300; ++i)
                out += record(i) + "\n";
            return out;
        }();
        QTest::newRow("tidy, 4 MiB blocks") << tidy << 0 << false;
        QTest::newRow("tidy, blocks shorter than a line") << tidy << 40 << false;
        QTest::newRow("mixed, 1 KiB blocks") << mixed(400) << 1024 << false;
        QTest::newRow("mixed, 16-byte blocks") << mixed(120) << 16 << false;
        QTest::newRow("byte-order mark, no final line end") << QByteArray("\xEF\xBB\xBF") + mixed(50).trimmed() << 300 << false;
        QTest::newRow("last line malformed, unterminated") << mixed(60) + "{\"id\":" << 500 << false;
        QTest::newRow("zstd") << mixed(400) << 2048 << true;
    }

    void sameAsOneThread()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, blockBytes);
        QFETCH(bool, compress);
        if (compress) {
            text = lxtest::zstdCompress(text);
            if (text.isEmpty())
                QSKIP("the zstd command line tool is not installed");
        }
        QTemporaryDir dir;
        const std::string path = lxtest::writeFile(dir, compress ? QStringLiteral("t.jsonl.zst") : QStringLiteral("t.jsonl"), text);
        const Outcome one = importWith(path, 1, 0);
        const Outcome many = importWith(path, 3, std::size_t(blockBytes));
        QVERIFY2(one.file.accepted > 0, lxtest::describe(one.file).constData());
        QCOMPARE(many.file.accepted, one.file.accepted);
        QCOMPARE(many.file.rejected, one.file.rejected);
        QCOMPARE(many.file.outcome, one.file.outcome);
        QCOMPARE(many.file.firstRejections.size(), one.file.firstRejections.size());
        for (std::size_t i = 0; i < one.file.firstRejections.size(); ++i) {
            QCOMPARE(many.file.firstRejections[i].line, one.file.firstRejections[i].line);
            QCOMPARE(many.file.firstRejections[i].reason, one.file.firstRejections[i].reason);
        }
        QCOMPARE(many.requests, one.requests);
        QCOMPARE(many.details, one.details);
        QCOMPARE(many.rejected, one.rejected);
    }

    // A block holds more records than a batch was made for: the parser grows the batch, the keys of its
    // texts (given in file order for the writer) with it. They once stayed at the batch's size, and the
    // records past it wrote beyond them (the address sanitizer's build caught it).
    void blocksOfMoreRecordsThanABatch_data()
    {
        QTest::addColumn<int>("batchSize");
        for (int size : {1, 16, 299})
            QTest::addRow("batches of %d", size) << size;
    }

    void blocksOfMoreRecordsThanABatch()
    {
        QFETCH(int, batchSize);
        QByteArray text;
        for (int i = 1; i <= 300; ++i)
            text += record(i, i % 3 ? ",\"model\":\"a\",\"region\":\"eu\"" : ",\"model\":\"b\"") + "\n";
        QTemporaryDir dir;
        const std::string path = lxtest::writeFile(dir, QStringLiteral("t.jsonl"), text);
        const Outcome one = importWith(path, 1, 0);
        const Outcome many = importWith(path, 2, 0, 0, std::size_t(batchSize)); // one 4 MiB block: all 300
        QCOMPARE(many.file.accepted, qint64(300));
        QCOMPARE(many.requests, one.requests);
        QCOMPARE(many.details, one.details);
    }

    // The single-threaded read looks a record's id up while it parses the next one (importer.cpp): a
    // repeated id is still refused at its line, before the rejections that follow it, at every batch edge.
    void repeatedIdsAtTheBatchesEdges_data()
    {
        QTest::addColumn<int>("batchSize");
        for (int size : {1, 2, 3, 4, 5, 4096})
            QTest::addRow("batches of %d", size) << size;
    }

    void repeatedIdsAtTheBatchesEdges()
    {
        QFETCH(int, batchSize);
        const QByteArray broken = "{\"id\":\"x\",\"t_server_recv_ns\":";
        const QByteArray text = record(1) + "\n" + record(2) + "\n" + record(3) + "\n" + record(1) + "\n" + record(5) + "\n"
                                + record(5) + "\n" + record(5) + "\n" + broken + "\n" + record(2) + "\n" + broken + "\n"
                                + record(11) + "\n" + record(11);
        QTemporaryDir dir;
        const std::string path = lxtest::writeFile(dir, QStringLiteral("repeats.jsonl"), text);
        const Outcome one = importWith(path, 1, 0, 0, std::size_t(batchSize));
        QCOMPARE(one.file.accepted, qint64(5));
        QList<qint64> lines;
        for (const auto &r : one.file.firstRejections)
            lines << r.line;
        QCOMPARE(lines, (QList<qint64>{4, 6, 7, 8, 9, 10, 12}));
        QVERIFY(one.file.firstRejections[0].reason.find("duplicate id \"r1\"") != std::string::npos);
        QVERIFY(one.file.firstRejections[6].reason.find("duplicate id \"r11\"") != std::string::npos);
        QCOMPARE(one.details.split(QLatin1Char('\n')).size(), 5);
        QVERIFY(one.details.contains(QStringLiteral("|r11|")) && one.details.contains(QStringLiteral("|r5|")));
        const Outcome many = importWith(path, 3, 64);
        QCOMPARE(one.requests, many.requests);
        QCOMPARE(one.details, many.details);
        QCOMPARE(one.rejected, many.rejected);
    }

    void truncatedZstdSaysCutOff()
    {
        // Past the line reader's first 1 MiB: the rest is decompressed straight into the blocks.
        const QByteArray compressed = lxtest::zstdCompress(mixed(12000));
        if (compressed.isEmpty())
            QSKIP("the zstd command line tool is not installed");
        QTemporaryDir dir;
        const std::string path = lxtest::writeFile(dir, QStringLiteral("cut.jsonl.zst"), compressed.left(compressed.size() * 2 / 3));
        const Outcome one = importWith(path, 1, 0);
        const Outcome many = importWith(path, 2, 4096);
        QCOMPARE(one.file.outcome, FileImport::Outcome::Truncated);
        QCOMPARE(many.file.outcome, FileImport::Outcome::Truncated);
        QCOMPARE(many.rejected, one.rejected);
        QCOMPARE(many.details, one.details);
    }

    /// A plain file that ends inside a record (copied while it was written) is truncated, as a cut zstd stream
    /// is, on either path: its last line rejected as cut off, the records before it kept. It exited 0 as
    /// "complete", its last line rejected as malformed JSON. A last line read whole, or a malformed line
    /// with its line end, is no cut; nor is a rejected unterminated line of a format whose line holds many
    /// records (CSV here, whose header the lines need: read on one thread).
    void plainFileEndingInsideALine_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("cut");
        QTest::newRow("cut inside a record")
            << mixed(300) + "{\"id\":\"late\",\"t_client_s" << QStringLiteral("t.jsonl") << true;
        QTest::newRow("cut inside a string") << mixed(300) + "{\"id\":\"la" << QStringLiteral("t.jsonl") << true;
        QTest::newRow("last record whole, no line end") << mixed(300).trimmed() << QStringLiteral("t.jsonl") << false;
        QTest::newRow("malformed last line, with its line end") << mixed(300) + "{\"id\":\n"
                                                                << QStringLiteral("t.jsonl") << false;
        QTest::newRow("CSV, its last row short")
            << QByteArray("id,start_ns,e2e_ms\na,1700000000000000000,12\nb,1700000000100000000")
            << QStringLiteral("t.csv") << false;
    }
    void plainFileEndingInsideALine()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, name);
        QFETCH(bool, cut);
        QTemporaryDir dir;
        const std::string path = lxtest::writeFile(dir, name, text);
        const qint64 lines = text.count('\n') + (text.endsWith('\n') ? 0 : 1);
        for (const unsigned parsers : { 1u, 2u }) {
            const Outcome o = importWith(path, parsers, 1024);
            QVERIFY2(o.file.accepted > 0, lxtest::describe(o.file).constData());
            QCOMPARE(o.file.outcome, cut ? FileImport::Outcome::Truncated : FileImport::Outcome::Complete);
            QCOMPARE(o.file.lastLineCut, cut ? lines : 0);
            if (!cut)
                continue;
            QVERIFY2(o.file.message.starts_with("truncated: the file ends inside line " + std::to_string(lines)),
                     o.file.message.c_str());
            // The rejected table's last row is the cut line, with why.
            const QString lastRejection = o.rejected.split(QLatin1Char('\n'), Qt::SkipEmptyParts).constLast();
            QVERIFY2(
                lastRejection.startsWith(QString::number(lines) + QStringLiteral("|the file ends inside this line")),
                qPrintable(lastRejection));
            QVERIFY(o.file.failed()); // the CLI's exit status 2, as for a cut zstd stream
        }
    }

    void lineOverTheCapIsRefusedUnread_data()
    {
        QTest::addColumn<int>("longLine");  // 1-based line that is too long
        QTest::addColumn<int>("lines");
        QTest::newRow("first line") << 1 << 5;
        QTest::newRow("a middle line") << 3 << 6;
        QTest::newRow("the last line, unterminated") << 4 << 4;
    }

    void lineOverTheCapIsRefusedUnread()
    {
        QFETCH(int, longLine);
        QFETCH(int, lines);
        QByteArray text;
        for (int i = 1; i <= lines; ++i) {
            text += i == longLine ? record(i, (",\"pad\":\"" + QByteArray(5000, 'x') + "\"").constData()) : record(i);
            if (i < lines)
                text += '\n';
        }
        QTemporaryDir dir;
        const std::string path = lxtest::writeFile(dir, QStringLiteral("long.jsonl"), text);
        const Outcome o = importWith(path, 2, 256, 1000);
        QCOMPARE(o.file.accepted, qint64(lines - 1));
        QCOMPARE(o.file.rejected, qint64(1));
        QCOMPARE(o.file.firstRejections.at(0).line, qint64(longLine));
        QCOMPARE(o.file.firstRejections.at(0).reason, std::string("line longer than 1000 bytes: not read"));
        // The lines after it keep their numbers.
        QVERIFY2(o.details.contains(QStringLiteral("|%1|").arg(lines == longLine ? lines - 1 : lines)), qPrintable(o.details));
    }

    /// The duplicate-id set is sized from the first block: its lines in proportion to the file, an eighth
    /// more; the block's own count when it is the whole file; nothing from nothing.
    void linesExpectedFromTheFirstBlock_data()
    {
        QTest::addColumn<qint64>("lines");
        QTest::addColumn<bool>("endsInput");
        QTest::addColumn<quint64>("bytesRead");
        QTest::addColumn<quint64>("fileSize");
        QTest::addColumn<quint64>("expected");
        QTest::newRow("a tenth read") << qint64(8000) << false << quint64(4'000'000) << quint64(40'000'000) << quint64(90'000);
        QTest::newRow("10M of 560 bytes") << qint64(7490) << false << quint64(4'194'304) << quint64(5'607'529'513) << quint64(11'265'384);
        QTest::newRow("the whole file") << qint64(12) << true << quint64(600) << quint64(600) << quint64(12);
        QTest::newRow("nothing read yet") << qint64(0) << false << quint64(0) << quint64(1000) << quint64(0);
        QTest::newRow("an oversized first line") << qint64(1) << false << quint64(4096) << quint64(1 << 20) << quint64(0);
    }

    void linesExpectedFromTheFirstBlock()
    {
        QFETCH(qint64, lines);
        QFETCH(bool, endsInput);
        QFETCH(quint64, bytesRead);
        QFETCH(quint64, fileSize);
        QFETCH(quint64, expected);
        LineBlock first;
        first.lines = lines;
        first.endsInput = endsInput;
        first.oversizedLine = QByteArray(QTest::currentDataTag()).contains("oversized") ? 1 : 0; // as the reader makes it
        QCOMPARE(linesExpected(first, bytesRead, fileSize), expected);
    }

    void blocksKeepLineNumbers_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("blockBytes");
        QTest::addColumn<QList<qint64>>("linesBefore"); // of each block
        QTest::addColumn<bool>("headFirst"); // the sniffers' head() read before the blocks, as an import does
        QTest::addColumn<bool>("compress");
        QTest::newRow("one block") << QByteArray("a\nb\nc\n") << 100 << QList<qint64>{0} << false << false;
        QTest::newRow("a line per block") << QByteArray("aaaaaaaaaaaaaaaaaa\nbbbbbbbbbbbbbbbbbb\ncc") << 16 << QList<qint64>{0, 1, 2} << false << false;
        QTest::newRow("byte-order mark dropped") << QByteArray("\xEF\xBB\xBFxxxxxxxxxxxxxxx\ny\n") << 16 << QList<qint64>{0, 1} << false << false;
        QTest::newRow("blank lines and CRLF counted") << QByteArray("a\r\n\n\nbbbbbbbbbbbbbbbbbbbb\r\n\nc") << 16 << QList<qint64>{0, 3, 4, 5} << false << false;
        // The head is handed out from the line reader's buffer, the rest read straight into the blocks.
        const QByteArray many = [] {
            QByteArray out;
            for (int i = 0; i < 2000; ++i)
                out += QByteArray(i % 50, 'x') + "\n";
            return out;
        }();
        QList<qint64> before;
        for (qint64 at = 0, lines = 0; at < many.size();) {
            // Blocks of about 4000 bytes, cut after their last line end.
            const qint64 cut = many.lastIndexOf('\n', std::min<qint64>(at + 4000, many.size()) - 1) + 1;
            before << lines;
            lines += many.mid(at, cut - at).count('\n');
            at = cut;
        }
        QTest::newRow("head read first, then straight into blocks") << many << 4000 << before << true << false;
        QTest::newRow("head read first, one block") << many << (1 << 20) << QList<qint64>{0} << true << false;
        // zstd decompressed straight into the blocks, in pieces of whatever size the room left asks for.
        QTest::newRow("zstd, head read first") << many << 4000 << before << true << true;
    }

    void blocksKeepLineNumbers()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, blockBytes);
        QFETCH(QList<qint64>, linesBefore);
        QFETCH(bool, headFirst);
        QFETCH(bool, compress);
        const QByteArray stored = compress ? lxtest::zstdCompress(text) : text;
        if (stored.isEmpty())
            QSKIP("the zstd command line tool is not installed");
        QTemporaryDir dir;
        const std::string path = lxtest::writeFile(dir, compress ? QStringLiteral("b.txt.zst") : QStringLiteral("b.txt"), stored);
        std::string why;
        auto input = InputFile::open(path, &why);
        QVERIFY(input);
        LineReader lines(*input, 1000); // a buffer smaller than the longer inputs: the head holds part of them
        if (headFirst)
            QVERIFY(!lines.head().empty());
        LineBlockReader blocks(lines, std::size_t(blockBytes));
        LineBlock block;
        QList<qint64> seen;
        QByteArray joined;
        qint64 lineCount = 0;
        while (blocks.next(block)) {
            QCOMPARE(block.linesBefore, lineCount);
            lineCount += block.lines;
            if (block.size == 0)
                continue;
            seen << block.linesBefore;
            const QByteArray bytes(block.padded().data(), qsizetype(block.size));
            // Each block counts its lines: its line ends, and the input's last line without one.
            QCOMPARE(block.lines, bytes.count('\n') + (bytes.endsWith('\n') ? 0 : 1));
            joined += bytes;
        }
        QCOMPARE(seen, linesBefore);
        const QByteArray content = text.startsWith("\xEF\xBB\xBF") ? text.mid(3) : text;
        QCOMPARE(joined, content);
        QCOMPARE(lineCount, content.count('\n') + (content.endsWith('\n') ? 0 : 1));
    }
};

QTEST_GUILESS_MAIN(TestParallelParse)
#include "tst_parallel_parse.moc"
