#include "suite/CaseEditor.h"

#include "suite/SuiteDocument.h"
#include "suite/VerifierForm.h"

#include <QDir>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

namespace sf {

namespace {

// Replacing text moves the cursor to the start: only do it when undo or another case changed it.
void showText(QPlainTextEdit *edit, const QString &text)
{
    if (edit->toPlainText() == text)
        return;
    const QSignalBlocker blocker(edit);
    edit->setPlainText(text);
}

QString cleanWorkspacePath(const QString &path)
{
    const QString clean = QDir::cleanPath(path.trimmed());
    if (clean.isEmpty() || clean == QLatin1String(".") || clean.startsWith(u'/') || clean == QLatin1String("..") ||
        clean.startsWith(QLatin1String("../")))
        return {};
    return clean;
}

} // namespace

CaseEditor::CaseEditor(SuiteDocument *document, QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_tabs(new QTabWidget(this))
    , m_input(new QPlainTextEdit(this))
    , m_expected(new QPlainTextEdit(this))
    , m_expectedOutput(new QPlainTextEdit(this))
    , m_files(new QListWidget(this))
    , m_fileContent(new QPlainTextEdit(this))
    , m_renameFile(new QPushButton(tr("Rename…"), this))
    , m_removeFile(new QPushButton(tr("Remove"), this))
    , m_verifiers(new QListWidget(this))
    , m_verifierForm(new VerifierForm(this))
    , m_removeVerifier(new QPushButton(tr("Remove"), this))
{
    m_input->setObjectName(QStringLiteral("caseInput"));
    m_expected->setObjectName(QStringLiteral("caseExpected"));
    m_expectedOutput->setObjectName(QStringLiteral("caseExpectedOutput"));
    m_files->setObjectName(QStringLiteral("caseFiles"));
    m_fileContent->setObjectName(QStringLiteral("caseFileContent"));
    m_verifiers->setObjectName(QStringLiteral("caseVerifiers"));
    m_expected->setPlaceholderText(tr("Text the answer must contain (case-insensitive), one per line"));
    m_expectedOutput->setPlaceholderText(tr("What a good answer looks like, for llm_judge verifiers"));

    // Input: the prompt and upskill's expectations on the answer.
    auto *inputPage = new QWidget(this);
    auto *inputForm = new QFormLayout(inputPage);
    inputForm->addRow(tr("Prompt:"), m_input);
    inputForm->addRow(tr("Must contain:"), m_expected);
    inputForm->addRow(tr("Good answer:"), m_expectedOutput);
    m_expected->setMaximumHeight(m_expected->fontMetrics().lineSpacing() * 5 + 12);
    m_expectedOutput->setMaximumHeight(m_expectedOutput->fontMetrics().lineSpacing() * 5 + 12);
    m_tabs->addTab(inputPage, tr("Input"));

    // Files: the workspace the student starts in.
    auto *filesPage = new QSplitter(Qt::Horizontal, this);
    auto *fileList = new QWidget(filesPage);
    auto *fileListLayout = new QVBoxLayout(fileList);
    fileListLayout->setContentsMargins(0, 0, 0, 0);
    fileListLayout->addWidget(m_files);
    auto *fileButtons = new QHBoxLayout;
    auto *addFileButton = new QPushButton(tr("Add…"), fileList);
    fileButtons->addWidget(addFileButton);
    fileButtons->addWidget(m_renameFile);
    fileButtons->addWidget(m_removeFile);
    fileListLayout->addLayout(fileButtons);
    filesPage->addWidget(fileList);
    filesPage->addWidget(m_fileContent);
    filesPage->setStretchFactor(1, 2);
    m_tabs->addTab(filesPage, tr("Files"));

    // Checks: the verifiers, each with the form of its kind.
    auto *checksPage = new QSplitter(Qt::Horizontal, this);
    auto *checkList = new QWidget(checksPage);
    auto *checkListLayout = new QVBoxLayout(checkList);
    checkListLayout->setContentsMargins(0, 0, 0, 0);
    checkListLayout->addWidget(m_verifiers);
    auto *checkButtons = new QHBoxLayout;
    auto *addVerifierButton = new QPushButton(tr("Add"), checkList);
    auto *kinds = new QMenu(addVerifierButton);
    for (const QString &type : VerifierSpec::knownTypes())
        kinds->addAction(VerifierForm::kindLabel(type), this, [this, type] { addVerifier(type); });
    addVerifierButton->setMenu(kinds);
    checkButtons->addWidget(addVerifierButton);
    checkButtons->addWidget(m_removeVerifier);
    checkListLayout->addLayout(checkButtons);
    checksPage->addWidget(checkList);
    checksPage->addWidget(m_verifierForm);
    checksPage->setStretchFactor(1, 2);
    m_tabs->addTab(checksPage, tr("Verifiers"));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs);

    const auto edit = [this](const QString &text, SuiteDocument::Field field, int item,
                             const std::function<void(TestCase &)> &change) {
        m_editing = true;
        m_document->changeCase(m_row, text, change, SuiteDocument::mergeKey(m_row, field, item));
        m_editing = false;
    };
    connect(m_input, &QPlainTextEdit::textChanged, this, [this, edit] {
        edit(tr("Edit input"), SuiteDocument::Input, 0,
             [text = m_input->toPlainText()](TestCase &c) { c.input = text; });
    });
    connect(m_expected, &QPlainTextEdit::textChanged, this, [this, edit] {
        const QStringList lines = m_expected->toPlainText().split(u'\n', Qt::SkipEmptyParts);
        edit(tr("Edit expected text"), SuiteDocument::ExpectedContains, 0,
             [lines](TestCase &c) { c.expectedContains = lines; });
    });
    connect(m_expectedOutput, &QPlainTextEdit::textChanged, this, [this, edit] {
        edit(tr("Edit good answer"), SuiteDocument::ExpectedOutput, 0,
             [text = m_expectedOutput->toPlainText()](TestCase &c) { c.expectedOutput = text; });
    });
    connect(m_fileContent, &QPlainTextEdit::textChanged, this, [this, edit] {
        const QString path = currentFile();
        if (path.isEmpty())
            return;
        edit(tr("Edit %1").arg(path), SuiteDocument::FileContent, m_files->currentRow(),
             [path, text = m_fileContent->toPlainText()](TestCase &c) { c.files[path] = text; });
    });
    connect(m_verifierForm, &VerifierForm::edited, this, [this, edit](const VerifierSpec &spec) {
        const int index = m_verifiers->currentRow();
        if (index < 0)
            return;
        edit(tr("Edit %1 verifier").arg(spec.type), SuiteDocument::Verifier, index,
             [index, spec](TestCase &c) { c.verifiers[index] = spec; });
    });
    connect(m_files, &QListWidget::currentRowChanged, this, &CaseEditor::showFile);
    connect(m_verifiers, &QListWidget::currentRowChanged, this, &CaseEditor::showVerifier);
    connect(addFileButton, &QPushButton::clicked, this, [this] {
        bool ok = false;
        const QString path =
            QInputDialog::getText(this, tr("Add Context File"), tr("Path in the workspace (e.g. src/kernel.cu):"),
                                  QLineEdit::Normal, QString(), &ok);
        if (ok && !path.isEmpty() && !addFile(path))
            QMessageBox::warning(this, tr("Add Context File"),
                                 tr("\"%1\" is already a file of this case or leaves the workspace.").arg(path));
    });
    connect(m_renameFile, &QPushButton::clicked, this, &CaseEditor::renameFile);
    connect(m_removeFile, &QPushButton::clicked, this, [this] {
        const QString path = currentFile();
        if (!path.isEmpty())
            m_document->changeCase(m_row, tr("Remove %1").arg(path), [path](TestCase &c) { c.files.remove(path); });
    });
    connect(m_removeVerifier, &QPushButton::clicked, this, [this] {
        const int index = m_verifiers->currentRow();
        if (index >= 0)
            m_document->changeCase(m_row, tr("Remove verifier"), [index](TestCase &c) { c.verifiers.removeAt(index); });
    });
    connect(m_document, &SuiteDocument::suiteChanged, this, [this] {
        if (!m_editing)
            refresh();
        else
            refreshVerifiers(); // the summaries follow the form
    });
    setRow(-1);
}

void CaseEditor::setRow(int row)
{
    m_row = row;
    refresh();
}

void CaseEditor::refresh()
{
    const QList<TestCase> &cases = m_document->suite().cases;
    if (m_row >= cases.size())
        m_row = -1;
    setEnabled(m_row >= 0);
    const TestCase c = m_row >= 0 ? cases.at(m_row) : TestCase{};
    showText(m_input, c.input);
    showText(m_expected, c.expectedContains.join(u'\n'));
    showText(m_expectedOutput, c.expectedOutput);
    refreshFiles();
    refreshVerifiers();
    m_tabs->setTabText(1, c.files.isEmpty() ? tr("Files") : tr("Files (%1)").arg(c.files.size()));
}

void CaseEditor::refreshFiles()
{
    const QMap<QString, QString> files =
        m_row >= 0 ? m_document->suite().cases.at(m_row).files : QMap<QString, QString>{};
    const QString current = currentFile();
    {
        const QSignalBlocker blocker(m_files);
        m_files->clear();
        m_files->addItems(files.keys());
        const int at = int(files.keys().indexOf(current));
        m_files->setCurrentRow(at >= 0 ? at : (files.isEmpty() ? -1 : 0));
    }
    showFile();
}

void CaseEditor::refreshVerifiers()
{
    const QList<VerifierSpec> verifiers =
        m_row >= 0 ? m_document->suite().cases.at(m_row).verifiers : QList<VerifierSpec>{};
    const int current = m_verifiers->currentRow();
    {
        const QSignalBlocker blocker(m_verifiers);
        m_verifiers->clear();
        for (const VerifierSpec &spec : verifiers)
            m_verifiers->addItem(VerifierForm::summary(spec));
        m_verifiers->setCurrentRow(std::min(current < 0 ? 0 : current, int(verifiers.size()) - 1));
    }
    m_tabs->setTabText(2, verifiers.isEmpty() ? tr("Verifiers") : tr("Verifiers (%1)").arg(verifiers.size()));
    if (!m_editing)
        showVerifier();
}

QString CaseEditor::currentFile() const
{
    const QListWidgetItem *item = m_files->currentItem();
    return item ? item->text() : QString();
}

void CaseEditor::showFile()
{
    const QString path = currentFile();
    m_fileContent->setEnabled(!path.isEmpty());
    m_renameFile->setEnabled(!path.isEmpty());
    m_removeFile->setEnabled(!path.isEmpty());
    showText(m_fileContent, path.isEmpty() ? QString() : m_document->suite().cases.at(m_row).files.value(path));
}

void CaseEditor::showVerifier()
{
    const int index = m_verifiers->currentRow();
    m_verifierForm->setEnabled(index >= 0);
    m_removeVerifier->setEnabled(index >= 0);
    // With no verifier chosen the form is empty, never the last one's values greyed out.
    m_verifierForm->setSpec(index >= 0 ? m_document->suite().cases.at(m_row).verifiers.at(index) : VerifierSpec{});
}

bool CaseEditor::addFile(const QString &path)
{
    const QString clean = cleanWorkspacePath(path);
    if (m_row < 0 || clean.isEmpty() || m_document->suite().cases.at(m_row).files.contains(clean))
        return false;
    m_document->changeCase(m_row, tr("Add %1").arg(clean), [clean](TestCase &c) { c.files.insert(clean, {}); });
    m_files->setCurrentRow(int(m_document->suite().cases.at(m_row).files.keys().indexOf(clean)));
    m_tabs->setCurrentIndex(1);
    return true;
}

void CaseEditor::renameFile()
{
    const QString from = currentFile();
    bool ok = false;
    const QString to = cleanWorkspacePath(
        QInputDialog::getText(this, tr("Rename Context File"), tr("New path:"), QLineEdit::Normal, from, &ok));
    if (!ok || to == from)
        return;
    if (to.isEmpty() || m_document->suite().cases.at(m_row).files.contains(to)) {
        QMessageBox::warning(this, tr("Rename Context File"), tr("That path is taken or leaves the workspace."));
        return;
    }
    m_document->changeCase(m_row, tr("Rename %1").arg(from),
                           [from, to](TestCase &c) { c.files.insert(to, c.files.take(from)); });
    m_files->setCurrentRow(int(m_document->suite().cases.at(m_row).files.keys().indexOf(to)));
}

void CaseEditor::addVerifier(const QString &type)
{
    if (m_row < 0)
        return;
    VerifierSpec spec;
    spec.type = type;
    m_document->changeCase(m_row, tr("Add %1 verifier").arg(type), [spec](TestCase &c) { c.verifiers.append(spec); });
    m_verifiers->setCurrentRow(m_verifiers->count() - 1);
    m_tabs->setCurrentIndex(2);
}

} // namespace sf
