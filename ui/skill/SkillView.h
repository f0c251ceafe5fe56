#pragma once

#include "common/ViewPage.h"

class QLabel;
class QListWidget;
class QPlainTextEdit;
class QStackedWidget;

namespace sf {

class EmptyState;
class FindBar;

/// The Skill view: the files of a skill folder (SKILL.md, references/, scripts/, assets/) and a text
/// editor for the one chosen. Saves are atomic; unsaved edits are never dropped without asking.
/// Also edits a single file such as a test suite.
class SkillView final : public ViewPage
{
    Q_OBJECT

public:
    explicit SkillView(QWidget *parent = nullptr);

    void setProject(const Project *project) override;
    /// A skill folder (lists its files, opens SKILL.md) or a single file.
    void openPath(const QString &path) override;
    bool maybeSave() override;
    bool save() override;
    bool isModified() const override;
    QPlainTextEdit *textEditor() const override { return m_editor; }
    void activateFind() override;

    QString currentFile() const { return m_file; }

private:
    bool openFile(const QString &file);
    void listFolder(const QString &folder);
    void updateTitle();

    QString m_folder;
    QString m_file;
    QStackedWidget *m_stack;
    EmptyState *m_empty;
    QLabel *m_title;
    QListWidget *m_files;
    QPlainTextEdit *m_editor;
    FindBar *m_findBar;
};

} // namespace sf
