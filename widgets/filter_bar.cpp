// SPDX-License-Identifier: GPL-3.0-or-later
#include "filter_bar.h"

#include "filter/filter_expression.h"
#include "model/segments.h"

#include <QCheckBox>
#include <QDateTimeEdit>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QTimeZone>
#include <QTimer>
#include <QVBoxLayout>

namespace {

qint64 toNs(const QDateTime &t) { return t.toMSecsSinceEpoch() * 1'000'000; }

QDateTime fromNs(qint64 ns) { return QDateTime::fromMSecsSinceEpoch(ns / 1'000'000, QTimeZone::utc()); }

} // namespace

FilterBar::FilterBar(QWidget *parent)
    : QWidget(parent)
    , m_expression(new QLineEdit(this))
    , m_error(new QLabel(this))
    , m_useFrom(new QCheckBox(tr("from"), this))
    , m_from(new QDateTimeEdit(this))
    , m_useTo(new QCheckBox(tr("to"), this))
    , m_to(new QDateTimeEdit(this))
    , m_debounce(new QTimer(this))
{
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(4, 2, 4, 2);
    outer->setSpacing(2);
    auto *row = new QHBoxLayout;
    m_expression->setPlaceholderText(tr("Filter, e.g.  model = \"llama-3.1-70b\" and e2e > 2s and dominant = queue"));
    m_expression->setClearButtonEnabled(true);
    m_expression->setToolTip(tr("Fields: e2e, %1, ttft, tpot, ttlt, input_tokens, output_tokens, model, route, status, "
                                "dominant, id, or any attribute. Durations take units (ns, us, ms, s, m, h). See docs/FILTER.md.")
                                 .arg(QString::fromStdString(lx::joinSegmentNames(", ", ", "))));
    row->addWidget(m_expression, 1);
    for (QDateTimeEdit *edit : {m_from, m_to}) {
        edit->setTimeSpec(Qt::UTC);
        edit->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'"));
        edit->setCalendarPopup(true);
        edit->setEnabled(false);
    }
    m_useFrom->setToolTip(tr("Only requests that started at or after this time"));
    m_useTo->setToolTip(tr("Only requests that started before this time"));
    row->addWidget(m_useFrom);
    row->addWidget(m_from);
    row->addWidget(m_useTo);
    row->addWidget(m_to);
    outer->addLayout(row);
    m_error->setVisible(false);
    m_error->setTextFormat(Qt::RichText);
    outer->addWidget(m_error);

    // Apply once typing pauses, so that a million-row view is not re-queried on every key.
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(350);
    connect(m_debounce, &QTimer::timeout, this, &FilterBar::apply);
    connect(m_expression, &QLineEdit::textChanged, this, [this] {
        validate();
        m_debounce->start();
    });
    connect(m_expression, &QLineEdit::returnPressed, this, [this] {
        m_debounce->stop();
        apply();
    });
    for (QCheckBox *box : {m_useFrom, m_useTo}) {
        connect(box, &QCheckBox::toggled, this, [this] {
            m_from->setEnabled(m_useFrom->isChecked());
            m_to->setEnabled(m_useTo->isChecked());
            apply();
        });
    }
    for (QDateTimeEdit *edit : {m_from, m_to})
        connect(edit, &QDateTimeEdit::dateTimeChanged, this, [this] { m_debounce->start(); });
    m_history.append(state()); // the unfiltered start is where back() ends
    m_historyAt = 0;
    showTimeRange(false);
}

void FilterBar::showTimeRange(bool shown)
{
    for (QWidget *widget : std::initializer_list<QWidget *>{m_useFrom, m_from, m_useTo, m_to})
        widget->setVisible(shown);
}

bool FilterBar::timeRangeShown() const { return !m_from->isHidden(); }

QString FilterBar::errorText() const { return m_valid ? QString() : m_error->text(); }

void FilterBar::setExpression(const QString &text)
{
    m_expression->setText(text);
    m_debounce->stop();
    apply();
}

void FilterBar::setTimeBounds(qint64 firstNs, qint64 lastNs, bool relative)
{
    // Showing the data's span is no edit: it must not re-apply the filter (that re-ran every analysis).
    const QSignalBlocker blockFrom(m_from);
    const QSignalBlocker blockTo(m_to);
    if (!m_originSet) {
        m_originSet = true;
        // Offsets are shown as hours, minutes and seconds: a relative trace of a day or more keeps the dates.
        constexpr qint64 kDayNs = 86'400'000'000'000;
        const bool offsets = relative && lastNs - firstNs < kDayNs;
        m_originNs = offsets ? firstNs : 0;
        const QString format = offsets ? QStringLiteral("'+'HH:mm:ss") : QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'");
        const QString since = offsets ? tr(" (the time since the first request: this trace's times have no date)") : QString();
        for (QDateTimeEdit *edit : {m_from, m_to}) {
            edit->setDisplayFormat(format);
            edit->setCalendarPopup(!offsets); // a calendar of 1970 says nothing of an offset
        }
        m_useFrom->setToolTip(tr("Only requests that started at or after this time") + since);
        m_useTo->setToolTip(tr("Only requests that started before this time") + since);
    }
    if (!m_useFrom->isChecked())
        setEditorNs(m_from, firstNs);
    if (!m_useTo->isChecked())
        setEditorNs(m_to, lastNs + 1'000'000'000); // the editors show whole seconds
    showTimeRange(true);
}

qint64 FilterBar::editorNs(const QDateTimeEdit *edit) const { return toNs(edit->dateTime()) + m_originNs; }

void FilterBar::setEditorNs(QDateTimeEdit *edit, qint64 ns) { edit->setDateTime(fromNs(ns - m_originNs)); }

void FilterBar::clear(bool silently)
{
    const QSignalBlocker block(silently ? this : nullptr);
    const QSignalBlocker blockFrom(m_useFrom);
    const QSignalBlocker blockTo(m_useTo);
    m_useFrom->setChecked(false);
    m_useTo->setChecked(false);
    m_from->setEnabled(false);
    m_to->setEnabled(false);
    if (silently) { // a new investigation: its history starts here, its span is not known yet
        showTimeRange(false);
        m_originSet = false;
        m_originNs = 0;
        m_history.clear();
        m_historyAt = -1;
        emit historyChanged();
    }
    setExpression(QString());
}

void FilterBar::validate()
{
    const QByteArray text = m_expression->text().toUtf8();
    const auto compiled = lx::compileFilterExpression(std::string_view(text.constData(), std::size_t(text.size())));
    if (const auto *error = std::get_if<lx::FilterError>(&compiled)) {
        m_valid = false;
        // Show the text with the offending part underlined, then the message.
        const qsizetype at = qsizetype(std::min<std::size_t>(error->position, std::size_t(text.size())));
        const qsizetype length = qsizetype(std::max<std::size_t>(error->length, 1));
        const QString before = QString::fromUtf8(text.left(at)).toHtmlEscaped();
        QString bad = QString::fromUtf8(text.mid(at, length)).toHtmlEscaped();
        if (bad.isEmpty())
            bad = QStringLiteral("&nbsp;");
        const QString after = QString::fromUtf8(text.mid(at + length)).toHtmlEscaped();
        m_error->setText(QStringLiteral("<span style='color:#d55e00'>%1</span> &nbsp; <tt>%2<u style='color:#d55e00'>%3</u>%4</tt>")
                             .arg(QString::fromStdString(error->message).toHtmlEscaped(), before, bad, after));
        m_error->setVisible(true);
        m_expression->setStyleSheet(QStringLiteral("QLineEdit { border: 1px solid #d55e00; }"));
        return;
    }
    m_valid = true;
    m_error->setVisible(false);
    m_expression->setStyleSheet(QString());
}

void FilterBar::apply()
{
    validate();
    if (!m_valid)
        return; // the last valid filter stays in force while the text is being fixed
    const QByteArray text = m_expression->text().toUtf8();
    lx::RequestFilter filter = std::get<lx::RequestFilter>(
        lx::filterFromExpression(std::string_view(text.constData(), std::size_t(text.size())))); // valid: checked above
    if (m_useFrom->isChecked())
        filter.fromNs = editorNs(m_from);
    if (m_useTo->isChecked())
        filter.toNs = editorNs(m_to);
    m_filter = filter;
    QStringList words;
    if (const QString expression = m_expression->text().trimmed(); !expression.isEmpty())
        words << expression;
    if (m_useFrom->isChecked() || m_useTo->isChecked())
        words << tr("start %1..%2")
                     .arg(m_useFrom->isChecked() ? m_from->text() : QString(),
                          m_useTo->isChecked() ? m_to->text() : QString());
    m_statement = words.join(QStringLiteral(", "));
    if (!m_restoring) {
        const State now = state();
        if (m_historyAt < 0 || m_history[m_historyAt] != now) {
            m_history.resize(m_historyAt + 1); // a new step drops the steps that were undone
            m_history.append(now);
            m_historyAt = m_history.size() - 1;
            emit historyChanged();
        }
    }
    emit filterChanged(m_filter);
}

FilterBar::State FilterBar::state() const
{
    return {m_expression->text().trimmed(), m_useFrom->isChecked(), m_useTo->isChecked(),
            editorNs(m_from), editorNs(m_to)};
}

void FilterBar::restore(const State &state)
{
    m_restoring = true;
    {
        const QSignalBlocker blockUseFrom(m_useFrom);
        const QSignalBlocker blockUseTo(m_useTo);
        const QSignalBlocker blockFrom(m_from);
        const QSignalBlocker blockTo(m_to);
        m_useFrom->setChecked(state.useFrom);
        m_useTo->setChecked(state.useTo);
        m_from->setEnabled(state.useFrom);
        m_to->setEnabled(state.useTo);
        setEditorNs(m_from, state.fromNs);
        setEditorNs(m_to, state.toNs);
    }
    setExpression(state.expression);
    m_restoring = false;
    emit historyChanged();
}

void FilterBar::narrow(const QString &condition)
{
    const QString current = m_expression->text().trimmed();
    if (current.isEmpty() || !m_valid)
        setExpression(condition);
    else
        setExpression(QStringLiteral("(%1) and (%2)").arg(current, condition));
}

void FilterBar::back()
{
    if (!canGoBack())
        return;
    restore(m_history[--m_historyAt]);
}

void FilterBar::forward()
{
    if (!canGoForward())
        return;
    restore(m_history[++m_historyAt]);
}
