#include "MainWindow.h"
#include "SkippedChecks.h"
#include "common/ProjectSidebar.h"
#include "eval/TestSuite.h"
#include "jobs/JobListModel.h"
#include "project/Project.h"
#include "project/SampleProject.h"
#include "runs/EvalLaunchDialog.h"
#include "suite/CaseEditor.h"
#include "suite/SuiteCasesModel.h"
#include "suite/SuiteDocument.h"
#include "suite/SuiteEditor.h"
#include "suite/SuiteEditorDialog.h"
#include "suite/VerifierForm.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QInputDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeView>
#include <QUndoStack>
#include <functional>

using namespace sf;

namespace {

QString fixture(const char *name)
{
    return QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/suite/") + QLatin1String(name);
}

QString copyFixture(const QTemporaryDir &dir, const char *name)
{
    const QString target = dir.filePath(QLatin1String(name));
    QFile::remove(target);
    if (!QFile::copy(fixture(name), target))
        return {};
    QFile::setPermissions(target, QFile::ReadOwner | QFile::WriteOwner);
    return target;
}

QByteArray contents(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

TestSuite reread(const QString &path)
{
    auto read = readTestSuite(path);
    if (auto *error = std::get_if<LoadError>(&read))
        qWarning("%s", qPrintable(error->toString()));
    return std::holds_alternative<TestSuite>(read) ? std::get<TestSuite>(read) : TestSuite{};
}

// Runs @p inspect on the suite editor dialog that @p open shows modally, then closes it.
bool withModalSuiteEditor(const std::function<void()> &open, const std::function<void(SuiteEditorDialog *)> &inspect)
{
    bool seen = false;
    QTimer::singleShot(0, [&] {
        if (auto *dialog = qobject_cast<SuiteEditorDialog *>(QApplication::activeModalWidget())) {
            seen = true;
            inspect(dialog);
            dialog->reject();
        }
    });
    open();
    return seen;
}

} // namespace

/// The suite editor as a user drives it: open a suite, edit a case, save, and read the file back with core's reader.
class TestSuiteEditor final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
    }

    void editInputHeldOutAndARegexVerifier_saved_readBackByCore()
    {
        const QString path = copyFixture(m_dir, "extended.json");
        QVERIFY(!path.isEmpty());
        SuiteEditor editor;
        QAbstractItemModelTester tester(editor.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        editor.show();
        QVERIFY(editor.openFile(path));
        QCOMPARE(editor.model()->rowCount(), 2);
        QCOMPARE(editor.currentRow(), 0);

        // Edit the second case: its prompt, held-out, and a new regex verifier.
        editor.selectRow(1);
        auto *input = editor.caseEditor()->findChild<QPlainTextEdit *>(QStringLiteral("caseInput"));
        QVERIFY(input);
        QCOMPARE(input->toPlainText(), QStringLiteral("Write a commit message for a typo fix in README.md."));
        input->selectAll();
        QTest::keyClicks(input, QStringLiteral("Fix the typo"));
        QCOMPARE(editor.document()->suite().cases[1].input, QStringLiteral("Fix the typo"));
        QCOMPARE(editor.document()->undoStack()->count(), 1); // the typing merged into one step

        QVERIFY(editor.model()->setData(editor.model()->index(1, SuiteCasesModel::HeldOut), Qt::Checked,
                                        Qt::CheckStateRole));
        editor.caseEditor()->addVerifier(QStringLiteral("regex"));
        auto *form = editor.caseEditor()->findChild<VerifierForm *>();
        QVERIFY(form);
        QCOMPARE(form->spec().type, QStringLiteral("regex"));
        auto *pattern = form->findChild<QLineEdit *>(QStringLiteral("verifierPattern"));
        QVERIFY(pattern);
        QVERIFY(pattern->isVisibleTo(form));
        QVERIFY(!form->findChild<QWidget *>(QStringLiteral("verifierRubric"))->isVisibleTo(form));
        QTest::keyClicks(pattern, QStringLiteral("^(Fix|fix)"));
        QCOMPARE(editor.document()->suite().cases[1].verifiers.size(), 1);
        QCOMPARE(editor.document()->suite().cases[1].verifiers[0].pattern, QStringLiteral("^(Fix|fix)"));
        QVERIFY(editor.document()->isModified());
        // The editor itself says there is something to save (a title bar is not always in view).
        auto *modified = editor.findChild<QLabel *>(QStringLiteral("suiteModified"));
        QVERIFY(modified && modified->isVisible());

        QVERIFY(editor.save());
        QVERIFY(!editor.document()->isModified());
        QVERIFY(!modified->isVisible());
        const TestSuite saved = reread(path);
        QCOMPARE(saved.cases.size(), 2);
        QCOMPARE(saved.cases[1].input, QStringLiteral("Fix the typo"));
        QVERIFY(saved.cases[1].isHeldOut());
        QCOMPARE(saved.cases[1].verifiers.size(), 1);
        QCOMPARE(saved.cases[1].verifiers[0].type, QStringLiteral("regex"));
        QCOMPARE(saved.cases[1].verifiers[0].pattern, QStringLiteral("^(Fix|fix)"));
        // What the editor did not touch survives: the other case, its files, repeats, verifiers and unknown keys.
        QCOMPARE(saved.cases[0].repeats, 3);
        QCOMPARE(saved.cases[0].files.value(QStringLiteral("notes.md")), QStringLiteral("Use warp shuffles.\n"));
        QCOMPARE(saved.cases[0].verifiers.size(), 2);
        QCOMPARE(saved.cases[0].verifiers[1].dtype, QStringLiteral("bf16"));
        QCOMPARE(saved.cases[0].extra.value(QStringLiteral("owner")).toString(), QStringLiteral("kept as written"));

        // Removing the verifier leaves an empty, disabled form: not the removed one's pattern greyed out.
        QPushButton *removeVerifier = nullptr;
        for (QPushButton *button : editor.caseEditor()->findChildren<QPushButton *>())
            if (button->text() == QStringLiteral("Remove"))
                removeVerifier = button;
        QVERIFY(removeVerifier && removeVerifier->isEnabled());
        removeVerifier->click();
        QCOMPARE(editor.document()->suite().cases[1].verifiers.size(), 0);
        QVERIFY(!form->isEnabled());
        QCOMPARE(pattern->text(), QString());
        // Cases that follow the run's repeats say so in words that fit.
        QCOMPARE(editor.model()->index(1, SuiteCasesModel::Repeats).data().toString(), QStringLiteral("default"));
    }

    void contextFiles_addEditRemove_andUndo()
    {
        const QString path = copyFixture(m_dir, "extended.json");
        SuiteEditor editor;
        QVERIFY(editor.openFile(path));
        editor.selectRow(0);
        QVERIFY(editor.caseEditor()->addFile(QStringLiteral("src/./kernel.cu")));
        QVERIFY(!editor.caseEditor()->addFile(QStringLiteral("../escape.cu")));
        QVERIFY(!editor.caseEditor()->addFile(QStringLiteral("src/kernel.cu")));
        auto *content = editor.caseEditor()->findChild<QPlainTextEdit *>(QStringLiteral("caseFileContent"));
        auto *files = editor.caseEditor()->findChild<QListWidget *>(QStringLiteral("caseFiles"));
        QCOMPARE(files->currentItem()->text(), QStringLiteral("src/kernel.cu"));
        QTest::keyClicks(content, QStringLiteral("// start"));
        QCOMPARE(editor.document()->suite().cases[0].files.value(QStringLiteral("src/kernel.cu")),
                 QStringLiteral("// start"));
        editor.document()->undoStack()->undo();
        editor.document()->undoStack()->undo();
        QVERIFY(!editor.document()->suite().cases[0].files.contains(QStringLiteral("src/kernel.cu")));
        QCOMPARE(files->count(), 1);
        QVERIFY(!editor.document()->isModified());
    }

    void aFileThatDoesNotRead_showsFileAndLine_andKeepsTheOpenSuite()
    {
        const QString path = copyFixture(m_dir, "extended.json");
        SuiteEditor editor;
        QVERIFY(editor.openFile(path));
        editor.addCase(); // an unsaved edit that must survive
        QVERIFY(!editor.openFile(fixture("broken.json")));
        QVERIFY2(editor.noticeText().contains(QStringLiteral("broken.json:8")), qPrintable(editor.noticeText()));
        QVERIFY(editor.noticeText().contains(QStringLiteral("no-input")));
        QCOMPARE(editor.document()->path(), path);
        QCOMPARE(editor.model()->rowCount(), 3);
        QVERIFY(editor.document()->isModified());
    }

    void aCaseTheReaderWouldRefuse_isNamed_andTheFileIsNotWritten()
    {
        const QString path = copyFixture(m_dir, "extended.json");
        const QByteArray before = contents(path);
        SuiteEditor editor;
        QVERIFY(editor.openFile(path));
        editor.addCase(); // no input, no checks
        QVERIFY(!editor.save());
        QVERIFY(editor.noticeText().contains(QStringLiteral("case-3")));
        QCOMPARE(editor.currentRow(), 2);
        QCOMPARE(contents(path), before);
        QVERIFY(editor.document()->isModified());
    }

    void theNotSavedBanner_followsTheSuite_throughUndoAndRedo()
    {
        const QString path = copyFixture(m_dir, "extended.json");
        SuiteEditor editor;
        QVERIFY(editor.openFile(path));
        const auto hasProblems = [&editor] {
            for (int row = 0; row < editor.model()->rowCount(); ++row)
                if (!editor.model()->index(row, 0).data(SuiteCasesModel::ProblemRole).toString().isEmpty())
                    return true;
            return false;
        };
        // A regex verifier whose pattern does not compile: saving refuses and says why.
        editor.selectRow(0);
        editor.caseEditor()->addVerifier(QStringLiteral("regex"));
        // The pattern field of the verifier selected in the case's list.
        const auto patternField = [&editor] {
            return editor.caseEditor()->findChild<QLineEdit *>(QStringLiteral("verifierPattern"));
        };
        QLineEdit *pattern = patternField();
        QVERIFY(pattern);
        QTest::keyClicks(pattern, QStringLiteral("(unclosed"));
        QVERIFY(!editor.save());
        QVERIFY2(editor.noticeText().contains(QStringLiteral("Not saved")), qPrintable(editor.noticeText()));
        // Undo, step by step: the banner stays exactly while the suite still could not be saved.
        QUndoStack *undo = editor.document()->undoStack();
        int undone = 0;
        while (hasProblems() && undo->canUndo()) {
            undo->undo();
            ++undone;
            QCOMPARE(editor.noticeText().isEmpty(), !hasProblems());
        }
        QVERIFY(undone > 0);
        QCOMPARE(editor.noticeText(), QString());
        // Redo brings the broken pattern back; the banner comes only with the next refused save.
        while (undo->canRedo())
            undo->redo();
        QVERIFY(hasProblems());
        QCOMPARE(editor.noticeText(), QString());
        QVERIFY(!editor.save());
        QVERIFY(editor.noticeText().contains(QStringLiteral("Not saved")));
        // Fixing it by hand takes the banner away as well, and the suite saves.
        auto *verifiers = editor.caseEditor()->findChild<QListWidget *>(QStringLiteral("caseVerifiers"));
        QVERIFY(verifiers);
        verifiers->setCurrentRow(verifiers->count() - 1);
        pattern = patternField();
        QVERIFY(pattern);
        pattern->selectAll();
        QTest::keyClicks(pattern, QStringLiteral("closed"));
        QVERIFY(!hasProblems());
        QCOMPARE(editor.noticeText(), QString());
        QVERIFY(editor.save());
    }

    void importUpskill_appendsItsCasesWithFreshIds_inOneUndoStep()
    {
        const QString path = copyFixture(m_dir, "extended.json");
        SuiteEditor editor;
        QVERIFY(editor.openFile(path));
        QVERIFY(editor.importFile(fixture("upskill.json")));
        QVERIFY(editor.importFile(fixture("upskill.json")));
        const QList<TestCase> &cases = editor.document()->suite().cases;
        QCOMPARE(cases.size(), 6);
        QCOMPARE(cases[2].id, QStringLiteral("case-1"));
        QCOMPARE(cases[4].id, QStringLiteral("case-1-2"));
        QCOMPARE(cases[2].expectedContains, QStringList{QStringLiteral("9.0")});
        QCOMPARE(cases[3].verifiers[1].command, QStringLiteral("python3 hello.py"));
        QCOMPARE(cases[3].verifiers[1].timeoutSeconds, 20);
        QCOMPARE(editor.currentRow(), 4);
        editor.document()->undoStack()->undo();
        QCOMPARE(editor.model()->rowCount(), 4);

        QVERIFY(editor.save());
        const TestSuite saved = reread(path);
        QCOMPARE(saved.cases.size(), 4);
        QCOMPARE(saved.cases[3].files.value(QStringLiteral("README.md")), QStringLiteral("A tiny script.\n"));
    }

    void exportForUpskill_writesOnlyWhatUpskillAccepts_andKeepsTheDocumentsFile()
    {
        const QString path = copyFixture(m_dir, "extended.json");
        const QString exported = m_dir.filePath(QStringLiteral("for-upskill.json"));
        SuiteEditor editor;
        QVERIFY(editor.openFile(path));
        QVERIFY(editor.exportTo(exported, true));
        QCOMPARE(editor.document()->path(), path);
        const QJsonArray cases =
            QJsonDocument::fromJson(contents(exported)).object().value(QStringLiteral("cases")).toArray();
        QCOMPARE(cases.size(), 2);
        const QJsonObject first = cases[0].toObject();
        QVERIFY(!first.contains(QStringLiteral("split")));
        QVERIFY(!first.contains(QStringLiteral("owner")));
        QCOMPARE(first.value(QStringLiteral("verifiers")).toArray().size(), 1); // cuda_kernel is not upskill's
    }

    void skillCreatorEvals_saveGoesToANewFileInSkillforgesFormat()
    {
        QDir(m_dir.path()).mkpath(QStringLiteral("skill/evals"));
        const QString evals = m_dir.filePath(QStringLiteral("skill/evals/evals.json"));
        QFile file(evals);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"skill_name": "s", "evals": [{"id": 1, "prompt": "Do it", "expectations": ["It is done"]}]})");
        file.close();
        const QByteArray before = contents(evals);
        SuiteEditor editor;
        QVERIFY(editor.openFile(evals));
        QVERIFY(editor.noticeText().contains(QStringLiteral("skill-creator")));
        const QString target = m_dir.filePath(QStringLiteral("from-evals.json"));
        QVERIFY(editor.saveAs(target));
        QCOMPARE(contents(evals), before);
        const TestSuite saved = reread(target);
        QCOMPARE(saved.format, TestSuite::Format::Upskill);
        QCOMPARE(saved.cases[0].verifiers[0].type, QStringLiteral("llm_judge"));
    }

    void activatingASuiteInTheSidebar_andToolsEditTestSuite_openTheEditor()
    {
        const QString project = m_dir.filePath(QStringLiteral("sample"));
        QCOMPARE(SampleProject::ensureInstalled(project), QString());
        JobListModel jobs;
        MainWindow window(&jobs);
        QCOMPARE(window.openProject(project, true), QString());
        const QString suite = QDir(project).filePath(QStringLiteral("tests/rmsnorm-kernels.json"));
        const int cases = int(reread(suite).cases.size());
        QVERIFY(cases > 0);
        int rows = -1;
        QString notice;
        QVERIFY(window.sidebar()->selectPath(suite)); // selecting shows the text; activating opens the editor
        QTreeView *tree = window.sidebar()->treeView();
        QVERIFY(withModalSuiteEditor([&] { Q_EMIT tree->activated(tree->currentIndex()); },
                                     [&](SuiteEditorDialog *dialog) {
                                         rows = dialog->editor()->model()->rowCount();
                                         notice = dialog->editor()->noticeText();
                                     }));
        QCOMPARE(rows, cases);
        QVERIFY2(notice.isEmpty(), qPrintable(notice));

        QAction *edit = nullptr;
        for (QAction *action : window.toolsMenu()->actions()) {
            if (action->text().remove(u'&') == QStringLiteral("Edit Test Suite…"))
                edit = action;
        }
        QVERIFY(edit);
        // Tools → Edit Test Suite… opens the suite selected in the sidebar, not a blank one.
        QString path = QStringLiteral("unset");
        QVERIFY(withModalSuiteEditor([&] { edit->trigger(); },
                                     [&](SuiteEditorDialog *dialog) {
                                         path = dialog->editor()->document()->path();
                                         rows = dialog->editor()->model()->rowCount();
                                     }));
        QCOMPARE(QFileInfo(path), QFileInfo(suite));
        QCOMPARE(rows, cases);

        // With a skill selected and two suites in the project, it asks which.
        QVERIFY(window.sidebar()->selectFirst(ProjectItem::Kind::Skill));
        const QString other = QDir(project).filePath(QStringLiteral("tests/rmsnorm-cpu-checks.json"));
        QStringList offered;
        path = QStringLiteral("unset");
        QTimer::singleShot(0, [&] {
            auto *ask = qobject_cast<QInputDialog *>(QApplication::activeModalWidget());
            if (!ask)
                return;
            offered = ask->comboBoxItems();
            ask->setTextValue(QStringLiteral("rmsnorm-cpu-checks.json"));
            QTimer::singleShot(0, [&] {
                if (auto *dialog = qobject_cast<SuiteEditorDialog *>(QApplication::activeModalWidget())) {
                    path = dialog->editor()->document()->path();
                    dialog->reject();
                }
            });
            ask->accept();
        });
        edit->trigger();
        QCOMPARE(offered, (QStringList{QStringLiteral("rmsnorm-cpu-checks.json"),
                                       QStringLiteral("rmsnorm-kernels.json"), QStringLiteral("A new suite")}));
        QCOMPARE(QFileInfo(path), QFileInfo(other));
    }

    // With a skill selected and one suite in the project, Tools → Edit Test Suite… opens it without asking which.
    void toolsEditTestSuite_projectWithOneSuite_opensItWithoutAsking()
    {
        const QString project = m_dir.filePath(QStringLiteral("one-suite"));
        QCOMPARE(SampleProject::ensureInstalled(project), QString());
        QVERIFY(QFile::remove(QDir(project).filePath(QStringLiteral("tests/rmsnorm-cpu-checks.json"))));
        const QString suite = QDir(project).filePath(QStringLiteral("tests/rmsnorm-kernels.json"));
        JobListModel jobs;
        MainWindow window(&jobs);
        QCOMPARE(window.openProject(project, true), QString());
        QVERIFY(window.sidebar()->selectFirst(ProjectItem::Kind::Skill));
        QAction *edit = nullptr;
        for (QAction *action : window.toolsMenu()->actions()) {
            if (action->text().remove(u'&') == QStringLiteral("Edit Test Suite…"))
                edit = action;
        }
        QVERIFY(edit);
        QString path = QStringLiteral("unset");
        QStringList asked;
        QTimer::singleShot(0, [&] {
            QWidget *modal = QApplication::activeModalWidget();
            if (auto *ask = qobject_cast<QInputDialog *>(modal)) {
                asked = ask->comboBoxItems(); // asking is the failure; close it so the test ends
                ask->reject();
            } else if (auto *dialog = qobject_cast<SuiteEditorDialog *>(modal)) {
                path = dialog->editor()->document()->path();
                dialog->reject();
            }
        });
        edit->trigger();
        QVERIFY2(asked.isEmpty(), qPrintable(asked.join(QStringLiteral(", "))));
        QCOMPARE(QFileInfo(path), QFileInfo(suite));
    }

    void editSuiteInTheLaunchDialog_aSuiteSavedInTestsIsListedAndChosen()
    {
        const QString folder = m_dir.filePath(QStringLiteral("launch-project"));
        QVERIFY(std::holds_alternative<Project>(Project::create(folder, QStringLiteral("p"))));
        const Project project = std::get<Project>(Project::open(folder));
        EvalLaunchDialog launch(project);
        auto *suites = launch.findChild<QComboBox *>(QStringLiteral("suiteChoice"));
        QVERIFY(suites);
        QCOMPARE(suites->count(), 0); // no suite yet, and no skill with tests of its own
        const QString saved = QDir(project.testsPath()).filePath(QStringLiteral("written-here.json"));
        QVERIFY(withModalSuiteEditor([&] { launch.findChild<QPushButton *>(QStringLiteral("editSuite"))->click(); },
                                     [&](SuiteEditorDialog *dialog) {
                                         SuiteEditor *editor = dialog->editor();
                                         editor->document()->changeCase(0, QStringLiteral("fill"), [](TestCase &c) {
                                             c.input = QStringLiteral("Say hello");
                                             c.expectedContains = {QStringLiteral("hello")};
                                         });
                                         QVERIFY(QDir().mkpath(project.testsPath()));
                                         QVERIFY(editor->saveAs(saved));
                                     }));
        QCOMPARE(suites->count(), 1);
        QCOMPARE(suites->currentData().toString(), QFileInfo(saved).absoluteFilePath());
        QCOMPARE(launch.plan().suitePath, QFileInfo(saved).absoluteFilePath());
    }

    void verifierForm_showsTheFieldsOfItsKind_andDropsFieldsOfOtherKinds()
    {
        VerifierForm form;
        VerifierSpec spec;
        spec.type = QStringLiteral("regex");
        spec.pattern = QStringLiteral("x+");
        form.setSpec(spec);
        auto *type = form.findChild<QComboBox *>(QStringLiteral("verifierType"));
        // Kinds are offered in words; the file keeps the id.
        QCOMPARE(type->currentText(), QStringLiteral("Matches a pattern"));
        QVERIFY(type->findText(QStringLiteral("json_valid")) < 0 && type->findText(QStringLiteral("Valid JSON")) >= 0);
        // A pattern that does not compile says why while it is typed.
        auto *pattern = form.findChild<QLineEdit *>(QStringLiteral("verifierPattern"));
        auto *patternError = form.findChild<QLabel *>(QStringLiteral("verifierPatternError"));
        QVERIFY(pattern && patternError);
        QVERIFY(patternError->isHidden());
        pattern->setText(QStringLiteral("(unclosed"));
        QVERIFY(!patternError->isHidden());
        QVERIFY2(patternError->text().startsWith(QStringLiteral("Not a valid regular expression")),
                 qPrintable(patternError->text()));
        pattern->setText(QStringLiteral("x+"));
        QVERIFY(patternError->isHidden());
        type->setCurrentIndex(type->findData(QStringLiteral("command")));
        const VerifierSpec changed = form.spec();
        QCOMPARE(changed.type, QStringLiteral("command"));
        QVERIFY(changed.pattern.isEmpty());
        QCOMPARE(VerifierForm::summary(spec), QStringLiteral("Matches a pattern: /x+/"));
    }

    void closingWithUnsavedEdits_asks_cancelKeepsThem_discardCloses()
    {
        const QString path = copyFixture(m_dir, "extended.json");
        const QByteArray before = contents(path);
        SuiteEditorDialog dialog(m_dir.path());
        QVERIFY(dialog.editor()->openFile(path));
        dialog.show();
        dialog.editor()->removeCase();
        const auto answer = [](QMessageBox::StandardButton button) {
            QTimer::singleShot(0, [button] {
                if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget()))
                    box->button(button)->click();
            });
        };
        answer(QMessageBox::Cancel);
        dialog.reject();
        QVERIFY(dialog.isVisible());
        QCOMPARE(dialog.editor()->model()->rowCount(), 1);
        QVERIFY(dialog.editor()->document()->isModified());
        answer(QMessageBox::Discard);
        dialog.reject();
        QVERIFY(!dialog.isVisible());
        QCOMPARE(contents(path), before);
    }

    void closingTheDialogWithoutChanges_closesIt()
    {
        SuiteEditorDialog dialog(m_dir.path());
        QVERIFY(dialog.editor()->openFile(copyFixture(m_dir, "extended.json")));
        dialog.show();
        dialog.reject();
        QVERIFY(!dialog.isVisible());
    }
};

SF_TEST_MAIN(TestSuiteEditor)
#include "test_suite_editor.moc"
