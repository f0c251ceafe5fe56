#include "skill/SkillShareButton.h"

#include "common/Confirm.h"
#include "common/Plural.h"
#include "skill/SkillPackage.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>

namespace sf {

SkillShareButton::SkillShareButton(QWidget *parent)
    : QToolButton(parent)
{
    setText(tr("Share"));
    setToolTip(tr("Pack the skill as a .skill file, or install it where an agent finds it"));
    setAutoRaise(true);
    setPopupMode(QToolButton::InstantPopup);

    // Replacing an installed skill keeps no copy of it: Cancel is the default there.
    m_confirm = [this](const QString &title, const QString &question) {
        return askToConfirm(this, title, question, false);
    };
    m_chooseSaveFile = [this](const QString &title, const QString &suggestion) {
        return QFileDialog::getSaveFileName(this, title, suggestion, tr("Agent skill (*.skill)"));
    };
    m_chooseFolder = [this](const QString &title, const QString &suggestion) {
        return QFileDialog::getExistingDirectory(this, title, suggestion);
    };

    auto *menu = new QMenu(this);
    menu->addAction(tr("Pack as .skill File…"), this, [this] { pack(); });
    menu->addSeparator();
    menu->addAction(tr("Install to ~/.claude/skills"), this,
                    [this] { installTo(skillsDir(SkillsLocation::UserClaude)); });
    QAction *projectClaude = menu->addAction(tr("Install to the Project's .claude/skills"), this, [this] {
        installTo(skillsDir(SkillsLocation::ProjectClaude, m_projectDir));
    });
    QAction *projectAgents = menu->addAction(tr("Install to the Project's .agents/skills"), this, [this] {
        installTo(skillsDir(SkillsLocation::ProjectAgents, m_projectDir));
    });
    menu->addAction(tr("Install to a Folder…"), this, [this] {
        const QString folder = m_chooseFolder(tr("Install the skill into"), QDir::homePath());
        if (!folder.isEmpty())
            installTo(folder);
    });
    connect(menu, &QMenu::aboutToShow, this, [this, projectClaude, projectAgents] {
        projectClaude->setEnabled(!m_projectDir.isEmpty());
        projectAgents->setEnabled(!m_projectDir.isEmpty());
    });
    setMenu(menu);
    setEnabled(false);
}

void SkillShareButton::setSkill(const QString &skillDir, const QString &projectDir)
{
    m_skillDir = skillDir;
    m_projectDir = projectDir;
    setEnabled(!skillDir.isEmpty());
}

void SkillShareButton::setChoosers(ChoosePath saveFile, ChoosePath folder)
{
    m_chooseSaveFile = std::move(saveFile);
    m_chooseFolder = std::move(folder);
}

QString SkillShareButton::pack()
{
    const QString name = QFileInfo(m_skillDir).fileName();
    const QString output = m_chooseSaveFile(tr("Pack Skill"), QFileInfo(m_skillDir).absolutePath() + u'/' + name +
                                                                  QStringLiteral(".skill"));
    if (output.isEmpty())
        return {};
    const PackResult result = packSkill(m_skillDir, output);
    QString message;
    if (result.error.isEmpty()) {
        message = plural(result.entries.size(), tr("Packed 1 file into %1"), tr("Packed %n files into %1")).arg(result.archivePath);
    } else {
        message = tr("Not packed: %1").arg(result.error);
        QStringList problems;
        for (const SkillProblem &problem : result.problems) {
            if (problem.isError())
                problems.append(problem.toString());
        }
        if (!problems.isEmpty())
            message += u'\n' + problems.join(u'\n');
    }
    Q_EMIT reported(message);
    return message;
}

QString SkillShareButton::installTo(const QString &targetSkillsDir)
{
    const QString target = QDir(targetSkillsDir).filePath(QFileInfo(m_skillDir).fileName());
    bool overwrite = false;
    if (QFileInfo::exists(target)) {
        overwrite = m_confirm(tr("Replace Installed Skill"),
                              tr("%1 already exists. Replace it with this version of the skill?").arg(target));
        if (!overwrite)
            return {};
    }
    QString installed;
    const QString error = installSkill(m_skillDir, targetSkillsDir, overwrite, &installed);
    const QString message = error.isEmpty() ? tr("Installed at %1").arg(installed) : tr("Not installed: %1").arg(error);
    Q_EMIT reported(message);
    return message;
}

} // namespace sf
