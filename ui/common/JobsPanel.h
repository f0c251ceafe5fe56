#pragma once

#include <QWidget>

class QPushButton;
class QTreeView;

namespace sf {

class JobListModel;

/// The Jobs panel: every long piece of work on a line of its own, with its progress bar, time left and a cancel
/// button; "Clear finished" beside the list.
class JobsPanel final : public QWidget
{
    Q_OBJECT

public:
    static constexpr int MaxRowsShown = 3;

    explicit JobsPanel(JobListModel *model, QWidget *parent = nullptr);

    /// Tall enough for every job up to MaxRowsShown, whole: the dock grows with the list, then it scrolls.
    QSize sizeHint() const override;
    QTreeView *view() const { return m_view; }

private:
    JobListModel *m_model;
    QTreeView *m_view;
    QPushButton *m_clear;
};

} // namespace sf
