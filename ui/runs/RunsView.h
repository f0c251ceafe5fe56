#pragma once

#include "common/ViewPage.h"

class QStackedWidget;
class QTreeWidget;

namespace sf {

class EmptyState;

/// The Runs view: the project's evaluation runs, newest first, with their date and item counts.
class RunsView final : public ViewPage
{
    Q_OBJECT

public:
    explicit RunsView(QWidget *parent = nullptr);
    void setProject(const Project *project) override;
    void openPath(const QString &path) override;
    int runCount() const;

private:
    void reload();

    const Project *m_project = nullptr;
    QStackedWidget *m_stack;
    EmptyState *m_empty;
    QTreeWidget *m_table;
};

} // namespace sf
