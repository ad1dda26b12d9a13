// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the waterfall suites share: traces made by hand or at random, the store read back by an independent
// query, and the sorts and bar orders the views ask for.

#include "store/sqlite_util.h"
#include "test_support.h"
#include "analysis/waterfall_data.h"
#include "analysis/waterfall_rows.h"

#include <QByteArray>

#include <algorithm>
#include <array>
#include <memory>
#include <random>
#include <span>
#include <vector>

namespace lxtest::waterfall {

using namespace lx;

inline constexpr qint64 T0 = 1'700'000'000'000'000'000LL;
inline constexpr qint64 MS = 1'000'000;

/// One timestamps-form line with stamps given as ms after T0 + startMs (-1 = absent).
inline QByteArray line(const QByteArray &id, qint64 startMs, std::array<qint64, kStampCount> offsetsMs, const char *extra = "")
{
    static const char *names[] = {"t_client_send_ns", "t_server_recv_ns", "t_preprocess_done_ns", "t_sched_ns",
                                  "t_first_token_ns", "t_last_token_ns", "t_server_send_ns", "t_client_recv_ns"};
    QByteArray out = "{\"id\":\"" + id + "\"" + extra;
    for (int i = 0; i < kStampCount; ++i) {
        if (offsetsMs[static_cast<std::size_t>(i)] >= 0)
            out += QByteArray(",\"") + names[i] + "\":" + QByteArray::number(T0 + (startMs + offsetsMs[static_cast<std::size_t>(i)]) * MS);
    }
    return out + "}\n";
}

/// Requests with random stamps, some missing, some starting at the same time, two models.
inline QByteArray randomTrace(int count, unsigned seed)
{
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> step(0, 40), coin(0, 3);
    QByteArray out;
    qint64 start = 0;
    for (int i = 0; i < count; ++i) {
        start += coin(rng) == 0 ? 0 : step(rng); // a quarter start with the one before
        std::array<qint64, kStampCount> t{};
        qint64 at = 0;
        for (qint64 &stamp : t) {
            at += step(rng) * (coin(rng) + 1);
            stamp = at;
        }
        if (coin(rng) == 0) { // server-side only: no network
            t[0] = -1;
            t[7] = -1;
        }
        if (coin(rng) == 0)
            t[2] = -1; // no preprocess: queue from server receive
        if (coin(rng) == 0)
            t[3] = -1; // no sched: queue and prefill unattributed
        out += line("r" + QByteArray::number(i), start, t, coin(rng) < 2 ? ",\"model\":\"m1\"" : ",\"model\":\"m2\"");
    }
    return out;
}

/// The store's placed requests as the test reads them itself, in id order.
struct Reference {
    qint64 id, start, e2e;
    std::array<qint64, kSegmentCount> segments;
};

inline std::vector<Reference> readReference(const Store &store, const char *where = "1")
{
    Statement q(store.db(), std::string("SELECT id, start_ns, e2e_ns, network_ns, preprocess_ns, queue_ns, prefill_ns,"
                                        " decode_ns, postprocess_ns, unattributed_ns FROM requests r WHERE start_ns IS NOT NULL AND ")
                                + where + " ORDER BY id");
    std::vector<Reference> out;
    while (q.step() == SQLITE_ROW) {
        Reference r{};
        r.id = sqlite3_column_int64(q.get(), 0);
        r.start = columnOr(q.get(), 1);
        r.e2e = columnOr(q.get(), 2);
        for (int s = 0; s < kSegmentCount; ++s)
            r.segments[static_cast<std::size_t>(s)] = columnOr(q.get(), 3 + s);
        out.push_back(r);
    }
    return out;
}

inline std::shared_ptr<const WaterfallData> load(const Store &store, const RequestFilter &filter = {})
{
    std::string error;
    auto data = loadWaterfall(store, filter, nullptr, &error);
    if (!data)
        qWarning("loadWaterfall: %s", error.c_str());
    return data;
}

/// The largest number of intervals open at one time: what no packing can go below.
inline std::uint32_t maxConcurrency(std::span<const std::int64_t> starts, std::span<const std::int64_t> ends)
{
    std::vector<std::pair<std::int64_t, int>> events;
    for (std::size_t i = 0; i < starts.size(); ++i) {
        events.emplace_back(starts[i], +1);
        events.emplace_back(std::max(ends[i], starts[i]), -1);
    }
    std::sort(events.begin(), events.end()); // an end before a start at the same time: they may touch
    int open = 0, most = 0;
    for (const auto &[time, delta] : events) {
        open += delta;
        most = std::max(most, open);
    }
    return static_cast<std::uint32_t>(most);
}

/// No two intervals of a lane overlap (touching is fine).
bool lanesDisjoint(std::span<const std::int64_t> starts, std::span<const std::int64_t> ends,
                   std::span<const std::uint32_t> lanes)
{
    for (std::size_t i = 0; i < starts.size(); ++i) {
        for (std::size_t j = i + 1; j < starts.size(); ++j) {
            if (lanes[i] == lanes[j] && starts[j] < ends[i] && starts[i] < ends[j])
                return false;
        }
    }
    return true;
}

/// The order of a request's parts in its bar, worked out here: pipeline order, with unattributed moved
/// before the first server segment that is not measured (where the missing time was spent), else last.
inline std::vector<int> barOrder(const WaterfallData &data, std::size_t i)
{
    std::vector<int> order;
    bool placed = false;
    for (int s = 0; s < int(Segment::Unattributed); ++s) {
        if (!placed && s != int(Segment::Network) && !isMeasured(data.segment(i, Segment(s)))) {
            order.push_back(int(Segment::Unattributed));
            placed = true;
        }
        order.push_back(s);
    }
    if (!placed)
        order.push_back(int(Segment::Unattributed));
    return order;
}

inline WaterfallSort sortBy(WaterfallSort::Key key, bool descending, Segment segment = Segment::Network)
{
    WaterfallSort s;
    s.key = key;
    s.segment = segment;
    s.descending = descending;
    return s;
}


} // namespace lxtest::waterfall
