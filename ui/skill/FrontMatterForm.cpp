#include "skill/FrontMatterForm.h"

#include "common/Theme.h"
#include "skill/SkillDocument.h"

#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>

namespace sf {

FrontMatterForm::FrontMatterForm(QWidget *parent)
    : QWidget(parent)
    , m_name(new QLineEdit(this))
    , m_description(new QPlainTextEdit(this))
    , m_budget(new QLabel(this))
    , m_license(new QLineEdit(this))
    , m_allowedTools(new QLineEdit(this))
    , m_status(new QLabel(this))
{
    m_name->setPlaceholderText(tr("lowercase-with-hyphens, the folder's name"));
    m_name->setAccessibleName(tr("Skill name"));
    m_description->setPlaceholderText(tr("What the skill does and when to use it"));
    m_description->setAccessibleName(tr("Skill description"));
    m_description->setTabChangesFocus(true);
    m_description->setFixedHeight(m_description->fontMetrics().lineSpacing() * 3 + 12);
    m_license->setPlaceholderText(tr("e.g. Apache-2.0"));
    m_license->setAccessibleName(tr("License"));
    m_allowedTools->setPlaceholderText(tr("e.g. Read Grep Bash(git:*)"));
    m_allowedTools->setAccessibleName(tr("Allowed tools"));
    m_budget->setAlignment(Qt::AlignRight | Qt::AlignTop);
    m_budget->setToolTip(tr("The description's length against the 1,024-character limit of the specification"));
    m_status->setWordWrap(true);
    m_status->hide();

    auto *grid = new QGridLayout(this);
    grid->setContentsMargins(8, 6, 8, 6);
    grid->setHorizontalSpacing(8);
    grid->setVerticalSpacing(4);
    const auto label = [this](const QString &text, QWidget *buddy) {
        auto *l = new QLabel(text, this);
        l->setBuddy(buddy);
        return l;
    };
    grid->addWidget(label(tr("&Name"), m_name), 0, 0);
    grid->addWidget(m_name, 0, 1);
    grid->addWidget(label(tr("&License"), m_license), 0, 2);
    grid->addWidget(m_license, 0, 3);
    auto *descriptionLabel = label(tr("&Description"), m_description);
    descriptionLabel->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    grid->addWidget(descriptionLabel, 1, 0);
    grid->addWidget(m_description, 1, 1, 1, 3);
    grid->addWidget(m_budget, 2, 3);
    grid->addWidget(label(tr("Allowed &tools"), m_allowedTools), 2, 0);
    grid->addWidget(m_allowedTools, 2, 1, 1, 2);
    grid->addWidget(m_status, 3, 0, 1, 4);
    grid->setColumnStretch(1, 3);
    grid->setColumnStretch(3, 1);

    const auto emitEdit = [this](const QString &key, const QString &value) {
        if (!m_updating)
            Q_EMIT fieldEdited(key, value);
    };
    connect(m_name, &QLineEdit::textEdited, this,
            [emitEdit](const QString &text) { emitEdit(QStringLiteral("name"), text); });
    connect(m_license, &QLineEdit::textEdited, this,
            [emitEdit](const QString &text) { emitEdit(QStringLiteral("license"), text); });
    connect(m_allowedTools, &QLineEdit::textEdited, this,
            [emitEdit](const QString &text) { emitEdit(QStringLiteral("allowed-tools"), text); });
    connect(m_description, &QPlainTextEdit::textChanged, this, [this, emitEdit] {
        updateBudget();
        emitEdit(QStringLiteral("description"), m_description->toPlainText());
    });
    updateBudget();
}

void FrontMatterForm::setDocument(const SkillDocument &document)
{
    // While the YAML does not parse, the fields keep their last good values and wait: editing them would
    // rewrite a front matter that cannot be read.
    const auto error = document.yamlError();
    for (QWidget *field : {static_cast<QWidget *>(m_name), static_cast<QWidget *>(m_description),
                           static_cast<QWidget *>(m_license), static_cast<QWidget *>(m_allowedTools)})
        field->setEnabled(!error);
    if (error) {
        m_status->setText(tr("The front matter is not valid YAML (line %1: %2). Fix it in the source to edit it here.")
                              .arg(error->line)
                              .arg(error->message.toHtmlEscaped()));
        m_status->setStyleSheet(QStringLiteral("color: %1").arg(Theme::failure().name()));
        m_status->show();
        return;
    }
    m_status->hide();
    m_updating = true;
    const auto setLine = [](QLineEdit *edit, const QString &value) {
        if (edit->text() != value)
            edit->setText(value);
    };
    setLine(m_name, document.name());
    setLine(m_license, document.license());
    // A list in the YAML shows space-separated; typing here writes the space-separated string form.
    const QStringList tools = document.allowedTools();
    const std::optional<QString> toolsScalar = document.scalar(QStringLiteral("allowed-tools"));
    setLine(m_allowedTools, toolsScalar ? *toolsScalar : tools.join(u' '));
    const QString description = document.description();
    if (m_description->toPlainText() != description) {
        // Keep the cursor where it was, as far as the new text allows.
        const int position = m_description->textCursor().position();
        m_description->setPlainText(description);
        QTextCursor cursor = m_description->textCursor();
        cursor.setPosition(qMin(position, int(description.size())));
        m_description->setTextCursor(cursor);
    }
    updateBudget();
    m_updating = false;
}

QString FrontMatterForm::name() const
{
    return m_name->text();
}

QString FrontMatterForm::description() const
{
    return m_description->toPlainText();
}

QString FrontMatterForm::license() const
{
    return m_license->text();
}

QString FrontMatterForm::allowedTools() const
{
    return m_allowedTools->text();
}

QString FrontMatterForm::budgetText() const
{
    return m_budget->text();
}

void FrontMatterForm::updateBudget()
{
    const int length = int(m_description->toPlainText().size());
    m_budget->setText(QStringLiteral("%1 / %2").arg(length).arg(DescriptionBudget));
    const QColor color = length > DescriptionBudget ? Theme::failure() : Theme::muted();
    m_budget->setStyleSheet(QStringLiteral("color: %1").arg(color.name()));
}

} // namespace sf
