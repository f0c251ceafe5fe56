#pragma once

#include <QTableWidget>

namespace sf {

struct RunSummary;

/// A run's statistics as a compact table: one row per model (and split, when some cases are held out) with the
/// pass counts without and with the skill, the lift and its p-value. The intervals and paired counts are in each
/// cell's tooltip, so the table stays a few lines tall whatever the number of models.
class RunSummaryTable final : public QTableWidget
{
    Q_OBJECT

public:
    explicit RunSummaryTable(QWidget *parent = nullptr);

    void setSummary(const RunSummary &summary);
    /// The table as tab-separated lines, a header first: what Copy puts on the clipboard.
    QString plainText() const;

    QSize sizeHint() const override;
};

} // namespace sf
