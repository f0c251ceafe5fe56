#include "settings/PricesDialog.h"

#include "llm/PriceTableUpdater.h"
#include "usage/Pricing.h"

#include <QDateEdit>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>

namespace sf {

PricesDialog::PricesDialog(HttpEngine &engine, QWidget *parent)
    : QDialog(parent)
    , m_updater(new PriceTableUpdater(engine, this))
    , m_table(new QLabel(this))
    , m_model(new QLineEdit(this))
    , m_day(new QDateEdit(QDate::currentDate(), this))
    , m_lookup(new QLabel(this))
    , m_source(new QLineEdit(defaultPriceTableUrl(), this))
    , m_browse(new QPushButton(tr("Choose File…"), this))
    , m_update(new QPushButton(tr("&Update"), this))
    , m_status(new QLabel(this))
{
    setWindowTitle(tr("Prices"));
    for (QLabel *label : {m_table, m_lookup, m_status}) {
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_model->setPlaceholderText(tr("PROVIDER:MODEL, e.g. anthropic:claude-sonnet-5-5"));
    m_day->setCalendarPopup(true);
    m_day->setDisplayFormat(QStringLiteral("yyyy-MM-dd"));
    m_source->setToolTip(tr("A genai-prices table (its v2 data.json): a file, or a URL to download it from"));
    m_update->setToolTip(tr("Take the table from the file or URL above; the one in use is kept if it does not read"));

    auto *tableBox = new QGroupBox(tr("Where prices come from"), this);
    auto *tableLayout = new QVBoxLayout(tableBox);
    tableLayout->addWidget(m_table);

    auto *lookupBox = new QGroupBox(tr("Look up a price"), this);
    auto *lookupForm = new QFormLayout(lookupBox);
    lookupForm->addRow(tr("Model:"), m_model);
    lookupForm->addRow(tr("On:"), m_day);
    lookupForm->addRow(m_lookup);

    auto *updateBox = new QGroupBox(tr("Update the maintained table"), this);
    auto *sourceRow = new QHBoxLayout;
    sourceRow->addWidget(m_source, 1);
    sourceRow->addWidget(m_browse);
    sourceRow->addWidget(m_update);
    auto *updateLayout = new QVBoxLayout(updateBox);
    updateLayout->addLayout(sourceRow);
    updateLayout->addWidget(m_status);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(tableBox);
    layout->addWidget(lookupBox);
    layout->addWidget(updateBox);
    layout->addStretch(1);
    layout->addWidget(buttons);

    connect(m_model, &QLineEdit::textChanged, this, &PricesDialog::showLookup);
    connect(m_day, &QDateEdit::dateChanged, this, &PricesDialog::showLookup);
    connect(m_browse, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Price Table"), QString(),
                                                          tr("genai-prices table (*.json);;All files (*)"));
        if (!file.isEmpty())
            m_source->setText(file);
    });
    connect(m_update, &QPushButton::clicked, this, &PricesDialog::startUpdate);
    connect(m_updater, &PriceTableUpdater::finished, this,
            [this](const PriceTableSummary &summary, const QString &source) {
                m_status->setText(tr("Updated from %1: %2 models of %3 providers. Costs from now on use it.")
                                      .arg(source, QLocale().toString(summary.models))
                                      .arg(summary.providers));
                m_update->setEnabled(true);
                showTable();
                showLookup();
                Q_EMIT updateFinished(true);
            });
    connect(m_updater, &PriceTableUpdater::failed, this, [this](const QString &message) {
        m_status->setText(tr("Not updated: %1").arg(message));
        m_update->setEnabled(true);
        Q_EMIT updateFinished(false);
    });
    showTable();
    showLookup();
    resize(720, sizeHint().height());
}

void PricesDialog::startUpdate()
{
    m_update->setEnabled(false);
    m_status->setText(tr("Reading %1…").arg(m_source->text()));
    m_updater->update(m_source->text().trimmed());
}

QString PricesDialog::statusText() const
{
    return m_status->text();
}

QString PricesDialog::tableText() const
{
    return m_table->text();
}

QString PricesDialog::lookupText() const
{
    return m_lookup->text();
}

void PricesDialog::setSource(const QString &fileOrUrl)
{
    m_source->setText(fileOrUrl);
}

void PricesDialog::lookUp(const QString &model, QDate day)
{
    m_day->setDate(day);
    m_model->setText(model);
    showLookup();
}

void PricesDialog::showTable()
{
    const std::shared_ptr<const Pricing> pricing = Pricing::current();
    QString text;
    if (const auto &origin = pricing->maintainedOrigin(); origin && pricing->maintained()) {
        text = tr("Maintained table: %1%2, %3 models of %4 providers (pydantic's genai-prices, MIT).")
                   .arg(origin->description,
                        origin->retrieved.isValid() ? tr(", retrieved %1").arg(origin->retrieved.toString(Qt::ISODate))
                                                    : QString(),
                        QLocale().toString(pricing->maintained()->modelCount()))
                   .arg(pricing->maintained()->providerCount());
    } else {
        text = tr("No maintained table could be read: only Skillforge's own prices and yours apply.");
    }
    text += u' ' + tr("Skillforge's own table adds the local model, Hugging Face routes and dates the maintained table "
                      "lacks. Your own prices, in %1, win over both.")
                       .arg(Pricing::userFilePath());
    m_table->setText(text);
}

void PricesDialog::showLookup()
{
    const QString model = m_model->text().trimmed();
    if (model.isEmpty()) {
        m_lookup->setText(tr("Name a model to see the price it is billed at on that day."));
        return;
    }
    const std::optional<ModelRates> rates = Pricing::current()->priceFor(model, m_day->date());
    if (!rates) {
        m_lookup->setText(tr("Price unknown: no table prices %1 on %2, so its costs show as unknown, never $0.")
                              .arg(model, m_day->date().toString(Qt::ISODate)));
        return;
    }
    m_lookup->setText(tr("%1: %2. From %3.").arg(rates->modelName, rates->summary(), rates->origin));
}

} // namespace sf
