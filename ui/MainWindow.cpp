#include "MainWindow.h"

#include "common/Documentation.h"
#include "common/ExecutorChoiceBox.h"
#include "common/JobsDock.h"
#include "common/ProjectSidebar.h"
#include "common/StatusMessages.h"
#include "common/ViewPage.h"
#include "compare/CompareView.h"
#include "jobs/JobListModel.h"
#include "kernels/KernelsView.h"
#include "project/ProjectTreeModel.h"
#include "report/ExportReportDialog.h"
#include "runs/RunsView.h"
#include "settings/PreferencesDialog.h"
#include "skill/SkillView.h"
#include "suite/SuiteEditor.h"
#include "suite/SuiteEditorDialog.h"
#include "trace/TraceView.h"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDesktopServices>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QScreen>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QUrl>

namespace sf {

MainWindow::MainWindow(JobListModel *jobs, QWidget *parent)
    : QMainWindow(parent)
    , m_jobs(jobs)
    , m_treeModel(new ProjectTreeModel(this))
    , m_sidebar(new ProjectSidebar(m_treeModel, this))
    , m_views(new QStackedWidget(this))
    , m_viewActions(new QActionGroup(this))
    , m_projectLabel(new QLabel(this))
{
    setWindowIcon(QIcon(QStringLiteral(":/icons/skillforge.svg")));
    m_pages = {new TraceView(this), new SkillView(this), new CompareView(this), new RunsView(this),
               new KernelsView(this)};
    static_cast<TraceView *>(m_pages.front())->setJobs(m_jobs);       // trace imports are listed in the Jobs panel
    static_cast<KernelsView *>(m_pages.back())->setJobs(m_jobs);      // and so are kernel checks
    static_cast<CompareView *>(page(View::Compare))->setJobs(m_jobs); // and report exports
    // An evaluation that ends is listed in the sidebar and shown in Compare, without looking for it.
    connect(static_cast<RunsView *>(page(View::Runs)), &RunsView::evaluationFinished, this,
            [this](bool, const QString &runDir) {
                m_treeModel->reload();
                page(View::Compare)->openPath(runDir);
            });
    for (ViewPage *page : m_pages) {
        m_views->addWidget(page);
        connect(page, &ViewPage::modificationChanged, this, [this] {
            updateEditActions();
            updateTitle();
        });
        connect(page, &ViewPage::traceRequested, this,
                [this](const QString &path) { openItem(ProjectItem::Kind::Trace, path); });
    }
    setCentralWidget(m_views);
    connect(m_views, &QStackedWidget::currentChanged, this, [this] {
        updateEditActions();
        if (currentView() == View::Kernels)
            static_cast<KernelsView *>(page(View::Kernels))->detectToolchain();
    });
    connect(m_sidebar, &ProjectSidebar::itemActivated, this, &MainWindow::openItem);
    connect(m_sidebar, &ProjectSidebar::revealRequested, this,
            [](const QString &folder) { QDesktopServices::openUrl(QUrl::fromLocalFile(folder)); });
    connect(m_sidebar, &ProjectSidebar::compareRequested, this, [this](const QString &runDir) {
        static_cast<CompareView *>(page(View::Compare))->showRuns(runDir);
        showView(View::Compare);
    });
    // A trace imported into the project's traces/ shows in the sidebar, selected.
    connect(static_cast<TraceView *>(page(View::Trace)), &TraceView::traceAdded, this, [this](const QString &path) {
        m_treeModel->setProject(m_project);
        m_sidebar->selectPath(path);
    });
    // Selecting a suite shows its text; activating it (double-click, Enter) opens the suite editor, a window
    // that arrowing through the sidebar must not pop up.
    connect(m_sidebar->treeView(), &QAbstractItemView::activated, this, [this](const QModelIndex &index) {
        if (!index.data(ProjectTreeModel::IsCategoryRole).toBool() &&
            ProjectItem::Kind(index.data(ProjectTreeModel::KindRole).toInt()) == ProjectItem::Kind::TestSuite)
            editSuite(index.data(ProjectTreeModel::PathRole).toString());
    });

    createActions();
    createDocks();
    statusBar()->addWidget(m_projectLabel, 1);
    connect(&StatusMessages::instance(), &StatusMessages::message, this,
            [this](const QString &text) { statusBar()->showMessage(text, 5000); });

    resize(1280, 800);
    const bool restored = restoreGeometry(m_settings.windowGeometry());
    restoreState(m_settings.windowState());
    fitOnScreen(restored);
    if (m_jobs->rowCount() == 0)
        m_jobsDock->hide();
    showView(viewFromName(m_settings.lastView()).value_or(View::Skill));
    updateTitle();
}

QString MainWindow::viewName(View view)
{
    switch (view) {
    case View::Trace:
        return QStringLiteral("trace");
    case View::Skill:
        return QStringLiteral("skill");
    case View::Compare:
        return QStringLiteral("compare");
    case View::Runs:
        return QStringLiteral("runs");
    case View::Kernels:
        return QStringLiteral("kernels");
    }
    return {};
}

std::optional<MainWindow::View> MainWindow::viewFromName(const QString &name)
{
    for (const View view : AllViews) {
        if (viewName(view) == name)
            return view;
    }
    return std::nullopt;
}

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *newProject = file->addAction(tr("&New Project…"), this, &MainWindow::chooseProjectToCreate);
    newProject->setShortcut(QKeySequence::New);
    QAction *open = file->addAction(tr("&Open Project…"), this, &MainWindow::chooseProjectToOpen);
    open->setShortcut(QKeySequence::Open);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    updateRecentMenu();
    file->addSeparator();
    // Ctrl+O stays Open Project, as everywhere; a trace has its own key.
    QAction *importTrace = file->addAction(tr("&Import Trace…"), this, [this] {
        showView(View::Trace);
        static_cast<TraceView *>(page(View::Trace))->chooseFileToImport();
    });
    importTrace->setObjectName(QStringLiteral("importTrace"));
    importTrace->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    importTrace->setToolTip(tr("Open a trace file and add it to the project's traces/"));
    file->addSeparator();
    m_saveAction = file->addAction(tr("&Save"), this, [this] { page(currentView())->save(); });
    m_saveAction->setShortcut(QKeySequence::Save);
    file->addSeparator();
    file->addAction(tr("&Export Report…"), this, [this] {
        // The run on screen (Compare's pair, the Runs view's run); else the dialog picks the newest.
        const ViewPage *shown = page(currentView());
        ExportReportDialog::exportRun(m_jobs, shown->shownRunDir(), shown->comparedRunDir(),
                                      m_project ? m_project->runsPath() : QString(), this);
    });
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    m_undoAction = edit->addAction(tr("&Undo"), this, [this] {
        if (QPlainTextEdit *editor = page(currentView())->textEditor())
            editor->undo();
    });
    m_undoAction->setShortcut(QKeySequence::Undo);
    m_redoAction = edit->addAction(tr("&Redo"), this, [this] {
        if (QPlainTextEdit *editor = page(currentView())->textEditor())
            editor->redo();
    });
    m_redoAction->setShortcut(QKeySequence::Redo);
    edit->addSeparator();
    m_findAction = edit->addAction(tr("&Find…"), this, [this] { page(currentView())->activateFind(); });
    m_findAction->setShortcut(QKeySequence::Find);
    m_replaceAction = edit->addAction(tr("R&eplace…"), this, [this] { page(currentView())->activateReplace(); });
    m_replaceAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_H));
    edit->addSeparator();
    QAction *preferences = edit->addAction(tr("&Preferences…"), this, [this] {
        PreferencesDialog dialog(m_settings, this);
        if (dialog.exec() == QDialog::Accepted) {
            // The Kernels view's "Run heavy work on" names the Slurm profile's options: show the new ones.
            for (ExecutorChoiceBox *box : findChildren<ExecutorChoiceBox *>())
                box->refresh();
        }
    });
    preferences->setShortcut(QKeySequence::Preferences);
    preferences->setMenuRole(QAction::PreferencesRole);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    QToolBar *viewBar = addToolBar(tr("Views"));
    viewBar->setObjectName(QStringLiteral("viewsToolBar"));
    viewBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    viewBar->setMovable(false);
    const std::array<QString, AllViews.size()> titles = {tr("&Trace"), tr("&Skill"), tr("&Compare"), tr("&Runs"),
                                                         tr("&Kernels")};
    const std::array<QString, AllViews.size()> icons = {QStringLiteral("trace"), QStringLiteral("skill"),
                                                        QStringLiteral("compare"), QStringLiteral("runs"),
                                                        QStringLiteral("kernels")};
    for (size_t i = 0; i < AllViews.size(); ++i) {
        QAction *action = m_viewMenu->addAction(QIcon(QStringLiteral(":/icons/%1.svg").arg(icons[i])), titles[i]);
        action->setCheckable(true);
        action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + int(i))));
        action->setData(int(i));
        m_viewActions->addAction(action);
        viewBar->addAction(action);
        connect(action, &QAction::triggered, this, [this, i] { showView(AllViews[i]); });
    }
    m_viewMenu->addSeparator();
    m_toolsMenu = menuBar()->addMenu(tr("&Tools"));
    m_toolsMenu->addAction(tr("Edit Test &Suite…"), this, &MainWindow::editChosenSuite);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *documentation = help->addAction(tr("&Documentation"), this, &MainWindow::showDocumentation);
    documentation->setShortcut(QKeySequence::HelpContents);
    documentation->setObjectName(QStringLiteral("documentation"));
    help->addSeparator();
    QAction *about = help->addAction(tr("&About Skillforge"), this, &MainWindow::showAbout);
    about->setMenuRole(QAction::AboutRole);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
    updateEditActions();
}

void MainWindow::createDocks()
{
    auto *projectDock = new QDockWidget(tr("Project"), this);
    projectDock->setObjectName(QStringLiteral("projectDock"));
    projectDock->setWidget(m_sidebar);
    // A wide view (Compare's three charts) must not squeeze the sidebar to "Trac…" and "Skil…".
    m_sidebar->setMinimumWidth(200);
    addDockWidget(Qt::LeftDockWidgetArea, projectDock);

    auto *jobsDock = new JobsDock(m_jobs, this);
    m_jobsDock = jobsDock;
    addDockWidget(Qt::BottomDockWidgetArea, m_jobsDock);
    resizeDocks({projectDock}, {260}, Qt::Horizontal);

    m_viewMenu->addAction(projectDock->toggleViewAction());
    m_viewMenu->addAction(m_jobsDock->toggleViewAction());
    statusBar()->addPermanentWidget(jobsDock->statusButton());
}

QString MainWindow::openProject(const QString &folder, bool quiet)
{
    if (!maybeSaveAll())
        return tr("cancelled");
    auto result = Project::open(folder);
    if (auto *error = std::get_if<LoadError>(&result)) {
        if (!quiet)
            QMessageBox::warning(this, tr("Cannot open project"), error->toString());
        return error->toString();
    }
    m_project = std::get<Project>(std::move(result));
    m_settings.addRecentProject(m_project->rootPath());
    updateRecentMenu();
    m_treeModel->setProject(m_project);
    for (ViewPage *page : m_pages)
        page->setProject(&*m_project);
    m_projectLabel->setText(m_project->rootPath());
    updateTitle();
    return {};
}

void MainWindow::showView(View view)
{
    m_views->setCurrentWidget(page(view));
    m_viewActions->actions().at(int(view))->setChecked(true);
    m_settings.setLastView(viewName(view));
}

MainWindow::View MainWindow::currentView() const
{
    return AllViews[size_t(m_views->currentIndex())];
}

ViewPage *MainWindow::page(View view) const
{
    return m_pages[size_t(view)];
}

QString MainWindow::openSkillDir() const
{
    return static_cast<SkillView *>(page(View::Skill))->skillFolder();
}

bool MainWindow::openFirstItemFor(View view)
{
    switch (view) {
    case View::Trace:
        return m_sidebar->selectFirst(ProjectItem::Kind::Trace);
    case View::Skill:
        return m_sidebar->selectFirst(ProjectItem::Kind::Skill);
    case View::Runs:
        return m_sidebar->selectFirst(ProjectItem::Kind::Run);
    case View::Kernels:
        return m_sidebar->selectFirst(ProjectItem::Kind::KernelTask);
    case View::Compare:
        // The newest run, which Compare shows first; selecting it opens it in the Runs view, so come back.
        if (!m_sidebar->selectFirst(ProjectItem::Kind::Run))
            return false;
        showView(View::Compare);
        return true;
    }
    return false;
}

bool MainWindow::openFirstTraceInBackground()
{
    const QList<ProjectItem> traces = m_project ? m_project->items(ProjectItem::Kind::Trace) : QList<ProjectItem>();
    if (traces.isEmpty())
        return false;
    page(View::Trace)->openPath(traces.first().path);
    return true;
}

void MainWindow::fitOnScreen(bool restored)
{
    QScreen *screen = QGuiApplication::screenAt(geometry().center());
    if (!screen)
        screen = this->screen();
    if (!screen || isMaximized() || isFullScreen())
        return;
    const QRect available = screen->availableGeometry();
    // The frame is not known before the window is shown: room for a title bar and borders.
    const QSize frame(16, 40);
    const QSize room = available.size() - frame;
    if (!restored) {
        // The first launch: the usual size where the screen has room for it, else the screen's.
        resize(size().boundedTo(room));
        return;
    }
    // A geometry saved on a larger screen (or by a version whose window grew past the screen) must not open off
    // this one.
    if (width() <= available.width() && height() <= available.height() && available.contains(geometry().topLeft()))
        return;
    resize(size().boundedTo(room));
    move(std::clamp(x(), available.left(), std::max(available.left(), available.right() - frame.width() - width())),
         std::clamp(y(), available.top(), std::max(available.top(), available.bottom() - frame.height() - height())));
}

void MainWindow::addStatusWidget(QWidget *widget)
{
    statusBar()->addPermanentWidget(widget);
}

void MainWindow::openItem(ProjectItem::Kind kind, const QString &path)
{
    View view = View::Skill;
    switch (kind) {
    case ProjectItem::Kind::Trace:
        view = View::Trace;
        break;
    case ProjectItem::Kind::Skill:
    case ProjectItem::Kind::TestSuite:
        view = View::Skill;
        break;
    case ProjectItem::Kind::Run:
        view = View::Runs;
        break;
    case ProjectItem::Kind::KernelTask:
        view = View::Kernels;
        break;
    }
    page(view)->openPath(path);
    showView(view);
}

void MainWindow::editChosenSuite()
{
    // The suite selected in the sidebar; else the project's only suite; else the user says which (or a new one).
    const QModelIndex current = m_sidebar->treeView()->currentIndex();
    if (current.isValid() && !current.data(ProjectTreeModel::IsCategoryRole).toBool() &&
        ProjectItem::Kind(current.data(ProjectTreeModel::KindRole).toInt()) == ProjectItem::Kind::TestSuite)
        return editSuite(current.data(ProjectTreeModel::PathRole).toString());
    const QList<ProjectItem> suites = m_project ? m_project->items(ProjectItem::Kind::TestSuite) : QList<ProjectItem>();
    if (suites.size() == 1)
        return editSuite(suites.first().path);
    if (suites.isEmpty())
        return editSuite({});
    QStringList names;
    for (const ProjectItem &suite : suites)
        names.append(suite.name);
    const QString newSuite = tr("A new suite");
    names.append(newSuite);
    bool ok = false;
    const QString chosen =
        QInputDialog::getItem(this, tr("Edit Test Suite"), tr("Which suite?"), names, 0, /*editable=*/false, &ok);
    if (!ok)
        return;
    const qsizetype at = names.indexOf(chosen);
    editSuite(chosen == newSuite || at < 0 ? QString() : suites.at(at).path);
}

void MainWindow::editSuite(const QString &path)
{
    SuiteEditorDialog dialog(m_project ? m_project->testsPath() : QString(), this);
    if (path.isEmpty())
        dialog.editor()->newSuite();
    else
        dialog.editor()->openFile(path); // a file that does not read shows its file:line error in the editor
    connect(dialog.editor(), &SuiteEditor::saved, this, [this] {
        if (m_project)
            m_treeModel->setProject(m_project); // a suite saved under a new name appears in the sidebar
    });
    dialog.exec();
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    m_recentMenu->setToolTipsVisible(true);
    const QStringList recent = m_settings.recentProjects();
    // Each project by the name its skillforge.json gives it (a folder without one by its own name); the folder in the
    // tooltip and the status bar, and beside the name where two share one.
    QStringList names;
    for (const QString &folder : recent) {
        const auto project = Project::open(folder);
        const Project *opened = std::get_if<Project>(&project);
        names.append(opened ? opened->name() : QFileInfo(folder).fileName());
    }
    for (qsizetype i = 0; i < recent.size(); ++i) {
        const QString folder = recent[i];
        const QString where = QDir::toNativeSeparators(folder);
        const QString text = names.count(names[i]) > 1 ? tr("%1 (%2)").arg(names[i], where) : names[i];
        QAction *action = m_recentMenu->addAction(QString(text).replace(u'&', QStringLiteral("&&")), this,
                                                  [this, folder] { openProject(folder); });
        action->setToolTip(where);
        action->setStatusTip(where);
    }
    if (!recent.isEmpty()) {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(tr("Clear List"), this, [this] {
            m_settings.clearRecentProjects();
            updateRecentMenu();
        });
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::updateEditActions()
{
    if (!m_saveAction)
        return;
    ViewPage *current = page(currentView());
    QPlainTextEdit *editor = current->textEditor();
    m_saveAction->setEnabled(current->isModified());
    m_undoAction->setEnabled(editor && !editor->isReadOnly());
    m_redoAction->setEnabled(editor && !editor->isReadOnly());
    m_findAction->setEnabled(editor != nullptr);
    m_replaceAction->setEnabled(editor && !editor->isReadOnly() && current->canReplace());
}

void MainWindow::updateTitle()
{
    bool modified = false;
    for (const ViewPage *page : m_pages)
        modified = modified || page->isModified();
    const QString name = m_project ? m_project->name() : tr("No project");
    setWindowTitle(QStringLiteral("%1[*] — Skillforge").arg(name));
    setWindowModified(modified);
}

bool MainWindow::maybeSaveAll()
{
    for (ViewPage *page : m_pages) {
        if (!page->maybeSave())
            return false;
    }
    return true;
}

void MainWindow::chooseProjectToOpen()
{
    const QString folder =
        QFileDialog::getExistingDirectory(this, tr("Open Project"), m_project ? m_project->rootPath() : QString());
    if (!folder.isEmpty())
        openProject(folder);
}

void MainWindow::chooseProjectToCreate()
{
    const QString folder = QFileDialog::getExistingDirectory(this, tr("New Project — choose an empty folder"));
    if (folder.isEmpty())
        return;
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("New Project"), tr("Project name:"), QLineEdit::Normal,
                                               QFileInfo(folder).fileName(), &ok);
    if (!ok || name.trimmed().isEmpty())
        return;
    auto created = Project::create(folder, name.trimmed());
    if (auto *error = std::get_if<LoadError>(&created)) {
        QMessageBox::warning(this, tr("Cannot create project"), error->toString());
        return;
    }
    openProject(folder);
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About Skillforge"),
                       tr("<h3>Skillforge %1</h3><p>A studio for teaching language models with agent skills: import "
                          "a teacher's trace, turn it into a skill, and measure whether it helps cheaper student "
                          "models.</p><p>Built with Qt %2.</p>")
                           .arg(QStringLiteral(SKILLFORGE_VERSION), QString::fromLatin1(qVersion())));
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!maybeSaveAll()) {
        event->ignore();
        return;
    }
    m_settings.setWindowGeometry(saveGeometry());
    m_settings.setWindowState(saveState());
    event->accept();
}

void MainWindow::showDocumentation()
{
    const QString readme = documentation::readme();
    if (readme.isEmpty()) {
        QMessageBox::information(this, tr("Documentation"),
                                 tr("The user's guide is not installed here. It was looked for at:\n%1")
                                     .arg(documentation::candidates(QCoreApplication::applicationDirPath())
                                              .join(QStringLiteral("\n"))));
        return;
    }
    if (!QDesktopServices::openUrl(QUrl::fromLocalFile(readme)))
        QMessageBox::information(this, tr("Documentation"),
                                 tr("No program here opens Markdown files. The user's guide is at:\n%1")
                                     .arg(QDir::toNativeSeparators(readme)));
}

} // namespace sf
