#include "common/Confirm.h"

#include <QMessageBox>
#include <QPushButton>

namespace sf {

bool askToConfirm(QWidget *parent, const QString &title, const QString &question, bool actionIsDefault)
{
    QMessageBox box(QMessageBox::Question, title, question, QMessageBox::NoButton, parent);
    QPushButton *act = box.addButton(title, QMessageBox::AcceptRole);
    QPushButton *cancel = box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(actionIsDefault ? act : cancel);
    box.setEscapeButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() == act;
}

} // namespace sf
