// SPDX-License-Identifier: GPL-3.0-or-later
#include "incident_export.h"

#include "analysis/diagnosis.h"
#include "chart_render.h"
#include "load_chart_text.h"
#include "report/incident_report.h"
#include "store/store.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <memory>

struct IncidentExport::Computed {
    lx::Diagnosis diagnosis;
    std::vector<ChartData> charts;
    QString error;
};

namespace {

bool writeBytes(const QString &path, const std::string &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
           file.write(bytes.data(), qint64(bytes.size())) == qint64(bytes.size()) && file.flush();
}

} // namespace

IncidentExport::IncidentExport(QObject *parent)
    : QObject(parent)
{
}

bool IncidentExport::start(const std::string &storeFile, const lx::RequestFilter &filter,
                           const QString &filterStatement, const QStringList &sloTargets, const QString &path,
                           QString *error)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (running()) {
        *error = tr("A report is being written already");
        return false;
    }
    if (suffix != QLatin1String("html") && suffix != QLatin1String("md")) {
        *error = tr("%1: the report is written as .html or .md").arg(path);
        return false;
    }
    lx::DiagnosisOptions options;
    for (const QString &text : sloTargets) {
        std::string why;
        if (auto target = lx::parseSlo(text.toStdString(), &why))
            options.slos.push_back(std::move(*target));
    }
    const auto compute = [filter, options, statement = filterStatement.toStdString()](const lx::Store &store,
                                                                                      const std::atomic<bool> &) {
        auto computed = std::make_shared<Computed>();
        computed->diagnosis = lx::diagnose(store, filter, options);
        computed->diagnosis.report.filter = statement;
        for (ChartKind kind : reportChartKinds())
            computed->charts.push_back(computeChartData(kind, store, filter));
        return computed;
    };
    const auto unreadable = [](const std::string &why) {
        auto computed = std::make_shared<Computed>();
        computed->error = QString::fromStdString(why);
        return computed;
    };
    const auto write = [this, path, suffix](const std::shared_ptr<Computed> &computed) {
        if (!computed->error.isEmpty()) {
            emit finished(path, computed->error);
            return;
        }
        lx::IncidentReport incident;
        incident.report = &computed->diagnosis.report;
        incident.load = &computed->diagnosis.load;
        incident.slos = computed->diagnosis.slos;
        incident.findings = computed->diagnosis.findings;
        incident.figures = renderReportFigures(computed->charts);
        incident.widthControl = loadtext::windowControl().toStdString();
        bool written = false;
        if (suffix == QLatin1String("html")) {
            written = writeBytes(path, lx::incidentReportHtml(incident));
        } else {
            const QFileInfo info(path);
            const std::string base = info.dir().filePath(info.completeBaseName()).toStdString();
            written = writeBytes(path, lx::incidentReportMarkdown(incident, base));
            for (const auto &[figurePath, bytes] : lx::incidentFigureFiles(incident, base))
                written = written && writeBytes(QString::fromStdString(figurePath), bytes);
        }
        emit finished(path, written ? QString() : tr("%1: could not be written").arg(path));
    };
    m_job.start(onOwnStore(storeFile, compute, unreadable), write);
    return true;
}
