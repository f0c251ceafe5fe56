#pragma once

#include <QStyledItemDelegate>

namespace sf {

/// Paints a timeline row with its kind's look: a coloured mark and label, a tinted background for
/// errors. Rows keep one height, so the view can lay out a million of them without measuring; that height
/// comes from the font's metrics, so descenders and underscores are never cut.
class StepDelegate final : public QStyledItemDelegate
{
    Q_OBJECT

public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    /// Space above and below a row's text, in pixels.
    static constexpr int VerticalPadding = 3;
    /// The height a row needs with @p font: the taller of the text and its bold kind label, padded above and below.
    static int rowHeight(const QFont &font);

    /// The colour of a step kind's label, readable on the current palette's base colour.
    static QColor kindColor(int kind);
    static QString kindLabel(int kind);

private:
    static QColor lightKindColor(int kind);
};

} // namespace sf
