#include "skill/VersionsDialog.h"

#include "common/Confirm.h"
#include "common/StatusMessages.h"
#include "skill/DiffView.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace sf {

namespace {

constexpr int IdRole = Qt::UserRole + 1;

QString originText(const QString &origin)
{
    if (origin == u"user")
        return QObject::tr("You");
    if (origin.startsWith(QStringLiteral("teacher:")))
        return QObject::tr("Teacher %1").arg(origin.mid(8));
    if (origin.startsWith(QStringLiteral("refine:")))
        return QObject::tr("Refinement %1").arg(origin.mid(7));
    return origin;
}

QString timeText(const QDateTime &time)
{
    return time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

} // namespace

VersionsDialog::VersionsDialog(const QString &skillDir, CurrentText currentText, QWidget *parent)
    : QDialog(parent)
    , m_dir(skillDir)
    , m_store(skillDir)
    , m_currentText(std::move(currentText))
    , m_list(new QTreeWidget(this))
    , m_old(new QComboBox(this))
    , m_new(new QComboBox(this))
    , m_file(new QComboBox(this))
    , m_diff(new DiffView(this))
    , m_restore(new QPushButton(tr("&Restore This Version…"), this))
    , m_empty(new QLabel(this))
    , m_confirm([this](const QString &title, const QString &question) { return askToConfirm(this, title, question); })
{
    setWindowTitle(tr("Versions — %1").arg(QFileInfo(skillDir).fileName()));
    m_restore->setObjectName(QStringLiteral("restoreButton"));
    m_list->setHeaderLabels({tr("#"), tr("Time"), tr("Origin"), tr("Message")});
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setAlternatingRowColors(true);
    m_list->setAccessibleName(tr("Versions"));
    m_list->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_list->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_list->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    m_old->setAccessibleName(tr("Older version"));
    m_new->setAccessibleName(tr("Newer version"));
    m_file->setAccessibleName(tr("File to compare"));
    m_empty->setWordWrap(true);
    m_empty->setText(tr("No versions yet. Every save, generation and refinement of the skill stores one."));

    auto *compareRow = new QHBoxLayout;
    m_file->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    compareRow->addWidget(new QLabel(tr("Compare"), this));
    compareRow->addWidget(m_old, 1);
    compareRow->addWidget(new QLabel(tr("with"), this));
    compareRow->addWidget(m_new, 1);
    compareRow->addSpacing(12);
    compareRow->addWidget(new QLabel(tr("File"), this));
    compareRow->addWidget(m_file);

    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addLayout(compareRow);
    rightLayout->addWidget(m_diff, 1);

    auto *left = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_list, 1);
    leftLayout->addWidget(m_empty);
    leftLayout->addWidget(m_restore);

    auto *splitter = new QSplitter(this);
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({440, 760}); // the message column whole for the usual "Saved SKILL.md", "Refined: …"

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(splitter, 1);
    layout->addWidget(buttons);
    resize(1200, 720);

    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_list, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem *item) {
        if (item && !m_updating)
            selectVersion(item->data(0, IdRole).toString());
        m_restore->setEnabled(item != nullptr);
    });
    const auto comboChanged = [this] {
        if (m_updating)
            return;
        updateFiles();
        updateDiff();
    };
    connect(m_old, &QComboBox::currentIndexChanged, this, comboChanged);
    connect(m_new, &QComboBox::currentIndexChanged, this, comboChanged);
    connect(m_file, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_updating)
            updateDiff();
    });
    connect(m_restore, &QPushButton::clicked, this, &VersionsDialog::chooseRestore);
    reload();
}

void VersionsDialog::reload()
{
    m_updating = true;
    m_versions = m_store.versions();
    m_list->clear();
    m_old->clear();
    m_new->clear();
    m_new->addItem(tr("Current text"), QString());
    m_old->addItem(tr("Current text"), QString());
    for (const SkillVersion &version : std::as_const(m_versions)) {
        auto *item = new QTreeWidgetItem(m_list, {QString::number(numberOf(version.id)), timeText(version.time),
                                                  originText(version.origin), version.message});
        item->setData(0, IdRole, version.id);
        for (int column = 0; column < 3; ++column)
            item->setToolTip(column, titleOf(version.id));
        item->setToolTip(3, QStringLiteral("%1\n%2\n%3").arg(version.message, version.id, version.contentHash));
        const QString label = titleOf(version.id);
        m_old->addItem(label, version.id);
        m_new->addItem(label, version.id);
    }
    m_empty->setVisible(m_versions.isEmpty());
    m_restore->setEnabled(false);
    m_updating = false;
    if (!m_versions.isEmpty()) {
        m_list->setCurrentItem(m_list->topLevelItem(0));
    } else {
        updateFiles();
        updateDiff();
    }
}

QString VersionsDialog::titleOf(const QString &id) const
{
    if (id.isEmpty())
        return tr("Current text");
    for (const SkillVersion &version : m_versions) {
        if (version.id == id)
            return tr("#%1 · %2 · %3")
                .arg(numberOf(id))
                .arg(timeText(version.time), version.message.isEmpty() ? originText(version.origin) : version.message);
    }
    return id;
}

int VersionsDialog::numberOf(const QString &id) const
{
    // Numbered from the oldest, which is #1 (the list is newest first).
    for (qsizetype i = 0; i < m_versions.size(); ++i) {
        if (m_versions[i].id == id)
            return int(m_versions.size() - i);
    }
    return 0;
}

QMap<QString, QByteArray> VersionsDialog::filesOf(const QString &id) const
{
    if (!id.isEmpty())
        return m_store.files(id);
    QMap<QString, QByteArray> files = m_store.currentFiles();
    if (m_currentText) {
        const auto [file, text] = m_currentText();
        if (!file.isEmpty())
            files.insert(file, text.toUtf8());
    }
    return files;
}

void VersionsDialog::selectVersion(const QString &id)
{
    m_updating = true;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        if (m_list->topLevelItem(i)->data(0, IdRole).toString() == id)
            m_list->setCurrentItem(m_list->topLevelItem(i));
    }
    m_old->setCurrentIndex(m_old->findData(id));
    m_new->setCurrentIndex(m_new->findData(QString()));
    m_updating = false;
    m_restore->setEnabled(!id.isEmpty());
    updateFiles();
    updateDiff();
}

void VersionsDialog::compare(const QString &oldId, const QString &newId, const QString &file)
{
    m_updating = true;
    m_old->setCurrentIndex(m_old->findData(oldId));
    m_new->setCurrentIndex(m_new->findData(newId));
    m_updating = false;
    updateFiles();
    m_updating = true;
    m_file->setCurrentIndex(qMax(0, m_file->findText(file)));
    m_updating = false;
    updateDiff();
}

void VersionsDialog::updateFiles()
{
    const QString keep = m_file->currentText();
    QStringList files = filesOf(m_old->currentData().toString()).keys();
    for (const QString &file : filesOf(m_new->currentData().toString()).keys()) {
        if (!files.contains(file))
            files.append(file);
    }
    std::sort(files.begin(), files.end(), [](const QString &a, const QString &b) {
        if ((a == u"SKILL.md") != (b == u"SKILL.md"))
            return a == u"SKILL.md";
        return a < b;
    });
    const bool wasUpdating = m_updating;
    m_updating = true;
    m_file->clear();
    m_file->addItems(files);
    const int index = m_file->findText(keep.isEmpty() ? QStringLiteral("SKILL.md") : keep);
    m_file->setCurrentIndex(qMax(0, index));
    m_updating = wasUpdating;
}

void VersionsDialog::updateDiff()
{
    const QString file = m_file->currentText();
    const QString oldId = m_old->currentData().toString();
    const QString newId = m_new->currentData().toString();
    const QString oldText = QString::fromUtf8(filesOf(oldId).value(file));
    const QString newText = QString::fromUtf8(filesOf(newId).value(file));
    m_diff->setTexts(oldText, newText, titleOf(oldId), titleOf(newId));
}

QString VersionsDialog::restoreVersion(const QString &id)
{
    const QString error = m_store.restore(id);
    if (!error.isEmpty())
        return error;
    Q_EMIT restored(id);
    reload();
    StatusMessages::show(tr("Restored the skill to the version of %1").arg(titleOf(id)));
    return {};
}

void VersionsDialog::chooseRestore()
{
    const QTreeWidgetItem *item = m_list->currentItem();
    if (!item)
        return;
    const QString id = item->data(0, IdRole).toString();
    if (!m_confirm(tr("Restore Version"),
                   tr("Make the skill's files those of %1?\n\nThe files as they are now are kept as a new version "
                      "first, so you can come back to them from this list. Unsaved edits in the editor are lost.")
                       .arg(titleOf(id))))
        return;
    const QString error = restoreVersion(id);
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Restore Version"), error);
}

} // namespace sf
