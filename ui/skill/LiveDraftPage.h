#pragma once

#include <QPointer>
#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace sf {

class MarkdownHighlighter;
class SkillGenerator;

/**
 * The Skill view's page while a teacher writes a skill: the reply appears in a read-only, highlighted editor
 * as it streams in, with the stage the generation is at and a Cancel button. It follows one SkillGenerator and
 * says when that is over; the view then opens the skill written. After a failure the page stays, with the reason
 * and what was written so far, until the user closes it.
 */
class LiveDraftPage final : public QWidget
{
    Q_OBJECT

public:
    explicit LiveDraftPage(QWidget *parent = nullptr);

    /// Follows @p generator (already started, with streaming on) writing with @p teacher.
    void follow(SkillGenerator *generator, const QString &teacher);
    bool isFollowing() const { return !m_generator.isNull(); }
    QString draftText() const;
    QString stageText() const;

Q_SIGNALS:
    /// The skill is written to @p skillDir; the prompt and the teacher's reply are kept at @p promptPath and
    /// @p replyPath (in the version the generation stored).
    void written(const QString &skillDir, const QString &promptPath, const QString &replyPath);
    /// The generation failed or was cancelled; @p message says why.
    void stopped(const QString &message);
    /// After a failure, the user is done reading.
    void closeRequested();

private:
    void append(const QString &text);

    QPointer<SkillGenerator> m_generator;
    QLabel *m_title;
    QLabel *m_stage;
    QPushButton *m_cancel;
    QPlainTextEdit *m_draft;
    MarkdownHighlighter *m_highlighter;
};

} // namespace sf
