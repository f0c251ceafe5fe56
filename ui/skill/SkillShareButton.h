#pragma once

#include <QToolButton>

#include <functional>

namespace sf {

/// "Share" in the Skill view: pack the skill as a .skill archive, or install it into an agent's skills
/// folder (~/.claude/skills, the project's .claude/skills or .agents/skills, or any folder). An
/// existing installed copy is replaced only after the user confirms.
class SkillShareButton final : public QToolButton
{
    Q_OBJECT

public:
    using Confirm = std::function<bool(const QString &title, const QString &question)>;
    /// Where the user wants a file or folder: "" when they cancelled.
    using ChoosePath = std::function<QString(const QString &title, const QString &suggestion)>;

    explicit SkillShareButton(QWidget *parent = nullptr);

    void setSkill(const QString &skillDir, const QString &projectDir);
    void setConfirm(Confirm confirm) { m_confirm = std::move(confirm); }
    void setChoosers(ChoosePath saveFile, ChoosePath folder);

    /// The actions, public so tests drive them without menus. Each returns what it reported.
    QString pack();
    QString installTo(const QString &skillsDir);

Q_SIGNALS:
    void reported(const QString &message);

private:
    QString m_skillDir;
    QString m_projectDir;
    Confirm m_confirm;
    ChoosePath m_chooseSaveFile;
    ChoosePath m_chooseFolder;
};

} // namespace sf
