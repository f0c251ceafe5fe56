#include "skill/PreviewDocument.h"

#include "skill/MarkdownOutline.h"
#include "skill/SkillDocument.h"

#include <QFontDatabase>
#include <QPalette>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextTable>
#include <QUrl>

namespace sf {

namespace {

constexpr qsizetype MaxValueChars = 240;

QColor mix(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t), float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}

QString displayValue(const FrontMatterEntry &entry)
{
    switch (entry.kind) {
    case FrontMatterEntry::Kind::Scalar:
        return entry.scalar;
    case FrontMatterEntry::Kind::Sequence:
        return entry.items.join(QStringLiteral(", "));
    case FrontMatterEntry::Kind::Map: {
        QStringList parts;
        for (const auto &[key, value] : entry.mapEntries)
            parts.append(key + QStringLiteral(": ") + value);
        return parts.join(QStringLiteral("; "));
    }
    case FrontMatterEntry::Kind::Null:
        break;
    }
    return {};
}

/// The front matter as a two-column table at the top of the document.
void insertFrontMatterTable(QTextDocument *doc, const SkillDocument &skill, const PreviewStyle &style)
{
    const QList<FrontMatterEntry> entries = skill.entries();
    const bool hasError = skill.yamlError().has_value();
    const int rows = int(entries.size()) + (hasError ? 1 : 0);
    if (rows == 0)
        return;
    QTextCursor cursor(doc);
    cursor.movePosition(QTextCursor::Start);
    cursor.insertBlock();
    cursor.movePosition(QTextCursor::Start);

    QTextTableFormat tableFormat;
    tableFormat.setBorder(0.5);
    tableFormat.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
    tableFormat.setBorderBrush(style.tableBorder);
    tableFormat.setBorderCollapse(true);
    tableFormat.setCellPadding(4);
    tableFormat.setCellSpacing(0);
    tableFormat.setWidth(QTextLength(QTextLength::PercentageLength, 100));
    tableFormat.setBottomMargin(10);
    QTextTable *table = cursor.insertTable(rows, 2, tableFormat);

    QTextCharFormat keyFormat;
    keyFormat.setForeground(style.muted);
    keyFormat.setFontWeight(QFont::DemiBold);
    QTextCharFormat valueFormat;
    valueFormat.setForeground(style.text);
    QTextCharFormat errorFormat;
    errorFormat.setForeground(style.error);
    int row = 0;
    for (const FrontMatterEntry &entry : entries) {
        QTextCursor keyCell = table->cellAt(row, 0).firstCursorPosition();
        QTextBlockFormat keyBlock;
        keyBlock.setNonBreakableLines(true); // the key column is as wide as its longest key
        keyCell.setBlockFormat(keyBlock);
        keyCell.insertText(entry.key, keyFormat);
        // A header, not the full text: the form and the source show long values whole.
        QString value = displayValue(entry);
        if (value.size() > MaxValueChars)
            value = value.left(MaxValueChars).trimmed() + QStringLiteral(" …");
        table->cellAt(row, 1).firstCursorPosition().insertText(value, valueFormat);
        ++row;
    }
    if (const auto error = skill.yamlError()) {
        table->cellAt(row, 0).firstCursorPosition().insertText(QObject::tr("front matter"), errorFormat);
        table->cellAt(row, 1).firstCursorPosition().insertText(
            QObject::tr("line %1: %2").arg(error->line).arg(error->message), errorFormat);
    }
}

/// Headings a step smaller than QTextDocument's defaults, which suit a page rather than a side panel.
void scaleHeadings(QTextDocument *doc)
{
    QTextCursor cursor(doc);
    for (QTextBlock block = doc->begin(); block.isValid(); block = block.next()) {
        const int level = block.blockFormat().headingLevel();
        if (level == 0)
            continue;
        QTextCharFormat format;
        format.setProperty(QTextFormat::FontSizeAdjustment, qMax(0, 3 - level));
        format.setFontWeight(QFont::Bold);
        cursor.setPosition(block.position());
        cursor.setPosition(block.position() + block.length() - 1, QTextCursor::KeepAnchor);
        cursor.mergeCharFormat(format);
    }
}

/// Code blocks and inline code get a tinted background, as on GitHub.
void styleCode(QTextDocument *doc, const PreviewStyle &style)
{
    const QStringList fixedFamilies = style.fixedFont.families();
    const auto isCode = [&](const QTextCharFormat &format) {
        return format.fontFixedPitch() ||
               (!fixedFamilies.isEmpty() && format.fontFamilies().toStringList() == fixedFamilies);
    };
    QTextCursor cursor(doc);
    for (QTextBlock block = doc->begin(); block.isValid(); block = block.next()) {
        const QTextBlockFormat format = block.blockFormat();
        if (format.hasProperty(QTextFormat::BlockCodeFence) || format.hasProperty(QTextFormat::BlockCodeLanguage)) {
            QTextBlockFormat code;
            code.setBackground(style.codeBackground);
            code.setLeftMargin(6);
            code.setRightMargin(6);
            cursor.setPosition(block.position());
            cursor.mergeBlockFormat(code);
            continue;
        }
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (!isCode(fragment.charFormat()))
                continue;
            QTextCharFormat inlineCode;
            inlineCode.setBackground(style.codeBackground);
            cursor.setPosition(fragment.position());
            cursor.setPosition(fragment.position() + fragment.length(), QTextCursor::KeepAnchor);
            cursor.mergeCharFormat(inlineCode);
        }
    }
}

} // namespace

PreviewStyle PreviewStyle::from(const QPalette &palette, const QFont &font)
{
    PreviewStyle style;
    style.font = font;
    style.fixedFont = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    style.text = palette.color(QPalette::Text);
    style.muted = palette.color(QPalette::Disabled, QPalette::Text);
    style.codeBackground = mix(palette.color(QPalette::Base), palette.color(QPalette::Text), 0.06);
    style.tableBorder = mix(palette.color(QPalette::Base), palette.color(QPalette::Text), 0.25);
    style.error = QColor(0xb3, 0x58, 0x06);
    return style;
}

std::unique_ptr<QTextDocument> buildPreviewDocument(const QString &text, const QString &baseDir, PreviewMode mode,
                                                    const PreviewStyle &style, QList<PreviewAnchor> *anchors)
{
    auto doc = std::make_unique<QTextDocument>();
    doc->setDefaultFont(style.font);
    doc->setDocumentMargin(12);
    doc->setBaseUrl(QUrl::fromLocalFile(baseDir + u'/'));
    anchors->clear();
    anchors->append({1, 0});
    if (mode == PreviewMode::Code) {
        QTextCharFormat code;
        code.setFont(style.fixedFont);
        QTextCursor(doc.get()).insertText(text, code);
    } else {
        SkillDocument skill;
        QString body = text;
        if (mode == PreviewMode::Skill) {
            skill = SkillDocument::parse(text);
            body = skill.body();
        }
        doc->setMarkdown(body, QTextDocument::MarkdownDialectGitHub);
        styleCode(doc.get(), style);
        scaleHeadings(doc.get());
        if (mode == PreviewMode::Skill)
            insertFrontMatterTable(doc.get(), skill, style);
        // Pair the source's headings with the rendered ones, in order.
        const QList<OutlineHeading> headings = markdownHeadings(text);
        qsizetype next = 0;
        for (QTextBlock block = doc->begin(); block.isValid() && next < headings.size(); block = block.next()) {
            if (block.blockFormat().headingLevel() > 0)
                anchors->append({headings[next++].line, block.position()});
        }
    }
    anchors->append({int(text.count(u'\n')) + 2, qMax(0, doc->characterCount() - 1)});
    return doc;
}

} // namespace sf
