#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <variant>

namespace sf {

/// One step into a JSON document: an object key or an array index.
using JsonStep = std::variant<QString, int>;

/// Finds where a value sits in JSON text that has already parsed cleanly, so that problems found after
/// parsing (a case without input, an unknown verifier type) can name the line. QJsonDocument keeps no
/// positions; this walks the text once per lookup, which is cheap for suite-sized files.
class JsonLocator final
{
public:
    explicit JsonLocator(QByteArray text)
        : m_text(std::move(text))
    {
    }

    /// 1-based line of the value at @p path; the deepest step that was found when a later one is not
    /// there (a missing key reports its object's line).
    int lineOf(const QList<JsonStep> &path) const;

private:
    qsizetype skipSpace(qsizetype at) const;
    qsizetype skipString(qsizetype at) const; ///< at: the opening quote; returns the offset after the closing one
    qsizetype skipValue(qsizetype at) const;
    qsizetype find(qsizetype at, const QList<JsonStep> &path, int depth) const;

    QByteArray m_text;
};

} // namespace sf
