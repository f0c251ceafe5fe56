#include "trace/StepDelegate.h"

#include "common/Theme.h"
#include "trace/Trace.h"
#include "trace/TraceTimelineModel.h"

#include <QApplication>
#include <QPainter>

namespace sf {

QColor StepDelegate::kindColor(int kind)
{
    // The kinds' colours are picked for a light background; on a dark one each is lifted (the result brown and the
    // system purple were nearly black there), and either way made readable on the base colour where they are not.
    const QColor colour = Theme::isDark() ? lightKindColor(kind).lighter(170) : lightKindColor(kind);
    return Theme::readableOn(colour, QApplication::palette().color(QPalette::Base));
}

int StepDelegate::rowHeight(const QFont &font)
{
    QFont bold = font;
    bold.setBold(true);
    return std::max(QFontMetrics(font).height(), QFontMetrics(bold).height()) + 2 * VerticalPadding;
}

QSize StepDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    size.setHeight(std::max(size.height(), rowHeight(option.font)));
    return size;
}

QColor StepDelegate::lightKindColor(int kind)
{
    switch (StepKind(kind)) {
    case StepKind::UserText:
        return QColor(0x2e, 0x7d, 0x32);
    case StepKind::AssistantText:
        return QColor(0x15, 0x65, 0xc0);
    case StepKind::Thinking:
        return QColor(0x8e, 0x8e, 0x8e);
    case StepKind::ToolCall:
        return QColor(0xef, 0x6c, 0x00);
    case StepKind::ToolResult:
        return QColor(0x6d, 0x4c, 0x41);
    case StepKind::Image:
        return QColor(0x00, 0x83, 0x8f);
    case StepKind::System:
        return QColor(0x7b, 0x1f, 0xa2);
    }
    return QColor(0x60, 0x60, 0x60);
}

QString StepDelegate::kindLabel(int kind)
{
    switch (StepKind(kind)) {
    case StepKind::UserText:
        return tr("User");
    case StepKind::AssistantText:
        return tr("Assistant");
    case StepKind::Thinking:
        return tr("Thinking");
    case StepKind::ToolCall:
        return tr("Tool call");
    case StepKind::ToolResult:
        return tr("Result");
    case StepKind::Image:
        return tr("Image");
    case StepKind::System:
        return tr("System");
    }
    return tr("Thread");
}

void StepDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    if (index.column() != TraceTimelineModel::StepColumn) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const int kind = index.data(TraceTimelineModel::KindRole).toInt();
    const bool error = index.data(TraceTimelineModel::ErrorRole).toBool();
    const QString text = opt.text;
    opt.text.clear();
    QStyle *style = opt.widget ? opt.widget->style() : QApplication::style();
    const Theme::StatusColors errorColors = Theme::statusColors(Theme::Status::Fail);
    const bool selected = opt.state & QStyle::State_Selected;
    if (error && !selected)
        painter->fillRect(opt.rect, errorColors.background);
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);

    painter->save();
    // The texts get the row's whole height (the row is as tall as the font needs): a rectangle cut short by a
    // margin clips descenders, and "file_path" read "file path".
    QRect rect = opt.rect.adjusted(2, 0, -2, 0);
    const QRect markRect = opt.rect.adjusted(2, 2, -2, -2);
    if (index.data(TraceTimelineModel::KeptRole).toBool()) {
        // A bookmark at the right end: this step is in the selection kept for skill generation.
        const int size = std::max(6, markRect.height() / 2);
        const QRect mark(rect.right() - size, rect.center().y() - size / 2, size, size);
        painter->setRenderHint(QPainter::Antialiasing);
        painter->setPen(Qt::NoPen);
        painter->setBrush(selected ? opt.palette.highlightedText().color() : opt.palette.link().color());
        painter->drawEllipse(mark);
        rect.setRight(mark.left() - 4);
    }
    const QColor color = error ? errorColors.foreground : kindColor(kind);
    painter->fillRect(QRect(rect.left(), markRect.top(), 3, markRect.height()), color);
    rect.setLeft(rect.left() + 8);
    QFont badgeFont = opt.font;
    badgeFont.setBold(true);
    painter->setFont(badgeFont);
    painter->setPen(selected ? opt.palette.highlightedText().color() : color);
    const QString label = error ? tr("Error") : kindLabel(kind);
    // One label column wide enough for the widest label, so the texts line up.
    const QFontMetrics badgeMetrics(badgeFont);
    int labelWidth = badgeMetrics.horizontalAdvance(tr("Error"));
    for (int k = 0; k < StepKindCount; ++k)
        labelWidth = std::max(labelWidth, badgeMetrics.horizontalAdvance(kindLabel(k)));
    labelWidth += badgeMetrics.averageCharWidth() * 2;
    painter->drawText(rect, Qt::AlignVCenter | Qt::AlignLeft, label);
    rect.setLeft(rect.left() + labelWidth);
    painter->setFont(opt.font);
    const QColor background = error ? errorColors.background : opt.palette.base().color();
    if (selected)
        painter->setPen(opt.palette.highlightedText().color());
    else if (StepKind(kind) == StepKind::Thinking)
        painter->setPen(Theme::readableOn(opt.palette.placeholderText().color(), background));
    else
        painter->setPen(Theme::textOn(background));
    painter->drawText(rect, Qt::AlignVCenter | Qt::AlignLeft,
                      QFontMetrics(opt.font).elidedText(text, Qt::ElideRight, rect.width()));
    painter->restore();
}

} // namespace sf
