// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

#include <cstdint>

/// \file chart_tickers.h
/// Axis labels through the same tested formatters as the tables and the CLI (core/model/duration_format.h), so
/// that "183 ms" on an axis is "183 ms" in a cell. Duration axes hold nanoseconds; time axes hold seconds
/// since an origin (a double cannot hold epoch nanoseconds exactly).

/// A linear duration axis in ns: ticks at 1-2-2.5-5 steps below a second, then at steps people count time
/// in (5, 10, 15, 30 s, 1, 2, 5, 10, 15, 30 min, hours), labelled "250 ms", "1.50 s", "1 min 30 s".
class DurationTicker : public QCPAxisTicker {
public:
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar, int precision) override;
    double getTickStep(const QCPRange &range) override;
};

/// A logarithmic duration axis in ns: ticks at powers of ten, labelled as durations ("100 µs", "1 s").
class LogDurationTicker : public QCPAxisTickerLog {
public:
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar, int precision) override;
};

/// A time axis in seconds since `originNs`: labelled as UTC wall-clock times (12:04:05.250, with the
/// date on the first tick), or as offsets from the start ("+1 min 30 s") when the trace's times are
/// relative to an unknown origin.
class TimeTicker : public QCPAxisTicker {
public:
    TimeTicker(std::int64_t originNs, bool relative);
    void setOrigin(std::int64_t originNs, bool relative);
    std::int64_t originNs() const { return m_originNs; }

protected:
    double getTickStep(const QCPRange &range) override;
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar, int precision) override;

private:
    std::int64_t m_originNs;
    bool m_relative;
    double m_step = 1;
};

/// Percent axis from fractions 0..1: "0%", "25%", "100%".
class ShareTicker : public QCPAxisTicker {
public:
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar, int precision) override;
};
