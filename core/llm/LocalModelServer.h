#pragma once

#include "HttpReply.h"
#include "LocalRuntime.h"

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QProcess>
#include <QStringList>
#include <QTimer>
#include <QUrl>

namespace sf {

class HttpEngine;

/**
 * Runs the embedded llama.cpp server (`llama-server`) on a free loopback port, on demand. It is Ready
 * once `/health` answers 200; if the process dies unexpectedly it is restarted, up to `maxRestarts`
 * times within `restartWindowMs`, after which it is Failed with the tail of the server's stderr.
 * While Ready, `/health` is asked every `healthIntervalMs`; a server that gives no answer at all for
 * `hangAfterMs` (stopped, suspended, wedged) is killed and restarted like one that crashed. The port
 * changes with each start, so callers take baseUrl() afresh for every attempt.
 * Nothing here blocks the calling thread except the bounded wait in stop().
 */
class LocalModelServer final : public QObject
{
    Q_OBJECT

public:
    enum class State
    {
        Stopped,
        Starting,
        Ready,
        Failed,
    };
    Q_ENUM(State)

    struct Options
    {
        QString serverPath;
        QString modelPath;
        // llama-server splits its context evenly across its slots (-c is their sum), so each request
        // gets contextSize whatever the others are doing: it fits or is refused up front, never cut short.
        int contextSize = 16384;         // tokens per request: prompt and reply
        int slots = LocalRuntime::slots; // requests decoded at once (llama-server's --parallel)
        int threads = 0;                 // 0: one per logical core
        int startupTimeoutMs = 120000;
        QString chatTemplate; // Jinja; empty: the template in the model's metadata
        int maxRestarts = 3;
        int restartWindowMs = 60000;
        // llama-server answers /health from its HTTP threads, also while its slots work (measured: at most 17 ms
        // while two 5,000-token prompts were read on two busy cores), so silence means the process is not running.
        int healthIntervalMs = 2000;
        int hangAfterMs = 10000;
        QStringList extraArguments;

        /** Paths from LocalRuntime, everything else at its default. */
        static Options fromRuntime();
    };

    explicit LocalModelServer(HttpEngine &engine, QObject *parent = nullptr);
    LocalModelServer(HttpEngine &engine, Options options, QObject *parent = nullptr);
    ~LocalModelServer() override;

    State state() const { return m_state; }
    /** `http://127.0.0.1:<port>/v1` while Starting or Ready. */
    QUrl baseUrl() const { return m_baseUrl; }
    /** The server's pid, 0 when no process runs. */
    qint64 processId() const;
    int restartCount() const { return m_restartCount; }
    /** Of those restarts, the ones after the server stopped answering (killed as hung). */
    int hangCount() const { return m_hangCount; }
    /** How many tokens one request may hold, prompt and reply together. */
    int requestContextTokens() const { return m_options.contextSize; }
    int slots() const { return m_options.slots; }
    QString errorString() const { return m_errorString; }
    /** The last lines the server wrote to stderr. */
    QStringList stderrTail() const { return m_stderrTail; }

    /** Why ensureStarted() cannot work (the server or the model file is missing); empty when it can. */
    QString whyNotStartable() const;

    /** Starts the server when Stopped or Failed; does nothing when Starting or Ready. */
    void ensureStarted();
    /** SIGTERM, up to 3 s for the server to exit, then SIGKILL. */
    void stop();

Q_SIGNALS:
    void stateChanged(sf::LocalModelServer::State state);
    void ready(const QUrl &baseUrl);
    void failed(const QString &message);
    void restarted(int count);

private:
    void launch();
    void pollHealth();
    void onHealthFinished();
    void onLivenessAnswer(bool answered);
    void killAsHung();
    void onProcessFinished();
    void onProcessError(QProcess::ProcessError error);
    void onStartupTimeout();
    void readStderr();
    bool lastExitWasPortClash() const;
    void fail(const QString &message);
    void discardProcess();
    void setState(State state);
    QString tailText() const;

    HttpEngine &m_engine;
    const Options m_options;
    State m_state = State::Stopped;
    QProcess *m_process = nullptr;
    HttpReplyPtr m_healthReply;
    QUrl m_baseUrl;
    QTimer m_pollTimer;
    QTimer m_startupTimer;
    QElapsedTimer m_clock;
    QList<qint64> m_crashTimes;
    int m_restartCount = 0;
    int m_hangCount = 0;
    bool m_killedAsHung = false;
    qint64 m_lastAnswerMs = 0;
    int m_portRetries = 0;
    QStringList m_stderrTail;
    QByteArray m_partialLine;
    QString m_errorString;
};

} // namespace sf
