#pragma once

#include "RunAnalysis.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace sf {

/**
 * Whether a run compared like with like, read from the system prompts and messages its transcripts recorded: a
 * hash of each arm's fixed prompt parts (the with-skill prompt without its skill section), the skills each arm
 * could see, and where the skill's own text turned up in a baseline item (a context file in the first message, a
 * file the student read, a tool's output).
 */
struct ContaminationReport
{
    struct ArmPrompt
    {
        QString arm;
        QString fixedHash;      ///< "sha256:..." of the system prompt without the skill section; "" when unseen
        int variants = 0;       ///< distinct fixed parts seen across the arm's items (1 when all agree)
        QStringList skillsSeen; ///< skills the prompt listed or carried, by name
    };
    /// A baseline item whose messages held a line of the skill's text.
    struct Leak
    {
        QString item;  ///< "model|arm|case|repeat"
        QString where; ///< "first message (context files)", "tool result", "assistant"
        QString line;  ///< the skill line found (trimmed to 120 characters)

        QString caseId() const { return item.section(u'|', 2, 2); }
        /// "generic:m · without skill · repeat 2": the item in people's words, its case apart.
        QString itemLabel() const;
    };

    QList<ArmPrompt> arms;     ///< baseline, then with_skill
    bool promptsMatch = false; ///< both arms' fixed parts hash the same, and each arm used one
    int transcriptsRead = 0;
    int skillLinesChecked = 0; ///< distinctive lines of the skill's text searched for
    QList<Leak> leaks;
    /// Agent-CLI runs: the CLI and its version. Their "fixed prompt" is the CLI's settings fingerprint, the skills
    /// seen are those its session files show listed, and the leak search reads the baseline's session files.
    QString cliHarness;
    QString cliVersion;

    QJsonObject toJson() const;
    /// In people's words, no hash: "The system prompts with and without the skill are identical but for the skill.
    /// …; None of the skill's 12 distinctive lines reached an item without the skill."
    QString summary() const;
};

/// Reads @p run's transcripts (without changing them) and the skill's SKILL.md where the manifest names its folder.
ContaminationReport checkContamination(const RunAnalysis &run);

} // namespace sf
