#pragma once

#include <QLabel>

namespace sf {

/// A one-line label that never widens its window: text longer than the room it is given is elided (at @p mode's
/// end), the whole of it in the tooltip. Its minimum width is a few characters; its preferred width the whole text.
/// Plain text only.
class ElidedLabel final : public QLabel
{
    Q_OBJECT

public:
    explicit ElidedLabel(QWidget *parent = nullptr, Qt::TextElideMode mode = Qt::ElideRight);

    QSize minimumSizeHint() const override;
    /// True while the text does not fit and is shown elided.
    bool isElided() const;

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override;

private:
    Qt::TextElideMode m_mode;
};

} // namespace sf
