#pragma once

#include "llm/ProviderConfig.h"

#include <QPointer>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace sf {

class KeychainKeyStore;
class ModelListCall;
class ModelLister;
class ProviderRegistry;

/**
 * Settings for model providers: the built-ins (their keys) and the user's own providers (name,
 * wire format, base URL, key, extra headers, concurrency, requests per minute, timeouts), with a
 * "Test connection" that lists the provider's models and reports the latency or the first error
 * verbatim. Providers are saved to the settings, keys to the OS keychain only; a key is never shown
 * again after it is typed, only its redacted form.
 */
class ProvidersPage final : public QWidget
{
    Q_OBJECT

public:
    ProvidersPage(ProviderRegistry &providers, KeychainKeyStore &keys, ModelLister &lister, QWidget *parent = nullptr);
    ~ProvidersPage() override;

    /** Starts a new, empty provider in the form. */
    void addProvider();
    /** Validates and saves the form; returns the problem shown to the user, or empty on success. */
    QString save();
    void removeSelected();
    void testConnection();

Q_SIGNALS:
    /** The last connection test finished; `ok` says whether the provider answered. */
    void connectionTested(bool ok, const QString &message);

private:
    void reload(const QString &select);
    void showProvider(const QString &name);
    ProviderConfig formProvider() const;
    void setEditable(bool userDefined);
    void setStatus(const QString &text, bool error);
    QList<ProviderConfig> userProviders() const;

    ProviderRegistry &m_providers;
    KeychainKeyStore &m_keys;
    ModelLister &m_lister;
    QPointer<ModelListCall> m_testCall;
    bool m_adding = false;
    bool m_userDefined = false; // the provider in the form is the user's own, not a built-in

    QListWidget *m_list;
    QLineEdit *m_name;
    QComboBox *m_format;
    QLineEdit *m_baseUrl;
    QLineEdit *m_key;
    QPlainTextEdit *m_headers;
    QSpinBox *m_maxConcurrent;
    QSpinBox *m_requestsPerMinute;
    QSpinBox *m_connectTimeout;
    QSpinBox *m_firstByteTimeout;
    QSpinBox *m_idleTimeout;
    QPushButton *m_remove;
    QPushButton *m_save;
    QPushButton *m_testButton;
    QLabel *m_status;
};

} // namespace sf
