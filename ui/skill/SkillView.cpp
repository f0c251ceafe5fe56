// The Skill view: its parts, how they are laid out and wired, and what it answers as a page of the window. Files
// (open, save, versions) are in SkillViewFiles.cpp, what follows an edit in SkillViewEditing.cpp, what happens
// outside the editor (a crash, another program, a restored version) in SkillViewRecovery.cpp.
#include "skill/SkillView.h"

#include "common/Confirm.h"
#include "common/EmptyState.h"
#include "common/FindBar.h"
#include "common/TokenEstimate.h"
#include "project/Project.h"
#include "skill/DebouncedTask.h"
#include "skill/FileGuard.h"
#include "skill/FrontMatterForm.h"
#include "skill/LiveDraftPage.h"
#include "skill/MarkdownHighlighter.h"
#include "skill/MarkdownPreview.h"
#include "skill/NoticeBar.h"
#include "skill/OutlinePanel.h"
#include "skill/ProblemsPanel.h"
#include "skill/SkillEditor.h"
#include "skill/SkillFilesPanel.h"
#include "skill/SkillShareButton.h"
#include "skill/SkillViewHeader.h"
#include "skill/VersionsDialog.h"

#include <QEvent>
#include <QFileInfo>
#include <QLocale>
#include <QSplitter>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace sf {

namespace {

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
                    if (m_saveToAnnounce) {
                        const QString note = *std::exchange(m_saveToAnnounce, std::nullopt);
                        announceSave(problems, note);
                    }
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
        m_notice->showNotice(message.toHtmlEscaped().replace(u'\n', QStringLiteral("<br>")),
                             NoticeBar::Kind::Information, {{tr("OK"), {}, QStringLiteral("dismissButton")}});
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

    m_problemsSplitter = new QSplitter(Qt::Vertical, this);
    m_problemsSplitter->addWidget(m_mainSplitter);
    m_problemsSplitter->addWidget(m_problems);
    m_problemsSplitter->setStretchFactor(0, 1);
    m_problemsSplitter->setSizes({640, 110});

    auto *page = new QWidget(this);
    auto *pageLayout = new QVBoxLayout(page);
    pageLayout->setContentsMargins(0, 0, 0, 0);
    pageLayout->setSpacing(0);
    pageLayout->addWidget(m_header);
    pageLayout->addWidget(m_notice);
    pageLayout->addWidget(m_problemsSplitter, 1);
    m_stack->addWidget(m_empty);
    m_stack->addWidget(page);
    m_stack->addWidget(m_live);
    connect(m_live, &LiveDraftPage::written, this,
            [this](const QString &skillDir, const QString &promptPath, const QString &replyPath) {
                openPath(skillDir);
                showGenerationNotice(promptPath, replyPath);
            });
    connect(m_live, &LiveDraftPage::closeRequested, this,
            [this] { m_stack->setCurrentWidget(m_pageBeforeDraft ? m_pageBeforeDraft : m_empty); });
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

bool SkillView::isModified() const
{
    return !m_file.isEmpty() && m_editor->document()->isModified();
}

QPlainTextEdit *SkillView::textEditor() const
{
    return m_editor;
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
