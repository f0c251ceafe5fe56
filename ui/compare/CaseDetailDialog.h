#pragma once

#include "eval/RunAnalysis.h"

#include <QDialog>
#include <memory>

class QComboBox;
class QLabel;
class QPlainTextEdit;

namespace sf {

class DiffView;

/// One case under one model, without and with the skill side by side: each arm's outcome, every verifier's
/// evidence and the transcript, and the two final answers diffed line by line. A repeat picker moves between
/// repeats; it opens on the first repeat where the arms disagree.
class CaseDetailDialog final : public QDialog
{
    Q_OBJECT

public:
    explicit CaseDetailDialog(QWidget *parent = nullptr);

    void showCase(std::shared_ptr<const RunAnalysis> analysis, const QString &model, const QString &caseId);

    int repeat() const;
    void setRepeat(int repeat);
    QString baselineText() const;
    QString withSkillText() const;
    DiffView *answerDiff() const { return m_diff; }

private:
    void showRepeat();
    const ItemResult *resultOf(const QString &arm, int repeat) const;
    QString sideText(const QString &arm, int repeat) const;

    std::shared_ptr<const RunAnalysis> m_analysis;
    QString m_model;
    QString m_caseId;
    QLabel *m_title;
    QComboBox *m_repeat;
    QLabel *m_baselineTitle;
    QLabel *m_withSkillTitle;
    QPlainTextEdit *m_baseline;
    QPlainTextEdit *m_withSkill;
    DiffView *m_diff;
};

/// A readable transcript: outcome, verifiers with their evidence, then each message with its tool calls.
QString transcriptText(const ItemResult &result, const QJsonObject &transcript);

} // namespace sf
