// The Skill view as a user drives it: typing, the preview, problems, outline, the front-matter form,
// find/replace, the files panel, versions, crash recovery and changes made on disk by another program.
#include "../support/TestFiles.h"
#include "SkippedChecks.h"
#include "common/AtomicFile.h"
#include "common/Confirm.h"
#include "common/FindBar.h"
#include "common/StatusMessages.h"
#include "project/Project.h"
#include "skill/DiffView.h"
#include "skill/FrontMatterForm.h"
#include "skill/MarkdownPreview.h"
#include "skill/NoticeBar.h"
#include "skill/OutlinePanel.h"
#include "skill/ProblemsModel.h"
#include "skill/ProblemsPanel.h"
#include "skill/SkillEditor.h"
#include "skill/SkillFilesPanel.h"
#include "skill/SkillVersionStore.h"
#include "skill/SkillView.h"
#include "skill/VersionsDialog.h"

#include <QAbstractButton>
#include <QApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSplitter>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTimer>
#include <QTreeView>
#include <QTreeWidget>
#include <memory>

using namespace sf;

namespace {

constexpr int Timeout = 10000;
const QString SkillName = QStringLiteral("diffusers-cuda-rmsnorm");

QString readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

QString lineText(QPlainTextEdit *editor, int line)
{
    return editor->document()->findBlockByNumber(line - 1).text();
}

void moveToEndOfLine(QPlainTextEdit *editor, int line)
{
    QTextCursor cursor(editor->document()->findBlockByNumber(line - 1));
    cursor.movePosition(QTextCursor::EndOfBlock);
    editor->setTextCursor(cursor);
}

/// Types @p text into @p editor key by key, Return for each newline.
void typeText(QPlainTextEdit *editor, const QString &text)
{
    const QStringList lines = text.split(u'\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (i > 0)
            QTest::keyClick(editor, Qt::Key_Return);
        if (!lines[i].isEmpty())
            QTest::keyClicks(editor, lines[i]);
    }
}

bool hasErrorOnLine(const SkillView &view, int line)
{
    for (const SkillProblem &problem : view.problemsPanel()->model()->problems()) {
        if (problem.isError() && problem.file == u"SKILL.md" && problem.line == line)
            return true;
    }
    return false;
}

} // namespace

class TestSkillView : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_tmp;
    QString m_skill;

    QString skillMd() const { return QDir(m_skill).filePath(QStringLiteral("SKILL.md")); }

    /// A view on a fresh copy of the sample skill, with short intervals and no modal questions.
    std::unique_ptr<SkillView> openView(bool confirm = true)
    {
        auto view = std::make_unique<SkillView>();
        view->setIntervals(10, 10, 30);
        view->setConfirm([confirm](const QString &, const QString &) { return confirm; });
        view->resize(1200, 800);
        view->show();
        view->openPath(m_skill);
        return view;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        // Per process, so that runs side by side do not share recovery files.
        QCoreApplication::setApplicationName(
            QStringLiteral("skillforge-test-skill-view-%1").arg(QCoreApplication::applicationPid()));
    }

    void cleanupTestCase() { QDir(RecoveryStore::defaultDir()).removeRecursively(); }

    void init()
    {
        m_tmp = std::make_unique<QTemporaryDir>();
        QVERIFY(m_tmp->isValid());
        m_skill = m_tmp->filePath(SkillName);
        QVERIFY(sf::test::copyTree(
            QStringLiteral(SKILLFORGE_SOURCE_DIR "/resources/sample-project/skills/") + SkillName, m_skill));
        QDir(RecoveryStore::defaultDir()).removeRecursively();
    }

    void open_sampleSkill_showsSourcePreviewOutlineAndNoErrors()
    {
        auto view = openView();
        QCOMPARE(view->currentFile(), QFileInfo(skillMd()).absoluteFilePath());
        QVERIFY(!view->isModified());
        QTRY_VERIFY_WITH_TIMEOUT(view->preview()->renderedText().contains(QStringLiteral("Fused RMSNorm kernels")),
                                 Timeout);
        QVERIFY(view->preview()->renderedText().contains(QStringLiteral("Apache-2.0"))); // the front-matter table
        QTRY_VERIFY_WITH_TIMEOUT(!view->isBusy(), Timeout);
        QCOMPARE(view->problemsPanel()->model()->errorCount(), 0);
        QCOMPARE(view->outlinePanel()->headings().first().title,
                 QStringLiteral("Fused RMSNorm kernels for diffusers (CUDA, bf16)"));
        QCOMPARE(view->frontMatterForm()->name(), SkillName);
        QVERIFY(view->filesPanel()->files().contains(QStringLiteral("references/rmsnorm-reference.md")));
    }

    void scrollingTheEditor_scrollsThePreview_withTheScrollBarToo()
    {
        auto view = openView();
        view->resize(1280, 720);
        QTRY_VERIFY_WITH_TIMEOUT(!view->isBusy(), Timeout);
        QScrollBar *preview = view->preview()->browser()->verticalScrollBar();
        QCOMPARE(preview->value(), 0);
        // As a user drags the editor's scroll bar.
        QScrollBar *editor = view->editor()->verticalScrollBar();
        editor->setValue(editor->maximum() / 2);
        QTRY_VERIFY_WITH_TIMEOUT(preview->value() > preview->maximum() / 5, Timeout);
        editor->setValue(0);
        QTRY_COMPARE_WITH_TIMEOUT(preview->value(), 0, Timeout);
    }

    void typing_brokenName_showsNameErrorOnItsLine_fixingItClearsIt()
    {
        auto view = openView();
        QTRY_VERIFY_WITH_TIMEOUT(!view->isBusy(), Timeout);
        QCOMPARE(lineText(view->editor(), 2), QStringLiteral("name: ") + SkillName);
        QSignalSpy validated(view.get(), &SkillView::validated);
        QSignalSpy rendered(view->preview(), &MarkdownPreview::rendered);

        moveToEndOfLine(view->editor(), 2);
        QTest::keyClicks(view->editor(), QStringLiteral("_X"));
        QVERIFY(view->isModified());
        QTRY_VERIFY_WITH_TIMEOUT(hasErrorOnLine(*view, 2), Timeout);
        // The editor marks the line too, with the problem as the mark's tooltip (issue 24.23).
        QVERIFY(view->editor()->lineMarks().contains(2));
        QVERIFY(view->editor()->lineMarks().value(2).error);
        QVERIFY(!view->editor()->lineMarks().value(2).message.isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(view->preview()->renderedText().contains(SkillName + QStringLiteral("_X")), Timeout);
        QVERIFY(validated.count() >= 1);
        QVERIFY(rendered.count() >= 1);
        QTRY_COMPARE_WITH_TIMEOUT(view->frontMatterForm()->name(), SkillName + QStringLiteral("_X"), Timeout);

        // Activating the problem jumps to its line.
        view->editor()->moveCursor(QTextCursor::End);
        const QList<SkillProblem> &problems = view->problemsPanel()->model()->problems();
        const auto it =
            std::find_if(problems.begin(), problems.end(), [](const SkillProblem &p) { return p.line == 2; });
        QVERIFY(it != problems.end());
        view->problemsPanel()->view()->clicked(view->problemsPanel()->model()->index(int(it - problems.begin()), 0));
        QCOMPARE(view->editor()->cursorLine(), 2);

        moveToEndOfLine(view->editor(), 2);
        QTest::keyClick(view->editor(), Qt::Key_Backspace);
        QTest::keyClick(view->editor(), Qt::Key_Backspace);
        QTRY_VERIFY_WITH_TIMEOUT(!hasErrorOnLine(*view, 2) && !view->isBusy(), Timeout);
        QCOMPARE(view->problemsPanel()->model()->errorCount(), 0);
        QVERIFY(!view->editor()->lineMarks().contains(2));
    }

    void typing_newHeading_appearsInPreviewAndOutline()
    {
        auto view = openView();
        view->editor()->moveCursor(QTextCursor::End);
        typeText(view->editor(), QStringLiteral("\n## Zebra section\n\nStriped text.\n"));
        QTRY_VERIFY_WITH_TIMEOUT(view->preview()->renderedText().contains(QStringLiteral("Striped text.")), Timeout);
        QTRY_COMPARE_WITH_TIMEOUT(view->outlinePanel()->headings().last().title, QStringLiteral("Zebra section"),
                                  Timeout);
        // The preview follows the source: at the end of the text it is scrolled down.
        view->editor()->goTo(view->editor()->blockCount());
        QTRY_VERIFY_WITH_TIMEOUT(view->preview()->browser()->verticalScrollBar()->value() > 0, Timeout);
    }

    void outline_click_jumpsToHeading()
    {
        auto view = openView();
        const QList<OutlineHeading> headings = view->outlinePanel()->headings();
        const auto numerics = std::find_if(headings.begin(), headings.end(),
                                           [](const OutlineHeading &h) { return h.title == u"3. Numerics"; });
        QVERIFY(numerics != headings.end());
        QCOMPARE(lineText(view->editor(), numerics->line), QStringLiteral("## 3. Numerics"));
        // A '#' line inside a fenced block is not a heading.
        for (const OutlineHeading &heading : headings)
            QVERIFY2(!heading.title.startsWith(QStringLiteral("pragma")), qPrintable(heading.title));

        QTreeWidget *tree = view->outlinePanel()->tree();
        const QList<QTreeWidgetItem *> items =
            tree->findItems(QStringLiteral("3. Numerics"), Qt::MatchExactly | Qt::MatchRecursive);
        QCOMPARE(items.size(), 1);
        Q_EMIT tree->itemClicked(items.first(), 0);
        QCOMPARE(view->editor()->cursorLine(), numerics->line);
    }

    void frontMatterForm_editsSourceAsOneUndoStep_andFollowsSource()
    {
        auto view = openView();
        FrontMatterForm *form = view->frontMatterForm();
        QVERIFY(form->isVisible());
        QCOMPARE(form->license(), QStringLiteral("Apache-2.0"));
        QCOMPARE(form->budgetText(), QStringLiteral("%1 / 1024").arg(form->description().size()));

        // Form -> source: one edit, one undo step, other lines untouched.
        const QString before = view->editor()->toPlainText();
        form->licenseEdit()->setFocus();
        form->licenseEdit()->selectAll();
        QTest::keyClicks(form->licenseEdit(), QStringLiteral("M"));
        QCOMPARE(lineText(view->editor(), 4), QStringLiteral("license: M"));
        QCOMPARE(view->editor()->toPlainText().count(u'\n'), before.count(u'\n'));
        view->editor()->undo();
        QCOMPARE(view->editor()->toPlainText(), before);
        QVERIFY(!view->isModified());
        QTRY_COMPARE_WITH_TIMEOUT(form->license(), QStringLiteral("Apache-2.0"), Timeout);

        // Typing in the form: the source follows, and the sync it causes leaves the field (and its cursor) alone.
        form->licenseEdit()->selectAll();
        QTest::keyClicks(form->licenseEdit(), QStringLiteral("MIT"));
        QCOMPARE(lineText(view->editor(), 4), QStringLiteral("license: MIT"));
        QTRY_VERIFY_WITH_TIMEOUT(!view->isBusy(), Timeout);
        QCOMPARE(form->license(), QStringLiteral("MIT"));
        QCOMPARE(form->licenseEdit()->cursorPosition(), 3);

        // Source -> form.
        moveToEndOfLine(view->editor(), 4);
        QTest::keyClicks(view->editor(), QStringLiteral("-or-later"));
        QTRY_COMPARE_WITH_TIMEOUT(form->license(), QStringLiteral("MIT-or-later"), Timeout);
        moveToEndOfLine(view->editor(), 3);
        QTest::keyClicks(view->editor(), QStringLiteral(" Extra."));
        QTRY_VERIFY_WITH_TIMEOUT(form->description().endsWith(QStringLiteral("such a kernel. Extra.")), Timeout);
        QCOMPARE(form->budgetText(), QStringLiteral("%1 / 1024").arg(form->description().size()));

        // A description over budget: the form says so in its counter.
        form->descriptionEdit()->setPlainText(QString(1100, u'a'));
        QCOMPARE(form->budgetText(), QStringLiteral("1100 / 1024"));
        QTRY_VERIFY_WITH_TIMEOUT(
            view->editor()->toPlainText().contains(QStringLiteral("description: ") + QString(1100, u'a')), Timeout);
    }

    void frontMatterForm_brokenYaml_keepsValuesAndWaits()
    {
        auto view = openView();
        FrontMatterForm *form = view->frontMatterForm();
        QTextCursor cursor(view->editor()->document()->findBlockByNumber(2));
        cursor.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor, int(QStringLiteral("description: ").size()));
        view->editor()->setTextCursor(cursor);
        QTest::keyClicks(view->editor(), QStringLiteral("\""));
        QTRY_VERIFY_WITH_TIMEOUT(!form->nameEdit()->isEnabled(), Timeout);
        QCOMPARE(form->name(), SkillName);
        QVERIFY(!form->description().isEmpty());
        QTest::keyClick(view->editor(), Qt::Key_Backspace);
        QTRY_VERIFY_WITH_TIMEOUT(form->nameEdit()->isEnabled(), Timeout);
    }

    void findReplace_replaceOneAndAll_undoRestores()
    {
        auto view = openView();
        const QString before = view->editor()->toPlainText();
        const qsizetype occurrences = before.count(QStringLiteral("RMSNorm"));
        QVERIFY(occurrences > 3);
        view->activateReplace();
        FindBar *bar = view->findBar();
        QVERIFY(bar->isReplaceVisible());
        bar->setFindText(QStringLiteral("RMSNorm"));
        bar->setReplaceText(QStringLiteral("RootMeanSquareNorm"));
        bar->setCaseSensitive(true);
        view->editor()->moveCursor(QTextCursor::Start);
        QVERIFY(bar->findNext());
        QVERIFY(bar->replaceNext());
        QCOMPARE(view->editor()->toPlainText().count(QStringLiteral("RMSNorm")), occurrences - 1);
        QCOMPARE(bar->replaceAll(), int(occurrences - 1));
        QCOMPARE(view->editor()->toPlainText().count(QStringLiteral("RMSNorm")), 0);
        view->editor()->undo(); // Replace All is one step
        QCOMPARE(view->editor()->toPlainText().count(QStringLiteral("RMSNorm")), occurrences - 1);
        view->editor()->undo();
        QCOMPARE(view->editor()->toPlainText(), before);
        bar->setFindText(QStringLiteral("no such text anywhere"));
        QVERIFY(!bar->findNext());
        QCOMPARE(bar->statusText(), QStringLiteral("Not found"));
    }

    void filesPanel_addRenameDelete_andOpen()
    {
        auto view = openView();
        SkillFilesPanel *files = view->filesPanel();
        const int tokensBefore = files->totalTokens();
        QVERIFY(tokensBefore > 1000);
        QCOMPARE(files->addFile(QStringLiteral("references/notes.md"), "# Notes\n\nSome notes about the kernel.\n"),
                 QString());
        QVERIFY(QFileInfo::exists(QDir(m_skill).filePath(QStringLiteral("references/notes.md"))));
        QVERIFY(files->files().contains(QStringLiteral("references/notes.md")));
        QVERIFY(files->totalTokens() > tokensBefore);
        QVERIFY(!files->addFile(QStringLiteral("../escape.md")).isEmpty());
        QVERIFY(!files->addFile(QStringLiteral("references/notes.md")).isEmpty()); // no overwrite

        QVERIFY(view->openFile(QDir(m_skill).filePath(QStringLiteral("references/notes.md"))));
        QVERIFY(view->editor()->toPlainText().startsWith(QStringLiteral("# Notes")));
        QVERIFY(!view->frontMatterForm()->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(view->preview()->renderedText().contains(QStringLiteral("Some notes")), Timeout);

        // Renaming the open file keeps editing it under its new name.
        QCOMPARE(files->renameFile(QStringLiteral("references/notes.md"), QStringLiteral("references/kernel-notes.md")),
                 QString());
        QVERIFY(files->files().contains(QStringLiteral("references/kernel-notes.md")));
        QVERIFY(!files->files().contains(QStringLiteral("references/notes.md")));
        QCOMPARE(view->currentFile(), QDir(m_skill).filePath(QStringLiteral("references/kernel-notes.md")));

        // Deleting asks first.
        view->setConfirm([](const QString &, const QString &) { return false; });
        QCOMPARE(files->removeFile(QStringLiteral("references/kernel-notes.md")), QString());
        QVERIFY(files->files().contains(QStringLiteral("references/kernel-notes.md")));
        view->setConfirm([](const QString &, const QString &) { return true; });
        QCOMPARE(files->removeFile(QStringLiteral("references/kernel-notes.md")), QString());
        QVERIFY(!files->files().contains(QStringLiteral("references/kernel-notes.md")));
        QVERIFY(!QFileInfo::exists(QDir(m_skill).filePath(QStringLiteral("references/kernel-notes.md"))));
        QCOMPARE(view->currentFile(), QFileInfo(skillMd()).absoluteFilePath()); // back to SKILL.md

        // Every change here left versions: the skill as found, then one after each change, none "outside".
        const QList<SkillVersion> versions = SkillVersionStore(m_skill).versions();
        QStringList messages;
        for (const SkillVersion &version : versions)
            messages.prepend(version.message);
        QCOMPARE(messages, (QStringList{QStringLiteral("As found, before adding references/notes.md"),
                                        QStringLiteral("Added references/notes.md"),
                                        QStringLiteral("Renamed references/notes.md to references/kernel-notes.md"),
                                        QStringLiteral("Deleted references/kernel-notes.md")}));
        // The deleted file is in the version before its deletion.
        QCOMPARE(SkillVersionStore(m_skill).files(versions[1].id).value(QStringLiteral("references/kernel-notes.md")),
                 QByteArray("# Notes\n\nSome notes about the kernel.\n"));
    }

    void save_storesVersion_diffShowsChangedLines_restoreAsksAndReloads()
    {
        auto view = openView(/*confirm=*/false);
        SkillVersionStore store(m_skill);
        QCOMPARE(store.versions().size(), 0);
        const QByteArray original = readFile(skillMd()).toUtf8();

        view->editor()->moveCursor(QTextCursor::End);
        typeText(view->editor(), QStringLiteral("\nFirst marker line.\n"));
        QVERIFY(view->save());
        QVERIFY(!view->isModified());
        QVERIFY(readFile(skillMd()).endsWith(QStringLiteral("First marker line.\n")));
        // The first save keeps the skill as it was before any edit, then the saved text.
        QCOMPARE(store.versions().size(), 2);
        const SkillVersion asFound = store.versions().last();
        QVERIFY2(asFound.message.startsWith(QStringLiteral("As found")), qPrintable(asFound.message));
        QCOMPARE(store.files(asFound.id).value(QStringLiteral("SKILL.md")), original);
        const QString firstText = view->editor()->toPlainText();

        moveToEndOfLine(view->editor(), 12);
        QTest::keyClicks(view->editor(), QStringLiteral(" Second edit."));
        QSignalSpy messages(&StatusMessages::instance(), &StatusMessages::message);
        QVERIFY(view->save());
        // Saving says so: the only other sign is a marker going away.
        QCOMPARE(messages.count(), 1);
        QVERIFY2(messages.last().first().toString().startsWith(QStringLiteral("Saved ")),
                 qPrintable(messages.last().first().toString()));
        const QList<SkillVersion> versions = store.versions();
        QCOMPARE(versions.size(), 3);
        QCOMPARE(versions.first().origin, QStringLiteral("user"));

        VersionsDialog *dialog = view->showVersions();
        QVERIFY(dialog);
        QCOMPARE(dialog->versions().size(), 3);
        dialog->compare(versions[1].id, versions[0].id);
        DiffView *diff = dialog->diffView();
        int changed = 0;
        for (int row = 0; row < diff->rows().size(); ++row) {
            if (diff->rows()[row].kind == DiffRow::Kind::Same)
                continue;
            ++changed;
            QCOMPARE(diff->rows()[row].kind, DiffRow::Kind::Changed);
            QCOMPARE(diff->rightLine(row), diff->leftLine(row) + QStringLiteral(" Second edit."));
            QCOMPARE(diff->rows()[row].oldIndex, 11);
        }
        QCOMPARE(changed, 1);

        // A version against the current, unsaved text.
        view->editor()->moveCursor(QTextCursor::End);
        QTest::keyClicks(view->editor(), QStringLiteral("Unsaved tail."));
        dialog->compare(versions[0].id, QString());
        QCOMPARE(diff->addedLines(), 1);
        QCOMPARE(diff->rightLine(int(diff->rows().size()) - 1), QStringLiteral("Unsaved tail."));

        // Restore asks first; saying no changes nothing.
        dialog->selectVersion(versions[1].id);
        auto *restore = dialog->findChild<QPushButton *>(QStringLiteral("restoreButton"));
        QVERIFY(restore && restore->isEnabled());
        restore->click();
        QVERIFY(view->editor()->toPlainText().endsWith(QStringLiteral("Unsaved tail.")));
        // Saying yes restores the folder and reloads the editor, dropping the unsaved edit.
        view->setConfirm([](const QString &, const QString &) { return true; });
        dialog->selectVersion(versions[1].id);
        restore->click();
        QVERIFY2(messages.last().first().toString().startsWith(QStringLiteral("Restored the skill to the version of")),
                 qPrintable(messages.last().first().toString()));
        QCOMPARE(view->editor()->toPlainText(), firstText);
        QCOMPARE(readFile(skillMd()), firstText);
        QVERIFY(!view->isModified());

        // The original comes back too.
        dialog->selectVersion(asFound.id);
        restore->click();
        QCOMPARE(view->editor()->toPlainText().toUtf8(), original);
        QCOMPARE(readFile(skillMd()).toUtf8(), original);
    }

    void save_withErrors_savesAndSaysSo_andOpensTheProblems_aCleanSaveSaysNothing()
    {
        auto view = openView();
        QTRY_VERIFY_WITH_TIMEOUT(!view->isBusy(), Timeout);
        // The problems panel dragged shut, as a user might.
        auto *splitter = qobject_cast<QSplitter *>(view->problemsPanel()->parentWidget());
        QVERIFY(splitter);
        splitter->setSizes({splitter->height(), 0});
        QCOMPARE(splitter->sizes().value(1), 0);
        moveToEndOfLine(view->editor(), 2);
        QTest::keyClicks(view->editor(), QStringLiteral("_X")); // the name no longer matches the folder
        QSignalSpy validated(view.get(), &SkillView::validated);
        QVERIFY(view->save()); // Ctrl+S: saved all the same, no edit lost
        QVERIFY(!view->isModified());
        QFile saved(skillMd());
        QVERIFY(saved.open(QIODevice::ReadOnly));
        QVERIFY(
            QString::fromUtf8(saved.readAll()).contains(QStringLiteral("name: ") + SkillName + QStringLiteral("_X")));
        QTRY_VERIFY_WITH_TIMEOUT(validated.count() >= 1 && view->noticeBar()->isVisible(), Timeout);
        const QString notice = view->noticeBar()->text();
        QVERIFY2(notice.contains(QRegularExpression(QStringLiteral("^Saved with \\d+ errors?: "))), qPrintable(notice));
        QVERIFY2(notice.contains(QStringLiteral("SKILL.md:2: ")), qPrintable(notice));
        QVERIFY(view->noticeBar()->findChild<QAbstractButton *>(QStringLiteral("showProblemsButton")));
        // The problems panel is open again, on the first error.
        QVERIFY2(splitter->sizes().value(1) > 0, qPrintable(QString::number(splitter->sizes().value(1))));
        const QModelIndex current = view->problemsPanel()->view()->currentIndex();
        QVERIFY(current.isValid());
        QVERIFY(view->problemsPanel()->model()->problems().at(current.row()).isError());
        // Fixed and saved again: nothing to say.
        moveToEndOfLine(view->editor(), 2);
        QTest::keyClick(view->editor(), Qt::Key_Backspace);
        QTest::keyClick(view->editor(), Qt::Key_Backspace);
        validated.clear();
        QVERIFY(view->save());
        QTRY_VERIFY_WITH_TIMEOUT(validated.count() >= 1 && !view->isBusy(), Timeout);
        QCOMPARE(view->problemsPanel()->model()->errorCount(), 0);
        QVERIFY(!view->noticeBar()->isVisible());
    }

    void confirm_namesTheAction_andMakesItTheDefault()
    {
        QString accept;
        bool actionIsDefault = false;
        QTimer::singleShot(0, [&] {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            QVERIFY(box);
            for (QAbstractButton *button : box->buttons())
                if (box->buttonRole(button) == QMessageBox::AcceptRole)
                    accept = button->text();
            actionIsDefault = box->defaultButton() && box->defaultButton()->text() == accept;
            box->defaultButton()->click();
        });
        QVERIFY(
            askToConfirm(nullptr, QStringLiteral("Restore Version"), QStringLiteral("Make the files those of #1?")));
        QCOMPARE(accept, QStringLiteral("Restore Version")); // not Yes and No
        QVERIFY(actionIsDefault);
    }

    void recovery_afterCrash_offersUnsavedEdits_andApplies()
    {
        const QString original = readFile(skillMd());
        {
            auto view = openView();
            QSignalSpy autosaved(view.get(), &SkillView::autosaved);
            view->editor()->moveCursor(QTextCursor::End);
            QTest::keyClicks(view->editor(), QStringLiteral("Typed before the crash."));
            QTRY_VERIFY_WITH_TIMEOUT(autosaved.count() >= 1, Timeout);
            QVERIFY(QFileInfo::exists(view->recoveryStore().recoveryFileFor(skillMd())));
            // The view goes away without saving or asking: a crash as far as the file is concerned.
        }
        QCOMPARE(readFile(skillMd()), original);

        auto view = openView();
        QVERIFY(view->hasRecoveryOffer());
        QVERIFY(view->noticeBar()->isVisible());
        QVERIFY(view->findChild<QPushButton *>(QStringLiteral("recoverButton")));
        QVERIFY(!view->isModified());
        view->findChild<QPushButton *>(QStringLiteral("recoverButton"))->click();
        QVERIFY(!view->hasRecoveryOffer());
        QVERIFY(view->editor()->toPlainText().endsWith(QStringLiteral("Typed before the crash.")));
        QVERIFY(view->isModified());
        view->editor()->undo(); // the recovery is one edit on top of the saved text
        QCOMPARE(view->editor()->toPlainText(), original);
        view->editor()->redo();

        // Saving removes the recovery file; the next open offers nothing.
        QVERIFY(view->save());
        QVERIFY(!QFileInfo::exists(view->recoveryStore().recoveryFileFor(skillMd())));
        view.reset();
        view = openView();
        QVERIFY(!view->hasRecoveryOffer());
    }

    void recovery_discard_removesRecoveryFile()
    {
        {
            auto view = openView();
            QSignalSpy autosaved(view.get(), &SkillView::autosaved);
            QTest::keyClicks(view->editor(), QStringLiteral("x"));
            QTRY_VERIFY_WITH_TIMEOUT(autosaved.count() >= 1, Timeout);
        }
        auto view = openView();
        QVERIFY(view->hasRecoveryOffer());
        view->discardRecovery();
        QVERIFY(!QFileInfo::exists(view->recoveryStore().recoveryFileFor(skillMd())));
        QVERIFY(!view->isModified());
    }

    void externalChange_reloadsSilently_orOffersWhenEdited()
    {
        auto view = openView();
        QSignalSpy reloaded(view.get(), &SkillView::reloadedFromDisk);
        const QString changed = readFile(skillMd()) + QStringLiteral("Appended by another program.\n");
        QCOMPARE(writeFileAtomically(skillMd(), changed.toUtf8()), QString());
        QTRY_COMPARE_WITH_TIMEOUT(reloaded.count(), 1, Timeout);
        QCOMPARE(view->editor()->toPlainText(), changed);
        QVERIFY(!view->isModified());

        // With local edits the view asks instead.
        view->editor()->moveCursor(QTextCursor::Start);
        QTest::keyClicks(view->editor(), QStringLiteral("local "));
        const QString again = changed + QStringLiteral("And again.\n");
        QCOMPARE(writeFileAtomically(skillMd(), again.toUtf8()), QString());
        QTRY_VERIFY_WITH_TIMEOUT(view->hasReloadOffer(), Timeout);
        QVERIFY(view->editor()->toPlainText().startsWith(QStringLiteral("local ")));
        view->findChild<QPushButton *>(QStringLiteral("reloadButton"))->click();
        QCOMPARE(view->editor()->toPlainText(), again);
        QVERIFY(!view->isModified());

        // Our own saves are not "changes by another program".
        QSignalSpy checked(view.get(), &SkillView::diskChecked);
        view->editor()->moveCursor(QTextCursor::Start);
        QTest::keyClicks(view->editor(), QStringLiteral("mine "));
        QVERIFY(view->save());
        QTRY_VERIFY_WITH_TIMEOUT(checked.count() >= 1, Timeout);
        QVERIFY(!view->hasReloadOffer());
        QCOMPARE(reloaded.count(), 2);
        QVERIFY(view->editor()->toPlainText().startsWith(QStringLiteral("mine ")));
    }

    void profile_defaultsFromProject_andRevalidatesOnChange()
    {
        QTemporaryDir projectDir;
        QFile file(projectDir.filePath(QStringLiteral("skillforge.json")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"formatVersion": 1, "name": "p", "defaults": {"validationProfile": "claude-code"}})");
        file.close();
        auto project = Project::open(projectDir.path());
        QVERIFY(std::holds_alternative<Project>(project));
        auto view = openView();
        view->setProject(&std::get<Project>(project));
        QCOMPARE(view->profile(), ValidationProfile::ClaudeCode);
        view->openPath(m_skill);
        QTRY_VERIFY_WITH_TIMEOUT(!view->isBusy(), Timeout);
        QSignalSpy validated(view.get(), &SkillView::validated);
        view->setProfile(ValidationProfile::Upskill);
        QTRY_VERIFY_WITH_TIMEOUT(validated.count() >= 1, Timeout);
    }
};

SF_TEST_MAIN(TestSkillView)
#include "test_skill_view.moc"
