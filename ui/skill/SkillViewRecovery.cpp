// The Skill view's answers to what happens outside the editor: a crash left unsaved edits behind, another
// program changed the open file, or a restored version replaced the folder's files. The rest of SkillView is in
// SkillView.cpp.

#include "skill/FileGuard.h"
#include "skill/NoticeBar.h"
#include "skill/SkillEditor.h"
#include "skill/SkillFilesPanel.h"
#include "skill/SkillView.h"

#include <QFile>
#include <QFileInfo>
#include <QLocale>

namespace sf {

void SkillView::offerRecovery()
{
    m_recovery = m_guard->pendingRecovery(m_editor->toPlainText());
    if (!m_recovery)
        return;
    m_notice->showNotice(
        tr("<b>%1</b> has unsaved edits from %2 that were never saved — Skillforge did not close normally. "
           "Recover them?")
            .arg(relativePath(m_file).toHtmlEscaped(),
                 QLocale().toString(m_recovery->savedAt.toLocalTime(), QLocale::ShortFormat)),
        NoticeBar::Kind::Warning,
        {{tr("Recover"), [this] { acceptRecovery(); }, QStringLiteral("recoverButton")},
         {tr("Discard"), [this] { discardRecovery(); }, QStringLiteral("discardRecoveryButton")}});
}

void SkillView::acceptRecovery()
{
    if (!m_recovery)
        return;
    const QString text = m_recovery->text;
    m_recovery.reset();
    m_notice->hide();
    // One undoable edit on top of the saved text: undo shows what is on disk.
    m_editor->replaceText(text);
    syncFormFromSource();
}

void SkillView::discardRecovery()
{
    m_recovery.reset();
    m_notice->hide();
    m_guard->removeRecovery();
}

void SkillView::onChangedOnDisk(const QByteArray &bytes)
{
    if (!isModified()) {
        reloadFrom(bytes);
        Q_EMIT reloadedFromDisk();
        return;
    }
    m_reloadOffered = true;
    m_notice->showNotice(tr("<b>%1</b> was changed by another program, and you have unsaved edits.")
                             .arg(relativePath(m_file).toHtmlEscaped()),
                         NoticeBar::Kind::Warning,
                         {{tr("Reload (Discard My Edits)"), [this] { acceptReload(); }, QStringLiteral("reloadButton")},
                          {tr("Keep My Edits"), [this] { keepLocalEdits(); }, QStringLiteral("keepButton")}});
}

void SkillView::reloadFrom(const QByteArray &bytes)
{
    m_guard->acknowledgeDisk(bytes);
    m_guard->removeRecovery();
    // An undoable edit, so a reload can be taken back; then the text is what is on disk, unmodified.
    m_editor->replaceText(QString::fromUtf8(bytes));
    m_editor->document()->setModified(false);
    syncFormFromSource();
    m_files->refresh();
}

void SkillView::acceptReload()
{
    m_reloadOffered = false;
    m_notice->hide();
    QFile file(m_file);
    if (file.open(QIODevice::ReadOnly)) {
        reloadFrom(file.readAll());
        Q_EMIT reloadedFromDisk();
    }
}

void SkillView::keepLocalEdits()
{
    m_reloadOffered = false;
    m_notice->hide();
    // Do not ask again about the same change on disk; saving will overwrite it.
    QFile file(m_file);
    if (file.open(QIODevice::ReadOnly))
        m_guard->acknowledgeDisk(file.readAll());
}

void SkillView::onVersionRestored()
{
    // The folder now holds the restored files: show them, dropping the editor's unsaved edits.
    const QString file = m_file;
    m_guard->removeRecovery();
    m_editor->document()->setModified(false);
    m_files->refresh();
    openFile(QFileInfo::exists(file) ? file : skillMdPath());
}

} // namespace sf
