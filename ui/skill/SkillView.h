#pragma once

#include "common/ViewPage.h"
#include "skill/RecoveryStore.h"
#include "skill/SkillValidator.h"

#include <QPointer>
#include <QTimer>
#include <functional>
#include <optional>

class QSplitter;
class QStackedWidget;

namespace sf {

class DebouncedTask;
class EmptyState;
class FileGuard;
class FindBar;
class FrontMatterForm;
class LiveDraftPage;
class MarkdownHighlighter;
class MarkdownPreview;
class NoticeBar;
class OutlinePanel;
class ProblemsPanel;
class SkillEditor;
class SkillFilesPanel;
class SkillGenerator;
class SkillViewHeader;
class VersionsDialog;

/**
 * The Skill view: the skill editor. The files of a skill folder (SKILL.md, references/, scripts/, assets/)
 * and the outline on the left, the highlighted source in the middle with the front-matter form above it,
 * the live preview on the right and the problems of the chosen validation profile below.
 *
 * Saves are atomic and store a version; a save whose text does not validate still saves (no work is lost) but says
 * so and opens the problems; unsaved edits are autosaved to a recovery file every few seconds
 * and offered back after a crash; a change on disk by another program is reloaded (or offered, when there
 * are local edits). Everything that costs more than a keystroke (preview, validation, outline, form) is
 * debounced, and preview and validation run off the UI thread. Also edits a single file such as a test suite.
 */
class SkillView final : public ViewPage
{
    Q_OBJECT

public:
    /// Asks the user a yes/no question; replaceable so that tests need no modal dialog.
    using Confirm = std::function<bool(const QString &title, const QString &question)>;

    explicit SkillView(QWidget *parent = nullptr);
    ~SkillView() override;

    void setProject(const Project *project) override;
    /// A skill folder (lists its files, opens SKILL.md) or a single file.
    void openPath(const QString &path) override;
    bool maybeSave() override;
    bool save() override;
    bool isModified() const override;
    QPlainTextEdit *textEditor() const override;
    void activateFind() override;
    bool canReplace() const override;
    void activateReplace() override;
    bool isBusy() const override;

    /// Opens @p file (absolute) of the current skill in the editor; false when it cannot be read.
    bool openFile(const QString &file);
    QString currentFile() const { return m_file; }
    QString skillFolder() const { return m_folder; }
    bool isEditingSkillMd() const;

    ValidationProfile profile() const;
    void setProfile(ValidationProfile profile);

    /// Shows @p generator's reply streaming into a read-only editor page until the skill is written, then opens
    /// it; after a failure the page keeps the reason and the partial reply until the user closes it.
    void showLiveDraft(SkillGenerator *generator, const QString &teacher);
    LiveDraftPage *liveDraftPage() const { return m_live; }

    /// Opens the versions dialog (non-modal) and returns it.
    VersionsDialog *showVersions();
    VersionsDialog *versionsDialog() const;

    /// An unsaved-edits recovery is on offer for the open file (after a crash).
    bool hasRecoveryOffer() const { return m_recovery.has_value(); }
    void acceptRecovery();
    void discardRecovery();
    /// The open file changed on disk while it had unsaved edits.
    bool hasReloadOffer() const { return m_reloadOffered; }
    void acceptReload();
    void keepLocalEdits();

    void setConfirm(Confirm confirm);
    /// For tests: shorter debounce and autosave intervals.
    void setIntervals(int previewMs, int validationMs, int autosaveMs);
    const RecoveryStore &recoveryStore() const;

    SkillEditor *editor() const { return m_editor; }
    MarkdownHighlighter *highlighter() const { return m_highlighter; }
    MarkdownPreview *preview() const { return m_preview; }
    ProblemsPanel *problemsPanel() const { return m_problems; }
    OutlinePanel *outlinePanel() const { return m_outline; }
    SkillFilesPanel *filesPanel() const { return m_files; }
    FrontMatterForm *frontMatterForm() const { return m_form; }
    FindBar *findBar() const { return m_findBar; }
    NoticeBar *noticeBar() const { return m_notice; }

protected:
    void changeEvent(QEvent *event) override;

Q_SIGNALS:
    /// The problems panel shows the result of a validation.
    void validated();
    /// Unsaved edits were written to the recovery file.
    void autosaved();
    /// The open file was reloaded because another program changed it.
    void reloadedFromDisk();
    /// The file watcher reported the open file and the view compared it with what it last read or wrote.
    void diskChecked();
    void fileOpened(const QString &file);
    void saved(const QString &file);

private:
    void buildLayout();
    void connectEditor();
    void closeFile();
    void onContentsChange(int position, int removed, int added);
    void applyFormEdit(const QString &key, const QString &value);
    void syncFormFromSource();
    void updateOutline();
    void markProblemLines(const QList<SkillProblem> &problems);
    void showGenerationNotice(const QString &promptPath, const QString &replyPath);
    /// A read-only window on a file the generation stored (its prompt, the teacher's reply).
    void showStoredText(const QString &path, const QString &title);
    void jumpToProblem(const SkillProblem &problem);
    void offerRecovery();
    void onChangedOnDisk(const QByteArray &bytes);
    void reloadFrom(const QByteArray &bytes);
    void onVersionRestored();
    void updateTitle();
    void updatePanels();
    QString relativePath(const QString &file) const;
    QString skillMdPath() const;
    /// Markdown is open and the user wants the preview (code has nothing to preview).
    bool isPreviewShown() const;
    void showError(const QString &text);
    /// After a save, once the saved text is validated: says so when it has errors (with @p note, the version store's
    /// complaint, if any) and opens the problems panel on them.
    void announceSave(const QList<SkillProblem> &problems, const QString &note);
    /// Shows the problems panel with room for a few rows, the first error selected.
    void openProblems();

    const Project *m_project = nullptr;
    QString m_folder; ///< the skill folder, or empty for a single file
    QString m_file;
    bool m_applyingFormEdit = false;
    bool m_reloadOffered = false;
    std::optional<RecoveryEntry> m_recovery; ///< on offer
    /// Set by save() until its text is validated: what the announcement adds ("" or why no version was stored).
    std::optional<QString> m_saveToAnnounce;
    Confirm m_confirm;

    QStackedWidget *m_stack;
    EmptyState *m_empty;
    LiveDraftPage *m_live;
    QWidget *m_pageBeforeDraft = nullptr; ///< what to go back to when a failed draft is closed
    SkillViewHeader *m_header;
    NoticeBar *m_notice;
    SkillFilesPanel *m_files;
    OutlinePanel *m_outline;
    FrontMatterForm *m_form;
    SkillEditor *m_editor;
    MarkdownHighlighter *m_highlighter;
    FindBar *m_findBar;
    MarkdownPreview *m_preview;
    ProblemsPanel *m_problems;
    QSplitter *m_mainSplitter = nullptr;
    QSplitter *m_leftSplitter = nullptr;
    QSplitter *m_problemsSplitter = nullptr; ///< the editor and preview above, the problems below
    DebouncedTask *m_validation;
    QTimer m_outlineTimer;
    QTimer m_formTimer;
    FileGuard *m_guard;
    QPointer<VersionsDialog> m_versions;
};

} // namespace sf
