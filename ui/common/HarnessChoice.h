#pragma once

#include "agents/AgentCliInstall.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QStringList>

class QComboBox;
class QFormLayout;
class QWidget;

namespace sf {

class ProviderRegistry;

/**
 * Who drives the student models, for a dialog that starts evaluations or trials: "Student harness: Skillforge's loop /
 * Claude Code (real CLI) / Codex (real CLI)" and, for a CLI, "CLI: the one setup installed (pinned) / my own on PATH".
 * Its two combo boxes sit in the dialog's own form (addRowsTo), the CLI row shown only for a CLI. A CLI is looked for
 * off the UI thread when it is chosen, once per choice, and its row names the version found. statusLines() says what
 * was found and which models the harness cannot drive; a run waits while problem() is not empty. The choice starts on
 * the one last remembered, which New Evaluation, Refine and the Trigger Lab share.
 */
class HarnessChoice final : public QObject
{
    Q_OBJECT

public:
    /// The combo boxes are children of @p parent. @p providers tells which models a CLI can speak to; without it no
    /// model is checked.
    explicit HarnessChoice(QWidget *parent, const ProviderRegistry *providers = nullptr);

    /// Adds the rows "Student harness:" and "CLI:" to @p form.
    void addRowsTo(QFormLayout *form);

    /// Harness::Builtin, Harness::ClaudeCode or Harness::Codex.
    QString harness() const;
    /// findAgentCli()'s choice: "" the CLI setup installed, "path" the user's own; always "" for Skillforge's loop.
    QString harnessCli() const;
    bool isAgentCli() const;
    /// Whether the chosen CLI is still being looked for.
    bool isLookingForCli() const;
    /// What a dialog says of the chosen CLI with @p models as the students: the CLI found (version, where it came
    /// from) or why it cannot be used, a missing sandbox, and each model the CLI cannot speak to. None for the loop.
    QStringList statusLines(const QStringList &models) const;
    /// Why a run of @p models cannot start now, or "": the CLI is still being looked for, is missing, has no sandbox
    /// here, or a model does not fit it.
    QString problem(const QStringList &models) const;
    void setEnabled(bool enabled);
    /// Keeps the choice for the next dialog.
    void remember() const;

    QComboBox *harnessBox() const { return m_harness; }
    QComboBox *cliBox() const { return m_cli; }

    /// Where @p harness finds project skills in its workspace: ".claude/skills/" or ".agents/skills/".
    static QString skillsFolderOf(const QString &harness);

Q_SIGNALS:
    /// The harness or the CLI was chosen, or looking for a CLI ended.
    void changed();

private:
    /// What looking for a CLI found: the binary or why there is none, and whether the sandbox it needs is here.
    struct CliLookup
    {
        Result<AgentCliBinary> binary;
        QString noSandbox; ///< empty when bubblewrap can sandbox here
    };
    struct Line
    {
        QString text;
        bool blocks = false;
    };

    void choiceChanged();
    void lookForCli();
    void updateCliTexts();
    QList<Line> lines(const QStringList &models) const;

    const ProviderRegistry *m_providers;
    QComboBox *m_harness;
    QComboBox *m_cli;
    QFormLayout *m_form = nullptr;
    /// By harness and CLI choice ("claude-code\n", "codex\npath"): what looking found, and what is being looked for.
    QHash<QString, CliLookup> m_lookups;
    QSet<QString> m_lookingUp;
};

} // namespace sf
