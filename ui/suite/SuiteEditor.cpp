#include "suite/SuiteEditor.h"

#include "common/Plural.h"
#include "skill/NoticeBar.h"
#include "suite/CaseEditor.h"
#include "suite/SuiteCasesModel.h"
#include "suite/SuiteDocument.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QSplitter>
#include <QTableView>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace sf {

namespace {

QString suiteFilter()
{
    return QObject::tr("Test suites (*.json);;All files (*)");
}

} // namespace

SuiteEditor::SuiteEditor(QWidget *parent)
    : QWidget(parent)
    , m_document(new SuiteDocument(this))
    , m_model(new SuiteCasesModel(m_document, this))
    , m_notice(new NoticeBar(this))
    , m_table(new QTableView(this))
    , m_caseEditor(new CaseEditor(m_document, this))
{
    auto *toolBar = new QToolBar(this);
    toolBar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    toolBar->addAction(tr("Open…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open Test Suite"), m_defaultFolder, suiteFilter());
        if (!path.isEmpty() && maybeSave())
            openFile(path);
    });
    m_save = toolBar->addAction(tr("Save"), this, &SuiteEditor::save);
    m_save->setShortcut(QKeySequence::Save);
    toolBar->addAction(tr("Save As…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Save Test Suite"), m_document->path().isEmpty() ? m_defaultFolder : m_document->path(),
            suiteFilter());
        if (!path.isEmpty())
            saveAs(path);
    });
    toolBar->addAction(tr("Import…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Import Cases (upskill, skill-creator evals.json, Skillforge)"), m_defaultFolder, suiteFilter());
        if (!path.isEmpty())
            importFile(path);
    });
    auto *exportMenu = new QMenu(this);
    const auto exportAs = [this](bool upskill) {
        const QString path = QFileDialog::getSaveFileName(this, upskill ? tr("Export for upskill") : tr("Export"),
                                                          m_defaultFolder, suiteFilter());
        if (!path.isEmpty())
            exportTo(path, upskill);
    };
    exportMenu->addAction(tr("Skillforge Format…"), this, [exportAs] { exportAs(false); });
    exportMenu->addAction(tr("upskill Format (its verifiers only)…"), this, [exportAs] { exportAs(true); });
    auto *exportButton = new QToolButton(toolBar);
    exportButton->setText(tr("Export"));
    exportButton->setMenu(exportMenu);
    exportButton->setPopupMode(QToolButton::InstantPopup);
    toolBar->addWidget(exportButton);
    toolBar->addSeparator();
    QAction *undo = m_document->undoStack()->createUndoAction(this, tr("Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction *redo = m_document->undoStack()->createRedoAction(this, tr("Redo"));
    redo->setShortcut(QKeySequence::Redo);
    toolBar->addAction(undo);
    toolBar->addAction(redo);
    toolBar->addSeparator();
    toolBar->addAction(tr("Add Case"), this, &SuiteEditor::addCase);
    m_duplicate = toolBar->addAction(tr("Duplicate"), this, &SuiteEditor::duplicateCase);
    m_remove = toolBar->addAction(tr("Remove"), this, &SuiteEditor::removeCase);
    // Whether there is anything to save, inside the editor (a title bar is not always in view), beside the toolbar
    // so that it never goes into the toolbar's overflow menu.
    m_modified = new QLabel(tr("● Unsaved changes"), this);
    m_modified->setObjectName(QStringLiteral("suiteModified"));
    m_modified->setContentsMargins(6, 0, 6, 0);
    m_remove->setShortcut(QKeySequence::Delete);
    m_remove->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_table->addAction(m_remove);

    m_table->setModel(m_model);
    m_table->setObjectName(QStringLiteral("suiteCases"));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setSectionResizeMode(SuiteCasesModel::Input, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(SuiteCasesModel::Checks, QHeaderView::Interactive);
    m_notice->hide();

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_table);
    splitter->addWidget(m_caseEditor);
    splitter->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *top = new QHBoxLayout;
    top->addWidget(toolBar, 1);
    top->addWidget(m_modified);
    layout->addLayout(top);
    layout->addWidget(m_notice);
    layout->addWidget(splitter, 1);

    const auto selectionChanged = [this] {
        const int row = currentRow();
        if (row != m_caseEditor->row())
            m_caseEditor->setRow(row);
        m_duplicate->setEnabled(row >= 0);
        m_remove->setEnabled(row >= 0);
    };
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, selectionChanged);
    // Cases added or removed (or such a step undone) reset the table: the selection stays on the same row.
    connect(m_model, &QAbstractItemModel::modelAboutToBeReset, this, [this] { m_rowBeforeReset = currentRow(); });
    connect(m_model, &QAbstractItemModel::modelReset, this, [this, selectionChanged] {
        selectRow(std::min(m_rowBeforeReset, m_model->rowCount() - 1));
        selectionChanged();
    });
    // After the model's own update (it connected first), so the problems read are the new ones.
    connect(m_document, &SuiteDocument::suiteChanged, this, &SuiteEditor::recheckCases);
    connect(m_document, &SuiteDocument::pathChanged, this, &SuiteEditor::updateTitle);
    connect(m_document, &SuiteDocument::modificationChanged, this, &SuiteEditor::updateTitle);
    selectionChanged();
    updateTitle();
}

int SuiteEditor::currentRow() const
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    return rows.isEmpty() ? -1 : rows.first().row();
}

void SuiteEditor::selectRow(int row)
{
    if (row >= 0 && row < m_model->rowCount())
        m_table->selectRow(row);
    else
        m_table->clearSelection();
}

QString SuiteEditor::noticeText() const
{
    return m_notice->isHidden() ? QString() : m_notice->text();
}

void SuiteEditor::showError(const QString &message)
{
    m_showsCaseProblem = false; // checkCases() says when it is one
    m_notice->showNotice(message, NoticeBar::Kind::Warning, {{tr("Dismiss"), [] {}, QStringLiteral("dismiss")}});
}

void SuiteEditor::updateTitle()
{
    m_modified->setVisible(m_document->isModified());
    m_save->setEnabled(m_document->isModified() || m_document->path().isEmpty());
    const QString name = m_document->path().isEmpty() ? tr("Untitled suite") : QFileInfo(m_document->path()).fileName();
    Q_EMIT titleChanged(QStringLiteral("%1%2").arg(name, m_document->isModified() ? QStringLiteral(" *") : QString()));
}

void SuiteEditor::newSuite()
{
    m_notice->hide();
    // One empty case to start typing in, as the document's starting point: closing it untouched asks nothing.
    TestSuite suite;
    suite.cases.append(TestCase{});
    suite.cases.first().id = QStringLiteral("case-1");
    m_document->reset(suite);
    selectRow(0);
}

bool SuiteEditor::openFile(const QString &path)
{
    if (const auto error = m_document->open(path)) {
        showError(tr("Cannot open the suite — %1").arg(error->toString()));
        return false;
    }
    m_notice->hide();
    if (m_document->suite().format == TestSuite::Format::SkillCreator)
        m_notice->showNotice(tr("This is skill-creator's evals.json: its expectations became an llm_judge verifier. "
                                "Saving writes Skillforge's format to a new file."),
                             NoticeBar::Kind::Information, {});
    selectRow(0);
    return true;
}

QString SuiteEditor::firstProblem(int *row) const
{
    const QList<TestCase> &cases = m_document->suite().cases;
    if (cases.isEmpty())
        return tr("A suite needs at least one case.");
    for (int r = 0; r < cases.size(); ++r) {
        const QString problem = m_model->index(r, 0).data(SuiteCasesModel::ProblemRole).toString();
        if (!problem.isEmpty()) {
            if (row)
                *row = r;
            return tr("Not saved: case %1: %2").arg(cases.at(r).id, problem);
        }
    }
    return {};
}

bool SuiteEditor::checkCases()
{
    int row = -1;
    const QString problem = firstProblem(&row);
    if (problem.isEmpty())
        return true;
    selectRow(row);
    showError(problem);
    m_showsCaseProblem = true;
    return false;
}

void SuiteEditor::recheckCases()
{
    // The banner says why the suite was not saved: it follows every change (undo and redo too), so a problem fixed
    // takes it away and another one still there takes its place.
    if (!m_showsCaseProblem || m_notice->isHidden())
        return;
    const QString problem = firstProblem(nullptr);
    if (problem.isEmpty()) {
        m_notice->hide();
        m_showsCaseProblem = false;
    } else if (problem != m_notice->text()) {
        showError(problem);
        m_showsCaseProblem = true;
    }
}

bool SuiteEditor::save()
{
    // skill-creator's evals.json has its own shape: writing ours over it would break skill-creator's reader.
    if (m_document->path().isEmpty() || m_document->suite().format == TestSuite::Format::SkillCreator) {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save Test Suite"), m_defaultFolder, suiteFilter());
        return !path.isEmpty() && saveAs(path);
    }
    return saveAs(m_document->path());
}

bool SuiteEditor::saveAs(const QString &path)
{
    if (!checkCases())
        return false;
    if (const QString error = m_document->saveAs(path); !error.isEmpty()) {
        showError(tr("Not saved: %1").arg(error));
        return false;
    }
    m_notice->hide();
    Q_EMIT saved(m_document->path());
    return true;
}

bool SuiteEditor::importFile(const QString &path)
{
    auto read = readTestSuite(path);
    if (auto *error = std::get_if<LoadError>(&read)) {
        showError(tr("Cannot import — %1").arg(error->toString()));
        return false;
    }
    const QList<TestCase> imported = std::get<TestSuite>(read).cases;
    const int first = int(m_document->suite().cases.size());
    m_document->change(plural(imported.size(), tr("Import 1 case"), tr("Import %n cases")),
                       [imported](TestSuite &suite) {
                           for (TestCase c : imported) {
                               QStringList used;
                               for (const TestCase &existing : suite.cases)
                                   used.append(existing.id);
                               QString id = c.id;
                               for (int n = 2; used.contains(id); ++n)
                                   id = QStringLiteral("%1-%2").arg(c.id).arg(n);
                               c.id = id;
                               suite.cases.append(c);
                           }
                       });
    m_notice->hide();
    selectRow(first);
    return true;
}

bool SuiteEditor::exportTo(const QString &path, bool upskillFormat)
{
    if (!checkCases())
        return false;
    if (const QString error = writeTestSuite(path, m_document->suite(), upskillFormat); !error.isEmpty()) {
        showError(tr("Not exported: %1").arg(error));
        return false;
    }
    return true;
}

bool SuiteEditor::maybeSave()
{
    if (!m_document->isModified())
        return true;
    const auto answer =
        QMessageBox::question(this, tr("Unsaved Test Suite"), tr("The suite has unsaved changes. Save them?"),
                              QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

void SuiteEditor::addCase()
{
    const int row = int(m_document->suite().cases.size());
    m_document->change(tr("Add case"),
                       [id = m_document->freshId(QStringLiteral("case-%1").arg(row + 1))](TestSuite &suite) {
                           TestCase c;
                           c.id = id;
                           suite.cases.append(c);
                       });
    selectRow(row);
}

void SuiteEditor::duplicateCase()
{
    const int row = currentRow();
    if (row < 0)
        return;
    TestCase copy = m_document->suite().cases.at(row);
    copy.id = m_document->freshId(copy.id);
    m_document->change(tr("Duplicate %1").arg(m_document->suite().cases.at(row).id),
                       [row, copy](TestSuite &suite) { suite.cases.insert(row + 1, copy); });
    selectRow(row + 1);
}

void SuiteEditor::removeCase()
{
    const int row = currentRow();
    if (row < 0)
        return;
    m_document->change(tr("Remove %1").arg(m_document->suite().cases.at(row).id),
                       [row](TestSuite &suite) { suite.cases.removeAt(row); });
    selectRow(std::min(row, m_model->rowCount() - 1));
}

} // namespace sf
