#include "suite/SuiteEditorDialog.h"

#include "suite/SuiteEditor.h"

#include <QDialogButtonBox>
#include <QPushButton>
#include <QVBoxLayout>

namespace sf {

SuiteEditorDialog::SuiteEditorDialog(const QString &defaultFolder, QWidget *parent)
    : QDialog(parent)
    , m_editor(new SuiteEditor(this))
{
    m_editor->setDefaultFolder(defaultFolder);
    connect(m_editor, &SuiteEditor::titleChanged, this,
            [this](const QString &title) { setWindowTitle(tr("%1 — Test Suite").arg(title)); });
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_editor, 1);
    layout->addWidget(buttons);
    setWindowTitle(tr("Untitled suite — Test Suite"));
    resize(960, 720);
}

void SuiteEditorDialog::done(int result)
{
    // Escape, the Close button and the window's close box all end here: none may drop unsaved cases.
    if (m_editor->maybeSave())
        QDialog::done(result);
}

} // namespace sf
