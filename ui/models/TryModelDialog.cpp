#include "models/TryModelDialog.h"

#include "llm/ChatCall.h"
#include "llm/ChatClient.h"
#include "llm/LocalRuntime.h"
#include "usage/Pricing.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTextCursor>
#include <QVBoxLayout>

namespace sf {

TryModelDialog::TryModelDialog(ChatClient &client, const QStringList &suggestedModels, QWidget *parent)
    : QDialog(parent)
    , m_client(client)
    , m_model(new QComboBox(this))
    , m_prompt(new QPlainTextEdit(this))
    , m_reply(new QPlainTextEdit(this))
    , m_stats(new QLabel(this))
    , m_send(new QPushButton(tr("Send"), this))
{
    setWindowTitle(tr("Try a Model"));
    resize(640, 520);
    m_model->setEditable(true);
    m_model->addItems(suggestedModels);
    m_model->setToolTip(
        tr("PROVIDER:MODEL, e.g. %1, anthropic:claude-opus-4-5, openai:gpt-4.1").arg(LocalRuntime::qualifiedModelName()));
    m_prompt->setPlaceholderText(tr("Prompt"));
    m_prompt->setPlainText(tr("In two sentences: what does an RMSNorm CUDA kernel compute?"));
    m_reply->setReadOnly(true);
    m_reply->setPlaceholderText(tr("The reply appears here."));
    m_stats->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_send->setDefault(true);

    auto *form = new QFormLayout;
    form->addRow(tr("Model:"), m_model);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_send, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_send, &QPushButton::clicked, this, &TryModelDialog::send);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_prompt, 1);
    layout->addWidget(m_reply, 2);
    layout->addWidget(m_stats);
    layout->addWidget(buttons);
}

TryModelDialog::~TryModelDialog()
{
    delete m_call; // deleting an unfinished call cancels it
}

void TryModelDialog::send()
{
    if (m_call) {
        m_call->cancel();
        return;
    }
    ChatRequest request;
    request.messages.append({QStringLiteral("user"), m_prompt->toPlainText()});
    request.maxTokens = 512;
    request.stream = true; // the reply appears as it is written
    m_reply->clear();
    m_stats->setText(tr("Waiting for %1… (a local model starts on first use)").arg(m_model->currentText()));
    m_call = m_client.chat(m_model->currentText().trimmed(), request);
    m_call->setParent(this);
    connect(m_call, &ChatCall::textDelta, this, [this](const QString &text) {
        m_reply->moveCursor(QTextCursor::End);
        m_reply->insertPlainText(text);
    });
    connect(m_call, &ChatCall::retrying, this, [this](int attempt, qint64 waitMs, const QString &reason) {
        // The reply starts over from scratch; what it said so far is dropped.
        m_reply->clear();
        m_stats->setText(tr("Attempt %1 failed: %2. Retrying in %3 s…").arg(attempt).arg(reason).arg(
            double(waitMs) / 1000.0, 0, 'f', 1));
    });
    connect(m_call, &ChatCall::finished, this, [this](const ChatResponse &response) {
        m_reply->setPlainText(response.text);
        const QString cost = response.costUsd ? QStringLiteral("$%1").arg(*response.costUsd, 0, 'f', 6)
                                              : tr("no price for this model");
        QString stats = tr("%1 input and %2 output tokens, %3, in %4 ms (first byte after %5 ms)")
                            .arg(response.usage.totalInput())
                            .arg(response.usage.output)
                            .arg(cost)
                            .arg(response.latencyMs)
                            .arg(response.firstByteMs);
        if (response.attempts.size() > 1) {
            stats += tr("; %1 attempts, the first failed with: %2")
                         .arg(response.attempts.size())
                         .arg(response.attempts.first().error);
        }
        m_stats->setText(stats);
        // Where the price came from, for whoever wonders about the figure.
        m_stats->setToolTip(response.costUsd ? tr("Priced by %1")
                                                   .arg(Pricing::current()->sourceOf(m_model->currentText().trimmed()))
                                             : QString());
        m_call->deleteLater();
        m_call.clear();
        setBusy(false);
    });
    connect(m_call, &ChatCall::failed, this, [this](const QString &message) {
        m_stats->setText(tr("Failed: %1").arg(message));
        m_call->deleteLater();
        m_call.clear();
        setBusy(false);
    });
    setBusy(true);
}

void TryModelDialog::setBusy(bool busy)
{
    m_send->setText(busy ? tr("Cancel") : tr("Send"));
    m_model->setEnabled(!busy);
}

} // namespace sf
