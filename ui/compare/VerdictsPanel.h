#pragma once

#include "eval/RunAnalysis.h"
#include "eval/Verdict.h"

#include <QWidget>

class QDoubleSpinBox;
class QLabel;
class QSpinBox;
class QTableWidget;

namespace sf {

class TwoPassRatesPanel;

/// Compare's "Verdicts and lift" tab: the thresholds (in view and editable: they are the settings every verdict uses),
/// the verdict per model and the cases that decided it (held-out ones where the run has any), the two pass rates of
/// runs graded statement by statement, and the lift table. The sentence and the table read the same comparisons, so
/// they show the same pairs and intervals: the table always has the rows that decided the verdicts, whichever cases
/// the view shows besides.
class VerdictsPanel final : public QWidget
{
    Q_OBJECT

public:
    /// The lift table's columns.
    enum Column
    {
        RunColumn,
        ModelColumn,
        CasesColumn,
        LiftColumn,
        PairsColumn,
        PValueColumn,
        FlippedToPassColumn,
        FlippedToFailColumn,
        IntervalColumn,
        VerdictColumn,
        SkillLoadedColumn,
        ColumnCount
    };

    explicit VerdictsPanel(QWidget *parent = nullptr);

    /// Shows @p runs (named @p names) over the cases of @p splits ("all", or "train" and/or "heldout").
    void showRuns(const QList<const RunAnalysis *> &runs, const QStringList &names, const QStringList &splits);
    /// The thresholds the verdicts use; from the settings until set. The spin boxes change them, store them in the
    /// settings and emit thresholdsChanged().
    void setThresholds(const VerdictThresholds &thresholds);
    VerdictThresholds thresholds() const { return m_thresholds; }
    /// "model keep" per model of the first run shown, for the status line.
    QStringList verdictWords() const { return m_words; }

    QLabel *verdictLabel() const { return m_verdicts; }
    QTableWidget *liftTable() const { return m_liftTable; }
    TwoPassRatesPanel *twoPassRates() const { return m_twoPassRates; }
    QDoubleSpinBox *minLiftSpin() const { return m_minLiftSpin; }
    QSpinBox *minPairsSpin() const { return m_minPairsSpin; }

Q_SIGNALS:
    void thresholdsChanged(const sf::VerdictThresholds &thresholds);

private:
    void fill();
    void fillLiftTable();
    void fillVerdicts();

    QList<const RunAnalysis *> m_runs;
    QStringList m_names;
    QStringList m_splits;
    VerdictThresholds m_thresholds;
    QStringList m_words;
    QDoubleSpinBox *m_minLiftSpin;
    QSpinBox *m_minPairsSpin;
    QLabel *m_verdicts;
    TwoPassRatesPanel *m_twoPassRates;
    QTableWidget *m_liftTable;
};

/// "skill loaded in 8 of 10 (80%, 95% CI 49–94)": how often a model's with-skill items loaded the skill.
QString skillLoadedText(const stats::Proportion &loaded);

/// A lift and its interval as the verdicts word them: "+50.0" and "[44.8, 100.0]" (percentage points).
QString liftPointsText(double lift);
QString liftIntervalText(const stats::Interval &interval);

} // namespace sf
