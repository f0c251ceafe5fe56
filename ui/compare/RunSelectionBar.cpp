#include "compare/RunSelectionBar.h"

#include <QComboBox>
#include <QDir>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>

namespace sf {

RunSelectionBar::RunSelectionBar(QWidget *parent)
    : QWidget(parent)
    , m_runCombo(new QComboBox(this))
    , m_compareCombo(new QComboBox(this))
    , m_splitCombo(new QComboBox(this))
    , m_exportButton(new QPushButton(tr("Export Report…"), this))
{
    makeRunCombo(m_runCombo, 20);
    makeRunCombo(m_compareCombo, 20);
    m_runCombo->setToolTip(tr("The run to look at (newest first)"));
    m_compareCombo->setToolTip(tr("A second run to show beside it, e.g. another version of the skill"));
    m_splitCombo->setToolTip(tr("Which cases count: all, the training cases, the held-out cases, or both apart"));
    m_splitCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    setHeldOutAvailable(false);
    m_exportButton->setObjectName(QStringLiteral("exportReport"));
    m_exportButton->setToolTip(tr("A report of the runs shown: HTML, PDF, Markdown, CSV, JSON or JUnit"));

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("Run:"), this));
    layout->addWidget(m_runCombo, 1);
    layout->addWidget(new QLabel(tr("Compare with:"), this));
    layout->addWidget(m_compareCombo, 1);
    layout->addWidget(new QLabel(tr("Cases:"), this));
    layout->addWidget(m_splitCombo);
    layout->addStretch(0);
    layout->addWidget(m_exportButton);

    connect(m_runCombo, &QComboBox::currentIndexChanged, this, [this] {
        fillCompareCombo(comparedRun());
        Q_EMIT selectionChanged();
    });
    connect(m_compareCombo, &QComboBox::currentIndexChanged, this, &RunSelectionBar::selectionChanged);
    connect(m_splitCombo, &QComboBox::currentIndexChanged, this, &RunSelectionBar::splitChanged);
    connect(m_exportButton, &QPushButton::clicked, this, &RunSelectionBar::exportRequested);
}

void RunSelectionBar::setRuns(const QList<RunListEntry> &runs)
{
    const QString run = this->run();
    const QString compared = comparedRun();
    m_runs = runs;
    fillRunCombo(m_runCombo, m_runs, run);
    fillCompareCombo(compared);
}

QString RunSelectionBar::nameOf(const QString &dir) const
{
    for (const RunListEntry &entry : m_runs) {
        if (QDir(entry.path) == QDir(dir))
            return entry.label;
    }
    return {};
}

QString RunSelectionBar::run() const
{
    return m_runCombo->currentData().toString();
}

QString RunSelectionBar::comparedRun() const
{
    return m_compareCombo->currentData().toString();
}

void RunSelectionBar::fillCompareCombo(const QString &select)
{
    QList<RunListEntry> others;
    const QString shown = run();
    for (const RunListEntry &entry : std::as_const(m_runs)) {
        if (entry.path != shown)
            others.append(entry);
    }
    fillRunCombo(m_compareCombo, others, select, tr("(no second run)"));
}

void RunSelectionBar::select(const QString &run, const QString &comparedWith)
{
    {
        const QSignalBlocker blockRun(m_runCombo);
        m_runCombo->setCurrentIndex(std::max(0, m_runCombo->findData(run)));
        fillCompareCombo(comparedWith);
    }
    Q_EMIT selectionChanged();
}

void RunSelectionBar::setHeldOutAvailable(bool available)
{
    const QSignalBlocker block(m_splitCombo);
    const QVariant current = m_splitCombo->currentData();
    m_splitCombo->clear();
    m_splitCombo->addItem(tr("All cases"), int(Split::All));
    if (available) {
        m_splitCombo->addItem(tr("Train"), int(Split::Train));
        m_splitCombo->addItem(tr("Held-out"), int(Split::HeldOut));
        m_splitCombo->addItem(tr("Train and held-out apart"), int(Split::Apart));
    }
    m_splitCombo->setCurrentIndex(std::max(0, m_splitCombo->findData(current)));
}

RunSelectionBar::Split RunSelectionBar::split() const
{
    return Split(m_splitCombo->currentData().toInt());
}

void RunSelectionBar::setSplit(Split split)
{
    const int index = m_splitCombo->findData(int(split));
    if (index >= 0)
        m_splitCombo->setCurrentIndex(index);
}

} // namespace sf
