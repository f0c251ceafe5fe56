#pragma once

#include "common/LineDiff.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;

namespace sf {

/// Two texts side by side with their differing lines aligned and tinted: removed and changed lines on the
/// left, added and changed ones on the right, blank filler where a side has no line. Both sides scroll
/// together.
class DiffView final : public QWidget
{
    Q_OBJECT

public:
    explicit DiffView(QWidget *parent = nullptr);

    void setTexts(const QString &oldText, const QString &newText, const QString &oldTitle, const QString &newTitle);

    const QList<DiffRow> &rows() const { return m_rows; }
    int addedLines() const { return m_added; }
    int removedLines() const { return m_removed; }
    QString summary() const;
    /// The text shown on each side for row @p row (empty for filler).
    QString leftLine(int row) const;
    QString rightLine(int row) const;

    QPlainTextEdit *leftEdit() const { return m_left; }
    QPlainTextEdit *rightEdit() const { return m_right; }

private:
    QLabel *m_leftTitle;
    QLabel *m_rightTitle;
    QLabel *m_summary;
    QPlainTextEdit *m_left;
    QPlainTextEdit *m_right;
    QList<DiffRow> m_rows;
    QStringList m_oldLines;
    QStringList m_newLines;
    int m_added = 0;
    int m_removed = 0;
};

} // namespace sf
