#pragma once

#include "project/AppSettings.h"
#include "project/Project.h"

#include <QMainWindow>

#include <array>
#include <optional>

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;
class QStackedWidget;

namespace sf {

class JobListModel;
class ProjectSidebar;
class ProjectTreeModel;
class ViewPage;
class KernelsView;

/**
 * The main window: the project sidebar, the five views (Trace, Skill, Compare, Runs, Kernels) in the
 * middle, the Jobs panel at the bottom, menus and the status bar. Owns no logic of its own beyond
 * routing: the views show core's data, the app wires services in.
 */
class MainWindow final : public QMainWindow
{
    Q_OBJECT

public:
    enum class View { Trace, Skill, Compare, Runs, Kernels };
    static constexpr std::array AllViews = {View::Trace, View::Skill, View::Compare, View::Runs, View::Kernels};

    explicit MainWindow(JobListModel *jobs, QWidget *parent = nullptr);

    /// Opens @p folder as the current project. On failure shows the error (unless @p quiet) and keeps
    /// the current project; returns the error message, or an empty string.
    QString openProject(const QString &folder, bool quiet = false);
    const std::optional<Project> &project() const { return m_project; }

    void showView(View view);
    View currentView() const;
    ViewPage *page(View view) const;
    /// Selects and opens the first sidebar item that @p view shows (for screenshots and first launch).
    bool openFirstItemFor(View view);
    /// Opens the project's first trace in the Trace view without switching to it (a first start on the sample, so the
    /// Trace view is not empty whichever view opens).
    bool openFirstTraceInBackground();
    /// The skill folder open in the Skill view ("" when none): what New Evaluation, Refine and the Trigger Lab
    /// start on.
    QString openSkillDir() const;

    /// Adds a permanent widget to the right of the status bar (e.g. the local model's state).
    void addStatusWidget(QWidget *widget);
    QMenu *toolsMenu() const { return m_toolsMenu; }
    ProjectSidebar *sidebar() const { return m_sidebar; }

    static QString viewName(View view);
    static std::optional<View> viewFromName(const QString &name);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    /// Keeps the window on the screen it opens on: a @p restored geometry larger than the screen (or off it) is
    /// brought onto it; a first launch's default size is bounded by the screen.
    void fitOnScreen(bool restored);
    void createActions();
    void createDocks();
    void openItem(ProjectItem::Kind kind, const QString &path);
    void updateRecentMenu();
    void updateEditActions();
    void updateTitle();
    bool maybeSaveAll();
    void chooseProjectToOpen();
    void chooseProjectToCreate();
    void showAbout();
    /// Opens the user's guide (README.md, installed or in the sources) in the desktop's program for it.
    void showDocumentation();
    /// Opens the suite editor on @p path (a new suite when empty).
    void editSuite(const QString &path);
    /// Tools → Edit Test Suite…: the selected suite, the only one, or the one the user picks.
    void editChosenSuite();

    AppSettings m_settings;
    JobListModel *m_jobs;
    std::optional<Project> m_project;
    ProjectTreeModel *m_treeModel;
    ProjectSidebar *m_sidebar;
    QStackedWidget *m_views;
    std::array<ViewPage *, AllViews.size()> m_pages{};
    QActionGroup *m_viewActions;
    QMenu *m_recentMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QMenu *m_toolsMenu = nullptr;
    QAction *m_saveAction = nullptr;
    QAction *m_undoAction = nullptr;
    QAction *m_redoAction = nullptr;
    QAction *m_findAction = nullptr;
    QAction *m_replaceAction = nullptr;
    QDockWidget *m_jobsDock = nullptr;
    QLabel *m_projectLabel;
};

} // namespace sf
