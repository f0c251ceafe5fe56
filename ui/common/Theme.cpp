#include "common/Theme.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>
#include <algorithm>

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
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x7a, 0xd6));
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
    return QApplication::palette().color(QPalette::Disabled, QPalette::WindowText);
}

namespace {

QColor mix(const QColor &a, const QColor &b, double t)
{
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t), float(a.greenF() + (b.greenF() - a.greenF()) * t),
                            float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

} // namespace

QColor Theme::passShareBackground(double share)
{
    const QColor base = QApplication::palette().color(QPalette::Base);
    return mix(base, mix(failure(), success(), std::clamp(share, 0.0, 1.0)), 0.45);
}

QColor Theme::errorBackground()
{
    return mix(QApplication::palette().color(QPalette::Base), muted(), 0.35);
}

} // namespace sf
