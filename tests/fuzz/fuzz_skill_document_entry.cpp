#include "FuzzSkillDocument.h"
#include "skill/SkillDocument.h"

#include <QSet>
#include <QString>
#include <cstdio>
#include <cstdlib>

namespace sf::fuzz {

namespace {

// The input being checked, printed when a property fails so that the report shows what broke it.
thread_local const QString *t_input = nullptr;

void require(bool condition, const char *property, const QString &detail = {})
{
    if (!condition) {
        std::fprintf(stderr, "fuzzSkillDocument: property violated: %s %s\ninput: %s\n", property,
                     qUtf8Printable(detail), t_input ? qUtf8Printable(*t_input) : "");
        std::abort();
    }
}

} // namespace

int fuzzSkillDocument(const std::uint8_t *data, std::size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    t_input = &text;
    const SkillDocument doc = SkillDocument::parse(text);
    require(doc.text() == text, "text() returns the parsed text");
    require(doc.withBody(doc.body()) == text, "withBody(body()) is the identity");
    const int lines = int(text.count(u'\n')) + 1;
    require(doc.bodyFirstLine() >= 1 && doc.bodyFirstLine() <= lines + 1, "bodyFirstLine inside the file");
    if (const auto error = doc.yamlError())
        require(error->line >= 1 && error->line <= lines && error->column >= 1, "YAML error placed inside the file");

    for (const FrontMatterEntry &entry : doc.entries()) {
        require(entry.line >= doc.frontMatterFirstLine() && entry.lastLine >= entry.line &&
                    entry.lastLine < doc.bodyFirstLine(),
                "key lines inside the front matter");
        (void)doc.scalar(entry.key);
    }
    (void)doc.allowedTools();
    (void)doc.name();
    (void)doc.description();

    // Editing a key must give text whose front matter, when it still parses, holds the new value. (It may
    // stop parsing: replacing a key that defines an anchor breaks the aliases that use it.)
    const QStringList keys = doc.keys();
    const bool uniqueKeys = QSet<QString>(keys.begin(), keys.end()).size() == keys.size();
    for (const QString &key : {QStringLiteral("name"), QStringLiteral("description"), QStringLiteral("x-fuzz")}) {
        for (const QString &value : {QStringLiteral("plain value"), QStringLiteral("needs: \"quotes\" # here"),
                                     QStringLiteral("two\nlines\n"), QString()}) {
            const SkillDocument edited = SkillDocument::parse(doc.withScalar(key, value));
            if (!doc.yamlError() && doc.hasFrontMatter() && uniqueKeys && !edited.yamlError() && !value.isEmpty())
                require(edited.scalar(key) == value, "withScalar reads back", key + QStringLiteral(" = ") + value);
        }
    }
    return 0;
}

} // namespace sf::fuzz
