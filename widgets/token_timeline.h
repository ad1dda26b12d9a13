// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "store/request_lookup.h"

#include <QWidget>

/// One request drawn on its own time axis: its server-side segments as coloured bands, and a tick for every
/// output token where token times exist. Not-measured segments are left blank, never drawn as zero.
class TokenTimeline : public QWidget {
    Q_OBJECT

public:
    explicit TokenTimeline(QWidget *parent = nullptr);
    void setRequest(const lx::RequestDetail &request);
    void clear();
    QSize sizeHint() const override { return {400, 90}; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    lx::RequestDetail m_request;
    bool m_valid = false;
};
