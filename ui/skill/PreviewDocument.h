#pragma once

#include <QColor>
#include <QFont>
#include <QList>
#include <QString>
#include <memory>

class QPalette;
class QTextDocument;

namespace sf {

/// What a preview shows: SKILL.md (front matter as a table, then the body), another Markdown file, or code.
enum class PreviewMode
{
    Skill,
    Markdown,
    Code
};

/// Fonts and colours of the preview, taken on the UI thread from the widget that shows it.
struct PreviewStyle
{
    QFont font;
    QFont fixedFont;
    QColor text;
    QColor muted;
    QColor codeBackground;
    QColor tableBorder;
    QColor error;

    static PreviewStyle from(const QPalette &palette, const QFont &font);
};

/// A source line and the position in the rendered document that shows it (a heading, the start, the end).
struct PreviewAnchor
{
    int sourceLine = 1;
    int position = 0;
};

/// The rendered preview of @p text: Markdown (GitHub dialect) through QTextDocument, code blocks tinted,
/// headings sized for a side panel, a SKILL.md front matter as a small table on top. @p anchors receives
/// the source line of each rendered heading (in order), plus the start and the end. Reentrant: runs on a
/// worker thread, since QTextDocument is reentrant; the document has no parent and lives in that thread.
std::unique_ptr<QTextDocument> buildPreviewDocument(const QString &text, const QString &baseDir, PreviewMode mode,
                                                    const PreviewStyle &style, QList<PreviewAnchor> *anchors);

} // namespace sf
