#include "PromptTemplate.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QStandardPaths>

namespace sf {

namespace {

int lineAt(const QString &text, qsizetype offset)
{
    return int(QStringView(text).left(offset).count(u'\n')) + 1;
}

} // namespace

QString PromptTemplate::userFolder()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation))
        .filePath(QStringLiteral("prompts"));
}

Result<PromptTemplate> PromptTemplate::load(const QString &name)
{
    const QString fileName = name + QStringLiteral(".md");
    const QStringList places = {QDir(userFolder()).filePath(fileName), QStringLiteral(":/prompts/") + fileName};
    for (const QString &path : places) {
        QFile file(path);
        if (file.open(QIODevice::ReadOnly)) {
            return Result<PromptTemplate>::success(fromText(QString::fromUtf8(file.readAll()), path));
        }
    }
    return Result<PromptTemplate>::failure(
        QStringLiteral("no prompt template %1 (looked in %2)").arg(name, places.join(QStringLiteral(", "))));
}

PromptTemplate PromptTemplate::fromText(QString text, QString origin)
{
    PromptTemplate prompt;
    prompt.m_text = std::move(text);
    prompt.m_origin = std::move(origin);
    return prompt;
}

Result<QString> PromptTemplate::render(const QHash<QString, QString> &values) const
{
    static const QRegularExpression tag(QStringLiteral(R"(\{\{([#/]?)([a-z_]+)\}\})"));
    QString out;
    out.reserve(m_text.size());
    qsizetype position = 0;
    // A section whose value is empty swallows everything up to its end tag, including the line
    // breaks right after both tags, so a missing part leaves no blank paragraphs behind.
    auto skipNewline = [this](qsizetype at) { return at < m_text.size() && m_text.at(at) == u'\n' ? at + 1 : at; };
    QRegularExpressionMatchIterator it = tag.globalMatch(m_text);
    QString openSection;
    qsizetype openedAt = 0;
    bool skipping = false;
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        const QString kind = match.captured(1);
        const QString name = match.captured(2);
        if (!values.contains(name)) {
            return Result<QString>::failure(
                QStringLiteral("%1:%2: the template uses {{%3}}, which this flow does not provide")
                    .arg(m_origin)
                    .arg(lineAt(m_text, match.capturedStart()))
                    .arg(name));
        }
        if (!skipping) {
            out += QStringView(m_text).mid(position, match.capturedStart() - position);
        }
        position = match.capturedEnd();
        if (kind == u"#") {
            if (!openSection.isEmpty()) {
                return Result<QString>::failure(QStringLiteral("%1:%2: section {{#%3}} opens inside {{#%4}}")
                                                    .arg(m_origin)
                                                    .arg(lineAt(m_text, match.capturedStart()))
                                                    .arg(name, openSection));
            }
            openSection = name;
            openedAt = match.capturedStart();
            skipping = values.value(name).trimmed().isEmpty();
            position = skipNewline(position);
        } else if (kind == u"/") {
            if (name != openSection) {
                return Result<QString>::failure(QStringLiteral("%1:%2: {{/%3}} closes no open section")
                                                    .arg(m_origin)
                                                    .arg(lineAt(m_text, match.capturedStart()))
                                                    .arg(name));
            }
            openSection.clear();
            skipping = false;
            position = skipNewline(position);
        } else if (!skipping) {
            out += values.value(name);
        }
    }
    if (!openSection.isEmpty()) {
        return Result<QString>::failure(QStringLiteral("%1:%2: section {{#%3}} is never closed")
                                            .arg(m_origin)
                                            .arg(lineAt(m_text, openedAt))
                                            .arg(openSection));
    }
    out += QStringView(m_text).mid(position);
    return Result<QString>::success(out);
}

} // namespace sf
