#pragma once

#include <QDialog>

namespace sf {

class SuiteEditor;

/// A window around the suite editor: its title follows the file and unsaved state, and closing it asks to
/// save first.
class SuiteEditorDialog final : public QDialog
{
    Q_OBJECT

public:
    /// @p defaultFolder: where file dialogs start (the project's tests/ folder).
    explicit SuiteEditorDialog(const QString &defaultFolder, QWidget *parent = nullptr);

    SuiteEditor *editor() const { return m_editor; }

    void done(int result) override;

private:
    SuiteEditor *m_editor;
};

} // namespace sf
