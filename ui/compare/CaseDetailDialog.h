#pragma once

#include "eval/RunAnalysis.h"

#include <QDialog>
#include <memory>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace sf {

class DiffView;

/// One case under one model, without and with the skill side by side: each arm's outcome, every verifier's
/// evidence and the transcript, and the two final answers diffed line by line. A repeat picker moves between
/// repeats; it opens on the first repeat where the arms disagree. For an agent CLI's items it says whether and when
/// the skill was loaded and which of its files were read, shows the CLI's session, and offers it to the Trace view.
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
    /// "Open CLI Session in Trace View" under each side; hidden where the item has no CLI session.
    QPushButton *baselineSessionButton() const { return m_baselineSession; }
    QPushButton *withSkillSessionButton() const { return m_withSkillSession; }

Q_SIGNALS:
    /// The user asked to open an item's CLI session file (absolute path) in the Trace view.
    void traceRequested(const QString &path);

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
    QPushButton *m_baselineSession;
    QPushButton *m_withSkillSession;
    DiffView *m_diff;
};

/// A readable transcript: outcome, verifiers with their evidence, then each message with its tool calls; for an agent
/// CLI's item, the CLI and its start-up time, whether it loaded the skill (agentCliText()) and the prompt.
QString transcriptText(const ItemResult &result, const QJsonObject &transcript);
/// What an agent CLI's item says of the harness and the skill: "Skill: loaded after model call 2; files read: …", or a
/// silent bypass; empty for an item of Skillforge's own loop.
QString agentCliText(const ItemResult &result, const QJsonObject &transcript);
/// An agent CLI's session file (Claude Code JSONL, Codex rollout) read by the trace importer, as Markdown steps.
QString sessionText(const QString &sessionFile);

} // namespace sf
