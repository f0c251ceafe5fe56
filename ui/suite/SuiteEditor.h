#pragma once

#include <QWidget>

class QAction;
class QLabel;
class QTableView;

namespace sf {

class CaseEditor;
class NoticeBar;
class SuiteCasesModel;
class SuiteDocument;

/**
 * Edits a test suite: the cases as a table (id, held-out, repeats, input, checks) over the selected case's
 * prompt, files and verifiers. Opens Skillforge's, upskill's and skill-creator's formats, saves atomically in
 * Skillforge's, imports cases from another suite and exports in Skillforge's or upskill's format. A file that
 * does not read shows its file:line error and leaves the open suite as it was; a case the reader would
 * refuse is named before anything is written.
 */
class SuiteEditor final : public QWidget
{
    Q_OBJECT

public:
    explicit SuiteEditor(QWidget *parent = nullptr);

    SuiteDocument *document() const { return m_document; }
    SuiteCasesModel *model() const { return m_model; }
    CaseEditor *caseEditor() const { return m_caseEditor; }
    QTableView *table() const { return m_table; }
    /// Where file dialogs start (the project's tests/ folder).
    void setDefaultFolder(const QString &folder) { m_defaultFolder = folder; }

    /// Starts a new suite, not yet saved anywhere, with one empty case.
    void newSuite();
    /// Opens @p path; false (with the error shown) when it does not read.
    bool openFile(const QString &path);
    /// Saves to the suite's file; suites without one, or in skill-creator's format, ask where to save.
    bool save();
    bool saveAs(const QString &path);
    /// Appends the cases of @p path (any format the reader knows), renaming ids already taken; one undo step.
    bool importFile(const QString &path);
    /// Writes the suite to @p path without making it the document's file.
    bool exportTo(const QString &path, bool upskillFormat);
    /// Asks to save unsaved edits; false when the user chose to stay.
    bool maybeSave();

    void addCase();
    void duplicateCase();
    void removeCase();
    int currentRow() const;
    void selectRow(int row);
    /// The message shown above the table ("" when none).
    QString noticeText() const;

Q_SIGNALS:
    void titleChanged(const QString &title);
    /// The suite was written to @p path (save or save as).
    void saved(const QString &path);

private:
    void showError(const QString &message);
    /// The first reason the suite cannot be saved ("" when none), and the row of its case.
    QString firstProblem(int *row) const;
    /// Shows the first problem in the banner (its case selected); false when there is one.
    bool checkCases();
    void recheckCases();
    void updateTitle();

    SuiteDocument *m_document;
    SuiteCasesModel *m_model;
    NoticeBar *m_notice;
    QTableView *m_table;
    CaseEditor *m_caseEditor;
    QAction *m_duplicate;
    QAction *m_remove;
    QAction *m_save = nullptr;
    QLabel *m_modified = nullptr; ///< "Unsaved changes" in the toolbar while the document differs from its file
    QString m_defaultFolder;
    int m_rowBeforeReset = -1;
    bool m_showsCaseProblem = false; ///< the banner holds checkCases()'s problem, which every change checks again
};

} // namespace sf
