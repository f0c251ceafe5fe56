#include "common/Theme.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>
#include <algorithm>
#include <cmath>

namespace sf {

namespace {

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x31), base(0x1f, 0x21, 0x24), text(0xe6, 0xe6, 0xe6);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::white);
    p.setColor(QPalette::Highlight, QColor(0x2a, 0x62, 0xb8)); // white on it: 5.9:1
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x6c, 0xa8, 0xff));
    p.setColor(QPalette::PlaceholderText, QColor(0x8a, 0x8f, 0x98));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x7a, 0x7f, 0x88));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x7a, 0x7f, 0x88));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x7a, 0x7f, 0x88));
    return p;
}

} // namespace

Theme::Mode Theme::modeFromName(const QString &name)
{
    if (name == u"light")
        return Mode::Light;
    if (name == u"dark")
        return Mode::Dark;
    return Mode::System;
}

QString Theme::nameOf(Mode mode)
{
    switch (mode) {
    case Mode::Light: return QStringLiteral("light");
    case Mode::Dark: return QStringLiteral("dark");
    case Mode::System: break;
    }
    return QStringLiteral("system");
}

void Theme::apply(Mode mode)
{
    switch (mode) {
    case Mode::System:
        // The platform theme's palette follows the desktop's light/dark setting.
        QApplication::setPalette(QPalette());
        break;
    case Mode::Light:
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(QApplication::style()->standardPalette());
        break;
    case Mode::Dark:
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(darkPalette());
        break;
    }
    // Placeholder text is text too (Fusion's is the text colour at half strength, 3.9:1 on white), and some views
    // use its colour for quiet labels on the window.
    QPalette palette = QApplication::palette();
    palette.setColor(QPalette::PlaceholderText,
                     readableOn(readableOn(palette.color(QPalette::PlaceholderText), palette.color(QPalette::Base)),
                                palette.color(QPalette::Window)));
    // So is a selected row's (Fusion's light blue under white is 3.7:1).
    palette.setColor(QPalette::Highlight,
                     readableOn(palette.color(QPalette::Highlight), palette.color(QPalette::HighlightedText)));
    QApplication::setPalette(palette);
}

bool Theme::isDark()
{
    const QPalette palette = QApplication::palette();
    return palette.color(QPalette::Window).lightness() < palette.color(QPalette::WindowText).lightness();
}

QColor Theme::success()
{
    return isDark() ? QColor(0x5d, 0xa9, 0xe9) : QColor(0x1f, 0x5f, 0xa8);
}

QColor Theme::failure()
{
    return isDark() ? QColor(0xf0, 0x9a, 0x3e) : QColor(0xb3, 0x58, 0x06);
}

QColor Theme::muted()
{
    // Quieter than the text, but still text: readable on the window and on the base colour.
    const QPalette palette = QApplication::palette();
    return readableOn(
        readableOn(palette.color(QPalette::Disabled, QPalette::WindowText), palette.color(QPalette::Window)),
        palette.color(QPalette::Base));
}

namespace {

QColor mix(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t), float(a.greenF() + (b.greenF() - a.greenF()) * t),
                            float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

double relativeLuminance(const QColor &colour)
{
    const auto linear = [](float c) { return c <= 0.03928f ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); };
    return 0.2126 * linear(colour.redF()) + 0.7152 * linear(colour.greenF()) + 0.0722 * linear(colour.blueF());
}

QColor paletteColor(QPalette::ColorRole role)
{
    return QApplication::palette().color(role);
}

/// @p hue mixed into the base colour by @p amount, or by less where the palette's text would not read on it.
QColor tintOfBase(const QColor &hue, double amount)
{
    const QColor base = paletteColor(QPalette::Base), text = paletteColor(QPalette::Text);
    double t = amount;
    QColor tint = mix(base, hue, t);
    while (t > 0 && Theme::contrastRatio(tint, text) < Theme::MinContrast) {
        t = std::max(0.0, t - 0.05);
        tint = mix(base, hue, t);
    }
    return tint;
}

QColor hueOf(Theme::Status status)
{
    switch (status) {
    case Theme::Status::Pass:
        return Theme::success();
    case Theme::Status::Fail:
        return Theme::failure();
    case Theme::Status::Warn:
        break;
    }
    return Theme::isDark() ? QColor(0xe0, 0xb4, 0x00) : QColor(0x8a, 0x6d, 0x00);
}

} // namespace

QColor Theme::passShareBackground(double share)
{
    return tintOfBase(mix(failure(), success(), std::clamp(share, 0.0, 1.0)), 0.45);
}

QColor Theme::errorBackground()
{
    return tintOfBase(muted(), 0.35);
}

double Theme::contrastRatio(const QColor &a, const QColor &b)
{
    // A translucent colour (Fusion's placeholder text) is seen over the other one.
    const double la = relativeLuminance(a.alpha() < 255 ? mix(b, a, a.alphaF()) : a), lb = relativeLuminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor Theme::readableOn(const QColor &colour, const QColor &background, double ratio)
{
    // Towards whichever end of the scale is farther from the background, the hue kept as long as it can be.
    const QColor end = contrastRatio(background, Qt::white) > contrastRatio(background, Qt::black) ? QColor(Qt::white)
                                                                                                   : QColor(Qt::black);
    QColor result = colour;
    for (int step = 1; step <= 20 && contrastRatio(result, background) < ratio; ++step)
        result = mix(colour, end, step / 20.0);
    return result;
}

QColor Theme::textOn(const QColor &background)
{
    const QColor text = paletteColor(QPalette::Text);
    if (contrastRatio(text, background) >= MinContrast)
        return text;
    return contrastRatio(background, Qt::white) > contrastRatio(background, Qt::black) ? QColor(Qt::white)
                                                                                       : QColor(Qt::black);
}

Theme::StatusColors Theme::statusColors(Status status)
{
    const QColor background = tintOfBase(hueOf(status), 0.22);
    return {background, readableOn(hueOf(status), background)};
}

QColor Theme::statusText(Status status, const QColor &background)
{
    return readableOn(hueOf(status), background);
}

QColor Theme::statusTextOnWindow(Status status)
{
    return statusText(status, paletteColor(QPalette::Window));
}

QColor Theme::statusTextOnBase(Status status)
{
    return statusText(status, paletteColor(QPalette::Base));
}

} // namespace sf
