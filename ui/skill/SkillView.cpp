#include "skill/SkillView.h"

#include "common/AtomicFile.h"
#include "common/Confirm.h"
#include "common/EmptyState.h"
#include "common/FindBar.h"
#include "common/StatusMessages.h"
#include "common/TokenEstimate.h"
#include "project/Project.h"
#include "skill/DebouncedTask.h"
#include "skill/FileGuard.h"
#include "skill/FrontMatterForm.h"
#include "skill/LiveDraftPage.h"
#include "skill/MarkdownHighlighter.h"
#include "skill/MarkdownOutline.h"
#include "skill/MarkdownPreview.h"
#include "skill/NoticeBar.h"
#include "skill/OutlinePanel.h"
#include "skill/ProblemsPanel.h"
#include "skill/SkillDocument.h"
#include "skill/SkillEditor.h"
#include "skill/SkillFilesPanel.h"
#include "skill/SkillFolder.h"
#include "skill/SkillVersionStore.h"
#include "skill/SkillShareButton.h"
#include "skill/SkillViewHeader.h"
#include "skill/VersionsDialog.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace sf {

namespace {

constexpr qint64 MaxEditableBytes = 8 * 1024 * 1024;
constexpr int PreviewDebounceMs = 250;
constexpr int ValidationDebounceMs = 300;
constexpr int OutlineDebounceMs = 250;
constexpr int FormDebounceMs = 150;

} // namespace

SkillView::SkillView(QWidget *parent)
    : ViewPage(parent)
    , m_confirm([this](const QString &title, const QString &question) { return askToConfirm(this, title, question); })
    , m_stack(new QStackedWidget(this))
    , m_empty(new EmptyState(this))
    , m_live(new LiveDraftPage(this))
    , m_header(new SkillViewHeader(this))
    , m_notice(new NoticeBar(this))
    , m_files(new SkillFilesPanel(this))
    , m_outline(new OutlinePanel(this))
    , m_form(new FrontMatterForm(this))
    , m_editor(new SkillEditor(this))
    , m_highlighter(new MarkdownHighlighter(m_editor->document()))
    , m_findBar(new FindBar(m_editor, this))
    , m_preview(new MarkdownPreview(this))
    , m_problems(new ProblemsPanel(this))
    , m_guard(new FileGuard(m_editor, this))
{
    m_empty->setText(tr("No skill selected"),
                     tr("Choose a skill or a test suite in the project sidebar. A skill is a folder with SKILL.md "
                        "(YAML front matter and Markdown) plus optional references/, scripts/ and assets/."));
    buildLayout();

    m_validation = new DebouncedTask(
        ValidationDebounceMs,
        [this]() -> DebouncedTask::Work {
            if (m_folder.isEmpty())
                return {};
            const QString dir = m_folder;
            const ValidationProfile profile = m_problems->profile();
            std::optional<QString> text;
            if (isEditingSkillMd())
                text = m_editor->toPlainText();
            const QString skillMd = relativePath(m_file);
            return [this, dir, profile, text, skillMd]() -> DebouncedTask::Apply {
                const QList<SkillProblem> problems = validateSkill(dir, profile, text);
                const int tokens = text ? estimateTokens(*text) : -1;
                return [this, problems, tokens, skillMd] {
                    m_problems->setProblems(problems);
                    markProblemLines(problems);
                    if (tokens >= 0)
                        m_files->setLiveTokens(skillMd, tokens);
                    updateTitle();
                    Q_EMIT validated();
                };
            };
        },
        this);
    m_preview->setDebounceInterval(PreviewDebounceMs);
    m_preview->setInputProvider([this] {
        MarkdownPreview::Input input;
        input.text = m_editor->toPlainText();
        input.baseDir = QFileInfo(m_file).absolutePath();
        if (isEditingSkillMd())
            input.mode = MarkdownPreview::Mode::Skill;
        else if (m_highlighter->documentLanguage() == MarkdownHighlighter::Language::Markdown)
            input.mode = MarkdownPreview::Mode::Markdown;
        else
            input.mode = MarkdownPreview::Mode::Code;
        return input;
    });

    m_outlineTimer.setSingleShot(true);
    m_outlineTimer.setInterval(OutlineDebounceMs);
    connect(&m_outlineTimer, &QTimer::timeout, this, &SkillView::updateOutline);
    m_formTimer.setSingleShot(true);
    m_formTimer.setInterval(FormDebounceMs);
    connect(&m_formTimer, &QTimer::timeout, this, &SkillView::syncFormFromSource);
    connect(m_guard, &FileGuard::autosaved, this, &SkillView::autosaved);
    connect(m_guard, &FileGuard::autosaveFailed, this,
            [this](const QString &error) { showError(tr("Autosave failed: %1").arg(error)); });
    connect(m_guard, &FileGuard::changedOnDisk, this, &SkillView::onChangedOnDisk);
    connect(m_guard, &FileGuard::removedFromDisk, this, [this] {
        m_notice->showNotice(tr("<b>%1</b> was deleted or moved by another program. Saving writes it again.")
                                 .arg(relativePath(m_file).toHtmlEscaped()),
                             NoticeBar::Kind::Warning, {{tr("OK"), {}, QStringLiteral("dismissButton")}});
    });
    connect(m_guard, &FileGuard::diskChecked, this, &SkillView::diskChecked);

    connectEditor();
    connect(m_form, &FrontMatterForm::fieldEdited, this, &SkillView::applyFormEdit);
    connect(m_outline, &OutlinePanel::headingActivated, this, [this](int line) { m_editor->goTo(line); });
    connect(m_problems, &ProblemsPanel::problemActivated, this, &SkillView::jumpToProblem);
    connect(m_problems, &ProblemsPanel::profileChanged, m_validation, &DebouncedTask::runNow);
    connect(m_files, &SkillFilesPanel::fileActivated, this, [this](const QString &file) {
        if (file != m_file && maybeSave())
            openFile(file);
        else
            m_files->setCurrentFile(m_file);
    });
    connect(m_files, &SkillFilesPanel::fileRenamed, this, [this](const QString &from, const QString &to) {
        if (from != m_file)
            return;
        // The open file moved: keep editing it (and its unsaved edits) under the new name.
        m_file = to;
        m_guard->moveTo(to);
        updateTitle();
    });
    connect(m_files, &SkillFilesPanel::fileRemoved, this, [this](const QString &path) {
        if (path != m_file)
            return;
        m_guard->removeRecovery();
        m_editor->document()->setModified(false);
        openFile(skillMdPath());
    });
    connect(m_files, &SkillFilesPanel::fileAdded, m_validation, &DebouncedTask::request);
    connect(m_files, &SkillFilesPanel::fileRenamed, m_validation, &DebouncedTask::request);
    connect(m_files, &SkillFilesPanel::fileRemoved, m_validation, &DebouncedTask::request);
    // Each change in the files panel stores versions; an open Versions dialog lists them.
    const auto reloadVersions = [this] {
        if (m_versions)
            m_versions->reload();
    };
    connect(m_files, &SkillFilesPanel::fileAdded, this, reloadVersions);
    connect(m_files, &SkillFilesPanel::fileRenamed, this, reloadVersions);
    connect(m_files, &SkillFilesPanel::fileRemoved, this, reloadVersions);
    connect(m_preview, &MarkdownPreview::fileLinkActivated, this, [this](const QString &path) {
        if (!m_folder.isEmpty() && path.startsWith(m_folder + u'/') && QFileInfo(path).isFile() && maybeSave())
            openFile(path);
    });
    connect(m_header, &SkillViewHeader::formToggled, this, &SkillView::updatePanels);
    connect(m_header, &SkillViewHeader::previewToggled, this, [this](bool on) {
        updatePanels();
        if (on && isPreviewShown())
            m_preview->renderNow();
    });
    connect(m_header, &SkillViewHeader::versionsRequested, this, &SkillView::showVersions);
    m_files->setConfirm(m_confirm);
    m_header->shareButton()->setConfirm(m_confirm);
    connect(m_header->shareButton(), &SkillShareButton::reported, this, [this](const QString &message) {
        m_notice->showNotice(message.toHtmlEscaped().replace(u'\n', QStringLiteral("<br>")), NoticeBar::Kind::Information,
                             {{tr("OK"), {}, QStringLiteral("dismissButton")}});
    });
    updatePanels();
}

SkillView::~SkillView()
{
    // Nothing may react to the editor while the children go away; closing like this (as a crash would) keeps
    // the recovery file.
    m_editor->document()->disconnect(this);
    m_editor->document()->disconnect(m_guard);
    m_editor->disconnect(this);
}

void SkillView::changeEvent(QEvent *event)
{
    ViewPage::changeEvent(event);
    // A switch between the light and dark themes: the highlighting and the preview pick their colours again.
    if (event->type() == QEvent::PaletteChange) {
        m_highlighter->updateColors();
        if (isPreviewShown())
            m_preview->requestRender();
    }
}

void SkillView::buildLayout()
{
    auto *editorPane = new QWidget(this);
    auto *editorLayout = new QVBoxLayout(editorPane);
    editorLayout->setContentsMargins(0, 0, 0, 0);
    editorLayout->setSpacing(0);
    editorLayout->addWidget(m_form);
    editorLayout->addWidget(m_editor, 1);
    editorLayout->addWidget(m_findBar);

    m_leftSplitter = new QSplitter(Qt::Vertical, this);
    m_leftSplitter->addWidget(m_files);
    m_leftSplitter->addWidget(m_outline);
    m_leftSplitter->setSizes({220, 320});

    m_mainSplitter = new QSplitter(this);
    m_mainSplitter->addWidget(m_leftSplitter);
    m_mainSplitter->addWidget(editorPane);
    m_mainSplitter->addWidget(m_preview);
    m_mainSplitter->setStretchFactor(0, 0);
    m_mainSplitter->setStretchFactor(1, 3);
    m_mainSplitter->setStretchFactor(2, 2);
    // At 1280 px the file and outline names need the left column's 260 px more than the preview needs its last 40.
    m_mainSplitter->setSizes({260, 540, 380});
    m_mainSplitter->setChildrenCollapsible(false);

    auto *vertical = new QSplitter(Qt::Vertical, this);
    vertical->addWidget(m_mainSplitter);
    vertical->addWidget(m_problems);
    vertical->setStretchFactor(0, 1);
    vertical->setSizes({640, 110});

    auto *page = new QWidget(this);
    auto *pageLayout = new QVBoxLayout(page);
    pageLayout->setContentsMargins(0, 0, 0, 0);
    pageLayout->setSpacing(0);
    pageLayout->addWidget(m_header);
    pageLayout->addWidget(m_notice);
    pageLayout->addWidget(vertical, 1);
    m_stack->addWidget(m_empty);
    m_stack->addWidget(page);
    m_stack->addWidget(m_live);
    connect(m_live, &LiveDraftPage::written, this,
            [this](const QString &skillDir, const QString &promptPath, const QString &replyPath) {
                openPath(skillDir);
                showGenerationNotice(promptPath, replyPath);
            });
    connect(m_live, &LiveDraftPage::closeRequested, this, [this] {
        m_stack->setCurrentWidget(m_pageBeforeDraft ? m_pageBeforeDraft : m_empty);
    });
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);
}

void SkillView::connectEditor()
{
    QTextDocument *document = m_editor->document();
    connect(document, &QTextDocument::contentsChange, this, &SkillView::onContentsChange);
    connect(document, &QTextDocument::modificationChanged, this, [this](bool modified) {
        updateTitle();
        Q_EMIT modificationChanged(modified);
    });
    connect(m_editor, &SkillEditor::firstVisibleLineChanged, m_preview, &MarkdownPreview::scrollToSourceLine);
    connect(m_editor, &QPlainTextEdit::cursorPositionChanged, this,
            [this] { m_outline->setCurrentLine(m_editor->cursorLine()); });
}

void SkillView::onContentsChange(int position, int removed, int added)
{
    Q_UNUSED(position)
    // The highlighter reports format-only changes; they are no edit.
    if (removed == 0 && added == 0)
        return;
    if (m_file.isEmpty())
        return;
    m_outlineTimer.start();
    if (isPreviewShown())
        m_preview->requestRender();
    m_validation->request();
    if (isEditingSkillMd() && !m_applyingFormEdit)
        m_formTimer.start();
}

void SkillView::setProject(const Project *project)
{
    m_project = project;
    if (project) {
        if (const auto profile = profileFromName(project->defaults().validationProfile))
            m_problems->setProfile(*profile);
    }
    closeFile();
    m_folder.clear();
    m_files->setFolder({});
    m_stack->setCurrentWidget(m_empty);
}

void SkillView::showLiveDraft(SkillGenerator *generator, const QString &teacher)
{
    if (m_stack->currentWidget() != m_live)
        m_pageBeforeDraft = m_stack->currentWidget();
    m_live->follow(generator, teacher);
    m_stack->setCurrentWidget(m_live);
}

void SkillView::showGenerationNotice(const QString &promptPath, const QString &replyPath)
{
    if (replyPath.isEmpty())
        return;
    // The streamed draft is gone once the skill opens: say where the exchange is kept, and show it on demand.
    const QString folder = QDir(m_folder).relativeFilePath(QFileInfo(replyPath).absolutePath());
    m_notice->showNotice(tr("The teacher wrote this skill. Its prompt and reply are kept in <code>%1/</code> "
                            "(%2 and %3).")
                             .arg(folder.toHtmlEscaped(), QFileInfo(promptPath).fileName().toHtmlEscaped(),
                                  QFileInfo(replyPath).fileName().toHtmlEscaped()),
                         NoticeBar::Kind::Information,
                         {{tr("Show Reply"), [this, replyPath] { showStoredText(replyPath, tr("Teacher's reply")); },
                           QStringLiteral("showReply")},
                          {tr("Show Prompt"), [this, promptPath] { showStoredText(promptPath, tr("Prompt sent")); },
                           QStringLiteral("showPrompt")},
                          {tr("Dismiss"), {}, QStringLiteral("dismissButton")}});
}

void SkillView::showStoredText(const QString &path, const QString &title)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        showError(tr("Cannot read %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
        return;
    }
    auto *dialog = new QDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setObjectName(QStringLiteral("storedTextDialog"));
    dialog->setWindowTitle(QStringLiteral("%1 — %2").arg(title, QFileInfo(path).fileName()));
    auto *text = new QPlainTextEdit(dialog);
    text->setReadOnly(true);
    text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    text->setPlainText(QString::fromUtf8(file.readAll()));
    auto *where = new QLabel(QDir::toNativeSeparators(path), dialog);
    where->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(where);
    layout->addWidget(text, 1);
    layout->addWidget(buttons);
    dialog->resize(900, 640);
    dialog->show();
}

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

bool SkillView::isModified() const
{
    return !m_file.isEmpty() && m_editor->document()->isModified();
}

QPlainTextEdit *SkillView::textEditor() const
{
    return m_editor;
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
        if (const auto *versionError = std::get_if<QString>(&version))
            showError(tr("Saved, but no version was stored: %1").arg(*versionError));
        else
            m_notice->hide();
        m_files->refresh();
        if (m_versions)
            m_versions->reload();
    }
    m_validation->request();
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

void SkillView::activateFind()
{
    if (m_stack->currentIndex() == 1)
        m_findBar->activate();
}

bool SkillView::canReplace() const
{
    return true;
}

void SkillView::activateReplace()
{
    if (m_stack->currentIndex() == 1)
        m_findBar->activateReplace();
}

bool SkillView::isBusy() const
{
    return m_preview->isBusy() || m_validation->isBusy();
}

ValidationProfile SkillView::profile() const
{
    return m_problems->profile();
}

void SkillView::setProfile(ValidationProfile profile)
{
    m_problems->setProfile(profile);
}

void SkillView::setConfirm(Confirm confirm)
{
    m_confirm = std::move(confirm);
    m_files->setConfirm(m_confirm);
    m_header->shareButton()->setConfirm(m_confirm);
    if (m_versions)
        m_versions->setConfirm(m_confirm);
}

void SkillView::setIntervals(int previewMs, int validationMs, int autosaveMs)
{
    m_preview->setDebounceInterval(previewMs);
    m_validation->setInterval(validationMs);
    m_outlineTimer.setInterval(previewMs);
    m_formTimer.setInterval(qMin(previewMs, FormDebounceMs));
    m_guard->setAutosaveInterval(autosaveMs);
}

void SkillView::applyFormEdit(const QString &key, const QString &value)
{
    if (!isEditingSkillMd())
        return;
    const SkillDocument document = SkillDocument::parse(m_editor->toPlainText());
    // Required keys stay (empty) when cleared, so that the problem shows where the key is.
    const bool required = key == u"name" || key == u"description";
    const QString text = document.withScalar(key, value, !required);
    m_applyingFormEdit = true;
    m_editor->replaceText(text);
    m_applyingFormEdit = false;
}

void SkillView::syncFormFromSource()
{
    if (isEditingSkillMd())
        m_form->setDocument(SkillDocument::parse(m_editor->toPlainText()));
}

void SkillView::updateOutline()
{
    const bool markdown = m_highlighter->documentLanguage() == MarkdownHighlighter::Language::Markdown;
    m_outline->setHeadings(markdown && !m_file.isEmpty() ? markdownHeadings(m_editor->toPlainText())
                                                         : QList<OutlineHeading>());
    m_outline->setCurrentLine(m_editor->cursorLine());
}

void SkillView::markProblemLines(const QList<SkillProblem> &problems)
{
    // The problems of the file in the editor, beside their lines; the panel below lists every file's.
    QMap<int, SkillEditor::LineMark> marks;
    const QString shown = relativePath(m_file);
    for (const SkillProblem &problem : problems) {
        if (problem.line <= 0 || problem.file != shown)
            continue;
        const bool error = problem.severity == SkillProblem::Severity::Error;
        const auto it = marks.find(problem.line);
        if (it == marks.end()) {
            marks.insert(problem.line, {error, problem.message});
        } else {
            it->error = it->error || error;
            it->message += u'\n' + problem.message;
        }
    }
    m_editor->setLineMarks(marks);
}

void SkillView::jumpToProblem(const SkillProblem &problem)
{
    if (m_folder.isEmpty())
        return;
    const QString file = QDir(m_folder).filePath(problem.file);
    if (file != m_file) {
        if (!QFileInfo(file).isFile() || !maybeSave() || !openFile(file))
            return;
    }
    if (problem.line > 0)
        m_editor->goTo(problem.line, problem.column);
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

const RecoveryStore &SkillView::recoveryStore() const
{
    return m_guard->store();
}

VersionsDialog *SkillView::versionsDialog() const
{
    return m_versions;
}

void SkillView::updatePanels()
{
    const bool skillMd = isEditingSkillMd();
    const bool markdown = m_highlighter->documentLanguage() == MarkdownHighlighter::Language::Markdown;
    m_form->setVisible(skillMd && m_header->isFormWanted());
    // Code (scripts, test suites) has nothing to preview; the editor gets the room.
    m_preview->setVisible(isPreviewShown());
    m_header->setAvailable(skillMd, markdown, !m_folder.isEmpty());
    m_problems->setVisible(!m_folder.isEmpty());
    m_outline->setVisible(markdown);
}

bool SkillView::isPreviewShown() const
{
    return !m_file.isEmpty() && m_header->isPreviewWanted() &&
           m_highlighter->documentLanguage() == MarkdownHighlighter::Language::Markdown;
}

QString SkillView::skillMdPath() const
{
    auto folder = SkillFolder::open(m_folder);
    if (const auto *skill = std::get_if<SkillFolder>(&folder))
        return skill->skillMdPath();
    return QDir(m_folder).filePath(QStringLiteral("SKILL.md"));
}

void SkillView::updateTitle()
{
    if (m_file.isEmpty()) {
        m_header->setFile({}, false);
        return;
    }
    const QString where = m_folder.isEmpty() ? m_file : QFileInfo(m_folder).fileName() + u'/' + relativePath(m_file);
    m_header->setFile(where, isModified());
    if (!m_folder.isEmpty()) {
        m_header->setTokens(tr("≈ %1 tokens · skill ≈ %2")
                                .arg(QLocale().toString(m_files->tokensOf(relativePath(m_file))),
                                     QLocale().toString(m_files->totalTokens())));
    } else {
        m_header->setTokens({});
    }
}

void SkillView::showError(const QString &text)
{
    m_notice->showNotice(text.toHtmlEscaped(), NoticeBar::Kind::Warning,
                         {{tr("OK"), {}, QStringLiteral("dismissButton")}});
}

} // namespace sf
