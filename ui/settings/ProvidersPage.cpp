#include "settings/ProvidersPage.h"

#include "common/Plural.h"
#include "common/Secrets.h"
#include "llm/ApiKeyStore.h"
#include "llm/KeychainKeyStore.h"
#include "llm/ModelLister.h"
#include "llm/ProviderRegistry.h"
#include "llm/ProviderSettings.h"
#include "project/AppSettings.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

namespace sf {

namespace {

QSpinBox *spinBox(int maximum, const QString &suffix, const QString &zeroText, QWidget *parent)
{
    auto *box = new QSpinBox(parent);
    box->setRange(zeroText.isEmpty() ? 1 : 0, maximum);
    box->setSuffix(suffix);
    box->setSpecialValueText(zeroText);
    return box;
}

} // namespace

ProvidersPage::ProvidersPage(ProviderRegistry &providers, KeychainKeyStore &keys, ModelLister &lister, QWidget *parent)
    : QWidget(parent)
    , m_providers(providers)
    , m_keys(keys)
    , m_lister(lister)
    , m_list(new QListWidget(this))
    , m_name(new QLineEdit(this))
    , m_format(new QComboBox(this))
    , m_baseUrl(new QLineEdit(this))
    , m_key(new QLineEdit(this))
    , m_headers(new QPlainTextEdit(this))
    , m_maxConcurrent(spinBox(1000, QString(), tr("Unlimited"), this))
    , m_requestsPerMinute(spinBox(100000, tr(" / min"), tr("Unlimited"), this))
    , m_connectTimeout(spinBox(600, tr(" s"), QString(), this))
    , m_firstByteTimeout(spinBox(3600, tr(" s"), QString(), this))
    , m_idleTimeout(spinBox(3600, tr(" s"), QString(), this))
    , m_remove(new QPushButton(tr("Remove"), this))
    , m_save(new QPushButton(tr("Save"), this))
    , m_testButton(new QPushButton(tr("Test Connection"), this))
    , m_status(new QLabel(this))
{
    m_list->setObjectName(QStringLiteral("providerList"));
    m_name->setObjectName(QStringLiteral("providerName"));
    m_baseUrl->setObjectName(QStringLiteral("providerBaseUrl"));
    m_key->setObjectName(QStringLiteral("providerKey"));
    m_status->setObjectName(QStringLiteral("providerStatus"));
    m_save->setObjectName(QStringLiteral("saveProvider"));
    m_testButton->setObjectName(QStringLiteral("testConnection"));
    m_maxConcurrent->setObjectName(QStringLiteral("providerMaxConcurrent"));
    m_remove->setObjectName(QStringLiteral("removeProvider"));
    m_format->addItem(tr("OpenAI-compatible chat completions"), QStringLiteral("openai"));
    m_format->addItem(tr("Anthropic Messages"), QStringLiteral("anthropic"));
    m_baseUrl->setPlaceholderText(QStringLiteral("https://api.example.com/v1"));
    m_key->setEchoMode(QLineEdit::Password);
    m_headers->setPlaceholderText(tr("One header a line, e.g. X-Team: research"));
    m_headers->setMaximumHeight(80);
    m_maxConcurrent->setToolTip(tr("An evaluation's concurrency goes past Skillforge's default here, never past a limit "
                                   "you save"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *form = new QFormLayout;
    form->addRow(tr("Name:"), m_name);
    form->addRow(tr("Format:"), m_format);
    form->addRow(tr("Base URL:"), m_baseUrl);
    form->addRow(tr("API key:"), m_key);
    form->addRow(tr("Extra headers:"), m_headers);
    form->addRow(tr("Max concurrent requests:"), m_maxConcurrent);
    form->addRow(tr("Requests per minute:"), m_requestsPerMinute);
    form->addRow(tr("Connect timeout:"), m_connectTimeout);
    form->addRow(tr("First byte timeout:"), m_firstByteTimeout);
    form->addRow(tr("Idle timeout:"), m_idleTimeout);

    auto *add = new QPushButton(tr("Add Provider"), this);
    add->setObjectName(QStringLiteral("addProvider"));
    auto *listButtons = new QHBoxLayout;
    listButtons->addWidget(add);
    listButtons->addWidget(m_remove);
    auto *left = new QVBoxLayout;
    left->addWidget(m_list);
    left->addLayout(listButtons);

    auto *formButtons = new QHBoxLayout;
    formButtons->addStretch();
    formButtons->addWidget(m_testButton);
    formButtons->addWidget(m_save);
    auto *right = new QVBoxLayout;
    right->addLayout(form);
    right->addLayout(formButtons);
    right->addWidget(m_status);
    right->addStretch();

    auto *layout = new QHBoxLayout(this);
    layout->addLayout(left, 1);
    layout->addLayout(right, 2);

    connect(add, &QPushButton::clicked, this, &ProvidersPage::addProvider);
    connect(m_remove, &QPushButton::clicked, this, &ProvidersPage::removeSelected);
    connect(m_save, &QPushButton::clicked, this, [this] { save(); });
    connect(m_testButton, &QPushButton::clicked, this, &ProvidersPage::testConnection);
    connect(m_list, &QListWidget::currentTextChanged, this, [this](const QString &name) {
        if (!name.isEmpty()) {
            m_adding = false;
            showProvider(name);
        }
    });
    connect(&m_keys, &KeychainKeyStore::saved, this, [this](const QString &provider, const QString &error) {
        if (!error.isEmpty()) {
            setStatus(tr("Provider '%1' saved, but the key could not be stored in the keychain: %2").arg(provider, error),
                      true);
        } else if (m_list->currentItem() && m_list->currentItem()->text() == provider) {
            showProvider(provider);
        }
    });
    reload(QString());
}

ProvidersPage::~ProvidersPage() = default;

QList<ProviderConfig> ProvidersPage::userProviders() const
{
    QSettings settings(AppSettings::filePath(), QSettings::IniFormat);
    return ProviderSettings::load(settings);
}

void ProvidersPage::reload(const QString &select)
{
    const QSignalBlocker blocker(m_list);
    m_list->clear();
    m_list->addItems(m_providers.names());
    const QList<QListWidgetItem *> found = m_list->findItems(select, Qt::MatchExactly);
    m_list->setCurrentItem(found.isEmpty() ? m_list->item(0) : found.first());
    if (m_list->currentItem()) {
        showProvider(m_list->currentItem()->text());
    }
}

void ProvidersPage::showProvider(const QString &name)
{
    const ProviderConfig *provider = m_providers.find(name);
    if (!provider) {
        return;
    }
    bool userDefined = false;
    for (const ProviderConfig &own : userProviders()) {
        userDefined = userDefined || own.name == name;
    }
    m_name->setText(provider->name);
    m_format->setCurrentIndex(provider->format == WireFormat::AnthropicMessages ? 1 : 0);
    m_baseUrl->setText(provider->baseUrl.toString());
    m_key->clear();
    const QString key = m_providers.apiKey(*provider);
    if (key.isEmpty()) {
        m_key->setPlaceholderText(tr("No key"));
    } else if (m_keys.hasStoredKey(name)) {
        m_key->setPlaceholderText(tr("In the keychain: %1").arg(redactSecret(key)));
    } else {
        m_key->setPlaceholderText(tr("From %1: %2").arg(provider->apiKeyEnv, redactSecret(key)));
    }
    m_headers->setPlainText(ProviderSettings::headerLines(provider->extraHeaders));
    m_maxConcurrent->setValue(provider->maxConcurrent);
    m_requestsPerMinute->setValue(provider->requestsPerMinute);
    m_connectTimeout->setValue(provider->connectTimeoutMs / 1000);
    m_firstByteTimeout->setValue(provider->firstByteTimeoutMs / 1000);
    m_idleTimeout->setValue(provider->idleTimeoutMs / 1000);
    m_userDefined = userDefined;
    setEditable(userDefined);
    m_status->clear();
}

void ProvidersPage::setEditable(bool userDefined)
{
    // Built-in providers come from the environment: their keys and their limits are set here, not their address.
    for (QWidget *field : {static_cast<QWidget *>(m_format), static_cast<QWidget *>(m_baseUrl),
                           static_cast<QWidget *>(m_headers), static_cast<QWidget *>(m_connectTimeout),
                           static_cast<QWidget *>(m_firstByteTimeout), static_cast<QWidget *>(m_idleTimeout)}) {
        field->setEnabled(userDefined || m_adding);
    }
    // The embedded server's slots are what it can do at once, not a preference.
    const bool local = !m_adding && m_name->text() == QLatin1String("local");
    for (QWidget *field : {static_cast<QWidget *>(m_maxConcurrent), static_cast<QWidget *>(m_requestsPerMinute)}) {
        field->setEnabled(!local);
    }
    m_name->setEnabled(m_adding);
    m_remove->setEnabled(userDefined && !m_adding);
    m_testButton->setEnabled(!m_adding);
}

void ProvidersPage::addProvider()
{
    m_adding = true;
    m_list->clearSelection();
    const ProviderConfig defaults;
    m_name->clear();
    m_format->setCurrentIndex(0);
    m_baseUrl->clear();
    m_key->clear();
    m_key->setPlaceholderText(tr("Optional; stored in the keychain"));
    m_headers->clear();
    m_maxConcurrent->setValue(defaults.maxConcurrent);
    m_requestsPerMinute->setValue(defaults.requestsPerMinute);
    m_connectTimeout->setValue(defaults.connectTimeoutMs / 1000);
    m_firstByteTimeout->setValue(defaults.firstByteTimeoutMs / 1000);
    m_idleTimeout->setValue(defaults.idleTimeoutMs / 1000);
    setEditable(true);
    m_status->clear();
    m_name->setFocus();
}

ProviderConfig ProvidersPage::formProvider() const
{
    ProviderConfig provider;
    if (const ProviderConfig *existing = m_providers.find(m_name->text().trimmed()); existing && !m_adding) {
        provider = *existing;
    }
    provider.name = m_name->text().trimmed();
    provider.format = m_format->currentData().toString() == QStringLiteral("anthropic") ? WireFormat::AnthropicMessages
                                                                                        : WireFormat::OpenAiChat;
    provider.baseUrl = QUrl(m_baseUrl->text().trimmed());
    provider.maxConcurrent = m_maxConcurrent->value();
    provider.requestsPerMinute = m_requestsPerMinute->value();
    provider.connectTimeoutMs = m_connectTimeout->value() * 1000;
    provider.firstByteTimeoutMs = m_firstByteTimeout->value() * 1000;
    provider.idleTimeoutMs = m_idleTimeout->value() * 1000;
    return provider;
}

QString ProvidersPage::save()
{
    ProviderConfig provider = formProvider();
    if (m_adding || m_userDefined) {
        const Result<HttpHeaders> headers = ProviderSettings::parseHeaderLines(m_headers->toPlainText());
        QString problem = headers ? ProviderSettings::validate(provider) : headers.error;
        if (problem.isEmpty() && m_adding && m_providers.find(provider.name)) {
            problem = tr("There is already a provider named '%1'").arg(provider.name);
        }
        if (!problem.isEmpty()) {
            setStatus(problem, true);
            return problem;
        }
        provider.extraHeaders = *headers.value;
        provider.apiKeyRequired = false;
        QList<ProviderConfig> own = userProviders();
        own.removeIf([&provider](const ProviderConfig &entry) { return entry.name == provider.name; });
        own.append(provider);
        QSettings settings(AppSettings::filePath(), QSettings::IniFormat);
        ProviderSettings::save(settings, own);
        m_providers.add(provider);
    } else if (provider.name != QLatin1String("local")) {
        // A built-in provider's limits, kept in the settings; a run's --concurrency no longer goes past them.
        QSettings settings(AppSettings::filePath(), QSettings::IniFormat);
        ProviderSettings::saveBuiltinLimits(settings, provider.name,
                                            ProviderSettings::Limits{provider.maxConcurrent, provider.requestsPerMinute});
        provider.limitsSetByUser = true;
        m_providers.add(provider);
    }
    const QString key = m_key->text().trimmed();
    m_key->clear();
    if (!key.isEmpty()) {
        m_keys.setKey(provider.name, key); // only the keychain sees it; saved() reports failures
    }
    m_adding = false;
    reload(provider.name);
    setStatus(tr("Saved '%1'.").arg(provider.name), false);
    return {};
}

void ProvidersPage::removeSelected()
{
    if (!m_list->currentItem()) {
        return;
    }
    const QString name = m_list->currentItem()->text();
    QList<ProviderConfig> own = userProviders();
    if (own.removeIf([&name](const ProviderConfig &entry) { return entry.name == name; }) == 0) {
        return; // built-ins cannot be removed
    }
    QSettings settings(AppSettings::filePath(), QSettings::IniFormat);
    ProviderSettings::save(settings, own);
    if (m_keys.hasStoredKey(name)) {
        m_keys.setKey(name, QString());
    }
    m_providers.remove(name);
    reload(QString());
    setStatus(tr("Removed '%1'.").arg(name), false);
}

void ProvidersPage::testConnection()
{
    if (!m_list->currentItem()) {
        return;
    }
    if (m_testCall) {
        m_testCall->cancel();
    }
    const QString name = m_list->currentItem()->text();
    setStatus(tr("Connecting to '%1'…").arg(name), false);
    m_testButton->setEnabled(false);
    ModelListCall *call = m_lister.list(name);
    call->setParent(this);
    m_testCall = call;
    connect(call, &ModelListCall::finished, this, [this, call, name](const QStringList &models) {
        QString message = plural(models.size(), tr("Connected to '%1' in %2 ms: 1 model"), tr("Connected to '%1' in %2 ms: %n models"))
                              .arg(name)
                              .arg(call->latencyMs());
        if (!models.isEmpty()) {
            message += QStringLiteral(" (") + QStringList(models.mid(0, 5)).join(QStringLiteral(", ")) +
                       (models.size() > 5 ? QStringLiteral(", …)") : QStringLiteral(")"));
        }
        setStatus(message, false);
        m_testButton->setEnabled(true);
        call->deleteLater();
        Q_EMIT connectionTested(true, message);
    });
    connect(call, &ModelListCall::failed, this, [this, call, name](const QString &error) {
        // The provider's first error, verbatim: it is usually the fastest way to the fix.
        const QString message = tr("'%1' failed: %2").arg(name, error);
        setStatus(message, true);
        m_testButton->setEnabled(true);
        call->deleteLater();
        Q_EMIT connectionTested(false, message);
    });
}

void ProvidersPage::setStatus(const QString &text, bool error)
{
    m_status->setText(text);
    m_status->setProperty("error", error);
    m_status->setStyleSheet(error ? QStringLiteral("color: palette(bright-text); background: #b3261e; padding: 4px;")
                                  : QString());
}

} // namespace sf
