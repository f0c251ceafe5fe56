#include "runs/RunSummaryTable.h"

#include "common/Theme.h"
#include "eval/RunSummary.h"

#include <QHeaderView>
#include <algorithm>

namespace sf {

namespace {

enum Column
{
    ModelColumn,
    SplitColumn,
    WithoutColumn,
    WithColumn,
    LiftColumn,
    PColumn,
    ColumnCount
};

QString percent(double rate)
{
    return QStringLiteral("%1%").arg(qRound(rate * 100));
}

QTableWidgetItem *cell(const QString &text, const QString &tooltip = {})
{
    auto *item = new QTableWidgetItem(text);
    item->setToolTip(tooltip);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    return item;
}

QTableWidgetItem *armCell(const ArmSummary *arm)
{
    if (!arm)
        return cell(QString());
    const stats::Proportion &p = arm->passRate;
    QString text = QStringLiteral("%1/%2 (%3)").arg(p.successes).arg(p.trials).arg(percent(p.rate));
    if (arm->errors > 0)
        text += RunSummaryTable::tr(", %1 errors").arg(arm->errors);
    QTableWidgetItem *item = cell(text, RunSummaryTable::tr("%1 of %2 judged items passed; 95% Wilson interval %3–%4")
                                            .arg(p.successes)
                                            .arg(p.trials)
                                            .arg(percent(p.ci.low), percent(p.ci.high)));
    item->setTextAlignment(Qt::AlignCenter);
    if (p.trials > 0) {
        item->setBackground(Theme::passShareBackground(p.rate));
        item->setForeground(Theme::textOn(item->background().color())); // a pair that reads after a theme change too
    }
    return item;
}

} // namespace

RunSummaryTable::RunSummaryTable(QWidget *parent)
    : QTableWidget(0, ColumnCount, parent)
{
    setObjectName(QStringLiteral("runSummary"));
    setHorizontalHeaderLabels(
        {tr("Model"), tr("Split"), armLabel(kBaselineArm), armLabel(kWithSkillArm), tr("Lift"), tr("p (McNemar)")});
    verticalHeader()->hide();
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setSectionResizeMode(ModelColumn, QHeaderView::Stretch);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionMode(QAbstractItemView::NoSelection);
    setFocusPolicy(Qt::NoFocus);
    setWordWrap(false);
}

void RunSummaryTable::setSummary(const RunSummary &summary)
{
    // One row per model and split, in the order the summary lists the comparisons, then models without a pair.
    struct Row
    {
        QString model;
        QString split;
    };
    QList<Row> rows;
    bool heldOut = false;
    for (const ArmSummary &a : summary.arms) {
        heldOut = heldOut || a.split != QLatin1String("all");
        const bool listed = std::any_of(rows.cbegin(), rows.cend(),
                                        [&](const Row &r) { return r.model == a.model && r.split == a.split; });
        if (!listed)
            rows.append({a.model, a.split});
    }
    setRowCount(int(rows.size()));
    for (int i = 0; i < rows.size(); ++i) {
        const Row &row = rows[i];
        setItem(i, ModelColumn, cell(row.model, row.model));
        setItem(i, SplitColumn, cell(row.split == QLatin1String("heldout") ? tr("held out") : row.split));
        setItem(i, WithoutColumn, armCell(summary.arm(row.model, kBaselineArm, row.split)));
        setItem(i, WithColumn, armCell(summary.arm(row.model, kWithSkillArm, row.split)));
        const ArmComparison *c = summary.comparison(row.model, row.split);
        if (!c) {
            setItem(i, LiftColumn, cell(QString()));
            setItem(i, PColumn, cell(QString()));
            continue;
        }
        const QString pairs = tr("%1 paired items: %2 flipped to pass with the skill, %3 to fail")
                                  .arg(c->table.pairs())
                                  .arg(c->table.onlySecond)
                                  .arg(c->table.onlyFirst);
        QTableWidgetItem *lift = cell(tr("%1 pts").arg(QString::asprintf("%+.0f", c->lift * 100)), pairs);
        lift->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        setItem(i, LiftColumn, lift);
        QTableWidgetItem *p = cell(QString::number(c->pValue, 'g', 3), pairs);
        p->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        setItem(i, PColumn, p);
    }
    setColumnHidden(SplitColumn, !heldOut);
    updateGeometry();
}

QString RunSummaryTable::plainText() const
{
    QStringList lines;
    QStringList header;
    for (int column = 0; column < columnCount(); ++column) {
        if (!isColumnHidden(column))
            header.append(horizontalHeaderItem(column)->text());
    }
    lines.append(header.join(u'\t'));
    for (int row = 0; row < rowCount(); ++row) {
        QStringList cells;
        for (int column = 0; column < columnCount(); ++column) {
            if (!isColumnHidden(column))
                cells.append(item(row, column) ? item(row, column)->text() : QString());
        }
        lines.append(cells.join(u'\t'));
    }
    return lines.join(u'\n');
}

QSize RunSummaryTable::sizeHint() const
{
    // Tall enough for every row up to six, so the grid and the transcript below keep their room.
    const int rows = std::clamp(rowCount(), 1, 6);
    const int height = horizontalHeader()->height() + rows * verticalHeader()->defaultSectionSize() + 2 * frameWidth();
    return {QTableWidget::sizeHint().width(), height};
}

} // namespace sf
