#include "GuiStartup.h"

#include "CommandRegistry.h"
#include "LlmServices.h"
#include "MainWindow.h"
#include "common/Theme.h"
#include "common/ViewPage.h"
#include "eval/SandboxCommand.h"
#include "generate/GenerateSkillDialog.h"
#include "generate/RefineDialog.h"
#include "generate/SkillGenerator.h"
#include "jobs/JobListModel.h"
#include "llm/LocalRuntime.h"
#include "models/LocalModelStatus.h"
#include "models/TryModelDialog.h"
#include "project/AppSettings.h"
#include "project/Project.h"
#include "project/SampleProject.h"
#include "runs/RunsView.h"
#include "settings/PricesDialog.h"
#include "settings/ProvidersPage.h"
#include "skill/SkillView.h"
#include "trace/TraceView.h"
#include "trigger/TriggerLabDialog.h"

#include <QApplication>
#include <QDeadlineTimer>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QImageWriter>
#include <QMenu>
#include <QMessageBox>
#include <QPixmap>
#include <QPushButton>
#include <QSaveFile>
#include <QThread>
#include <QTimer>
#include <QVBoxLayout>

namespace sf {

namespace {

// Waits, with the event loop running, until no view is busy (file reads, tool detection) or time is up.
bool anyViewBusy(MainWindow &window)
{
    for (const MainWindow::View view : MainWindow::AllViews) {
        if (window.page(view)->isBusy())
            return true;
    }
    return false;
}

void settle(MainWindow &window, int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    auto busy = [&] { return anyViewBusy(window); };
    do {
        QApplication::processEvents(QEventLoop::AllEvents, 50);
        QThread::msleep(10);
    } while (busy() && !deadline.hasExpired());
    for (int i = 0; i < 5; ++i) // let layouts and deferred paints land
        QApplication::processEvents();
}

/// Writes @p path once no view is loading any more and the events queued by then are handled, so that a script
/// driving the GUI measures or clicks what the user would see, not a window still filling.
void writeReadyFileOnceSettled(MainWindow &window, const QString &path)
{
    auto *poll = new QTimer(&window);
    poll->setInterval(50);
    QObject::connect(poll, &QTimer::timeout, &window, [&window, poll, path] {
        if (anyViewBusy(window))
            return;
        poll->stop();
        poll->deleteLater();
        QTimer::singleShot(0, &window, [path] {
            QSaveFile file(path);
            if (!file.open(QIODevice::WriteOnly) || file.write("ready\n") < 0 || !file.commit())
                cli::err(QStringLiteral("skillforge: cannot write the ready file %1\n").arg(path));
        });
    });
    poll->start();
}

void wireModels(MainWindow &window, LlmServices &llm, JobListModel &jobs)
{
    auto *localStatus = new LocalModelStatus(llm.localServer(), jobs, &window);
    window.addStatusWidget(localStatus);
    auto *runs = static_cast<RunsView *>(window.page(MainWindow::View::Runs));
    runs->setEvalServices(&llm.chat(), &jobs);
    runs->setOpenSkill([&window] { return window.openSkillDir(); });
    QMenu *tools = window.toolsMenu();
    QAction *tryModel = tools->addAction(QObject::tr("&Try a Model…"));
    QObject::connect(tryModel, &QAction::triggered, &window, [&window, &llm] {
        QStringList models;
        if (const auto &project = window.project()) {
            models = project->defaults().students;
            if (!project->defaults().teacher.isEmpty())
                models.append(project->defaults().teacher);
        }
        if (!models.contains(LocalRuntime::qualifiedModelName()))
            models.prepend(LocalRuntime::qualifiedModelName());
        TryModelDialog dialog(llm.chat(), models, &window);
        dialog.exec();
    });
    QAction *generate = tools->addAction(QObject::tr("&Generate Skill…"));
    QObject::connect(generate, &QAction::triggered, &window, [&window, &llm, &jobs] {
        if (!window.project()) {
            return;
        }
        // Not modal: once the teacher is asked, the dialog steps aside and the reply streams into the skill
        // editor, which opens the skill when it is written (a failure brings the dialog back).
        auto *dialog = new GenerateSkillDialog(llm.chat(), jobs, *window.project(), &window);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        // The trace open in the Trace view is the one to learn from, unless the user unticks it.
        dialog->setTraceUsed(static_cast<TraceView *>(window.page(MainWindow::View::Trace))->currentPath());
        QObject::connect(dialog, &GenerateSkillDialog::generationStarted, &window,
                         [&window, dialog](SkillGenerator *generator, const QString &teacher) {
                             auto *view = static_cast<SkillView *>(window.page(MainWindow::View::Skill));
                             view->showLiveDraft(generator, teacher);
                             window.showView(MainWindow::View::Skill);
                             dialog->hide();
                         });
        dialog->show();
    });
    QAction *refine = tools->addAction(QObject::tr("&Refine Skill…"));
    QObject::connect(refine, &QAction::triggered, &window, [&window, &llm, &jobs] {
        if (!window.project()) {
            return;
        }
        // Commands the verifiers and students run only ever run in the sandbox.
        RefineDialog dialog(llm.chat(), jobs, *window.project(), sandboxCommandRunner(), &window);
        dialog.selectSkillDir(window.openSkillDir());
        QObject::connect(&dialog, &RefineDialog::skillChanged, &window, [&window](const QString &skillDir) {
            window.page(MainWindow::View::Skill)->openPath(skillDir);
        });
        dialog.exec();
    });
    QAction *trigger = tools->addAction(QObject::tr("&Trigger Lab…"));
    QObject::connect(trigger, &QAction::triggered, &window, [&window, &llm] {
        if (!window.project()) {
            return;
        }
        TriggerLabDialog dialog(llm.chat(), *window.project(), &window);
        dialog.selectSkillDir(window.openSkillDir());
        QObject::connect(&dialog, &TriggerLabDialog::skillChanged, &window, [&window](const QString &skillDir) {
            window.page(MainWindow::View::Skill)->openPath(skillDir);
        });
        dialog.exec();
    });
    QAction *providers = tools->addAction(QObject::tr("&Providers and Keys…"));
    QObject::connect(providers, &QAction::triggered, &window, [&window, &llm] {
        QDialog dialog(&window);
        dialog.setWindowTitle(QObject::tr("Providers and Keys"));
        auto *page = new ProvidersPage(llm.providers(), llm.keys(), llm.lister(), &dialog);
        auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
        QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
        auto *layout = new QVBoxLayout(&dialog);
        layout->addWidget(page);
        layout->addWidget(buttons);
        dialog.resize(860, 520);
        dialog.exec();
    });
    QAction *prices = tools->addAction(QObject::tr("Update &Prices…"));
    prices->setToolTip(QObject::tr("Where costs' prices come from; look one up; update the price table"));
    QObject::connect(prices, &QAction::triggered, &window, [&window, &llm] {
        PricesDialog dialog(llm.engine(), &window);
        dialog.exec();
    });
    tools->addSeparator();
    tools->addAction(localStatus->installAction());
    tools->addAction(localStatus->startAction());
    tools->addAction(localStatus->stopAction());
}

/// On a machine without the local model (the Debian package installs the app, not the model), say so
/// once and offer to install it; the status bar and Tools keep the offer afterwards.
void offerLocalModelInstall(MainWindow &window)
{
    AppSettings settings;
    if (LocalRuntime::isInstalled() || settings.localModelInstallOffered())
        return;
    settings.setLocalModelInstallOffered(true);
    auto *status = window.findChild<LocalModelStatus *>();
    if (!status)
        return;
    QMessageBox box(QMessageBox::Question, QObject::tr("Install the local model?"),
                    QObject::tr("Skillforge evaluates skills with %1, a small model that runs on this computer "
                                "without a key or an account. It is not installed yet.")
                        .arg(LocalRuntime::displayName()),
                    QMessageBox::NoButton, &window);
    box.setInformativeText(QObject::tr("Installing downloads about 1.1 GB and builds the llama.cpp server into %1; "
                                       "the first time takes about 10 minutes on two cores, and you can keep working "
                                       "meanwhile. Tools → Install Local Model… offers it later too.")
                               .arg(LocalRuntime::cacheDir()));
    QPushButton *install = box.addButton(QObject::tr("Install"), QMessageBox::AcceptRole);
    box.addButton(QObject::tr("Not Now"), QMessageBox::RejectRole);
    box.exec();
    if (box.clickedButton() == install)
        status->install();
}

QString projectToOpen(const GuiOptions &options, QString *error)
{
    if (!options.project.isEmpty())
        return options.project;
    if (!options.sample) {
        const QStringList recent = AppSettings().recentProjects();
        if (!recent.isEmpty())
            return recent.first();
    }
    const QString sample = SampleProject::defaultInstallPath();
    *error = SampleProject::ensureInstalled(sample);
    return error->isEmpty() ? sample : QString();
}

} // namespace

int runGui(const GuiOptions &options)
{
    std::optional<MainWindow::View> view;
    if (!options.view.isEmpty()) {
        view = MainWindow::viewFromName(options.view);
        if (!view) {
            cli::err(QStringLiteral("skillforge: unknown view '%1' (use trace, skill, compare, runs or kernels)\n")
                         .arg(options.view));
            return cli::BadUsage;
        }
    }
    const bool screenshot = !options.screenshot.isEmpty();
    if (screenshot)
        AppSettings::keepUnchangedInThisProcess(); // a picture is not a visit: recent projects and view stay
    Theme::apply(Theme::modeFromName(options.theme.isEmpty() ? AppSettings().theme() : options.theme));

    JobListModel jobs;
    LlmServices llm(LlmServices::KeyLoading::Background);
    const bool firstStart = AppSettings().lastView().isEmpty(); // the window stores the view it opens on
    MainWindow window(&jobs);
    wireModels(window, llm, jobs);
    QString error;
    const QString project = projectToOpen(options, &error);
    if (!project.isEmpty())
        error = window.openProject(project, /*quiet=*/screenshot);
    if (!error.isEmpty()) {
        if (screenshot) {
            cli::err(QStringLiteral("skillforge: %1\n").arg(error));
            return cli::BadUsage;
        }
        // The window still opens: the user can pick another project from the File menu.
        if (options.project.isEmpty())
            QMessageBox::warning(&window, QObject::tr("Cannot open the sample project"), error);
    }
    if (!view && firstStart && window.project() && !window.project()->items(ProjectItem::Kind::Run).isEmpty())
        view = MainWindow::View::Compare; // a first start on a project with runs: what the skill did, at once
    // The view opens on something: its first item (the sample's skill, trace or run), not an empty selection.
    const MainWindow::View shown = view.value_or(window.currentView());
    if (window.project())
        window.openFirstItemFor(shown);
    if (firstStart && shown != MainWindow::View::Trace)
        window.openFirstTraceInBackground(); // the sample's trace is there when the user looks
    window.showView(shown);

    if (!screenshot) {
        window.show();
        QTimer::singleShot(0, &window, [&window] { offerLocalModelInstall(window); });
        if (!options.readyFile.isEmpty())
            writeReadyFileOnceSettled(window, options.readyFile);
        return QApplication::exec();
    }

    window.resize(1360, 860);
    window.show();
    settle(window, 20000);
    const QPixmap shot = window.grab();
    QDir().mkpath(QFileInfo(options.screenshot).absolutePath());
    if (!shot.save(options.screenshot, "PNG")) {
        cli::err(QStringLiteral("skillforge: cannot write the screenshot %1\n").arg(options.screenshot));
        return cli::BadUsage;
    }
    cli::out(QStringLiteral("%1 (%2x%3)\n").arg(options.screenshot).arg(shot.width()).arg(shot.height()));
    return cli::Success;
}

} // namespace sf
