#pragma once

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QStringList>

namespace sf {

/**
 * The files of a skill as a teacher wrote them in one reply: each file after a line
 * "=== FILE: PATH ===", SKILL.md first (the format resources/prompts asks for). A reply that is a
 * bare SKILL.md (front matter first) is accepted too, and a file wrapped whole in a code fence is
 * unwrapped. Paths must stay inside the skill: SKILL.md, or under references/, scripts/ or assets/.
 */
struct SkillDraft
{
    QMap<QString, QByteArray> files; ///< relative path -> content
    QStringList problems;            ///< what was wrong with the reply; files is empty when fatal

    static SkillDraft parse(const QString &reply);
    /** @p content without the code fence a model wrapped it in whole (```markdown … ```), else as it is. */
    static QString unwrapFence(const QString &content);
    /** The draft written back in the reply format, for showing a skill to a teacher. */
    static QString format(const QMap<QString, QByteArray> &files);

    bool isUsable() const { return files.contains(QStringLiteral("SKILL.md")); }
};

} // namespace sf
