// SPDX-License-Identifier: GPL-3.0-or-later
// What reading a file leaves in the page cache: a window that was not cached is dropped once it is read,
// one that was cached stays (platform/cache_as_found.h). The cache is looked at here with mincore, apart
// from the class under test. Linux only; where a folder's cache cannot be emptied (tmpfs), the suite skips.

#include "ingest/input_file.h"
#include "platform/cache_as_found.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#if defined(__linux__)
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

using namespace lx;

Q_DECLARE_METATYPE(lx::InputCache)

namespace {

#if defined(__linux__)

constexpr std::uint64_t kWindowPages = 64;

std::uint64_t pageBytes() { return static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE)); }

/// Per window of `window` bytes: '.' none of its pages cached, 'C' all of them, '?' some.
QByteArray residency(int fd, std::uint64_t size, std::uint64_t window)
{
    QByteArray out;
    const std::uint64_t page = pageBytes();
    void *map = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED)
        return "mmap failed";
    std::vector<unsigned char> resident((size + page - 1) / page);
    if (::mincore(map, size, resident.data()) != 0)
        out = "mincore failed";
    ::munmap(map, size);
    if (!out.isEmpty())
        return out;
    for (std::uint64_t start = 0; start < resident.size(); start += window / page) {
        const std::uint64_t end = std::min<std::uint64_t>(resident.size(), start + window / page);
        std::uint64_t cached = 0;
        for (std::uint64_t p = start; p < end; ++p)
            cached += resident[p] & 1;
        out += cached == 0 ? '.' : cached == end - start ? 'C' : '?';
    }
    return out;
}

/// Reads the pages [first, last) with no read-ahead (the descriptor is set to random access).
bool readPageRange(int fd, std::uint64_t first, std::uint64_t last)
{
    std::vector<char> buffer(pageBytes());
    for (std::uint64_t p = first; p < last; ++p) {
        if (::pread(fd, buffer.data(), buffer.size(), static_cast<off_t>(p * buffer.size())) < 0)
            return false;
    }
    return true;
}

/// A file of `bytes` in a folder of the build tree (not /tmp, which may be a tmpfs), written, synced and
/// emptied from the cache, then open for reading; `file` stays null when the folder's cache cannot be
/// emptied.
struct ColdFile {
    explicit ColdFile(std::uint64_t bytes)
    {
        if (!dir.isValid())
            return;
        name = dir.filePath(QStringLiteral("trace.bin"));
        std::FILE *f = std::fopen(name.toLocal8Bit().constData(), "w+b"); // readable: mmap needs it
        if (!f)
            return;
        std::vector<char> data(bytes);
        // Bytes that do not compress: a file system that compresses would cache a whole extent for one page.
        std::uint64_t x = 0x9e3779b97f4a7c15ull;
        for (char &c : data) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            c = static_cast<char>(x);
        }
        const int fd = ::fileno(f);
        const std::uint64_t oneWindow = bytes + pageBytes(); // the whole file as one window
        const auto emptied = [&] { return ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0 && residency(fd, bytes, oneWindow) == "."; };
        const bool written = std::fwrite(data.data(), 1, data.size(), f) == data.size() && std::fflush(f) == 0
                             && ::fsync(fd) == 0;
        // Cold, and read through the cache: not so where reads go around it (O_DIRECT-like file systems).
        const bool cold = written && emptied() && readPageRange(fd, 0, 1) && residency(fd, bytes, oneWindow) != "." && emptied();
        std::fclose(f);
        if (cold)
            file = std::fopen(name.toLocal8Bit().constData(), "rb");
    }
    ~ColdFile()
    {
        if (file)
            std::fclose(file);
    }
    ColdFile(const ColdFile &) = delete;
    ColdFile &operator=(const ColdFile &) = delete;

    QTemporaryDir dir{QDir::currentPath() + QStringLiteral("/cache-XXXXXX")};
    QString name;
    std::FILE *file = nullptr;
};

constexpr const char *kNoColdFile = "no file here whose pages the cache holds and lets go of (a tmpfs, a read-only folder?)";

#endif

} // namespace

class TestCacheAsFound : public QObject {
    Q_OBJECT

private slots:
    void keepsTheCacheAsFound_data();
    void keepsTheCacheAsFound();
    void inputFileLeavesAColdFileCold_data();
    void inputFileLeavesAColdFileCold();
    void aPipeHasNoSize();
};

void TestCacheAsFound::keepsTheCacheAsFound_data()
{
    // Windows of 64 pages. `before`: per window, '.' not cached, 'C' cached, 's' one stray page cached (less
    // than the 1 in 32 a window needs to count as cached), 'H' its first half cached. The file is read from
    // its start for `readPages` pages (-1: all), `pagesARead` at a time, each read announced
    // (aboutToRead()); `readAhead` pages of the next window are read before the last read of a window, as
    // the kernel's read-ahead would. `after` is the cache then ('?': partly cached), `dropped` what went.
    QTest::addColumn<QByteArray>("before");
    QTest::addColumn<int>("lastWindowPages"); // the last window's pages: a file need not end on a window
    QTest::addColumn<int>("readPages");
    QTest::addColumn<int>("pagesARead");
    QTest::addColumn<int>("readAhead");
    QTest::addColumn<QByteArray>("after");
    QTest::addColumn<int>("droppedPages");

    QTest::newRow("cold, read whole") << QByteArray(".....") << 64 << -1 << 1 << 0 << QByteArray(".....") << 5 * 64;
    QTest::newRow("cached, read whole") << QByteArray("CCCCC") << 64 << -1 << 1 << 0 << QByteArray("CCCCC") << 0;
    QTest::newRow("first two cached") << QByteArray("CC...") << 64 << -1 << 1 << 0 << QByteArray("CC...") << 3 * 64;
    QTest::newRow("cached windows between") << QByteArray(".C.C.") << 64 << -1 << 1 << 0 << QByteArray(".C.C.") << 3 * 64;
    QTest::newRow("a stray page counts as not cached") << QByteArray(".s.") << 64 << -1 << 1 << 0 << QByteArray("...") << 3 * 64;
    QTest::newRow("short last window") << QByteArray("....") << 10 << -1 << 1 << 0 << QByteArray("....") << 3 * 64 + 10;
    QTest::newRow("one window shorter than a window") << QByteArray(".") << 5 << -1 << 1 << 0 << QByteArray(".") << 5;
    QTest::newRow("a half cached window is kept") << QByteArray(".H.") << 64 << -1 << 1 << 0 << QByteArray(".C.") << 2 * 64;
    // Looked at before the read: a read of several windows at once, or the kernel's read-ahead into the next
    // window, does not make a window read from the disk look cached.
    QTest::newRow("reads of several windows") << QByteArray("..C..") << 64 << -1 << 150 << 0 << QByteArray("..C..") << 4 * 64;
    QTest::newRow("read-ahead into the next window") << QByteArray("....") << 64 << -1 << 1 << 8 << QByteArray("....") << 4 * 64;
    // Only whole windows are dropped: the one the read stopped in keeps the pages read, the rest is not read.
    QTest::newRow("read stops inside the third window") << QByteArray(".....") << 64 << 2 * 64 + 32 << 1 << 0
                                                        << QByteArray("..?..") << 2 * 64;
    QTest::newRow("read stops at a window's end") << QByteArray("....") << 64 << 2 * 64 << 1 << 0 << QByteArray("....")
                                                  << 2 * 64;
}

void TestCacheAsFound::keepsTheCacheAsFound()
{
#if defined(__linux__)
    QFETCH(QByteArray, before);
    QFETCH(int, lastWindowPages);
    QFETCH(int, readPages);
    QFETCH(int, pagesARead);
    QFETCH(int, readAhead);
    QFETCH(QByteArray, after);
    QFETCH(int, droppedPages);

    const std::uint64_t page = pageBytes();
    const std::uint64_t window = kWindowPages * page;
    const std::uint64_t size = (before.size() - 1) * window + static_cast<std::uint64_t>(lastWindowPages) * page;
    ColdFile cold(size);
    if (!cold.file)
        QSKIP(kNoColdFile);
    const int fd = ::fileno(cold.file);
    QCOMPARE(::posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM), 0); // no read-ahead: exactly the pages read
    for (int w = 0; w < before.size(); ++w) {
        const std::uint64_t first = w * kWindowPages;
        if (before[w] == 'C')
            QVERIFY(readPageRange(fd, first, std::min<std::uint64_t>(first + kWindowPages, (size + page - 1) / page)));
        else if (before[w] == 's')
            QVERIFY(readPageRange(fd, first + 7, first + 8));
        else if (before[w] == 'H')
            QVERIFY(readPageRange(fd, first, first + kWindowPages / 2));
    }
    QByteArray partly = before;
    partly.replace('s', '?').replace('H', '?');
    QCOMPARE(residency(fd, size, window), partly);

    CacheAsFound cache(cold.file, size, window);
    const std::uint64_t pages = readPages < 0 ? (size + page - 1) / page : static_cast<std::uint64_t>(readPages);
    const std::uint64_t filePages = (size + page - 1) / page;
    for (std::uint64_t p = 0; p < pages;) {
        const std::uint64_t end = std::min<std::uint64_t>(pages, p + static_cast<std::uint64_t>(pagesARead));
        cache.aboutToRead(p * page, (end - p) * page);
        const std::uint64_t nextWindow = (end - 1) / kWindowPages * kWindowPages + kWindowPages;
        if (readAhead > 0 && end == nextWindow && nextWindow < filePages)
            QVERIFY(readPageRange(fd, nextWindow, std::min<std::uint64_t>(filePages, nextWindow + static_cast<std::uint64_t>(readAhead))));
        QVERIFY(readPageRange(fd, p, end));
        cache.readUpTo(std::min(size, end * page));
        p = end;
    }
    QCOMPARE(residency(fd, size, window), after);
    QCOMPARE(cache.droppedBytes(), static_cast<std::uint64_t>(droppedPages) * page);
#else
    QSKIP("the page cache is left as it is only on Linux");
#endif
}

void TestCacheAsFound::inputFileLeavesAColdFileCold_data()
{
    QTest::addColumn<bool>("cachedBefore");
    QTest::addColumn<InputCache>("cache");
    QTest::addColumn<QByteArray>("after");
    QTest::newRow("read from disk: dropped") << false << InputCache::AsFound << QByteArray(".");
    QTest::newRow("read from the cache: kept") << true << InputCache::AsFound << QByteArray("C");
    // The desktop's summary first, then its store: the second read finds the file in the cache.
    QTest::newRow("read again soon: kept") << false << InputCache::Keep << QByteArray("C");
}

void TestCacheAsFound::inputFileLeavesAColdFileCold()
{
#if defined(__linux__)
    QFETCH(bool, cachedBefore);
    QFETCH(InputCache, cache);
    QFETCH(QByteArray, after);
    const std::uint64_t size = 3 * 1024 * 1024 + 123; // one window of InputFile's, past its first read
    ColdFile cold(size);
    if (!cold.file)
        QSKIP(kNoColdFile);
    if (cachedBefore)
        QVERIFY(readPageRange(::fileno(cold.file), 0, (size + pageBytes() - 1) / pageBytes()));

    std::string why;
    auto input = InputFile::open(cold.name.toStdString(), &why, cache);
    QVERIFY2(input, why.c_str());
    std::vector<char> buffer(1 << 20);
    std::uint64_t total = 0;
    while (const std::size_t n = input->read(buffer.data(), buffer.size()))
        total += n;
    QCOMPARE(total, size);
    QVERIFY(input->error().empty());
    QCOMPARE(residency(::fileno(cold.file), size, size + pageBytes()), after);
#else
    QSKIP("the page cache is left as it is only on Linux");
#endif
}

// A pipe has no size: it was taken as 2^64 - 1 bytes (std::filesystem::file_size's error value), which
// made the import expect some 10^16 requests; it is 0 now, and nothing of it is looked up in the cache.
void TestCacheAsFound::aPipeHasNoSize()
{
#if defined(__linux__)
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string pipe = dir.filePath(QStringLiteral("trace.fifo")).toStdString();
    QCOMPARE(::mkfifo(pipe.c_str(), 0600), 0);
    const std::string text = "{\"id\":\"a\"}\n{\"id\":\"b\"}\n";
    std::thread writer([&] {
        if (std::FILE *f = std::fopen(pipe.c_str(), "wb")) {
            std::fwrite(text.data(), 1, text.size(), f);
            std::fclose(f);
        }
    });
    std::string why;
    auto input = InputFile::open(pipe, &why);
    std::string read;
    if (input) {
        std::vector<char> buffer(1 << 16);
        while (const std::size_t n = input->read(buffer.data(), buffer.size()))
            read.append(buffer.data(), n);
    }
    if (!input) { // the writer waits for a reader: give it one, so that the test fails instead of hanging
        const int unblock = ::open(pipe.c_str(), O_RDONLY | O_NONBLOCK);
        writer.join();
        ::close(unblock);
    } else {
        writer.join();
    }
    QVERIFY2(input, why.c_str());
    QCOMPARE(input->fileSize(), std::uint64_t{0});
    QCOMPARE(read, text);
    QVERIFY(input->error().empty());
#else
    QSKIP("pipes are tried on Linux");
#endif
}

QTEST_GUILESS_MAIN(TestCacheAsFound)
#include "tst_cache_as_found.moc"
