#pragma once

#include <QStyledItemDelegate>

namespace sf {

/// Paints a timeline row with its kind's look: a coloured mark and label, a tinted background for
/// errors. Rows keep one height, so the view can lay out a million of them without measuring.
class StepDelegate final : public QStyledItemDelegate
{
    Q_OBJECT

public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override;

    /// The colour of a step kind's badge, for the current light or dark palette.
    static QColor kindColor(int kind);
    static QString kindLabel(int kind);

private:
    static QColor lightKindColor(int kind);
};

} // namespace sf
