#include "compare/CaseDetailDialog.h"

#include "common/Plural.h"
#include "skill/DiffView.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QVBoxLayout>

namespace sf {

QString transcriptText(const ItemResult &result, const QJsonObject &transcript)
{
    const QLocale locale;
    QString text = result.isError() ? CaseDetailDialog::tr("ERROR: %1").arg(result.error)
                                    : (result.passed ? CaseDetailDialog::tr("PASSED") : CaseDetailDialog::tr("FAILED"));
    text += CaseDetailDialog::tr(" — stop: %1, %2 tokens, %3 s, %4, %5\n")
                .arg(result.stopReason.isEmpty() ? QStringLiteral("—") : result.stopReason,
                     locale.toString(result.totalTokens()), locale.toString(result.latencyMs / 1000.0, 'f', 2),
                     plural(result.turns, CaseDetailDialog::tr("1 turn"), CaseDetailDialog::tr("%n turns")),
                     plural(result.toolCalls, CaseDetailDialog::tr("1 tool call"), CaseDetailDialog::tr("%n tool calls")));
    text += CaseDetailDialog::tr("\nVerifiers:\n");
    if (result.verifiers.isEmpty())
        text += CaseDetailDialog::tr("  (none ran)\n");
    for (const VerifierOutcome &v : result.verifiers) {
        const QString verdict = !v.available ? CaseDetailDialog::tr("not available")
                                             : (v.passed ? CaseDetailDialog::tr("pass") : CaseDetailDialog::tr("fail"));
        text += QStringLiteral("  [%1] %2: %3\n").arg(verdict, v.name.isEmpty() ? v.type : v.name, v.evidence);
        if (v.score)
            text += CaseDetailDialog::tr("      score %1/5: %2\n").arg(*v.score).arg(v.reasoning);
    }
    const QJsonArray messages = transcript.value(QStringLiteral("messages")).toArray();
    if (messages.isEmpty())
        text += CaseDetailDialog::tr("\n(No transcript stored for this item.)\n");
    for (const QJsonValue &value : messages) {
        const QJsonObject m = value.toObject();
        text += QStringLiteral("\n── %1 ──\n").arg(m.value(QStringLiteral("role")).toString());
        const QString thinking = m.value(QStringLiteral("thinking")).toString();
        if (!thinking.isEmpty())
            text += CaseDetailDialog::tr("(thinking) %1\n").arg(thinking);
        text += m.value(QStringLiteral("content")).toString() + u'\n';
        for (const QJsonValue &call : m.value(QStringLiteral("tool_calls")).toArray())
            text += QStringLiteral("→ %1(%2)\n")
                        .arg(call.toObject().value(QStringLiteral("name")).toString(),
                             call.toObject().value(QStringLiteral("arguments")).toString());
    }
    return text;
}

CaseDetailDialog::CaseDetailDialog(QWidget *parent)
    : QDialog(parent)
    , m_title(new QLabel(this))
    , m_repeat(new QComboBox(this))
    , m_baselineTitle(new QLabel(this))
    , m_withSkillTitle(new QLabel(this))
    , m_baseline(new QPlainTextEdit(this))
    , m_withSkill(new QPlainTextEdit(this))
    , m_diff(new DiffView(this))
{
    setWindowTitle(tr("Case Transcripts"));
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    for (QPlainTextEdit *edit : {m_baseline, m_withSkill}) {
        edit->setReadOnly(true);
        edit->setFont(mono);
        edit->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    }

    auto *top = new QHBoxLayout;
    top->addWidget(m_title, 1);
    top->addWidget(new QLabel(tr("Repeat:"), this));
    top->addWidget(m_repeat);

    auto *sides = new QSplitter(Qt::Horizontal, this);
    for (auto [label, edit] : {std::pair{m_baselineTitle, m_baseline}, std::pair{m_withSkillTitle, m_withSkill}}) {
        auto *side = new QWidget(sides);
        auto *layout = new QVBoxLayout(side);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(label);
        layout->addWidget(edit, 1);
        sides->addWidget(side);
    }
    auto *answers = new QWidget(this);
    auto *answersLayout = new QVBoxLayout(answers);
    answersLayout->setContentsMargins(0, 0, 0, 0);
    answersLayout->addWidget(new QLabel(tr("Final answers, line by line:"), answers));
    answersLayout->addWidget(m_diff, 1);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(sides);
    split->addWidget(answers);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(split, 1);
    layout->addWidget(buttons);
    resize(1100, 760);

    connect(m_repeat, &QComboBox::currentIndexChanged, this, &CaseDetailDialog::showRepeat);
}

const ItemResult *CaseDetailDialog::resultOf(const QString &arm, int repeat) const
{
    const CaseMatrix &matrix = m_analysis->matrix;
    const int row = matrix.rowOf(m_caseId);
    const int column = matrix.columnOf(m_model, arm);
    if (row < 0 || column < 0)
        return nullptr;
    for (const int item : matrix.rows[row].cells[column].items) {
        if (m_analysis->results[item].key.repeat == repeat)
            return &m_analysis->results[item];
    }
    return nullptr;
}

void CaseDetailDialog::showCase(std::shared_ptr<const RunAnalysis> analysis, const QString &model,
                                const QString &caseId)
{
    m_analysis = std::move(analysis);
    m_model = model;
    m_caseId = caseId;
    m_title->setText(QStringLiteral("%1 — %2 (%3)").arg(caseId, model, m_analysis->label()));
    QList<int> repeats;
    for (const ItemResult &r : m_analysis->results) {
        if (r.key.model == model && r.key.caseId == caseId && !repeats.contains(r.key.repeat))
            repeats.append(r.key.repeat);
    }
    std::sort(repeats.begin(), repeats.end());
    // Open where the skill made a difference, if it made one.
    int first = repeats.isEmpty() ? 0 : repeats.first();
    for (const int repeat : repeats) {
        const ItemResult *base = resultOf(kBaselineArm, repeat);
        const ItemResult *skill = resultOf(kWithSkillArm, repeat);
        if (base && skill && !base->isError() && !skill->isError() && base->passed != skill->passed) {
            first = repeat;
            break;
        }
    }
    const QSignalBlocker blocker(m_repeat);
    m_repeat->clear();
    for (const int repeat : repeats)
        m_repeat->addItem(QString::number(repeat), repeat);
    m_repeat->setCurrentIndex(int(repeats.indexOf(first)));
    showRepeat();
}

int CaseDetailDialog::repeat() const
{
    return m_repeat->currentData().toInt();
}

void CaseDetailDialog::setRepeat(int repeat)
{
    m_repeat->setCurrentIndex(m_repeat->findData(repeat));
}

QString CaseDetailDialog::sideText(const QString &arm, int repeat) const
{
    const ItemResult *result = resultOf(arm, repeat);
    return result ? transcriptText(*result, m_analysis->transcript(*result))
                  : tr("This run has no %1 item for repeat %2.").arg(arm).arg(repeat);
}

void CaseDetailDialog::showRepeat()
{
    if (!m_analysis)
        return;
    const int r = repeat();
    m_baselineTitle->setText(tr("<b>Without the skill</b> — repeat %1").arg(r));
    m_withSkillTitle->setText(tr("<b>With the skill</b> — repeat %1").arg(r));
    m_baseline->setPlainText(sideText(kBaselineArm, r));
    m_withSkill->setPlainText(sideText(kWithSkillArm, r));
    const ItemResult *base = resultOf(kBaselineArm, r);
    const ItemResult *skill = resultOf(kWithSkillArm, r);
    m_diff->setTexts(base ? base->answer : QString(), skill ? skill->answer : QString(), tr("Without the skill"),
                     tr("With the skill"));
}

QString CaseDetailDialog::baselineText() const
{
    return m_baseline->toPlainText();
}

QString CaseDetailDialog::withSkillText() const
{
    return m_withSkill->toPlainText();
}

} // namespace sf
