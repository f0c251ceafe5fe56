// Highlighting of SKILL.md: front matter, Markdown and fenced code per language; and the outline's headings.
#include "SkippedChecks.h"
#include "skill/MarkdownHighlighter.h"
#include "skill/MarkdownOutline.h"

#include <QPlainTextDocumentLayout>
#include <QTest>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>

using namespace sf;
using Role = MarkdownHighlighter::Role;
using Language = MarkdownHighlighter::Language;

namespace {

const QString Sample = QStringLiteral("---\n"                                                       // 1
                                      "name: my-skill\n"                                            // 2
                                      "description: \"Does things\" # note\n"                       // 3
                                      "---\n"                                                       // 4
                                      "\n"                                                          // 5
                                      "# Title with `code`\n"                                       // 6
                                      "\n"                                                          // 7
                                      "Some **bold** and *italic* and [a link](references/a.md).\n" // 8
                                      "- item one\n"                                                // 9
                                      "```cuda\n"                                                   // 10
                                      "__global__ void k(const float* x) { // kernel\n"             // 11
                                      "  int i = threadIdx.x; /* start\n"                           // 12
                                      "  still comment */ return;\n"                                // 13
                                      "}\n"                                                         // 14
                                      "```\n"                                                       // 15
                                      "```python\n"                                                 // 16
                                      "def f(x):  # comment\n"                                      // 17
                                      "    return 'text'\n"                                         // 18
                                      "```\n"                                                       // 19
                                      "~~~bash\n"                                                   // 20
                                      "# not a heading\n"                                           // 21
                                      "echo \"$HOME\" && export X=1\n"                              // 22
                                      "~~~\n"                                                       // 23
                                      "```json\n"                                                   // 24
                                      "{\"key\": true, \"n\": 12}\n"                                // 25
                                      "```\n"                                                       // 26
                                      "## After the code\n");                                       // 27

/// The format the highlighter gave @p column (1-based) of @p line (1-based).
QTextCharFormat formatAt(const QTextDocument &doc, int line, int column)
{
    const QTextBlock block = doc.findBlockByNumber(line - 1);
    QTextCharFormat found;
    for (const QTextLayout::FormatRange &range : block.layout()->formats()) {
        if (column - 1 >= range.start && column - 1 < range.start + range.length)
            found = range.format;
    }
    return found;
}

int columnOf(const QTextDocument &doc, int line, const QString &needle)
{
    return int(doc.findBlockByNumber(line - 1).text().indexOf(needle)) + 1;
}

} // namespace

class TestMarkdownHighlighter : public QObject
{
    Q_OBJECT

private:
    bool hasRole(const MarkdownHighlighter &h, const QTextDocument &doc, int line, const QString &needle, Role role)
    {
        const int column = columnOf(doc, line, needle);
        if (column <= 0)
            return false;
        return formatAt(doc, line, column) == h.format(role);
    }

private Q_SLOTS:
    void fencedCudaBlock_keywordsTypesBuiltinsAndComments()
    {
        QTextDocument doc;
        // As in the editor: a plain-text layout, with which edits are highlighted as they happen.
        doc.setDocumentLayout(new QPlainTextDocumentLayout(&doc));
        MarkdownHighlighter h(&doc);
        doc.setPlainText(Sample);
        QVERIFY(hasRole(h, doc, 10, QStringLiteral("```cuda"), Role::Fence));
        QVERIFY(hasRole(h, doc, 11, QStringLiteral("__global__"), Role::Keyword));
        QVERIFY(hasRole(h, doc, 11, QStringLiteral("void"), Role::Type));
        QVERIFY(hasRole(h, doc, 11, QStringLiteral("const"), Role::Keyword));
        QVERIFY(hasRole(h, doc, 11, QStringLiteral("// kernel"), Role::Comment));
        QVERIFY(hasRole(h, doc, 12, QStringLiteral("threadIdx"), Role::Builtin));
        QVERIFY(hasRole(h, doc, 12, QStringLiteral("/* start"), Role::Comment));
        // A block comment carries over to the next line, and ends there.
        QVERIFY(hasRole(h, doc, 13, QStringLiteral("still"), Role::Comment));
        QVERIFY(hasRole(h, doc, 13, QStringLiteral("return"), Role::Keyword));
        QVERIFY(hasRole(h, doc, 15, QStringLiteral("```"), Role::Fence));
    }

    void otherLanguages_pythonBashJson()
    {
        QTextDocument doc;
        // As in the editor: a plain-text layout, with which edits are highlighted as they happen.
        doc.setDocumentLayout(new QPlainTextDocumentLayout(&doc));
        MarkdownHighlighter h(&doc);
        doc.setPlainText(Sample);
        QVERIFY(hasRole(h, doc, 17, QStringLiteral("def"), Role::Keyword));
        QVERIFY(hasRole(h, doc, 17, QStringLiteral("# comment"), Role::Comment));
        QVERIFY(hasRole(h, doc, 18, QStringLiteral("'text'"), Role::String));
        QVERIFY(hasRole(h, doc, 21, QStringLiteral("# not"), Role::Comment));
        QVERIFY(hasRole(h, doc, 22, QStringLiteral("echo"), Role::Builtin));
        QVERIFY(hasRole(h, doc, 22, QStringLiteral("\"$HOME\""), Role::String));
        QVERIFY(hasRole(h, doc, 22, QStringLiteral("export"), Role::Builtin));
        QVERIFY(hasRole(h, doc, 25, QStringLiteral("\"key\""), Role::JsonKey));
        QVERIFY(hasRole(h, doc, 25, QStringLiteral("true"), Role::Keyword));
        QVERIFY(hasRole(h, doc, 25, QStringLiteral("12"), Role::Number));
    }

    void frontMatterAndMarkdown()
    {
        QTextDocument doc;
        // As in the editor: a plain-text layout, with which edits are highlighted as they happen.
        doc.setDocumentLayout(new QPlainTextDocumentLayout(&doc));
        MarkdownHighlighter h(&doc);
        doc.setPlainText(Sample);
        QVERIFY(hasRole(h, doc, 1, QStringLiteral("---"), Role::Fence));
        QVERIFY(hasRole(h, doc, 2, QStringLiteral("name"), Role::YamlKey));
        QVERIFY(hasRole(h, doc, 2, QStringLiteral("my-skill"), Role::YamlValue));
        QVERIFY(hasRole(h, doc, 3, QStringLiteral("# note"), Role::YamlComment));
        QVERIFY(hasRole(h, doc, 6, QStringLiteral("Title"), Role::Heading));
        QVERIFY(hasRole(h, doc, 8, QStringLiteral("**bold**"), Role::Strong));
        QVERIFY(hasRole(h, doc, 8, QStringLiteral("*italic*"), Role::Emphasis));
        QVERIFY(hasRole(h, doc, 8, QStringLiteral("a link"), Role::LinkText));
        QVERIFY(hasRole(h, doc, 8, QStringLiteral("references/a.md"), Role::LinkUrl));
        QVERIFY(hasRole(h, doc, 9, QStringLiteral("-"), Role::ListMarker));
        QVERIFY(hasRole(h, doc, 27, QStringLiteral("After"), Role::Heading));
    }

    void editing_openingFence_rehighlightsFollowingLines()
    {
        QTextDocument doc;
        // As in the editor: a plain-text layout, with which edits are highlighted as they happen.
        doc.setDocumentLayout(new QPlainTextDocumentLayout(&doc));
        MarkdownHighlighter h(&doc);
        doc.setPlainText(QStringLiteral("text\nint x = 1;\n"));
        QVERIFY(!hasRole(h, doc, 2, QStringLiteral("int"), Role::Type));
        QTextCursor cursor(&doc);
        cursor.insertText(QStringLiteral("```cpp\n"));
        // "text" is now code in a C++ block, and so is "int x".
        QVERIFY(hasRole(h, doc, 3, QStringLiteral("int"), Role::Type));
    }

    void wholeFileLanguage_fromSuffix()
    {
        QCOMPARE(MarkdownHighlighter::languageForFile(QStringLiteral("scripts/check.py")), Language::Python);
        QCOMPARE(MarkdownHighlighter::languageForFile(QStringLiteral("a/kernel.cu")), Language::Cuda);
        QCOMPARE(MarkdownHighlighter::languageForFile(QStringLiteral("SKILL.md")), Language::Markdown);
        QCOMPARE(MarkdownHighlighter::languageForFile(QStringLiteral("suite.json")), Language::Json);
        QCOMPARE(MarkdownHighlighter::languageForFile(QStringLiteral("notes.txt")), Language::Plain);
        QCOMPARE(MarkdownHighlighter::languageForFence(u"c++ title=\"x\""), Language::Cpp);
        QCOMPARE(MarkdownHighlighter::languageForFence(u"sh"), Language::Bash);

        QTextDocument doc;
        // As in the editor: a plain-text layout, with which edits are highlighted as they happen.
        doc.setDocumentLayout(new QPlainTextDocumentLayout(&doc));
        MarkdownHighlighter h(&doc);
        h.setDocumentLanguage(Language::Python);
        doc.setPlainText(QStringLiteral("# a comment, not a heading\nimport numpy as np\n"));
        QVERIFY(hasRole(h, doc, 1, QStringLiteral("# a"), Role::Comment));
        QVERIFY(hasRole(h, doc, 2, QStringLiteral("import"), Role::Keyword));
    }

    void python_tripleQuotedString_spansLines()
    {
        QTextDocument doc;
        doc.setDocumentLayout(new QPlainTextDocumentLayout(&doc));
        MarkdownHighlighter h(&doc);
        h.setDocumentLanguage(Language::Python);
        doc.setPlainText(QStringLiteral("\"\"\"Docstring\nin 3 lines\nends here\"\"\" if x else 1\nimport os\n"));
        QVERIFY(hasRole(h, doc, 1, QStringLiteral("Docstring"), Role::String));
        QVERIFY(hasRole(h, doc, 2, QStringLiteral("in"), Role::String)); // not the keyword
        QVERIFY(hasRole(h, doc, 2, QStringLiteral("3"), Role::String));  // not a number
        QVERIFY(hasRole(h, doc, 3, QStringLiteral("ends"), Role::String));
        QVERIFY(hasRole(h, doc, 3, QStringLiteral("if"), Role::Keyword));
        QVERIFY(hasRole(h, doc, 4, QStringLiteral("import"), Role::Keyword));
    }

    void outline_headingsOutsideFrontMatterAndFences()
    {
        const QList<OutlineHeading> headings = markdownHeadings(Sample);
        QCOMPARE(headings.size(), 2);
        QCOMPARE(headings[0], (OutlineHeading{6, 1, QStringLiteral("Title with `code`")}));
        QCOMPARE(headings[1], (OutlineHeading{27, 2, QStringLiteral("After the code")}));

        const QList<OutlineHeading> more = markdownHeadings(
            QStringLiteral("#NoSpace\n### Closed ###\n####### seven\n   ## indented\n    # code (4 spaces)\n"));
        QCOMPARE(more.size(), 2);
        QCOMPARE(more[0], (OutlineHeading{2, 3, QStringLiteral("Closed")}));
        QCOMPARE(more[1], (OutlineHeading{4, 2, QStringLiteral("indented")}));
        QVERIFY(markdownHeadings(QString()).isEmpty());
    }
};

SF_TEST_MAIN(TestMarkdownHighlighter)
#include "test_markdown_highlighter.moc"
