#pragma once

#include <QSyntaxHighlighter>
#include <QTextCharFormat>
#include <array>

namespace sf {

/**
 * Highlights SKILL.md and the other files of a skill: the YAML front matter (keys, values, comments),
 * Markdown (headings, emphasis, links, lists, quotes, inline code) and fenced code blocks, whose info
 * string picks a language: cuda, c++ (cpp, c, h), python (py), bash (sh, shell, console), json.
 * A whole file can be highlighted as one of those languages too (scripts/check.py).
 *
 * Works line by line with a block state (front matter, fenced code of a language, inside a C comment), so
 * a keystroke re-highlights one line unless it opens or closes a block.
 */
class MarkdownHighlighter final : public QSyntaxHighlighter
{
    Q_OBJECT

public:
    enum class Language
    {
        Markdown,
        Plain,
        Cuda,
        Cpp,
        Python,
        Bash,
        Json
    };
    enum class Role
    {
        Fence,
        YamlKey,
        YamlValue,
        YamlComment,
        Heading,
        Emphasis,
        Strong,
        InlineCode,
        LinkText,
        LinkUrl,
        ListMarker,
        Quote,
        Keyword,
        Type,
        Builtin,
        String,
        Number,
        Comment,
        Preprocessor,
        JsonKey,
        Count
    };

    /// What a line of code leaves open for the next one (kept in the block state).
    enum class Carry
    {
        None,
        CComment,
        PythonTripleDouble,
        PythonTripleSingle
    };

    explicit MarkdownHighlighter(QTextDocument *document);

    /// Markdown (the default) or a code language for the whole file.
    void setDocumentLanguage(Language language);
    Language documentLanguage() const { return m_documentLanguage; }

    /// The language a fence's info string names ("```cuda", "```c++ title", "~~~py"); Plain when unknown.
    static Language languageForFence(QStringView info);
    /// The language of a file by its suffix: .md -> Markdown, .cu/.cuh -> Cuda, .py -> Python, ...
    static Language languageForFile(const QString &fileName);

    QTextCharFormat format(Role role) const { return m_formats[size_t(role)]; }
    /// Picks the colours again for the current palette (light or dark) and re-highlights.
    void updateColors();

protected:
    void highlightBlock(const QString &text) override;

private:
    void highlightYaml(const QString &text);
    void highlightMarkdownLine(const QString &text);
    void highlightInline(const QString &text, int from);
    /// Highlights @p text as code, starting inside @p carry; returns what it leaves open.
    Carry highlightCode(const QString &text, Language language, Carry carry);

    std::array<QTextCharFormat, size_t(Role::Count)> m_formats;
    Language m_documentLanguage = Language::Markdown;
};

} // namespace sf
