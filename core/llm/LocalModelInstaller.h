#pragma once

#include <QObject>
#include <QProcess>
#include <QStringList>

namespace sf {

/**
 * Installs the embedded local model runtime (llama-server and the model of local-model.json) into the
 * user's cache by running the installer that is compiled into the app (`scripts/setup-local-model`,
 * the same one `scripts/setup` runs), so a user of the Debian package gets there too. It reports the
 * installer's progress lines; cancel() ends it and everything it started (a download, the build):
 * the installer writes each result under a temporary name first, so a cancelled install leaves
 * nothing half-made in place, and a later one goes on from what was finished.
 */
class LocalModelInstaller final : public QObject
{
    Q_OBJECT

public:
    explicit LocalModelInstaller(QObject *parent = nullptr);
    ~LocalModelInstaller() override;

    bool isRunning() const;
    /** The last lines the installer printed, for a failure's details. */
    QStringList outputTail() const { return m_tail; }

    /** Starts the install; does nothing while one runs. */
    void start();
    void cancel();

Q_SIGNALS:
    /** `percent` 0..100 and what the installer is doing. */
    void progress(int percent, const QString &step);
    void finished();
    void failed(const QString &message);
    void cancelled();

private:
    void readOutput();
    void onFinished(int exitCode, QProcess::ExitStatus status);

    QProcess *m_process = nullptr;
    QByteArray m_partial;
    QStringList m_tail;
    bool m_cancelling = false;
};

} // namespace sf
