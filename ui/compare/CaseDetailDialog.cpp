#include "compare/CaseDetailDialog.h"

#include "agents/Harness.h"
#include "common/Plural.h"
#include "skill/DiffView.h"
#include "trace/TraceExport.h"
#include "trace/TraceImport.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

namespace sf {

QString transcriptText(const ItemResult &result, const QJsonObject &transcript)
{
    const QLocale locale;
    QString text = result.isError() ? CaseDetailDialog::tr("ERROR: %1").arg(result.error)
                                    : (result.passed ? CaseDetailDialog::tr("PASSED") : CaseDetailDialog::tr("FAILED"));
    text +=
        CaseDetailDialog::tr(" — stop: %1, %2 tokens, %3, %4 s, %5, %6\n")
            .arg(result.stopReason.isEmpty() ? QStringLiteral("—") : result.stopReason,
                 locale.toString(result.totalTokens()), result.costText(),
                 locale.toString(result.latencyMs / 1000.0, 'f', 2),
                 plural(result.turns, CaseDetailDialog::tr("1 turn"), CaseDetailDialog::tr("%n turns")),
                 plural(result.toolCalls, CaseDetailDialog::tr("1 tool call"), CaseDetailDialog::tr("%n tool calls")));
    text += CaseDetailDialog::tr("\nVerifiers:\n");
    if (result.verifiers.isEmpty())
        text += CaseDetailDialog::tr("  (none ran)\n");
    for (const VerifierOutcome &v : result.verifiers) {
        const QString verdict = !v.available ? CaseDetailDialog::tr("not available")
                                             : (v.passed ? CaseDetailDialog::tr("pass") : CaseDetailDialog::tr("fail"));
        text += QStringLiteral("  [%1] %2: %3\n").arg(verdict, verifierLabel(v), v.evidence);
        if (v.score)
            text += CaseDetailDialog::tr("      score %1/5: %2\n").arg(*v.score).arg(v.reasoning);
    }
    if (const QString cli = agentCliText(result, transcript); !cli.isEmpty()) {
        // An agent CLI's steps are in its own session file, not in Skillforge's transcript.
        text += u'\n' + cli;
        const QString prompt = transcript.value(QStringLiteral("prompt")).toString();
        if (!prompt.isEmpty())
            text += CaseDetailDialog::tr("\n── prompt ──\n%1\n").arg(prompt);
        return text;
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

QString agentCliText(const ItemResult &result, const QJsonObject &transcript)
{
    const QString harness = transcript.value(QStringLiteral("harness")).toString();
    if (!Harness::isAgentCli(harness) && result.harnessSession.isEmpty())
        return {};
    const QLocale locale;
    QString text = CaseDetailDialog::tr("Harness: %1 %2")
                       .arg(Harness::label(harness), transcript.value(QStringLiteral("cli_version")).toString())
                       .trimmed();
    if (result.cliStartupMs >= 0)
        text += CaseDetailDialog::tr(", %1 s from its start to the first model request")
                    .arg(locale.toString(result.cliStartupMs / 1000.0, 'f', 2));
    text += u'\n';
    if (result.key.arm == kWithSkillArm && result.skillLoaded) {
        if (*result.skillLoaded) {
            text += CaseDetailDialog::tr("Skill: loaded after model call %1").arg(result.skillLoadedAtTurn);
            if (const QString how = transcript.value(QStringLiteral("skill_loaded_by")).toString(); !how.isEmpty())
                text += CaseDetailDialog::tr(" (%1)").arg(how);
            text += result.skillFilesRead.isEmpty() ? QStringLiteral("\n")
                                                    : CaseDetailDialog::tr("; files of its folder read: %1\n")
                                                          .arg(result.skillFilesRead.join(QStringLiteral(", ")));
        } else if (result.isError()) {
            text += CaseDetailDialog::tr("Skill: not loaded before the item ended in an error\n");
        } else {
            text += CaseDetailDialog::tr("Skill: never loaded — a silent bypass: this outcome says nothing about the "
                                         "skill's content\n");
        }
    }
    if (!result.harnessSession.isEmpty())
        text += CaseDetailDialog::tr("Session: %1\n").arg(result.harnessSession);
    return text;
}

QString sessionText(const QString &sessionFile)
{
    const Result<Trace> trace = importTrace(sessionFile);
    if (!trace)
        return CaseDetailDialog::tr("\n(The CLI's session could not be read: %1)\n").arg(trace.error);
    return CaseDetailDialog::tr("\n── the CLI's session ──\n%1").arg(traceToMarkdown(*trace.value));
}

CaseDetailDialog::CaseDetailDialog(QWidget *parent)
    : QDialog(parent)
    , m_title(new QLabel(this))
    , m_repeat(new QComboBox(this))
    , m_baselineTitle(new QLabel(this))
    , m_withSkillTitle(new QLabel(this))
    , m_baseline(new QPlainTextEdit(this))
    , m_withSkill(new QPlainTextEdit(this))
    , m_baselineSession(new QPushButton(tr("Open CLI Session in Trace View"), this))
    , m_withSkillSession(new QPushButton(tr("Open CLI Session in Trace View"), this))
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
    const auto addSide = [&](QLabel *label, QPlainTextEdit *edit, QPushButton *session, const QString &arm) {
        auto *side = new QWidget(sides);
        auto *layout = new QVBoxLayout(side);
        layout->setContentsMargins(0, 0, 0, 0);
        auto *head = new QHBoxLayout;
        head->addWidget(label, 1);
        head->addWidget(session);
        layout->addLayout(head);
        layout->addWidget(edit, 1);
        sides->addWidget(side);
        session->setObjectName(arm == kBaselineArm ? QStringLiteral("openBaselineSession")
                                                   : QStringLiteral("openWithSkillSession"));
        session->setToolTip(tr("Every step the CLI took, from its own session file, in the Trace view"));
        session->hide();
        connect(session, &QPushButton::clicked, this, [this, arm] {
            if (const ItemResult *result = resultOf(arm, repeat()); result && !result->harnessSession.isEmpty())
                Q_EMIT traceRequested(QDir(m_analysis->dir).absoluteFilePath(result->harnessSession));
        });
    };
    addSide(m_baselineTitle, m_baseline, m_baselineSession, kBaselineArm);
    addSide(m_withSkillTitle, m_withSkill, m_withSkillSession, kWithSkillArm);
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
    if (!result)
        return tr("This run has no %1 item for repeat %2.").arg(armLabel(arm)).arg(repeat);
    QString text = transcriptText(*result, m_analysis->transcript(*result));
    if (!result->harnessSession.isEmpty())
        text += sessionText(QDir(m_analysis->dir).absoluteFilePath(result->harnessSession));
    return text;
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
    m_baselineSession->setVisible(base && !base->harnessSession.isEmpty());
    m_withSkillSession->setVisible(skill && !skill->harnessSession.isEmpty());
    if (skill && skill->skillLoaded && !*skill->skillLoaded && !skill->isError())
        m_withSkillTitle->setText(tr("<b>With the skill</b> — repeat %1 — <i>silent bypass: the skill was never "
                                     "loaded</i>")
                                      .arg(r));
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
