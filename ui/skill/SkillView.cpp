#include "skill/SkillView.h"

#include "common/AtomicFile.h"
#include "common/EmptyState.h"
#include "common/FindBar.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace sf {

namespace {
constexpr qint64 MaxEditableBytes = 8 * 1024 * 1024;
}

SkillView::SkillView(QWidget *parent)
    : ViewPage(parent)
    , m_stack(new QStackedWidget(this))
    , m_empty(new EmptyState(this))
    , m_title(new QLabel(this))
    , m_files(new QListWidget(this))
    , m_editor(new QPlainTextEdit(this))
    , m_findBar(new FindBar(m_editor, this))
{
    m_empty->setText(tr("No skill selected"),
                     tr("Choose a skill or a test suite in the project sidebar. A skill is a folder with SKILL.md "
                        "(YAML front matter and Markdown) plus optional references/, scripts/ and assets/."));
    m_title->setContentsMargins(8, 8, 8, 8);
    m_files->setAccessibleName(tr("Skill files"));
    m_editor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_editor->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_editor->setAccessibleName(tr("File text"));
    m_editor->setTabStopDistance(4 * m_editor->fontMetrics().horizontalAdvance(u' '));

    auto *editorPane = new QWidget(this);
    auto *editorLayout = new QVBoxLayout(editorPane);
    editorLayout->setContentsMargins(0, 0, 0, 0);
    editorLayout->addWidget(m_editor, 1);
    editorLayout->addWidget(m_findBar);

    auto *splitter = new QSplitter(this);
    splitter->addWidget(m_files);
    splitter->addWidget(editorPane);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({220, 800});

    auto *page = new QWidget(this);
    auto *pageLayout = new QVBoxLayout(page);
    pageLayout->setContentsMargins(0, 0, 0, 0);
    pageLayout->addWidget(m_title);
    pageLayout->addWidget(splitter, 1);
    m_stack->addWidget(m_empty);
    m_stack->addWidget(page);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);

    connect(m_files, &QListWidget::currentItemChanged, this, [this](QListWidgetItem *current, QListWidgetItem *previous) {
        if (!current)
            return;
        const QString file = current->data(Qt::UserRole).toString();
        if (file == m_file)
            return;
        if (!maybeSave() || !openFile(file)) {
            const QSignalBlocker block(m_files);
            m_files->setCurrentItem(previous);
        }
    });
    connect(m_editor->document(), &QTextDocument::modificationChanged, this, [this](bool modified) {
        updateTitle();
        Q_EMIT modificationChanged(modified);
    });
}

void SkillView::setProject(const Project *)
{
    m_folder.clear();
    m_file.clear();
    m_files->clear();
    m_editor->clear();
    m_editor->document()->setModified(false);
    m_stack->setCurrentWidget(m_empty);
}

void SkillView::openPath(const QString &path)
{
    const QFileInfo info(path);
    if (!maybeSave())
        return;
    if (info.isDir()) {
        listFolder(info.absoluteFilePath());
        const QString skillFile = QDir(info.absoluteFilePath()).filePath(QStringLiteral("SKILL.md"));
        openFile(QFileInfo::exists(skillFile) ? skillFile : QString());
    } else {
        m_folder.clear();
        m_files->clear();
        auto *item = new QListWidgetItem(info.fileName(), m_files);
        item->setData(Qt::UserRole, info.absoluteFilePath());
        openFile(info.absoluteFilePath());
    }
    m_stack->setCurrentIndex(1);
}

void SkillView::listFolder(const QString &folder)
{
    m_folder = folder;
    const QSignalBlocker block(m_files);
    m_files->clear();
    QStringList files;
    QDirIterator it(folder, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString file = it.next();
        const QString relative = QDir(folder).relativeFilePath(file);
        if (!relative.startsWith(u'.') && !relative.contains(QStringLiteral("/.")))
            files.append(relative);
    }
    // SKILL.md first, then the rest in folder order.
    std::sort(files.begin(), files.end(), [](const QString &a, const QString &b) {
        if ((a == u"SKILL.md") != (b == u"SKILL.md"))
            return a == u"SKILL.md";
        return a < b;
    });
    for (const QString &relative : std::as_const(files)) {
        auto *item = new QListWidgetItem(relative, m_files);
        item->setData(Qt::UserRole, QDir(folder).filePath(relative));
    }
}

bool SkillView::openFile(const QString &file)
{
    QFile input(file);
    if (file.isEmpty() || !input.open(QIODevice::ReadOnly)) {
        if (!file.isEmpty())
            QMessageBox::warning(this, tr("Cannot open file"), QStringLiteral("%1: %2").arg(file, input.errorString()));
        return false;
    }
    if (input.size() > MaxEditableBytes) {
        QMessageBox::information(this, tr("File too large"),
                                 tr("%1 is larger than %2 MB; open it in a text editor.").arg(file).arg(MaxEditableBytes >> 20));
        return false;
    }
    m_file = file;
    m_editor->setPlainText(QString::fromUtf8(input.readAll()));
    m_editor->document()->setModified(false);
    for (int row = 0; row < m_files->count(); ++row) {
        if (m_files->item(row)->data(Qt::UserRole).toString() == file) {
            const QSignalBlocker block(m_files);
            m_files->setCurrentRow(row);
        }
    }
    updateTitle();
    return true;
}

bool SkillView::isModified() const
{
    return !m_file.isEmpty() && m_editor->document()->isModified();
}

bool SkillView::save()
{
    if (m_file.isEmpty())
        return true;
    const QString error = writeFileAtomically(m_file, m_editor->toPlainText().toUtf8());
    if (!error.isEmpty()) {
        QMessageBox::critical(this, tr("Save failed"), error);
        return false;
    }
    m_editor->document()->setModified(false);
    return true;
}

bool SkillView::maybeSave()
{
    if (!isModified())
        return true;
    const auto answer = QMessageBox::question(this, tr("Unsaved changes"),
                                              tr("%1 has unsaved changes. Save them?").arg(QFileInfo(m_file).fileName()),
                                              QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save)
        return save();
    if (answer == QMessageBox::Discard) {
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

void SkillView::updateTitle()
{
    if (m_file.isEmpty()) {
        m_title->clear();
        return;
    }
    const QString where = m_folder.isEmpty() ? m_file : QFileInfo(m_folder).fileName() + u'/' + QDir(m_folder).relativeFilePath(m_file);
    m_title->setText(QStringLiteral("<b>%1</b>%2").arg(where.toHtmlEscaped(), isModified() ? tr(" — modified") : QString()));
}

} // namespace sf
