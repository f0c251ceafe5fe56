#pragma once

// For tests of the dialogs with a "Student harness" choice (ui/common/HarnessChoice): stand-ins for the agent CLIs,
// and the choice's two combo boxes as a user finds them.

#include <QByteArray>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <QTest>
#include <QWidget>

namespace sf::test {

/// An executable at @p path that answers `--version` with @p version ("2.1.332 (Claude Code)", "codex-cli 0.163.0"),
/// as the agent CLIs do: enough for findAgentCli(), not for a run. Returns @p path, or "" when it cannot be written.
inline QString fakeAgentCli(const QString &path, const QByteArray &version)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write("#!/bin/sh\necho '" + version + "'\n") < 0)
        return {};
    file.close();
    QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    return path;
}

/// "Student harness:" in @p dialog.
inline QComboBox *harnessBox(const QWidget &dialog)
{
    return dialog.findChild<QComboBox *>(QStringLiteral("harnessChoice"));
}

/// "CLI:" in @p dialog.
inline QComboBox *cliBox(const QWidget &dialog)
{
    return dialog.findChild<QComboBox *>(QStringLiteral("harnessCliChoice"));
}

/// Chooses the entry of @p box whose data is @p data, as a user would.
inline void choose(QComboBox *box, const QString &data)
{
    QVERIFY(box);
    const int index = box->findData(data);
    QVERIFY(index >= 0);
    box->setCurrentIndex(index);
}

} // namespace sf::test
