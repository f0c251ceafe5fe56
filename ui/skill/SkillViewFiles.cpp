// The Skill view's files: opening a skill folder or a file, closing it, saving it (with a version, and a word when
// what was saved does not validate), and the versions dialog. The rest of SkillView is in SkillView.cpp.
#include "common/AtomicFile.h"
#include "common/Plural.h"
#include "common/StatusMessages.h"
#include "project/Project.h"
#include "skill/DebouncedTask.h"
#include "skill/FileGuard.h"
#include "skill/MarkdownHighlighter.h"
#include "skill/MarkdownPreview.h"
#include "skill/NoticeBar.h"
#include "skill/OutlinePanel.h"
#include "skill/ProblemsModel.h"
#include "skill/ProblemsPanel.h"
#include "skill/SkillEditor.h"
#include "skill/SkillFilesPanel.h"
#include "skill/SkillFolder.h"
#include "skill/SkillShareButton.h"
#include "skill/SkillVersionStore.h"
#include "skill/SkillView.h"
#include "skill/SkillViewHeader.h"
#include "skill/VersionsDialog.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QTreeView>
#include <algorithm>

namespace sf {

namespace {

constexpr qint64 MaxEditableBytes = 8 * 1024 * 1024;

} // namespace

void SkillView::closeFile()
{
    m_validation->cancel();
    m_outlineTimer.stop();
    m_formTimer.stop();
    m_guard->close();
    m_file.clear();
    m_recovery.reset();
    m_reloadOffered = false;
    m_notice->hide();
    m_editor->clear(); // m_file is empty: onContentsChange ignores it
    m_editor->document()->setModified(false);
    m_preview->clear();
    m_outline->setHeadings({});
    m_problems->setProblems({});
    m_editor->setLineMarks({});
    updateTitle();
}

void SkillView::openPath(const QString &path)
{
    const QFileInfo info(path);
    if (!maybeSave())
        return;
    closeFile();
    if (info.isDir()) {
        m_folder = QDir::cleanPath(info.absoluteFilePath());
        m_files->setFolder(m_folder);
        m_header->shareButton()->setSkill(m_folder, m_project ? m_project->rootPath() : QString());
        const QString skillMd = skillMdPath();
        if (QFileInfo::exists(skillMd))
            openFile(skillMd);
        else
            m_validation->runNow();
    } else {
        m_folder.clear();
        m_header->shareButton()->setSkill({}, {});
        m_files->setSingleFile(info.absoluteFilePath());
        openFile(info.absoluteFilePath());
    }
    m_stack->setCurrentIndex(1);
    updatePanels();
}

bool SkillView::openFile(const QString &file)
{
    QFile input(file);
    if (file.isEmpty() || !input.open(QIODevice::ReadOnly)) {
        if (!file.isEmpty())
            showError(QStringLiteral("%1: %2").arg(file, input.errorString()));
        return false;
    }
    if (input.size() > MaxEditableBytes) {
        showError(tr("%1 is larger than %2 MB; open it in a text editor.").arg(file).arg(MaxEditableBytes >> 20));
        return false;
    }
    const QByteArray bytes = input.readAll();
    closeFile();
    // The text goes in before m_file is set, so that loading it does not count as an edit.
    m_highlighter->setDocumentLanguage(MarkdownHighlighter::languageForFile(file));
    m_editor->setPlainText(QString::fromUtf8(bytes));
    m_editor->document()->setModified(false);
    m_file = QFileInfo(file).absoluteFilePath();
    m_guard->open(m_file, bytes);
    m_files->setCurrentFile(m_file);
    updatePanels();
    syncFormFromSource();
    updateOutline();
    if (isPreviewShown())
        m_preview->renderNow();
    m_validation->runNow();
    offerRecovery();
    updateTitle();
    Q_EMIT fileOpened(m_file);
    return true;
}

bool SkillView::isEditingSkillMd() const
{
    if (m_folder.isEmpty() || m_file.isEmpty())
        return false;
    const QString relative = relativePath(m_file);
    return relative.compare(QStringLiteral("SKILL.md"), Qt::CaseInsensitive) == 0;
}

QString SkillView::relativePath(const QString &file) const
{
    return m_folder.isEmpty() ? QFileInfo(file).fileName() : QDir(m_folder).relativeFilePath(file);
}

QString SkillView::skillMdPath() const
{
    auto folder = SkillFolder::open(m_folder);
    if (const auto *skill = std::get_if<SkillFolder>(&folder))
        return skill->skillMdPath();
    return QDir(m_folder).filePath(QStringLiteral("SKILL.md"));
}

bool SkillView::save()
{
    if (m_file.isEmpty())
        return true;
    const QByteArray bytes = m_editor->toPlainText().toUtf8();
    if (!m_folder.isEmpty()) {
        // What is on disk now may be in no version yet (the skill as first opened, or another program's edits).
        const auto kept = SkillVersionStore(m_folder).keepBeforeChange(tr("saving %1").arg(relativePath(m_file)));
        if (const auto *keepError = std::get_if<QString>(&kept)) {
            QMessageBox::critical(this, tr("Save failed"),
                                  tr("Not saved: the skill as it is on disk could not be kept as a version first, "
                                     "so saving would lose it.\n\n%1")
                                      .arg(*keepError));
            return false;
        }
    }
    const QString error = writeFileAtomically(m_file, bytes);
    if (!error.isEmpty()) {
        QMessageBox::critical(this, tr("Save failed"), error);
        return false;
    }
    m_reloadOffered = false;
    m_recovery.reset();
    m_guard->saved(bytes);
    m_editor->document()->setModified(false);
    if (!m_folder.isEmpty()) {
        SkillVersionStore store(m_folder);
        const auto version = store.snapshot(QStringLiteral("user"), tr("Saved %1").arg(relativePath(m_file)));
        QString note;
        if (const auto *versionError = std::get_if<QString>(&version)) {
            note = tr("Saved, but no version was stored: %1").arg(*versionError);
            showError(note);
        } else {
            m_notice->hide();
        }
        m_files->refresh();
        if (m_versions)
            m_versions->reload();
        // Saved whatever its problems (an edit is never lost), but not without a word: the validation of what was
        // saved says whether it has errors.
        m_saveToAnnounce = note;
        m_validation->runNow();
    }
    StatusMessages::show(tr("Saved %1").arg(QDir::toNativeSeparators(m_file)));
    Q_EMIT saved(m_file);
    return true;
}

bool SkillView::maybeSave()
{
    if (!isModified())
        return true;
    const auto answer = QMessageBox::question(
        this, tr("Unsaved changes"), tr("%1 has unsaved changes. Save them?").arg(QFileInfo(m_file).fileName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save)
        return save();
    if (answer == QMessageBox::Discard) {
        m_recovery.reset();
        m_guard->removeRecovery();
        m_editor->document()->setModified(false);
        return true;
    }
    return false;
}

VersionsDialog *SkillView::showVersions()
{
    if (m_folder.isEmpty())
        return nullptr;
    if (!m_versions) {
        m_versions = new VersionsDialog(
            m_folder,
            [this] {
                return std::pair{relativePath(m_file), m_editor->toPlainText()};
            },
            this);
        m_versions->setAttribute(Qt::WA_DeleteOnClose);
        m_versions->setConfirm(m_confirm);
        connect(m_versions, &VersionsDialog::restored, this, &SkillView::onVersionRestored);
    }
    m_versions->show();
    m_versions->raise();
    return m_versions;
}

VersionsDialog *SkillView::versionsDialog() const
{
    return m_versions;
}

const RecoveryStore &SkillView::recoveryStore() const
{
    return m_guard->store();
}

void SkillView::announceSave(const QList<SkillProblem> &problems, const QString &note)
{
    QStringList errors;
    for (const SkillProblem &problem : problems) {
        if (!problem.isError())
            continue;
        const QString where =
            problem.line > 0 ? QStringLiteral("%1:%2").arg(problem.file).arg(problem.line) : problem.file;
        errors.append(QStringLiteral("%1: %2").arg(where, problem.message));
    }
    if (errors.isEmpty())
        return; // a version store's complaint is already shown
    QString said = errors.mid(0, 2).join(QStringLiteral("; "));
    if (errors.size() > 2)
        said += tr("; and %1 more").arg(errors.size() - 2);
    const QString count = plural(errors.size(), tr("1 error"), tr("%n errors"));
    QString text = tr("Saved with %1: %2").arg(count, said);
    if (!note.isEmpty())
        text += QStringLiteral(" ") + note;
    m_notice->showNotice(text.toHtmlEscaped(), NoticeBar::Kind::Warning,
                         {{tr("Show Problems"), [this] { openProblems(); }, QStringLiteral("showProblemsButton")},
                          {tr("OK"), {}, QStringLiteral("dismissButton")}});
    openProblems();
    StatusMessages::show(tr("Saved %1 with %2").arg(relativePath(m_file), count));
}

void SkillView::openProblems()
{
    m_problems->show();
    // A panel the user dragged shut opens to a few rows.
    const QList<int> sizes = m_problemsSplitter->sizes();
    const int wanted = m_problems->sizeHint().height();
    if (sizes.value(1) < wanted / 2) {
        const int total = sizes.value(0) + sizes.value(1);
        m_problemsSplitter->setSizes({std::max(0, total - wanted), wanted});
    }
    const QList<SkillProblem> &listed = m_problems->model()->problems();
    const auto error = std::find_if(listed.begin(), listed.end(), [](const SkillProblem &p) { return p.isError(); });
    if (error != listed.end()) {
        const QModelIndex index = m_problems->model()->index(int(error - listed.begin()), 0);
        m_problems->view()->setCurrentIndex(index);
        m_problems->view()->scrollTo(index);
    }
}

} // namespace sf
