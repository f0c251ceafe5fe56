#pragma once

#include <QWidget>

class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;

namespace sf {

class SuiteDocument;
class VerifierForm;

/// The selected case in full: its prompt and what its answer is expected to hold, the files put in the
/// student's workspace, and its verifiers, each edited with the form its kind needs. Edits go to the
/// document as undoable steps; undo and redo show up here.
class CaseEditor final : public QWidget
{
    Q_OBJECT

public:
    explicit CaseEditor(SuiteDocument *document, QWidget *parent = nullptr);

    /// Shows the case at @p row (-1: none).
    void setRow(int row);
    int row() const { return m_row; }

    /// Adds a verifier of @p type to the case with the fields it needs left for the user, and selects it.
    void addVerifier(const QString &type);
    /// Adds the context file @p path (workspace-relative); false when it is taken or leaves the workspace.
    bool addFile(const QString &path);

private:
    void refresh();
    void refreshFiles();
    void refreshVerifiers();
    void showFile();
    void showVerifier();
    QString currentFile() const;
    void renameFile();

    SuiteDocument *m_document;
    int m_row = -1;
    bool m_editing = false; ///< the change being applied came from this pane: leave its fields alone

    QTabWidget *m_tabs;
    QPlainTextEdit *m_input;
    QPlainTextEdit *m_expected;
    QPlainTextEdit *m_expectedOutput;
    QListWidget *m_files;
    QPlainTextEdit *m_fileContent;
    QPushButton *m_renameFile;
    QPushButton *m_removeFile;
    QListWidget *m_verifiers;
    VerifierForm *m_verifierForm;
    QPushButton *m_removeVerifier;
};

} // namespace sf
