#include "charts/ChartPanel.h"

#include "common/AtomicFile.h"
#include "common/StatusMessages.h"
#include "project/AppSettings.h"

#include <QChart>
#include <QContextMenuEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStandardPaths>
#include <QSvgGenerator>

namespace sf::charts {

ChartPanel::ChartPanel(QWidget *parent)
    : QChartView(parent)
{
    setRenderHint(QPainter::Antialiasing);
    // Small enough that three side by side, above a table, fit a 1280×800 window with room to spare.
    setMinimumSize(220, 150);
}

void ChartPanel::replaceChart(QChart *chart)
{
    QChart *old = this->chart();
    setChart(chart);
    delete old;
}

QString ChartPanel::savePng(const QString &path)
{
    QImage image(size() * 2, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(2);
    image.fill(chart()->backgroundBrush().color());
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        render(&painter, QRectF(QPointF(0, 0), QSizeF(size())), rect());
    }
    // QSaveFile: an existing picture is replaced only once the new one is complete.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return tr("cannot write %1: %2").arg(path, file.errorString());
    if (!image.save(&file, "PNG"))
        return tr("cannot encode the PNG for %1").arg(path);
    if (!commitSaveFile(file))
        return tr("cannot write %1: %2").arg(path, file.errorString());
    return {};
}

QString ChartPanel::saveSvg(const QString &path)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return tr("cannot write %1: %2").arg(path, file.errorString());
    QSvgGenerator svg;
    svg.setOutputDevice(&file);
    svg.setSize(size());
    svg.setViewBox(rect());
    svg.setTitle(chart()->title());
    svg.setDescription(tr("Chart exported from Skillforge"));
    {
        QPainter painter(&svg);
        render(&painter, QRectF(rect()), rect());
    }
    if (!commitSaveFile(file))
        return tr("cannot write %1: %2").arg(path, file.errorString());
    return {};
}

void ChartPanel::contextMenuEvent(QContextMenuEvent *event)
{
    QMenu menu(this);
    menu.addAction(tr("Save as PNG…"), this, [this] { exportInteractively(QStringLiteral("png")); });
    menu.addAction(tr("Save as SVG…"), this, [this] { exportInteractively(QStringLiteral("svg")); });
    menu.exec(event->globalPos());
}

void ChartPanel::setSaveHints(const QString &prefix, const QString &folder)
{
    m_namePrefix = prefix;
    m_folderHint = folder;
}

QString ChartPanel::suggestedPath(const QString &format) const
{
    const QString title = chart()->title().isEmpty() ? QStringLiteral("chart") : chart()->title();
    QString name = (m_namePrefix.isEmpty() ? title : m_namePrefix + u' ' + title).toLower();
    // "Pass rate (95% CI)" becomes "pass-rate-95-ci": no hyphen doubled, none at either end.
    name.replace(QRegularExpression(QStringLiteral("[^a-z0-9_]+")), QStringLiteral("-"));
    name.remove(QRegularExpression(QStringLiteral("^-+|-+$")));
    QString folder = AppSettings().chartFolder();
    for (const QString &candidate :
         {m_folderHint, QStandardPaths::writableLocation(QStandardPaths::PicturesLocation), QDir::homePath()}) {
        if (!folder.isEmpty() && QFileInfo(folder).isDir())
            break;
        folder = candidate;
    }
    return QDir(folder).filePath((name.isEmpty() ? QStringLiteral("chart") : name) + u'.' + format);
}

void ChartPanel::exportInteractively(const QString &format)
{
    const QString filter = format == u"png" ? tr("PNG image (*.png)") : tr("SVG drawing (*.svg)");
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Chart"), suggestedPath(format), filter);
    if (path.isEmpty())
        return;
    const QString error = format == u"png" ? savePng(path) : saveSvg(path);
    if (!error.isEmpty()) {
        QMessageBox::warning(this, tr("Cannot save the chart"), error);
        return;
    }
    AppSettings().setChartFolder(QFileInfo(path).absolutePath());
    StatusMessages::show(tr("Saved the chart to %1").arg(QDir::toNativeSeparators(path)));
}

} // namespace sf::charts
