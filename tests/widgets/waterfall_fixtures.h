// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The traces the waterfall's suites draw (tst_waterfall_view, tst_waterfall_density_frames).

#include "analysis/waterfall_data.h"
#include "store/store.h"

#include <QByteArray>
#include <QtGlobal>

#include <memory>
#include <string>

namespace lxtest {

inline constexpr qint64 kWaterfallT0 = 1'735'732'800'000'000'000LL;
inline constexpr qint64 kMs = 1'000'000;

/// `count` requests in the durations form, one starting every `everyMs`, each lasting longer than the one
/// before it by a little, so that they overlap and the lanes fill.
inline QByteArray waterfallTrace(int count, int everyMs)
{
    QByteArray out;
    for (int i = 0; i < count; ++i) {
        const int queue = (i * 37) % 50, decode = 100 + (i * 53) % 200;
        out += "{\"id\":\"q" + QByteArray::number(i) + "\",\"start_ns\":"
               + QByteArray::number(kWaterfallT0 + qint64(i) * everyMs * kMs) + ",\"network_ms\":3,\"queue_ms\":"
               + QByteArray::number(queue) + ",\"prefill_ms\":20,\"decode_ms\":" + QByteArray::number(decode)
               + ",\"e2e_ms\":" + QByteArray::number(3 + queue + 20 + decode + 5) + "}\n";
    }
    return out;
}

/// The waterfall's data of every request in `store`, as the window loads it; null (said why) on failure.
inline std::shared_ptr<const lx::WaterfallData> loadWaterfallOf(const lx::Store &store)
{
    std::string error;
    auto data = lx::loadWaterfall(store, {}, nullptr, &error);
    if (!data)
        qWarning("loadWaterfall: %s", error.c_str());
    return data;
}

} // namespace lxtest
