#pragma once

#include <QDialog>

class QDateEdit;
class QLabel;
class QLineEdit;
class QPushButton;

namespace sf {

class HttpEngine;
class PriceTableUpdater;

/**
 * Tools → Prices…: where the prices every cost is worked out with come from (the maintained genai-prices table, its
 * origin and date, Skillforge's own table, the user's pricing.json), a lookup of one model's price on a day (what
 * `skillforge prices show` prints), and Update, which takes a newer table from a file or URL (default: the one
 * genai-prices publishes) and keeps the one in use when the new one does not read.
 */
class PricesDialog final : public QDialog
{
    Q_OBJECT

public:
    explicit PricesDialog(HttpEngine &engine, QWidget *parent = nullptr);

    /// Starts an update from the source field; the status line says how it ended.
    void startUpdate();
    QString statusText() const;
    QString tableText() const;
    QString lookupText() const;
    void setSource(const QString &fileOrUrl);
    void lookUp(const QString &model, QDate day);

Q_SIGNALS:
    void updateFinished(bool ok);

private:
    void showTable();
    void showLookup();

    PriceTableUpdater *m_updater;
    QLabel *m_table;
    QLineEdit *m_model;
    QDateEdit *m_day;
    QLabel *m_lookup;
    QLineEdit *m_source;
    QPushButton *m_browse;
    QPushButton *m_update;
    QLabel *m_status;
};

} // namespace sf
