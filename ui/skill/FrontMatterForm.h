#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace sf {

class SkillDocument;

/**
 * The front matter of SKILL.md as a form: name, description (with its 1,024-character budget), license and
 * allowed tools. It shows a parsed document (setDocument) and reports each edit (fieldEdited) for the view to
 * apply to the source; it never edits the text itself, so the source stays the one truth.
 */
class FrontMatterForm final : public QWidget
{
    Q_OBJECT

public:
    static constexpr int DescriptionBudget = 1024;

    explicit FrontMatterForm(QWidget *parent = nullptr);

    /// Shows @p document's values; fields whose value is already shown are left alone (cursor included).
    void setDocument(const SkillDocument &document);

    QString name() const;
    QString description() const;
    QString license() const;
    QString allowedTools() const;
    QString budgetText() const;

    QLineEdit *nameEdit() const { return m_name; }
    QPlainTextEdit *descriptionEdit() const { return m_description; }
    QLineEdit *licenseEdit() const { return m_license; }
    QLineEdit *allowedToolsEdit() const { return m_allowedTools; }

Q_SIGNALS:
    /// The user changed a field: @p key is the front-matter key ("name", "description", "license",
    /// "allowed-tools"), @p value its new text.
    void fieldEdited(const QString &key, const QString &value);

private:
    void updateBudget();

    QLineEdit *m_name;
    QPlainTextEdit *m_description;
    QLabel *m_budget;
    QLineEdit *m_license;
    QLineEdit *m_allowedTools;
    QLabel *m_status;
    bool m_updating = false;
};

} // namespace sf
