#pragma once

#include "common/Result.h"

#include <QHash>
#include <QString>

namespace sf {

/**
 * A prompt template from resources/prompts (or the user's copy in the configuration folder's
 * prompts/, which wins). `{{name}}` is replaced by a value; `{{#name}}...{{/name}}` keeps its text
 * only when the value is non-empty. Rendering fails on a placeholder the caller did not provide, so
 * a renamed value can never silently vanish from a prompt.
 */
class PromptTemplate final
{
public:
    /** Loads NAME.md, e.g. "generate-skill.system"; an error names the places looked in. */
    static Result<PromptTemplate> load(const QString &name);
    static PromptTemplate fromText(QString text, QString origin);

    /** Where the text came from: a file path, or ":/prompts/NAME.md" for the built-in one. */
    QString origin() const { return m_origin; }
    QString text() const { return m_text; }

    Result<QString> render(const QHash<QString, QString> &values) const;

    /** The folder whose NAME.md files replace the built-in templates. */
    static QString userFolder();

private:
    QString m_text;
    QString m_origin;
};

} // namespace sf
