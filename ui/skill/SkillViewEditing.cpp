// The Skill view's editing: what follows an edit (outline, form, preview, validation marks), the front-matter
// form's edits, jumping to a problem, and the notices and windows of a skill the teacher wrote. The rest of SkillView
// is in SkillView.cpp.
#include "skill/DebouncedTask.h"
#include "skill/FrontMatterForm.h"
#include "skill/LiveDraftPage.h"
#include "skill/MarkdownHighlighter.h"
#include "skill/MarkdownOutline.h"
#include "skill/MarkdownPreview.h"
#include "skill/NoticeBar.h"
#include "skill/OutlinePanel.h"
#include "skill/SkillDocument.h"
#include "skill/SkillEditor.h"
#include "skill/SkillView.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace sf {

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

} // namespace sf
