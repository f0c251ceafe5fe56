#pragma once

#include <QDialog>
#include <QPointer>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace sf {

class ChatCall;
class ChatClient;

/// "Try a Model": sends one prompt to any model by name (the project's teacher and students are
/// offered) and shows the reply with its tokens and latency. The quickest check that a provider,
/// its key, or the local model works.
class TryModelDialog final : public QDialog
{
    Q_OBJECT

public:
    TryModelDialog(ChatClient &client, const QStringList &suggestedModels, QWidget *parent = nullptr);
    ~TryModelDialog() override;

private:
    void send();
    void setBusy(bool busy);

    ChatClient &m_client;
    QPointer<ChatCall> m_call;
    QComboBox *m_model;
    QPlainTextEdit *m_prompt;
    QPlainTextEdit *m_reply;
    QLabel *m_stats;
    QPushButton *m_send;
};

} // namespace sf
