#pragma once

#include "skill/SkillVersionStore.h"

#include <QDialog>
#include <functional>

class QComboBox;
class QLabel;
class QPushButton;
class QTreeWidget;

namespace sf {

class DiffView;

/**
 * The versions of a skill: every save, generation and refinement (time, origin, message), a side-by-side
 * diff of any two of them or of one against the current text, and restore, which asks first.
 */
class VersionsDialog final : public QDialog
{
    Q_OBJECT

public:
    using Confirm = std::function<bool(const QString &title, const QString &question)>;
    /// The editor's text of the file it has open (relative path, text), which "Current" shows for that file.
    using CurrentText = std::function<std::pair<QString, QString>()>;

    VersionsDialog(const QString &skillDir, CurrentText currentText, QWidget *parent = nullptr);

    void reload();
    const QList<SkillVersion> &versions() const { return m_versions; }

    /// Compares version @p oldId with @p newId ("" is the current text) for file @p file.
    void compare(const QString &oldId, const QString &newId, const QString &file = QStringLiteral("SKILL.md"));
    /// Selects version @p id in the list: compares it with the current text.
    void selectVersion(const QString &id);
    /// Restores @p id without asking; "" or an error.
    QString restoreVersion(const QString &id);
    void setConfirm(Confirm confirm) { m_confirm = std::move(confirm); }

    DiffView *diffView() const { return m_diff; }
    QTreeWidget *versionList() const { return m_list; }

Q_SIGNALS:
    /// The folder now holds version @p id's files.
    void restored(const QString &id);

private:
    QMap<QString, QByteArray> filesOf(const QString &id) const;
    QString titleOf(const QString &id) const;
    int numberOf(const QString &id) const;
    void updateFiles();
    void updateDiff();
    void chooseRestore();

    QString m_dir;
    SkillVersionStore m_store;
    CurrentText m_currentText;
    QList<SkillVersion> m_versions;
    QTreeWidget *m_list;
    QComboBox *m_old;
    QComboBox *m_new;
    QComboBox *m_file;
    DiffView *m_diff;
    QPushButton *m_restore;
    QLabel *m_empty;
    Confirm m_confirm;
    bool m_updating = false;
};

} // namespace sf
