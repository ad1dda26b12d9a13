// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>

/// \file trace_output.h
/// A byte sink for generated traces that optionally compresses into one zstd frame on the way, so a
/// million-request benchmark input never sits in memory whole. The zstd headers stay in the .cpp: the
/// CLI that uses this needs no zstd include path.

namespace lx::sim {

/// Writes bytes to a std::ostream, plain or as a zstd stream (ZSTD_compressStream2).
class TraceOutput {
public:
    /// \param out receives the bytes; open it in binary mode when compressing.
    /// \param compress compress with zstd at \a level (3 is zstd's default).
    TraceOutput(std::ostream &out, bool compress, int level = 3);
    ~TraceOutput();
    TraceOutput(const TraceOutput &) = delete;
    TraceOutput &operator=(const TraceOutput &) = delete;

    /// Writes (or compresses and writes) \a data. False once anything failed; see error().
    bool write(std::string_view data);
    /// Ends the zstd frame and flushes the stream. Call once, after the last write().
    bool finish();

    /// Bytes handed to the stream so far (compressed bytes when compressing).
    std::uint64_t bytesWritten() const { return m_bytesWritten; }
    /// Bytes given to write() so far.
    std::uint64_t bytesIn() const { return m_bytesIn; }
    /// Why the last call failed; empty when none did.
    const std::string &error() const { return m_error; }

private:
    bool compress(std::string_view data, bool end);
    bool put(const char *data, std::size_t size);

    struct Zstd;
    std::ostream &m_out;
    std::unique_ptr<Zstd> m_zstd;
    std::uint64_t m_bytesWritten = 0;
    std::uint64_t m_bytesIn = 0;
    std::string m_error;
};

} // namespace lx::sim
