#pragma once

#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>
#include <optional>

namespace sf {

/// A YAML problem in the front matter, already mapped to SKILL.md coordinates.
struct FrontMatterError
{
    int line = 0;   ///< 1-based line in SKILL.md
    int column = 0; ///< 1-based
    QString message;
};

/// One top-level key of the front matter, as yaml-cpp resolved it. Plain Qt types so that callers never
/// need yaml-cpp (it stays private to skillforge_core).
struct FrontMatterEntry
{
    enum class Kind
    {
        Null,
        Scalar,
        Sequence,
        Map
    };
    QString key;
    int line = 0;     ///< 1-based SKILL.md line of the key
    int column = 0;   ///< 1-based column of the key
    int lastLine = 0; ///< last SKILL.md line that belongs to this key's value (continuations, nested blocks)
    Kind kind = Kind::Null;
    QString scalar;             ///< Kind::Scalar: the resolved value (folded/literal/quoted handled)
    QStringList items;          ///< Kind::Sequence: the items that are scalars
    bool allItemsScalar = true; ///< Kind::Sequence/Map: false when an item or value is itself a list or map
    QList<QPair<QString, QString>> mapEntries; ///< Kind::Map: scalar key -> scalar value ("" when not scalar)
    QList<bool> mapValueIsScalar;              ///< Kind::Map: whether each value is a scalar (not null, list, map)
    QList<int> mapEntryLines;                  ///< Kind::Map: 1-based SKILL.md line of each map entry
};

/// SKILL.md split into YAML front matter and Markdown body. Parsing never throws: a broken front matter
/// gives yamlError() and no keys, and the text still round-trips exactly. Editing helpers return new
/// text that touches only the lines they must, so an unedited front matter is kept byte for byte.
class SkillDocument final
{
public:
    static SkillDocument parse(const QString &text);

    QString text() const { return m_text; } ///< the exact text parsed (byte-for-byte round trip)
    bool hasFrontMatter() const { return m_hasFrontMatter; }
    int frontMatterFirstLine() const { return m_frontMatterFirstLine; } ///< line after the opening '---' (0 if none)
    int bodyFirstLine() const { return m_bodyFirstLine; }               ///< 1-based line where the body starts
    QString frontMatterText() const { return m_frontMatterText; }       ///< between the fences
    QString body() const { return m_body; }
    std::optional<FrontMatterError> yamlError() const { return m_yamlError; }

    QStringList keys() const; ///< top-level keys in file order (unknown keys included)
    QList<FrontMatterEntry> entries() const { return m_entries; }
    const FrontMatterEntry *entry(const QString &key) const; ///< nullptr when absent
    std::optional<QString> scalar(const QString &key) const; ///< nullopt when absent or not a scalar
    int keyLine(const QString &key) const;                   ///< 1-based SKILL.md line of the key, 0 if absent

    QString name() const;
    QString description() const;
    QString license() const;
    QStringList allowedTools() const; ///< space- or comma-separated string, or a YAML list

    /// The full new SKILL.md text with @p key set to @p value: the key's lines are replaced in place (or the
    /// key is appended at the end of the front matter; a front matter is created when there is none). An
    /// empty value removes the key when @p removeIfEmpty. The value is quoted when plain YAML would change
    /// it, and written as a literal block when it has newlines (see yamlScalar). Every other line is untouched.
    QString withScalar(const QString &key, const QString &value, bool removeIfEmpty = true) const;
    /// The full new SKILL.md text with the body replaced and the front matter (and fences) kept verbatim.
    QString withBody(const QString &body) const;

    /// How @p value is written after "key: " — plain when YAML reads it back unchanged, else double-quoted,
    /// or a literal block ("|-" or "|" plus indented lines) when it has newlines, unless it ends in two or more
    /// (then double-quoted: empty lines after a key stay where they are, and "|+" would take them in).
    static QString yamlScalar(const QString &value);

private:
    bool sharesLines(int first, int last) const;
    QString withWholeFrontMatterRewritten(const QString &key, const QString &value, bool remove) const;

    QString m_text;
    bool m_hasFrontMatter = false;
    int m_frontMatterFirstLine = 0;
    int m_closingFenceLine = 0; ///< 1-based line of the closing '---' (0 if none)
    bool m_flowRoot = false;    ///< the front matter is one flow mapping, "{name: a, ...}"
    int m_bodyFirstLine = 1;
    QString m_frontMatterText;
    QString m_body;
    std::optional<FrontMatterError> m_yamlError;
    QList<FrontMatterEntry> m_entries;
};

} // namespace sf
