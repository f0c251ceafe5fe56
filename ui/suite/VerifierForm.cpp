#include "suite/VerifierForm.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHash>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSpinBox>
#include <algorithm>

namespace sf {

namespace {

QPlainTextEdit *smallTextEdit(QWidget *parent, int lines)
{
    auto *edit = new QPlainTextEdit(parent);
    edit->setTabChangesFocus(true);
    edit->setFixedHeight(edit->fontMetrics().lineSpacing() * lines + 12);
    return edit;
}

} // namespace

VerifierForm::VerifierForm(QWidget *parent)
    : QWidget(parent)
    , m_form(new QFormLayout(this))
    , m_type(new QComboBox(this))
    , m_name(new QLineEdit(this))
    , m_values(smallTextEdit(this, 3))
    , m_pattern(new QLineEdit(this))
    , m_patternError(new QLabel(this))
    , m_path(new QLineEdit(this))
    , m_text(smallTextEdit(this, 3))
    , m_command(new QLineEdit(this))
    , m_timeout(new QSpinBox(this))
    , m_rubric(smallTextEdit(this, 4))
    , m_judgeModel(new QLineEdit(this))
    , m_threshold(new QSpinBox(this))
    , m_task(new QLineEdit(this))
    , m_dtype(new QLineEdit(this))
{
    for (const QString &type : VerifierSpec::knownTypes())
        m_type->addItem(kindLabel(type), type);
    // Named so that tests and accessibility tools find each field.
    const std::initializer_list<std::pair<QWidget *, const char *>> names = {
        {m_type, "verifierType"},           {m_name, "verifierName"},
        {m_values, "verifierValues"},       {m_pattern, "verifierPattern"},
        {m_path, "verifierPath"},           {m_text, "verifierText"},
        {m_command, "verifierCommand"},     {m_timeout, "verifierTimeout"},
        {m_rubric, "verifierRubric"},       {m_judgeModel, "verifierJudgeModel"},
        {m_threshold, "verifierThreshold"}, {m_task, "verifierTask"},
        {m_dtype, "verifierDtype"},         {m_patternError, "verifierPatternError"}};
    for (const auto &[widget, name] : names)
        widget->setObjectName(QLatin1String(name));
    m_name->setPlaceholderText(tr("optional label shown in results"));
    m_values->setPlaceholderText(tr("one per line"));
    m_path->setPlaceholderText(tr("workspace-relative"));
    m_timeout->setRange(1, 24 * 3600);
    m_timeout->setSuffix(tr(" s"));
    m_judgeModel->setPlaceholderText(tr("empty: the run's judge model"));
    m_threshold->setRange(1, 5);
    m_dtype->setPlaceholderText(QStringLiteral("fp32, bf16, fp16…"));
    m_form->setContentsMargins(0, 0, 0, 0);
    m_form->addRow(tr("Kind:"), m_type);
    m_form->addRow(tr("Label:"), m_name);
    m_form->addRow(tr("Values:"), m_values);
    m_form->addRow(tr("Pattern:"), m_pattern);
    m_patternError->setWordWrap(true);
    m_patternError->setStyleSheet(QStringLiteral("color: #c62828"));
    m_form->addRow(QString(), m_patternError);
    m_form->addRow(tr("File:"), m_path);
    m_form->addRow(tr("Text:"), m_text);
    m_form->addRow(tr("Command:"), m_command);
    m_form->addRow(tr("Timeout:"), m_timeout);
    m_form->addRow(tr("Rubric:"), m_rubric);
    m_form->addRow(tr("Judge model:"), m_judgeModel);
    m_form->addRow(tr("Pass at score:"), m_threshold);
    m_form->addRow(tr("Kernel task:"), m_task);
    m_form->addRow(tr("Dtype:"), m_dtype);

    connect(m_type, &QComboBox::currentIndexChanged, this, [this] {
        showRowsFor(m_type->currentData().toString());
        emitEdited();
    });
    // The reader refuses a pattern that does not compile: say so while it is typed, not at Save.
    connect(m_pattern, &QLineEdit::textChanged, this, [this] { showRowsFor(m_type->currentData().toString()); });
    for (QLineEdit *edit : {m_name, m_pattern, m_path, m_command, m_judgeModel, m_task, m_dtype})
        connect(edit, &QLineEdit::textEdited, this, &VerifierForm::emitEdited);
    for (QPlainTextEdit *edit : {m_values, m_text, m_rubric})
        connect(edit, &QPlainTextEdit::textChanged, this, &VerifierForm::emitEdited);
    for (QSpinBox *spin : {m_timeout, m_threshold})
        connect(spin, &QSpinBox::valueChanged, this, &VerifierForm::emitEdited);
    VerifierSpec initial;
    initial.type = QStringLiteral("contains");
    setSpec(initial);
}

void VerifierForm::setSpec(const VerifierSpec &spec)
{
    m_filling = true;
    m_spec = spec;
    m_type->setCurrentIndex(std::max(0, m_type->findData(spec.type)));
    m_name->setText(spec.name);
    m_values->setPlainText(spec.values.join(u'\n'));
    m_pattern->setText(spec.pattern);
    m_path->setText(spec.path);
    m_text->setPlainText(spec.text);
    m_command->setText(spec.command);
    m_timeout->setValue(spec.timeoutSeconds);
    m_rubric->setPlainText(spec.rubric);
    m_judgeModel->setText(spec.judgeModel);
    m_threshold->setValue(spec.threshold);
    m_task->setText(spec.task);
    m_dtype->setText(spec.dtype);
    showRowsFor(spec.type);
    m_filling = false;
}

VerifierSpec VerifierForm::spec() const
{
    VerifierSpec spec = m_spec;
    spec.type = m_type->currentData().toString();
    spec.name = m_name->text().trimmed();
    spec.values = m_values->toPlainText().split(u'\n', Qt::SkipEmptyParts);
    spec.pattern = m_pattern->text();
    spec.path = m_path->text().trimmed();
    spec.text = m_text->toPlainText();
    spec.command = m_command->text();
    spec.timeoutSeconds = m_timeout->value();
    spec.rubric = m_rubric->toPlainText();
    spec.judgeModel = m_judgeModel->text().trimmed();
    spec.threshold = m_threshold->value();
    spec.task = m_task->text().trimmed();
    spec.dtype = m_dtype->text().trimmed();
    // A field the kind does not use is not written: switching a regex to a command leaves no stray pattern.
    const QString &t = spec.type;
    const bool values = t == QLatin1String("contains") || t == QLatin1String("not_contains");
    const bool path = t == QLatin1String("regex") || t == QLatin1String("file_exists") ||
                      t == QLatin1String("file_contains") || t == QLatin1String("json_valid") ||
                      t == QLatin1String("cuda_kernel");
    if (!values)
        spec.values.clear();
    if (t != QLatin1String("regex"))
        spec.pattern.clear();
    if (!path)
        spec.path.clear();
    if (t != QLatin1String("file_contains"))
        spec.text.clear();
    if (t != QLatin1String("command"))
        spec.command.clear();
    if (t != QLatin1String("llm_judge")) {
        spec.rubric.clear();
        spec.judgeModel.clear();
    }
    if (t != QLatin1String("cuda_kernel")) {
        spec.task.clear();
        spec.dtype.clear();
    }
    return spec;
}

void VerifierForm::showRowsFor(const QString &type)
{
    const auto is = [&](std::initializer_list<const char *> kinds) {
        return std::any_of(kinds.begin(), kinds.end(), [&](const char *k) { return type == QLatin1String(k); });
    };
    m_form->setRowVisible(m_values, is({"contains", "not_contains"}));
    m_form->setRowVisible(m_pattern, is({"regex"}));
    const QString error = is({"regex"}) ? patternError() : QString();
    m_patternError->setText(error);
    m_form->setRowVisible(m_patternError, !error.isEmpty());
    m_form->setRowVisible(m_path, is({"regex", "file_exists", "file_contains", "json_valid", "cuda_kernel"}));
    m_path->setPlaceholderText(is({"regex", "json_valid"}) ? tr("empty: the answer; else a workspace file")
                                                           : tr("workspace-relative"));
    m_form->setRowVisible(m_text, is({"file_contains"}));
    m_form->setRowVisible(m_command, is({"command"}));
    m_form->setRowVisible(m_timeout, is({"command"}));
    m_form->setRowVisible(m_rubric, is({"llm_judge"}));
    m_form->setRowVisible(m_judgeModel, is({"llm_judge"}));
    m_form->setRowVisible(m_threshold, is({"llm_judge"}));
    m_form->setRowVisible(m_task, is({"cuda_kernel"}));
    m_form->setRowVisible(m_dtype, is({"cuda_kernel"}));
}

void VerifierForm::emitEdited()
{
    if (!m_filling)
        Q_EMIT edited(spec());
}

QString VerifierForm::patternError() const
{
    const QRegularExpression re(m_pattern->text());
    if (re.isValid())
        return {};
    return tr("Not a valid regular expression: %1 (at character %2)")
        .arg(re.errorString())
        .arg(re.patternErrorOffset() + 1);
}

QString VerifierForm::kindLabel(const QString &type)
{
    static const QHash<QString, QString> labels = {
        {QStringLiteral("contains"), tr("Answer contains")},
        {QStringLiteral("not_contains"), tr("Answer does not contain")},
        {QStringLiteral("regex"), tr("Matches a pattern")},
        {QStringLiteral("file_exists"), tr("File exists")},
        {QStringLiteral("file_contains"), tr("File contains")},
        {QStringLiteral("json_valid"), tr("Valid JSON")},
        {QStringLiteral("command"), tr("Command succeeds")},
        {QStringLiteral("llm_judge"), tr("Judged by a model")},
        {QStringLiteral("cuda_kernel"), tr("CUDA kernel check")}};
    return labels.value(type, type);
}

QString VerifierForm::summary(const VerifierSpec &spec)
{
    const QString &t = spec.type;
    QString detail;
    if (!spec.values.isEmpty())
        detail = QStringLiteral("\"%1\"").arg(spec.values.join(QStringLiteral("\", \"")));
    else if (t == QLatin1String("regex"))
        detail = QStringLiteral("/%1/").arg(spec.pattern);
    else if (t == QLatin1String("command"))
        detail = spec.command;
    else if (t == QLatin1String("llm_judge"))
        detail = QStringLiteral("≥ %1").arg(spec.threshold);
    else if (t == QLatin1String("cuda_kernel"))
        detail = spec.dtype.isEmpty() ? spec.task : QStringLiteral("%1 %2").arg(spec.task, spec.dtype);
    if (t == QLatin1String("file_exists"))
        detail = spec.path;
    else if (!spec.path.isEmpty())
        detail += (detail.isEmpty() ? QString() : QStringLiteral(" ")) + QStringLiteral("in %1").arg(spec.path);
    QString line = spec.name.isEmpty() ? kindLabel(t) : QStringLiteral("%1 (%2)").arg(spec.name, kindLabel(t));
    if (!detail.isEmpty())
        line += QStringLiteral(": ") + detail.simplified();
    return line.size() > 100 ? line.left(99) + QChar(0x2026) : line;
}

} // namespace sf
