#pragma once

#include <QWidget>

class QLabel;
class QToolButton;

namespace sf {

class ElidedLabel;
class SkillShareButton;

/// The Skill view's top line: which file is open (and whether it has unsaved edits), its token estimate, and
/// the switches for the front-matter form and the preview, Versions… and Share.
class SkillViewHeader final : public QWidget
{
    Q_OBJECT

public:
    explicit SkillViewHeader(QWidget *parent = nullptr);

    /// @p where is the file as the user knows it ("my-skill/SKILL.md"); empty clears the title and the tokens.
    void setFile(const QString &where, bool modified);
    /// "≈ 1,200 tokens · skill ≈ 3,400"; empty hides the estimate (a single file that is no skill).
    void setTokens(const QString &text);
    /// What the open file allows: the form for SKILL.md, the preview for Markdown, versions for a skill folder.
    void setAvailable(bool form, bool preview, bool versions);

    bool isFormWanted() const;
    bool isPreviewWanted() const;
    SkillShareButton *shareButton() const { return m_share; }

Q_SIGNALS:
    void formToggled(bool on);
    void previewToggled(bool on);
    void versionsRequested();

private:
    ElidedLabel *m_title;
    QLabel *m_tokens;
    QToolButton *m_formToggle;
    QToolButton *m_previewToggle;
    QToolButton *m_versionsButton;
    SkillShareButton *m_share;
};

} // namespace sf
