// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

#include <cstdint>
#include <vector>

/// \file chart_tickers.h
/// Axis labels through the same tested formatters as the tables and the CLI (core/model/duration_format.h), so
/// that "183 ms" on an axis is "183 ms" in a cell. Duration axes hold nanoseconds; time axes hold seconds
/// since an origin (a double cannot hold epoch nanoseconds exactly).

/// A tick's label: the duration formatter's number without the zeros a round tick does not need ("1.5 s",
/// "10 s", "250 ms"), and from a minute on only the units it has ("40 min", "1 h 30 min", "1 min 30 s"),
/// never "40 min 0 s".
QString durationTickLabel(double ns);

/// A linear duration axis in ns: ticks at 1-2-2.5-5 steps below a second, then at steps people count time
/// in (5, 10, 15, 30 s, 1, 2, 5, 10, 15, 20, 30 min, hours), labelled "250 ms", "1.5 s", "1 min 30 s", "40 min".
class DurationTicker : public QCPAxisTicker {
public:
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar, int precision) override;
    double getTickStep(const QCPRange &range) override;
};

/// A logarithmic duration axis in ns: ticks at round durations of their unit, powers of ten up to 10 s,
/// then 1 min, 10 min, 1 h, 10 h, 1 day, 10 days ("100 µs", "1 s", "1 min", "1 h"; powers of ten
/// would read "1 min 40 s" and "16 min 40 s"), every other one when they would crowd; sub-ticks at the
/// multiples of a tick below the next.
class LogDurationTicker : public QCPAxisTickerLog {
public:
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar, int precision) override;
    /// The round durations of the ladder, in ns, from 1 ns to 1,000 days.
    static const std::vector<double> &ladder();

protected:
    QVector<double> createTickVector(double tickStep, const QCPRange &range) override;
    QVector<double> createSubTickVector(int subTickCount, const QVector<double> &ticks) override;
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
    /// Dates tick where a clock does: on whole steps since 1970 (12:01:00, not 12:01:01 for a trace whose
    /// first request came at 12:00:01.3; days at midnight UTC), offsets on whole steps from the origin.
    QVector<double> createTickVector(double tickStep, const QCPRange &range) override;
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
