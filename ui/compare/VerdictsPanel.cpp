#include "compare/VerdictsPanel.h"

#include "charts/ComparisonCharts.h"
#include "compare/TwoPassRatesPanel.h"
#include "project/AppSettings.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace sf {

namespace {

QTableWidgetItem *cell(const QString &text)
{
    auto *item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    return item;
}

/// The verdict @p verdicts hold for @p model, or null.
const Verdict *verdictFor(const QList<Verdict> &verdicts, const QString &model)
{
    for (const Verdict &v : verdicts) {
        if (v.model == model)
            return &v;
    }
    return nullptr;
}

} // namespace

QString skillLoadedText(const stats::Proportion &loaded)
{
    const QLocale locale;
    return VerdictsPanel::tr("skill loaded in %1 of %2 (%3%, 95% CI %4–%5)")
        .arg(loaded.successes)
        .arg(loaded.trials)
        .arg(locale.toString(loaded.rate * 100, 'f', 0), locale.toString(loaded.ci.low * 100, 'f', 0),
             locale.toString(loaded.ci.high * 100, 'f', 0));
}

QString liftPointsText(double lift)
{
    // As Verdict::reason() writes it, so the sentence and the table agree to the character.
    return QStringLiteral("%1%2").arg(lift > 0 ? QStringLiteral("+") : QString(), QString::number(lift * 100, 'f', 1));
}

QString liftIntervalText(const stats::Interval &interval)
{
    return QStringLiteral("[%1, %2]")
        .arg(QString::number(interval.low * 100, 'f', 1), QString::number(interval.high * 100, 'f', 1));
}

VerdictsPanel::VerdictsPanel(QWidget *parent)
    : QWidget(parent)
    , m_thresholds(AppSettings().verdictThresholds())
    , m_minLiftSpin(new QDoubleSpinBox(this))
    , m_minPairsSpin(new QSpinBox(this))
    , m_verdicts(new QLabel(this))
    , m_twoPassRates(new TwoPassRatesPanel(this))
    , m_liftTable(new QTableWidget(this))
{
    m_verdicts->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_verdicts->setWordWrap(true);
    m_verdicts->setToolTip(tr("Decided on the held-out cases where the run has any (cases kept out of writing and "
                              "refining the skill), from Newcombe's paired interval of the lift"));

    // The thresholds, in view and editable: they are the settings every verdict (reports, eval) uses.
    auto *thresholds = new QHBoxLayout;
    thresholds->addWidget(new QLabel(tr("Keep when the lift is above"), this));
    m_minLiftSpin->setRange(0, 100);
    m_minLiftSpin->setDecimals(1);
    m_minLiftSpin->setSuffix(tr(" pp"));
    m_minLiftSpin->setValue(m_thresholds.minLift * 100);
    thresholds->addWidget(m_minLiftSpin);
    thresholds->addWidget(new QLabel(tr("with its interval above 0; can't tell yet under"), this));
    m_minPairsSpin->setRange(1, 100000);
    m_minPairsSpin->setValue(m_thresholds.minPairs);
    m_minPairsSpin->setSuffix(tr(" paired cases"));
    thresholds->addWidget(m_minPairsSpin);
    thresholds->addStretch(1);
    const auto changed = [this] {
        const VerdictThresholds chosen{m_minLiftSpin->value() / 100, m_minPairsSpin->value()};
        AppSettings().setVerdictThresholds(chosen);
        setThresholds(chosen);
        Q_EMIT thresholdsChanged(chosen);
    };
    connect(m_minLiftSpin, &QDoubleSpinBox::valueChanged, this, changed);
    connect(m_minPairsSpin, &QSpinBox::valueChanged, this, changed);

    m_liftTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_liftTable->verticalHeader()->hide();
    m_liftTable->setSortingEnabled(true);
    m_liftTable->setWordWrap(false);

    // The sentences scroll above the tables, which the user can give more room: a long list of models never makes the
    // tab taller than a small window.
    auto *words = new QScrollArea(this);
    words->setWidget(m_verdicts);
    words->setWidgetResizable(true);
    words->setFrameShape(QFrame::NoFrame);
    words->setMinimumHeight(3 * fontMetrics().height());
    auto *tables = new QWidget(this);
    auto *tablesLayout = new QVBoxLayout(tables);
    tablesLayout->setContentsMargins(0, 0, 0, 0);
    tablesLayout->addWidget(m_twoPassRates);
    tablesLayout->addWidget(m_liftTable, 1);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(words);
    split->addWidget(tables);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(thresholds);
    layout->addWidget(split, 1);
}

void VerdictsPanel::showRuns(const QList<const RunAnalysis *> &runs, const QStringList &names,
                             const QStringList &splits)
{
    m_runs = runs;
    m_names = names;
    m_splits = splits;
    m_twoPassRates->setRuns(runs, splits, names);
    fill();
}

void VerdictsPanel::setThresholds(const VerdictThresholds &thresholds)
{
    m_thresholds = thresholds;
    {
        const QSignalBlocker blockLift(m_minLiftSpin);
        const QSignalBlocker blockPairs(m_minPairsSpin);
        m_minLiftSpin->setValue(thresholds.minLift * 100);
        m_minPairsSpin->setValue(thresholds.minPairs);
    }
    fill();
}

void VerdictsPanel::fill()
{
    fillLiftTable();
    fillVerdicts();
}

void VerdictsPanel::fillLiftTable()
{
    m_liftTable->setSortingEnabled(false);
    m_liftTable->clear();
    m_liftTable->setRowCount(0);
    m_liftTable->setColumnCount(ColumnCount);
    m_liftTable->setHorizontalHeaderLabels({tr("Run"), tr("Model"), tr("Cases"), tr("Lift (pp)"), tr("Pairs"),
                                            tr("p (exact McNemar)"), tr("Flipped to pass"), tr("Flipped to fail"),
                                            tr("95% interval (pp)"), tr("Verdict"), tr("Skill loaded")});
    m_liftTable->horizontalHeaderItem(VerdictColumn)
        ->setToolTip(tr("Each model's verdict stands on the row of the cases that decided it: the held-out cases where "
                        "the run has any, else all cases. That row is always listed."));
    m_liftTable->horizontalHeaderItem(SkillLoadedColumn)
        ->setToolTip(tr("With-skill items that loaded the skill (those that ended in an error not counted), with the "
                        "Wilson 95% interval. The rest are silent bypasses: their outcomes say nothing about the "
                        "skill's content."));
    bool activation = false;
    for (qsizetype r = 0; r < m_runs.size(); ++r) {
        const RunAnalysis *run = m_runs[r];
        const QList<Verdict> verdicts = decideVerdicts(run->summary, m_thresholds);
        for (const ArmComparison &c : run->summary.comparisons) {
            const Verdict *verdict = verdictFor(verdicts, c.model);
            const bool decides = verdict && verdict->split == c.split;
            // The cases shown, and the ones that decided the verdict even when they are not shown.
            if (!m_splits.contains(c.split) && !decides)
                continue;
            const int row = m_liftTable->rowCount();
            m_liftTable->insertRow(row);
            m_liftTable->setItem(row, RunColumn, cell(m_names.value(r, run->label())));
            m_liftTable->setItem(row, ModelColumn, cell(c.model));
            QTableWidgetItem *cases = cell(charts::splitName(c.split));
            if (decides)
                cases->setToolTip(tr("The verdict is decided on these cases"));
            m_liftTable->setItem(row, CasesColumn, cases);
            m_liftTable->setItem(row, LiftColumn, cell(liftPointsText(c.lift)));
            m_liftTable->setItem(row, PairsColumn, cell(QString::number(c.table.pairs())));
            m_liftTable->setItem(row, PValueColumn, cell(QString::number(c.pValue, 'g', 3)));
            m_liftTable->setItem(row, FlippedToPassColumn, cell(QString::number(c.table.onlySecond)));
            m_liftTable->setItem(row, FlippedToFailColumn, cell(QString::number(c.table.onlyFirst)));
            m_liftTable->setItem(row, IntervalColumn, cell(liftIntervalText(c.liftCi)));
            if (verdict) {
                QTableWidgetItem *item = cell(
                    decides ? verdict->word() : tr("(decided on %1 cases)").arg(charts::splitName(verdict->split)));
                item->setToolTip(verdict->reason());
                QFont font = item->font();
                font.setBold(decides);
                font.setItalic(!decides);
                item->setFont(font);
                m_liftTable->setItem(row, VerdictColumn, item);
            }
            // Beside the lift: how often the skill was loaded at all (agent CLIs, the agentic loop).
            if (const ArmSummary *withSkill = run->summary.arm(c.model, kWithSkillArm, c.split);
                withSkill && withSkill->triggerRate) {
                m_liftTable->setItem(row, SkillLoadedColumn, cell(skillLoadedText(*withSkill->triggerRate)));
                activation = true;
            }
        }
    }
    m_liftTable->setColumnHidden(RunColumn, m_runs.size() < 2);
    m_liftTable->setColumnHidden(SkillLoadedColumn, !activation);
    m_liftTable->resizeColumnsToContents();
}

void VerdictsPanel::fillVerdicts()
{
    QStringList lines;
    m_words.clear();
    bool heldOut = false;
    for (qsizetype r = 0; r < m_runs.size(); ++r) {
        const RunAnalysis *run = m_runs[r];
        for (const Verdict &v : decideVerdicts(run->summary, m_thresholds)) {
            if (r == 0)
                m_words.append(QStringLiteral("%1 %2").arg(v.model, v.word()));
            heldOut = heldOut || v.split == u"heldout";
            QString line = tr("<b>%1</b> on %2 cases — %3")
                               .arg(v.model.toHtmlEscaped(), charts::splitName(v.split).toHtmlEscaped(),
                                    v.reason().toHtmlEscaped());
            // A lift from items that never read the skill says nothing about it: how often it was loaded, beside it.
            if (const ArmSummary *withSkill = run->summary.arm(v.model, kWithSkillArm, v.split);
                withSkill && withSkill->triggerRate)
                line += QStringLiteral("; ") + skillLoadedText(*withSkill->triggerRate).toHtmlEscaped();
            if (m_runs.size() > 1)
                line = m_names.value(r, run->label()).toHtmlEscaped() + QStringLiteral(" · ") + line;
            lines.append(line);
        }
    }
    if (lines.isEmpty()) {
        m_verdicts->clear();
        return;
    }
    const QString heading =
        heldOut ? tr("Verdicts, decided on the held-out cases (kept out of writing and refining the skill), the rows "
                     "marked in the table below:")
                : tr("Verdicts, decided on all cases (the suite has no held-out cases):");
    m_verdicts->setText(heading + QStringLiteral("<br>") + lines.join(QStringLiteral("<br>")) +
                        tr("<br><small>Thresholds: %1.</small>").arg(m_thresholds.describe().toHtmlEscaped()));
}

} // namespace sf
