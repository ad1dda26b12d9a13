// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "background_job.h"
#include "filter/request_filter.h"

#include <QObject>
#include <QStringList>

#include <memory>
#include <string>

/// Writes the incident report of the current filter (.html, self-contained, or .md with the charts as
/// PNG files beside it), the same document as `latency-explorer-cli report --format html|md`. The analysis
/// and the charts' data are computed on a worker; only the drawing of the charts runs on the UI thread.
class IncidentExport : public QObject {
    Q_OBJECT

public:
    explicit IncidentExport(QObject *parent = nullptr);

    /// Starts writing `path`; false (with the reason) when one is running or the suffix is not .html/.md.
    /// `filterStatement` is the filter in words (FilterBar::statement()), which the report states.
    bool start(const std::string &storeFile, const lx::RequestFilter &filter, const QString &filterStatement,
               const QStringList &sloTargets, const QString &path, QString *error);
    bool running() const { return m_job.running(); }

signals:
    /// `error` is empty on success.
    void finished(const QString &path, const QString &error);

private:
    struct Computed; ///< what the worker hands back
    BackgroundJob<std::shared_ptr<Computed>> m_job{this};
};
