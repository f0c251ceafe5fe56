#pragma once

#include <QLabel>
#include <QWidget>

namespace sf {

/// A centred title and explanation shown where a view has nothing to show yet.
class EmptyState final : public QWidget
{
    Q_OBJECT

public:
    explicit EmptyState(QWidget *parent = nullptr);
    void setText(const QString &title, const QString &explanation);
    QString title() const { return m_title->text(); }
    QString explanation() const { return m_explanation->text(); }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void fitLabels();

    QLabel *m_title;
    QLabel *m_explanation;
};

} // namespace sf
