#pragma once

#include <QWidget>

class QTreeView;

namespace sf {

class JobListModel;

/// The Jobs panel: every long piece of work with its progress bar, time left and a cancel button.
class JobsPanel final : public QWidget
{
    Q_OBJECT

public:
    explicit JobsPanel(JobListModel *model, QWidget *parent = nullptr);

private:
    JobListModel *m_model;
    QTreeView *m_view;
};

} // namespace sf
